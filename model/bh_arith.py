"""Arithmetic of the instructions new in Blackhole A0: SFPMUL24's integer
product and the shift-add that follows it, and SFPARECIP's approximate
reciprocal and exponential.

Pure functions over numpy ``uint32`` arrays of any shape, written from the
functional models of tt-isa-documentation's BlackholeA0 SFPMUL24 and SFPARECIP
pages. The two tables are the pages' lookup tables, stored as hex bytes.
"""

from __future__ import annotations

import numpy as np

__all__ = ["mul24", "mul24_shift_add", "approx_recip", "approx_exp", "RECIP_TABLE", "EXP_TABLE"]

_U32 = np.uint32

#: ApproxRecip's table: the 7 mantissa bits of 1/x (one exponent down) for
#: each value of x's top 7 mantissa bits.
RECIP_TABLE = np.frombuffer(bytes.fromhex(
    "7f7d7b7977757472706e6d6b696866646361605e5d5b5a585755545351504f4d4c4b4a48474645444241403f3e3d3c3b"
    "3a393837363534333231302f2e2d2c2b2a2928282726252423232221201f1f1e1d1c1c1b1a1919181717161515141313"
    "121111100f0f0e0e0d0c0c0b0b0a090908080707060505040403030202010100"), dtype=np.uint8).astype(np.int64)

#: ApproxExp's table, indexed by (x >> 16) - 0x3C80 for 2**-6 <= x < 2: the
#: top mantissa bits of e**x (below 0.6953125 relative to 1.0, above it
#: relative to 2.0, where a value above 127 carries into the exponent).
EXP_TABLE = np.frombuffer(bytes.fromhex(
    "020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202"
    "020202020202020202020202020203030303030303030303030303030303030303030303030303030303030303030303"
    "030303030303030303030303030303030303030303030303030303030304040404040404040404040404040404040404"
    "040404040404040404040404040505050505050505050505050505050505050505050505050505050505050506060606"
    "060606060606060606060606060606060606060606060606060606070707070707070707070707070707070707070707"
    "070707070707070707080808080808080808080808080808080808080909090909090909090909090909090a0a0a0a0a"
    "0a0a0a0a0a0a0a0a0a0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0d0d0d0d0d0d0d0d0d"
    "0d0d0d0d0d0e0e0e0e0e0e0e0e0e0e0e0e0e0e0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f1010101010101010101010101010"
    "111111111111111212121212121213131313131313141414141414141515151515151516161616161616171717171717"
    "18181818181818191919191919191a1a1a1a1a1a1b1b1b1b1b1b1b1c1c1c1c1c1c1c1d1d1d1d1d1d1e1e1e1e1e1e1e1f"
    "1f1f1f1f1f20202020202021212121212121222222222222232323232323242424242425252526262627272728282829"
    "29292a2a2a2b2b2b2c2c2c2d2d2d2e2e2e2f2f2f30303131313232323333333434343535353636363737383838393939"
    "3a3a3a3b3b3c3c3c3d3d3d3e3e3f3f3f40404041414242424343434444454545464647474748484849494a4a4a4b4b4c"
    "4c4c4d4d4e4e4e4f4f505050515152525353545556575858595a5b5c5d5e5e5f60616263646565666768696a6b6c6d6e"
    "6f70717172737475767778797a7b7c7d7e7f000001010202030304040505060607080809090a0a0b0b0c0c0d0d0e0f0f"
    "10101111121313141415151617171818191a1a1b1b1c1d1d1e1f1f202021222223242425262627272829292a2b2b2c2d"
    "2d2f303233343637393a3c3d3f404243454648494b4c4e5051535556585a5b5d5f61626466686a6b6d6f71737577797b"
    "7d7f808182838485868788898b8c8d8e8f9091929395969798999b9c9d9e9fa1a2a3a5a6a7a8aaabacaeafb1b2b3b5b6"
    "b8b9bbbcbdbfc0c2c4c5c7c8cacbcdcfd0d2d3d5d7d8dadcdedfe1e3e5e6e8ea"), dtype=np.uint8).astype(np.int64)

assert RECIP_TABLE.size == 128 and EXP_TABLE.size == 896


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
