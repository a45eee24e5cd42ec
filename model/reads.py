"""Which LRegs an instruction's result depends on, for the cycle model's
"read of a result still in flight" check.

`lreg_reads(x, state)` gives the LReg indices (0-16) whose values can change
what `x` does when it executes on `state`. It follows `model.semantics`
function by function: a register the semantics touch but whose value cannot
matter in the instruction's mode (the old VD of most SFPLOADI modes, VB of an
immediate-form SFPIADD, the sources of an instruction whose VD is not
writable, ...) is left out. Constants (L8-L15) and L16 are reported like any
other register; the caller decides what can be in flight.

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
from .lut import LutFp32Table, sfplutfp32_decode_mod1
from .isa import Arch
from .semantics import (ARECIP_COND_RECIP, CMP_MUTATE_STACK, CMP_SET_CC, CMP_SET_VD, CONFIG_IMM16_IS_VALUE,
                        INDIRECT_VA, INDIRECT_VD, MOV_FROM_SPECIAL, SHFT2_CHAINED_COPY4, SHFT2_COPY4, SHFT2_SHFLROR1,
                        SHFT2_SHFLROR1_AND_COPY4, SHFT2_SHFLSHR1, SHFT2_SHFT_IMM, SHFT2_SHFT_LREG,
                        SHFT_ARG_IMM_USE_VC, Operands)
from .state import LaneConfigBit, SfpuState

Reads = Set[int]
NONE: Reads = frozenset()
_FP32_1_0, _FP32_2_0 = 0x3F800000, 0x40000000


def _written(vd: int) -> bool:
    """The semantics' `_writes_vd`: results land only in L0-L7 or L16."""
    return vd < 8 or vd == 16


def _if(cond: bool, *regs: int) -> Reads:
    return set(regs) if cond else set()


# ---------------------------------------------------------------------------
# Load and store
# ---------------------------------------------------------------------------

def _resolved_mod0(mod0: int, state: SfpuState) -> int:
    """MOD0_FMT_SRCB resolves to FP16, BF16 or FP32, none of which merges."""
    if mod0 == dfmt.Mod0Fmt.SRCB:
        t = state.tensix
        return int(dfmt.resolve_srcb(t.fp32_dest, t.srcb_format))
    return mod0


def _load(vd: int, mod0: int, state: SfpuState) -> Reads:
    # Only LO16_ONLY and HI16_ONLY keep half of the old VD, and only where
    # BLOCK_SFPU_RD_FROM_DEST lets the load write.
    merges = _resolved_mod0(mod0, state) in (dfmt.Mod0Fmt.LO16_ONLY, dfmt.Mod0Fmt.HI16_ONLY)
    blocked = state.lane_config_bit(LaneConfigBit.BLOCK_SFPU_RD_FROM_DEST).all()
    return _if(vd < 8 and merges and not blocked, vd)


def sfpload(x: Operands, state: SfpuState) -> Reads:
    return _load(x.vd, x["mod0"], state)


def sfploadmacro(x: Operands, state: SfpuState) -> Reads:
    # The scheduled instructions are separate executions with their own reads.
    return _load(x.ins.operand("vd"), x["mod0"], state)


def sfploadi(x: Operands, state: SfpuState) -> Reads:
    # UPPER (8) and LOWER (10) replace half of the old VD; the rest overwrite it.
    return _if(x.vd < 8 and x["mod0"] in (8, 10), x.vd)


def sfpstore(x: Operands, state: SfpuState) -> Reads:
    # MOD0_FMT_ZERO stores 0 whatever VD holds; BLOCK_DEST_WR_FROM_SFPU in
    # every lane stores nothing.
    zero = _resolved_mod0(x["mod0"], state) == dfmt.Mod0Fmt.ZERO
    blocked = state.lane_config_bit(LaneConfigBit.BLOCK_DEST_WR_FROM_SFPU).all()
    return _if(not zero and not blocked, x.vd)


# ---------------------------------------------------------------------------
# MAD sub-unit
# ---------------------------------------------------------------------------

def _lanes_of_l7(state: SfpuState) -> Reads:
    """The registers L7's low four bits name, over all lanes (lane-conservative:
    a disabled lane's choice is included)."""
    return {int(r) for r in np.unique(state.lregs[7] & np.uint32(15))}


def _mad_destination(x: Operands, state: SfpuState, indirect: bool) -> tuple[Reads, bool]:
    """(registers the destination choice reads, whether any lane can be written).
    INDIRECT_VD takes the destination from L7 unless VD is L16."""
    if indirect and x.vd != 16:
        return {7}, any(_written(r) for r in _lanes_of_l7(state))
    return NONE, _written(x.vd)


def _mad_class(sources: Callable[[Operands, SfpuState], Reads], indirect_bit: int, mod_field: str):
    """A MAD-sub-unit instruction: its sources matter only if some result lands."""
    def reads(x: Operands, state: SfpuState) -> Reads:
        dest, lands = _mad_destination(x, state, bool(x[mod_field] & indirect_bit))
        return dest | sources(x, state) if lands else dest
    return reads


def _mad_sources(x: Operands, state: SfpuState) -> Reads:
    if x["mod1"] & INDIRECT_VA:
        # VA comes per lane from L[L7 & 15] (lane-conservative as above).
        va = {7} | _lanes_of_l7(state)
    else:
        va = {x["va"]}
    return va | {x.vb, x.vc}


def _lut_rows(state: SfpuState) -> Reads:
    """The coefficient rows |L3| selects in some lane: 0 below 1.0, 1 below
    2.0, 2 otherwise (NaN included), as `model.lut` does."""
    b = state.lregs[3] & np.uint32(0x7FFFFFFF)
    index = np.where(b < _FP32_1_0, 0, np.where(b < _FP32_2_0, 1, 2))
    return {int(i) for i in np.unique(index)}


def _lut_sources(x: Operands, state: SfpuState) -> Reads:
    # L3 is both the input |L3| and the SGN_RETAIN sign.
    return {3} | _lut_rows(state)


def _lutfp32_sources(x: Operands, state: SfpuState) -> Reads:
    rows = _lut_rows(state)
    table, _, _ = sfplutfp32_decode_mod1(x["mod1"])
    if table == LutFp32Table.FP16_3ENTRY:      # both halves of L[i] are the coefficients
        return {3} | rows
    return {3} | rows | {4 + i for i in rows}  # A from L[i], C from L[4 + i]


# ---------------------------------------------------------------------------
# Simple and Round sub-units
# ---------------------------------------------------------------------------

def _to_vd(sources: Callable[[Operands], Reads]):
    """An instruction whose only effect is its VD write (and, for SFPIADD,
    SFPLZ and SFPEXEXP, flags that need VD < 8): nothing matters without it."""
    def reads(x: Operands, state: SfpuState) -> Reads:
        return sources(x) if _written(x.vd) else NONE
    return reads


def _imm_or_vb(x: Operands) -> Reads:
    """Mod1 bit 0 takes the second operand from the immediate instead of VB."""
    return {x.vc} if x["mod1"] & 1 else {x.vb, x.vc}


def sfpxor(x: Operands, state: SfpuState) -> Reads:
    # VB == VC gives 0 whatever the register holds (the zeroing idiom SFPXOR VD, VD).
    return _if(_written(x.vd) and x.vb != x.vc, x.vb, x.vc)


def sfpiadd(x: Operands, state: SfpuState) -> Reads:
    # VC - VB with VB == VC is 0 whatever the register holds (the flags follow the result).
    if (x["mod1"] & 3) == 2 and x.vb == x.vc:
        return NONE
    return _imm_or_vb(x) if _written(x.vd) else NONE


def _sfpshft(x: Operands) -> Reads:
    """VB shifted by VC, or by Imm12; Blackhole's ARG_IMM_USE_VC shifts VC by Imm12 instead."""
    mod1 = x["mod1"]
    if not mod1 & 1:
        return {x.vb, x.vc}
    if x.ins.op.arch is Arch.BLACKHOLE and mod1 & SHFT_ARG_IMM_USE_VC:
        return {x.vc}
    return {x.vb}


def sfple_sfpgt(x: Operands, state: SfpuState) -> Reads:
    """Blackhole's comparisons of VD (through VB) with VC. The comparison
    matters only if it lands somewhere: VD (SET_VD, a writable VD), the flags
    (SET_CC), or the stack top (MUTATE_STACK with a non-empty stack). A
    register compared with itself is never smaller, whatever it holds."""
    mod1 = x["mod1"]
    lands = ((mod1 & CMP_SET_VD and _written(x.vd)) or mod1 & CMP_SET_CC
             or (mod1 & CMP_MUTATE_STACK and bool(state.flag_stack)))
    return _if(bool(lands) and x.vb != x.vc, x.vb, x.vc)


def sfparecip(x: Operands, state: SfpuState) -> Reads:
    # COND_RECIP tests VB's sign; every mode reads VC (COND_RECIP keeps it where VB >= 0).
    return _if(_written(x.vd), x.vc) | _if(_written(x.vd) and x["mod1"] == ARECIP_COND_RECIP, x.vb)


def sfpmov(x: Operands, state: SfpuState) -> Reads:
    # FROM_SPECIAL reads configuration or the PRNG selected by VC, not LRegs.
    return _if(_written(x.vd) and not x["mod1"] & MOV_FROM_SPECIAL, x.vc)


def sfpsetcc(x: Operands, state: SfpuState) -> Reads:
    # Writes flags whatever VD is. Mod1 bit 3 (clear) and bit 0 (from Imm1)
    # ignore VC, and so does every lane with predication off (its flag
    # becomes 0): VC matters only if some lane has UseLaneFlagsForLaneEnable
    # (lane-conservative when only some do).
    return _if(not x["mod1"] & 9 and bool(state.use_flags.any()), x.vc)


def sfpstochrnd(x: Operands, state: SfpuState) -> Reads:
    # The integer modes 4 and 5 shift by VB & 31 unless UseImm5 is set.
    shift_from_vb = x["mod1"] in (4, 5) and not x["use_imm5"]
    return _if(_written(x.vd), x.vc) | _if(_written(x.vd) and shift_from_vb, x.vb)


# ---------------------------------------------------------------------------
# Cross-lane movement
# ---------------------------------------------------------------------------

def sfpswap(x: Operands, state: SfpuState) -> Reads:
    vc, vd = x.vc, x.vd
    # Under a macro the VD operand's value arrives through the VB port.
    d_src = x.vb if x.macro and x.vb is not None else vd
    dest_index = state.lane_config_bit(LaneConfigBit.ENABLE_DEST_INDEX)
    # Lanes with ENABLE_DEST_INDEX write values only to L0-L3 (lane-conservative:
    # 8 unless every lane has the bit).
    limit = 4 if dest_index.all() else 8
    if x["mod1"] != 0 and vc != d_src:
        # The comparison of VC with VD's value decides every write, the index
        # payload's included.
        values = _if(vd < limit or vc < limit or dest_index.any(), vc, d_src)
    else:
        # An unconditional swap, or a comparison of a register with itself
        # (never "less"): each value matters only where it lands.
        values = _if(vd < limit, vc) | _if(vc < limit, d_src)
    payload = _if(dest_index.any(), 4 + (vc & 3), 4 + (vd & 3))
    return values | payload


def sfpshft2(x: Operands, state: SfpuState) -> Reads:
    mode = x["mod1"]
    # On Wormhole, modes 2 and 3 capture VC for a later mode 4 when VD < 12 or
    # under a macro; Blackhole, without mode 4's flaw, captures nothing.
    captures = (x.vd < 12 or x.macro) and x.ins.op.arch is not Arch.BLACKHOLE
    if mode == SHFT2_COPY4:                   # L0..L3 <- L1, L2, L3, 0
        return {1, 2, 3}
    if mode == SHFT2_CHAINED_COPY4:           # L3 <- L0 moved up a row
        return {0, 1, 2, 3}
    if mode == SHFT2_SHFLROR1_AND_COPY4:      # L3 <- VC rotated; writes L0-L3 whatever VD is
        return {1, 2, 3, x.vc}
    if mode == SHFT2_SHFLROR1:                # on Wormhole any VD it writes (L0-L7, L16) also captures
        return _if(captures or _written(x.vd), x.vc)
    if mode == SHFT2_SHFLSHR1:                # the other input is the captured VC, not an LReg
        return _if(_written(x.vd), x.vc)
    if mode == SHFT2_SHFT_LREG:
        return _if(_written(x.vd), x.vb, x.vc)
    if mode == SHFT2_SHFT_IMM:
        return _if(_written(x.vd), x.vb)
    return NONE                               # undefined modes do nothing


def sfptransp(x: Operands, state: SfpuState) -> Reads:
    return set(range(8))


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------

def sfpconfig(x: Operands, state: SfpuState) -> Reads:
    """Lanes 0-7 of L0 are the value, except where Mod1 bit 0 takes Imm16 (or
    the constant's reset value) instead. Templates (VD 0-3) always take L0;
    VD 9, 10 and 16 select nothing."""
    vd = x.vd
    if vd < 4:
        return {0}
    selects = vd < 9 or 11 <= vd <= 15
    return _if(selects and not x["mod1"] & CONFIG_IMM16_IS_VALUE, 0)


def _none(x: Operands, state: SfpuState) -> Reads:
    return NONE


READS: dict[str, Callable[[Operands, SfpuState], Reads]] = {
    "SFPLOAD": sfpload,
    "SFPLOADMACRO": sfploadmacro,
    "SFPLOADI": sfploadi,
    "SFPSTORE": sfpstore,

    "SFPMAD": _mad_class(_mad_sources, INDIRECT_VD, "mod1"),
    "SFPADD": _mad_class(_mad_sources, INDIRECT_VD, "mod1"),
    "SFPMUL": _mad_class(_mad_sources, INDIRECT_VD, "mod1"),
    "SFPADDI": _mad_class(lambda x, s: {10, x.vc}, INDIRECT_VD, "mod1"),   # bf16(imm16) * L10 + VC
    "SFPMULI": _mad_class(lambda x, s: {x.vc}, INDIRECT_VD, "mod1"),       # bf16(imm16) * VC + 0
    "SFPLUT": _mad_class(_lut_sources, INDIRECT_VD, "mod0"),
    # Mod1 bit 3 is INDIRECT_VD, so FP16_3ENTRY (10, 11, 14, 15) always reads L7.
    "SFPLUTFP32": _mad_class(_lutfp32_sources, INDIRECT_VD, "mod1"),

    "SFPABS": _to_vd(lambda x: {x.vc}),
    "SFPNOT": _to_vd(lambda x: {x.vc}),
    "SFPLZ": _to_vd(lambda x: {x.vc}),
    "SFPEXEXP": _to_vd(lambda x: {x.vc}),
    "SFPEXMAN": _to_vd(lambda x: {x.vc}),
    "SFPCAST": _to_vd(lambda x: {x.vc}),
    "SFPDIVP2": _to_vd(lambda x: {x.vc}),        # both modes keep VC's sign and mantissa
    "SFPAND": _to_vd(lambda x: {x.vb, x.vc}),
    "SFPOR": _to_vd(lambda x: {x.vb, x.vc}),
    "SFPXOR": sfpxor,
    "SFPIADD": sfpiadd,
    "SFPSHFT": _to_vd(lambda x: _sfpshft(x)),
    "SFPSETEXP": _to_vd(_imm_or_vb),             # Mod1 bit 1 (exponent field of VB) still reads VB
    "SFPSETMAN": _to_vd(_imm_or_vb),
    "SFPSETSGN": _to_vd(_imm_or_vb),
    "SFPMOV": sfpmov,
    "SFPSETCC": sfpsetcc,
    "SFPSTOCHRND": sfpstochrnd,

    "SFPSWAP": sfpswap,
    "SFPSHFT2": sfpshft2,
    "SFPTRANSP": sfptransp,

    "SFPCONFIG": sfpconfig,

    # Blackhole only.
    "SFPLE": sfple_sfpgt,
    "SFPGT": sfple_sfpgt,
    "SFPMUL24": _mad_class(_mad_sources, INDIRECT_VD, "mod1"),   # VA (or L[L7]) * VB, then VC's shift-add
    "SFPARECIP": sfparecip,

    # Flags, the flag stack and timing only.
    "SFPNOP": _none,
    "SFPENCC": _none,
    "SFPPUSHC": _none,
    "SFPPOPC": _none,
    "SFPCOMPC": _none,
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
    if _backdoor_only(x, state):
        return frozenset()
    return frozenset(READS[x.ins.mnemonic](x, state))
