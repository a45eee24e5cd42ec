"""The cycle-by-cycle table of a run: `sfpu timeline`.

One row per cycle: the instruction the thread issued (or the one held back by
a stall, with the stall's reason), what each sub-unit starts that cycle, and
the hazards. Instructions
scheduled by SFPLOADMACRO are prefixed with `@T`, the cycle of their
SFPLOADMACRO; the second cycle of a two-cycle instruction shows as `(...)`. `--html` and
`--perfetto` write the same run as a picture (tb/timeline_view.py).
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys

from tensix_sfpu.model.asm import disassemble
from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch
from tensix_sfpu.model.trace import UNIT_ORDER, CycleRecord, UnitActivity
from tensix_sfpu.tb.cli import table
from tensix_sfpu.tb.cli.files import write_json, write_output
from tensix_sfpu.tb.cli.options import WIDE_HELP, cycle_range, out_path
from tensix_sfpu.tb.cli.perf import one_tile
from tensix_sfpu.tb.cli.run import add_run_options, load_program, print_hazards, ranges, run_on_backend
from tensix_sfpu.tb.timeline_view import to_html, to_perfetto, two_cycles

COLUMNS = ("cycle", "thread") + UNIT_ORDER + ("hazards",)
# Fields that say nothing when zero; dropping them keeps the table narrow.
_ZERO_FIELD = re.compile(r" (mod0|mod1|mod1_mirror|imm\w*|addr_mod|use_imm5|stochastic|rnd_mode)=0(?= |$)")


def compact(text: str) -> str:
    return _ZERO_FIELD.sub("", text)


def _unit_cell(a: UnitActivity, operands: bool = True) -> str:
    """A macro's instruction in full (or by mnemonic without `operands`),
    with its SFPLOADMACRO's cycle; the thread's by mnemonic, as the thread
    column already shows it in full."""
    if a.origin == "macro":
        text = compact(a.text) if operands else a.mnemonic.lower()
        return f"@{a.macro_cycle} {text.removeprefix('sfp')}"
    return a.mnemonic.lower().removeprefix("sfp")


def rows(trace: list[CycleRecord], operands: bool = True, arch: Arch = DEFAULT_ARCH) -> list[dict[str, str]]:
    """One row per cycle of an `arch` run; without `operands`, macro
    instructions by mnemonic only."""
    out = []
    previous: CycleRecord | None = None
    for rec in trace:
        row = {"cycle": str(rec.cycle)}
        if rec.issued is not None:
            row["thread"] = compact(disassemble(rec.issued, arch=arch))
        elif rec.stalled is not None or rec.waiting is not None:
            held = rec.stalled if rec.stalled is not None else rec.waiting
            row["thread"] = ("stall: " if rec.stalled is not None else "wait: ") + compact(disassemble(held, arch=arch))
            if rec.stall_reason:
                row["thread"] += f" ({rec.stall_reason})"
        else:
            row["thread"] = ""
        for unit in UNIT_ORDER:
            a = rec.units.get(unit)
            if a is not None:
                row[unit] = _unit_cell(a, operands)
            elif previous is not None and unit in previous.units and two_cycles(previous.units[unit], arch):
                row[unit] = f"({previous.units[unit].mnemonic.lower().removeprefix('sfp')})"
            else:
                row[unit] = ""
        row["hazards"] = " ".join(h.rule + ("(allowed)" if h.allowed else "") for h in rec.hazards)
        out.append(row)
        previous = rec
    return out


def format_table(trace: list[CycleRecord], first: int = 0, last: int | None = None,
                 width: int | None = table.WIDTH, arch: Arch = DEFAULT_ARCH) -> str:
    """Cycles `first` to `last` as a table `width` characters wide at most,
    macro instructions by mnemonic; with `width` None, every cell in full."""
    shown = [r for r in rows(trace, operands=width is None, arch=arch)
             if first <= int(r["cycle"]) and (last is None or int(r["cycle"]) <= last)]
    columns = [c for c in COLUMNS if c in ("cycle", "thread") or any(r[c] for r in shown)]
    return table.format_table(list(columns), [[r[c] for c in columns] for r in shown], width, right=frozenset({0}))


def format_csv(trace: list[CycleRecord], arch: Arch = DEFAULT_ARCH) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows(trace, arch=arch))
    return buffer.getvalue()


def utilisation(trace: list[CycleRecord]) -> dict[str, int]:
    """Cycles in which each sub-unit started an instruction other than SFPNOP."""
    return {unit: sum(1 for rec in trace if unit in rec.units and rec.units[unit].mnemonic != "SFPNOP")
            for unit in UNIT_ORDER}


def full_cycles(trace: list[CycleRecord]) -> list[int]:
    """Cycles in which all five sub-units start real work."""
    return [rec.cycle for rec in trace
            if all(u in rec.units and rec.units[u].mnemonic != "SFPNOP" for u in UNIT_ORDER)]


def cmd_timeline(args) -> int:
    extra = []
    if args.perf:        # the RISC-V, its FIFO and the wait gate as lanes too
        perf = one_tile(args, "--perf", strict=not args.lenient)
        result, extra, program = perf.run, perf.path_boxes, perf.listing.program
    else:
        program = load_program(args)
        result = run_on_backend(args, program)
    allowed = {"given": args.allow, "in_program": program.allowed_rules}
    first, last = args.cycles or (0, None)
    if args.html or args.perfetto:
        title = args.program or " + ".join(args.thread)
        if args.call:
            title += f": {'; '.join(args.call) if isinstance(args.call, list) else args.call}"
        for path, text in ((args.html, lambda: to_html(result, result.state.arch, title, first, last, extra)),
                           (args.perfetto, lambda: json.dumps(to_perfetto(result, result.state.arch, title, first,
                                                                          last, extra)) + "\n")):
            if path:
                write_output(path, text())
                print(f"wrote {path}", file=sys.stderr)
        if args.json is None and not args.csv:
            print_hazards(result.hazards, "hazard", sys.stdout, width=None if args.wide else table.WIDTH, **allowed)
            return 0
    if args.json is not None:
        write_json([r.to_json() for r in result.trace], args.json)
        return 0
    if args.csv:
        sys.stdout.write(format_csv(result.trace, arch=result.state.arch))
        return 0
    print(format_table(result.trace, first, last, width=None if args.wide else table.WIDTH,
                       arch=result.state.arch))
    busy = utilisation(result.trace)
    print(f"\n{result.instructions} instructions issued, {result.cycles} cycles on {result.state.arch.title}")
    print("cycles each sub-unit started work: " + ", ".join(f"{unit} {n}" for unit, n in busy.items()))
    full = full_cycles(result.trace)
    if full:
        print(f"all five sub-units busy in {len(full)} cycles ({ranges(full)})")
    print_hazards(result.hazards, "hazard", sys.stdout, width=None if args.wide else table.WIDTH, **allowed)
    return 0


def register(sub) -> None:
    p = sub.add_parser("timeline", help="print what each sub-unit does in each cycle")
    add_run_options(p)
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", metavar="OUT", type=out_path,
                      help="write the trace records as JSON ('-' for standard output)")
    form.add_argument("--csv", action="store_true", help="print the table as CSV")
    p.add_argument("--html", metavar="OUT.html", type=out_path, help="write the timeline as one self-contained HTML page: sub-units "
                                                     "as lanes, instructions as boxes, macros linked to their "
                                                     "SFPLOADMACRO, stalls and hazards marked, the source line on "
                                                     "hover")
    p.add_argument("--perfetto", metavar="OUT.json", type=out_path, help="write Chrome/Perfetto trace events (open in "
                                                         "ui.perfetto.dev; one microsecond per cycle)")
    p.add_argument("--wide", action="store_true", help=WIDE_HELP)
    p.add_argument("--cycles", metavar="A:B", type=cycle_range,
                   help="print only cycles A to B (A: or :B for open ends)")
    p.add_argument("--perf", action="store_true",
                   help="with a header and --call: run the call under one tile of tt-llk's perf harness through "
                        "the issue path (sfpu perf), and draw the RISC-V, its FIFO and the wait gate as lanes too "
                        "(--html, --perfetto)")
    p.set_defaults(func=cmd_timeline)
