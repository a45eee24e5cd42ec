"""The lock-step verification environment of the `Sfpu` top, for cocotb tests.

The parts, in the style of cocotb's examples, each working on a `dut` whose
ports have `.value` (cocotb's handles on Icarus and Verilator, or
tb.amaranth_cocotb's on Amaranth's simulator):

- `InstructionDriver` presents one word per cycle on the instruction port,
  and applies the assembler's directives in frozen cycles (`run` low), as the
  golden model applies them between two cycles.
- `TraceMonitor` samples the registered trace port after each rising edge and
  turns it into the golden model's `CycleRecord`.
- `Scoreboard` holds the cycle-exact model (`model.cycle.CycleModel`), steps it
  with the same word, and compares the two records; the first difference
  raises `Mismatch` with the cycle, the instruction, the sub-unit, the lane,
  both values and the seed.
- `SfpuEnv` ties them together: `await env.run(program)` runs one program to
  the end, drains the pipelines and compares the final state.
- Block mode (`SfpuEnv(dut, block=True)`) is the same check with Python out
  of the per-cycle loop, on the simulation harness (tb.harness): the model runs ahead by up to a block
  of cycles, the harness presents the block's words and captures each cycle's
  record, and the records are compared after the block. Any difference
  reruns the program one cycle at a time for the full report.

Drive at the falling edge, sample after the rising edge and `ReadOnly()`:
every simulator then shows the same values.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np

from amaranth import Shape
from amaranth.lib import data

from tensix_sfpu.hdl.flags import DEPTH, StackEntry
from tensix_sfpu.hdl.lregs import LRegWrite
from tensix_sfpu.hdl.dst import DstRowWrite
from tensix_sfpu.hdl.sfpu import UNITS, Trace, TraceUnit
from tensix_sfpu.hdl.tensix import ConfigField, ConfigWrite, TensixView, feature_fields, pack_addr_mod
from tensix_sfpu.hdl.unit_io import LaneConfig
from tensix_sfpu.model.asm import Directive, Program, disassemble
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model.hazards import Hazard
from tensix_sfpu.model.isa import Arch, decode
from tensix_sfpu.model.machine import regular_operands
from tensix_sfpu.model.run import Cycle, walk
from tensix_sfpu.model.semantics import Operands
from tensix_sfpu.model.state import LANES, SfpuState
from tensix_sfpu.model.trace import CycleRecord, DstWriteRecord, FlagsRecord, LRegWriteRecord, activity
from tensix_sfpu.tb.cocotb_api import Clock, FallingEdge, ReadOnly, RisingEdge, Timer
from tensix_sfpu.tb.harness import Entry, lreg_digest

# Wide ports are decimal literals in some simulators' value strings.
sys.set_int_max_str_digits(0)

CLOCK_NS = 10
ALL_LANES = (1 << LANES) - 1
NUM_LREGS = 17
DIRECTIVE_FIELDS = {
    "fp32_dest": ConfigField.FP32_DEST, "srcb_format": ConfigField.SRCB_FORMAT, "rwc_dst": ConfigField.RWC_DST,
    "dest_offset": ConfigField.DEST_OFFSET, "dest_base": ConfigField.DEST_BASE,
    "addr_mod_base": ConfigField.ADDR_MOD_SET_BASE, "prng_seed": ConfigField.PRNG_SEED,
    # Blackhole only: the assembler accepts them after `.arch blackhole`.
    "rwc_sp": ConfigField.RWC_SP, "sfpu_stack_incr": ConfigField.SFPU_STACK_INCR,
    "dest_sp_base": ConfigField.DEST_SP_BASE, "dest_remap_addrs": ConfigField.DEST_REMAP_ADDRS,
    "dest_swizzle_32b": ConfigField.DEST_SWIZZLE_32B,
}
RECORD_FIELDS = ("cycle", "issued", "stalled", "units", "LReg writes", "Dst writes", "flags", "stack",
                 "undefined")




class UnresolvedValue(AssertionError):
    """An output with X or Z bits, which no model value can equal."""


def read(handle) -> int:
    value = handle.value
    try:
        return int(value)
    except ValueError:
        raise UnresolvedValue(f"{getattr(handle, '_name', handle)} has unresolved bits: {value}") from None


def unpacker(shape) -> Callable[[int], object]:
    """A function that takes a layout's fields out of a raw int: structs as
    namespaces, arrays as lists, fields as ints. It does what
    `layout.from_bits` does, hundreds of times faster, which matters for a
    port read every cycle: the whole layout becomes one generated expression
    of shifts and masks, so a read costs one call."""
    return eval(f"lambda r: {_unpack_expression(shape, 0)}", {"NS": SimpleNamespace})


def _unpack_expression(shape, offset: int) -> str:
    if isinstance(shape, data.StructLayout):
        fields = ", ".join(f"{name}={_unpack_expression(f.shape, offset + f.offset)}" for name, f in shape)
        return f"NS({fields})"
    if isinstance(shape, data.ArrayLayout):
        size = Shape.cast(shape.elem_shape).width
        return "[" + ", ".join(_unpack_expression(shape.elem_shape, offset + i * size)
                               for i in range(shape.length)) + "]"
    return f"((r >> {offset}) & {(1 << Shape.cast(shape).width) - 1})"


def read_struct(handle, unpack: Callable[[int], object]):
    return unpack(read(handle))


TRACE = unpacker(Trace)
ENTRY_TRACE = Shape.cast(Trace).width
ENTRY_FIELDS = {name: (f.offset, Shape.cast(f.shape).width) for name, f in Entry}


def entry_field(raw: int, name: str) -> int:
    """A field of a harness entry (tb.harness.Entry) from its raw bits."""
    offset, width = ENTRY_FIELDS[name]
    return raw >> offset & ((1 << width) - 1)


def _at(layout, name: str) -> tuple[int, int]:
    return layout[name].offset, (1 << Shape.cast(layout[name].shape).width) - 1


FLAG_STACK = unpacker(data.ArrayLayout(StackEntry, DEPTH))
MISC = unpacker(data.ArrayLayout(12, LANES))
LANE_CONFIG = unpacker(LaneConfig)
TENSIX = unpacker(TensixView)


def lanes_of(value: int, width: int, count: int) -> np.ndarray:
    """An int holding `count` fields of `width` bits -> uint32 array, field 0 first."""
    raw = value.to_bytes(width * count // 8, "little")
    return np.frombuffer(raw, dtype={16: "<u2", 32: "<u4"}[width]).astype(np.uint32)


def comparable(record: CycleRecord) -> tuple:
    """What the RTL must reproduce of a cycle: everything in `compared()`
    except the hazard checks, which are the model's alone; of the hazards only
    undefined behaviour is reported by the RTL too."""
    undefined = tuple(sorted(h.unit for h in record.hazards if h.rule == "undefined"))
    return record.compared()[:-1] + (undefined,)


# -- the difference report --------------------------------------------------------------------

@dataclass
class Mismatch(AssertionError):
    """The first difference between the RTL and the model."""
    cycle: int
    what: str
    model: object
    rtl: object
    source: str = ""            # the instruction being presented: file:line and text
    started: tuple[str, ...] = ()   # what each sub-unit started this cycle and the one before (the model's)
    unit: str | None = None
    lane: int | None = None
    seed: int | None = None
    program: str = ""
    run: "ProgramRun | None" = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        where = [f"cycle {self.cycle}"]
        if self.unit:
            where.append(f"sub-unit {self.unit}")
        if self.lane is not None:
            where.append(f"lane {self.lane}")
        lines = [f"RTL and model differ in {self.what}, {', '.join(where)}",
                 f"  presented: {self.source or '-'}",
                 *(f"  {line}" for line in self.started),
                 f"  model: {self.model}",
                 f"  rtl:   {self.rtl}"]
        if self.program or self.seed is not None:
            lines.append(f"  program: {self.program}" + (f" (seed {self.seed})" if self.seed is not None else ""))
        return "\n".join(lines)


def _first_lane(mask: int) -> int | None:
    return (mask & -mask).bit_length() - 1 if mask else None


def _word(word: int | None, arch: Arch) -> str:
    return "-" if word is None else f"0x{word:08X} {disassemble(word, arch=arch)}"


def _activity_text(a) -> str:
    return "idle" if a is None else f"{a.origin} {a.text}" + (f" (macro cycle {a.macro_cycle})" if a.origin ==
                                                                "macro" else "")


def first_difference(expected: CycleRecord, got: CycleRecord, arch: Arch) -> Mismatch | None:
    """The first field of two records that differs, down to the lane."""
    want, have = comparable(expected), comparable(got)
    if want == have:
        return None
    name = next(n for n, a, b in zip(RECORD_FIELDS, want, have) if a != b)
    cycle = expected.cycle
    if name in ("issued", "stalled"):
        return Mismatch(cycle, f"the {name} word", _word(getattr(expected, name), arch),
                        _word(getattr(got, name), arch))
    if name == "units":
        unit = next(u for u in UNITS if expected.units.get(u) != got.units.get(u))
        return Mismatch(cycle, "what a sub-unit started", _activity_text(expected.units.get(unit)),
                        _activity_text(got.units.get(unit)), unit=unit)
    if name == "LReg writes":
        return _lreg_difference(cycle, expected.lreg_writes, got.lreg_writes)
    if name == "Dst writes":
        return _dst_difference(cycle, expected.dst_writes, got.dst_writes)
    if name == "flags":
        a = expected.flags or FlagsRecord(-1, -1)
        b = got.flags or FlagsRecord(-1, -1)
        lane = _first_lane((a.lane_flags ^ b.lane_flags) | (a.use_flags ^ b.use_flags))
        return Mismatch(cycle, "LaneFlags/UseLaneFlagsForLaneEnable", expected.flags, got.flags, lane=lane)
    if name == "undefined":
        return Mismatch(cycle, "undefined behaviour reported", want[-1], have[-1])
    return Mismatch(cycle, name, getattr(expected, name, None), getattr(got, name, None))


def _lreg_difference(cycle: int, want: list[LRegWriteRecord], have: list[LRegWriteRecord]) -> Mismatch:
    a, b = {w.reg: w for w in want}, {w.reg: w for w in have}
    reg = next(r for r in sorted(a.keys() | b.keys()) if a.get(r) != b.get(r))
    wa, wb = a.get(reg), b.get(reg)
    lanes_a, lanes_b = (wa.lanes if wa else 0), (wb.lanes if wb else 0)
    if lanes_a != lanes_b:
        lane = _first_lane(lanes_a ^ lanes_b)
        return Mismatch(cycle, f"the lanes of L{reg} written", f"0x{lanes_a:08X}", f"0x{lanes_b:08X}", lane=lane)
    lane = next(i for i in range(LANES) if wa.values[i] != wb.values[i])
    return Mismatch(cycle, f"the value written to L{reg}", f"0x{wa.values[lane]:08X}", f"0x{wb.values[lane]:08X}",
                    lane=lane)


def _dst_difference(cycle: int, want: list[DstWriteRecord], have: list[DstWriteRecord]) -> Mismatch:
    a, b = {w.row: w for w in want}, {w.row: w for w in have}
    row = next(r for r in sorted(a.keys() | b.keys()) if a.get(r) != b.get(r))
    wa, wb = a.get(row), b.get(row)
    if wa is None or wb is None or wa.cols != wb.cols:
        cols = [f"0x{w.cols:04X}" if w else "not written" for w in (wa, wb)]
        return Mismatch(cycle, f"the columns of Dst row {row} written", *cols)
    col = next(i for i in range(16) if wa.values[i] != wb.values[i])
    return Mismatch(cycle, f"the value written to Dst row {row} column {col}", f"0x{wa.values[col]:04X}",
                    f"0x{wb.values[col]:04X}")


# -- block mode's fast comparison ---------------------------------------------------------------

class EntryMatcher:
    """Whether a harness entry (tb.harness.Entry) equals the model's record
    of its cycle, read straight from the raw bits: the same comparison as
    `first_difference` on the decoded record, field by field, without
    building the record. `None` means "decode and compare in full" (Dst
    writes, a changed stack, or a difference)."""

    _TRACE_BASE = Entry["trace"].offset

    def __init__(self, arch: Arch):
        self.arch = arch
        base = self._TRACE_BASE
        self.valid, _ = _at(Trace, "valid")
        self.cycle = _at(Trace, "cycle")
        self.issued, _ = _at(Trace, "issued")
        self.stalled, _ = _at(Trace, "stalled")
        self.word = _at(Trace, "word")
        units = Trace["units"].offset
        self.units = [(name, base + units + i * TraceUnit.size) for i, name in enumerate(UNITS)]
        self.unit_mask = (1 << TraceUnit.size) - 1
        self.unit_fields = {name: _at(TraceUnit, name) for name in
                            ("valid", "macro", "word", "vd", "vb", "vc", "macro_cycle", "undefined")}
        self.lreg_written = base + Trace["lreg_written"].offset
        self.lreg_mask = (1 << Shape.cast(Trace["lreg_written"].shape).width) - 1
        dst = base + Trace["dst_writes"].offset
        self.dst_valid = [dst + i * DstRowWrite.size + DstRowWrite["valid"].offset for i in range(8)]
        self._shapes: dict[tuple[str, int, int], tuple[str, bool, bool]] = {}

    def _shape(self, unit: str, word: int, macro: int, ins) -> tuple[str, bool, bool]:
        """The mnemonic and whether VB and VC are compared, as `unit_activity`
        derives them from a trace entry's word (`ins`, decoded)."""
        key = (unit, word, macro)
        shape = self._shapes.get(key)
        if shape is None:
            if len(self._shapes) > 100_000:        # random programs rarely repeat a word
                self._shapes.clear()
            probe = unit_activity(unit, SimpleNamespace(word=word, macro=macro, vd=0, vb=1, vc=1, macro_cycle=0,
                                                        store_addr=0), ins, arch=self.arch)
            shape = self._shapes[key] = (probe.mnemonic, probe.vb is not None, probe.vc is not None)
        return shape

    def matches(self, raw: int, expected: CycleRecord, digest: int, flags: FlagsRecord | None,
                stack_changed: bool) -> bool | None:
        """`flags`: the flags if they changed this cycle, else None."""
        trace = raw >> self._TRACE_BASE
        if not trace >> self.valid & 1 or (trace >> self.cycle[0] & self.cycle[1]) != expected.cycle:
            return None
        word = trace >> self.word[0] & self.word[1]
        if (expected.issued != (word if trace >> self.issued & 1 else None)
                or expected.stalled != (word if trace >> self.stalled & 1 else None)):
            return None
        undefined = {h.unit for h in expected.hazards if h.rule == "undefined"} if expected.hazards else ()
        f = self.unit_fields
        for name, offset in self.units:
            u = raw >> offset & self.unit_mask
            a = expected.units.get(name)
            valid = u >> f["valid"][0] & 1
            if a is None:
                if valid:
                    return None
                continue
            if not valid:
                return None
            macro = u >> f["macro"][0] & 1
            unit_word = u >> f["word"][0] & f["word"][1]
            if a.word != unit_word or a.operands is None:
                return None
            # The model's activity holds its word decoded: the same word, so the same decoding.
            mnemonic, has_vb, has_vc = self._shape(name, unit_word, macro, a.operands.ins)
            if (a.origin != ("macro" if macro else "thread") or a.mnemonic != mnemonic
                    or a.vd != (u >> f["vd"][0] & f["vd"][1])
                    or a.vb != ((u >> f["vb"][0] & f["vb"][1]) if has_vb else None)
                    or a.vc != ((u >> f["vc"][0] & f["vc"][1]) if has_vc else None)
                    or a.macro_cycle != ((u >> f["macro_cycle"][0] & f["macro_cycle"][1]) if macro else None)
                    or bool(u >> f["undefined"][0] & 1) != (name in undefined)):
                return None
        written = sum(w.lanes << (32 * w.reg) for w in expected.lreg_writes)
        if (raw >> self.lreg_written & self.lreg_mask) != written or digest != lreg_digest(expected.lreg_writes):
            return None
        if expected.dst_writes or any(raw >> at & 1 for at in self.dst_valid):
            return None
        if expected.flags != flags:
            return None
        if stack_changed or expected.stack is not None:
            return None
        return True

    def dst_rows(self, raw: int) -> list[int]:
        """The Dst rows an entry's trace says were written."""
        row_offset, row_mask = _at(DstRowWrite, "row")
        below = DstRowWrite["valid"].offset
        return [raw >> (at - below + row_offset) & row_mask for at in self.dst_valid if raw >> at & 1]


# -- driver and monitor ---------------------------------------------------------------------

class InstructionDriver:
    """The instruction, configuration and LReg-load ports, driven at falling edges."""

    def __init__(self, dut):
        self.dut = dut
        self.harness = hasattr(dut, "blk_start")     # tb.harness around the Sfpu

    async def present(self, word: int | None) -> None:
        await FallingEdge(self.dut.clk)
        self._idle_side_ports()
        self.dut.run.value = 1
        self.dut.instr__valid.value = int(word is not None)
        self.dut.instr__payload.value = word or 0

    async def directive(self, d: Directive, state: SfpuState) -> None:
        """One frozen cycle in which the RTL takes the directive `state` has
        already applied."""
        await FallingEdge(self.dut.clk)
        self.dut.run.value = 0
        self.dut.instr__valid.value = 0
        if d.name == "lreg":
            values = state.lregs[d.args[0]]
            port = LRegWrite.const({"en": ALL_LANES, "reg": d.args[0],
                                    "data": [int(v) for v in values]})
            self.dut.lreg_load.value = port.as_bits()
            return
        if d.name == "addr_mod":
            write = {"valid": 1, "field": ConfigField.ADDR_MOD, "index": d.args[0],
                     "value": pack_addr_mod(state.tensix.addr_mods[d.args[0]])}
        else:
            write = {"valid": 1, "field": DIRECTIVE_FIELDS[d.name], "value": d.args[0]}
        self.dut.config_write.value = ConfigWrite.const(write).as_bits()

    async def write_dst_rows(self, rows) -> None:
        """Frozen cycles, each writing one whole Dst row (`(row, 16 packed
        16-bit values)`) through the side port; frozen again after."""
        for row, packed in rows:
            await FallingEdge(self.dut.clk)
            self.dut.dst_cols.value = 0xFFFF
            self.dut.dst_row.value = row
            self.dut.dst_wdata.value = packed
            self.dut.dst_we.value = 1
        await self.freeze()

    async def freeze(self) -> None:
        await FallingEdge(self.dut.clk)
        self.freeze_now()

    def freeze_now(self) -> None:
        self._idle_side_ports()
        self.dut.instr__valid.value = 0
        self.dut.run.value = 0

    def _idle_side_ports(self) -> None:
        self.dut.config_write.value = 0
        self.dut.lreg_load.value = 0
        self.dut.dst_we.value = 0
        if self.harness:        # undriven, a Verilog simulator's X would reach every port
            self.dut.blk_start.value = 0


class TraceMonitor:
    """Samples the trace port after each rising edge; a record of a frozen
    cycle is not valid and gives None."""

    def __init__(self, dut, arch: Arch):
        self.dut = dut
        self.arch = arch
        self.flags: tuple[int, int] | None = None
        self.stack: tuple[tuple[int, int], ...] | None = None
        self._stack_raw: tuple[int, int] | None = None
        self._stack: tuple[tuple[int, int], ...] = ()
        self.matcher = EntryMatcher(arch)

    def observe_flags(self) -> None:
        """The flags and stack now (the base for the next record's changes)."""
        self.flags, self.stack = self._read_flags()

    def _read_flags(self) -> tuple[tuple[int, int], tuple[tuple[int, int], ...]]:
        flags = (read(self.dut.lane_flags), read(self.dut.use_flags))
        return flags, self._stack_of(read(self.dut.flag_depth), read(self.dut.flag_stack))

    def _stack_of(self, depth: int, raw: int) -> tuple[tuple[int, int], ...]:
        if (depth, raw) != self._stack_raw:          # the stack changes rarely: unpack it only then
            entries = FLAG_STACK(raw)
            self._stack_raw = (depth, raw)
            self._stack = tuple((entries[i].lane_flags, entries[i].use_flags) for i in range(min(depth, DEPTH)))
        return self._stack

    async def sample(self) -> CycleRecord | None:
        await RisingEdge(self.dut.clk)
        await ReadOnly()
        trace = read_struct(self.dut.cycle_trace, TRACE)
        if not trace.valid:
            return None
        flags, stack = self._read_flags()
        record = self._record(trace, flags, stack, self._lreg_values)
        self.flags, self.stack = flags, stack
        return record

    def _lreg_values(self, reg: int, lanes: int) -> tuple[int, ...]:
        current = lanes_of(read(getattr(self.dut, f"lregs__{reg}")), 32, LANES)
        return tuple(int(v) if lanes >> lane & 1 else 0 for lane, v in enumerate(current))

    def match_entry(self, raw: int, expected: CycleRecord) -> bool:
        """Whether a harness entry equals `expected`, by `EntryMatcher`'s
        fast comparison; True moves the flag baseline on, False leaves it for
        `entry_record` to decode the entry in full."""
        flags = (entry_field(raw, "lane_flags"), entry_field(raw, "use_flags"))
        stack_changed = (entry_field(raw, "flag_depth"), entry_field(raw, "flag_stack")) != self._stack_raw
        changed = FlagsRecord(*flags) if flags != self.flags else None
        if self.matcher.matches(raw, expected, entry_field(raw, "lreg_digest"), changed, stack_changed):
            self.flags = flags
            return True
        return False

    def entry_record(self, raw: int) -> tuple[CycleRecord | None, int]:
        """A harness entry (tb.harness.Entry) -> (the record, or None for a
        frozen cycle; the LReg digest). Its LReg writes carry the lanes only:
        their values are checked through the digest."""
        trace = TRACE(raw & ((1 << ENTRY_TRACE) - 1))
        if not trace.valid:
            return None, 0
        flags = (entry_field(raw, "lane_flags"), entry_field(raw, "use_flags"))
        stack = self._stack_of(entry_field(raw, "flag_depth"), entry_field(raw, "flag_stack"))
        record = self._record(trace, flags, stack, lambda reg, lanes: ())
        self.flags, self.stack = flags, stack
        return record, entry_field(raw, "lreg_digest")

    def _record(self, trace, flags, stack, lreg_values: Callable[[int, int], tuple[int, ...]]) -> CycleRecord:
        rec = CycleRecord(trace.cycle)
        if trace.issued:
            rec.issued = trace.word
        if trace.stalled:
            rec.stalled = trace.word
        for i, name in enumerate(UNITS):
            u = trace.units[i]
            if not u.valid:
                continue
            rec.units[name] = unit_activity(name, u, arch=self.arch)
            if u.undefined:
                rec.hazards.append(Hazard("undefined", rec.cycle, name, "reported by the RTL"))
        for reg in range(NUM_LREGS):
            lanes = trace.lreg_written[reg]
            if lanes:
                rec.lreg_writes.append(LRegWriteRecord(reg, lanes, lreg_values(reg, lanes)))
        rows: dict[int, tuple[int, list[int]]] = {}
        for i in range(8):
            w = trace.dst_writes[i]
            if w.valid:
                cols, values = rows.get(w.row, (0, [0] * 16))
                for c in range(16):
                    if w.cols >> c & 1:
                        values[c] = w.values[c]
                rows[w.row] = (cols | w.cols, values)
        rec.dst_writes = [DstWriteRecord(row, cols, tuple(values)) for row, (cols, values) in sorted(rows.items())]
        if flags != self.flags:
            rec.flags = FlagsRecord(*flags)
        if stack != self.stack:
            rec.stack = tuple(FlagsRecord(*entry) for entry in stack)
        return rec


def unit_activity(unit: str, u, ins=None, *, arch: Arch):
    """UnitActivity from a trace entry, with the model's convention for
    operands an instruction does not have (None); `ins` is `u.word` decoded
    (on `arch`), when the caller has it."""
    ins = ins or decode(u.word, arch)
    if u.macro:
        store = ins.mnemonic == "SFPSTORE"
        x = Operands(ins, u.vd, None if store else u.vb, None if store else u.vc, macro=True,
                     store_addr=u.store_addr if store else None)
        return activity(unit, x, "macro", u.macro_cycle)
    regular = regular_operands(ins)
    x = Operands(ins, u.vd, None if regular.vb is None else u.vb, None if regular.vc is None else u.vc)
    return activity(unit, x, "thread")


# -- the scoreboard and the environment ----------------------------------------------------------

@dataclass
class ProgramRun:
    """One program's run: both traces and the model's final state."""
    name: str
    seed: int | None = None
    model_trace: list[CycleRecord] = field(default_factory=list)
    rtl_trace: list[CycleRecord] = field(default_factory=list)   # see SfpuEnv for block mode
    issued_from: dict = field(default_factory=dict)   # cycle -> the program's Instr the model issued then
    model: CycleModel | None = None     # the golden model at the end (its state, hazards)
    mismatch: Mismatch | None = None
    seconds: float = 0.0

    @property
    def cycles(self) -> int:
        return len(self.model_trace)

    @property
    def state(self) -> SfpuState | None:
        return self.model.state if self.model else None


class Scoreboard:
    """The golden model in lock-step: the program walker (model.run.walk)
    steps it, `expect(cycle)` notes each cycle it stepped, `check(record)`
    compares the RTL's record of the same cycle."""

    def __init__(self, run: ProgramRun, strict: bool = False, allow=(),
                 on_cycle: Callable[[CycleModel, CycleRecord], None] | None = None, *, arch: Arch):
        self.run = run
        self.arch = arch
        self.model = CycleModel(SfpuState(arch=arch), strict=strict, allow=set(allow))
        self.on_cycle = on_cycle
        self.source = ""

    def expect(self, cycle: Cycle) -> CycleRecord:
        self.source = self.model.context
        self.run.model_trace.append(cycle.record)
        if cycle.record.issued is not None and cycle.instr is not None:
            self.run.issued_from[cycle.record.cycle] = cycle.instr
        if self.on_cycle:
            self.on_cycle(self.model, cycle.record)
        return cycle.record

    def check(self, expected: CycleRecord, got: CycleRecord | None) -> None:
        if got is not None:
            self.run.rtl_trace.append(got)
            difference = first_difference(expected, got, self.arch)
        else:
            difference = Mismatch(expected.cycle, "whether the cycle ran (trace valid)", 1, 0)
        if difference is not None:
            self.fail(difference)

    def fail(self, difference: Mismatch) -> None:
        difference.source = difference.source or self.source
        # Results land up to a cycle after their instruction started: name both cycles' starts.
        trace = self.run.model_trace
        difference.started = tuple(
            f"started in cycle {record.cycle}: " + ("; ".join(f"{unit} {a.text}" for unit, a in record.units.items())
                                                    or "nothing")
            for record in trace[-2:] if record.cycle <= difference.cycle)
        difference.seed, difference.program, difference.run = self.run.seed, self.run.name, self.run
        self.run.mismatch = difference
        raise difference


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
    which tb.runner sets; Wormhole without it)."""
    return Arch.parse(os.environ.get("SFPU_ARCH", Arch.WORMHOLE.value))


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
        self.monitor = TraceMonitor(dut, self.arch)
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
                    if step.name in ("allow", "mark"):
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
        for name in feature_fields(state.arch.features):    # Sp moves with INT32_ALL; the others by directive
            check(name, int(getattr(state.tensix, name)), getattr(tensix, name))
        rows = sorted(self.touched_rows | set(np.flatnonzero(state.dst.any(axis=1)).tolist()))
        for row in rows:
            await FallingEdge(dut.clk)
            dut.dst_row.value = row
            await ReadOnly()
            check(f"Dst row {row}", state.dst[row], lanes_of(read(dut.dst_rdata), 16, 16))
