"""`sfpu disasm`: instruction words back to assembly."""

from __future__ import annotations

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import disassemble
from tensix_sfpu.tb.cli.files import read_words
from tensix_sfpu.tb.cli.options import add_arch_option


def cmd_disasm(args) -> int:
    arch = args.arch or isa.DEFAULT_ARCH
    for word in read_words(args.file, args.words, arch):
        print(disassemble(word, "llk" if args.llk else "named", arch=arch))
    return 0


def register(sub) -> None:
    p = sub.add_parser("disasm", help="disassemble instruction words")
    p.add_argument("words", nargs="*", help="hexadecimal words, e.g. 840C0DD0")
    p.add_argument("-f", "--file", help="a text file of hexadecimal words (as `sfpu asm` writes)")
    p.add_argument("--llk", action="store_true", help="print the TTI_ form instead of named fields")
    add_arch_option(p, "the words'", programs=False)
    p.set_defaults(func=cmd_disasm)
