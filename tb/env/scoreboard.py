"""The scoreboard of the lock-step environment (tb.env.sfpu_env.SfpuEnv):
`Scoreboard` holds the cycle-exact model (`model.cycle.CycleModel`), steps it
with the same word, and compares the two records; the first difference
raises `Mismatch` with the cycle, the instruction, the sub-unit, the lane,
both values and the seed.

`first_difference` finds that difference in two decoded records, down to
the lane; `EntryMatcher` is block mode's fast comparison of a harness entry
(tb.env.harness.Entry) with the model's record, straight from the raw bits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace

from amaranth import Shape

from tensix_sfpu.hdl.dst import DstRowWrite
from tensix_sfpu.hdl.sfpu import UNITS, Trace, TraceUnit
from tensix_sfpu.model.asm import disassemble
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.run import Cycle
from tensix_sfpu.model.state import LANES, SfpuState
from tensix_sfpu.model.trace import CycleRecord, DstWriteRecord, FlagsRecord, LRegWriteRecord
from tensix_sfpu.tb.env.harness import Entry, lreg_digest
from tensix_sfpu.tb.env.monitor import unit_activity

RECORD_FIELDS = ("cycle", "issued", "stalled", "units", "LReg writes", "Dst writes", "flags", "stack",
                 "macro store address", "undefined")


def _at(layout, name: str) -> tuple[int, int]:
    return layout[name].offset, (1 << Shape.cast(layout[name].shape).width) - 1


def comparable(record: CycleRecord) -> tuple:
    """What the RTL must reproduce of a cycle: everything in `compared()`
    except the hazard checks, which are the model's alone; of the hazards only
    undefined behaviour is reported by the RTL too."""
    undefined = tuple(sorted(h.unit for h in record.hazards if h.rule == "undefined"))
    return record.compared()[:-1] + (macro_store_address(record), undefined)


def macro_store_address(record: CycleRecord) -> int | None:
    """The Dst address a macro SFPSTORE started this cycle uses, as its SFPLOADMACRO captured it (the trace's
    `store_addr`; `UnitActivity` equality leaves the operands out)."""
    store = record.units.get("store")
    return None if store is None or store.operands is None else store.operands.store_addr


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
    if name == "macro store address":
        return Mismatch(cycle, "the Dst address of a macro SFPSTORE", want[-2], have[-2], unit="store")
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
    """Whether a harness entry (tb.env.harness.Entry) equals the model's record
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
                            ("valid", "macro", "opcode", "word", "vd", "vb", "vc", "macro_cycle", "store_addr",
                             "undefined")}
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
            if a.word != unit_word or a.operands is None or (u >> f["opcode"][0] & f["opcode"][1]) != isa.opcode_of(unit_word):
                return None
            # The model's activity holds its word decoded: the same word, so the same decoding.
            mnemonic, has_vb, has_vc = self._shape(name, unit_word, macro, a.operands.ins)
            if (a.origin != ("macro" if macro else "thread") or a.mnemonic != mnemonic
                    or a.vd != (u >> f["vd"][0] & f["vd"][1])
                    or a.vb != ((u >> f["vb"][0] & f["vb"][1]) if has_vb else None)
                    or a.vc != ((u >> f["vc"][0] & f["vc"][1]) if has_vc else None)
                    or a.macro_cycle != ((u >> f["macro_cycle"][0] & f["macro_cycle"][1]) if macro else None)
                    or (a.operands.store_addr is not None
                        and a.operands.store_addr != (u >> f["store_addr"][0] & f["store_addr"][1]))
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


# -- the scoreboard ----------------------------------------------------------------------------

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
