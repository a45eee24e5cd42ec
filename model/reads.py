"""Which LRegs an instruction's result depends on, for the cycle model's
"read of a result still in flight" check.

What each instruction's functional model reads is declared once, in the ISA
table (`Opcode.reads`, `model.isa.Read`): operands and fixed registers, each
under the modifier values that read it. `declared_reads(x, state)` resolves
those declarations for one execution. `lreg_reads(x, state)` then leaves out
what cannot matter on this state: everything an instruction reads when its
only effect is a VD write and VD names no writable LReg (`Opcode.reads_for_vd`),
and, by the table's `Opcode.narrow`, the state- and value-dependent cases (a
load that merges nothing, a MAD-class result that lands nowhere, a register
compared with itself, SFPSETCC without predication, ...). Narrowing only ever removes
registers (tests/model/test_reads.py checks both the declarations and the
narrowing against the semantics). `word_reads` resolves declarations from an
instruction word alone, as the Blackhole stall logic and the SFPI front end
must. Constants (L8-L15) and L16 are reported like
any other register; the caller decides what can be in flight.

Sets are lane-conservative where that is much simpler: a register may be
named whose value matters only in lanes the instruction does not write (lanes
disabled by predication or ROW_MASK, in general; see also the comments on
INDIRECT_VA/VD, SFPSWAP's ENABLE_DEST_INDEX and SFPSETCC).
"""

from __future__ import annotations

from collections.abc import Set
from typing import Callable

import numpy as np

from . import dst_format as dfmt
from .isa import VD_INDEX, CmpMod1, Instruction, LaneConfigBit, Mod0Fmt, Narrowing, Read, Shft2Mod1
from .machine import regular_operands
from .semantics import Operands
from .state import SfpuState

Reads = Set[int]
NONE: Reads = frozenset()
_FP32_1_0, _FP32_2_0 = 0x3F800000, 0x40000000


# ---------------------------------------------------------------------------
# The table's declarations, resolved
# ---------------------------------------------------------------------------

def _lanes_of_l7(state: SfpuState) -> Reads:
    """The registers L7's low four bits name, over all lanes (lane-conservative:
    a disabled lane's choice is included)."""
    return {int(r) for r in np.unique(state.lregs[7] & np.uint32(15))}


def _lut_rows(state: SfpuState) -> Reads:
    """The coefficient rows |L3| selects in some lane: 0 below 1.0, 1 below
    2.0, 2 otherwise (NaN included), as `model.lut` does."""
    b = state.lregs[3] & np.uint32(0x7FFFFFFF)
    index = np.where(b < _FP32_1_0, 0, np.where(b < _FP32_2_0, 1, 2))
    return {int(i) for i in np.unique(index)}


_RESOLVE: dict[str, Callable[[Operands, SfpuState], Reads]] = {
    "va": lambda x, s: {x["va"]},
    "vb": lambda x, s: NONE if x.vb is None else {x.vb},
    "vc": lambda x, s: NONE if x.vc is None else {x.vc},
    "vd": lambda x, s: {x.vd},
    VD_INDEX: lambda x, s: NONE if x.vd == 16 else {7},     # VD = L16 is never redirected
    "L[L7]": lambda x, s: _lanes_of_l7(s),
    "lut": lambda x, s: _lut_rows(s),
    "lut+4": lambda x, s: {4 + i for i in _lut_rows(s)},
    "swap payload": lambda x, s: {4 + (x.vc & 3), 4 + (x.vd & 3)},
}


def _field_values(x: Operands) -> Callable[[str], int]:
    """Field values as executed: VD as resolved (a macro may substitute it), the rest from the word."""
    return lambda name: x.vd if name == "vd" else x.ins.get(name, 0)


# Registers the state chooses; the others follow from the operands alone.
_BY_STATE = frozenset({"L[L7]", "lut", "lut+4"})
_RESOLVED: dict[tuple, tuple[frozenset[int], tuple[str, ...]]] = {}


def _resolved(x: Operands) -> tuple[frozenset[int], tuple[str, ...]]:
    """The registers `x`'s declarations name by its operands, and the names of
    those the state chooses; worked out once per operand set (the cycle model
    asks on every execution)."""
    key = (x.ins.word, x.ins.op.arch, x.vd, x.vb, x.vc)
    known = _RESOLVED.get(key)
    if known is None:
        fixed: set[int] = set()
        by_state: list[str] = []
        value = _field_values(x)
        for read in x.ins.op.reads:
            if not read.applies(value):
                continue
            if isinstance(read.reg, int):
                fixed.add(read.reg)
            elif read.reg in _BY_STATE:
                by_state.append(read.reg)
            else:
                fixed |= _RESOLVE[read.reg](x, None)
        known = _RESOLVED[key] = (frozenset(fixed), tuple(by_state))
    return known


def declared_reads(x: Operands, state: SfpuState) -> Reads:
    """The LRegs the ISA table says `x`'s functional model reads on `state`."""
    fixed, by_state = _resolved(x)
    if not by_state:
        return fixed
    return fixed.union(*(_RESOLVE[name](x, state) for name in by_state))


EVERY_LREG = frozenset(range(17))
# Without the state: every register it could choose (L[L7] as any LReg, as the stall logic's masks).
_BY_WORD: dict[str, Reads] = {"L[L7]": EVERY_LREG, "lut": frozenset({0, 1, 2}), "lut+4": frozenset({4, 5, 6})}


def word_reads(ins: Instruction, reads: tuple[Read, ...]) -> frozenset[int]:
    """The LRegs that `reads` (declarations of `ins.op`, such as its `reads` or
    its `stall_view`) name for `ins` issued by the thread, from its word alone."""
    x = regular_operands(ins)
    value = _field_values(x)
    regs: set[int] = set()
    for read in reads:
        if read.applies(value):
            reg = read.reg
            regs |= {reg} if isinstance(reg, int) else _BY_WORD.get(reg) or _RESOLVE[reg](x, None)
    return frozenset(regs)


# ---------------------------------------------------------------------------
# Narrowing: what cannot matter on this state
# ---------------------------------------------------------------------------

def _written(vd: int) -> bool:
    """The semantics' `_writes_vd`: results land only in L0-L7 or L16."""
    return vd < 8 or vd == 16


def _resolved_mod0(mod0: int, state: SfpuState) -> int:
    """MOD0_FMT_SRCB resolves to FP16, BF16 or FP32."""
    if mod0 == Mod0Fmt.SRCB:
        t = state.tensix
        return int(dfmt.resolve_srcb(t.fp32_dest, t.srcb_format))
    return mod0


def _load(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    # Only merging formats keep part of the old VD, and only where
    # BLOCK_SFPU_RD_FROM_DEST lets the load write.
    blocked = state.lane_config_bit(LaneConfigBit.BLOCK_SFPU_RD_FROM_DEST).all()
    return declared if x.vd < 8 and not blocked else NONE


def _store(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    # MOD0_FMT_ZERO stores 0 whatever VD holds; BLOCK_DEST_WR_FROM_SFPU in every lane stores nothing.
    zero = _resolved_mod0(x["mod0"], state) == Mod0Fmt.ZERO
    blocked = state.lane_config_bit(LaneConfigBit.BLOCK_DEST_WR_FROM_SFPU).all()
    return NONE if zero or blocked else declared


def _mad_class(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    """A MAD-sub-unit instruction: its sources matter only if some result
    lands; L7 still matters as the choice of destination (INDIRECT_VD)."""
    indirect = 7 in _resolved(x)[0] and any(r.reg == VD_INDEX and r.applies(_field_values(x))
                                            for r in x.ins.op.reads) and x.vd != 16
    lands = any(_written(r) for r in _lanes_of_l7(state)) if indirect else _written(x.vd)
    return declared if lands else ({7} if indirect else NONE)


def _unless_same(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    # VB == VC gives 0 whatever the register holds (the zeroing idiom SFPXOR VD, VD).
    return NONE if x.vb == x.vc else declared


def _sfpiadd(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    # VC - VB with VB == VC is 0 whatever the register holds (the flags follow the result).
    return NONE if (x["mod1"] & 3) == 2 and x.vb == x.vc else declared


def _sfple_sfpgt(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    """The comparison matters only if it lands somewhere: VD (SET_VD, a
    writable VD), the flags (SET_CC), or the stack top (MUTATE_STACK with a
    non-empty stack). A register compared with itself is never smaller."""
    mod1 = x["mod1"]
    lands = ((mod1 & CmpMod1.SET_VD and _written(x.vd)) or mod1 & CmpMod1.SET_CC
             or (mod1 & CmpMod1.MUTATE_STACK and bool(state.flag_stack)))
    return declared if lands and x.vb != x.vc else NONE


def _sfpsetcc(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    # Writes flags whatever VD is; every lane with predication off gets 0, so
    # VC matters only if some lane has UseLaneFlagsForLaneEnable (lane-conservative).
    return declared if state.use_flags.any() else NONE


def _sfpswap(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    vc, vd = x.vc, x.vd
    # Under a macro the VD operand's value arrives through the VB port.
    d_src = x.vb if x.macro and x.vb is not None else vd
    dest_index = state.lane_config_bit(LaneConfigBit.ENABLE_DEST_INDEX)
    # Lanes with ENABLE_DEST_INDEX write values only to L0-L3 (lane-conservative:
    # 8 unless every lane has the bit).
    limit = 4 if dest_index.all() else 8
    if x["mod1"] != 0 and vc != d_src:
        # The comparison of VC with VD's value decides every write, the index payload's included.
        values = {vc, d_src} if vd < limit or vc < limit or dest_index.any() else set()
    else:
        # An unconditional swap, or a comparison of a register with itself
        # (never "less"): each value matters only where it lands.
        values = ({vc} if vd < limit else set()) | ({d_src} if vc < limit else set())
    # The index payloads of L[4 + (VC & 3)] and L[4 + (VD & 3)] move with ENABLE_DEST_INDEX.
    return values | ({4 + (vc & 3), 4 + (vd & 3)} if dest_index.any() else set())


def _sfpshft2(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    mode = x["mod1"]
    if mode == Shft2Mod1.SHFLROR1:
        # On Wormhole modes 2 and 3 capture VC for a later mode 4 when VD < 12 or
        # under a macro, so any VD counts; Blackhole, without mode 4's flaw, captures nothing.
        captures = (x.vd < 12 or x.macro) and x.ins.op.arch.features.shft2_captured_vc
        return declared if captures or _written(x.vd) else NONE
    if mode in (Shft2Mod1.SHFLSHR1, Shft2Mod1.SHFT_LREG, Shft2Mod1.SHFT_IMM):
        return declared if _written(x.vd) else NONE
    return declared                           # the copies write L0-L3 whatever VD is


def _sfpconfig(x: Operands, state: SfpuState, declared: Reads) -> Reads:
    # Templates (VD 0-3) and the registers VD 4-8 and 11-15 select take the
    # value; VD 9, 10 and 16 select nothing.
    vd = x.vd
    return declared if vd < 9 or 11 <= vd <= 15 else NONE


# How each of the table's `Narrowing`s narrows.
_NARROWING: dict[Narrowing, Callable[[Operands, SfpuState, Reads], Reads]] = {
    Narrowing.MERGE: _load, Narrowing.STORE: _store, Narrowing.LANDS: _mad_class,
    Narrowing.SELF_XOR: _unless_same, Narrowing.SELF_SUB: _sfpiadd, Narrowing.COMPARE: _sfple_sfpgt,
    Narrowing.PREDICATED: _sfpsetcc, Narrowing.SWAP: _sfpswap, Narrowing.SHFT2: _sfpshft2,
    Narrowing.CONFIG_TARGET: _sfpconfig,
}


def _backdoor_only(x: Operands, state: SfpuState) -> bool:
    """A thread instruction with VD 12-15 runs only in lanes with
    DISABLE_BACKDOOR_LOAD set (`Machine.guard`); with the bit clear everywhere
    it only writes its own word into a macro template. SFPCONFIG's VD names a
    target instead, and VD 12-15 of the others selects nothing they could
    write outside the guard."""
    return (not x.macro and 12 <= x.vd <= 15 and x.ins.op.backdoor
            and not state.lane_config_bit(LaneConfigBit.DISABLE_BACKDOOR_LOAD).any())


def lreg_reads(x: Operands, state: SfpuState) -> frozenset[int]:
    """The LRegs whose values `x` can depend on when it executes on `state`
    (the state at the start of its cycle)."""
    if _backdoor_only(x, state) or (x.ins.op.reads_for_vd and not _written(x.vd)):
        return frozenset()
    declared = declared_reads(x, state)
    narrowing = x.ins.op.narrow
    return frozenset(declared if narrowing is None else _NARROWING[narrowing](x, state, declared))
