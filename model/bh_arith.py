"""Arithmetic of the instructions new in Blackhole A0: SFPMUL24's integer
product and the shift-add that follows it, and SFPARECIP's approximate
reciprocal and exponential.

Pure functions over numpy ``uint32`` arrays of any shape, written from the
functional models of tt-isa-documentation's BlackholeA0 SFPMUL24 and SFPARECIP
pages. SFPARECIP's lookup tables are data of the ISA table (`model.isa_tables`),
which the RTL reads too.
"""

from __future__ import annotations

import numpy as np

from .isa_tables import EXP_TABLE, RECIP_TABLE

__all__ = ["mul24", "mul24_shift_add", "approx_recip", "approx_exp"]

_U32 = np.uint32


def mul24(a, b, upper: bool) -> np.ndarray:
    """SFPMUL24's product: the low 23 bits of the 32-bit product ``a * b``, or
    (``upper``) bits 45:23 of the product of the low 23 bits of each."""
    a = np.asarray(a, dtype=np.uint64)
    b = np.asarray(b, dtype=np.uint64)
    if upper:
        m = np.uint64(0x7FFFFF)
        return (((a & m) * (b & m)) >> np.uint64(23)).astype(_U32)
    # The uint64 product wraps mod 2**64; only its low 23 bits are kept.
    return ((a * b) & np.uint64(0x7FFFFF)).astype(_U32)


def mul24_shift_add(p, z) -> np.ndarray:
    """Mul24ShiftAdd(p, z): what the reused FP adder does to SFPMUL24's product
    ``p`` with VC's value ``z``. Nothing when z's exponent is 0 (VC = L9, the
    constant 0, is the intended use); otherwise p is shifted right by
    ``max(129, e) - 129`` and z's mantissa (with hidden bit and three guard
    bits) shifted right by ``max(129, e) - e`` is added, plus 1 << 16 when that
    shift dropped bits above the low 16, all mod 2**23. Both shift counts are
    taken mod 32, as the page's model does."""
    p = np.asarray(p, dtype=np.int64)
    z = np.asarray(z, dtype=np.int64)
    p, z = np.broadcast_arrays(p, z)
    z_e = (z >> 23) & 0xFF
    r_e = np.maximum(129, z_e)
    s = (r_e - z_e) & 31
    z_m_grs = ((1 << 23) + (z & 0x7FFFFF)) << 3
    p_shifted = p >> ((r_e - 129) & 31)
    z_m = z_m_grs >> s
    dropped = ((z_m << s) ^ z_m_grs) > 0xFFFF
    summed = (p_shifted + z_m + (dropped.astype(np.int64) << 16)) & 0x7FFFFF
    out = np.where(z_m != 0, summed, p_shifted)
    return np.where(z_e != 0, out, p).astype(_U32)


def approx_recip(x) -> np.ndarray:
    """ApproxRecip of a non-negative FP32 value (sign already removed): +Inf
    below 2**-126, 0 from 2**126 up (Inf and NaN included), otherwise the
    exponent 253 - e with the table's 7 mantissa bits and 16 zero bits."""
    x = np.asarray(x, dtype=_U32).astype(np.int64)
    mid = ((253 - (x >> 23)) << 23) | (RECIP_TABLE[(x >> 16) & 0x7F] << 16)
    out = np.where(x < 0x00800000, 0x7F800000, np.where(x < 0x7E800000, mid, 0))
    return out.astype(_U32)


def approx_exp(x) -> np.ndarray:
    """ApproxExp of a non-negative FP32 value (sign already removed): 1.0
    below 2**-126; below 2**-6, 1.0 + 2**-7 with x's low 16 bits; below
    0.6953125, 1.0 with the table's bits at 22:16 and x's low 16 bits; below
    2.0, 2.0 with the table's bits (which may carry into the exponent) and x's
    low 16 bits; from 2.0 up (Inf and NaN included), 4.0 with x's low 16 bits."""
    x = np.asarray(x, dtype=_U32).astype(np.int64)
    low = x & 0xFFFF
    index = np.clip((x >> 16) - 0x3C80, 0, EXP_TABLE.size - 1)
    entry = EXP_TABLE[index] << 16
    out = np.select(
        [x < 0x00800000, x < 0x3C800000, x < 0x3F320000, x < 0x40000000],
        [0x3F800000, 0x3F810000 | low, 0x3F800000 | entry | low, 0x40000000 | entry | low],
        0x40800000 | low)
    return out.astype(_U32)
