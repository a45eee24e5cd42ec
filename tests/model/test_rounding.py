"""Tests for model.rounding: SFPSTOCHRND (spec 4.6) and SFPCAST (spec 4.7).

Expected values are hand-worked or come from scalar references below that are
written with exact rational arithmetic (fractions.Fraction) or numpy's own
float64 -> float32 conversion, not with the model's bit manipulations.
"""

import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tensix_sfpu.model.rounding import (
    PRNG_BITS_NEAREST,
    StochRndMode as M,
    cast_int_to_fp32,
    stochrnd,
    stochrnd_prng_bits,
)

NEAREST = PRNG_BITS_NEAREST  # 0x400000


# ---------------------------------------------------------------------------
# Helpers and scalar references
# ---------------------------------------------------------------------------

def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


def one(mode, x, p=NEAREST, **kw) -> int:
    return int(stochrnd(mode, np.uint32(x), np.uint32(p), **kw))


FLOAT_INT = {M.FP32_TO_UINT8: (255, False), M.FP32_TO_INT8: (127, True),
             M.FP32_TO_UINT16: (65535, False), M.FP32_TO_INT16: (32767, True)}


def ref_round_up(frac: Fraction, p: int) -> int:
    """Discarded fraction in [0,1) compared against PRNGBits / 2^23."""
    return 1 if frac >= Fraction(p, 1 << 23) else 0


def ref_float_to_int(mode, x: int, p: int) -> int:
    max_mag, signed = FLOAT_INT[mode]
    negative = bool(x >> 31)
    if (x >> 23) & 0xFF == 0xFF:          # Inf or NaN saturate
        mag = max_mag
    else:
        v = abs(Fraction(f32(x)))
        if v < Fraction(1, 2):            # deterministic zero, even stochastic
            mag = 0
        else:
            whole = math.floor(v)
            mag = min(whole + ref_round_up(v - whole, p), max_mag)
    return ((1 << 31) if (signed and negative and mag) else 0) | mag


def ref_float_float(mode, x: int, p: int) -> int:
    keep = 10 if mode == M.FP32_TO_FP16A else 7
    discarded = 23 - keep
    exp = (x >> 23) & 0xFF
    if exp == 0:
        return 0
    if exp == 0xFF:
        return x & 0xFF800000
    v = abs(Fraction(f32(x)))
    ulp = Fraction(2) ** (exp - 127 - keep)
    q = math.floor(v / ulp)
    r = v / ulp - q                       # discarded part, in units of the kept ulp
    # Only the top `discarded` bits of the 23 PRNG bits take part.
    up = 1 if r >= Fraction(p >> (23 - discarded), 1 << discarded) else 0
    result = (q + up) * ulp
    sign = x & 0x80000000
    if result >= Fraction(2) ** 128:
        return sign | 0x7F800000
    return sign | bits(float(result))


def ref_int_to_int(mode, x: int, p: int, shift: int) -> int:
    negative = bool(x >> 31)
    v = Fraction(x & 0x7FFFFFFF, 1 << shift)
    whole = math.floor(v)
    mag = whole + ref_round_up(v - whole, p)
    if mode == M.INT32_TO_UINT8:
        return min(mag, 255)
    mag = min(mag, 127)
    return ((1 << 31) if (negative and mag) else 0) | mag


# ---------------------------------------------------------------------------
# Mode enum and PRNG-bit helper
# ---------------------------------------------------------------------------

def test_mode_numbering():
    assert [m.value for m in (M.FP32_TO_FP16A, M.FP32_TO_FP16B, M.FP32_TO_UINT8, M.FP32_TO_INT8,
                              M.INT32_TO_UINT8, M.INT32_TO_INT8, M.FP32_TO_UINT16,
                              M.FP32_TO_INT16)] == list(range(8))


def test_prng_bits_helper():
    raw = np.array([0xFFFFFFFF, 0x12345678, 0], dtype=np.uint32)
    np.testing.assert_array_equal(stochrnd_prng_bits(raw, True), [0x7FFFFF, 0x345678, 0])
    np.testing.assert_array_equal(stochrnd_prng_bits(raw, False), [0x400000] * 3)


def test_rejects_unreduced_prng_bits_and_bad_mode():
    with pytest.raises(ValueError):
        stochrnd(M.FP32_TO_FP16B, np.uint32(0), np.uint32(0x800000))
    with pytest.raises(ValueError):
        stochrnd(8, np.uint32(0), np.uint32(0))
    with pytest.raises(ValueError):
        stochrnd(M.INT32_TO_INT8, np.uint32(0), np.uint32(0))  # no vb, no imm5
    with pytest.raises(ValueError):
        stochrnd(M.INT32_TO_INT8, np.uint32(0), np.uint32(0), use_imm5=True)


# ---------------------------------------------------------------------------
# FP32 -> FP16A / FP16B (Mod1 0, 1)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("x, expected", [
    (0x3F808000, 0x3F810000),  # 1 + 2^-8: exact tie, even lsb -> away (RNE would stay)
    (0xBF808000, 0xBF810000),  # negative tie -> larger magnitude
    (0x3F818000, 0x3F820000),  # tie with odd lsb
    (0x3F807FFF, 0x3F800000),  # just below the tie
    (0x3F80FFFF, 0x3F810000),
    (0x3FFF8000, 0x40000000),  # carry into the exponent: 1.99609375 -> 2.0
    (0x7F7F8000, 0x7F800000),  # carry up to +Inf
    (0xFF7FFFFF, 0xFF800000),  # ... and -Inf
    (0x00800000, 0x00800000),  # smallest normal stays
    (0x00400000, 0x00000000),  # denormal -> +0
    (0x807FFFFF, 0x00000000),  # negative denormal -> +0
    (0x80000000, 0x00000000),  # -0 -> +0
    (0x7F800000, 0x7F800000),
    (0xFF800000, 0xFF800000),
    (0x7FC00000, 0x7F800000),  # +NaN -> +Inf
    (0xFFFFFFFF, 0xFF800000),  # -NaN -> -Inf
    (0x7F800001, 0x7F800000),
])
def test_fp16b_round_nearest(x, expected):
    assert one(M.FP32_TO_FP16B, x) == expected


@pytest.mark.parametrize("x, expected", [
    (0x3F801000, 0x3F802000),  # 1 + 2^-11: tie, even lsb -> away
    (0xBF801000, 0xBF802000),
    (0x3F800FFF, 0x3F800000),
    (0x3FFFF000, 0x40000000),  # carry into the exponent
    (0x477FF000, 0x47800000),  # 65520 -> 65536 (FP16A keeps FP32 range)
    (0x7F7FF000, 0x7F800000),  # carry to +Inf
    (0x00000001, 0x00000000),
    (0x80000000, 0x00000000),
    (0xFFC12345, 0xFF800000),
])
def test_fp16a_round_nearest(x, expected):
    assert one(M.FP32_TO_FP16A, x) == expected


def test_float_float_stochastic_hand_worked():
    # PRNGBits == 0: even an exact value is bumped by one unit.
    assert one(M.FP32_TO_FP16B, 0x3F800000, 0) == 0x3F810000
    assert one(M.FP32_TO_FP16A, 0x3F800000, 0) == 0x3F802000
    assert one(M.FP32_TO_FP16B, 0xC0000000, 0) == 0xC0010000
    # ... but zero, denormals and specials are not.
    assert one(M.FP32_TO_FP16B, 0x00000000, 0) == 0
    assert one(M.FP32_TO_FP16A, 0x7F800000, 0) == 0x7F800000
    # PRNGBits 0x7FFFFF: compare against 0xFFFF (FP16B) / 0x1FFF (FP16A).
    assert one(M.FP32_TO_FP16B, 0x3F80FFFF, 0x7FFFFF) == 0x3F810000
    assert one(M.FP32_TO_FP16B, 0x3F80FFFE, 0x7FFFFF) == 0x3F800000
    assert one(M.FP32_TO_FP16A, 0x3F801FFF, 0x7FFFFF) == 0x3F802000
    assert one(M.FP32_TO_FP16A, 0x3F801FFE, 0x7FFFFF) == 0x3F800000
    # The low PRNG bits are shifted away (Sept-2025 compare): 0x40007F >> 7 == 0x8000,
    # so a discarded 0x8000 rounds up.  (The June-2025 compare (D << 7) >= P would not.)
    assert one(M.FP32_TO_FP16B, 0x3F808000, 0x40007F) == 0x3F810000
    assert one(M.FP32_TO_FP16A, 0x3F801000, 0x4003FF) == 0x3F802000


@pytest.mark.parametrize("mode, nd", [(M.FP32_TO_FP16A, 13), (M.FP32_TO_FP16B, 16)])
def test_float_float_low_prng_bits_ignored(mode, nd):
    # Discarded bits D equal to the top bits of PRNGBits always round up, whatever
    # the PRNG bits below them (Sept-2025 compare D >= PRNGBits >> (23 - nd)).
    rng = np.random.default_rng(nd)
    d = rng.integers(1, 1 << nd, 256, dtype=np.uint32)
    low = rng.integers(1, 1 << (23 - nd), 256, dtype=np.uint32)
    x = np.uint32(0x3F800000) | d
    p = (d << np.uint32(23 - nd)) | low
    unit = 1 << nd
    np.testing.assert_array_equal(stochrnd(mode, x, p), np.full(256, 0x3F800000 + unit, np.uint32))
    # One less in the discarded bits rounds down.
    np.testing.assert_array_equal(stochrnd(mode, x - np.uint32(1), p), np.full(256, 0x3F800000, np.uint32))


# ---------------------------------------------------------------------------
# FP32 -> UINT8 / INT8 / UINT16 / INT16 (Mod1 2, 3, 6, 7)
# ---------------------------------------------------------------------------

SM_NEG = 0x80000000


@pytest.mark.parametrize("mode", [M.FP32_TO_UINT8, M.FP32_TO_INT8, M.FP32_TO_UINT16, M.FP32_TO_INT16])
def test_float_int_round_nearest_small_values(mode):
    signed = mode in (M.FP32_TO_INT8, M.FP32_TO_INT16)
    neg = SM_NEG if signed else 0
    assert one(mode, bits(0.0)) == 0
    assert one(mode, bits(-0.0)) == 0                 # sign cleared for zero magnitude
    assert one(mode, 0x3EFFFFFF) == 0                 # largest value below 0.5
    assert one(mode, bits(0.5)) == 1                  # tie away from zero
    assert one(mode, bits(-0.5)) == neg | 1
    assert one(mode, bits(-0.49)) == 0                # |x| < 0.5, negative: +0
    assert one(mode, bits(1.5)) == 2
    assert one(mode, bits(2.5)) == 3                  # ties away (RNE would give 2)
    assert one(mode, bits(-2.5)) == neg | 3
    assert one(mode, bits(2.4999998)) == 2
    assert one(mode, bits(100.0)) == 100
    assert one(mode, bits(126.5)) == 127
    assert one(mode, 0x00000001) == 0                 # denormal
    assert one(mode, 0x80400000) == 0


@pytest.mark.parametrize("mode, max_mag", [(M.FP32_TO_UINT8, 255), (M.FP32_TO_INT8, 127),
                                           (M.FP32_TO_UINT16, 65535), (M.FP32_TO_INT16, 32767)])
def test_float_int_saturation(mode, max_mag):
    signed = mode in (M.FP32_TO_INT8, M.FP32_TO_INT16)
    neg = SM_NEG if signed else 0
    assert one(mode, bits(max_mag + 0.4)) == max_mag
    assert one(mode, bits(max_mag + 0.5)) == max_mag   # would round to max+1
    assert one(mode, bits(-(max_mag + 1.0))) == neg | max_mag
    assert one(mode, bits(65535.5)) == max_mag         # E = 15, rounds to 65536
    assert one(mode, bits(65536.0)) == max_mag         # E = 16
    assert one(mode, bits(-65536.0)) == neg | max_mag
    assert one(mode, bits(3.0e38)) == max_mag
    assert one(mode, 0x7F800000) == max_mag            # +Inf
    assert one(mode, 0xFF800000) == neg | max_mag      # -Inf
    assert one(mode, 0x7FC00000) == max_mag            # +NaN
    assert one(mode, 0xFFC00001) == neg | max_mag      # -NaN keeps its sign in signed modes
    # Saturation is independent of the PRNG bits.
    assert one(mode, 0x7FC00000, 0x7FFFFF) == max_mag
    assert one(mode, bits(1.0e6), 0) == max_mag


def test_float_int_uint16_large_exact():
    assert one(M.FP32_TO_UINT16, bits(65535.0)) == 65535
    assert one(M.FP32_TO_UINT16, bits(-40000.25)) == 40000   # abs taken
    assert one(M.FP32_TO_INT16, bits(-32766.5)) == SM_NEG | 32767
    assert one(M.FP32_TO_INT16, bits(12345.5)) == 12346


def test_float_int_stochastic_hand_worked():
    # Exact integer bumped when PRNGBits == 0.
    assert one(M.FP32_TO_INT8, bits(3.0), 0) == 4
    assert one(M.FP32_TO_INT8, bits(-3.0), 0) == SM_NEG | 4
    assert one(M.FP32_TO_INT8, bits(3.0), 1) == 3
    # 3.25: discarded fraction 0.25 = 0x200000 / 2^23.
    assert one(M.FP32_TO_UINT8, bits(3.25), 0x200000) == 4
    assert one(M.FP32_TO_UINT8, bits(3.25), 0x200001) == 3
    # 0.75 (E = -1 path): fraction 0x600000.
    assert one(M.FP32_TO_INT16, bits(-0.75), 0x600000) == SM_NEG | 1
    assert one(M.FP32_TO_INT16, bits(-0.75), 0x600001) == 0      # magnitude 0 -> sign cleared
    # 0.5 + 2^-24: the E = -1 shift drops the lowest mantissa bit; fraction*2^23 = 0x400000.5.
    assert one(M.FP32_TO_UINT8, 0x3F000001, 0x400000) == 1
    assert one(M.FP32_TO_UINT8, 0x3F000001, 0x400001) == 0
    # |x| < 0.5 never rounds up, even with PRNGBits == 0.
    assert one(M.FP32_TO_UINT8, 0x3EFFFFFF, 0) == 0
    assert one(M.FP32_TO_INT8, bits(-0.25), 0) == 0
    assert one(M.FP32_TO_INT16, 0x00000001, 0) == 0
    # Stochastic rounding up into the clamp.
    assert one(M.FP32_TO_INT8, bits(127.0), 0) == 127
    assert one(M.FP32_TO_UINT8, bits(255.0), 0) == 255


# ---------------------------------------------------------------------------
# INT32 -> UINT8 / INT8 (Mod1 4, 5)
# ---------------------------------------------------------------------------

def test_int_int_hand_worked():
    # Shift from VB & 31: 0x23 -> 3.  20 / 8 = 2.5 -> 3 (ties away).
    assert one(M.INT32_TO_INT8, 20, vb=0x23) == 3
    assert one(M.INT32_TO_INT8, SM_NEG | 20, vb=0x23) == SM_NEG | 3
    assert one(M.INT32_TO_UINT8, SM_NEG | 20, vb=3) == 3            # sign dropped
    assert one(M.INT32_TO_INT8, 20, vb=2) == 5                      # exact
    assert one(M.INT32_TO_INT8, 19, vb=3) == 2                      # 2.375
    assert one(M.INT32_TO_INT8, 5, vb=0) == 5
    assert one(M.INT32_TO_INT8, 5, 0, vb=0) == 6                    # exact, PRNGBits 0 -> up
    assert one(M.INT32_TO_INT8, 5, 1, vb=0) == 5
    assert one(M.INT32_TO_INT8, 0x7FFFFFFF, vb=0) == 127            # clamp
    assert one(M.INT32_TO_INT8, 0xFFFFFFFF, vb=0) == SM_NEG | 127
    assert one(M.INT32_TO_UINT8, 0xFFFFFFFF, vb=0) == 255
    assert one(M.INT32_TO_UINT8, 256, vb=0) == 255
    assert one(M.INT32_TO_INT8, SM_NEG, vb=0) == 0                  # -0 -> +0
    assert one(M.INT32_TO_INT8, SM_NEG | 1, vb=5) == 0              # 1/32 -> 0, sign cleared
    assert one(M.INT32_TO_INT8, SM_NEG | 16, vb=5) == SM_NEG | 1    # 0.5 -> 1 (away)
    assert one(M.INT32_TO_INT8, 0x7FFFFFFF, vb=31) == 1             # 0.99999... -> 1
    # use_imm5 takes the immediate and ignores VB.
    assert one(M.INT32_TO_INT8, 20, vb=0, imm5=3, use_imm5=True) == 3
    assert one(M.INT32_TO_INT8, 20, vb=3, imm5=0, use_imm5=False) == 3
    # Stochastic: 20 / 8 = 2.5, fraction 0x400000.
    assert one(M.INT32_TO_UINT8, 20, 0x400001, vb=3) == 2
    assert one(M.INT32_TO_UINT8, 20, 0x3FFFFF, vb=3) == 3


def test_int_int_per_lane_shift():
    x = np.array([40, 40, 40, 40], dtype=np.uint32)
    vb = np.array([0, 1, 2, 35], dtype=np.uint32)   # 35 & 31 = 3
    out = stochrnd(M.INT32_TO_INT8, x, np.uint32(NEAREST), vb=vb)
    np.testing.assert_array_equal(out, [40, 20, 10, 5])


# ---------------------------------------------------------------------------
# Random comparison against the Fraction references, all eight modes
# ---------------------------------------------------------------------------

def _random_floats(rng, n):
    sign = rng.integers(0, 2, n, dtype=np.uint32) << 31
    exp = np.where(rng.random(n) < 0.7, rng.integers(118, 146, n), rng.integers(0, 256, n)).astype(np.uint32)
    man = rng.integers(0, 1 << 23, n, dtype=np.uint32)
    # Many mantissas with trailing zeros so that ties and exact values occur.
    man &= np.where(rng.random(n) < 0.3, np.uint32(0x7FFFFF) << rng.integers(0, 23, n).astype(np.uint32),
                    np.uint32(0x7FFFFF)).astype(np.uint32)
    return sign | (exp << 23) | (man & np.uint32(0x7FFFFF))


def _random_prng(rng, n):
    choice = rng.integers(0, 4, n)
    rand = rng.integers(0, 1 << 23, n, dtype=np.uint32)
    return np.select([choice == 0, choice == 1, choice == 2], [np.uint32(NEAREST), np.uint32(0), rand],
                     rand & np.uint32(0x7FFC00)).astype(np.uint32)


@pytest.mark.parametrize("mode", [M.FP32_TO_FP16A, M.FP32_TO_FP16B, M.FP32_TO_UINT8, M.FP32_TO_INT8,
                                  M.FP32_TO_UINT16, M.FP32_TO_INT16])
def test_float_modes_against_reference(mode):
    rng = np.random.default_rng(1000 + int(mode))
    n = 1500
    x = _random_floats(rng, n).reshape(30, 50)   # any shape works
    p = _random_prng(rng, n).reshape(30, 50)
    out = stochrnd(mode, x, p)
    assert out.shape == x.shape and out.dtype == np.uint32
    ref = ref_float_float if mode in (M.FP32_TO_FP16A, M.FP32_TO_FP16B) else ref_float_to_int
    for xi, pi, oi in zip(x.ravel().tolist(), p.ravel().tolist(), out.ravel().tolist()):
        assert oi == ref(mode, xi, pi), (hex(xi), hex(pi))


@pytest.mark.parametrize("mode", [M.INT32_TO_UINT8, M.INT32_TO_INT8])
def test_int_modes_against_reference(mode):
    rng = np.random.default_rng(2000 + int(mode))
    n = 1500
    mag_bits = rng.integers(0, 32, n).astype(np.uint64)
    mag = (rng.integers(0, 1 << 31, n, dtype=np.uint64) >> (np.uint64(31) - mag_bits % np.uint64(32)))
    x = ((rng.integers(0, 2, n, dtype=np.uint32) << 31) | mag.astype(np.uint32)).astype(np.uint32)
    vb = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    p = _random_prng(rng, n)
    out = stochrnd(mode, x, p, vb=vb)
    for xi, pi, vi, oi in zip(x.tolist(), p.tolist(), vb.tolist(), out.tolist()):
        assert oi == ref_int_to_int(mode, xi, pi, vi & 31), (hex(xi), hex(pi), vi)
    imm = 7
    out = stochrnd(mode, x, p, vb=vb, imm5=imm, use_imm5=True)
    for xi, pi, oi in zip(x.tolist(), p.tolist(), out.tolist()):
        assert oi == ref_int_to_int(mode, xi, pi, imm)


@settings(max_examples=200, deadline=None)
@given(x=st.integers(0, 0xFFFFFFFF), p=st.integers(0, 0x7FFFFF), mode=st.sampled_from(list(FLOAT_INT)))
def test_float_int_hypothesis(x, p, mode):
    assert one(mode, x, p) == ref_float_to_int(mode, x, p)
    assert one(mode, x) == ref_float_to_int(mode, x, NEAREST)


# ---------------------------------------------------------------------------
# SFPCAST
# ---------------------------------------------------------------------------

def ref_cast_rne(x: int) -> int:
    mag = x & 0x7FFFFFFF
    value = -float(mag) if x >> 31 else float(mag)          # exact in float64
    return int(np.array(value, dtype=np.float32).view(np.uint32))  # numpy rounds RNE


def ref_cast_stoch(x: int, prng: int) -> int:
    mag = x & 0x7FFFFFFF
    k = max(mag.bit_length() - 24, 0)                        # bits that do not fit
    q = mag >> k
    frac = Fraction(mag - (q << k), 1 << k)
    up = 1 if math.floor(frac * 128) > ((prng >> 10) & 127) else 0
    value = float((q + up) << k)
    return bits(-value if x >> 31 else value)


def cast(x, stochastic=False, prng=None) -> int:
    return int(cast_int_to_fp32(np.uint32(x), stochastic, None if prng is None else np.uint32(prng)))


def test_cast_hand_worked():
    assert cast(0) == 0
    assert cast(0x80000000) == 0x80000000           # -0 -> -0.0
    assert cast(1) == 0x3F800000
    assert cast(0x80000001) == 0xBF800000
    assert cast(3) == 0x40400000
    assert cast(1 << 24) == 0x4B800000
    assert cast((1 << 24) - 1) == 0x4B7FFFFF
    assert cast((1 << 24) + 1) == 0x4B800000        # tie -> even (down)
    assert cast((1 << 24) + 3) == 0x4B800002        # tie -> even (up)
    assert cast((1 << 24) + 2) == 0x4B800001        # exact
    assert cast(0x7FFFFFFF) == 0x4F000000           # rounds up to 2^31
    assert cast(0xFFFFFFFF) == 0xCF000000
    # 31-bit magnitudes: ulp 128, so 64 discarded is a tie.
    assert cast(0x7FFFFF80) == 0x4EFFFFFF           # exact (low 7 bits zero)
    assert cast(0x7FFFFFC0) == 0x4F000000           # tie, odd lsb -> up, carries to 2^31
    assert cast(0x7FFFFF40) == 0x4EFFFFFE           # tie, even lsb -> stays
    assert cast(0x7FFFFF41) == 0x4EFFFFFF           # above the tie
    assert cast(0x7FFFFF3F) == 0x4EFFFFFE           # below the tie


@pytest.mark.parametrize("mag", [0, 1, 2, 1000, (1 << 23) + 1, (1 << 24) - 1, 1 << 24])
def test_cast_exact_up_to_2_24(mag):
    for sign in (0, 0x80000000):
        expected = bits(-float(mag) if sign else float(mag))
        assert cast(sign | mag) == expected
        # Exact values are never bumped stochastically, whatever the PRNG says.
        assert cast(sign | mag, True, 0) == expected
        assert cast(sign | mag, True, 0xFFFFFFFF) == expected


def test_cast_stochastic_hand_worked():
    x = (1 << 30) + 0x40            # 2^30 + 64: ulp is 128, so exactly half an ulp is discarded
    # Norm = x << 1 has low byte 0x80; its top 7 bits (64) are compared with PRNG bits 10..16.
    assert cast(x, True, 63 << 10) == bits(float((1 << 30) + 128))   # 64 > 63 -> up
    assert cast(x, True, 64 << 10) == bits(float(1 << 30))           # 64 > 64 false (strict)
    assert cast(x, True, (63 << 10) | 0x3FF | 0xFFFE0000) == bits(float((1 << 30) + 128))  # other bits ignored
    # The lowest discarded bit (Norm bit 0 / the 8th bit) is not used.
    y = 0x7FFFFFFF                  # Norm = 0xFFFFFFFE, discarded 0xFE -> 127
    assert cast(y, True, 126 << 10) == 0x4F000000
    assert cast(y, True, 127 << 10) == 0x4EFFFFFF


def test_cast_requires_prng_when_stochastic():
    with pytest.raises(ValueError):
        cast_int_to_fp32(np.uint32(5), True)


def test_cast_random_against_references():
    rng = np.random.default_rng(7)
    n = 4000
    shift = rng.integers(0, 31, n).astype(np.uint32)
    mag = rng.integers(0, 1 << 31, n, dtype=np.uint64).astype(np.uint32) >> shift
    # Force many ties / exact values at the rounding position.
    mag = np.where(rng.random(n) < 0.3, mag & ~np.uint32(0x7F), mag).astype(np.uint32)
    x = ((rng.integers(0, 2, n, dtype=np.uint32) << 31) | mag).astype(np.uint32).reshape(40, 100)
    prng = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32).reshape(40, 100)
    rne = cast_int_to_fp32(x, False)
    sto = cast_int_to_fp32(x, True, prng)
    assert rne.shape == x.shape and rne.dtype == np.uint32
    for xi, pi, ri, si in zip(x.ravel().tolist(), prng.ravel().tolist(), rne.ravel().tolist(),
                              sto.ravel().tolist()):
        assert ri == ref_cast_rne(xi), hex(xi)
        assert si == ref_cast_stoch(xi, pi), (hex(xi), hex(pi))
