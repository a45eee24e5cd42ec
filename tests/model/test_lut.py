"""Tests for model.lut: LUT8/LUT16 decoders and SFPLUT/SFPLUTFP32 table selection (spec 4.4, 4.5).

References: exact rationals (fractions.Fraction) and numpy's IEEE float16 for the
decoders; Python float comparisons for the range selection.
"""

import struct
from fractions import Fraction

import numpy as np
import pytest

from tensix_sfpu.model.lut import (
    LutFp32Table as T,
    lut8_to_fp32,
    lut16_to_fp32,
    sfplut_decode_mod0,
    sfplut_select,
    sfplutfp32_decode_mod1,
    sfplutfp32_select,
)


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


# ---------------------------------------------------------------------------
# LUT8
# ---------------------------------------------------------------------------

def ref_lut8(byte: int) -> Fraction:
    if byte == 0xFF:
        return Fraction(0)
    s, e, m = byte >> 7, (byte >> 4) & 7, byte & 15
    return (-1) ** s * Fraction(16 + m, 16) / 2 ** e


def test_lut8_exhaustive_against_rational_reference():
    out = lut8_to_fp32(np.arange(256, dtype=np.uint32))
    assert out.dtype == np.uint32 and out.shape == (256,)
    for byte, o in enumerate(out.tolist()):
        assert Fraction(f32(o)) == ref_lut8(byte), hex(byte)
    # The only zero is 0xFF, and it is +0.
    assert out[0xFF] == 0
    assert np.count_nonzero((out & np.uint32(0x7FFFFFFF)) == 0) == 1


def test_lut8_named_values():
    assert int(lut8_to_fp32(0x7F)) == 0x3C780000           # +1.9375 * 2^-7, an ordinary value
    assert f32(int(lut8_to_fp32(0x7F))) == 0.01513671875
    assert int(lut8_to_fp32(0x0F)) == bits(1.9375)         # largest
    assert int(lut8_to_fp32(0x00)) == bits(1.0)
    assert int(lut8_to_fp32(0x70)) == bits(0.0078125)      # smallest magnitude
    assert int(lut8_to_fp32(0x80)) == bits(-1.0)
    assert int(lut8_to_fp32(0x8F)) == bits(-1.9375)
    assert int(lut8_to_fp32(0xFE)) == bits(-(1 + 14 / 16) / 128)
    assert int(lut8_to_fp32(0xF0)) == bits(-0.0078125)
    # Only the low 8 bits count.
    assert int(lut8_to_fp32(0x12345600)) == bits(1.0)
    assert int(lut8_to_fp32(0xABCDEFFF)) == 0


# ---------------------------------------------------------------------------
# LUT16
# ---------------------------------------------------------------------------

def test_lut16_exhaustive():
    h = np.arange(1 << 16, dtype=np.uint32)
    out = lut16_to_fp32(h)
    assert out.dtype == np.uint32
    s = (h >> 15).astype(np.float64)
    e = ((h >> 10) & 31).astype(np.int64)
    m = (h & 1023).astype(np.float64)
    sign = 1.0 - 2.0 * s
    # e in 0..30: (1 + m/1024) * 2^(e-15), including e == 0 (not denormal).
    normal = sign * (1.0 + m / 1024.0) * np.exp2(e - 15.0)
    # e == 31: signed zero / FP32 denormal m * 2^-136.
    special = sign * m * np.exp2(-136.0)
    expected = np.where(e == 31, special, normal)
    got = out.view(np.float32).astype(np.float64)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), s == 1)


def test_lut16_matches_ieee_fp16_for_normal_exponents():
    h = np.arange(1 << 16, dtype=np.uint32)
    e = (h >> 10) & 31
    sel = h[(e >= 1) & (e <= 30)]
    ieee = sel.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
    np.testing.assert_array_equal(lut16_to_fp32(sel), ieee)


def test_lut16_named_values():
    assert int(lut16_to_fp32(0x3C00)) == bits(1.0)
    assert int(lut16_to_fp32(0x0000)) == bits(2.0 ** -15)       # not zero
    assert int(lut16_to_fp32(0x8000)) == bits(-(2.0 ** -15))
    assert int(lut16_to_fp32(0x03FF)) == bits((1 + 1023 / 1024) * 2.0 ** -15)
    assert int(lut16_to_fp32(0x7C00)) == 0x00000000             # "Inf" -> +0
    assert int(lut16_to_fp32(0xFC00)) == 0x80000000             # "-Inf" -> -0
    assert int(lut16_to_fp32(0x7E00)) == 0x00400000             # "NaN" -> denormal
    assert int(lut16_to_fp32(0xFFFF)) == 0x807FE000
    assert int(lut16_to_fp32(0x7BFF)) == bits(65504.0)
    assert int(lut16_to_fp32(0xABCD3C00)) == bits(1.0)          # only the low 16 bits count


# ---------------------------------------------------------------------------
# Selection boundaries
# ---------------------------------------------------------------------------

# (L3 bits, i, j for cut 3.0, j for cut 4.0) worked by hand from the range tables.
BOUNDARIES = [
    (0x00000000, 0, 0, 0),    # +0
    (0x80000000, 0, 0, 0),    # -0
    (0x00000001, 0, 0, 0),    # denormal
    (0x3EFFFFFF, 0, 0, 0),    # just below 0.5
    (0x3F000000, 0, 16, 16),  # 0.5
    (0xBF000000, 0, 16, 16),  # -0.5
    (0x3F7FFFFF, 0, 16, 16),  # just below 1.0
    (0x3F800000, 1, 0, 0),    # 1.0
    (0xBF800000, 1, 0, 0),    # -1.0
    (0x3FBFFFFF, 1, 0, 0),    # just below 1.5
    (0x3FC00000, 1, 16, 16),  # 1.5
    (0x3FFFFFFF, 1, 16, 16),  # just below 2.0
    (0x40000000, 2, 0, 0),    # 2.0
    (0x403FFFFF, 2, 0, 0),    # just below 3.0
    (0x40400000, 2, 16, 0),   # 3.0
    (0xC0400000, 2, 16, 0),   # -3.0
    (0x407FFFFF, 2, 16, 0),   # just below 4.0
    (0x40800000, 2, 16, 16),  # 4.0
    (0x7F7FFFFF, 2, 16, 16),  # max normal
    (0x7F800000, 2, 16, 16),  # +Inf
    (0xFF800000, 2, 16, 16),  # -Inf
    (0x7FC00000, 2, 16, 16),  # NaN: last entry
    (0x7F800001, 2, 16, 16),  # signalling NaN
    (0xFFFFFFFF, 2, 16, 16),  # -NaN
]
L3 = np.array([b[0] for b in BOUNDARIES], dtype=np.uint32)
I_EXP = [b[1] for b in BOUNDARIES]
J3_EXP = [b[2] for b in BOUNDARIES]
J4_EXP = [b[3] for b in BOUNDARIES]


def ref_index(l3: int) -> int:
    b = abs(f32(l3))
    return 0 if b < 1.0 else 1 if b < 2.0 else 2


def ref_shift(l3: int, cut: float) -> int:
    b = abs(f32(l3))
    if b < 1.0:
        return 16 if b >= 0.5 else 0
    if b < 2.0:
        return 16 if b >= 1.5 else 0
    return 0 if b < cut else 16   # NaN: `b < cut` is false -> 16


def test_boundary_table_agrees_with_float_reference():
    # Guards the hand-written table against typos.
    for l3, i, j3, j4 in BOUNDARIES:
        assert (ref_index(l3), ref_shift(l3, 3.0), ref_shift(l3, 4.0)) == (i, j3, j4), hex(l3)


def fp16_bits(h: int) -> int:
    """IEEE FP16 -> FP32 bits (used only with exponents 1..30, where LUT16 agrees)."""
    return int(np.uint16(h).view(np.float16).astype(np.float32).view(np.uint32))


# ---------------------------------------------------------------------------
# SFPLUT
# ---------------------------------------------------------------------------

def test_sfplut_decode_mod0():
    assert sfplut_decode_mod0(0) == (False, False)
    assert sfplut_decode_mod0(4) == (True, False)
    assert sfplut_decode_mod0(8) == (False, True)
    assert sfplut_decode_mod0(15) == (True, True)
    with pytest.raises(ValueError):
        sfplut_decode_mod0(16)


def test_sfplut_select_boundaries():
    # Byte pairs (A, C) per register; the upper 16 bits are junk that must be ignored.
    regs = [0xDEAD1020, 0xBEEF3A4B, 0x12345F7F]
    pairs = [(0x10, 0x20), (0x3A, 0x4B), (0x5F, 0x7F)]
    n = len(L3)
    l0, l1, l2 = (np.full(n, r, dtype=np.uint32) for r in regs)
    a, c, b = sfplut_select(L3, l0, l1, l2)
    for k, l3 in enumerate(L3.tolist()):
        ab, cb = pairs[I_EXP[k]]
        assert Fraction(f32(int(a[k]))) == ref_lut8(ab), hex(l3)
        assert Fraction(f32(int(c[k]))) == ref_lut8(cb), hex(l3)
        assert int(b[k]) == l3 & 0x7FFFFFFF


def test_sfplut_select_zero_byte_and_shapes():
    l3 = np.full((4, 8), bits(0.25), dtype=np.uint32)
    a, c, b = sfplut_select(l3, np.uint32(0xFF00), np.uint32(0), np.uint32(0))
    assert a.shape == c.shape == b.shape == (4, 8)
    assert a.dtype == np.uint32
    assert (a == 0).all()                       # 0xFF -> 0
    assert (c == bits(1.0)).all()               # 0x00 -> 1.0
    assert (b == bits(0.25)).all()


# ---------------------------------------------------------------------------
# SFPLUTFP32
# ---------------------------------------------------------------------------

DECODE = {  # Mod1: (table, SGN_RETAIN, INDIRECT_VD), per the Sept-2025 decode
    0: (T.FP32_3ENTRY, False, False), 1: (T.FP32_3ENTRY, False, False),
    2: (T.FP16_6ENTRY_TABLE1, False, False), 3: (T.FP16_6ENTRY_TABLE2, False, False),
    4: (T.FP32_3ENTRY, True, False), 5: (T.FP32_3ENTRY, True, False),
    6: (T.FP16_6ENTRY_TABLE1, True, False), 7: (T.FP16_6ENTRY_TABLE2, True, False),
    8: (T.FP32_3ENTRY, False, True), 9: (T.FP32_3ENTRY, False, True),
    10: (T.FP16_3ENTRY, False, True), 11: (T.FP16_3ENTRY, False, True),
    12: (T.FP32_3ENTRY, True, True), 13: (T.FP32_3ENTRY, True, True),
    14: (T.FP16_3ENTRY, True, True), 15: (T.FP16_3ENTRY, True, True),
}


@pytest.mark.parametrize("mod1", range(16))
def test_sfplutfp32_decode_all_mod1(mod1):
    assert sfplutfp32_decode_mod1(mod1) == DECODE[mod1]


def test_sfplutfp32_decode_rejects_out_of_range():
    with pytest.raises(ValueError):
        sfplutfp32_decode_mod1(16)
    with pytest.raises(ValueError):
        sfplutfp32_select(-1, L3, 0, 0, 0, 0, 0, 0)


# Distinct FP16 halves with exponents 1..30 so IEEE FP16 gives the expected values.
A_LO = [0x3C01, 0x4002, 0x4403]      # A used when j == 0
A_HI = [0x3811, 0x4212, 0x4613]      # A used when j == 16
C_LO = [0x3421, 0x3022, 0x2C23]
C_HI = [0x3531, 0x3132, 0x2D33]


def _regs(n):
    lo = [np.full(n, (A_HI[k] << 16) | A_LO[k], dtype=np.uint32) for k in range(3)]
    hi = [np.full(n, (C_HI[k] << 16) | C_LO[k], dtype=np.uint32) for k in range(3)]
    return lo, hi   # L0..L2, L4..L6


@pytest.mark.parametrize("mod1", [m for m in range(16) if DECODE[m][0] == T.FP32_3ENTRY])
def test_sfplutfp32_fp32_3entry(mod1):
    n = len(L3)
    l012 = [np.full(n, v, dtype=np.uint32) for v in (0x3F000001, 0x7FC00123, 0x80000005)]
    l456 = [np.full(n, v, dtype=np.uint32) for v in (0xC1200000, 0x00000001, 0xFF800000)]
    a, c, b = sfplutfp32_select(mod1, L3, *l012, *l456)
    for k, l3 in enumerate(L3.tolist()):
        i = I_EXP[k]
        assert int(a[k]) == int(l012[i][k])        # passed through untouched
        assert int(c[k]) == int(l456[i][k])
        assert int(b[k]) == l3 & 0x7FFFFFFF


@pytest.mark.parametrize("mod1", [10, 11, 14, 15])
def test_sfplutfp32_fp16_3entry(mod1):
    n = len(L3)
    l012, l456 = _regs(n)
    # L4..L6 must not be used: make them junk.
    junk = [np.full(n, 0xFFFFFFFF, dtype=np.uint32)] * 3
    a, c, b = sfplutfp32_select(mod1, L3, *l012, *junk)
    for k, l3 in enumerate(L3.tolist()):
        i = I_EXP[k]
        assert int(a[k]) == fp16_bits(A_HI[i]), hex(l3)   # high half -> A
        assert int(c[k]) == fp16_bits(A_LO[i]), hex(l3)   # low half  -> C
        assert int(b[k]) == l3 & 0x7FFFFFFF


@pytest.mark.parametrize("mod1, j_exp", [(2, J3_EXP), (6, J3_EXP), (3, J4_EXP), (7, J4_EXP)])
def test_sfplutfp32_fp16_6entry(mod1, j_exp):
    n = len(L3)
    l012, l456 = _regs(n)
    a, c, b = sfplutfp32_select(mod1, L3, *l012, *l456)
    for k, l3 in enumerate(L3.tolist()):
        i, j = I_EXP[k], j_exp[k]
        exp_a = A_HI[i] if j == 16 else A_LO[i]
        exp_c = C_HI[i] if j == 16 else C_LO[i]
        assert int(a[k]) == fp16_bits(exp_a), (mod1, hex(l3))
        assert int(c[k]) == fp16_bits(exp_c), (mod1, hex(l3))
        assert int(b[k]) == l3 & 0x7FFFFFFF


def test_sfplutfp32_random_lanes_against_float_reference():
    rng = np.random.default_rng(5)
    n = 2000
    # L3 spread over the interesting range plus a few arbitrary bit patterns.
    l3 = np.where(rng.random(n) < 0.8,
                  (rng.uniform(-5.0, 5.0, n)).astype(np.float32).view(np.uint32),
                  rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)).astype(np.uint32)
    regs = [rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32) for _ in range(6)]
    for mod1, cut in ((2, 3.0), (3, 4.0)):
        a, c, b = sfplutfp32_select(mod1, l3, *regs)
        for k in range(n):
            x = int(l3[k])
            i, j = ref_index(x), ref_shift(x, cut)
            assert int(a[k]) == int(lut16_to_fp32((int(regs[i][k]) >> j) & 0xFFFF))
            assert int(c[k]) == int(lut16_to_fp32((int(regs[3 + i][k]) >> j) & 0xFFFF))


def test_sfplutfp32_lut16_special_halves_reach_output():
    # e == 31 halves decode to signed zero / denormal, e == 0 to 2^-15 (not zero).
    l3 = np.array([bits(0.25)], dtype=np.uint32)            # i = 0, j = 0
    l0 = np.array([0x7C00_8000], dtype=np.uint32)           # A = "Inf" -> +0, C (3-entry) = 0x8000
    a, c, _ = sfplutfp32_select(10, l3, l0, 0, 0, 0, 0, 0)
    assert int(a[0]) == 0x00000000
    assert int(c[0]) == bits(-(2.0 ** -15))
