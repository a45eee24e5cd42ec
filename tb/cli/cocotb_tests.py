"""cocotb tests of the `Sfpu` top against the cycle-exact golden model: the simulators' entry
point, which runs the lock-step environment (tb/env/) for the campaigns.

The same module runs on every backend (`tb.sims.runner`: Amaranth's simulator,
Icarus, Verilator). What to run comes from the environment:

- SFPU_PROGRAMS: program specs (tb.stimulus.programs), separated by spaces;
- SFPU_FAULTS: fault names (tb.campaigns.faults) for `faults_are_caught`, or `all`;
- SFPU_BLOCK: `0` checks one cycle at a time instead of in blocks
  (block mode of tb.env.sfpu_env.SfpuEnv; only where the design has the harness's ports);
- SFPU_RESULTS: a JSON file to write each program's cycles, time and the
  coverage to (tb.campaigns.coverage), for `sfpu regress`;
- SFPU_JOBS, SFPU_JOB_RESULTS: the pickled jobs of `run_jobs` and where
  their results go (tb.sims.rtl_run, for `sfpu run` and `sfpu timeline`);
- SFPU_MUTANTS, SFPU_BUDGET: the mutants `mutants` selects in the netlist of
  mutants (tb.campaigns.mutants) and the pickled programs each runs (tb.campaigns.mutate).
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import cocotb

from tensix_sfpu.model import isa
from tensix_sfpu.tb.stimulus.programs import resolve_all
from tensix_sfpu.tb.env.scoreboard import Mismatch
from tensix_sfpu.tb.env.sfpu_env import SfpuEnv, block_mode_default, rtl_arch

LOG = logging.getLogger("cocotb.sfpu")     # under cocotb's logger, so simulators' logs show it
DEFAULT_PROGRAMS = "example:macro_example_a.s directed:flags"


def _fma_busy_word(arch: isa.Arch) -> int:
    """The word `sfpu bench` holds: every lane's FMA busy each cycle."""
    return isa.encode("SFPMAD", arch, vd=1, va=2, vb=3, vc=4)


def _coverage():
    try:
        from tensix_sfpu.tb.campaigns.coverage import Coverage
    except ImportError:          # coverage is optional for a plain lock-step run
        return None
    return Coverage(rtl_arch())


@cocotb.test()
async def lockstep(dut):
    """Every program runs on the RTL and the model in lock-step with no difference."""
    specs = resolve_all(os.environ.get("SFPU_PROGRAMS", DEFAULT_PROGRAMS))
    coverage = _coverage() if os.environ.get("SFPU_RESULTS") else None
    env = SfpuEnv(dut, on_cycle=coverage.sample if coverage else None, block=block_mode_default())
    report: dict = {"programs": [], "cycles": 0}
    started = time.monotonic()
    try:
        for spec in specs:
            run = await env.run(spec.program, name=spec.name, seed=spec.seed, strict=spec.strict, dst=spec.dst)
            if coverage is not None:
                coverage.finish(run.model)
            if spec.expect_rule is not None:
                rules = {h.rule for h in run.model.hazards}
                assert spec.expect_rule in rules, (
                    f"{spec.name}: the hazard checker did not report {spec.expect_rule} (it reported "
                    f"{', '.join(sorted(rules)) or 'nothing'})")
            report["programs"].append({"name": spec.name, "seed": spec.seed, "cycles": run.cycles,
                                       "seconds": round(run.seconds, 3)})
            report["cycles"] += run.cycles
    finally:
        report["seconds"] = round(time.monotonic() - started, 3)
        if os.environ.get("SFPU_RESULTS"):
            if coverage is not None:
                report["coverage"] = coverage.to_json()
            Path(os.environ["SFPU_RESULTS"]).write_text(json.dumps(report))


@cocotb.test()
async def run_jobs(dut):
    """`sfpu run` on this backend: each job of SFPU_JOBS runs with the model in
    lock-step, and its final state is read from the RTL (tb.sims.rtl_run)."""
    from tensix_sfpu.tb.env.rtl_jobs import run_job_file
    await run_job_file(dut, Path(os.environ["SFPU_JOBS"]), Path(os.environ["SFPU_JOB_RESULTS"]))


@cocotb.test()
async def mutants(dut):
    """The netlist of mutants (tb.campaigns.mutants): each mutant of SFPU_MUTANTS, chosen
    by the `mutsel` input, runs the programs of SFPU_BUDGET in lock-step until
    its first failure; the outcomes go to SFPU_RESULTS (tb.campaigns.mutate)."""
    import pickle

    from tensix_sfpu.tb.campaigns.mutate import run_mutants
    specs = pickle.loads(Path(os.environ["SFPU_BUDGET"]).read_bytes())
    ids = [int(i) for i in os.environ["SFPU_MUTANTS"].split()]
    await run_mutants(dut, ids, specs, Path(os.environ["SFPU_RESULTS"]))


@cocotb.test()
async def faults_are_caught(dut):
    """The checker can fail: each fault's trigger program passes with the
    clean model, and with the fault injected into the model the scoreboard
    stops at the first cycle the fault changes."""
    from tensix_sfpu.tb.campaigns.faults import faults, first_difference_cycle, trigger_program
    arch = rtl_arch()
    names = os.environ.get("SFPU_FAULTS", "all")
    names = list(faults(arch)) if names == "all" else names.split()
    env = SfpuEnv(dut, block=block_mode_default())
    problems = []
    for name in names:
        program = trigger_program(name, arch)
        await env.run(program, name=f"trigger of {name}")          # must match: the RTL is correct
        expected_at = first_difference_cycle(name, arch)
        with faults(arch)[name].inject():
            try:
                await env.run(program, name=f"fault {name}")
                problems.append(f"{name}: not caught")
            except Mismatch as caught:
                LOG.info("fault %s caught:\n%s", name, caught)
                if caught.cycle != expected_at:
                    problems.append(f"{name}: caught at cycle {caught.cycle}, where it first shows at {expected_at}")
    assert not problems, "; ".join(problems)


@cocotb.test()
async def free_run(dut):
    """Raw simulation speed (for `sfpu bench`): the words of the programs in
    SFPU_PROGRAMS presented one per cycle with no model, no checks and no
    reads, so only the simulator and cocotb's scheduling are timed."""
    from tensix_sfpu.tb.env.cocotb_api import FallingEdge
    specs = resolve_all(os.environ.get("SFPU_PROGRAMS", DEFAULT_PROGRAMS))
    words = [w for spec in specs for w in spec.program.words]
    env = SfpuEnv(dut)
    await env.start()
    await env.reset()
    started = time.monotonic()
    for word in words:
        await FallingEdge(dut.clk)
        dut.run.value = 1
        dut.instr__valid.value = 1
        dut.instr__payload.value = word
    await FallingEdge(dut.clk)
    dut.instr__valid.value = 0
    seconds = time.monotonic() - started
    if os.environ.get("SFPU_RESULTS"):
        Path(os.environ["SFPU_RESULTS"]).write_text(json.dumps({"cycles": len(words), "seconds": seconds}))


@cocotb.test()
async def held_word(dut):
    """The simulator's own speed (for `sfpu bench`): one SFPMAD word held on
    the instruction port for SFPU_CYCLES cycles while the test waits for them
    all at once, so no Python runs per cycle beyond cocotb's edge counting."""
    from tensix_sfpu.tb.env.cocotb_api import ClockCycles, FallingEdge
    cycles = int(os.environ.get("SFPU_CYCLES", "2000"))
    env = SfpuEnv(dut)
    await env.start()
    await env.reset()
    await FallingEdge(dut.clk)
    dut.run.value = 1
    dut.instr__valid.value = 1
    dut.instr__payload.value = _fma_busy_word(env.arch)
    started = time.monotonic()
    await ClockCycles(dut.clk, cycles)
    seconds = time.monotonic() - started
    dut.instr__valid.value = 0
    if os.environ.get("SFPU_RESULTS"):
        Path(os.environ["SFPU_RESULTS"]).write_text(json.dumps({"cycles": cycles, "seconds": seconds}))

