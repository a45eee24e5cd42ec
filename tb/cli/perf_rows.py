"""`python -m tensix_sfpu.tb.cli.perf_rows --trees DIR [--wheel DIR] [--only ID...] [--markdown OUT]
[--build default|speed-of-light]` (`make perf-rows`): every public silicon row of
tb/perf/rows.py run through `sfpu perf` (the API), and the table of docs/perf.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tensix_sfpu.tb import api
from tensix_sfpu.tb.perf import rows


def run_row(row: rows.Row, tree: Path, build: str | None = None) -> rows.Outcome:
    """`row` run on `tree`, under the build its flags name (the suite's default build without one), or
    under `build` if given."""
    header = tree / row.header
    flags = _flags(row.flags)
    if build:
        flags["build"] = build
    try:
        result = api.perf(header, row.call, init=row.init, arch=row.arch, src=tree, fp32_dest=row.fp32_dest, **flags)
        outcome = rows.Outcome(row, result.cycles_per_tile, estimate=result.estimate is not None)
        if row.cls == "harness unstated":
            outcome.tile_loop = api.perf(header, row.call, init=row.init, arch=row.arch, src=tree,
                                         fp32_dest=row.fp32_dest, harness="tile-loop", **flags).cycles_per_tile
        return outcome
    except api.ApiError as e:
        return rows.Outcome(row, error=str(e).splitlines()[0][:200])


def _flags(flags: list[str]) -> dict:
    out: dict = {}
    i = 0
    while i < len(flags):
        if flags[i] == "--allow":
            out.setdefault("allow", []).append(flags[i + 1])
            i += 2
        elif flags[i] == "--lenient":
            out["strict"] = False
            i += 1
        elif flags[i] == "--build":
            out["build"] = flags[i + 1]
            i += 2
        elif flags[i] == "--unpack-to-dest":
            out["unpack_to_dest"] = True
            i += 1
        else:
            raise ValueError(f"silicon_rows.json: flag {flags[i]!r} is not one the runner knows")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tensix_sfpu.tb.cli.perf_rows", description=rows.__doc__.splitlines()[0])
    p.add_argument("--trees", required=True, help="a folder with one source tree per row's `tree` name")
    p.add_argument("--wheel", help="the unpacked ttnn wheel's ttnn/tt_metal (default: downloaded into the cache)")
    p.add_argument("--only", nargs="*", default=[], help="run only these row ids")
    p.add_argument("--markdown", help="write the table here")
    p.add_argument("--build", choices=("default", "speed-of-light"),
                   help="run every row under this build instead of the one its source measured")
    args = p.parse_args(argv)
    trees = Path(args.trees)
    if not trees.is_dir():
        raise SystemExit(f"--trees {args.trees}: no such folder")
    wheel = Path(args.wheel) if args.wheel else None
    outcomes = []
    for row in rows.load():
        if args.only and row.id not in args.only:
            continue
        if row.tree == "wheel":
            if wheel is None:
                from tensix_sfpu.tb.llk.fetch import fetch
                wheel = fetch(Path("~/.cache/sfpu-llk").expanduser())
            tree = wheel
        else:
            tree = trees / row.tree
        outcome = run_row(row, tree, args.build) if tree.is_dir() else rows.Outcome(row, error=f"no tree {tree}")
        outcomes.append(outcome)
        shown = f"{outcome.predicted:.2f}" if outcome.predicted is not None else outcome.error
        print(f"{row.id:24} {row.arch:10} silicon {row.silicon:8.2f}  predicted {shown}", flush=True)
    text = rows.markdown(outcomes)
    print(rows.summary(outcomes))
    if args.markdown:
        Path(args.markdown).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
