"""The monitor of the lock-step environment (tb.env.sfpu_env.SfpuEnv) and
the helpers that read the top's ports: `TraceMonitor` samples the registered
trace port after each rising edge and `ReadOnly()`, and turns it into the
golden model's `CycleRecord`; in block mode it decodes the harness's entries
(tb.env.harness.Entry) the same way.

Each reads a `dut` whose ports have `.value` (cocotb's handles on Icarus and
Verilator, or tb.env.amaranth_cocotb's on Amaranth's simulator).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import SimpleNamespace

import numpy as np

from amaranth import Shape
from amaranth.lib import data

from tensix_sfpu.hdl.flags import DEPTH, StackEntry
from tensix_sfpu.hdl.sfpu import UNITS, Trace
from tensix_sfpu.hdl.tensix import TensixView
from tensix_sfpu.hdl.unit_io import LaneConfig
from tensix_sfpu.model.hazards import Hazard
from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import Arch, decode
from tensix_sfpu.model.machine import regular_operands
from tensix_sfpu.model.semantics import Operands
from tensix_sfpu.model.state import LANES
from tensix_sfpu.model.trace import CycleRecord, DstWriteRecord, FlagsRecord, LRegWriteRecord, activity
from tensix_sfpu.tb.env.cocotb_api import ReadOnly, RisingEdge
from tensix_sfpu.tb.env.harness import Entry

# Wide ports are decimal literals in some simulators' value strings.
sys.set_int_max_str_digits(0)

NUM_LREGS = 17


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
    """A field of a harness entry (tb.env.harness.Entry) from its raw bits."""
    offset, width = ENTRY_FIELDS[name]
    return raw >> offset & ((1 << width) - 1)


FLAG_STACK = unpacker(data.ArrayLayout(StackEntry, DEPTH))
MISC = unpacker(data.ArrayLayout(12, LANES))
LANE_CONFIG = unpacker(LaneConfig)
TENSIX = unpacker(TensixView)


def lanes_of(value: int, width: int, count: int) -> np.ndarray:
    """An int holding `count` fields of `width` bits -> uint32 array, field 0 first."""
    raw = value.to_bytes(width * count // 8, "little")
    return np.frombuffer(raw, dtype={16: "<u2", 32: "<u4"}[width]).astype(np.uint32)



class TraceMonitor:
    """Samples the trace port after each rising edge; a record of a frozen
    cycle is not valid and gives None. `matcher` is the scoreboard's fast
    comparison of a harness entry (tb.env.scoreboard.EntryMatcher), which
    block mode asks through `match_entry`."""

    def __init__(self, dut, arch: Arch, matcher):
        self.dut = dut
        self.arch = arch
        self.flags: tuple[int, int] | None = None
        self.stack: tuple[tuple[int, int], ...] | None = None
        self._stack_raw: tuple[int, int] | None = None
        self._stack: tuple[tuple[int, int], ...] = ()
        self.matcher = matcher

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
        """A harness entry (tb.env.harness.Entry) -> (the record, or None for a
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
            rec.units[name] = unit_activity(name, u if u.opcode == isa.opcode_of(u.word) else _as_traced_opcode(u), arch=self.arch)
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


def _as_traced_opcode(u) -> SimpleNamespace:
    """A trace entry whose `opcode` field is not its word's opcode byte, as the word with that opcode: the
    difference then shows as another instruction (or one the monitor cannot decode)."""
    return SimpleNamespace(word=(u.word & ~isa.OPCODE.mask & 0xFFFFFFFF) | isa.OPCODE.insert(u.opcode), macro=u.macro, vd=u.vd, vb=u.vb, vc=u.vc,
                           macro_cycle=u.macro_cycle, store_addr=u.store_addr)


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

