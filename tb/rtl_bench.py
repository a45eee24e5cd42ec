"""Programs on the RTL in Amaranth's simulator, in lock-step with the cycle model.

`run_lockstep(programs)` builds one `hdl.sfpu.Sfpu` simulation and runs each
program on it and on `model.cycle.CycleModel` side by side: the same word is
presented to both every cycle, the RTL's trace port is turned into a
`CycleRecord` (`rtl_record`) and compared with the model's, and at the end
the final states are compared. Between programs the simulation is reset and
the Dst rows the previous program touched are cleared, so one elaboration
serves many programs (elaborating the 32-lane SFPU takes seconds).

Directives are applied between two cycles, as the model does: each one takes
a frozen cycle (`run` low) in which the RTL's configuration or LReg load port
writes, and nothing else moves.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np
from amaranth import ClockDomain, Module, Value
from amaranth.sim import Simulator

from hdl.sfpu import UNITS, Sfpu
from hdl.tensix import ConfigField, pack_addr_mod
from model.asm import Directive, Instr, Program
from model.cycle import CycleModel
from model.hazards import Hazard
from model.isa import decode
from model.machine import regular_operands
from model.run import apply_directive
from model.semantics import Operands
from model.state import LANES, SfpuState
from model.trace import CycleRecord, DstWriteRecord, FlagsRecord, LRegWriteRecord, activity

# Amaranth's simulator writes the masks of wide signals (all LRegs together
# are 17,408 bits) as decimal literals, beyond Python's default digit limit.
sys.set_int_max_str_digits(0)

ALL_LANES = (1 << LANES) - 1
DIRECTIVE_FIELDS = {
    "fp32_dest": ConfigField.FP32_DEST, "srcb_format": ConfigField.SRCB_FORMAT, "rwc_dst": ConfigField.RWC_DST,
    "dest_offset": ConfigField.DEST_OFFSET, "dest_base": ConfigField.DEST_BASE,
    "addr_mod_base": ConfigField.ADDR_MOD_SET_BASE, "prng_seed": ConfigField.PRNG_SEED,
}


@dataclass
class Mismatch:
    cycle: int
    what: str
    model: object
    rtl: object
    source: str = ""

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        return f"{where}cycle {self.cycle}: {self.what} differs\n  model: {self.model}\n  rtl:   {self.rtl}"


@dataclass
class LockstepResult:
    model_trace: list[CycleRecord] = field(default_factory=list)
    rtl_trace: list[CycleRecord] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    state: SfpuState | None = None        # the model's final state

    @property
    def ok(self) -> bool:
        return not self.mismatches


def comparable(record: CycleRecord) -> tuple:
    """What the RTL must reproduce of a cycle: everything in `compared()`
    except the hazard checks, which are the model's alone; of the hazards only
    undefined behaviour is reported by the RTL too."""
    undefined = tuple(sorted(h.unit for h in record.hazards if h.rule == "undefined"))
    return record.compared()[:-1] + (undefined,)


# -- reading the RTL ----------------------------------------------------------------

def _lanes_of(value: int, width: int, count: int) -> np.ndarray:
    """An int holding `count` fields of `width` bits -> uint array, field 0 first."""
    raw = value.to_bytes(width * count // 8, "little")
    return np.frombuffer(raw, dtype={16: "<u2", 32: "<u4"}[width]).astype(np.uint32)


class RtlView:
    """Reads the Sfpu's state views from a running simulation."""

    def __init__(self, dut: Sfpu):
        self.dut = dut

    def lregs(self, ctx) -> np.ndarray:
        return _lanes_of(ctx.get(Value.cast(self.dut.lregs)), 32, 17 * LANES).reshape(17, LANES)

    def flags(self, ctx) -> tuple[int, int]:
        return ctx.get(self.dut.lane_flags), ctx.get(self.dut.use_flags)

    def stack(self, ctx) -> tuple[tuple[int, int], ...]:
        depth = ctx.get(self.dut.flag_depth)
        return tuple((ctx.get(self.dut.flag_stack[i].lane_flags), ctx.get(self.dut.flag_stack[i].use_flags))
                     for i in range(depth))

    def lanes32(self, ctx, signal) -> np.ndarray:
        return _lanes_of(ctx.get(Value.cast(signal)), 32, LANES)

    def dst_row(self, ctx, row: int) -> np.ndarray:
        ctx.set(self.dut.dst_row, row)
        return _lanes_of(ctx.get(Value.cast(self.dut.dst_rdata)), 16, 16)


def rtl_record(trace, lregs: np.ndarray, flags, stack, previous_flags, previous_stack) -> CycleRecord:
    """The model's CycleRecord of one cycle from the RTL's trace port and the
    state views while that record is presented."""
    rec = CycleRecord(trace.cycle)
    if trace.issued:
        rec.issued = trace.word
    if trace.stalled:
        rec.stalled = trace.word
    for i, name in enumerate(UNITS):
        u = trace.units[i]
        if not u.valid:
            continue
        rec.units[name] = _activity(name, u)
        if u.undefined:
            rec.hazards.append(Hazard("undefined", rec.cycle, name, "reported by the RTL"))
    for reg in range(17):
        lanes = trace.lreg_written[reg]
        if lanes:
            values = tuple(int(v) if lanes >> lane & 1 else 0 for lane, v in enumerate(lregs[reg]))
            rec.lreg_writes.append(LRegWriteRecord(reg, lanes, values))
    rows = {}
    for i in range(8):
        w = trace.dst_writes[i]
        if w.valid:
            cols, values = rows.get(w.row, (0, [0] * 16))
            for c in range(16):
                if w.cols >> c & 1:
                    values[c] = w.values[c]
            rows[w.row] = (cols | w.cols, values)
    rec.dst_writes = [DstWriteRecord(row, cols, tuple(values)) for row, (cols, values) in sorted(rows.items())]
    if flags != previous_flags:
        rec.flags = FlagsRecord(*flags)
    if stack != previous_stack:
        rec.stack = tuple(FlagsRecord(*entry) for entry in stack)
    return rec


def _activity(unit: str, u):
    """UnitActivity from a trace entry, with the model's convention for
    operands an instruction does not have (None)."""
    ins = decode(u.word)
    if u.macro:
        store = ins.mnemonic == "SFPSTORE"
        x = Operands(ins, u.vd, None if store else u.vb, None if store else u.vc, macro=True,
                     store_addr=u.store_addr if store else None)
        return activity(unit, x, "macro", u.macro_cycle)
    regular = regular_operands(ins)
    x = Operands(ins, u.vd, None if regular.vb is None else u.vb, None if regular.vc is None else u.vc)
    return activity(unit, x, "thread")


# -- the lock-step run ------------------------------------------------------------------

@dataclass
class Job:
    program: Program
    strict: bool = False
    allow: frozenset[str] = frozenset()
    result: LockstepResult = field(default_factory=LockstepResult)


def run_lockstep(programs: list[Program], strict: bool = False, allow=frozenset(),
                 max_cycles: int = 10_000) -> list[LockstepResult]:
    """Run each program on the RTL and the model side by side; one simulation for all."""
    jobs = [Job(p, strict, frozenset(allow)) for p in programs]
    dut = Sfpu()
    top = Module()
    top.domains.sync = domain = ClockDomain("sync")
    top.submodules.sfpu = dut
    view = RtlView(dut)
    touched_rows: set[int] = set()

    async def bench(ctx):
        for job in jobs:
            await _reset(ctx, dut, domain, touched_rows)
            await _run_job(ctx, dut, view, job, touched_rows, max_cycles)

    sim = Simulator(top)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return [job.result for job in jobs]


async def _reset(ctx, dut: Sfpu, domain: ClockDomain, touched_rows: set[int]) -> None:
    ctx.set(dut.instr_valid, 0)
    ctx.set(dut.run, 0)
    ctx.set(domain.rst, 1)
    await ctx.tick()
    ctx.set(domain.rst, 0)
    # Dst is memory, which a reset does not clear.
    ctx.set(dut.dst_cols, 0xFFFF)
    ctx.set(Value.cast(dut.dst_wdata), 0)
    for row in sorted(touched_rows):
        ctx.set(dut.dst_row, row)
        ctx.set(dut.dst_we, 1)
        await ctx.tick()
    ctx.set(dut.dst_we, 0)
    touched_rows.clear()


async def _directive(ctx, dut: Sfpu, model: CycleModel, d: Directive) -> None:
    """Apply one directive to the model and, in a frozen cycle, to the RTL."""
    apply_directive(model.state, d)
    ctx.set(dut.run, 0)
    if d.name == "lreg":
        values = model.state.lregs[d.args[0]]
        ctx.set(dut.lreg_load.en, ALL_LANES)
        for lane in range(LANES):
            ctx.set(dut.lreg_load.reg[lane], d.args[0])
            ctx.set(dut.lreg_load.data[lane], int(values[lane]))
    else:
        ctx.set(dut.config.valid, 1)
        if d.name == "addr_mod":
            ctx.set(dut.config.field, ConfigField.ADDR_MOD)
            ctx.set(dut.config.index, d.args[0])
            ctx.set(dut.config.value, pack_addr_mod(model.state.tensix.addr_mods[d.args[0]]))
        else:
            ctx.set(dut.config.field, DIRECTIVE_FIELDS[d.name])
            ctx.set(dut.config.value, d.args[0])
    await ctx.tick()
    ctx.set(dut.lreg_load.en, 0)
    ctx.set(dut.config.valid, 0)
    ctx.set(dut.run, 1)


async def _run_job(ctx, dut: Sfpu, view: RtlView, job: Job, touched_rows: set[int], max_cycles: int) -> None:
    model = CycleModel(SfpuState(), strict=job.strict, allow=set(job.allow))
    result = job.result
    observed = {"flags": view.flags(ctx), "stack": view.stack(ctx)}

    async def cycle(word: int | None, source: str) -> CycleRecord:
        expected = model.step(word)
        ctx.set(dut.instr_valid, word is not None)
        ctx.set(dut.instr_word, word or 0)
        await ctx.tick()
        trace = ctx.get(dut.trace)
        flags, stack = view.flags(ctx), view.stack(ctx)
        got = rtl_record(trace, view.lregs(ctx), flags, stack, observed["flags"], observed["stack"])
        observed.update(flags=flags, stack=stack)
        touched_rows.update(w.row for w in got.dst_writes)
        result.model_trace.append(expected)
        result.rtl_trace.append(got)
        _compare_records(result, expected, got, trace.valid, source)
        return expected

    ctx.set(dut.run, 1)
    for item in job.program.items:
        if isinstance(item, Directive):
            if item.name == "allow":
                model.allow.update(item.args)
            else:
                await _directive(ctx, dut, model, item)
            continue
        assert isinstance(item, Instr)
        source = f"{item.loc}: {item.text.strip()}"
        model.context = source
        while (await cycle(item.word, source)).issued is None:
            if len(result.model_trace) > max_cycles:
                raise RuntimeError(f"{source}: not accepted within {max_cycles} cycles")
    model.context = "after the last instruction"
    while model.busy:
        if len(result.model_trace) > max_cycles:
            raise RuntimeError(f"the program did not drain within {max_cycles} cycles")
        if model.stuck:
            model.drain()          # reports macro-left-pending and gives up, as the model does
            break
        await cycle(None, "after the last instruction")
    ctx.set(dut.instr_valid, 0)
    result.state = model.state
    _compare_final_state(ctx, view, model.state, result, touched_rows)


def _compare_records(result: LockstepResult, expected: CycleRecord, got: CycleRecord, valid: int,
                     source: str) -> None:
    if not valid:
        result.mismatches.append(Mismatch(expected.cycle, "trace valid", 1, 0, source))
        return
    if comparable(expected) == comparable(got):
        return
    names = ("cycle", "issued", "stalled", "units", "LReg writes", "Dst writes", "flags", "stack", "undefined")
    for name, want, have in zip(names, comparable(expected), comparable(got)):
        if want != have:
            result.mismatches.append(Mismatch(expected.cycle, name, want, have, source))


def _compare_final_state(ctx, view: RtlView, state: SfpuState, result: LockstepResult,
                         touched_rows: set[int]) -> None:
    cycle = len(result.model_trace)

    def check(what: str, want, have) -> None:
        if not np.array_equal(np.asarray(want), np.asarray(have)):
            result.mismatches.append(Mismatch(cycle, f"final {what}", want, have, "end of run"))

    check("LRegs", state.lregs, view.lregs(ctx))
    check("PRNG", state.prng, view.lanes32(ctx, view.dut.prng))
    check("captured SFPSHFT2 VC", state.shft2_captured_vc, view.lanes32(ctx, view.dut.captured_vc))
    dut = view.dut
    check("LaneConfig", state.lane_config, [ctx.get(dut.lane_config[lane]) for lane in range(LANES)])
    check("macro templates", state.macro_templates, [view.lanes32(ctx, dut.templates[i]) for i in range(4)])
    check("macro sequences", state.macro_sequences, [view.lanes32(ctx, dut.sequences[i]) for i in range(4)])
    check("macro misc", state.macro_misc, [ctx.get(dut.misc[lane]) for lane in range(LANES)])
    t = state.tensix
    check("RWC_Dst", (t.rwc_dst, t.rwc_dst_cr), (ctx.get(dut.tensix.rwc_dst), ctx.get(dut.tensix.rwc_dst_cr)))
    rows = sorted(touched_rows | set(np.flatnonzero(state.dst.any(axis=1)).tolist()))
    for row in rows:
        check(f"Dst row {row}", state.dst[row], view.dst_row(ctx, row))
