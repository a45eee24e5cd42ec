"""`sfpu isa`: write the instruction reference (docs/isa.md) from the ISA
table (`tb.isa_reference`), or check that the committed one is current."""

from __future__ import annotations

import sys

from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.tb.cli.files import read_input, write_output
from tensix_sfpu.tb.cli.options import out_path
from tensix_sfpu.tb.isa_reference import first_difference, reference

DEFAULT_OUT = "docs/isa.md"


def cmd_isa(args) -> int:
    fresh = reference()
    if not args.check:
        write_output(args.out, fresh)
        return 0
    try:
        committed = read_input(args.out, "the ISA reference").decode("utf-8")
    except UnicodeDecodeError:
        raise CliError(f"{args.out}: not UTF-8 text, so not the ISA reference") from None
    where = first_difference(committed, fresh)
    if where is None:
        print(f"{args.out}: up to date")
        return 0
    print(f"sfpu: {args.out}: {where}; run `sfpu isa --out {args.out}` to regenerate it", file=sys.stderr)
    return 1


def register(sub) -> None:
    p = sub.add_parser("isa", help="write the instruction reference of both architectures from the ISA table",
                       description="Write the per-instruction reference (encodings, operands, modifiers, sub-unit, "
                                   "latency, reads, Wormhole/Blackhole differences) generated from model/isa.py.")
    p.add_argument("--out", type=out_path, default=DEFAULT_OUT, metavar="PATH",
                   help=f"the markdown file to write or check (default: {DEFAULT_OUT}, from the current directory)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 naming the first line where PATH differs from a fresh generation")
    p.set_defaults(func=cmd_isa)
