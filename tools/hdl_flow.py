"""Shared by tools/lint.py and tools/synth.py: pick components, write their
Verilog, run one job per component on the machine's cores, print progress."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = Path(os.environ.get("SFPU_BUILD", ROOT / "build"))   # tests point it at a temporary folder
sys.path.insert(0, str(ROOT))          # run as `python tools/x.py` from anywhere

from hdl import export  # noqa: E402


class FlowError(Exception):
    """A user-facing failure: printed as one line, exit status 2."""


def select(names: list[str]) -> list[str]:
    """The named components (every listed one if none), checked to exist."""
    try:
        listed = export.registry()
    except export.ExportError as e:
        raise FlowError(str(e)) from None
    if not names:
        return list(listed)
    for name in names:
        if name not in listed:
            raise FlowError(f"component {name!r} is not registered (components: {', '.join(listed)})")
    return names


def write_verilog(name: str, directory: Path) -> Path:
    """`directory/<name>.v` with the component's Verilog; its top module is `name`."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.v"
    path.write_text(export.verilog(name))
    return path


def job_count() -> int:
    """Components run at once: JOBS, or one per core."""
    return int(os.environ.get("JOBS", 0)) or os.cpu_count() or 1


def run_all(names: list[str], job: Callable[[str], dict], jobs: int | None = None) -> dict[str, dict]:
    """`job(name)` for each component, `jobs` at a time (default: every core),
    printing each as it finishes; a job's result is a dict with at least `ok`."""
    jobs = jobs or job_count()
    results: dict[str, dict] = {}
    start = time.monotonic()
    print(f"{len(names)} component(s), {jobs} at a time: {' '.join(names)}", flush=True)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(job, name): name for name in names}
        for future in as_completed(futures):
            name = futures[future]
            try:
                results[name] = future.result()
            except Exception as e:  # a job's own failure is reported, the others go on
                results[name] = {"ok": False, "summary": f"{type(e).__name__}: {e}"}
            r = results[name]
            print(f"[{len(results)}/{len(names)} {time.monotonic() - start:6.1f}s] "
                  f"{name}: {'ok' if r['ok'] else 'FAILED'} {r.get('summary', '')}", flush=True)
    return {name: results[name] for name in names}
