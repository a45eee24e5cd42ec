"""Shared by tools/lint.py and tools/synth.py: pick components, write their
Verilog, run one job per component on the machine's cores, print progress.

`--arch blackhole` (make lint/synth ARCH=blackhole) runs the components that
differ between the architectures (those whose class takes `arch`), elaborated
for Blackhole; such a job is named `NAME@blackhole`, and its Verilog module
is still `NAME`."""

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

from tensix_sfpu.hdl import export  # noqa: E402
from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch  # noqa: E402
from tensix_sfpu.tb.cli import options  # noqa: E402
from tensix_sfpu.tb.cli.errors import CliError  # noqa: E402

ARCH_MARK = "@"


class FlowError(Exception):
    """A user-facing failure: printed as one line, exit status 2."""


def take_arch(argv: list[str]) -> tuple[Arch, list[str]]:
    """`--arch NAME` out of the arguments (the default architecture without it)."""
    try:
        arch, argv = options.take_arch(argv)
    except CliError as e:
        raise FlowError(str(e)) from None
    return arch or DEFAULT_ARCH, argv


def split_job(job: str) -> tuple[str, Arch]:
    """`NAME` or `NAME@ARCH` -> the component and its architecture."""
    name, mark, arch = job.partition(ARCH_MARK)
    return name, Arch.parse(arch) if mark else DEFAULT_ARCH


def select(names: list[str], arch: Arch) -> list[str]:
    """The jobs for the named components (every listed one if none), checked
    to exist; for another architecture than the default, those that differ (named `NAME@ARCH`)."""
    try:
        listed = export.registry()
        per_arch = set(export.arch_components())
    except export.ExportError as e:
        raise FlowError(str(e)) from None
    for name in names:
        if name not in listed:
            raise FlowError(f"component {name!r} is not registered (components: {', '.join(listed)})")
        if arch is not DEFAULT_ARCH and name not in per_arch:
            raise FlowError(f"component {name!r} is the same on every architecture "
                            f"(those that differ: {', '.join(n for n in listed if n in per_arch)})")
    chosen = names or [n for n in listed if arch is DEFAULT_ARCH or n in per_arch]
    return [n + arch.tagged(ARCH_MARK + "{}") for n in chosen]


def write_verilog(job: str, directory: Path) -> Path:
    """`directory/<job>.v` with the component's Verilog (for the job's
    architecture); its top module is the component's name."""
    name, arch = split_job(job)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{job.replace(ARCH_MARK, '-')}.v"
    path.write_text(export.verilog(name, arch))
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
