"""`sfpu asm`: a program assembled to hexadecimal instruction words."""

from __future__ import annotations

from tensix_sfpu.tb.cli.files import read_program, write_text
from tensix_sfpu.tb.cli.options import add_arch_option, out_path


def cmd_asm(args) -> int:
    program = read_program(args.file, strict=False, arch=args.arch)
    lines = [f"0x{w:08X}" for w in program.words]
    text = "\n".join(lines) + ("\n" if lines else "")
    write_text(args.output, text)
    return 0


def register(sub) -> None:
    p = sub.add_parser("asm", help="assemble a program to hexadecimal instruction words")
    p.add_argument("file", help="the assembly program (docs/commands.md, \"Assembly\")")
    p.add_argument("-o", "--output", type=out_path, help="write the words here instead of standard output")
    add_arch_option(p)
    p.set_defaults(func=cmd_asm)
