"""The public silicon measurements of SFPU kernels (tb/perf/silicon_rows.json)
beside `sfpu perf`'s predictions: the table of docs/perf.md
(`python -m tensix_sfpu.tb.cli.perf_rows`, `make perf-rows`, runs them).

Each row names the public source of its figure, the harness settings the
source gives, the call the suite makes, and the source tree its kernel's code
is in: a folder of that name under `--trees` (the variants' code as measured,
rebuilt outside the project from each PR), or "wheel", the unpacked ttnn
wheel's ttnn/tt_metal (`--wheel`, default: downloaded as `make llk-corpus`
does). Nothing of those trees is ever part of the project. A row whose tree
is missing is listed as not run.

Classes: "exact" rows run the measured instruction stream through the
harness the source states; "approximation" rows run code rebuilt from a
description; "sfpi" rows are estimates (the stand-in's instruction
selection); "harness unstated" rows are shown under the suite's harness and
under tile-loop; "other code" rows are not the measured code at all. Each
fitted constant (model/issue_path.py) names the one row it was fitted on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

ROWS = Path(__file__).resolve().parent / "silicon_rows.json"
CLASSES = ("exact", "approximation", "sfpi", "harness unstated", "other code")


@dataclass
class Row:
    id: str
    pair: str
    side: str
    arch: str
    kernel: str
    source: str
    silicon: float
    settings: str
    tree: str
    header: str
    call: str
    init: str | None
    fp32_dest: int
    flags: list[str]
    code: str
    cls: str
    fitted: str | None


def load(path: Path = ROWS) -> list[Row]:
    rows = []
    for n, r in enumerate(json.loads(path.read_text())):
        r["cls"] = r.pop("class")
        row = Row(**r)
        if row.cls not in CLASSES:
            raise ValueError(f"{path}: row {n} ({row.id}): class {row.cls!r} is not one of {', '.join(CLASSES)}")
        rows.append(row)
    return rows


@dataclass
class Outcome:
    row: Row
    predicted: float | None = None
    tile_loop: float | None = None       # for rows whose harness is unstated
    estimate: bool = False
    error: str | None = None             # why it did not run

    @property
    def relative(self) -> float | None:
        return None if self.predicted is None else (self.predicted - self.row.silicon) / self.row.silicon


def markdown(outcomes: list[Outcome]) -> str:
    lines = ["| row | arch | class | kernel | source | settings | code run | silicon | predicted | error |",
             "|---|---|---|---|---|---|---|---:|---:|---:|"]
    for o in outcomes:
        r = o.row
        if o.predicted is None:
            predicted, error = "not run", o.error or ""
        else:
            predicted = f"{o.predicted:.2f}" + (" (est.)" if o.estimate else "")
            if o.tile_loop is not None:
                predicted += f"; tile-loop {o.tile_loop:.2f}"
            error = f"{o.relative * 100:+.1f}%" + (f" (fitted: {r.fitted})" if r.fitted else "")
        lines.append(f"| {r.id} | {r.arch} | {r.cls} | {r.kernel} | {r.source} | {r.settings} | {r.code} | "
                     f"{r.silicon:.2f} | {predicted} | {error} |")
    lines += ["", "| pair | sides | silicon speed-up | predicted speed-up | same way |", "|---|---|---:|---:|---|"]
    for pair, a, b in pairs(outcomes):
        silicon = a.row.silicon / b.row.silicon
        if a.predicted is None or b.predicted is None:
            lines.append(f"| {pair} | {a.row.side} -> {b.row.side} | {silicon:.2f}x | not run | |")
            continue
        predicted = a.predicted / b.predicted
        same = (silicon > 1.005) == (predicted > 1.005) and (silicon < 0.995) == (predicted < 0.995)
        lines.append(f"| {pair} | {a.row.side} -> {b.row.side} | {silicon:.2f}x | {predicted:.2f}x | "
                     f"{'yes' if same else 'no'} |")
    return "\n".join(lines) + "\n"


def pairs(outcomes: list[Outcome]) -> list[tuple[str, Outcome, Outcome]]:
    """Each pair's consecutive variants (A then I then B, as the rows list them), controls left out."""
    by_pair: dict[str, list[Outcome]] = {}
    for o in outcomes:
        if o.row.side != "control":
            by_pair.setdefault(o.row.pair, []).append(o)
    out = []
    for pair, sides in by_pair.items():
        out += [(pair, a, b) for a, b in zip(sides, sides[1:])]
    return out


def summary(outcomes: list[Outcome]) -> str:
    """Of the exact rows not fitted on: how many within 5%; and how many pairs point the same way."""
    judged = [o for o in outcomes if o.row.cls == "exact" and not o.row.fitted and o.predicted is not None]
    within = [o for o in judged if abs(o.relative) <= 0.05]
    return f"exact rows not fitted on: {len(within)} of {len(judged)} within 5%"
