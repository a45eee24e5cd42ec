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


def add_source_options(p, listings: bool = True) -> None:
    """The options that name kernel calls: `sfpu llk` and anything that runs them. Several calls run in order
    on one thread: --init/--call repeated, or --sequence FILE. With `listings`, the command also takes a
    listing instead, whose `.arch` then decides the architecture."""
    p.add_argument("--call", metavar="EXPR", action="append",
                   help="the kernel call, e.g. 'calculate_exponential<true, true>()'; repeat it for a chain of "
                        "ops on one thread, each after its --init")
    p.add_argument("--init", metavar="EXPR", action="append",
                   help="the kernel's init call, run once before its faces; with several --call, one --init "
                        "each, in order ('-' for none)")
    p.add_argument("--sequence", metavar="FILE",
                   help="a chain of ops, one per line: HEADER | INIT | CALL (INIT '-' for none; # comments)")
    add_arch_option(p, "the program's or kernel's" if listings else "the kernel's", programs=listings)
    p.add_argument("--src", metavar="DIR", help="a tt-metal/tt-llk tree or the unpacked wheel's ttnn/tt_metal "
                                                "(default: $SFPU_LLK_SRC)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="define a preprocessor macro, e.g. -D DISABLE_SFPLOADMACRO (repeatable)")
    p.add_argument("--fp32-dest", type=int, choices=(0, 1), help="the caller's Fp32 Dst mode")
    p.add_argument("--srcb-format", type=int, metavar="N", help="the caller's SrcB format code")
    p.add_argument("--setup", action="append", default=[], metavar="DIRECTIVE",
                   help="a directive for Tensix state the caller sets up, e.g. '.addr_mod 6 dst_incr=2'")
    p.add_argument("--vector-mode", choices=list(VECTOR_MODES), default="rc",
                   help="faces the caller runs the kernel on (tt-llk's VectorMode, with the faces each runs: " +
                        ", ".join(f"{mode} {faces}" for mode, (faces, _, _) in VECTOR_MODES.items()) +
                        "; default %(default)s)")
    p.add_argument("--strict-fields", action="store_true",
                   help="a TTI_/TT_ argument with bits outside its field is an error (default: a warning)")
    p.set_defaults(frontend_warnings=[])


def arch_name(args) -> str:
    """`--arch` as the front end names it (the default architecture's when not given)."""
    return (args.arch or isa.DEFAULT_ARCH).value


def names_kernel(args) -> bool:
    """Whether `args` name kernel calls to compile (--call or --sequence) rather than a listing."""
    return bool(args.call or args.sequence)


def ops_of(args, header: str | None) -> list[api.KernelOp]:
    """The ops `args` name, in order: HEADER's --init/--call pairs, or --sequence FILE's lines."""
    if args.sequence:
        if args.call or args.init:
            raise CliError("give --sequence FILE or --init/--call, not both")
        if header:
            raise CliError(f"--sequence names each op's header; give no HEADER ({header})")
        try:
            return read_sequence(args.sequence)
        except ValueError as e:
            raise CliError(str(e)) from None
    calls, inits = args.call or [], args.init or []
    if not calls:
        raise CliError("--call EXPR is required (the kernel call, e.g. 'calculate_abs<false>()')")
    if not header:
        raise CliError("give the kernel's HEADER before --call")
    if len(calls) == 1 and len(inits) <= 1:
        inits = inits or [None]
    elif len(inits) != len(calls):
        raise CliError(f"{len(calls)} --call and {len(inits)} --init: a chain gives each call its --init, in order "
                       "('-' for none)")
    return [api.KernelOp(header, call, None if init in (None, "-") else init) for call, init in zip(calls, inits)]


def read_sequence(path: str) -> list[api.KernelOp]:
    """A sequence file: one op a line, `HEADER | INIT | CALL`, INIT '-' for none; blank lines and # comments."""
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise ValueError(f"--sequence {path}: {e.strerror}") from None
    ops = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 3 or not fields[0] or not fields[2]:
            raise ValueError(f"{path}:{number}: expected HEADER | INIT | CALL (INIT '-' for none), got {line!r}")
        ops.append(api.KernelOp(fields[0], fields[2], None if fields[1] in ("", "-") else fields[1]))
    if not ops:
        raise ValueError(f"{path}: the sequence is empty (one op a line: HEADER | INIT | CALL)")
    return ops


def listing_for(args, header: str | None):
    """Compile the kernel calls `args` name (`api.compile_kernels`)."""
    ops = ops_of(args, header)
    try:
        listing = api.compile_kernels(ops, arch=arch_name(args), src=args.src, defines=args.defines,
                                      fp32_dest=args.fp32_dest, srcb_format=args.srcb_format, setup=args.setup,
                                      vector_mode=args.vector_mode, strict_fields=args.strict_fields)
    except api.ApiError as e:
        raise from_api(e) from None
    # Said once, where the kernel is compiled; the JSON of what runs it keeps them (`frontend_warnings`).
    for warning in listing.field_warnings:
        print(f"warning: {warning}", file=sys.stderr)
    args.frontend_warnings = [w.to_json() for w in listing.field_warnings]
    return listing


def program_from_header(args, header: str):
    """`sfpu run/timeline HEADER --call ...`: the program `sfpu llk` would write."""
    return listing_for(args, header).program


def cmd_llk(args) -> int:
    try:
        if args.list:
            return _list(args)
    except LlkError as e:
        raise CliError(str(e)) from None
    if not args.header and not args.sequence:
        raise CliError("give HEADER --call EXPR, --sequence FILE, or --list DIR")
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
          + ("" if listing.program.arch.features.addr_mod_names_slot else "ADDR_MOD base set, ") +
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
    add_source_options(p, listings=False)
    p.add_argument("--list", metavar="DIR", help="list the SFPU entry points of the headers under DIR")
    p.add_argument("-o", "--output", metavar="OUT.s", help="write the listing here instead of standard output")
    p.set_defaults(func=cmd_llk)
