"""`sfpu llk`: a kernel's C++ header to a listing of the project's assembly,
or `--list DIR`: the SFPU entry points of the headers under DIR."""

from __future__ import annotations

import sys
from pathlib import Path

from tensix_sfpu.model import isa
from tensix_sfpu.tb import api
from tensix_sfpu.tb.cli.errors import CliError, from_api
from tensix_sfpu.tb.cli.options import add_arch_option
from tensix_sfpu.tb.llk.entries import entries, signature
from tensix_sfpu.tb.llk.frontend import SFPI_NOTE, VECTOR_MODES, LlkError
from tensix_sfpu.tb.llk.sources import SourceError, find_tree


def add_source_options(p) -> None:
    """The options that name a kernel call: `sfpu llk` and anything that runs one."""
    p.add_argument("--call", metavar="EXPR", help="the kernel call, e.g. 'calculate_exponential<true, true>()'")
    p.add_argument("--init", metavar="EXPR", help="the kernel's init call, run once before the faces")
    add_arch_option(p, "the program's or kernel's")
    p.add_argument("--src", metavar="DIR", help="a tt-metal/tt-llk tree or the unpacked wheel's ttnn/tt_metal "
                                                "(default: $SFPU_LLK_SRC)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="define a preprocessor macro, e.g. -D DISABLE_SFPLOADMACRO (repeatable)")
    p.add_argument("--fp32-dest", type=int, choices=(0, 1), help="the caller's Fp32 Dst mode")
    p.add_argument("--srcb-format", type=int, metavar="N", help="the caller's SrcB format code")
    p.add_argument("--setup", action="append", default=[], metavar="DIRECTIVE",
                   help="a directive for Tensix state the caller sets up, e.g. '.addr_mod 6 dst_incr=2'")
    p.add_argument("--vector-mode", choices=list(VECTOR_MODES), default="rc",
                   help="faces the caller runs the kernel on (tt-llk's VectorMode; default rc: all four)")


def arch_name(args) -> str:
    """`--arch` as the front end names it ("wormhole" when not given)."""
    return args.arch.value if args.arch is not None else "wormhole"


def listing_for(args, header: str):
    """Compile HEADER with the kernel options of `args` (`api.compile_kernel`)."""
    if not args.call:
        raise CliError("--call EXPR is required (the kernel call, e.g. 'calculate_abs<false>()')")
    try:
        return api.compile_kernel(header, args.call, init=args.init, arch=arch_name(args), src=args.src,
                                  defines=args.defines, fp32_dest=args.fp32_dest, srcb_format=args.srcb_format,
                                  setup=args.setup, vector_mode=args.vector_mode)
    except api.ApiError as e:
        raise from_api(e) from None


def program_from_header(args, header: str):
    """`sfpu run/timeline HEADER --call ...`: the program `sfpu llk` would write."""
    return listing_for(args, header).program


def cmd_llk(args) -> int:
    try:
        if args.list:
            return _list(args)
    except LlkError as e:
        raise CliError(str(e)) from None
    if not args.header:
        raise CliError("give HEADER --call EXPR, or --list DIR")
    listing = listing_for(args, args.header)
    if args.output:
        Path(args.output).write_text(listing.text)
    else:
        sys.stdout.write(listing.text)
    report = sys.stderr if not args.output else sys.stdout
    print(f"{len(listing.program.words)} instructions ({len(listing.kernel_words())} from the kernel), "
          f"front end: {listing.frontend}", file=report)
    if listing.frontend == "sfpi":
        print(SFPI_NOTE, file=report)
    print("set up by the caller outside the kernel: " +
          (", ".join(listing.caller_setup) if listing.caller_setup else "nothing given") +
          "; the driver adds the firmware's lane predication (SFPENCC) and tt-llk's unary SFPU caller "
          "(SFPCONFIG 0xF, ADDR_MOD_7 zero, counters reset, "
          + ("ADDR_MOD base set, " if listing.program.arch is isa.Arch.WORMHOLE else "") +
          "the Dst counter moved between faces)",
          file=report)
    return 0


def _list(args) -> int:
    folder = Path(args.list)
    if not folder.is_dir():
        raise LlkError(f"--list {args.list}: no such folder")
    try:
        tree = find_tree(folder, arch_name(args))
        dirs = tree.kernel_dirs if tree else [folder]
    except SourceError:
        dirs = [folder]
    for d in dirs:
        for header in sorted(d.glob("ckernel_sfpu_*.h")):
            for e in entries(header):
                init = e.inits[0].name if e.inits else "-"
                print(f"{header.name}:{e.function.line}\t{signature(e.function)}\tinit: {init}")
    return 0


def register(sub) -> None:
    p = sub.add_parser("llk", help="compile a kernel's C++ header into a listing (C++ file:line on each line)")
    p.add_argument("header", nargs="?", help="a header path, or a file name found under --src")
    add_source_options(p)
    p.add_argument("--list", metavar="DIR", help="list the SFPU entry points of the headers under DIR")
    p.add_argument("-o", "--output", metavar="OUT.s", help="write the listing here instead of standard output")
    p.set_defaults(func=cmd_llk)
