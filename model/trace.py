"""The per-cycle trace record: what every backend reports for every cycle.

The cycle model (`model.cycle`) produces one `CycleRecord` per cycle, and the
RTL's trace port presents the same fields, so a scoreboard can compare them
one cycle at a time. Everything is plain integers: lane masks are 32-bit ints
(bit i = lane i), column masks 16-bit ints, and register or row values are
tuples with zeros outside the mask, so equal records compare equal.

A record holds
- `cycle`, counted from 0 at the first cycle of the run;
- `issued`, the word the SFPU accepted from the thread this cycle, or None;
  `stalled`, the word presented but held back by an interlock (SFPSWAP; on
  Blackhole also SFPSHFT2 modes 2-4 and the stall after a MAD-class
  instruction), and `stall_reason`, why, in words (not compared);
- `units`, for each sub-unit that starts an instruction this cycle (load,
  simple, mad, round, store), a `UnitActivity`: where it came from (the
  thread, or a macro with the cycle of its SFPLOADMACRO), the opcode and the
  register operands after SFPLOADMACRO's overrides; the second cycle of a
  two-cycle instruction is not listed again;
- `lreg_writes`, the LRegs written at the end of this cycle, merged per
  register: lane mask and the register's new values in those lanes;
- `dst_writes`, the Dst rows written, merged per 16-bit row;
- `flags` and `stack`, the lane flags (and enables) and the whole flag stack,
  present only in cycles that change them;
- `hazards`, the rule violations detected in this cycle (`model.hazards`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from . import isa
from .hazards import Hazard
from .semantics import Operands
from .state import lane_bits

UNIT_ORDER = ("load", "simple", "mad", "round", "store")


lane_mask = lane_bits     # bool[32] -> int with bit i set for lane i


@dataclass(frozen=True)
class UnitActivity:
    unit: str                 # load, simple, mad, round, store
    origin: str               # "thread" or "macro"
    mnemonic: str
    word: int                 # the issued word, or the template (or synthesised SFPSTORE) for a macro
    vd: int | None
    vb: int | None
    vc: int | None
    macro_cycle: int | None = None   # the SFPLOADMACRO's cycle, for origin "macro"
    operands: Operands | None = field(default=None, compare=False, repr=False)

    @functools.cached_property
    def text(self) -> str:
        """Assembly-like text with the effective operands, made when first asked for."""
        return "" if self.operands is None else describe(self.operands, self.origin)

    def to_json(self) -> dict:
        return {"unit": self.unit, "origin": self.origin, "mnemonic": self.mnemonic, "word": self.word,
                "vd": self.vd, "vb": self.vb, "vc": self.vc, "macro_cycle": self.macro_cycle, "text": self.text}


@dataclass(frozen=True)
class LRegWriteRecord:
    reg: int
    lanes: int                # lane mask
    values: tuple[int, ...]   # 32 values, 0 outside the mask


@dataclass(frozen=True)
class DstWriteRecord:
    row: int                  # physical 16-bit Dst row
    cols: int                 # column mask
    values: tuple[int, ...]   # 16 values, 0 outside the mask


def merge_dst_writes(writes) -> list[DstWriteRecord]:
    """One cycle's Dst writes, given as (row, column mask, 16 values) in the
    order they land, as one record per row: the later write wins a column."""
    rows: dict[int, tuple[int, list[int]]] = {}
    for row, col_mask, new in writes:
        cols, values = rows.get(row, (0, [0] * 16))
        for c in range(16):
            if col_mask >> c & 1:
                values[c] = int(new[c])
        rows[row] = (cols | col_mask, values)
    return [DstWriteRecord(row, cols, tuple(values)) for row, (cols, values) in sorted(rows.items())]


@dataclass(frozen=True)
class FlagsRecord:
    lane_flags: int
    use_flags: int


@dataclass
class CycleRecord:
    cycle: int
    issued: int | None = None
    stalled: int | None = None
    stall_reason: str | None = field(default=None, compare=False)
    # The STALLWAIT holding the thread in this idle cycle (model.waits), with `stall_reason`. Not
    # compared: the RTL is presented nothing in that cycle, and sees only the idle.
    waiting: int | None = field(default=None, compare=False)
    units: dict[str, UnitActivity] = field(default_factory=dict)
    lreg_writes: list[LRegWriteRecord] = field(default_factory=list)
    dst_writes: list[DstWriteRecord] = field(default_factory=list)
    flags: FlagsRecord | None = None
    stack: tuple[FlagsRecord, ...] | None = None
    hazards: list[Hazard] = field(default_factory=list)

    def compared(self) -> tuple:
        """The fields a scoreboard compares between backends."""
        return (self.cycle, self.issued, self.stalled, tuple(sorted(self.units.items())),
                tuple(self.lreg_writes), tuple(self.dst_writes), self.flags, self.stack,
                tuple((h.rule, h.unit) for h in self.hazards))

    def to_json(self) -> dict:
        def flags(f: FlagsRecord) -> dict:
            return {"lane_flags": f.lane_flags, "flag_enable": f.use_flags}
        out: dict = {"cycle": self.cycle, "issued": self.issued}
        if self.stalled is not None:
            out["stalled"] = self.stalled
            out["stall_reason"] = self.stall_reason
        if self.waiting is not None:
            out["waiting"] = self.waiting
            out["stall_reason"] = self.stall_reason
        out["units"] = {name: a.to_json() for name, a in sorted(self.units.items(), key=_unit_key)}
        out["lreg_writes"] = [{"reg": w.reg, "lanes": w.lanes, "values": list(w.values)} for w in self.lreg_writes]
        out["dst_writes"] = [{"row": w.row, "cols": w.cols, "values": list(w.values)} for w in self.dst_writes]
        if self.flags is not None:
            out["flags"] = flags(self.flags)
        if self.stack is not None:
            out["stack"] = [flags(e) for e in self.stack]
        out["hazards"] = [h.to_json() for h in self.hazards]
        return out


def _unit_key(item) -> int:
    return UNIT_ORDER.index(item[0])


def describe(x: Operands, origin: str) -> str:
    """Assembly-like text of an executing instruction with its effective
    operands; a macro's overrides can name L16, which no encoding can."""
    ins = x.ins
    if ins.mnemonic == "SFPNOP":
        return "sfpnop"
    effective = {"vd": x.vd, "vb": x.vb, "vc": x.vc}
    parts = []
    for name, value in isa.readable_fields(ins):
        if name in effective and effective[name] is not None:
            value = effective.pop(name)
        elif name in effective:
            effective.pop(name)
        parts.append(f"{name}=0x{value:04X}" if name == "imm16" else f"{name}={value}")
    if origin == "macro":
        if ins.mnemonic == "SFPSTORE":
            parts = [p for p in parts if not p.startswith("addr_mod=")]
            parts.append(f"addr={x.store_addr}")
        else:
            # VB/VC a macro assigns to an instruction without such a field.
            parts += [f"{name}={value}" for name, value in effective.items() if value is not None]
    return " ".join([ins.mnemonic.lower()] + parts)


def activity(unit: str, x: Operands, origin: str, macro_cycle: int | None = None) -> UnitActivity:
    return UnitActivity(unit, origin, x.ins.mnemonic, x.ins.word, x.vd, x.vb, x.vc, macro_cycle, x)
