"""`sfpu run` and `sfpu timeline` on an RTL backend (amaranth, icarus,
verilator): a program runs on the RTL, and its result is read back from the
RTL, in the same form as the cycle model's `model.run.RunResult`.

- The trace is the RTL's own: the records `TraceMonitor` builds from the
  trace port, one per cycle.
- The final state is read from the top's state-view ports (`lregs__0` to
  `lregs__16`, `lane_flags`, `use_flags`, `flag_depth`, `flag_stack`,
  `prng`) and, row by row, from the Dst side port once the pipelines have
  drained. Cycle counts come from the RTL's trace.
- The golden model runs alongside in lock-step (`SfpuEnv`), for two reasons.
  The hazard checker is the model's, so `hazards`, the hazards in each trace
  record, and the stop at a hazard in strict mode (exit status 3) are the
  model's, exactly as with `--backend model`; the RTL reports only
  undefined behaviour, and the scoreboard checks that report against the
  model's every cycle. And a difference between the RTL and the model is a
  bug, which stops the run with the scoreboard's report (cycle, instruction,
  sub-unit, lane, both values) instead of a final state that is silently
  wrong.

The simulators run in another process (`tb.sims.runner`), so a batch of `Job`s is
pickled into the run's folder, the `run_jobs` test of tb/cli/cocotb_tests.py runs
them in one simulation (tb/env/rtl_jobs.py, the simulator's side), and pickles
one `JobResult` each back.
"""

from __future__ import annotations

import pickle
import shutil
import tempfile
from pathlib import Path

import numpy as np

from tensix_sfpu.model.asm import Program
from tensix_sfpu.model.isa import DEFAULT_ARCH
from tensix_sfpu.model.hazards import HazardError
from tensix_sfpu.model.machine import UndefinedBehaviour
from tensix_sfpu.tb.env.rtl_jobs import Job, JobResult, RtlMismatch, RtlRunResult


def run_batch(backend: str, jobs: list[Job]) -> list[JobResult]:
    """Run `jobs` in one simulation on `backend` (building it first if
    needed), on the RTL elaborated for their programs' architecture. Raises
    runner.RunnerError when the simulator cannot build or run, ValueError
    when the jobs mix architectures."""
    from tensix_sfpu.tb.sims import runner
    archs = {job.program.arch for job in jobs}
    if len(archs) > 1:
        raise ValueError(f"one simulation runs one architecture; these jobs mix "
                         f"{' and '.join(sorted(a.title for a in archs))}")
    arch = archs.pop() if archs else DEFAULT_ARCH
    (runner.BUILD / "runs").mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"run-{backend}-", dir=runner.BUILD / "runs"))
    jobs_file, results_file = work / "jobs.pickle", work / "results.pickle"
    jobs_file.write_bytes(pickle.dumps(jobs))
    outcomes = runner.run(backend, ["run_jobs"],
                          {"SFPU_JOBS": str(jobs_file), "SFPU_JOB_RESULTS": str(results_file)}, work=work, arch=arch)
    if not results_file.is_file():
        why = "; ".join(o.message for o in outcomes if o.message) or "no results"
        raise runner.RunnerError(f"the {backend} simulation ended without results ({why}); see {work}")
    results = pickle.loads(results_file.read_bytes())
    shutil.rmtree(work, ignore_errors=True)
    return results


def run_program(backend: str, program: Program, dst: np.ndarray | None = None, strict: bool = True,
                allow: set[str] | frozenset[str] = frozenset()) -> RtlRunResult:
    """One program on `backend`, as `model.run.run_program` runs it on the
    model: raises UndefinedBehaviour where a strict run stops, RtlMismatch
    where the RTL and the model differ."""
    from tensix_sfpu.tb.sims import runner
    out, = run_batch(backend, [Job(program.name, program, dst, strict, frozenset(allow))])
    if out.stopped is not None:
        raise HazardError(out.hazard) if out.hazard is not None else UndefinedBehaviour(out.stopped)
    if out.mismatch is not None:
        raise RtlMismatch(out.mismatch)
    if out.error is not None:
        raise runner.RunnerError(f"{backend} run of {program.name} failed: {out.error}")
    out.result.backend = backend
    return out.result


__all__ = ["Job", "JobResult", "RtlMismatch", "RtlRunResult", "run_batch", "run_program"]
