"""Coefficient decoding and table selection for SFPLUT and SFPLUTFP32 (spec 4.4, 4.5).

Both instructions compute ``d = A * b + C`` on the MAD unit with
``b = |L3|``.  This module only works out ``A``, ``C`` and ``b`` per lane;
the multiply-add, SGN_RETAIN and INDIRECT_VD are the instruction
semantics' business (the decode helpers below report those flags).

The range tests (``b < 1.0`` and friends) are float comparisons of a
non-negative value, done here as unsigned compares of FP32 bit patterns,
which agree with IEEE ordering for non-negative values.  A NaN ``b`` has
a pattern above every threshold, so it fails every ``<`` and selects the
last entry, as the documentation's functional model does.

All functions are pure and vectorised over numpy ``uint32`` arrays of any
(broadcast-compatible) shape; results are FP32 bit patterns.
"""

from __future__ import annotations

import numpy as np

from .isa import LutFp32Table, LutMod, MadMod1

__all__ = [
    "lut8_to_fp32",
    "lut16_to_fp32",
    "sfplut_decode_mod0",
    "sfplut_select",
    "LutFp32Table",
    "sfplutfp32_decode_mod1",
    "sfplutfp32_select",
]

_U32 = np.uint32

# FP32 bit patterns of the range boundaries.
_FP32_0_5 = 0x3F000000
_FP32_1_0 = 0x3F800000
_FP32_1_5 = 0x3FC00000
_FP32_2_0 = 0x40000000
_FP32_3_0 = 0x40400000
_FP32_4_0 = 0x40800000


def _u32(x) -> np.ndarray:
    return np.asarray(x, dtype=_U32)


# ---------------------------------------------------------------------------
# Coefficient formats
# ---------------------------------------------------------------------------

def lut8_to_fp32(byte) -> np.ndarray:
    """Decode SFPLUT's 8-bit coefficient format to FP32 bits.

    Only the low 8 bits of each element are used.  ``0xFF`` is 0.0 (the only
    zero); any other byte is ``s:1 e:3 m:4`` meaning
    ``(-1)^s * 2^-e * (1 + m/16)``, so the range is 0.0078125 .. 1.9375 and
    ``0x7F`` is the ordinary value +0.0151367...
    """
    b = _u32(byte) & _U32(0xFF)
    sign = (b >> _U32(7)) << _U32(31)
    exp = _U32(127) - ((b >> _U32(4)) & _U32(7))
    man = (b & _U32(0xF)) << _U32(19)
    out = sign | (exp << _U32(23)) | man
    return np.where(b == _U32(0xFF), _U32(0), out).astype(_U32)


def lut16_to_fp32(half) -> np.ndarray:
    """Decode SFPLUTFP32's 16-bit coefficient format to FP32 bits.

    Only the low 16 bits of each element are used.  Fields as IEEE FP16
    (``s:1 e:5 m:10``) but decoded as ``s<<31 | E<<23 | m<<13`` with
    ``E = e + 112`` for ``e`` in 0..30 and ``E = 0`` for ``e == 31``:

    * ``e == 0`` is *not* denormal: it is ``(1 + m/1024) * 2^-15``;
    * ``e == 31`` gives a signed zero or FP32 denormal (the MAD reads it as 0),
      not Inf/NaN.
    """
    h = _u32(half) & _U32(0xFFFF)
    sign = (h >> _U32(15)) << _U32(31)
    e = (h >> _U32(10)) & _U32(0x1F)
    man = (h & _U32(0x3FF)) << _U32(13)
    exp = np.where(e == _U32(31), _U32(0), e + _U32(112))
    return (sign | (exp << _U32(23)) | man).astype(_U32)


def _abs_l3(l3) -> np.ndarray:
    return _u32(l3) & _U32(0x7FFFFFFF)


def _base_index(b: np.ndarray) -> np.ndarray:
    """i = 0 if b < 1.0, 1 if b < 2.0, else 2 (NaN -> 2)."""
    return np.where(b < _U32(_FP32_1_0), 0, np.where(b < _U32(_FP32_2_0), 1, 2))


def _pick3(i: np.ndarray, r0, r1, r2) -> np.ndarray:
    r0, r1, r2 = _u32(r0), _u32(r1), _u32(r2)
    return np.where(i == 0, r0, np.where(i == 1, r1, r2)).astype(_U32)


# ---------------------------------------------------------------------------
# SFPLUT
# ---------------------------------------------------------------------------

def sfplut_decode_mod0(mod0: int) -> tuple[bool, bool]:
    """``(sgn_retain, indirect_vd)`` from SFPLUT's Mod0.  Bits 0-1 have no effect."""
    mod0 = int(mod0)
    if not 0 <= mod0 <= 15:
        raise ValueError(f"SFPLUT Mod0 {mod0!r} is not a 4-bit value")
    return bool(mod0 & LutMod.SGN_RETAIN), bool(mod0 & MadMod1.INDIRECT_VD)


def sfplut_select(l3, l0, l1, l2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SFPLUT operands per lane: returns ``(A, C, b)`` as FP32 bits.

    ``l3`` may be the raw L3 lanes or already ``|L3|`` (the sign bit is
    cleared here).  The coefficient register is L0 for ``b < 1.0``, L1 for
    ``b < 2.0`` and L2 otherwise (including NaN); ``A`` is the LUT8 value in
    its bits 15..8 and ``C`` the one in bits 7..0.  Mod0 does not affect the
    selection.
    """
    b = _abs_l3(l3)
    coeffs = _pick3(_base_index(b), l0, l1, l2)
    a = lut8_to_fp32(coeffs >> _U32(8))
    c = lut8_to_fp32(coeffs)
    a, c, b = np.broadcast_arrays(a, c, b)
    return a.copy(), c.copy(), b.copy()


# ---------------------------------------------------------------------------
# SFPLUTFP32
# ---------------------------------------------------------------------------

def sfplutfp32_decode_mod1(mod1: int) -> tuple[LutFp32Table, bool, bool]:
    """``(table, sgn_retain, indirect_vd)`` for every 4-bit Mod1 (Sept-2025 decode).

    * bit 1 clear (0, 1, 4, 5, 8, 9, 12, 13): FP32_3ENTRY;
    * bits 1 and 3 set (10, 11, 14, 15): FP16_3ENTRY -- and, since bit 3 is
      also INDIRECT_VD, that mode always writes to ``L[L7 & 15]``
      (documented hardware bug);
    * bit 1 set, bit 3 clear: FP16_6ENTRY_TABLE2 if bit 0 is set (3, 7),
      else FP16_6ENTRY_TABLE1 (2, 6).

    Bit 0 has no effect outside the 6-entry modes.
    """
    mod1 = int(mod1)
    if not 0 <= mod1 <= 15:
        raise ValueError(f"SFPLUTFP32 Mod1 {mod1!r} is not a 4-bit value")
    if not mod1 & 2:
        table = LutFp32Table.FP32_3ENTRY
    elif (mod1 & 10) == 10:
        table = LutFp32Table.FP16_3ENTRY
    elif (mod1 & 3) == 3:
        table = LutFp32Table.FP16_6ENTRY_TABLE2
    else:
        table = LutFp32Table.FP16_6ENTRY_TABLE1
    return table, bool(mod1 & LutMod.SGN_RETAIN), bool(mod1 & MadMod1.INDIRECT_VD)


def sfplutfp32_select(mod1: int, l3, l0, l1, l2, l4, l5, l6) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SFPLUTFP32 operands per lane: returns ``(A, C, b)`` as FP32 bits.

    ``mod1`` is the instruction's 4-bit Mod1 (decoded with
    :func:`sfplutfp32_decode_mod1`); ``l3`` the raw L3 lanes or ``|L3|``;
    ``l0..l2`` and ``l4..l6`` the coefficient registers.  With
    ``i = 0 / 1 / 2`` for ``b < 1.0 / b < 2.0 / otherwise``:

    * FP32_3ENTRY: ``A = L[i]``, ``C = L[4+i]`` unchanged;
    * FP16_3ENTRY: ``A = Lut16(L[i] >> 16)``, ``C = Lut16(L[i] & 0xFFFF)``;
    * FP16_6ENTRY_TABLE1/2: ``A = Lut16(L[i] >> j)``, ``C = Lut16(L[4+i] >> j)``
      where ``j = 16`` for b in [0.5, 1), [1.5, 2) and [cut, inf) (and NaN),
      else 0; ``cut`` is 3.0 for TABLE1 and 4.0 for TABLE2.
    """
    table, _, _ = sfplutfp32_decode_mod1(mod1)
    b = _abs_l3(l3)
    i = _base_index(b)
    if table == LutFp32Table.FP32_3ENTRY:
        a = _pick3(i, l0, l1, l2)
        c = _pick3(i, l4, l5, l6)
    elif table == LutFp32Table.FP16_3ENTRY:
        pair = _pick3(i, l0, l1, l2)
        a = lut16_to_fp32(pair >> _U32(16))
        c = lut16_to_fp32(pair)
    else:
        cut = _FP32_3_0 if table == LutFp32Table.FP16_6ENTRY_TABLE1 else _FP32_4_0
        # Upper half of each [k, k+1) range (or the tail past `cut`) uses the high halves.
        high = np.where(b < _U32(_FP32_1_0), b >= _U32(_FP32_0_5),
                        np.where(b < _U32(_FP32_2_0), b >= _U32(_FP32_1_5), b >= _U32(cut)))
        j = np.where(high, _U32(16), _U32(0))
        a = lut16_to_fp32(_pick3(i, l0, l1, l2) >> j)
        c = lut16_to_fp32(_pick3(i, l4, l5, l6) >> j)
    a, c, b = np.broadcast_arrays(_u32(a), _u32(c), b)
    return a.copy(), c.copy(), b.copy()
