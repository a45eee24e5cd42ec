"""`sfpu bench` / `make bench`: how fast each part runs, measured in one run.

Measured on this machine, one after the other, nothing else asserted:

- golden model: instructions per second on fixed random programs, one
  stream: `random:legal:1:4000` functional (`Machine.execute`) and
  cycle-exact (`run_program`, no trace kept), and `random:macro:1:4000`
  (SFPLOADMACRO streams) cycle-exact;
- the vectorised FMA (`model.fma.fma_wh`): operands (a*b+c triples) per second
  on 2^20 random triples;
- the RTL on each backend: checked cycles per second with the lock-step
  scoreboard (`lockstep`, program generation excluded), in blocks (the
  default) and one cycle at a time (SFPU_BLOCK=0), on random legal programs
  and on SFPLOADMACRO streams (`random:macro`), raw cycles per second
  with it off (`free_run`), the simulator's own speed with one SFPMAD held on
  the port and no Python per cycle (`held_word`), and the build and start-up
  times;
- Verilog generation: Amaranth's own (`sfpu verilog`) and the simulation
  Verilog the Verilog simulators compile;
- Yosys cell counts per component, from the latest `make synth`;
- `sfpu sweep Exp` (every gated Wormhole cell) when $SFPU_LLK_SRC names a kernel tree;
- `sfpu race` on two kernels of kernels/: seconds and schedules per second,
  with its shortcuts (snapshots, early stop, idle gap points skipped) and
  without them (every schedule run whole).

The table is printed and written with the machine and versions to
bench/results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

import numpy as np

from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results.json"
# The benchmarks run on the default architecture (the rows of bench/results.json compare across runs).
ARCH = DEFAULT_ARCH
MODEL_PROGRAM = ("legal", 1, 4000)
MACRO_PROGRAM = ("macro", 1, 4000)
# Program length per backend: about a minute of lock-step on each.
RTL_CYCLES = {"amaranth": 300, "icarus": 400, "verilator": 20_000}


def _timed(func, *args, **kwargs) -> tuple[object, float]:
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - start


def bench_model(program_spec: tuple[str, int, int] = MODEL_PROGRAM) -> dict:
    from tensix_sfpu.model.asm import Directive, Instr
    from tensix_sfpu.model.machine import Machine, apply_effects
    from tensix_sfpu.model.state import SfpuState
    from tensix_sfpu.model.run import apply_directive, run_program
    from tensix_sfpu.tb.stimulus.generator import generate
    program = generate(*program_spec, arch=ARCH)
    instructions = len(program.words)

    def functional() -> None:
        machine = Machine(SfpuState(ARCH), strict=False)
        for item in program.items:
            if isinstance(item, Directive):
                if item.name != "allow":
                    apply_directive(machine.state, item)
            elif isinstance(item, Instr):
                apply_effects(machine.state, machine.execute(item.word))

    _, functional_s = _timed(functional)
    result, cycle_s = _timed(run_program, program, strict=False, keep_trace=False)
    return {"program": "random:{}:{}:{}".format(*program_spec), "instructions": instructions,
            "cycles": result.cycles,
            "functional_instructions_per_s": instructions / functional_s,
            "cycle_exact_instructions_per_s": instructions / cycle_s}


def bench_fma(count: int = 1 << 20) -> dict:
    from tensix_sfpu.model.fma import fma_wh
    rng = np.random.default_rng(1)
    a, b, c = (rng.integers(0, 1 << 32, count, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    fma_wh(a[:1000], b[:1000], c[:1000])                 # first call's set-up out of the timing
    _, seconds = _timed(fma_wh, a, b, c)
    return {"operands": count, "operands_per_s": count / seconds}


def bench_verilog() -> dict:
    from tensix_sfpu.hdl import export
    from tensix_sfpu.tb.sims import runner
    _, amaranth_s = _timed(export.verilog, "Sfpu", ARCH)
    _, simulation_s = _timed(runner.simulation_verilog, arch=ARCH)
    return {"sfpu_verilog_s": amaranth_s, "simulation_verilog_s": simulation_s}


def bench_build(backend: str) -> float:
    """Seconds to build the backend from scratch (the Verilog already written),
    in a scratch folder so the cached build stays."""
    from tensix_sfpu.tb.sims import runner
    source = runner.verilog(backend, arch=ARCH)
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "cocotb").mkdir()
        shutil.copy(source, Path(scratch) / "cocotb" / source.name)
        env = dict(os.environ, SFPU_BUILD=scratch)
        start = time.perf_counter()
        # ARCH's build only, as every other figure here is ARCH's (the runner builds every architecture by default).
        proc = subprocess.run([sys.executable, "-m", "tensix_sfpu.tb.cli.build_sims", "build", "--arch", ARCH.value,
                               backend], env=env, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if proc.returncode:
            raise RuntimeError(f"{backend} build failed: {proc.stderr.strip()[-300:]}")
    return seconds


def bench_backend(backend: str, build: bool = True) -> dict:
    from tensix_sfpu.tb.sims import runner
    spec = f"random:legal:1:{RTL_CYCLES[backend]}"
    out: dict = {"program": spec}
    if backend != "amaranth":
        if build:
            out["build_s"] = bench_build(backend)
        runner.build(backend, arch=ARCH)
    from tensix_sfpu.tb.stimulus.programs import resolve_all
    _, generation_s = _timed(resolve_all, spec)       # the test generates it again, inside its start-up
    out["generation_s"] = generation_s
    macro = f"random:macro:1:{RTL_CYCLES[backend]}"
    with tempfile.TemporaryDirectory() as work:
        results = Path(work) / "results.json"
        runs = (("checked", "lockstep", spec, {}), ("checked_per_cycle", "lockstep", spec, {"SFPU_BLOCK": "0"}),
                ("checked_macro", "lockstep", macro, {}), ("raw", "free_run", spec, {}),
                ("held", "held_word", spec, {}))
        for key, test, program, extra in runs:
            env = {"SFPU_PROGRAMS": program, "SFPU_RESULTS": str(results), "SFPU_CYCLES": str(RTL_CYCLES[backend]),
                   **extra}
            (outcome,), wall = _timed(runner.run, backend, [test], env, work=Path(work) / key, arch=ARCH)
            if not outcome.passed:
                raise RuntimeError(f"{backend} {test} ({key}) failed: {outcome.message}")
            report = json.loads(results.read_text())
            if test == "lockstep":
                cycles = sum(run["cycles"] for run in report["programs"])
                seconds = sum(run["seconds"] for run in report["programs"])
                out[f"{key}_cycles"] = cycles
                out[f"{key}_cycles_per_s"] = cycles / seconds
                if key == "checked":
                    out["startup_s"] = wall - report["seconds"] - generation_s
            elif test == "free_run":
                out.update(raw_cycles=report["cycles"], raw_cycles_per_s=report["cycles"] / report["seconds"])
            else:
                out.update(held_cycles_per_s=report["cycles"] / report["seconds"])
    return out


RACE_KERNELS = ("kernels/exp_fast.s", "kernels/blackhole/reciprocal.s")


SWEEP_OP = "Exp"


def bench_sweep() -> dict | None:
    """`sfpu sweep Exp` (every gated Wormhole cell) in this process, when $SFPU_LLK_SRC names a kernel
    tree, with one worker and with one per CPU: seconds, cells, tiles run and model seconds per tile.
    None without a tree."""
    src = os.environ.get("SFPU_LLK_SRC")
    if not src:
        return None
    cpus = len(os.sched_getaffinity(0))
    runs = [_sweep_once(src, jobs) for jobs in sorted({1, cpus})]
    assert all(r["max_ulps"] == runs[0]["max_ulps"] for r in runs), "the workers changed a cell's result"
    return {"op": SWEEP_OP, "runs": runs}


def _sweep_once(src: str, jobs: int) -> dict:
    from tensix_sfpu.tb.llk import sweep as sw
    from tensix_sfpu.tb.llk.sources import find_tree
    from tensix_sfpu.tb.llk.sweep_facts import load
    start = time.perf_counter()
    tree = find_tree(src, ARCH.value)
    facts = load(tree)
    stride, phase = sw.read_stride(facts)
    sweeper = sw.Sweeper(facts, {ARCH.value: tree}, stride, phase, jobs=jobs)
    cells = sw.sweep_cells(facts, SWEEP_OP, ARCH.value)
    rows = [sweeper.measure(cell) for cell in cells]
    seconds = time.perf_counter() - start
    tiles = sum(-(-len(v) // sw.TILE) for v in sweeper._dst_runs.values())
    return {"jobs": jobs, "cells": len(rows), "seconds": seconds, "tiles": tiles,
            "model_seconds": sweeper.seconds, "model_seconds_per_tile": sweeper.seconds / max(tiles, 1),
            "equal_to_hardware": sum(r["max_ulp"] == r["hw_max_ulp"] for r in rows),
            "max_ulps": [r["max_ulp"] for r in rows]}


def bench_race() -> dict:
    from tensix_sfpu.model.asm import assemble_file
    from tensix_sfpu.model.race import explore
    from tensix_sfpu.model.state import SfpuState
    out = {}
    for path in RACE_KERNELS:
        program = assemble_file(str(ROOT / path))
        state = SfpuState(arch=program.arch)
        state.dst = np.random.default_rng(1).integers(0, 1 << 16, size=state.dst.shape, dtype=np.uint16)
        fast, fast_s = _timed(explore, program, state, seeds=16)
        slow, slow_s = _timed(explore, program, state, seeds=16, shortcuts=False)
        assert fast.deterministic == slow.deterministic
        out[path] = {"instructions": len(program.words), "schedules": fast.schedules_run, "seconds": fast_s,
                     "schedules_whole": slow.schedules_run, "seconds_whole": slow_s}
    return out


PERF_KERNEL = ("tests/tb/llk_fixtures/ckernel_sfpu_fixture_perf.h", "calculate_fixture_perf_pushed<32>()",
               "fixture_perf_init()")


def bench_perf() -> dict:
    """`sfpu perf` on a fixture kernel with the suite's 128 tiles, each architecture: the time of one
    whole run (two builds, the RISC-V simulation, the issue path and the cycle model)."""
    from tensix_sfpu.tb import api
    from tensix_sfpu.tb.perf import rv32
    if rv32.missing():
        return {"error": rv32.missing()}
    header, call, init = PERF_KERNEL
    out = {}
    for arch in (a.value for a in Arch):
        result, seconds = _timed(api.perf, ROOT / header, call, init=init, arch=arch, fp32_dest=1)
        out[arch] = {"seconds": seconds, "cycles": result.path.cycles, "riscv_instructions": result.riscv_instructions}
    return out


def synth_counts() -> dict:
    """Cells per component from the latest `make synth` (build/synth), if any."""
    counts = {}
    for path in sorted((ROOT / "build" / "synth").glob("*.post.json")):
        design = json.loads(path.read_text())
        design = design.get("design") or next(iter(design["modules"].values()))
        counts[path.name.removesuffix(".post.json")] = design["num_cells"]
    return counts


def machine() -> dict:
    versions = {name: metadata.version(name) for name in ("amaranth", "cocotb", "numpy", "verilator")
                if _installed(name)}
    iverilog = subprocess.run(["iverilog", "-V"], capture_output=True, text=True).stdout.splitlines()
    versions["iverilog"] = iverilog[0] if iverilog else "not installed"
    return {"cpu": _cpu_name(), "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "versions": versions,
            "date": time.strftime("%Y-%m-%d %H:%M")}


def _installed(name: str) -> bool:
    try:
        metadata.version(name)
        return True
    except metadata.PackageNotFoundError:
        return False


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def table(results: dict) -> str:
    rows = [("golden model, functional", f"{results['model']['functional_instructions_per_s']:,.0f} instructions/s"),
            ("golden model, cycle-exact", f"{results['model']['cycle_exact_instructions_per_s']:,.0f} instructions/s"),
            *([("golden model, cycle-exact, macros",
                f"{results['model_macro']['cycle_exact_instructions_per_s']:,.0f} instructions/s")]
              if "model_macro" in results else []),
            ("FMA, vectorised", f"{results['fma']['operands_per_s']:,.0f} operands/s")]
    if results.get("sweep"):
        for r in results["sweep"]["runs"]:
            rows.append((f"sfpu sweep {results['sweep']['op']} --jobs {r['jobs']}",
                         f"{r['seconds']:.0f} s for {r['cells']} cells, {r['tiles']} tiles "
                         f"({r['model_seconds_per_tile'] * 1000:.0f} ms of model per tile)"))
    for path, r in results.get("race", {}).items():
        rows.append((f"sfpu race {path}", f"{r['seconds']:.1f} s for {r['schedules']} schedules "
                     f"({r['instructions']} instructions); every schedule run whole: {r['seconds_whole']:.1f} s "
                     f"for {r['schedules_whole']}"))
    for arch, r in results.get("perf", {}).items():
        if arch == "error":
            rows.append(("sfpu perf", r))
            continue
        rows.append((f"sfpu perf {Path(PERF_KERNEL[0]).name} --arch {arch}",
                     f"{r['seconds']:.1f} s for 128 tiles ({r['cycles']:,} cycles, "
                     f"{r['riscv_instructions']:,} RISC-V instructions)"))
    for backend, r in results["rtl"].items():
        if "error" in r:
            rows.append((f"RTL on {backend}", r["error"]))
            continue
        rows.append((f"RTL on {backend}, lock-step", f"{r['checked_cycles_per_s']:,.0f} checked cycles/s "
                                                     f"({r['checked_cycles_per_s'] / r['raw_cycles_per_s']:.2f} of raw)"))
        if "checked_per_cycle_cycles_per_s" in r:
            rows.append((f"RTL on {backend}, lock-step one cycle at a time",
                         f"{r['checked_per_cycle_cycles_per_s']:,.0f} checked cycles/s"))
        if "checked_macro_cycles_per_s" in r:
            rows.append((f"RTL on {backend}, lock-step, SFPLOADMACRO streams",
                         f"{r['checked_macro_cycles_per_s']:,.0f} checked cycles/s"))
        rows.append((f"RTL on {backend}, raw", f"{r['raw_cycles_per_s']:,.0f} cycles/s"))
        if "held_cycles_per_s" in r:
            rows.append((f"RTL on {backend}, one word held", f"{r['held_cycles_per_s']:,.0f} cycles/s"))
        build = f"build {r['build_s']:.0f} s, " if "build_s" in r else ""
        rows.append((f"RTL on {backend}, set-up", f"{build}start-up {r['startup_s']:.1f} s, "
                                                  f"program generation {r['generation_s']:.1f} s"))
    if "verilog" in results:
        v = results["verilog"]
        rows.append(("Verilog generation", f"sfpu verilog {v['sfpu_verilog_s']:.0f} s, "
                                           f"simulation Verilog {v['simulation_verilog_s']:.0f} s"))
    if results.get("synth"):
        rows.append(("Yosys cells", ", ".join(f"{n} {c:,}" for n, c in results["synth"].items())))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backends", default="amaranth,icarus,verilator", help="comma-separated (default %(default)s)")
    p.add_argument("--no-build", action="store_true", help="skip the from-scratch build timings")
    p.add_argument("--no-verilog", action="store_true", help="skip the Verilog generation timings")
    p.add_argument("-o", "--output", default=str(RESULTS), help="the JSON results (default %(default)s)")


def main(args: argparse.Namespace) -> int:
    results: dict = {"machine": machine()}
    print("golden model ...", flush=True)
    results["model"] = bench_model()
    results["model_macro"] = bench_model(MACRO_PROGRAM)
    results["fma"] = bench_fma()
    print("sfpu race ...", flush=True)
    results["race"] = bench_race()
    print("sfpu sweep ..." if os.environ.get("SFPU_LLK_SRC") else "sfpu sweep: skipped (set SFPU_LLK_SRC)",
          flush=True)
    results["sweep"] = bench_sweep()
    print("sfpu perf ...", flush=True)
    results["perf"] = bench_perf()
    if not args.no_verilog:
        print("Verilog generation ...", flush=True)
        results["verilog"] = bench_verilog()
    results["rtl"] = {}
    for backend in [b for b in args.backends.split(",") if b]:
        print(f"RTL on {backend} ...", flush=True)
        try:
            results["rtl"][backend] = bench_backend(backend, build=not args.no_build)
        except Exception as e:  # a missing simulator is a row of the table, not the end of the run
            results["rtl"][backend] = {"error": f"{type(e).__name__}: {e}"}
    results["synth"] = synth_counts()
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(table(results))
    print(f"wrote {out}")
    return 0

