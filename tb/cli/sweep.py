"""`sfpu sweep`: tt-llk's exhaustive ULP sweep on the model, every budget cell
of an op (or `--all` ops), keyed like `sfpu_accuracy_budget.yaml`, with our max
ULP beside the Wormhole hardware's figure from the row's comment."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

from tensix_sfpu.model import isa
from tensix_sfpu.model.spelling import did_you_mean
from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.tb.llk import sweep as sw
from tensix_sfpu.tb.llk.accuracy import MEASURED_ON
from tensix_sfpu.tb.llk.sources import SourceError, find_tree
from tensix_sfpu.tb.llk.sweep_facts import SWEEP_FORMATS, FactsError, load

ARCHES = tuple(a.value for a in isa.Arch)
KEYS = ("op", "in", "out", "approx", "dest", "arch", "max_ulp", "hw_max_ulp", "budget", "worst_input", "lanes")


def register(sub) -> None:
    p = sub.add_parser("sweep", help="tt-llk's exhaustive ULP sweep of SFPU ops on the model",
                       description=__doc__)
    p.add_argument("ops", nargs="*", metavar="OP", help="budget op names (Exp, Reciprocal, ...)")
    p.add_argument("--all", action="store_true", help="every op of the budget that the sweep drives")
    p.add_argument("--arch", choices=ARCHES + ("both",), default=isa.DEFAULT_ARCH.value,
                   help="wormhole (measured on hardware: compared), blackhole (a prediction) or both "
                        "(default: wormhole)")
    p.add_argument("--in", dest="in_fmt", metavar="F", help=f"only this input format ({', '.join(SWEEP_FORMATS)})")
    p.add_argument("--out", dest="out_fmt", metavar="F", help="only this output format")
    p.add_argument("--approx", choices=("yes", "no"), help="only this approximation mode")
    p.add_argument("--dest", choices=("yes", "no"), help="only 32-bit Dst (yes) or 16-bit (no)")
    p.add_argument("--src", metavar="DIR", help="the kernel tree with tt-llk's tests/ (default: $SFPU_LLK_SRC)")
    p.add_argument("--json", metavar="OUT", help="write the rows as a JSON list")
    p.add_argument("--prediction", metavar="OUT.md", help="write the Blackhole rows as a Markdown page: the cells "
                                                           "above today's Wormhole budget and every row in the "
                                                           "budget file's form, marked as a model prediction")
    p.add_argument("--markdown", metavar="OUT.md", help="write a per-op summary and every cell that differs or did "
                                                       "not run, as Markdown")
    p.add_argument("--shard", metavar="i/n", help="run the i-th of n shares of the (arch, op) jobs "
                                                 "(else from Slurm, GitLab or SFPU_SHARD, as sfpu regress)")
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes that share each kernel's tiles (default: "
                                                        "the CPUs this process may use)")
    p.add_argument("--merge", nargs="+", metavar="JSON", help="merge the --json files of shards: no sweep is run")
    p.set_defaults(func=run)


def _format(name: str | None, option: str) -> str | None:
    if name is None:
        return None
    for f in SWEEP_FORMATS:
        if f.lower() == name.lower():
            return f
    raise CliError(f"{option} {name}: not a format sfpu sweep models (expected {', '.join(SWEEP_FORMATS)}; "
                   "the block formats Bfp8_b and Bfp4_b are not modelled)")


def run(args) -> int:
    if args.merge:
        rows = merge(args.merge)
    else:
        rows = sweep(args)
    print(table(rows))
    print(summary(rows))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    if args.prediction:
        Path(args.prediction).parent.mkdir(parents=True, exist_ok=True)
        Path(args.prediction).write_text(prediction_markdown(rows))
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(report_markdown(rows))
    return 0


def sweep(args) -> list[dict]:
    from tensix_sfpu.tb.campaigns.regress import RegressError, shard_from_environment
    in_fmt, out_fmt = _format(args.in_fmt, "--in"), _format(args.out_fmt, "--out")
    approx = None if args.approx is None else args.approx == "yes"
    dest = None if args.dest is None else args.dest == "yes"
    workers = len(os.sched_getaffinity(0)) if args.jobs is None else args.jobs
    if workers < 1:
        raise CliError(f"--jobs {args.jobs}: give at least 1 worker process")
    if bool(args.ops) == bool(args.all):
        raise CliError("give OP names or --all (not both)")
    try:
        shard, _ = shard_from_environment(args.shard)
    except RegressError as e:
        raise CliError(str(e)) from None
    arches = ARCHES if args.arch == "both" else (args.arch,)
    try:
        trees = {arch: find_tree(args.src, arch) for arch in arches}
        if any(t is None for t in trees.values()):
            raise CliError("no kernel tree: give --src DIR (the unpacked ttnn wheel's ttnn/tt_metal, or a tt-metal "
                           "checkout) or set SFPU_LLK_SRC")
        facts = load(trees[arches[0]])
        stride, phase = sw.read_stride(facts)
    except (SourceError, FactsError) as e:
        raise CliError(str(e)) from None
    known = facts.swept_ops()
    ops = known if args.all else args.ops
    for op in ops:
        if op not in known:
            raise CliError(f"{op}: not a unary op of {facts.tests}/python_tests/helpers/sfpu_accuracy_budget.yaml"
                           f"{did_you_mean(op, known)}")
    jobs = [(arch, op) for arch in arches for op in ops]
    jobs = [job for n, job in enumerate(jobs) if n % shard[1] == shard[0]]
    cells = {job: sw.sweep_cells(facts, job[1], job[0], in_fmt, out_fmt, approx, dest) for job in jobs}
    if not args.all:
        for (arch, op), found in cells.items():
            if not found:
                raise CliError(f"{op}: no cell with a step budget matches --in {in_fmt or 'any'} --out "
                               f"{out_fmt or 'any'} --approx {args.approx or 'any'} --dest {args.dest or 'any'} "
                               f"in {facts.tests}/python_tests/helpers/sfpu_accuracy_budget.yaml")
    sweeper = sw.Sweeper(facts, {a: t for a, t in trees.items()}, stride, phase, jobs=workers)
    rows = []
    for job in jobs:
        start = time.time()
        for cell in cells[job]:
            row = sweeper.measure(cell)
            rows.append(row)
            print(f"sweep {row['arch']} {row['op']} {row['in']}->{row['out']} approx={row['approx']} "
                  f"dest={row['dest']}: {row['max_ulp']} (hardware {row['hw_max_ulp']})"
                  + (f" {row['reason']}" if row.get("reason") else ""), file=sys.stderr, flush=True)
        for row in rows[-len(cells[job]):] if cells[job] else []:
            row["op_seconds"] = round(time.time() - start, 1)
    return rows


def merge(paths: list[str]) -> list[dict]:
    rows: dict[tuple, dict] = {}
    for path in paths:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise CliError(f"{path}: cannot read as sweep JSON: {e}") from None
        if not isinstance(data, list) or not all(isinstance(r, dict) and set(KEYS) <= set(r) for r in data):
            raise CliError(f"{path}: not a list of sweep rows (keys {', '.join(KEYS)})")
        for r in data:
            rows[tuple(r[k] for k in KEYS[:6])] = r
    return sorted(rows.values(), key=lambda r: (ARCHES.index(r["arch"]), r["op"], r["in"], r["out"], r["approx"],
                                                r["dest"]))


def verdict(row: dict) -> str:
    if row.get("reason"):
        return row["reason"][:100]
    if row["arch"] == MEASURED_ON:
        if row["hw_max_ulp"] is None:
            return "no hardware figure"
        return "equal" if row["max_ulp"] == row["hw_max_ulp"] else "DIFFERS"
    if row["budget"] is not None and row["max_ulp"] is not None and row["max_ulp"] > row["budget"]:
        return "prediction exceeds the Wormhole budget"
    return "prediction"


def table(rows: list[dict]) -> str:
    head = ["arch", "op", "in", "out", "approx", "dest", "ours", "hardware", "budget", "worst input", "lanes", ""]
    body = [[r["arch"], r["op"], r["in"], r["out"], r["approx"], r["dest"], _s(r["max_ulp"]), _s(r["hw_max_ulp"]),
             _s(r["budget"]), r["worst_input"] or "", str(r["lanes"]), verdict(r)] for r in rows]
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in [head] + body)


def _s(v) -> str:
    return "" if v is None else str(v)


def summary(rows: list[dict]) -> str:
    out = []
    measured = [r for r in rows if r["arch"] == MEASURED_ON and r["max_ulp"] is not None
                and r["hw_max_ulp"] is not None]
    if measured:
        equal = sum(r["max_ulp"] == r["hw_max_ulp"] for r in measured)
        out.append(f"{MEASURED_ON.capitalize()}: {equal} of {len(measured)} measured cells equal the hardware's "
                   f"max ULP ({100 * equal / len(measured):.1f}%)")
    for arch in ARCHES:
        predicted = [r for r in rows if r["arch"] == arch != MEASURED_ON and r["max_ulp"] is not None]
        if predicted:
            over = [r for r in predicted if r["budget"] is not None and r["max_ulp"] > r["budget"]]
            out.append(f"{arch.capitalize()} (model prediction): {len(predicted)} cells, {len(over)} above the "
                       f"{MEASURED_ON.capitalize()} budget")
    floors = [r for r in measured if r.get("hw_max_ulp_every_lane") is not None and r.get("max_ulp_every_lane") is not None]
    if floors:
        same = sum(r["max_ulp_every_lane"] == r["hw_max_ulp_every_lane"] for r in floors)
        out.append(f"of the {len(floors)} with a near-zero floor, {same} also equal the hardware's max over every lane")
    stopped = [r for r in rows if r["max_ulp"] is None]
    if stopped:
        out.append(f"{len(stopped)} cells not measured (reason in the table)")
    return "; ".join(out) or "no rows"


def prediction_markdown(rows: list[dict]) -> str:
    """The predicted rows (every architecture's but MEASURED_ON's; Blackhole's) as a Markdown page: what
    they are, the cells above today's Wormhole budget, and every row in the budget file's own form, each
    marked as the model's prediction."""
    predicted = sorted([r for r in rows if r["arch"] != MEASURED_ON],
                       key=lambda r: (r["op"], r["in"], r["out"], r["approx"], r["dest"]))
    ran = [r for r in predicted if r["max_ulp"] is not None]
    over = [r for r in ran if r["budget"] is not None and r["max_ulp"] > r["budget"]]
    lines = ["# Blackhole: the sweep's predicted accuracy (a model prediction)", "",
             "Generated by `sfpu sweep --arch blackhole --prediction` (docs/llk.md, \"The accuracy sweep\"). "
             "**Not a hardware measurement**: the max ULP the Blackhole model gives over tt-llk's ULP sweep, "
             "cell by cell, with the kernels tt-llk's sweep compiles for Blackhole, beside the Wormhole budget "
             "tt-llk applies today and the Wormhole hardware's figure. tt-llk's table says of Blackhole: "
             "re-measure before trusting any of it there; these are the figures to expect.", "",
             f"{len(predicted)} cells, {len(ran)} run on the model; {len(over)} predicted above the Wormhole budget:", ""]
    if over:
        lines += ["| op | in -> out | approx | dest | predicted | Wormhole budget | Wormhole hardware | worst input |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [f"| {r['op']} | {r['in']} -> {r['out']} | {r['approx']} | {r['dest']} | {r['max_ulp']} | "
                  f"{r['budget']} | {r['hw_max_ulp']} | {r['worst_input']} |" for r in over]
        lines.append("")
    lines += ["```yaml"]
    op = None
    for r in predicted:
        if r["op"] != op:
            op = r["op"]
            lines.append(f"{op}:  # model prediction for Blackhole (sfpu sweep), not a hardware measurement")
        figure = (f"predicted max {r['max_ulp']} ULP" if r["max_ulp"] is not None
                  else f"not run: {re.sub(r' [(]live: .*', '', r.get('reason', ''))[:120]}")
        excess = "; ABOVE the Wormhole budget" if r in over else ""
        lines.append(f"  - {{in: {r['in']}, out: {r['out']}, approx: \"{r['approx']}\", dest: \"{r['dest']}\", "
                     f"arch: {r['arch']}}}  # {figure}; Wormhole budget {r['budget']}, Wormhole hardware "
                     f"{r['hw_max_ulp']}{excess}")
    lines += ["```", ""]
    return "\n".join(lines)


def report_markdown(rows: list[dict]) -> str:
    """Per architecture and op: cells, measured, equal to the hardware (Wormhole) or above the
    Wormhole budget (Blackhole); then each Wormhole cell that differs, and why cells did not run."""
    out = []
    for arch in ARCHES:
        mine = [r for r in rows if r["arch"] == arch]
        if not mine:
            continue
        measured = arch == MEASURED_ON
        out += [f"### {arch.capitalize()}", "", summary(mine), "",
                f"| op | gated cells | measured | {'equal to the hardware' if measured else 'above the Wormhole budget'} "
                f"| max ULP (ours / hardware), worst cell |", "|---|---|---|---|---|"]
        for op in sorted({r["op"] for r in mine}):
            cells = [r for r in mine if r["op"] == op]
            ran = [r for r in cells if r["max_ulp"] is not None]
            if measured:
                good = sum(r["max_ulp"] == r["hw_max_ulp"] for r in ran if r["hw_max_ulp"] is not None)
            else:
                good = sum(r["budget"] is not None and r["max_ulp"] > r["budget"] for r in ran)
            worst = max(ran, key=lambda r: (r["max_ulp"] or 0), default=None)
            where = (f"{worst['max_ulp']} / {worst['hw_max_ulp']}, {worst['in']}->{worst['out']} "
                     f"approx {worst['approx']} dest {worst['dest']}") if worst else ""
            out.append(f"| {op} | {len(cells)} | {len(ran)} | {good} | {where} |")
        out.append("")
        if measured:
            differ = [r for r in mine if r["max_ulp"] is not None and r["hw_max_ulp"] is not None
                      and r["max_ulp"] != r["hw_max_ulp"]]
            unfigured = [r for r in mine if r["max_ulp"] is not None and r["hw_max_ulp"] is None]
            if unfigured:
                out += [f"{len(unfigured)} measured cells have no hardware figure in their row's comment "
                        f"({', '.join(sorted({r['op'] for r in unfigured}))}; SFPU_ULP.md: measured on another "
                        "driver's stimuli); ours there: max "
                        f"{max(r['max_ulp'] for r in unfigured)} ULP.", ""]
            if differ:
                out += ["Cells whose max differs from the hardware's:", "",
                        "| op | in -> out | approx | dest | ours | hardware | worst input | ours there | golden |",
                        "|---|---|---|---|---|---|---|---|---|"]
                out += [f"| {r['op']} | {r['in']} -> {r['out']} | {r['approx']} | {r['dest']} | {r['max_ulp']} | "
                        f"{r['hw_max_ulp']} | {r['worst_input']} | {r.get('worst_result', '')} | "
                        f"{r.get('worst_golden', '')} |" for r in differ]
                out.append("")
        reasons: dict[str, list[str]] = {}
        for r in mine:
            if r["max_ulp"] is None:
                why = re.sub(r" \(live: .*", "", r.get("reason", "")).replace("|", "\\|")
                reasons.setdefault(why, [])
                if r["op"] not in reasons[why]:
                    reasons[why].append(r["op"])
        if reasons:
            out += ["Cells not measured, by reason:", "", "| reason | cells | ops |", "|---|---|---|"]
            for why, ops in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
                count = sum(1 for r in mine if r["max_ulp"] is None and
                            re.sub(r" \(live: .*", "", r.get("reason", "")).replace("|", "\\|") == why)
                out.append(f"| {why[:200]} | {count} | {', '.join(ops)} |")
            out.append("")
    return "\n".join(out) + "\n"
