"""`sfpu run`: a program from reset on the model or an RTL backend, and its final state.
Also what `sfpu timeline` shares with it: the run itself, its options, the hazard report."""

from __future__ import annotations

import argparse
import io
import re
import sys
import textwrap
from collections import Counter

import numpy as np

from tensix_sfpu.model import dst_io, isa
from tensix_sfpu.model.asm import join_threads
from tensix_sfpu.model.hazards import group_hazards
from tensix_sfpu.model.run import result_to_json
from tensix_sfpu.tb import api
from tensix_sfpu.tb.cli.errors import CliError, NotModelled, from_api
from tensix_sfpu.tb.cli.files import load_dst, load_input, read_program, write_json, write_output
from tensix_sfpu.tb.cli.llk import add_source_options, names_kernel, program_from_header
from tensix_sfpu.tb.llk.frontend import with_cxx_locations
from tensix_sfpu.tb.cli.options import add_hazard_options, out_path
from tensix_sfpu.tb.sims.rtl_run import RtlRunResult

BACKENDS = ("model", "amaranth", "icarus", "verilator")


THREAD_SPEC = re.compile(r"([A-Za-z_]\w*):(.+)")


def load_program(args):
    """PROGRAM (a listing, or a header with --call), or one listing per
    thread (`--thread NAME:LISTING`, repeated) joined into `.thread` sections."""
    if args.thread:
        if args.program:
            raise CliError(f"give PROGRAM ({args.program}) or --thread NAME:LISTING for each thread, not both")
        if names_kernel(args):
            raise CliError("--call compiles one header; with --thread give each thread's listing (write them "
                           "with `sfpu llk HEADER --call ... -o THREAD.s`)")
        parts = []
        for spec in args.thread:
            m = THREAD_SPEC.fullmatch(spec)
            if m is None:
                raise CliError(f"--thread {spec!r}: expected NAME:LISTING, e.g. math:recip.s (NAME: letters, "
                               "digits and _)")
            parts.append((m.group(1), read_program(m.group(2), strict=not args.lenient, arch=args.arch)))
        try:
            return join_threads(parts)
        except ValueError as e:
            raise CliError(f"--thread: {e}") from None
    if names_kernel(args):           # PROGRAM is a kernel header, or --sequence names them: compile (`sfpu llk`)
        return program_from_header(args, args.program)
    if not args.program:
        raise CliError("give a PROGRAM, or --thread NAME:LISTING for each thread")
    return read_program(args.program, strict=not args.lenient, arch=args.arch)


def run_on_backend(args, program, keep_trace: bool = True):
    """`program` (`load_program`) run on the chosen backend, as a `model.run.RunResult`
    (`api.execute`): on an RTL backend its trace and final state come from the
    RTL, with the model in lock-step (tb.sims.rtl_run), elaborated for the
    program's architecture. The model keeps its trace only if asked."""
    dst = load_dst(args.dst) if args.dst is not None else None
    inputs = load_input(args.input, dst_io.FORMATS[args.format]) if args.input is not None else None
    try:
        state = api.initial_state(program, inputs, args.format, dst)
        return api.execute(program, state, backend=args.backend, strict=not args.lenient, allow=tuple(args.allow),
                           trace=keep_trace, dst_given=dst is not None or inputs is not None)
    except api.NotModelledError as e:
        raise NotModelled(str(e)) from None
    except api.ApiError as e:
        raise from_api(e) from None


DST_ROWS_SHOWN = 16


def cmd_run(args) -> int:
    program = load_program(args)
    result = run_on_backend(args, program, keep_trace=args.trace)
    print_hazards(result.hazards, "warning", sys.stderr, given=args.allow, in_program=program.allowed_rules)
    record = result_to_json(result, trace=args.trace)       # names the architecture ("arch")
    record = {"arch": record["arch"], **backend_fields(result), **record}
    if names_kernel(args):
        record["frontend_warnings"] = args.frontend_warnings
    if args.json is not None:
        write_json(record, args.json)
    if args.output is not None:
        fmt = dst_io.FORMATS[args.format]
        shape = load_input(args.input, fmt).shape if args.input is not None else (32, 32)
        buffer = io.BytesIO()
        np.save(buffer, dst_io.get_array(result.state, fmt, shape))
        write_output(args.output, buffer.getvalue())
    if args.json != "-":
        accepted = f" (the last instruction accepted in cycle {result.issue_cycles - 1})" if result.issue_cycles else ""
        on = f" on {result.state.arch.title}" if result.state.arch is not isa.DEFAULT_ARCH else ""
        print(f"{result.instructions} instructions, {result.cycles} cycles{on}{accepted}")
        if isinstance(result, RtlRunResult):
            print(f"backend: {result.backend} (the RTL), lock-step with the model: PASS "
                  f"({result.cycles_compared} cycles compared, then the final state)")
        for reg in range(8):
            lanes = result.state.lregs[reg]
            if lanes.any():
                print(f"L{reg}: " + " ".join(f"{v:08X}" for v in lanes[:8]) + " ... (lanes 0-7 of 32)")
        print_dst_written(result)
        if args.output is not None:
            print(f"wrote {args.output}: {args.format} values read back from where --input put them"
                  if args.input is not None else f"wrote {args.output}: one 32 x 32 tile of {args.format}")
    return 0


def backend_fields(result) -> dict:
    """`backend` and `lockstep` of `sfpu run --json`. A run on the RTL that
    gets this far kept in lock-step with the model (a difference stops it
    with status 1 and no JSON); the model's own run has no check (null)."""
    if isinstance(result, RtlRunResult):
        return {"backend": result.backend, "lockstep": {"passed": True, "cycles_compared": result.cycles_compared}}
    return {"backend": "model", "lockstep": None}


def print_dst_written(result) -> None:
    """The Dst rows the program wrote (16-bit rows, in hex), the first few in full."""
    rows = sorted(result.dst_rows_written)
    if not rows:
        print("Dst: no rows written")
        return
    print(f"Dst: {len(rows)} rows written ({ranges(rows)}), final contents in hex:")
    for row in rows[:DST_ROWS_SHOWN]:
        print(f"  row {row:4}: " + " ".join(f"{v:04X}" for v in result.state.dst[row]))
    if len(rows) > DST_ROWS_SHOWN:
        print(f"  ... {len(rows) - DST_ROWS_SHOWN} more rows (--json or --output for all)")


def print_hazards(hazards, label: str, out, width: int | None = None, given=(), in_program=frozenset()) -> None:
    """The hazards a lenient run let through (and the field-report warnings
    of any run), one entry per rule and program line with a count, wrapped at
    `width` if given, then a count per rule of those allowed, by where the
    permission came from: `given` (the rules of `--allow`), `in_program`
    (those of the program's `.allow` directives) or both."""
    for group in group_hazards([h for h in hazards if not h.allowed]):
        text = f"{label}: {with_cxx_locations(str(group))}"
        print(textwrap.fill(text, width, subsequent_indent="    ", break_on_hyphens=False) if width else text,
              file=out)
    allowed: dict[str, Counter] = {}
    for h in hazards:
        if h.allowed:
            allowed.setdefault(_allowed_by(h.rule, given, in_program), Counter())[h.rule] += 1
    for source, counts in allowed.items():
        print(f"allowed by {source}: " + ", ".join(f"{rule} x{n}" for rule, n in counts.items()), file=out)


def _allowed_by(rule: str, given, in_program) -> str:
    """Who let `rule` through: `--allow`, the program's `.allow`, or both (the model is told
    only the union, so the sources are told apart here)."""
    return " and ".join(source for source, rules in (("--allow", given), ("the program's .allow", in_program))
                        if rule in rules)


def ranges(cycles: list[int]) -> str:
    """Sorted whole numbers as spans: "3-5, 9"."""
    spans, start = [], cycles[0]
    for a, b in zip(cycles, cycles[1:] + [None]):
        if b != a + 1:
            spans.append(f"{start}-{a}" if a != start else str(a))
            start = b
    return ", ".join(spans)


def add_run_options(p: argparse.ArgumentParser, program_optional: bool = True) -> None:
    p.add_argument("program", nargs="?" if program_optional else None,
                   help="a program, or with --call a kernel's C++ header (see `sfpu llk`)")
    p.add_argument("--thread", action="append", default=[], metavar="NAME:LISTING",
                   help="one thread's listing (repeatable, instead of PROGRAM): the threads share the SFPU, run "
                        "one after another on the model (`sfpu race` explores their interleavings)")
    p.add_argument("--backend", choices=BACKENDS, default="model",
                   help="the cycle model, or the RTL on a simulator with the model in lock-step (default model)")
    p.add_argument("--dst", metavar="FILE.npy", help="initial Dst as raw uint16[1024][16] in a .npy file")
    p.add_argument("--input", metavar="FILE.npy",
                   help="an array of values (a multiple of 32: rows of 32, or 32 x 32 tiles) placed in Dst where "
                        "SFPLOAD reads them in --format, row group after row group from address 0")
    p.add_argument("--format", choices=dst_io.FORMATS, default=None,
                   help="the values' format for --input and --output: " +
                        "; ".join(f"{f.name}: {f.note}" for f in dst_io.FORMATS.values()) + " (default fp32)")
    p.set_defaults(format_given=False)
    add_hazard_options(p)
    add_source_options(p.add_argument_group("a kernel's C++ header as PROGRAM (sfpu llk)"))


def register(sub) -> None:
    p = sub.add_parser("run", help="run a program from reset and report the final state")
    add_run_options(p)
    p.add_argument("--json", metavar="OUT", type=out_path,
                   help="write the final state as JSON ('-' for standard output)")
    p.add_argument("--output", metavar="FILE.npy", type=out_path,
                   help="write the values SFPSTORE left where --input put them (one 32 x 32 tile without "
                        "--input), in --format, as a .npy of --input's shape")
    p.add_argument("--trace", action="store_true", help="include the per-cycle trace in the JSON")
    p.set_defaults(func=cmd_run)
