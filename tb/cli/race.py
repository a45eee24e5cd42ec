"""`sfpu race`: does a kernel's result depend on the timing the front end allows?

Runs the program once with no idle cycles, then every single gap where one
is allowed, another thread's code at every point of each thread's, and
random schedules (`api.race`, model.race); exit 0 when the final Dst and LRegs never
change, 1 when they do.
"""

from __future__ import annotations

import argparse
import sys

from tensix_sfpu.model.race import DEFAULT_MAX_GAP, DEFAULT_SEEDS, MAX_GAP_LIMIT, RaceReport, report_to_json
from tensix_sfpu.model import dst_io
from tensix_sfpu.tb import api
from tensix_sfpu.tb.cli.errors import CliError, from_api
from tensix_sfpu.tb.cli.files import load_dst, load_input, write_json
from tensix_sfpu.tb.cli.run import add_run_options, load_program, print_hazards
from tensix_sfpu.tb.llk.frontend import with_cxx_location, with_cxx_locations
from tensix_sfpu.tb.cli.options import out_path
from tensix_sfpu.tb.cli.perf import one_tile

SHOWN_GAPS = 4


def cmd_race(args) -> int:
    base_gaps = None
    if args.perf_spacing:
        program, base_gaps = _perf_spacing(args)
    else:
        program = load_program(args)
    if args.backend != "model":
        raise CliError(f"--backend {args.backend}: sfpu race explores timings on the cycle model; check a "
                       "schedule it reports on the RTL with `sfpu run --backend ...`")
    dst = load_dst(args.dst) if args.dst is not None else None
    inputs = load_input(args.input, dst_io.FORMATS[args.format]) if args.input is not None else None
    try:
        report = api.race(program, inputs=inputs, format=args.format if args.format_given else None, dst=dst,
                          max_gap=args.max_gap, seeds=args.seeds, allow=tuple(args.allow),
                          dst_spacing=args.dst_spacing, base_gaps=base_gaps)
    except api.ApiError as e:
        raise from_api(e) from None
    record = with_cxx(report_to_json(report))
    if args.json is not None:
        write_json(record, args.json)
    if args.json != "-":
        print_report(report, record, given=args.allow, in_program=program.allowed_rules)
    return 0 if report.deterministic else 1


def _perf_spacing(args):
    """The kernel call under one tile of tt-llk's perf harness: its listing, and the idle cycles the issue
    path puts before each instruction, kept in every schedule."""
    result = one_tile(args, "--perf-spacing", strict=False)
    gaps = result.issue_gaps()
    print(f"the pushes' spacing from sfpu perf (one tile of {result.settings.harness}): {sum(gaps.values())} idle "
          f"cycles before {len(gaps)} of {len(result.listing.program.words)} instructions, kept in every "
          "schedule")
    return result.listing.program, gaps


def with_cxx(record):
    """The JSON record with the C++ line put before every listing location."""
    if isinstance(record, dict):
        return {k: (with_cxx_location(v) if k in ("before", "instruction", "scheduled_by", "source")
                    else with_cxx_locations(v) if k == "message" else with_cxx(v)) if isinstance(v, str)
                else with_cxx(v) for k, v in record.items()}
    if isinstance(record, list):
        return [with_cxx(v) for v in record]
    return record


def print_report(report: RaceReport, record: dict, given=(), in_program=frozenset()) -> None:
    """The report as text; `given` and `in_program` are the rules allowed by `--allow` and by the
    program's `.allow` (`print_hazards`)."""
    threads = f", threads {', '.join(report.threads)}" if len(report.threads) > 1 else ""
    print(f"{report.program} on {report.arch}{threads}: {report.gap_points} instructions a gap may precede "
          f"({report.gaps_pruned} with nothing in flight, so no gap there can matter), gaps of 1-{report.max_gap} "
          f"cycles, {report.seeds} random schedules: {report.schedules_run} schedules run; the baseline takes "
          f"{report.baseline_cycles} cycles")
    print_hazards(report.baseline_hazards, "baseline", sys.stdout, given=given, in_program=in_program)
    if not report.explored:
        print("nothing to explore: no instruction may be preceded by a gap (each is the first or inside a "
              "REPLAY or .issue back_to_back run) and there is one thread")
        return
    if report.deterministic:
        print("deterministic: the final Dst and LRegs are the same under every schedule run")
        return
    print(f"TIMING-DEPENDENT: {report.divergent_schedules} of {report.schedules_run} schedules change the final "
          f"state")
    if report.divergent_rules:
        print("rules broken in them at lines where the baseline breaks none: " + ", ".join(
            f"{rule} in {n}" for rule, n in report.divergent_rules.items()))
    print(f"the first {len(report.divergences)} (those that change Dst first, then the simplest):")
    for n, d in enumerate(record["divergences"], start=1):
        print(f"  {n}. {describe_schedule(d['schedule'])}")
        first = d["first_difference"]
        if first:
            at = f"cycle {first['cycle']}" if first["cycle"] is not None else "never"
            base = f" (baseline cycle {first['baseline_cycle']})" if first["baseline_cycle"] is not None else ""
            what = f"{first['origin']} {first['mnemonic']} on {first['unit']}"
            by = f", scheduled by {first['scheduled_by']}" if "scheduled_by" in first else \
                f": {first['instruction']}"
            print(f"     first difference at {at}{base}: {what}{by}: {first['what']}")
        lregs = ", ".join(f"L{r}" for r in d["lregs_differ"]) or "none"
        print(f"     Dst cells that differ: {d['dst_cells_differ']}; LRegs that differ: {lregs}")
        for h in d["hazards"]:
            count = f" (x{h['count']})" if h["count"] > 1 else ""
            print(f"     hazard in this schedule: {h['source']}: {h['rule']}: {h['message']}{count}")


def describe_schedule(schedule: dict) -> str:
    parts = []
    if "switch" in schedule:
        s = schedule["switch"]
        parts.append(f"thread {s['runs']}'s code runs before {s['before']} of thread {s['thread']}")
    for g in schedule["gaps"][:SHOWN_GAPS]:
        parts.append(f"{g['cycles']} idle cycle(s) before {g['before']}")
    if len(schedule["gaps"]) > SHOWN_GAPS:
        parts.append(f"{len(schedule['gaps']) - SHOWN_GAPS} more gaps (--json for all)")
    if "order" in schedule:
        parts.append(f"interleaving {' '.join(schedule['order'][:12])}{' ...' if len(schedule['order']) > 12 else ''}")
    return f"{schedule['kind']}: " + "; ".join(parts)


def gap_length(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of idle cycles") from None
    if not 1 <= value <= MAX_GAP_LIMIT:
        raise argparse.ArgumentTypeError(f"{value}: the longest gap must be 1..{MAX_GAP_LIMIT} idle cycles "
                                         f"(default {DEFAULT_MAX_GAP}, above the longest SFPLOADMACRO delay)")
    return value


def count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"{value}: expected 0..100000")
    return value


def register(sub) -> None:
    p = sub.add_parser("race", help="explore the timings the front end allows; exit 1 if the result depends on them")
    add_run_options(p, program_optional=True)
    p.add_argument("--max-gap", type=gap_length, default=DEFAULT_MAX_GAP, metavar="L",
                   help=f"idle cycles a single gap may last, 1..L (default {DEFAULT_MAX_GAP})")
    p.add_argument("--seeds", type=count, default=DEFAULT_SEEDS, metavar="N",
                   help=f"random multi-gap schedules (and interleavings) to run (default {DEFAULT_SEEDS})")
    p.add_argument("--dst-spacing", type=count, default=None, metavar="CYCLES",
                   help="cycles after a macro-scheduled SFPSTORE in which reading its Dst rows is flagged "
                        "(the dst-read-after-macro-store rule; default 4, from Dst.md)")
    p.add_argument("--perf-spacing", action="store_true",
                   help="with a header and --call: run the call under one tile of tt-llk's perf harness (sfpu "
                        "perf) and keep the idle cycles its pushes really leave before each instruction in the "
                        "baseline and every schedule, the explored gaps coming on top")
    p.add_argument("--json", metavar="OUT", type=out_path, help="write the report as JSON ('-' for standard output)")
    p.set_defaults(func=cmd_race)
