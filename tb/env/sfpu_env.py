"""The lock-step verification environment of the `Sfpu` top, for cocotb tests.

`SfpuEnv` ties the parts together (in the style of cocotb's examples: the
driver, tb.env.driver; the monitor, tb.env.monitor; the scoreboard,
tb.env.scoreboard), each working on a `dut` whose ports have `.value`
(cocotb's handles on Icarus and Verilator, or tb.env.amaranth_cocotb's on
Amaranth's simulator): `await env.run(program)` runs one program to the end,
drains the pipelines and compares the final state.

Block mode (`SfpuEnv(dut, block=True)`) is the same check with Python out
of the per-cycle loop, on the simulation harness (tb.env.harness): the model
runs ahead by up to a block of cycles, the harness presents the block's words
and captures each cycle's record, and the records are compared after the
block. Any difference reruns the program one cycle at a time for the full
report.

Drive at the falling edge, sample after the rising edge and `ReadOnly()`:
every simulator then shows the same values.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable

import numpy as np

from tensix_sfpu.hdl.tensix import feature_fields
from tensix_sfpu.model.asm import CHECK_DIRECTIVES, Directive, Program
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch
from tensix_sfpu.model.run import Cycle, walk
from tensix_sfpu.model.state import LANES
from tensix_sfpu.model.trace import CycleRecord, LRegWriteRecord
from tensix_sfpu.tb.env.cocotb_api import Clock, FallingEdge, ReadOnly, Timer
from tensix_sfpu.tb.env.driver import InstructionDriver
from tensix_sfpu.tb.env.harness import lreg_digest
from tensix_sfpu.tb.env.monitor import LANE_CONFIG, MISC, NUM_LREGS, TENSIX, TraceMonitor, lanes_of, read, read_struct
from tensix_sfpu.tb.env.scoreboard import EntryMatcher, Mismatch, ProgramRun, Scoreboard, first_difference

# The Tensix registers every architecture has, beyond the counters (which are checked with their carry registers).
COMMON_TENSIX_FIELDS = ("fp32_dest", "srcb_format", "dest_offset", "dest_base", "addr_mod_set_base",
                        "extra_addr_mod_bit")

CLOCK_NS = 10

_WRITTEN_ROWS: dict[int, set[int]] = {}
_CLOCK: list = [None, None]     # the running simulation's dut and its clock's task (one simulation per process)


def _rows_written_since_start(dut) -> set[int]:
    """The Dst rows written in this simulation so far, shared by every test's
    environment: Dst starts at zero, a reset does not clear it, and one test
    may leave rows written for the next."""
    return _WRITTEN_ROWS.setdefault(id(dut), set())


class _BlockDifference(Exception):
    """Block mode saw the RTL differ from the model; the program reruns one
    cycle at a time to report exactly where and how."""

    def __init__(self, difference: Mismatch):
        super().__init__(str(difference))
        self.difference = difference


def rtl_arch() -> Arch:
    """The architecture the simulation's RTL was elaborated for (SFPU_ARCH,
    which tb.sims.runner sets; the default architecture without it)."""
    return Arch.parse(os.environ.get("SFPU_ARCH", DEFAULT_ARCH.value))


def block_mode_default() -> bool:
    """Block mode unless SFPU_BLOCK=0 asks for one cycle at a time."""
    return os.environ.get("SFPU_BLOCK", "1") != "0"


class SfpuEnv:
    """Runs programs on the RTL and the model in lock-step (see the module doc).
    With `block` (and a design with the harness's block ports) the check runs
    a block of cycles at a time, and `ProgramRun.rtl_trace` stays empty unless
    `keep_rtl_trace` (its LReg writes then carry the lanes, not the values);
    without, one cycle at a time, with the RTL's whole record of each cycle."""

    def __init__(self, dut, on_cycle: Callable[[CycleModel, CycleRecord], None] | None = None,
                 max_cycles: int = 100_000, block: bool = False, keep_rtl_trace: bool = False,
                 arch: Arch | None = None):
        self.dut = dut
        self.arch = arch or rtl_arch()       # the RTL's: every program run here must be of it
        self.driver = InstructionDriver(dut)
        self.monitor = TraceMonitor(dut, self.arch, EntryMatcher(self.arch))
        self.on_cycle = on_cycle
        self.max_cycles = max_cycles
        self.block = len(dut.blk_valid) if block and hasattr(dut, "blk_valid") else 0   # the harness's block size
        # Block mode decodes every entry in full only when asked (and then checks its fast comparison against it).
        self.keep_rtl_trace = keep_rtl_trace
        self.touched_rows = _rows_written_since_start(dut)    # to clear before the next program
        self._clock = None

    async def start(self) -> None:
        """Start the clock, once per simulation however many environments
        share it (two clocks on one port would make extra edges); `run`
        resets before each program."""
        if self._clock is None:
            dut, task = _CLOCK
            if dut is not self.dut or task.done():       # a test's tasks end with it
                task = Clock(self.dut.clk, CLOCK_NS, unit="ns").start()
                _CLOCK[:] = [self.dut, task]
            self._clock = task

    async def reset(self) -> None:
        dut = self.dut
        await self.driver.freeze()
        dut.rst.value = 1
        await self.driver.freeze()
        dut.rst.value = 0
        # Dst is memory, which a reset does not clear.
        await self.driver.write_dst_rows((row, 0) for row in sorted(self.touched_rows))
        self.touched_rows.clear()
        await ReadOnly()
        self.monitor.observe_flags()

    async def run(self, program: Program, *, name: str = "", seed: int | None = None, strict: bool = False,
                  allow=(), check_final: bool = True, dst: np.ndarray | None = None) -> ProgramRun:
        """Run `program` from reset, with Dst holding `dst` (raw uint16 rows;
        zero when None); raises `Mismatch` at the first difference."""
        args = dict(name=name, seed=seed, strict=strict, allow=allow, check_final=check_final, dst=dst)
        if not self.block:
            return await self._run(program, **args, block=0)
        try:
            return await self._run(program, **args, block=self.block)
        except _BlockDifference as found:
            # The same program one cycle at a time finds the same first difference with every detail.
            await self._run(program, **args, block=0)
            raise found.difference from None

    async def _run(self, program: Program, *, name: str, seed: int | None, strict: bool, allow, check_final: bool,
                   dst: np.ndarray | None, block: int) -> ProgramRun:
        if program.arch is not self.arch:
            raise ValueError(f"{name or program.name} is a {program.arch.title} program, but the RTL in this "
                             f"simulation is elaborated for {self.arch.title} (run it with --arch "
                             f"{program.arch.value})")
        if program.is_threaded:
            raise ValueError(f"{name or program.name} has .thread sections: several threads run on the model "
                             "only (the RTL's configuration port holds one thread's Tensix registers)")
        await self.start()
        await self.reset()
        result = ProgramRun(name or program.name, seed)
        board = Scoreboard(result, strict, allow, self.on_cycle, arch=self.arch)
        result.model = board.model
        if dst is not None:
            await self.load_dst(dst)
            board.model.state.dst = np.array(dst, dtype=np.uint16)
        started = time.monotonic()
        pending: list[Cycle] = []
        try:
            for step in walk(program, board.model):
                if isinstance(step, Directive):
                    if step.name in CHECK_DIRECTIVES:
                        continue
                    await self._run_block(board, pending)
                    await self.driver.directive(step, board.model.state)
                    await self.monitor.sample()
                    continue
                expected = board.expect(step)
                if block:
                    pending.append(step)
                    if len(pending) == block:
                        await self._run_block(board, pending)
                else:
                    await self.driver.present(step.word)
                    self._check(board, expected, await self.monitor.sample())
                self._check_limit(result, board.source)
            await self._run_block(board, pending)
            await self.driver.freeze()
            if check_final:
                await self.check_final_state(board)
        finally:
            result.seconds = time.monotonic() - started
        return result

    def _check(self, board: Scoreboard, expected: CycleRecord, got: CycleRecord | None) -> None:
        if got is not None:
            self.touched_rows.update(w.row for w in got.dst_writes)
        board.check(expected, got)

    async def _run_block(self, board: Scoreboard, pending: list[Cycle]) -> None:
        """The harness presents the pending cycles' words, one per cycle, and
        captures each cycle's entry; then every entry is compared."""
        if not pending:
            return
        dut, count = self.dut, len(pending)
        await FallingEdge(dut.clk)
        self.driver.freeze_now()
        dut.blk_words.value = sum((c.word or 0) << (32 * i) for i, c in enumerate(pending))
        dut.blk_valid.value = sum((c.word is not None) << i for i, c in enumerate(pending))
        dut.blk_len.value = count
        dut.blk_start.value = 1
        await FallingEdge(dut.clk)
        dut.blk_start.value = 0
        # The last entry is captured at the count-th rising edge from here.
        await Timer(count * CLOCK_NS - CLOCK_NS // 2 + 1, unit="ns")
        await ReadOnly()
        raws = [read(getattr(dut, f"blk_entries__{i}")) for i in range(count)]
        # Every row the block wrote, also after a difference: a rerun clears them first.
        for raw in raws:
            self.touched_rows.update(self.monitor.matcher.dst_rows(raw))
        for cycle, raw in zip(pending, raws):
            expected = cycle.record
            baseline = self.monitor.flags
            fast = self.monitor.match_entry(raw, expected)
            if fast and not self.keep_rtl_trace:
                continue
            self.monitor.flags = baseline
            got, digest = self.monitor.entry_record(raw)
            if got is not None:
                want = dataclasses.replace(expected, lreg_writes=[LRegWriteRecord(w.reg, w.lanes, ())
                                                                  for w in expected.lreg_writes])
                difference = first_difference(want, got, self.arch)
                expected_digest = lreg_digest(expected.lreg_writes)
                if difference is None and digest != expected_digest:
                    difference = Mismatch(expected.cycle, "the digest of the LReg values written",
                                          f"0x{expected_digest:016X}", f"0x{digest:016X}")
            else:
                difference = Mismatch(expected.cycle, "whether the cycle ran (trace valid)", 1, 0)
            if fast and difference is not None:        # with keep_rtl_trace: the fast path checked against the full one
                raise AssertionError(f"cycle {expected.cycle}: the fast comparison passed what the full one fails: "
                                     f"{difference}")
            if difference is not None:
                instr = cycle.instr
                difference.source = f"{instr.loc}: {instr.text.strip()}" if instr else "after the last instruction"
                difference.seed, difference.program, difference.run = board.run.seed, board.run.name, board.run
                raise _BlockDifference(difference)
            if self.keep_rtl_trace:
                board.run.rtl_trace.append(got)
        pending.clear()

    async def load_dst(self, dst: np.ndarray) -> None:
        """Write the non-zero rows of `dst` through the side port (frozen cycles)."""
        rows = np.flatnonzero(np.asarray(dst).any(axis=1)).tolist()
        await self.driver.write_dst_rows((row, sum(int(v) << (16 * c) for c, v in enumerate(dst[row])))
                                         for row in rows)
        self.touched_rows.update(rows)

    def _check_limit(self, result: ProgramRun, where: str) -> None:
        if result.cycles > self.max_cycles:
            raise RuntimeError(f"{result.name}: {where}: still running after {self.max_cycles} cycles")

    async def check_final_state(self, board: Scoreboard) -> None:
        """Compare the state views with the model's final state (the RTL is frozen)."""
        state, dut = board.model.state, self.dut
        cycle = board.run.cycles
        await ReadOnly()

        def check(what: str, want, have) -> None:
            want, have = np.asarray(want), np.asarray(have)
            if not np.array_equal(want, have):
                lane = None
                if want.shape == have.shape and want.ndim >= 1:
                    index = np.argwhere(want != have)[0]
                    lane = int(index[-1])
                    want, have = want[tuple(index)], have[tuple(index)]
                board.fail(Mismatch(cycle, f"the final {what}", want, have, "end of run", lane=lane))

        lregs = np.array([lanes_of(read(getattr(dut, f"lregs__{r}")), 32, LANES) for r in range(NUM_LREGS)])
        check("LRegs", state.lregs, lregs)
        check("PRNG", state.prng, lanes_of(read(dut.prng), 32, LANES))
        check("captured SFPSHFT2 VC", state.shft2_captured_vc, lanes_of(read(dut.captured_vc), 32, LANES))
        lane_config = read_struct(dut.lane_config, LANE_CONFIG)
        check("LaneConfig", state.lane_config, [lane_config[lane] for lane in range(LANES)])
        for what, port, values in (("macro templates", dut.templates, state.macro_templates),
                                   ("macro sequences", dut.sequences, state.macro_sequences)):
            check(what, values, lanes_of(read(port), 32, 4 * LANES).reshape(4, LANES))
        misc = read_struct(dut.misc, MISC)
        check("macro misc", state.macro_misc, [misc[lane] for lane in range(LANES)])
        tensix = read_struct(dut.tensix, TENSIX)
        for counter in ("rwc_dst", "rwc_srca", "rwc_srcb"):
            want = (getattr(state.tensix, counter), getattr(state.tensix, counter + "_cr"))
            check(f"{counter} and its carry register", want,
                  (getattr(tensix, counter), getattr(tensix, counter + "_cr")))
        # Sp moves with INT32_ALL, the bias counter with an ADDR_MOD (on Blackhole it steers nothing the SFPU
        # does, so only here does it show); the others by directive.
        for name in (*COMMON_TENSIX_FIELDS, *feature_fields(state.arch.features)):
            check(name, int(getattr(state.tensix, name)), getattr(tensix, name))
        rows = sorted(self.touched_rows | set(np.flatnonzero(state.dst.any(axis=1)).tolist()))
        for row in rows:
            await FallingEdge(dut.clk)
            dut.dst_row.value = row
            await ReadOnly()
            check(f"Dst row {row}", state.dst[row], lanes_of(read(dut.dst_rdata), 16, 16))
