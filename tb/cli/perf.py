"""`sfpu perf`: a kernel's cycles per tile as tt-llk's perf suite measures them
on silicon (docs/perf.md), with where the cycles went."""

from __future__ import annotations

import argparse

from tensix_sfpu.tb import api
from tensix_sfpu.tb.cli.errors import CliError, from_api
from tensix_sfpu.tb.cli.files import write_json, write_output
from tensix_sfpu.tb.cli.llk import add_source_options, arch_name, ops_of
from tensix_sfpu.tb.cli.options import add_hazard_options, cycle_range, out_path
from tensix_sfpu.tb.perf.harness import BUILDS, HARNESSES


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: expected at least 1")
    return value


BREAKDOWN = (("sfpu_issue", "SFPU busy (an instruction issued)"),
             ("sfpu_stall", "SFPU stalls (interlocks)"),
             ("waits", "waits (STALLWAIT/SEMWAIT at the wait gate)"),
             ("other_units", "other units (FPU datacopy, configuration, sync)"),
             ("frontend_empty", "RISC-V issue (nothing at the wait gate)"),
             ("riscv_fifo_full", "RISC-V stalled on a full FIFO"))


def one_tile(args, what: str, strict: bool):
    """The header and --call of `args` under one tile of the perf harness, with the run's events kept:
    `sfpu race --perf-spacing` and `sfpu timeline --perf` (`what` names the option in errors)."""
    if not args.call and not args.sequence:
        raise CliError(f"{what} needs a kernel header and --call (the RISC-V side is compiled from them)")
    ops = ops_of(args, args.program)
    if args.thread:
        raise CliError(f"{what} times one thread's pushes; it does not take --thread")
    if args.backend != "model":
        raise CliError(f"{what} runs the issue path on the cycle model, not --backend {args.backend}")
    try:
        return api.perf_kernels(ops, arch=arch_name(args), src=args.src,
                        defines=args.defines, fp32_dest=args.fp32_dest, srcb_format=args.srcb_format,
                        setup=args.setup, vector_mode=args.vector_mode, tiles=1, loop_factor=1, strict=strict,
                        allow=args.allow, keep_events=True)
    except api.ApiError as e:
        raise from_api(e) from None


def cmd_perf(args) -> int:
    ops = ops_of(args, args.header)
    try:
        result = api.perf_kernels(ops, arch=arch_name(args), src=args.src,
                          defines=args.defines, fp32_dest=args.fp32_dest, srcb_format=args.srcb_format,
                          setup=args.setup, vector_mode=args.vector_mode, harness=args.harness, tiles=args.tiles,
                          loop_factor=args.loop_factor, unpack_to_dest=args.unpack_to_dest, build=args.build,
                          strict=not args.lenient, allow=args.allow, max_cycles=args.max_cycles,
                          keep_events=bool(args.html or args.perfetto))
    except api.ApiError as e:
        raise from_api(e) from None
    s = result.settings
    label = " (estimate)" if result.estimate else ""
    print(f"{result.cycles_per_tile:.2f} cycles per tile{label}: TILE_LOOP zone {result.zone_cycles} cycles over "
          f"{s.total_tiles} tiles ({s.tiles} tiles x loop factor {s.loop_factor}), {s.harness}, {s.build} build, "
          f"{result.request.arch}")
    total = sum(result.breakdown.to_json()[k] for k, _ in BREAKDOWN[:5]) or 1
    print(f"where the cycles went (whole run, {total} cycles of the SFPU's issue slot; per tile):")
    for key, text in BREAKDOWN:
        value = result.breakdown.to_json()[key]
        print(f"  {text:<52} {value:>8}  {value / s.total_tiles:8.2f}")
    print(f"RISC-V: {result.riscv_instructions} instructions retired, {result.path.mispredicts} mispredicted "
          "branches")
    if result.hazards:
        print(f"hazards reported: {len(result.hazards)} (first: {result.hazards[0]})")
    if result.estimate:
        print(f"estimate: {result.estimate}")
    if args.json:
        write_json(result.to_json(), args.json)
    if args.html or args.perfetto:
        _draw(args, result)
    return 0


def _draw(args, result) -> None:
    """The timeline of `--cycles` (default: the zone's first three tiles) with the issue path's lanes."""
    from tensix_sfpu.model import isa
    from tensix_sfpu.tb import timeline_view
    if args.cycles:
        first, last = args.cycles
        first = first or 0
    else:
        first = result.zone_start
        last = first + int(3 * result.cycles_per_tile)
    arch = isa.Arch(result.request.arch)
    calls = " then ".join(op.call for op in result.request.ops)
    title = f"{result.request.header.name}: {calls} (sfpu perf, {result.settings.harness})"
    if args.html:
        write_output(args.html, timeline_view.to_html(result.run, arch, title, first, last, result.path_boxes))
    if args.perfetto:
        write_json(timeline_view.to_perfetto(result.run, arch, title, first, last, result.path_boxes),
                   args.perfetto)


def register(sub) -> None:
    p = sub.add_parser("perf", help="a kernel's cycles per tile as tt-llk's perf suite measures them")
    p.add_argument("header", nargs="?",
                   help="a kernel header path, or a file name found under --src (none with --sequence)")
    add_source_options(p, listings=False)      # one op's init runs before the zone; a chain's on every tile
    p.set_defaults(vector_mode="none")     # the perf suite calls the kernel once per tile (VectorMode::None)
    p.add_argument("--harness", choices=list(HARNESSES), default="math-isolate",
                   help="; ".join(f"{k}: {v}" for k, v in HARNESSES.items()) + " (default math-isolate)")
    p.add_argument("--tiles", type=_positive, default=8, help="TILE_CNT (default 8, the suite's)")
    p.add_argument("--loop-factor", type=_positive, default=16, help="LOOP_FACTOR (default 16, the suite's)")
    p.add_argument("--build", choices=list(BUILDS), default="default",
                   help="; ".join(f"{k}: {v}" for k, v in BUILDS.items()) + " (default: default)")
    p.add_argument("--unpack-to-dest", action="store_true",
                   help="the unpacker writes Dst: no datacopy on the math thread")
    add_hazard_options(p)
    p.add_argument("--max-cycles", type=_positive, default=2_000_000,
                   help="stop a run still going after this many cycles (default 2,000,000)")
    p.add_argument("--json", metavar="OUT", type=out_path, help="write the result as JSON ('-' for standard output)")
    p.add_argument("--html", metavar="OUT.html", type=out_path,
                   help="draw the timeline with the RISC-V's and the frontend's lanes as a page (sfpu timeline's)")
    p.add_argument("--perfetto", metavar="OUT.json", type=out_path, help="... as trace events for ui.perfetto.dev")
    p.add_argument("--cycles", metavar="A:B", type=cycle_range,
                   help="the cycles drawn (A: or :B for open ends; default: the zone's first three tiles)")
    p.set_defaults(func=cmd_perf)
