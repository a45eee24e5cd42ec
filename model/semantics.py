"""What each SFPU instruction does, lanewise over 32 lanes, on Wormhole B0
and Blackhole A0.

One function per instruction (or family), named after it, written from the
functional models of tt-isa-documentation's WormholeB0 and BlackholeA0 pages.
Each receives the machine (`model.machine.Machine`: state, write helpers,
undefined-behaviour reporting) and the resolved operands (`Operands`). The
machine has already applied the backdoor rule, so functions here only see
instructions that execute.

Both architectures share each function: where Blackhole differs in a detail,
the function asks for the feature (`_features(x)`, the record of the
architecture whose table decoded it) at that point, so Wormhole's path is the
one it always was. The instructions only
Blackhole has are at the end.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from . import dst_format as dfmt
from .bh_arith import approx_exp, approx_recip, mul24, mul24_shift_add
# model.dst_format's and model.lut's, table-driven unless SFPU_FAST=0.
from .fast_tables import load_convert, sfplut_select, sfplutfp32_select, store_convert
from .fma_native import fma_for     # model.fma's, compiled when g++ is there
from .isa import (ArecipMod1, CastMod1, CmpMod1, ConfigMod1, Features, Instruction, LaneConfigBit, LutMod, MadMod1,
                  Mod0Fmt, MovMod1, Mul24Mod1, RoundMode, Shft2Mod1, ShftMod1)
from .rounding import cast_int_to_fp32, stochrnd
from .state import LANES, MISC_MASK, PROGRAMMABLE_CONST_DEFAULTS

if TYPE_CHECKING:
    from .machine import Machine

U32 = np.uint32
LANE = np.arange(LANES)
SIGN = U32(0x80000000)
ZERO = np.zeros(LANES, dtype=U32)
ALL_LANES = np.ones(LANES, dtype=bool)


@dataclass(frozen=True)
class Operands:
    """An instruction with its register operands resolved.

    `vb`/`vc` hold the implicit `VB = VD` / `VC = VD` of the functional models
    for regular issue; SFPLOADMACRO substitutes its own. `macro` marks an
    instruction scheduled by SFPLOADMACRO (DISABLE_BACKDOOR_LOAD then reads as
    true, and SFPSTORE uses the captured `store_addr` and no AddrMod)."""
    ins: Instruction
    vd: int
    vb: int | None = None
    vc: int | None = None
    macro: bool = False
    store_addr: int | None = None

    def __getitem__(self, name: str) -> int:
        return self.ins[name]


SEMANTICS: dict[str, Callable[["Machine", Operands], None]] = {}


def semantics(*mnemonics: str):
    def register(fn):
        for mn in mnemonics:
            SEMANTICS[mn] = fn
        return fn
    return register


def _s32(x: np.ndarray) -> np.ndarray:
    return x.view(np.int32)


def _writes_vd(m: "Machine", x: Operands, vd: int) -> bool:
    """Most instructions write their result only to L0-L7 or the macro-only
    L16; the machine reports the write it drops (model.silent)."""
    return vd < 8 or vd == 16 or m.writes_vd(x, vd)


def _some(lanes: np.ndarray) -> bool:
    """Whether any lane is set: `ndarray.any()`'s answer at a quarter of its
    cost on 32 lanes (it goes through numpy's generic reduction)."""
    return np.count_nonzero(lanes) != 0


def _features(x: Operands) -> Features:
    """The feature record of the architecture whose table decoded the instruction."""
    return x.ins.op.arch.features


# ---------------------------------------------------------------------------
# Load path
# ---------------------------------------------------------------------------

def _dst_address(m: "Machine", imm10: int, mod0: int, store: bool = False) -> int:
    """The Dst address of an SFPLOAD (or, `store`, SFPSTORE) with resolved Mod0.

    Blackhole adds the SFPU stack pointer RWC Sp: MOD0_FMT_INT32_ALL addresses
    by Sp + DEST_SP_BASE (with the low two bits of the Dst counter), and moves
    Sp: a load first subtracts SFPU_STACK_Incr if Sp is not 0, a store adds it
    afterwards. Other modes add the low two bits of Sp + DEST_SP_BASE, which
    are 0 unless software sets them."""
    t = m.state.tensix
    dst_offset = (t.rwc_dst + t.dest_base) & 0x3FF
    int32_all = mod0 == Mod0Fmt.INT32_ALL
    if not m.state.arch.features.stack_pointer:
        counter = dst_offset & 3 if int32_all else dst_offset
        return (imm10 + t.dest_offset + counter) & 0x3FF
    if int32_all:
        if not store and t.rwc_sp != 0:
            m.set_stack_pointer(t.rwc_sp - t.sfpu_stack_incr)
        sp_offset = (t.rwc_sp + t.dest_sp_base) & 0x3FF
        addr = imm10 + t.dest_offset + sp_offset + (dst_offset & 3)
        if store:
            m.set_stack_pointer(t.rwc_sp + t.sfpu_stack_incr)
    else:
        sp_offset = (t.rwc_sp + t.dest_sp_base) & 0x3FF
        addr = imm10 + t.dest_offset + dst_offset + (sp_offset & 3)
    return addr & 0x3FF


_LANE_ROW, _LANE_COLUMN = LANE // 8, LANE & 7


def _dst_lanes(addr: int, col_exchange: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dst row and column each lane touches for an SFPLOAD/SFPSTORE address
    (read-only arrays, worked out once per address and exchange pattern)."""
    return _dst_lanes_of(addr, col_exchange.tobytes())


@functools.lru_cache(maxsize=8192)
def _dst_lanes_of(addr: int, col_exchange_bytes: bytes) -> tuple[np.ndarray, np.ndarray]:
    col_exchange = np.frombuffer(col_exchange_bytes, dtype=bool)
    rows = (_LANE_ROW + (addr & ~3)) & 0x3FF
    odd = col_exchange[_LANE_COLUMN] | bool(addr & 2)
    cols = _LANE_COLUMN * 2 + odd
    rows.flags.writeable = cols.flags.writeable = False
    return rows, cols


def resolve_mod0(m: "Machine", mod0: int) -> int:
    if mod0 == Mod0Fmt.SRCB:
        t = m.state.tensix
        return int(dfmt.resolve_srcb(t.fp32_dest, t.srcb_format))
    return mod0


@semantics("SFPLOAD")
def sfpload(m: "Machine", x: Operands) -> int:
    # With VD 8-15 it loads nothing and only steps the address counters: kernels' "dummy load"
    # idiom (tt-llk's reduce), so not a dropped write.
    return load(m, x.vd, x["mod0"], x["addr_mod"], x["imm10"])


def load(m: "Machine", vd: int, mod0: int, addr_mod: int, imm10: int) -> int:
    """SFPLOAD's effect; returns the Dst address it used (SFPLOADMACRO keeps it)."""
    st = m.state
    mod0 = resolve_mod0(m, mod0)
    addr = _dst_address(m, imm10, mod0)
    if vd < 8:
        rows, cols = _dst_lanes(addr, st.lane_config_bit(LaneConfigBit.DEST_RD_COL_EXCHANGE))
        active = ~st.lane_config_bit(LaneConfigBit.BLOCK_SFPU_RD_FROM_DEST)
        if not _some(active):
            m.silent("dst-access-blocked", "reads nothing: LaneConfig's BLOCK_SFPU_RD_FROM_DEST is set in every lane")
        if mod0 != Mod0Fmt.INT32_ALL:
            active &= st.lane_enabled()
        raw = m.dst_read(dfmt.dst_width(mod0, "load"), rows, cols)
        value = load_convert(mod0, raw, st.lregs[vd], st.lane_config_bit(LaneConfigBit.ENABLE_FP16A_INF),
                              arch=st.arch)
        m.write_lreg(vd, value, active)
        # The index capture writes no lane unless some lane has both bits (write_lreg skips an empty mask).
        if vd < 4 and st.lane_config_mask(LaneConfigBit.ENABLE_DEST_INDEX) \
                & st.lane_config_mask(LaneConfigBit.CAPTURE_DEFAULT_DEST_INDEX):
            capture = active & st.lane_config_bit(LaneConfigBit.ENABLE_DEST_INDEX) \
                & st.lane_config_bit(LaneConfigBit.CAPTURE_DEFAULT_DEST_INDEX)
            m.write_lreg(vd + 4, ((rows << 4) | cols).astype(U32), capture)
    m.apply_addr_mod(addr_mod)
    m.effects.load_address = addr
    return addr


@semantics("SFPLOADMACRO")
def sfploadmacro(m: "Machine", x: Operands) -> int:
    """The load part; the machine schedules the macro's instructions."""
    return load(m, x.ins.operand("vd"), x["mod0"], x["addr_mod"], x.ins.operand("imm10"))


@semantics("SFPLOADI")
def sfploadi(m: "Machine", x: Operands) -> None:
    mod0, imm = x["mod0"], x["imm16"]
    enabled = m.state.lane_enabled()
    # The Mod0 switch sits inside `if (VD < 8)` and the lane-enable test.
    if x.vd >= 8:
        m.writes_vd(x, x.vd)
        return
    if not _some(enabled):
        return
    if not x.ins.op.is_defined("mod0", mod0):
        m.undefined(f"SFPLOADI Mod0={mod0} is not a defined mode (defined: {x.ins.op.defined_values('mod0')})")
        return
    old = m.state.lregs[x.vd]
    if mod0 == 0:
        value = np.full(LANES, imm << 16, dtype=U32)
    elif mod0 == 1:
        s, e, man = imm >> 15, (imm >> 10) & 0x1F, imm & 0x3FF
        value = np.full(LANES, (s << 31) | ((e + 112) << 23) | (man << 13), dtype=U32)
    elif mod0 == 2:
        value = np.full(LANES, imm, dtype=U32)
    elif mod0 == 4:
        value = np.full(LANES, (imm - 0x10000 if imm & 0x8000 else imm) & 0xFFFFFFFF, dtype=U32)
    elif mod0 == 8:
        value = (old & U32(0x0000FFFF)) | U32(imm << 16)
    else:
        value = (old & U32(0xFFFF0000)) | U32(imm)
    m.write_lreg(x.vd, value, enabled)


# ---------------------------------------------------------------------------
# Store path
# ---------------------------------------------------------------------------

@semantics("SFPSTORE")
def sfpstore(m: "Machine", x: Operands) -> None:
    st = m.state
    mod0 = resolve_mod0(m, x["mod0"])
    # Under SFPLOADMACRO the address is the one the macro's load computed (and
    # the store does not move Blackhole's Sp).
    addr = x.store_addr if x.store_addr is not None else _dst_address(m, x["imm10"], mod0, store=True)
    rows, cols = _dst_lanes(addr, st.lane_config_bit(LaneConfigBit.DEST_WR_COL_EXCHANGE))
    unblocked = ~st.lane_config_bit(LaneConfigBit.BLOCK_DEST_WR_FROM_SFPU)
    active = unblocked & m.guard(x)
    width = dfmt.dst_width(mod0, "store")
    _report_silent_store(m, x, unblocked, active, width, rows)
    if mod0 != Mod0Fmt.INT32_ALL:
        active &= st.lane_enabled()
    value = store_convert(mod0, st.lregs[x.vd], arch=st.arch)
    m.dst_write(width, rows, cols, value, active)
    if not x.macro:
        m.apply_addr_mod(x["addr_mod"])


def _report_silent_store(m: "Machine", x: Operands, unblocked: np.ndarray, active: np.ndarray, width: int,
                         rows: np.ndarray) -> None:
    """What an SFPSTORE leaves undone (model.silent): blocked lanes, a store from
    L12-L15 through the open backdoor, half of each 32-bit datum."""
    if not _some(unblocked):
        m.silent("dst-access-blocked", "writes nothing: LaneConfig's BLOCK_DEST_WR_FROM_SFPU is set in every lane")
    elif not _some(active):
        m.silent("store-from-constant", f"stores nothing from L{x.vd}: DISABLE_BACKDOOR_LOAD is clear, so its word "
                 f"went into InstructionTemplate[{x.vd - 12}] instead")
    elif width == 16 and m.state.tensix.fp32_dest:
        physical = m.dst16_rows(rows)
        m.silent("store-half-datum", "writes 16-bit data into a Dst in 32-bit mode: "
                 + _halves_written(physical.dtype.str, physical.tobytes()))


@functools.lru_cache(maxsize=4096)
def _halves_written(dtype: str, rows: bytes) -> str:
    """`dfmt.halves_written` of DstBits rows given as bytes: a store repeats its
    addresses, and the message is made on every such store."""
    return dfmt.halves_written(np.frombuffer(rows, dtype=dtype))


# ---------------------------------------------------------------------------
# MAD sub-unit
# ---------------------------------------------------------------------------

def _fma(x: Operands, a: np.ndarray, b: np.ndarray, c: np.ndarray,
         negate_b: bool = False, negate_c: bool = False) -> np.ndarray:
    """The MAD sub-unit's a * b + c: Wormhole's FMA, or Blackhole's with the
    NEGATE_VB / NEGATE_VC modifiers applied to b and c first (a float
    negation, which flips the sign bit of any value, NaNs included).
    `negate_b`/`negate_c` say whether the instruction's Mod1 asks for it.
    The FMA is the one of the architecture's four FMA features
    (model.fma.FmaFeatures), as hdl/fma.py's is."""
    f = _features(x)
    if f.mad_negate:
        if negate_b:
            b = b ^ SIGN
        if negate_c:
            c = c ^ SIGN
    return fma_for(f)(a, b, c)


def _write_mad_result(m: "Machine", x: Operands, d: np.ndarray, indirect: bool) -> None:
    """To VD, or under INDIRECT_VD (unless VD is L16) to L[L7 & 15] per lane."""
    lanes = m.guard(x) & m.state.lane_enabled()
    if not indirect or x.vd == 16:
        if _writes_vd(m, x, x.vd):
            m.write_lreg(x.vd, d, lanes)
        return
    dest = (m.state.lregs[7] & U32(15)).astype(np.int64)
    for reg in np.unique(dest[lanes]):
        if _writes_vd(m, x, int(reg)):
            m.write_lreg(int(reg), d, lanes & (dest == reg))


@semantics("SFPMAD", "SFPADD", "SFPMUL")
def sfpmad(m: "Machine", x: Operands) -> None:
    lr = m.state.lregs
    mod1 = x["mod1"]
    d = _fma(x, _mad_va(m, x), lr[x.vb], lr[x.vc], bool(mod1 & MadMod1.NEGATE_VB), bool(mod1 & MadMod1.NEGATE_VC))
    _write_mad_result(m, x, d, bool(mod1 & MadMod1.INDIRECT_VD))


def _mad_va(m: "Machine", x: Operands) -> np.ndarray:
    """VA's value, per lane from L[L7 & 15] under INDIRECT_VA (SFPMAD, SFPMUL24)."""
    lr = m.state.lregs
    if x["mod1"] & MadMod1.INDIRECT_VA:
        return lr[(lr[7] & U32(15)).astype(np.int64), LANE]
    return lr[x["va"]]


def _bf16(imm16: int) -> np.ndarray:
    return np.full(LANES, imm16 << 16, dtype=U32)


@semantics("SFPADDI")
def sfpaddi(m: "Machine", x: Operands) -> None:
    d = _fma(x, _bf16(x["imm16"]), m.state.lregs[10], m.state.lregs[x.vc], negate_c=bool(x["mod1"] & MadMod1.NEGATE_VC))
    _write_mad_result(m, x, d, bool(x["mod1"] & MadMod1.INDIRECT_VD))


@semantics("SFPMULI")
def sfpmuli(m: "Machine", x: Operands) -> None:
    # Blackhole's NEGATE_VC negates VD's value, here the multiplicand.
    d = _fma(x, _bf16(x["imm16"]), m.state.lregs[x.vc], ZERO, negate_b=bool(x["mod1"] & MadMod1.NEGATE_VC))
    _write_mad_result(m, x, d, bool(x["mod1"] & MadMod1.INDIRECT_VD))



def _lut_result(m: "Machine", x: Operands, a: np.ndarray, b: np.ndarray, c: np.ndarray,
                sign_retain: bool) -> np.ndarray:
    d = _fma(x, a, b, c)
    if sign_retain:
        d = (d & ~SIGN) | (m.state.lregs[3] & SIGN)
    return d


@semantics("SFPLUT")
def sfplut(m: "Machine", x: Operands) -> None:
    mod0 = x["mod0"]
    lr = m.state.lregs
    a, c, b = sfplut_select(lr[3], lr[0], lr[1], lr[2])
    d = _lut_result(m, x, a, b, c, bool(mod0 & LutMod.SGN_RETAIN))
    _write_mad_result(m, x, d, bool(mod0 & MadMod1.INDIRECT_VD))


@semantics("SFPLUTFP32")
def sfplutfp32(m: "Machine", x: Operands) -> None:
    mod1 = x["mod1"]
    lr = m.state.lregs
    a, c, b = sfplutfp32_select(mod1, lr[3], lr[0], lr[1], lr[2], lr[4], lr[5], lr[6])
    d = _lut_result(m, x, a, b, c, bool(mod1 & LutMod.SGN_RETAIN))
    # Bit 3 is both INDIRECT_VD and part of the FP16_3ENTRY code, so that mode
    # always writes through L7 (a documented hardware flaw, kept in Blackhole;
    # its Mod1Mirror field only informs the stall logic).
    _write_mad_result(m, x, d, bool(mod1 & MadMod1.INDIRECT_VD))


# ---------------------------------------------------------------------------
# Simple sub-unit: arithmetic and bit manipulation
# ---------------------------------------------------------------------------

def _simple_write(m: "Machine", x: Operands, value: np.ndarray, lanes: np.ndarray | None = None) -> None:
    if _writes_vd(m, x, x.vd):
        en = m.state.lane_enabled() if lanes is None else lanes
        m.write_lreg(x.vd, value, en)


@semantics("SFPABS")
def sfpabs(m: "Machine", x: Operands) -> None:
    v = m.state.lregs[x.vc]
    neg = v >= SIGN
    if x["mod1"] & 1:   # FLOAT: clear the sign unless the value is a -NaN
        out = np.where(neg & (v <= U32(0xFF800000)), v & ~SIGN, v)
    else:               # INT: two's complement negate; 0x80000000 stays
        out = np.where(neg, (-v.astype(np.int64)).astype(U32), v)
    _simple_write(m, x, out)


@semantics("SFPAND")
def sfpand(m: "Machine", x: Operands) -> None:
    lr = m.state.lregs
    _simple_write(m, x, lr[x.vb] & lr[x.vc])


@semantics("SFPOR")
def sfpor(m: "Machine", x: Operands) -> None:
    lr = m.state.lregs
    _simple_write(m, x, lr[x.vb] | lr[x.vc])


@semantics("SFPXOR")
def sfpxor(m: "Machine", x: Operands) -> None:
    lr = m.state.lregs
    _simple_write(m, x, lr[x.vb] ^ lr[x.vc])


@semantics("SFPNOT")
def sfpnot(m: "Machine", x: Operands) -> None:
    _simple_write(m, x, ~m.state.lregs[x.vc])


def _clz32(v: np.ndarray) -> np.ndarray:
    """Leading zeros of 32-bit values (32 for 0). float64 holds every uint32
    exactly, so frexp's exponent is the bit length."""
    return 32 - np.frexp(v.astype(np.float64))[1].astype(np.int64)


def _refine_flags(m: "Machine", x: Operands, cond: np.ndarray | None, invert: bool) -> None:
    """The flag update of SFPIADD, SFPLZ and SFPEXEXP: only with VD < 8 and in enabled lanes."""
    if x.vd >= 8:
        return
    st = m.state
    en = st.lane_enabled()
    flags = st.lane_flags.copy()
    if cond is not None:
        flags = np.where(en, cond, flags)
    if invert:
        flags = np.where(en, ~flags, flags)
    m.write_flags(flags, st.use_flags)


@semantics("SFPLZ")
def sfplz(m: "Machine", x: Operands) -> None:
    mod1 = x["mod1"]
    c = m.state.lregs[x.vc].copy()       # the flag test below must see VC from before the write
    if mod1 & 4:
        c = c & ~SIGN
    if not _writes_vd(m, x, x.vd):
        return
    _simple_write(m, x, _clz32(c).astype(U32))
    _refine_flags(m, x, (c != 0) if mod1 & 2 else None, bool(mod1 & 8))


@semantics("SFPSHFT")
def sfpshft(m: "Machine", x: Operands) -> None:
    lr = m.state.lregs
    mod1 = x["mod1"]
    value = lr[x.vb]
    if mod1 & ShftMod1.ARG_IMM:
        amount = np.full(LANES, x["imm12"], dtype=np.int64)
        if _features(x).shft_arithmetic and mod1 & ShftMod1.ARG_IMM_USE_VC:
            value = lr[x.vc]             # VC shifted by Imm12
    else:
        amount = _s32(lr[x.vc]).astype(np.int64)
    _simple_write(m, x, _shift(value, amount, arithmetic=_features(x).shft_arithmetic and bool(mod1 & ShftMod1.ARITHMETIC)))


def _shift(value: np.ndarray, amount: np.ndarray, arithmetic: bool = False) -> np.ndarray:
    """Shift left for amount >= 0, right by -amount otherwise (both mod 32);
    the right shift is logical, or `arithmetic` (Blackhole's SFPSHFT)."""
    v = value.astype(np.uint64)
    left = (v << (amount & 31).astype(np.uint64)) & 0xFFFFFFFF
    right_by = ((-amount) & 31)
    if arithmetic:
        right = (_s32(value).astype(np.int64) >> right_by) & 0xFFFFFFFF
    else:
        right = v >> right_by.astype(np.uint64)
    return np.where(amount >= 0, left, right).astype(U32)


@semantics("SFPIADD")
def sfpiadd(m: "Machine", x: Operands) -> None:
    if not _writes_vd(m, x, x.vd):
        return
    lr = m.state.lregs
    mod1 = x["mod1"]
    c = lr[x.vc].astype(np.int64)
    if mod1 & 1:
        r = c + x["imm12"]
    elif mod1 & 2:
        r = c - lr[x.vb].astype(np.int64)
    else:
        r = c + lr[x.vb].astype(np.int64)
    r = (r & 0xFFFFFFFF).astype(U32)
    _simple_write(m, x, r)
    _refine_flags(m, x, None if mod1 & 4 else _s32(r) < 0, bool(mod1 & 8))


@semantics("SFPEXEXP")
def sfpexexp(m: "Machine", x: Operands) -> None:
    if not _writes_vd(m, x, x.vd):
        return
    mod1 = x["mod1"]
    e = ((m.state.lregs[x.vc] >> U32(23)) & U32(0xFF)).astype(np.int64) - (0 if mod1 & 1 else 127)
    _simple_write(m, x, (e & 0xFFFFFFFF).astype(U32))
    _refine_flags(m, x, (e < 0) if mod1 & 2 else None, bool(mod1 & 8))


@semantics("SFPEXMAN")
def sfpexman(m: "Machine", x: Operands) -> None:
    hidden = U32(0) if x["mod1"] & 1 else U32(0x800000)
    _simple_write(m, x, hidden + (m.state.lregs[x.vc] & U32(0x7FFFFF)))


@semantics("SFPSETEXP")
def sfpsetexp(m: "Machine", x: Operands) -> None:
    lr = m.state.lregs
    mod1 = x["mod1"]
    if mod1 & 1:
        exp = np.full(LANES, x["imm8"], dtype=U32)
    elif mod1 & 2:
        exp = (lr[x.vb] >> U32(23)) & U32(0xFF)
    else:
        exp = lr[x.vb] & U32(0xFF)
    _simple_write(m, x, (lr[x.vc] & U32(0x807FFFFF)) | (exp << U32(23)))


@semantics("SFPSETMAN")
def sfpsetman(m: "Machine", x: Operands) -> None:
    lr = m.state.lregs
    if x["mod1"] & 1:
        man = np.full(LANES, (x["imm12"] << 11) & 0x7FFFFF, dtype=U32)
    else:
        man = lr[x.vb] & U32(0x7FFFFF)
    _simple_write(m, x, (lr[x.vc] & U32(0xFF800000)) | man)


@semantics("SFPSETSGN")
def sfpsetsgn(m: "Machine", x: Operands) -> None:
    lr = m.state.lregs
    sign = np.full(LANES, x["imm1"] << 31, dtype=U32) if x["mod1"] & 1 else lr[x.vb] & SIGN
    _simple_write(m, x, (lr[x.vc] & ~SIGN) | sign)


@semantics("SFPDIVP2")
def sfpdivp2(m: "Machine", x: Operands) -> None:
    c = m.state.lregs[x.vc]
    exp = (c >> U32(23)) & U32(0xFF)
    if x["mod1"] & 1:
        new_exp = np.where(exp == 255, exp, (exp + U32(x["imm8"])) & U32(0xFF))
    else:
        new_exp = np.full(LANES, x["imm8"], dtype=U32)
    _simple_write(m, x, (c & U32(0x807FFFFF)) | (new_exp << U32(23)))


@semantics("SFPMOV")
def sfpmov(m: "Machine", x: Operands) -> None:
    st = m.state
    mod1, vc = x["mod1"], x.vc
    lanes = m.guard(x) & (ALL_LANES if mod1 == MovMod1.ALL_LANES_ENABLED else st.lane_enabled())
    if mod1 & MovMod1.FROM_SPECIAL:
        if vc < 4:
            value = st.macro_templates[vc]
        elif vc < 8:
            value = st.macro_sequences[vc - 4]
        elif vc == 8:
            value = st.macro_misc
        elif vc == 9:
            value = m.advance_prng(lanes)
        elif vc == 15:
            value = st.lane_config
        else:
            value = ZERO
    else:
        value = st.lregs[vc] ^ (SIGN if mod1 & MovMod1.NEGATE else U32(0))
    if _writes_vd(m, x, x.vd):
        m.write_lreg(x.vd, value, lanes)


@semantics("SFPCAST")
def sfpcast(m: "Machine", x: Operands) -> None:
    mode = x["mod1"] & 3
    if _features(x).cast_int_modes and mode >= CastMod1.INT32_ABS:
        # The integer modes: no backdoor guard, only VD < 8 or L16.
        c = m.state.lregs[x.vc]
        negative = c >= SIGN
        negated = (-c.astype(np.int64) & 0xFFFFFFFF).astype(U32)
        if mode == CastMod1.INT32_ABS:       # meant as something else; a two's complement |x|
            value = np.where(negative, negated, c)
        else:                            # INT32_SM32: two's complement <-> sign-magnitude
            value = (c & SIGN) | np.where(negative, negated, c)
        _simple_write(m, x, value)
        return
    lanes = m.guard(x) & m.state.lane_enabled()
    stochastic = bool(x["mod1"] & 1)
    prng = m.advance_prng(lanes) if stochastic else None
    value = cast_int_to_fp32(m.state.lregs[x.vc], stochastic, prng)
    if _writes_vd(m, x, x.vd):
        m.write_lreg(x.vd, value, lanes)


# ---------------------------------------------------------------------------
# Predication
# ---------------------------------------------------------------------------

@semantics("SFPSETCC")
def sfpsetcc(m: "Machine", x: Operands) -> None:
    st = m.state
    mod1 = x["mod1"]
    c = _s32(st.lregs[x.vc])
    if mod1 & 8:
        cond = np.zeros(LANES, dtype=bool)
    elif mod1 & 1:
        cond = np.full(LANES, bool(x["imm1"]))
    else:
        tests = {0: c < 0, 2: c != 0, 4: c >= 0, 6: c == 0}
        cond = tests[mod1]
    cond = cond & st.use_flags       # with predication off the flag becomes 0
    lanes = m.guard(x) & st.lane_enabled()
    m.write_flags(np.where(lanes, cond, st.lane_flags), st.use_flags)


@semantics("SFPENCC")
def sfpencc(m: "Machine", x: Operands) -> None:
    st = m.state
    mod1, imm2 = x["mod1"], x["imm2"]
    lanes = m.guard(x)
    use = st.use_flags
    if mod1 & 2:
        use = np.full(LANES, bool(imm2 & 1))
    elif mod1 & 1:
        use = ~use
    flags = np.full(LANES, bool(imm2 & 2)) if mod1 & 8 else np.ones(LANES, dtype=bool)
    m.write_flags(np.where(lanes, flags, st.lane_flags), np.where(lanes, use, st.use_flags))


@semantics("SFPPUSHC")
def sfppushc(m: "Machine", x: Operands) -> None:
    lanes = m.guard(x)
    if not _some(lanes):
        return
    mod1 = x.ins.get("mod1", 0)          # Wormhole has no Mod1: always a push
    if mod1 != 0:
        _sfppushc_mutate(m, mod1, lanes)
        return
    if len(m.state.flag_stack) >= 8:
        m.undefined("SFPPUSHC with the flag stack already holding 8 entries")
        return
    m.push_flags()


def _sfppushc_mutate(m: "Machine", mod1: int, lanes: np.ndarray) -> None:
    """Blackhole's SFPPUSHC with Mod1 != 0: replace or change the stack top
    (A) with the current flags (B) instead of pushing; Mod1 13 also inverts
    the current LaneFlags."""
    st = m.state
    if not st.flag_stack:
        m.undefined(f"SFPPUSHC Mod1={mod1} (change the stack top) on an empty flag stack")
        return
    top = st.flag_stack[-1]
    a, b = top.lane_flags, st.lane_flags
    if mod1 <= 12:
        flags, use = POPC_OPS[mod1](a, b), st.use_flags
    elif mod1 == 13:
        flags, use = ~b, st.use_flags
        m.write_flags(np.where(lanes, ~b, b), st.use_flags)
    else:
        flags, use = np.full(LANES, mod1 == 14), np.ones(LANES, dtype=bool)
    m.replace_stack_top(np.where(lanes, flags, a), np.where(lanes, use, top.use_flags))


POPC_OPS = {
    1: lambda a, b: b, 2: lambda a, b: ~b, 3: lambda a, b: a & b, 4: lambda a, b: a | b,
    5: lambda a, b: a & ~b, 6: lambda a, b: a | ~b, 7: lambda a, b: ~a & b, 8: lambda a, b: ~a | b,
    9: lambda a, b: ~a & ~b, 10: lambda a, b: ~a | ~b, 11: lambda a, b: a ^ b, 12: lambda a, b: a == b,
}


@semantics("SFPPOPC")
def sfppopc(m: "Machine", x: Operands) -> None:
    st = m.state
    mod1 = x["mod1"]
    lanes = m.guard(x)
    if not _some(lanes):
        return
    stack = st.flag_stack
    if mod1 == 0:
        if not stack:
            m.undefined("SFPPOPC (pop) on an empty flag stack")
            return
        top = m.pop_flags()
        m.write_flags(np.where(lanes, top.lane_flags, st.lane_flags), np.where(lanes, top.use_flags, st.use_flags))
        return
    if stack:
        top_flags, top_use = stack[-1].lane_flags, stack[-1].use_flags
    else:
        top_flags = top_use = np.zeros(LANES, dtype=bool)
    if len(stack) == 8 and _features(x).popc_full_flaw:
        # Wormhole flaw (fixed in Blackhole): with the stack full, a
        # non-popping SFPPOPC also copies the top entry over the bottom one.
        m.overwrite_stack_bottom()
    a = st.lane_flags
    if mod1 <= 12:
        flags, use = POPC_OPS[mod1](a, top_flags), top_use
    elif mod1 == 13:
        flags, use = ~a, st.use_flags
    elif mod1 == 14:
        flags, use = np.ones(LANES, dtype=bool), np.ones(LANES, dtype=bool)
    else:
        flags, use = np.zeros(LANES, dtype=bool), np.ones(LANES, dtype=bool)
    m.write_flags(np.where(lanes, flags, st.lane_flags), np.where(lanes, use, st.use_flags))


@semantics("SFPCOMPC")
def sfpcompc(m: "Machine", x: Operands) -> None:
    st = m.state
    lanes = m.guard(x)
    if st.flag_stack:
        top_flags, top_use = st.flag_stack[-1].lane_flags, st.flag_stack[-1].use_flags
    else:
        top_flags = top_use = np.ones(LANES, dtype=bool)
    flags = np.where(top_use & st.use_flags, top_flags & ~st.lane_flags, False)
    m.write_flags(np.where(lanes, flags, st.lane_flags), st.use_flags)


# ---------------------------------------------------------------------------
# Cross-lane movement
# ---------------------------------------------------------------------------

@semantics("SFPTRANSP")
def sfptransp(m: "Machine", x: Operands) -> None:
    """Each column of L0-L3 (and of L4-L7) is a 4x4 matrix, transposed: new
    L[b+r] grid row k = old L[b+k] grid row r, written only in enabled lanes."""
    st = m.state
    lanes = m.guard(x) & st.lane_enabled()
    for base in (0, 4):
        old = st.lregs[base:base + 4].reshape(4, 4, 8)       # [register, grid row, column]
        new = old.transpose(1, 0, 2).reshape(4, LANES)
        for r in range(4):
            m.write_lreg(base + r, new[r], lanes)


SWAP_VD_GETS_MIN = {0: 0, 1: 0xFFFFFFFF, 2: 0x0000FFFF, 3: 0x00FF00FF, 4: 0xFF0000FF,
                    5: 0x000000FF, 6: 0x0000FF00, 7: 0x00FF0000, 8: 0xFF000000}


def sign_mag_less(c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Total order on sign-magnitude (and so FP32) bit patterns: -NaN < -Inf < ... < -0 < +0 < ... < +NaN."""
    def key(v):
        s = _s32(v).astype(np.int64)
        return np.where(s < 0, s ^ 0x7FFFFFFF, s)
    return key(c) < key(d)


@semantics("SFPSWAP")
def sfpswap(m: "Machine", x: Operands) -> None:
    st = m.state
    mod1 = x["mod1"]
    vc, vd = x.vc, x.vd
    # Under SFPLOADMACRO the VD operand arrives through the VB port (see docs/).
    vd_src = x.vb if x.macro and x.vb is not None else vd
    c_val, d_val = st.lregs[vc].copy(), st.lregs[vd_src].copy()
    lanes = m.guard(x) & st.lane_enabled()
    if mod1 == 0:
        swap = np.ones(LANES, dtype=bool)
    else:
        gets_min = ((SWAP_VD_GETS_MIN.get(mod1, 0) >> LANE) & 1).astype(bool)
        less = sign_mag_less(c_val, d_val)
        swap = np.where(gets_min, less, ~less)
        swap ^= st.lane_config_bit(LaneConfigBit.EXCHANGE_SRCB_SRCC)
    swap &= lanes
    dest_index = st.lane_config_bit(LaneConfigBit.ENABLE_DEST_INDEX)
    plain = swap & ~dest_index
    indexed = swap & dest_index
    # With ENABLE_DEST_INDEX only L0-L3 receive values; L4-L7 carry the index payload.
    for mask, limit in ((plain, 8), (indexed, 4)):
        if not _some(mask):
            continue
        # With VC == VD the VC write lands last: the two values only differ
        # under a macro (VD's operand then comes through VB), and the fast-exp
        # kernel's clamp relies on the VC result (the maximum) being kept.
        if vd < limit:
            m.write_lreg(vd, c_val, mask)
        if vc < limit:
            m.write_lreg(vc, d_val, mask)
    if _some(indexed):
        vca, vda = 4 + (vc & 3), 4 + (vd & 3)
        a_val, b_val = st.lregs[vca].copy(), st.lregs[vda].copy()
        m.write_lreg(vca, b_val, indexed)
        m.write_lreg(vda, a_val, indexed)


_ROR1 = np.where(LANE & 7, LANE - 1, LANE + 7)   # source lane of a rotate right by one within each row of 8


def _captures_shft2_vc(x: Operands) -> bool:
    """Wormhole's modes 2 and 3 keep VC for mode 4's flaw; Blackhole, without
    the flaw, keeps nothing."""
    return (x.vd < 12 or x.macro) and _features(x).shft2_captured_vc


@semantics("SFPSHFT2")
def sfpshft2(m: "Machine", x: Operands) -> None:
    st = m.state
    lr = st.lregs
    mod1 = x["mod1"]
    en = st.lane_enabled()
    if mod1 in (Shft2Mod1.COPY4, Shft2Mod1.CHAINED_COPY4, Shft2Mod1.SHFLROR1_AND_COPY4):
        lanes = m.guard(x) & en
        old = lr[:4].copy()
        if mod1 == Shft2Mod1.COPY4:
            l3 = ZERO
        elif mod1 == Shft2Mod1.CHAINED_COPY4:
            l3 = np.concatenate([old[0][8:], np.zeros(8, dtype=U32)])
        else:
            vc_val = lr[x.vc].copy()
            if _captures_shft2_vc(x):
                m.capture_shft2_vc(vc_val)
            l3 = vc_val[_ROR1]
        for i, value in enumerate((old[1], old[2], old[3], l3)):
            m.write_lreg(i, value, lanes)
    elif mod1 == Shft2Mod1.SHFLROR1:
        lanes = m.guard(x) & en
        vc_val = lr[x.vc].copy()
        # The capture happens before, and regardless of, the lane-enable test.
        if _captures_shft2_vc(x):
            m.capture_shft2_vc(vc_val)
        if _writes_vd(m, x, x.vd):
            m.write_lreg(x.vd, vc_val[_ROR1], lanes)
    elif mod1 == Shft2Mod1.SHFLSHR1:
        vc_val = lr[x.vc]
        # Intended: zero enters lanes 0, 8, 16, 24, as on Blackhole. Wormhole
        # instead feeds them from the VC captured by the last mode-2/3 SFPSHFT2
        # (a hardware flaw).
        fill = st.shft2_captured_vc[(LANE + 7) % LANES] if _features(x).shft2_captured_vc else ZERO
        value = np.where(LANE & 7, vc_val[(LANE - 1) % LANES], fill)
        if _writes_vd(m, x, x.vd):
            m.write_lreg(x.vd, value, en)
    elif mod1 in (Shft2Mod1.SHFT_LREG, Shft2Mod1.SHFT_IMM):
        if mod1 == Shft2Mod1.SHFT_IMM:
            amount = np.full(LANES, x["imm12"], dtype=np.int64)
        else:
            amount = _s32(lr[x.vc]).astype(np.int64)
        if _writes_vd(m, x, x.vd):
            m.write_lreg(x.vd, _shift(lr[x.vb], amount), en)
    else:
        m.undefined(f"SFPSHFT2 Mod1={mod1} is not a defined mode (0-6)")


# ---------------------------------------------------------------------------
# Round sub-unit
# ---------------------------------------------------------------------------

@semantics("SFPSTOCHRND")
def sfpstochrnd(m: "Machine", x: Operands) -> None:
    lanes = m.guard(x) & m.state.lane_enabled()
    # The PRNG advances even when rounding to nearest.
    bits = m.advance_prng(lanes) & U32(0x7FFFFF)
    # Wormhole: a stochastic bit. Blackhole: a 2-bit mode; mode 3 has no case
    # in the page's switch, so it keeps the PRNG bits (stochastic).
    mode = x["rnd_mode"] if _features(x).round_mode_field else x["stochastic"]
    if mode == RoundMode.NEAREST:
        bits = np.full(LANES, 0x400000, dtype=U32)
    elif mode == RoundMode.ZERO:
        # Not quite toward zero: the `>=` compare still rounds away when the
        # discarded bits are all ones (a documented Blackhole flaw).
        bits = np.full(LANES, 0x7FFFFF, dtype=U32)
    value = stochrnd(x["mod1"], m.state.lregs[x.vc], bits, vb=m.state.lregs[x.vb],
                     imm5=x["imm5"], use_imm5=bool(x["use_imm5"]))
    if _writes_vd(m, x, x.vd):
        m.write_lreg(x.vd, value, lanes)


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------

def _combine(op: int, old: np.ndarray, value: np.ndarray) -> np.ndarray:
    return {0: value, 2: old | value, 4: old & value, 6: old ^ value}[op]


@semantics("SFPCONFIG")
def sfpconfig(m: "Machine", x: Operands) -> None:
    st = m.state
    mod1, imm16, vd = x["mod1"], x["imm16"], x.vd
    group = LANE & 7                       # lanes 0-7 of L0 and the flags broadcast
    lanes = np.ones(LANES, dtype=bool)
    if mod1 & ConfigMod1.LANE_MASK:
        lanes &= ((imm16 >> (2 * group)) & 1).astype(bool)
    lanes &= np.where(st.use_flags[group], st.lane_flags[group], True)
    l0 = st.lregs[0][group]
    value = np.full(LANES, imm16, dtype=U32) if mod1 & ConfigMod1.IMM16_IS_VALUE else l0
    if vd < 4:
        m.write_config("macro_templates", vd, l0, lanes)
    elif vd < 8:
        m.write_config("macro_sequences", vd - 4, value, lanes)
    elif vd == 8:
        m.write_config("macro_misc", None, _combine(mod1 & 6, st.macro_misc, value) & U32(MISC_MASK), lanes)
    elif 11 <= vd <= 14:
        if mod1 & ConfigMod1.IMM16_IS_VALUE and not mod1 & ConfigMod1.LANE_MASK and imm16:
            m.silent("config-constant-default", f"writes L{vd}'s default, not Imm16 = 0x{imm16:04X}: with "
                     "MOD1_IMM16_IS_VALUE a constant register takes its default")
        const = np.full(LANES, PROGRAMMABLE_CONST_DEFAULTS[vd], dtype=U32) if mod1 & ConfigMod1.IMM16_IS_VALUE else l0
        m.write_lreg(vd, const, lanes, constant=True)
    elif vd == 15:
        new = _combine(mod1 & 6, st.lane_config, value) & U32(0x3FFFF)
        if mod1 & ConfigMod1.IMM16_IS_VALUE:
            new = (new & U32(0xFFFF)) | (st.lane_config & U32(0x30000))
        m.write_config("lane_config", None, new, lanes)
    else:
        m.silent("config-selects-nothing", f"with VD = {vd} selects no target: nothing is written")


@semantics("SFPNOP")
def sfpnop(m: "Machine", x: Operands) -> None:
    pass


# ---------------------------------------------------------------------------
# Blackhole only
# ---------------------------------------------------------------------------

@semantics("SFPLE", "SFPGT")
def sfple_sfpgt(m: "Machine", x: Operands) -> None:
    """VD <= VC (SFPLE) or VD > VC (SFPGT) on sign-magnitude integers (the FP32
    total order), VD read through VB. The result goes to VD as -1 or 0
    (SET_VD) and to LaneFlags (SET_CC) in enabled lanes, and into the stack
    top's LaneFlags by AND or OR (MUTATE_STACK, MUTATE_OR) in every lane the
    backdoor guard passes, enabled or not."""
    st = m.state
    mod1 = x["mod1"]
    vc_less = sign_mag_less(st.lregs[x.vc], st.lregs[x.vb])
    result = ~vc_less if x.ins.mnemonic == "SFPLE" else vc_less
    guard = m.guard(x)
    lanes = guard & st.lane_enabled()
    if mod1 & CmpMod1.SET_VD and _writes_vd(m, x, x.vd):
        m.write_lreg(x.vd, np.where(result, U32(0xFFFFFFFF), U32(0)), lanes)
    if mod1 & CmpMod1.SET_CC:
        m.write_flags(np.where(lanes, result, st.lane_flags), st.use_flags)
    if mod1 & CmpMod1.MUTATE_STACK and st.flag_stack:
        top = st.flag_stack[-1]
        changed = top.lane_flags | result if mod1 & CmpMod1.MUTATE_OR else top.lane_flags & result
        m.replace_stack_top(np.where(guard, changed, top.lane_flags), top.use_flags)


@semantics("SFPMUL24")
def sfpmul24(m: "Machine", x: Operands) -> None:
    """The low 23 bits of VA * VB, or (UPPER) bits 45:23 of the product of
    their low 23 bits, then the FP adder's shift-add with VC (a no-op for
    VC = L9). INDIRECT_VA / INDIRECT_VD as SFPMAD."""
    lr = m.state.lregs
    mod1 = x["mod1"]
    product = mul24(_mad_va(m, x), lr[x.vb], upper=bool(mod1 & Mul24Mod1.UPPER))
    _write_mad_result(m, x, mul24_shift_add(product, lr[x.vc]), bool(mod1 & MadMod1.INDIRECT_VD))


@semantics("SFPARECIP")
def sfparecip(m: "Machine", x: Operands) -> None:
    """Approximate 1/|VC| or e**|VC| with VC's sign put back (RECIP, EXP and
    every Mod1 above 2), or 1/|VC| without the sign where VB is negative and
    VC unchanged elsewhere (COND_RECIP). No backdoor guard: VD must be L0-L7
    or L16."""
    if not _writes_vd(m, x, x.vd):
        return
    st = m.state
    c = st.lregs[x.vc]
    sign, magnitude = c & SIGN, c & ~SIGN
    mod1 = x["mod1"]
    if mod1 == ArecipMod1.RECIP:
        value = sign | approx_recip(magnitude)
    elif mod1 == ArecipMod1.COND_RECIP:
        value = np.where(_s32(st.lregs[x.vb]) < 0, approx_recip(magnitude), c)
    else:
        value = sign | approx_exp(magnitude)
    m.write_lreg(x.vd, value, st.lane_enabled())
