"""The simulator's side of `sfpu run` and `sfpu timeline` on the RTL (tb/sims/rtl_run.py has
the other): the jobs a batch carries across the process boundary and what becomes of each, and
running them inside the simulation, with the golden model in lock-step (`SfpuEnv`), reading the
final state back from the top's ports. The cocotb test `run_jobs` (tb/cli/cocotb_tests.py) calls
`run_job_file`."""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tensix_sfpu.model.asm import Program
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.hazards import Hazard
from tensix_sfpu.model.machine import UndefinedBehaviour
from tensix_sfpu.model.run import RunResult
from tensix_sfpu.model.state import DST_COLS, DST_ROWS, LANES, FlagStackEntry, SfpuState


@dataclass
class Job:
    """One program to run from reset, with Dst holding `dst` (zero when None)."""
    name: str
    program: Program
    dst: np.ndarray | None = None
    strict: bool = True
    allow: frozenset[str] = frozenset()


@dataclass
class JobResult:
    """What became of a job: a result, or why there is none."""
    name: str
    result: RunResult | None = None
    stopped: str | None = None      # the model's checker stopped a strict run (hazard or undefined behaviour)
    hazard: Hazard | None = None    # ... at this hazard (the rule `sfpu run` then suggests to --allow)
    mismatch: str | None = None     # the RTL and the model differ: the scoreboard's report
    error: str | None = None        # the run failed otherwise (a value with X bits, a runaway program)


class RtlMismatch(AssertionError):
    """The RTL and the model differ; the message is the scoreboard's report."""


@dataclass
class RtlRunResult(RunResult):
    """A run on the RTL that kept in lock-step with the model to its end (a
    difference raises RtlMismatch instead): on which backend, and how many
    cycles the scoreboard compared before the final states were."""
    backend: str = ""
    cycles_compared: int = 0


def _lane_bools(mask: int) -> np.ndarray:
    return np.array([(mask >> lane) & 1 for lane in range(LANES)], dtype=bool)


async def read_state(dut, arch: Arch) -> SfpuState:
    """The architectural state as the RTL (elaborated for `arch`) holds it,
    read through its ports (the RTL must be frozen: `run` low, nothing
    presented), the Tensix registers included (not the ADDR_MOD slots). Dst
    takes one simulator step per row through the side port, whose read is
    combinational."""
    from tensix_sfpu.tb.env.cocotb_api import ReadOnly, Timer
    from tensix_sfpu.hdl.tensix import TensixView
    from tensix_sfpu.tb.env.monitor import FLAG_STACK, NUM_LREGS, TENSIX, lanes_of, read, read_struct
    await Timer(1, "ps")                # a new time step, so that ReadOnly() can be awaited
    await ReadOnly()
    state = SfpuState(arch=arch)
    state.lregs = np.array([lanes_of(read(getattr(dut, f"lregs__{r}")), 32, LANES) for r in range(NUM_LREGS)])
    state.lane_flags = _lane_bools(read(dut.lane_flags))
    state.use_flags = _lane_bools(read(dut.use_flags))
    entries = FLAG_STACK(read(dut.flag_stack))
    state.flag_stack = [FlagStackEntry(_lane_bools(e.lane_flags), _lane_bools(e.use_flags))
                        for e in entries[:read(dut.flag_depth)]]
    state.prng = lanes_of(read(dut.prng), 32, LANES)
    # The Tensix registers the view shows (the ADDR_MOD slots are not on a port).
    tensix = read_struct(dut.tensix, TENSIX)
    for name, _ in TensixView:
        current = getattr(state.tensix, name)
        setattr(state.tensix, name, bool(getattr(tensix, name)) if isinstance(current, bool) else getattr(tensix, name))
    dst = np.zeros((DST_ROWS, DST_COLS), dtype=np.uint16)
    for row in range(DST_ROWS):
        await Timer(1, "ps")            # out of the read-only phase, far from a clock edge
        dut.dst_row.value = row
        await ReadOnly()
        dst[row] = lanes_of(read(dut.dst_rdata), 16, DST_COLS)
    state.dst = dst
    return state


def rtl_result(run, state: SfpuState) -> RunResult:
    """A `RunResult` from a lock-step run (`tb.env.scoreboard.ProgramRun`) and the
    state read from the RTL: the RTL's trace and cycle counts, the model's
    hazards and the words explaining a stall (the checker is the model's; the
    lock-step check has already matched the stalls themselves)."""
    for got, expected in zip(run.rtl_trace, run.model_trace):
        got.hazards = list(expected.hazards)
        if got.stalled is not None:
            got.stall_reason = expected.stall_reason
    issued = [record.cycle for record in run.rtl_trace if record.issued is not None]
    cycles = run.rtl_trace[-1].cycle + 1 if run.rtl_trace else 0
    # The lock-step check has matched every issue cycle, so the model's source lines name the RTL's too.
    return RtlRunResult(state, cycles, issued[-1] + 1 if issued else 0, len(issued), run.rtl_trace,
                        list(run.model.hazards), issued_from=dict(run.issued_from),
                        dst_rows_written={w.row for r in run.rtl_trace for w in r.dst_writes},
                        cycles_compared=run.cycles)


async def run_jobs(dut, jobs: list[Job]) -> list[JobResult]:
    """Each job from reset on the RTL with the model in lock-step (SfpuEnv)."""
    from tensix_sfpu.tb.env.scoreboard import Mismatch
    from tensix_sfpu.tb.env.sfpu_env import SfpuEnv
    env = SfpuEnv(dut)
    results = []
    for job in jobs:
        out = JobResult(job.name)
        try:
            run = await env.run(job.program, name=job.name, strict=job.strict, allow=job.allow, dst=job.dst)
            out.result = rtl_result(run, await read_state(dut, env.arch))
        except Mismatch as e:
            out.mismatch = str(e)
        except UndefinedBehaviour as e:
            out.stopped, out.hazard = str(e), getattr(e, "hazard", None)
        except Exception as e:         # reported with the job's name; the next job starts from reset
            out.error = f"{type(e).__name__}: {e}"
        results.append(out)
    return results


async def run_job_file(dut, jobs: Path, results: Path) -> None:
    """The `run_jobs` cocotb test's body: jobs from one pickle, results into another."""
    batch = pickle.loads(jobs.read_bytes())
    results.write_bytes(pickle.dumps(await run_jobs(dut, batch)))
