"""Dst <-> LReg data conversions performed by SFPLOAD and SFPSTORE (Wormhole B0
and Blackhole A0: `load_convert` and `store_convert` take the architecture).

Ground truth: the SFPLOAD.md, SFPSTORE.md, Dst.md and Packers/FormatConversion.md
pages of tt-isa-documentation (jasondavies fork, e739ac0). Everything here is a
pure function over numpy arrays of any shape; every value, raw or LReg, is held
in a ``uint32`` array. A 16-bit Dst datum sits in the low 16 bits.

Conventions:
* "raw" means the bits as they sit in Dst (shuffled layout); "LReg" means the
  32-bit lane value.
* A Dst16b datum is one whole ``DstBits[r][c]``. A Dst32b datum ``v`` is
  split by the caller as ``DstBits[A][c] = v >> 16`` and
  ``DstBits[A + 8][c] = v & 0xFFFF``, with ``(A, A + 8) = dst32_rows(r)``.
  In the default configuration no store mode writes only part of a 32-bit Dst
  row, so `store_convert` returns only a value, and `dst_width` gives its
  width. (The debug option, bit 11 of RISCV_DEBUG_REG_DBG_FEATURE_DISABLE,
  which redirects Dst16b to the high half of Dst32b and writes undefined bits
  to the low half, is not modelled here.)
* MOD0_FMT_SRCB (0) must be resolved by the caller with `resolve_srcb`.
  The docs define every Mod0 from 1 to 15 for both SFPLOAD and SFPSTORE,
  so only 0 and out-of-range values are rejected.
"""

from __future__ import annotations

import functools

import numpy as np

from .isa import SRCB_AS_BF16, Arch, Mod0Fmt

__all__ = [
    "resolve_srcb",
    "shuffle_fp32",
    "unshuffle_fp32",
    "shuffle_bf16",
    "unshuffle_bf16",
    "shuffle_fp16",
    "unshuffle_fp16",
    "dst32_rows",
    "adj16",
    "adj32_base",
    "split_dst32",
    "join_dst32",
    "dst_width",
    "load_convert",
    "store_convert",
]


def resolve_srcb(fp32_dst_enabled: bool, srcb_format: int) -> Mod0Fmt:
    """Resolve MOD0_FMT_SRCB (SFPLOAD.md / SFPSTORE.md functional models).

    ``fp32_dst_enabled`` is ALU_ACC_CTRL_SFPU_Fp32_enabled; ``srcb_format`` is
    the 4-bit SrcB format the caller already picked (ALU_FORMAT_SPEC_REG_SrcB_val
    if SrcB_override is set, else ALU_FORMAT_SPEC_REG1_SrcB). Returns FP32 if
    Fp32_enabled, else BF16 for the codes of `isa.SRCB_AS_BF16` (FP32, TF32, BF16,
    BFP8, BFP4, BFP2, INT32, INT16), else FP16 (including the unassigned codes
    12 and 13).
    """
    srcb_format = int(srcb_format)
    if not 0 <= srcb_format <= 15:
        raise ValueError(f"SrcB data format {srcb_format} is not a 4-bit value")
    if fp32_dst_enabled:
        return Mod0Fmt.FP32
    return Mod0Fmt.BF16 if srcb_format in SRCB_AS_BF16 else Mod0Fmt.FP16


# ---------------------------------------------------------------------------
# Array helpers

_U32 = np.uint32


def _as_u32(x, name: str) -> np.ndarray:
    """Any integer array-like with values in 0..2**32-1, as uint32."""
    a = np.asarray(x)
    if a.dtype == np.uint32:
        return a
    if a.dtype.kind not in "ui":
        raise TypeError(f"{name} must be an integer array, not {a.dtype}")
    if a.size and (a.min() < 0 or a.max() > 0xFFFFFFFF):
        raise ValueError(f"{name} has values outside 0..0xFFFFFFFF")
    return a.astype(np.uint32)


def _as_u16(x, name: str) -> np.ndarray:
    """A uint32 array whose values must fit in 16 bits (a Dst16b datum)."""
    a = _as_u32(x, name)
    if a.size and a.max() > 0xFFFF:
        raise ValueError(f"{name} has values above 0xFFFF but is a 16-bit Dst datum")
    return a


def _out(a) -> np.ndarray:
    # Ops on 0-d arrays yield numpy scalars; hand back arrays consistently.
    return np.asarray(a, dtype=np.uint32)


def _neg(x: np.ndarray) -> np.ndarray:
    """Two's complement negation mod 2**32, without scalar-overflow warnings."""
    return ((np.uint64(1 << 32) - x.astype(np.uint64)) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _signmag_to_twos(x: np.ndarray) -> np.ndarray:
    """Sign + 31-bit magnitude -> two's complement; -0 becomes 0 (SignMagToTwosComp)."""
    mag = x & _U32(0x7FFFFFFF)
    return np.where((x >> _U32(31)) != 0, _neg(mag), mag).astype(np.uint32)


def _twos_to_signmag(x: np.ndarray) -> np.ndarray:
    """Two's complement -> sign + 31-bit magnitude (ToSignMag).

    -2**31 has no magnitude that fits; the doc's formula yields 0x80000000 (-0).
    """
    sign = x & _U32(0x80000000)
    mag = np.where(sign != 0, _neg(x), x).astype(np.uint32)
    return sign | (mag & _U32(0x7FFFFFFF))


# ---------------------------------------------------------------------------
# Bit permutations. "shuffle" goes from the IEEE-style field order used in
# LRegs (Sign, Exp, Man) to the order Dst stores (Sign, Man, Exp).

def shuffle_bf16(x) -> np.ndarray:
    """BF16 (S, E8, M7) -> Dst16b layout (S, M7, E8). BF16Shuffle in SFPSTORE.md."""
    x = _as_u16(x, "x")
    return _out((x & _U32(0x8000)) | ((x & _U32(0x7F)) << _U32(8)) | ((x >> _U32(7)) & _U32(0xFF)))


def unshuffle_bf16(x) -> np.ndarray:
    """Dst16b layout (S, M7, E8) -> BF16 (S, E8, M7). UnshuffleBF16 in SFPLOAD.md."""
    x = _as_u16(x, "x")
    return _out((x & _U32(0x8000)) | ((x & _U32(0xFF)) << _U32(7)) | ((x >> _U32(8)) & _U32(0x7F)))


def shuffle_fp16(x) -> np.ndarray:
    """FP16 (S, E5, M10) -> Dst16b layout (S, M10, E5). FP16Shuffle in SFPSTORE.md.

    Also the layout of Dst "Integer 8" (sign, 10-bit magnitude, exponent 16)."""
    x = _as_u16(x, "x")
    return _out((x & _U32(0x8000)) | ((x & _U32(0x3FF)) << _U32(5)) | ((x >> _U32(10)) & _U32(0x1F)))


def unshuffle_fp16(x) -> np.ndarray:
    """Dst16b layout (S, M10, E5) -> FP16 (S, E5, M10).

    SFPLOAD.md has no named function for this; ReadFP16 extracts the same fields."""
    x = _as_u16(x, "x")
    return _out((x & _U32(0x8000)) | ((x & _U32(0x1F)) << _U32(10)) | ((x >> _U32(5)) & _U32(0x3FF)))


def shuffle_fp32(x) -> np.ndarray:
    """FP32 (S, E8, M23) -> Dst32b layout (S, M[22:16], E8, M[15:0]).

    FP32Shuffle in SFPSTORE.md: the BF16 shuffle of the high half, low half kept."""
    x = _as_u32(x, "x")
    return _out((shuffle_bf16(x >> _U32(16)) << _U32(16)) | (x & _U32(0xFFFF)))


def unshuffle_fp32(x) -> np.ndarray:
    """Dst32b layout -> FP32. UnshuffleFP32 in SFPLOAD.md (inverse of shuffle_fp32)."""
    x = _as_u32(x, "x")
    return _out((unshuffle_bf16(x >> _U32(16)) << _U32(16)) | (x & _U32(0xFFFF)))


# ---------------------------------------------------------------------------
# Dst geometry

def dst32_rows(r):
    """Physical DstBits rows behind Dst32b row ``r`` (Dst.md).

    Returns ``(A, A + 8)`` with ``A = ((r & 0x1F8) << 1) | (r & 0x207)``: the high
    16 bits live in row A, the low 16 bits in row A + 8. ``r`` stays a 10-bit
    index (0..1023) but only 512 distinct A occur. Works on ints or arrays.
    """
    ra = np.asarray(r)
    if ra.dtype.kind not in "ui":
        raise TypeError("Dst32b row index must be an integer")
    if ra.size and (ra.min() < 0 or ra.max() > 1023):
        raise ValueError("Dst32b row index must be in 0..1023")
    a = ((ra & 0x1F8) << 1) | (ra & 0x207)
    if a.ndim == 0:
        return int(a), int(a) + 8
    return a, a + 8


def halves_written(physical_rows) -> str:
    """Which half of which Dst32b datum each 16-bit write to these DstBits rows
    lands in, when Dst holds 32-bit data (Dst.md: Dst32b row R is DstBits rows
    A and A + 8, A = ((R & 0x1F8) << 1) | (R & 0x207); a row with bit 3 clear
    is some datum's high half, with bit 3 set its low half)."""
    rows = sorted({int(r) for r in np.asarray(physical_rows).ravel()})

    def datum(row: int) -> int:
        a = row & ~8
        return ((a >> 1) & 0x1F8) | (a & 0x207)

    def span(rs: list[int]) -> str:
        ds = sorted({datum(r) for r in rs})
        return f"Dst32b row {ds[0]}" if len(ds) == 1 else f"Dst32b rows {ds[0]}-{ds[-1]}" \
            if ds[-1] - ds[0] + 1 == len(ds) else f"Dst32b rows {', '.join(map(str, ds))}"
    high = [r for r in rows if not r & 8]
    low = [r for r in rows if r & 8]
    parts = ([f"the high 16 bits of {span(high)}"] if high else []) + \
        ([f"the low 16 bits of {span(low)}"] if low else [])
    return " and ".join(parts) + "; the other half of each keeps its old bits"


def adj16(r, remap_addrs: bool):
    """Blackhole's Adj16 (Dst.md): the DstBits row behind Dst16b row ``r``.
    With DEST_ACCESS_CFG_remap_addrs bits 5:4 move down one place and bit 3
    moves up to bit 5; without it (and on Wormhole) the row is ``r``."""
    r = np.asarray(r)
    if not remap_addrs:
        return r
    return (r & 0x3C7) ^ ((r & 0x030) >> 1) ^ ((r & 0x008) << 2)


def adj32_base(r, remap_addrs: bool, swizzle_32b: bool):
    """Blackhole's Adj32 (Dst.md) before the Dst32b row split: Adj16, then with
    DEST_ACCESS_CFG_swizzle_32b bits 4:3 move down one place and bit 2 moves up
    to bit 3. `dst32_rows` of the result gives the two DstBits rows."""
    r = adj16(r, remap_addrs)
    if not swizzle_32b:
        return r
    return (r & 0x3F3) ^ ((r & 0x018) >> 1) ^ ((r & 0x004) << 1)


def split_dst32(v) -> tuple[np.ndarray, np.ndarray]:
    """Dst32b datum -> (bits for row A, bits for row A + 8) = (high 16, low 16)."""
    v = _as_u32(v, "v")
    return _out(v >> _U32(16)), _out(v & _U32(0xFFFF))


def join_dst32(hi, lo) -> np.ndarray:
    """(DstBits[A], DstBits[A + 8]) -> Dst32b datum (Dst.md read rule)."""
    return _out((_as_u16(hi, "hi") << _U32(16)) | _as_u16(lo, "lo"))


# ---------------------------------------------------------------------------
# Mode tables

_M = Mod0Fmt

# Dst view each mode reads (SFPLOAD.md) or writes (SFPSTORE.md). LO16 and HI16
# differ: the load reads Dst16b, the store writes a whole Dst32b datum.
# ZERO loads read nothing; 16 is reported so callers can treat it uniformly.
_LOAD_WIDTH = {
    _M.FP16: 16, _M.BF16: 16, _M.FP32: 32, _M.INT32: 32, _M.INT8: 16, _M.UINT16: 16,
    _M.HI16: 16, _M.INT16: 16, _M.LO16: 16, _M.INT32_ALL: 32, _M.ZERO: 16,
    _M.INT32_SM: 32, _M.INT8_COMP: 16, _M.LO16_ONLY: 16, _M.HI16_ONLY: 16,
}
_STORE_WIDTH = {**_LOAD_WIDTH, _M.LO16: 32, _M.HI16: 32}


def _check_mod0(mod0) -> Mod0Fmt:
    try:
        m = int(mod0)
    except (TypeError, ValueError):
        raise ValueError(f"Mod0 {mod0!r} is not an integer") from None
    if m == Mod0Fmt.SRCB:
        raise ValueError("Mod0 MOD0_FMT_SRCB (0) must be resolved with resolve_srcb() first")
    if not 0 <= m <= 15:
        raise ValueError(f"Mod0 {m} is not a defined SFPLOAD/SFPSTORE format (must be 1..15)")
    return Mod0Fmt(m)


@functools.lru_cache(maxsize=64)      # on every SFPLOAD and SFPSTORE; `_check_mod0` costs more than the answer
def dst_width(mod0: int, op: str) -> int:
    """16 if ``op`` ("load" or "store") with this Mod0 accesses Dst16b, 32 for Dst32b.

    Taken from the switch statements of the SFPLOAD.md / SFPSTORE.md models.
    The direction matters: LO16 (9) and HI16 (7) load from Dst16b but store a
    full Dst32b datum.
    """
    m = _check_mod0(mod0)
    if op == "load":
        return _LOAD_WIDTH[m]
    if op == "store":
        return _STORE_WIDTH[m]
    raise ValueError(f"op must be 'load' or 'store', not {op!r}")


# ---------------------------------------------------------------------------
# SFPLOAD

def _read_fp16(d: np.ndarray, inf_en: np.ndarray) -> np.ndarray:
    """ReadFP16: rebias E by +112 when E != 0, and leave E = 0 as an FP32 denormal
    (arithmetic flushes it later). If ENABLE_FP16A_INF is set, the pattern with
    E = 31 and M = 0x3FF (the largest value) becomes +-Inf."""
    u = unshuffle_fp16(d)
    sign = u >> _U32(15)
    exp = (u >> _U32(10)) & _U32(0x1F)
    man = u & _U32(0x3FF)
    is_inf = inf_en & (exp == 31) & (man == 0x3FF)
    exp = np.where(exp != 0, exp + _U32(112), exp)
    exp = np.where(is_inf, _U32(255), exp).astype(np.uint32)
    man = np.where(is_inf, _U32(0), man).astype(np.uint32)
    return (sign << _U32(31)) | (exp << _U32(23)) | (man << _U32(13))


def load_convert(mod0: int, raw, old_lreg=None, enable_fp16a_inf=False, *, arch: Arch) -> np.ndarray:
    """Raw Dst datum -> 32-bit LReg value, as in SFPLOAD.md's functional model.

    ``raw`` is a Dst16b datum (must fit in 16 bits) or a Dst32b datum, as
    ``dst_width(mod0, "load")`` says. ``old_lreg`` (the previous LReg[VD]) is
    required for LO16_ONLY / HI16_ONLY, which keep half of it.
    ``enable_fp16a_inf`` is the per-lane LaneConfig.ENABLE_FP16A_INF (bool or
    bool array broadcastable with ``raw``); only FP16 uses it. Inputs broadcast.

    Modes: FP16 -> ReadFP16; BF16 -> unshuffle << 16; FP32/INT32/INT32_ALL ->
    unshuffle_fp32 (bit-exact); INT32_SM -> unshuffle then sign-magnitude to
    two's complement (-0 -> 0); INT8 -> sign << 31 | bits 11:5 (7-bit
    magnitude; bits 14:12 and 4:0 ignored); INT8_COMP -> 10-bit magnitude (bits
    14:5) with sign, to two's complement; INT16 -> sign << 31 | bits 14:0;
    UINT16/LO16 -> zero-extend; HI16 -> raw << 16; LO16_ONLY -> old high half |
    raw; HI16_ONLY -> raw << 16 | old low half; ZERO -> 0 (raw is ignored).

    Blackhole: INT8 has an 8-bit magnitude (bits 12:5, range +-255); the
    deprecated INT32_SM and INT8_COMP no longer convert to two's complement
    (INT32_SM loads as INT32, INT8_COMP as the 10-bit sign-magnitude value).
    """
    f = arch.features
    m = _check_mod0(mod0)
    if m == _M.ZERO:
        return np.zeros(np.shape(raw), dtype=np.uint32)
    if _LOAD_WIDTH[m] == 16:
        d = _as_u16(raw, "raw")
    else:
        d = _as_u32(raw, "raw")

    if m == _M.FP16:
        inf_en = np.asarray(enable_fp16a_inf, dtype=bool)
        return _out(_read_fp16(d, inf_en))
    if m == _M.BF16:
        return _out(unshuffle_bf16(d) << _U32(16))
    if m in (_M.FP32, _M.INT32, _M.INT32_ALL):
        return unshuffle_fp32(d)
    if m == _M.INT32_SM:
        return _out(_signmag_to_twos(unshuffle_fp32(d))) if f.dst_signmag_convert else unshuffle_fp32(d)
    sign31 = (d >> _U32(15)) << _U32(31)
    if m == _M.INT8:
        return _out(sign31 | ((d >> _U32(5)) & _U32((1 << f.dst_int8_bits) - 1)))
    if m == _M.INT8_COMP:
        signmag = sign31 | ((d >> _U32(5)) & _U32(0x3FF))
        return _out(_signmag_to_twos(signmag) if f.dst_signmag_convert else signmag)
    if m == _M.INT16:
        return _out(sign31 | (d & _U32(0x7FFF)))
    if m in (_M.UINT16, _M.LO16):
        return _out(d)
    if m == _M.HI16:
        return _out(d << _U32(16))
    # LO16_ONLY / HI16_ONLY merge with the old LReg contents.
    if old_lreg is None:
        raise ValueError(f"Mod0 {m.name} ({int(m)}) needs old_lreg: it keeps half of LReg[VD]")
    old = _as_u32(old_lreg, "old_lreg")
    if m == _M.LO16_ONLY:
        return _out((old & _U32(0xFFFF0000)) | d)
    return _out((d << _U32(16)) | (old & _U32(0xFFFF)))   # HI16_ONLY


# ---------------------------------------------------------------------------
# SFPSTORE

def _to_fp16(x: np.ndarray) -> np.ndarray:
    """ToFP16: rebias E by -112; E <= 0 flushes to signed zero (denormals and tiny
    values); E > 31 (including Inf/NaN) saturates to E = 31, M = all ones; then
    the mantissa is truncated. Dst FP16 has no Inf/NaN, so 0x7FFF is a huge
    finite value."""
    sign = x >> _U32(31)
    exp = ((x >> _U32(23)) & _U32(0xFF)).astype(np.int64) - 112
    man = x & _U32(0x7FFFFF)
    under = exp <= 0
    over = exp > 31
    exp = np.where(under, 0, np.where(over, 31, exp)).astype(np.uint32)
    man = np.where(under, _U32(0), np.where(over, _U32(0x7FFFFF), man)).astype(np.uint32)
    return (sign << _U32(15)) | (exp << _U32(10)) | (man >> _U32(13))


def _to_bf16(x: np.ndarray) -> np.ndarray:
    """ToBF16: an exponent of 0 clears the mantissa (signed zero), then the low 16
    bits are truncated. A NaN whose payload is only in those bits becomes Inf."""
    keep = np.where((x & _U32(0x7F800000)) == 0, _U32(0x80000000), _U32(0xFFFFFFFF)).astype(np.uint32)
    return (x & keep) >> _U32(16)


def _signmag11_to_int8(x: np.ndarray) -> np.ndarray:
    """SignMag11ToFP16: sign bit 31 and magnitude bits 9:0, exponent fixed at 16.
    Magnitude bits 30:10 are dropped. Output is in IEEE FP16 field order."""
    return ((x >> _U32(31)) << _U32(15)) | _U32(16 << 10) | (x & _U32(0x3FF))


def _flush_fp32(x: np.ndarray) -> np.ndarray:
    """Blackhole's ToFP32: an exponent of 0 clears the mantissa (signed zero)."""
    return np.where((x & _U32(0x7F800000)) == 0, x & _U32(0x80000000), x).astype(np.uint32)


def store_convert(mod0: int, lreg_value, *, arch: Arch) -> np.ndarray:
    """32-bit LReg value -> raw Dst datum, as in SFPSTORE.md's functional model.

    The result is a whole Dst16b datum (fits in 16 bits) or a whole Dst32b datum,
    as ``dst_width(mod0, "store")`` says. Every mode writes its whole datum, so
    no mask is needed (split a Dst32b datum with `split_dst32`).

    Modes: FP16 -> ToFP16 then FP16 shuffle; BF16 -> ToBF16 then BF16 shuffle;
    FP32/INT32/INT32_ALL -> shuffle_fp32 (no denormal flush); INT32_SM -> two's
    complement to sign-magnitude then shuffle_fp32 (-2**31 becomes -0);
    INT8 -> sign, 10-bit magnitude, exponent 16, FP16 shuffle; INT8_COMP ->
    two's complement to sign-magnitude first, then as INT8; INT16 -> sign << 15 |
    bits 14:0; UINT16/LO16_ONLY -> low 16 bits; HI16_ONLY -> high 16 bits;
    LO16 -> Dst32b rotated by 16 (low half goes to row A); HI16 -> Dst32b
    unchanged (no shuffle); ZERO -> Dst16b 0.

    Blackhole: FP32 flushes denormals to signed zero first (INT32 and
    INT32_ALL still store the bits as they are); the deprecated INT32_SM and
    INT8_COMP no longer convert from two's complement (INT32_SM stores as
    INT32, INT8_COMP as INT8).
    """
    m = _check_mod0(mod0)
    x = _as_u32(lreg_value, "lreg_value")
    if m == _M.FP32 and arch.features.store_fp32_flush:
        return shuffle_fp32(_flush_fp32(x))
    if not arch.features.dst_signmag_convert:
        if m == _M.INT32_SM:
            m = _M.INT32
        elif m == _M.INT8_COMP:
            m = _M.INT8
    if m == _M.FP16:
        return shuffle_fp16(_to_fp16(x))
    if m == _M.BF16:
        return shuffle_bf16(_to_bf16(x))
    if m in (_M.FP32, _M.INT32, _M.INT32_ALL):
        return shuffle_fp32(x)
    if m == _M.INT32_SM:
        return shuffle_fp32(_twos_to_signmag(x))
    if m == _M.INT8:
        return shuffle_fp16(_signmag11_to_int8(x))
    if m == _M.INT8_COMP:
        return shuffle_fp16(_signmag11_to_int8(_twos_to_signmag(x)))
    if m == _M.INT16:
        return _out(((x >> _U32(31)) << _U32(15)) | (x & _U32(0x7FFF)))
    if m in (_M.UINT16, _M.LO16_ONLY):
        return _out(x & _U32(0xFFFF))
    if m == _M.HI16_ONLY:
        return _out(x >> _U32(16))
    if m == _M.LO16:
        return _out((x << _U32(16)) | (x >> _U32(16)))
    if m == _M.HI16:
        return _out(x)
    return np.zeros(x.shape, dtype=np.uint32)   # ZERO

