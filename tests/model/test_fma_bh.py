"""Tests for ``model.fma.fma_bh`` (Blackhole SFPMAD arithmetic).

No expected value here was produced by running ``fma_bh``.  They come from:

* hand-derived values, each with its derivation, for the rules in which
  Blackhole differs from Wormhole (NaN, Inf, signed zeros, the dropped tiny
  product, rounding below 2**-126) and for the datapath it shares;
* hardware float64 for exact products, where the Blackhole result has to be
  the correctly rounded sum, flushed to a signed zero below 2**-126;
* ``ref_bh``, an independent scalar reference in exact rational arithmetic
  (cut the product, align, add exactly, round once), next to the Wormhole
  one in test_fma.py, whose rational helpers and vectors it reuses.

Grid units: with exponent field E, significands sit on the adder's 27-bit
grid, bit 26 weighing 2**(E-127), so one unit is 2**(E-153).
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tensix_sfpu.model.fma import fma_bh, fma_bh_scalar, fma_wh, fma_wh_scalar
from tests.model.test_fma import (SPECIALS, _cut_sticky, _encode, _floor_log2, _fp32, _random_finite,
                                  _reference_vectors)

ONE = 0x3F800000
PINF, NINF = 0x7F800000, 0xFF800000
QNAN = 0x7FC00000
SIGN = 0x80000000
MIN_NORMAL = 0x00800000


# ---------------------------------------------------------------------------
# 1. Hand-derived examples
# ---------------------------------------------------------------------------

NAN_EXAMPLES = [
    # Every NaN result is the canonical 0x7FC00000: no sign, no payload, no
    # bits of the rest of the computation (Wormhole ORs those in).
    (QNAN, ONE, 0x00000000, "x NaN"),
    (0x7F800001, 0x3F000000, 0x00000000, "x signalling NaN"),
    (0xFFFFFFFF, 0x40000000, ONE, "x negative NaN: sign dropped"),
    (ONE, 0xFF800001, ONE, "y NaN"),
    (ONE, ONE, 0xFFC00001, "z NaN"),
    (PINF, ONE, QNAN, "Inf product + NaN z"),
    (0x7F000000, 0x7F000000, 0x7FC00000, "overflowed product + NaN z"),
    (PINF, 0x00000000, 0x00000000, "Inf * 0"),
    (NINF, 0x80000000, ONE, "-Inf * -0"),
    (0x00000001, PINF, 0x00000000, "denormal * Inf: the denormal is 0"),
    (PINF, ONE, NINF, "Inf - Inf"),
    (NINF, ONE, PINF, "-Inf + Inf"),
    (PINF, 0xBF800000, PINF, "Inf * -1 + Inf"),
    (0x40000000, NINF, PINF, "2 * -Inf + Inf"),
]


@pytest.mark.parametrize("a,b,c", [e[:3] for e in NAN_EXAMPLES], ids=[e[3] for e in NAN_EXAMPLES])
def test_every_nan_is_canonical(a, b, c):
    assert fma_bh_scalar(a, b, c) == QNAN


BH_EXAMPLES = [
    # ---- Inf ----------------------------------------------------------------
    (PINF, ONE, PINF, PINF, "Inf + Inf"),
    (PINF, 0xC0000000, ONE, NINF, "Inf * -2 + 1"),
    (ONE, 0x40000000, NINF, NINF, "1 * 2 - Inf"),
    (0x7F7FFFFF, ONE, PINF, PINF, "max + Inf"),
    (0x3F800000, 0x807FFFFF, NINF, NINF, "1 * -denormal - Inf: a zero product, z"),
    # 2**127 * 2: exponent field 254 + 128 - 127 = 255, Inf before the add,
    # although the fused value 2**128 - (2**128 - 2**104) = 2**104 is finite.
    (0x7F000000, 0x40000000, 0xFF7FFFFF, PINF, "product exponent 255 is Inf"),
    (0xFF000000, 0x40000000, 0x7F7FFFFF, NINF, "... signed like the product"),
    # 2**254 meeting an opposite Inf: only a product of an Inf input counts
    # as Inf - Inf, so z comes back (Wormhole: a NaN).
    (0x7F000000, 0x7F000000, NINF, NINF, "overflowed product - Inf is z"),
    (0xFF000000, 0x7F000000, PINF, PINF, "-overflowed product + Inf is z"),
    # 1.5*2**127 * 1.5 = 1.125*2**128: exponent field 254, but the leading bit
    # is one place up, so the normalised exponent is 255: Inf.
    (0x7F400000, 0x3FC00000, 0x00000000, PINF, "normalised exponent 255"),
    # max + half an ulp of max: a tie, max's fraction is odd, the round-up
    # carries into exponent 255.
    (0x7F7FFFFF, ONE, 0x73000000, PINF, "max + half ulp"),
    (0xFF7FFFFF, ONE, 0xF3000000, NINF, "-max - half ulp"),
    (0x7F7FFFFF, ONE, 0x72800000, 0x7F7FFFFF, "max + quarter ulp"),
    # ---- zero product or product below 2**-126: z, or a signed zero ----------
    # A zero product returns z as it is when z is normal...
    (0x00000000, ONE, 0xC0490FDB, 0xC0490FDB, "0 * 1 - pi"),
    (0x80000001, 0x7F7FFFFF, 0x00800001, 0x00800001, "-denormal * max + z"),
    # ... else a zero, negative only if the product's and z's signs both are.
    (0x80000000, ONE, 0x80000000, SIGN, "-0 * 1 + -0 = -0"),
    (0x00000000, 0xBF800000, 0x80000000, SIGN, "0 * -1 + -0 = -0"),
    (0x80000000, 0xBF800000, 0x80000000, 0x00000000, "-0 * -1 + -0 = +0"),
    (0x80000000, ONE, 0x00000000, 0x00000000, "-0 * 1 + 0 = +0"),
    (0x00000000, ONE, 0x80000000, 0x00000000, "0 * 1 + -0 = +0"),
    (0x807FFFFF, ONE, 0x807FFFFF, SIGN, "-denormal * 1 + -denormal = -0"),
    (0x00000001, 0xBF800000, 0x80000001, SIGN, "denormal * -1 + -denormal = -0"),
    # 2**-64 * 2**-64 = 2**-128: exponent field 63 + 63 - 127 = -1, so the
    # product is dropped before the add: 2**-126, not 1.25*2**-126.
    (0x1F800000, 0x1F800000, 0x00800000, 0x00800000, "product 2**-128 dropped"),
    (0x1F800000, 0x1F800000, 0x80800000, 0x80800000, "product 2**-128 dropped (-)"),
    (0x1F800000, 0x1F800000, ONE, ONE, "product 2**-128 + 1"),
    (0x9F800000, 0x1F800000, 0x80000000, SIGN, "-2**-128 + -0 = -0"),
    (0x9F800000, 0x1F800000, 0x00000000, 0x00000000, "-2**-128 + 0 = +0"),
    (0x9F800000, 0x1F800000, 0x807FFFFF, SIGN, "-2**-128 + -denormal = -0"),
    # ---- exponent field 0 is kept ---------------------------------------------
    # 2**-64 * 2**-63 = 2**-127 takes part: + 2**-126 = 1.5*2**-126.
    (0x1F800000, 0x20000000, 0x00800000, 0x00C00000, "product 2**-127 kept"),
    (0x1F800000, 0x20000000, 0x80C00000, 0x80800000, "product 2**-127 kept (-)"),
    # On its own it is flushed after rounding, keeping its sign.
    (0x1F800000, 0x20000000, 0x00000000, 0x00000000, "2**-127 flushed"),
    (0x9F800000, 0x20000000, 0x00000000, SIGN, "-2**-127 flushed to -0"),
    (0x80800000, 0x3F000000, 0x80000000, SIGN, "-2**-126 * 0.5 flushed to -0"),
    # ---- exact cancellation: +0 ---------------------------------------------------
    (ONE, ONE, 0xBF800000, 0x00000000, "1 * 1 - 1"),
    (0xBF800000, ONE, ONE, 0x00000000, "-1 * 1 + 1"),
    (0x40400000, 0xC0000000, 0x40C00000, 0x00000000, "3 * -2 + 6"),
    # ---- differences below 2**-126: flushed with their sign -----------------------
    # 1.5*2**-126 - 2**-126 = 2**-127: grid units 3*2**25 - 2**26 = 2**25,
    # exponent field 0, fraction 0x400000, no rounding, below 2**-126 -> 0.
    (0x00C00000, ONE, 0x80800000, 0x00000000, "1.5*2**-126 - 2**-126 -> +0"),
    (0x80C00000, ONE, 0x00800000, SIGN, "-1.5*2**-126 + 2**-126 -> -0"),
    # ---- the datapath shared with Wormhole ------------------------------------------
    # (1+2**-23)**2 - (1+2**-22): the 2**-46 term survives only as the sticky
    # bit of the 27-bit product, at weight 2**-26: the result is 2**-26.
    (0x3F800001, 0x3F800001, 0xBF800002, 0x32800000, "cancellation 2**-26"),
    # Semi-sticky alignment: 1.5*(1+3*2**-23) = 1.5 + 4.5 ulp, a tie (-> even,
    # 1.5 + 4 ulp); z = +-2**-60 is shifted out entirely, leaving no sticky
    # bit to break the tie (an IEEE fma gives 0x3FC00005 for +2**-60).
    (0x3F800003, 0x3FC00000, 0x21800000, 0x3FC00004, "shifted-out z ignored (+)"),
    (0x3F800003, 0x3FC00000, 0xA1800000, 0x3FC00004, "shifted-out z ignored (-)"),
    # (1539/2**10)*(87211/2**16) = 2 + 2**-26, exact on the product grid
    # (2**27+1 units of 2**-26), but z = -(2+2**-22) has the larger exponent:
    # the product moves one place right and its last bit becomes a sticky 1:
    # (2**26+8) - (2**26+1) = 7 units of 2**-25 (exact result: -15*2**-26).
    (0x3FC06000, 0x3FAA5580, 0xC0000001, 0xB4600000, "exact product loses a bit in alignment"),
    (0x40000000, 0x40400000, 0x3F800000, 0x40E00000, "2*3 + 1 = 7"),
    (0x3FC00000, 0x3FC00000, 0x00000000, 0x40100000, "1.5*1.5 = 2.25"),
]


@pytest.mark.parametrize("a,b,c,want", [e[:4] for e in BH_EXAMPLES], ids=[e[4] for e in BH_EXAMPLES])
def test_examples(a, b, c, want):
    assert fma_bh_scalar(a, b, c) == want


def test_examples_vectorised():
    a, b, c, want = (np.array(col, dtype=np.uint32) for col in list(zip(*BH_EXAMPLES))[:4])
    got = fma_bh(a, b, c)
    assert got.dtype == np.uint32
    np.testing.assert_array_equal(got, want)


# Where Blackhole and Wormhole part: (a, b, c, Blackhole, Wormhole, why).
BH_VS_WH = [
    (QNAN, 0x3F000000, 0x00000000, QNAN, 0x7FC00001, "NaN: canonical vs bits leaking in"),
    (PINF, 0x00000000, 0x3FC00000, QNAN, 0x7FC00001 | 0x3FC00000, "Inf*0 + 1.5"),
    (0x7F000000, 0x7F000000, NINF, NINF, 0x7F800001, "overflowed product - Inf"),
    (0x80000000, ONE, 0x80000000, SIGN, 0x00000000, "-0 * 1 + -0"),
    (0x9F800000, 0x20000000, 0x00000000, SIGN, 0x00000000, "-2**-127 flushed"),
    # 2**-126 * (1-2**-24) = 2**-126 - 2**-150, grid: 2**23 * (2**24-1) =
    # 2**47 - 2**23 -> 2**27 - 8 units at exponent field 0.  Wormhole rounds
    # it at 24 bits: exact, stays below 2**-126, flushed.  Blackhole shifts
    # it one more place (2**26 - 4, fraction 0x7FFFFF, guard bits 100: a tie
    # with an odd fraction) and rounds up to 2**-126 - which is also what
    # IEEE rounding on the denormal grid gives.
    (0x00800000, 0x3F7FFFFF, 0x00000000, MIN_NORMAL, 0x00000000, "rounds up to 2**-126"),
    (0x80800000, 0x3F7FFFFF, 0x00000000, SIGN | MIN_NORMAL, 0x00000000, "rounds up to -2**-126"),
    # 1.75*(1.5+3*2**-23) + (1.5+5*2**-23) = 4.125 + 2.5625 ulp; on the
    # 2**-25 grid the sum is 33*2**23 + 82 (>= 2**28): two places right.
    # Blackhole keeps both lost bits (82 & 3 = 2) as sticky: guard bits 101,
    # rounds up to +3 ulp, the correctly rounded result.  Wormhole drops
    # bit 1, sees a tie and stays at +2 ulp.
    (0x3FE00000, 0x3FC00003, 0x3FC00005, 0x40840003, 0x40840002, "renormalise keeps bit 1"),
]


@pytest.mark.parametrize("a,b,c,bh,wh", [e[:5] for e in BH_VS_WH], ids=[e[5] for e in BH_VS_WH])
def test_blackhole_vs_wormhole(a, b, c, bh, wh):
    assert fma_bh_scalar(a, b, c) == bh
    assert fma_wh_scalar(a, b, c) == wh


def test_rounds_up_to_min_normal_from_below_2_pow_minus_127():
    # x = 2**-126*(1+6*2**-23), y = 1.625, z = -2**-126*(1+2**-3+10*2**-23).
    # Exponent fields: product 1 + 127 - 127 = 1, z 1, so no alignment shift.
    # Product grid: (2**23+6)*(2**23+2**22+2**20) = 2**46+2**45+2**43+78*2**20
    # -> 2**26+2**25+2**23+78 units of 2**-152, nothing cut.  z: 8*(2**23+
    # 2**20+10) = 2**26+2**23+80 units.  Difference 2**25-2 units: the exact
    # result is 2**-127 - 2**-151.  Normalising puts it at exponent field -1;
    # Blackhole places it one place right of the hidden bit as for field 0
    # (2**26-4: fraction 0x7FFFFF, guard bits 100, odd) and rounds up:
    # 2**-126, twice the exact value.  Wormhole flushes it (field < 0).
    x, y, z = 0x00800006, 0x3FD00000, 0x8090000A
    exact = _value(x) * _value(y) + _value(z)
    assert exact == Fraction(2) ** -127 - Fraction(2) ** -151
    assert fma_bh_scalar(x, y, z) == MIN_NORMAL
    assert fma_bh_scalar(x ^ SIGN, y, z ^ SIGN) == SIGN | MIN_NORMAL
    assert fma_wh_scalar(x, y, z) == 0
    # z one ulp larger: difference 2**25-10 units, shifted to 2**26-20 =
    # fraction 0x7FFFFD with guard bits 100, which rounds up to 0x7FFFFE only:
    # still below 2**-126, flushed to a zero signed like the sum.
    assert fma_bh_scalar(x, y, z + 1) == 0
    assert fma_bh_scalar(x ^ SIGN, y, (z + 1) ^ SIGN) == SIGN


def _value(bits: int) -> Fraction:
    """Exact value of an FP32 normal, zero or (read as zero) denormal."""
    e, f = (bits >> 23) & 0xFF, bits & 0x7FFFFF
    assert e < 255
    v = Fraction(0) if e == 0 else Fraction((1 << 23) | f, 1 << 23) * Fraction(2) ** (e - 127)
    return -v if bits >> 31 else v


# ---------------------------------------------------------------------------
# 2. Exact products.  If x*y is itself an FP32 normal (so the 27-bit cut
#    loses nothing) and z is finite, the Blackhole result is the correctly
#    rounded x*y + z, with results below 2**-126 flushed to a zero that keeps
#    the sum's sign.  Why: with G, R and an ORed-in sticky bit, the aligned
#    add and the renormalising shifts decide RNE correctly; an addend
#    shifted out entirely is below an eighth of an ulp, too small to change
#    a nearest rounding; and a sum below 2**-126 of two multiples of 2**-149
#    is itself such a multiple, so nothing rounds it up.  Zero products and
#    zero sums follow IEEE's signed-zero rules (-0 only for -0 + -0).
#    float64 gives the expected value: a*b is exact in it, and double
#    rounding of a sum of two 24-bit values through 53 bits is innocuous.
# ---------------------------------------------------------------------------

def _f32_ftz(bits: np.ndarray) -> np.ndarray:
    """FP32 patterns -> float64, denormals read as zero of the same sign."""
    bits = np.asarray(bits, dtype=np.uint32)
    v = bits.view(np.float32).astype(np.float64)
    return np.where((bits & 0x7F800000) == 0, np.copysign(0.0, v), v)


def _round_flush_signed(v: np.ndarray) -> np.ndarray:
    """float64 -> FP32 bits: RNE, Inf on overflow, below 2**-126 a zero that
    keeps the sign."""
    with np.errstate(over="ignore"):
        r = v.astype(np.float32)
    r = np.where(np.abs(r) < np.float32(2.0**-126), np.copysign(np.float32(0), r), r)
    return r.astype(np.float32).view(np.uint32)


def _short(rng, n, max_bits=12, exp_lo=1, exp_hi=254):
    """Normals with 1..max_bits significand bits (hidden bit included)."""
    s = rng.integers(0, 2, n, dtype=np.uint32) << 31
    e = rng.integers(exp_lo, exp_hi + 1, n).astype(np.uint32)
    k = rng.integers(1, max_bits + 1, n).astype(np.uint32)
    f = rng.integers(0, 1 << 23, n, dtype=np.uint32) >> (24 - k) << (24 - k)
    return s | e << 23 | f


def test_exact_products_round_correctly():
    rng = np.random.default_rng(11)
    n = 300_000
    a = _short(rng, n)
    b = _short(rng, n)
    # products all over the range, a third near the bottom, a third near the top
    ea = ((a >> 23) & 0xFF).astype(np.int64)
    target = np.select([np.arange(n) % 3 == 0, np.arange(n) % 3 == 1],
                       [rng.integers(-2, 4, n), rng.integers(250, 255, n)], rng.integers(1, 254, n))
    eb = np.clip(target + 127 - ea, 1, 254).astype(np.uint32)
    b = (b & 0x807FFFFF) | eb << 23
    p = _f32_ftz(a) * _f32_ftz(b)
    with np.errstate(over="ignore"):
        p32 = p.astype(np.float32)
    normal = (np.abs(p) >= 2.0**-126) & np.isfinite(p32) & (p32.astype(np.float64) == p)
    # z: random finite; near -(a*b) (cancellation, results below 2**-126);
    # near a*b's exponent; zeros and denormals of both signs.
    kind = rng.integers(0, 5, n)
    pbits = p32.view(np.uint32)
    near = (pbits ^ np.uint32(SIGN)) + rng.integers(-6, 7, n).astype(np.uint32)
    pe = ((pbits >> 23) & 0xFF).astype(np.int64)
    gap = (rng.integers(0, 2, n, dtype=np.uint32) << 31) \
        | (np.clip(pe + rng.integers(-30, 31, n), 1, 254).astype(np.uint32) << 23) \
        | rng.integers(0, 1 << 23, n, dtype=np.uint32)
    tiny = (rng.integers(0, 2, n, dtype=np.uint32) << 31) | rng.choice(
        np.array([0, 1, 0x7FFFFF], dtype=np.uint32), n)
    c = np.select([kind == 0, kind == 1, kind == 2, kind == 3],
                  [_random_finite(rng, n), near, gap, tiny], _short(rng, n, 24)).astype(np.uint32)
    c = np.where((c & 0x7F800000) == 0x7F800000, np.uint32(0), c)       # finite only
    sel = normal
    assert sel.sum() > 200_000
    a, b, c, p = a[sel], b[sel], c[sel], p[sel]
    want = _round_flush_signed(p + _f32_ftz(c))
    got = fma_bh(a, b, c)
    # the cases that matter occur
    assert (want == SIGN).sum() > 500 and (want == 0).sum() > 500
    assert ((want & 0x7FFFFFFF) == 0x7F800000).sum() > 500
    np.testing.assert_array_equal(got, want)


def test_zero_products_follow_ieee_signed_zeros():
    rng = np.random.default_rng(12)
    n = 50_000
    zeros = np.array([0, SIGN, 1, 0x807FFFFF, 0x00400000, 0x80000001], dtype=np.uint32)
    a = rng.choice(zeros, n)
    b = _random_finite(rng, n)
    c = np.where(rng.integers(0, 2, n) == 0, rng.choice(zeros, n), _random_finite(rng, n))
    a, b = np.where(np.arange(n) % 2 == 0, a, b), np.where(np.arange(n) % 2 == 0, b, a)
    want = _round_flush_signed(_f32_ftz(a) * _f32_ftz(b) + _f32_ftz(c))
    # a normal z comes back bit for bit, a zero or denormal one as a signed zero
    assert ((want & 0x7FFFFFFF) == 0).sum() > 10_000
    np.testing.assert_array_equal(fma_bh(a, b, c), want)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1), st.integers(-50, 50), st.integers(1, 4095),
       st.integers(0, 1), st.integers(-50, 50), st.integers(1, 4095),
       st.integers(0, 1), st.integers(-20, 20), st.integers(1, (1 << 24) - 1))
def test_exact_products_hypothesis(s1, e1, m1, s2, e2, m2, s3, de, m3):
    # 12-bit significands: an exact product within 2**+-101, z within 20
    # binades of it (so a normal too); expected value: the exact sum, rounded
    # once (RNE).
    a, va = _fp32(s1, e1, m1)
    b, vb = _fp32(s2, e2, m2)
    p = va * vb
    c, vc = _fp32(s3, _floor_log2(abs(p)) + de, m3)
    assert fma_bh_scalar(a, b, c) == _rne_fp32(p + vc)


def _rne_fp32(s: Fraction) -> int:
    """Correct RNE of a rational known to be zero or to round to a normal or
    to 2**128 or more (then Inf)."""
    if s == 0:
        return 0
    e = _floor_log2(abs(s))
    units = abs(s) / Fraction(2) ** (e - 23)
    q, rem = divmod(units.numerator, units.denominator)
    rem = Fraction(rem, units.denominator)
    q += rem > Fraction(1, 2) or (rem == Fraction(1, 2) and q & 1)
    r = q * Fraction(2) ** (e - 23)
    if r >= Fraction(2) ** 128:
        return (s < 0) << 31 | PINF
    return _encode(r if s > 0 else -r)


# ---------------------------------------------------------------------------
# 3. Independent scalar reference in exact rational arithmetic.
#
# The same datapath as ref_wh in test_fma.py up to the exact sum (product cut
# to 27 bits + sticky on the grid 2**(E-153), E = ea+eb-127; semi-sticky
# alignment to the coarser grid), with Blackhole's ends:
#   * Inf/NaN operands or E >= 255 return at once: 0x7FC00000 for NaN
#     inputs, Inf*0 and Inf - Inf of an Inf input; else an Inf z; else the
#     product's Inf;
#   * E < 0 or a zero product: z if normal, else a zero signed -0 only if the
#     product and z are both negative; a zero sum is signed the same way;
#   * a sum with exponent field F = floor(log2|s|) + 127 >= 255 is Inf; for
#     F >= 1 one RNE at 24 bits (a carry to 2**128 is Inf);
#   * for F <= 0, |s| * 2**(149 - F) is rounded to an integer (the denormal
#     grid when F = 0, a coarser one below): 2**23 gives 2**-126, anything
#     else a zero; either keeps the sum's sign.
# ---------------------------------------------------------------------------

def ref_bh(a: int, b: int, c: int) -> int:
    ops = []
    for v in (a, b, c):
        s, e, f = v >> 31, (v >> 23) & 0xFF, v & 0x7FFFFF
        kind = "zero" if e == 0 else ("num" if e < 255 else ("inf" if f == 0 else "nan"))
        ops.append((s, e, 0 if e == 0 else f | 1 << 23, kind))
    (sa, ea, ma, ka), (sb, eb, mb, kb), (sc, ec, mc, kc) = ops
    ps = sa ^ sb
    pe = ea + eb - 127
    if "inf" in (ka, kb, kc) or "nan" in (ka, kb, kc) or pe >= 255:
        if ("nan" in (ka, kb, kc) or (ka == "inf" and kb == "zero") or (kb == "inf" and ka == "zero")
                or (kc == "inf" and "inf" in (ka, kb) and ps != sc)):
            return QNAN
        if kc == "inf":
            return c
        return ps << 31 | PINF

    two = Fraction(2)
    zero = (ps & sc) << 31
    kp = _cut_sticky(Fraction(ma * mb, 1 << 20), semi=False)
    if kp == 0 or pe < 0:
        return c if kc == "num" else zero
    gp, gz = two ** (pe - 153), two ** (ec - 153)
    g = max(gp, gz)
    p = _cut_sticky(kp * gp / g, semi=True) * g
    z = _cut_sticky((mc << 3) * gz / g, semi=True) * g
    s = (-1) ** ps * p + (-1) ** sc * z
    if s == 0:
        return zero
    sign = (s < 0) << 31
    m = abs(s)
    f = _floor_log2(m) + 127
    if f >= 255:
        return sign | PINF
    if f >= 1:
        return sign | _rne_fp32(m)
    q = m * two ** (149 - f)
    k, rem = divmod(q.numerator, q.denominator)
    rem = Fraction(rem, q.denominator)
    k += rem > Fraction(1, 2) or (rem == Fraction(1, 2) and k & 1)
    return sign | (MIN_NORMAL if k >= 1 << 23 else 0)


def test_reference_reproduces_hand_examples():
    for a, b, c, want, name in BH_EXAMPLES:
        assert ref_bh(a, b, c) == want, name
    for a, b, c, name in NAN_EXAMPLES:
        assert ref_bh(a, b, c) == QNAN, name
    for a, b, c, bh, _, name in BH_VS_WH:
        assert ref_bh(a, b, c) == bh, name


def _tiny_vectors():
    """Product and z in the lowest binades, differing by just under a power
    of two grid units: sums that land at exponent field 0 or below."""
    rnd = random.Random(77)
    vec = []
    for _ in range(4000):
        e = rnd.randrange(1, 5)
        ex = rnd.randrange(1, e + 127)
        x = rnd.getrandbits(1) << 31 | ex << 23 | rnd.getrandbits(23)
        y = rnd.getrandbits(1) << 31 | (e + 127 - ex) << 23 | rnd.choice(
            [rnd.getrandbits(23), rnd.getrandbits(8) << 15, 0])
        xm, ym = (x & 0x7FFFFF) | 1 << 23, (y & 0x7FFFFF) | 1 << 23
        kp = _cut_sticky(Fraction(xm * ym, 1 << 20), semi=False)
        zm = (kp - (1 << rnd.randrange(20, 28 - e)) + rnd.randrange(-8, 9)) >> 3
        if 1 << 23 <= zm < 1 << 24:
            vec.append((x, y, ((x ^ y) & SIGN) ^ SIGN | e << 23 | (zm & 0x7FFFFF)))
    return vec


def test_against_rational_reference():
    vec = _reference_vectors() + _tiny_vectors()
    a, b, c = (np.array(col, dtype=np.uint32) for col in zip(*vec))
    got = fma_bh(a, b, c)
    bad, round_ups = [], 0
    for (x, y, z), g in zip(vec, got.tolist()):
        w = ref_bh(x, y, z)
        round_ups += (w & 0x7FFFFFFF) == MIN_NORMAL and abs(_value(x) * _value(y) + _value(z)) < Fraction(2) ** -127
        if w != g:
            bad.append((hex(x), hex(y), hex(z), "got", hex(g), "want", hex(w)))
    assert not bad, bad[:10]
    assert round_ups > 20        # the round-up from below 2**-127 is exercised


# ---------------------------------------------------------------------------
# 4. Full cross product of special values against the rules.
# ---------------------------------------------------------------------------

def _kind(v: int) -> str:
    e, f = (v >> 23) & 0xFF, v & 0x7FFFFF
    return "zero" if e == 0 else "num" if e < 255 else "inf" if f == 0 else "nan"


def test_special_cross_product_rules():
    sp = np.array(SPECIALS, dtype=np.uint32)
    a, b, c = np.meshgrid(sp, sp, sp, indexing="ij")
    got = fma_bh(a, b, c)
    assert got.shape == a.shape
    for x, y, z, r in zip(a.ravel().tolist(), b.ravel().tolist(), c.ravel().tolist(), got.ravel().tolist()):
        kx, ky, kz = _kind(x), _kind(y), _kind(z)
        ps, zs = (x ^ y) >> 31, z >> 31
        overflow = kx == ky == "num" and ((x >> 23) & 0xFF) + ((y >> 23) & 0xFF) - 127 >= 255
        ctx = f"{x:08x}*{y:08x}+{z:08x} -> {r:08x}"
        # never a denormal; a NaN is always the canonical one
        assert not ((r & 0x7F800000) == 0 and r & 0x7FFFFF), ctx
        assert not ((r & 0x7F800000) == 0x7F800000 and r & 0x7FFFFF) or r == QNAN, ctx
        if (kx == "nan" or ky == "nan" or kz == "nan" or (kx == "inf" and ky == "zero")
                or (ky == "inf" and kx == "zero") or (kz == "inf" and "inf" in (kx, ky) and ps != zs)):
            assert r == QNAN, ctx
        elif kz == "inf":
            assert r == z, ctx
        elif kx == "inf" or ky == "inf" or overflow:
            assert r == (ps << 31 | PINF), ctx
        elif kx == "zero" or ky == "zero":
            # x*0 + z is exactly z, or a zero that is -0 only for -0 + -0
            assert r == (z if kz == "num" else (ps & zs) << 31), ctx


# ---------------------------------------------------------------------------
# 5. API: broadcasting, dtype, chunked evaluation, scalar wrapper.
# ---------------------------------------------------------------------------

def test_broadcasting_and_shapes():
    a = np.array([[ONE], [0x40000000], [0x40400000]], dtype=np.uint32)        # (3,1)
    b = np.array([ONE, 0x40000000, 0x3F000000, 0x80000000], dtype=np.uint32)  # (4,)
    got = fma_bh(a, b, ONE)
    assert got.shape == (3, 4) and got.dtype == np.uint32
    want = (np.array([1.0, 2.0, 3.0])[:, None] * np.array([1.0, 2.0, 0.5, -0.0]) + 1.0)
    np.testing.assert_array_equal(got, want.astype(np.float32).view(np.uint32))   # all exact
    assert fma_bh(ONE, ONE, 0).shape == ()
    assert int(fma_bh(ONE, ONE, 0)) == ONE
    assert fma_bh(np.zeros((0, 5), np.uint32), ONE, ONE).shape == (0, 5)
    assert isinstance(fma_bh_scalar(ONE, ONE, ONE), int)


def test_large_arrays_match_elementwise_evaluation():
    rng = np.random.default_rng(15)
    n = 50_001
    x, y, z = (rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    whole = fma_bh(x, y, z)
    parts = np.concatenate([fma_bh(x[i:i + 777], y[i:i + 777], z[i:i + 777]) for i in range(0, n, 777)])
    np.testing.assert_array_equal(whole, parts)
    idx = rng.integers(0, n, 300)
    assert [fma_bh_scalar(int(x[i]), int(y[i]), int(z[i])) for i in idx] == whole[idx].tolist()
    assert [ref_bh(int(x[i]), int(y[i]), int(z[i])) for i in idx] == whole[idx].tolist()
