"""Programs on the RTL in Amaranth's simulator, in lock-step with the cycle model.

`run_lockstep(programs)` runs each program on `hdl.sfpu.Sfpu`, elaborated for
the programs' architecture, in Amaranth's simulator (through
tb.env.amaranth_cocotb, which compiles it once per process and architecture and
resets it for each call) with the lock-step environment of tb.env.sfpu_env,
from reset. A program's result holds both traces, the model's final state, and
the first difference if there was one; the programs after a difference still run.
"""

from __future__ import annotations

from tensix_sfpu.model.asm import Program
from tensix_sfpu.tb.env.amaranth_cocotb import simulate
from tensix_sfpu.tb.env.scoreboard import Mismatch, ProgramRun
from tensix_sfpu.tb.env.sfpu_env import SfpuEnv


def run_lockstep(programs: list[Program], strict: bool = False, allow=frozenset(),
                 max_cycles: int = 10_000, dsts: list | None = None) -> list[ProgramRun]:
    """Run each program on the RTL and the model side by side; one simulation
    for all, so they must be of one architecture. `dsts`: each program's Dst
    at the start (raw uint16 rows, or None for zeros)."""
    from tensix_sfpu.hdl.sfpu import Sfpu
    archs = {p.arch for p in programs}
    if len(archs) != 1:
        raise ValueError(f"run_lockstep runs the programs of one architecture; got {sorted(a.value for a in archs)}")
    arch = archs.pop()
    results: list[ProgramRun] = []

    async def bench(dut):
        env = SfpuEnv(dut, max_cycles=max_cycles, arch=arch)
        for program, dst in zip(programs, dsts or [None] * len(programs)):
            try:
                results.append(await env.run(program, strict=strict, allow=allow, dst=dst))
            except Mismatch as m:
                results.append(m.run)

    [outcome] = simulate([("lockstep", bench)], make_top=lambda: Sfpu(arch), reuse=("Sfpu", arch))
    if not outcome.passed:
        raise RuntimeError(outcome.message)
    return results
