"""Tests for ``model.fma`` (Wormhole SFPMAD arithmetic, spec section 5).

No expected value here was produced by running ``fma_wh``.  They come from:

* the worked examples and rules of spec section 5, with hand-derived values;
* exact arithmetic (Python ``Fraction``) and hardware float64, for cases
  where the WH result has to equal a known exact or correctly rounded value;
* ``ref_wh``, an independent scalar reference written below in terms of exact
  rational values (cut the product, align, add exactly, round once) rather
  than fixed-width bit manipulation.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tensix_sfpu.model.fma import fma_wh, fma_wh_scalar

ONE = 0x3F800000
PINF, NINF = 0x7F800000, 0xFF800000
QNAN = 0x7FC00000
SIGN = 0x80000000


def is_nan(r: int) -> bool:
    return (r & 0x7F800000) == 0x7F800000 and (r & 0x007FFFFF) != 0


# ---------------------------------------------------------------------------
# 1. Worked examples and rules of spec section 5 (values derived by hand)
# ---------------------------------------------------------------------------

SPEC_EXAMPLES = [
    # (1+2^-23)^2 - (1+2^-22): the product's 2^-46 term survives only as the
    # sticky bit, at weight 2^-26 (27-bit product), so the result is 2^-26.
    (0x3F800001, 0x3F800001, 0xBF800002, 0x32800000, "cancellation 2^-26"),
    # 2^-126 * (1-2^-24) = 2^-126 - 2^-150: exact at 24 bits, so nothing rounds
    # it up to 2^-126; it is below the normal range and flushes to +0.
    (0x00800000, 0x3F7FFFFF, 0x00000000, 0x00000000, "rounding-edge flush"),
    # 2^-126*(1+2^-23) * (1-2^-23) = 2^-126*(1-2^-46): rounds to 2^-126 at
    # 24 bits, so it is kept.
    (0x00800001, 0x3F7FFFFE, 0x00000000, 0x00800000, "rounds up to min normal"),
    # 2^-126 * 0.5 = 2^-127: below the normal range -> +0.
    (0x00800000, 0x3F000000, 0x00000000, 0x00000000, "2^-127 flushed"),
    # NaN(0x7FC00000)*0.5: the product exponent stays 254, so the product's
    # bits (exponent 0xFE, fraction 0x400000) are ORed into 0x7F800001.
    (QNAN, 0x3F000000, 0x00000000, 0x7FC00001, "NaN*0.5 leaks bits"),
    # NaN*1: product exponent saturates at 255, nothing is ORed in.
    (QNAN, ONE, 0x00000000, 0x7F800001, "NaN*1"),
    (0x7F800001, ONE, 0x00000000, 0x7F800001, "sNaN*1"),
    (0x7FFFFFFF, 0x40000000, 0x00000000, 0x7F800001, "NaN*2"),
    # NaN z: sign from z, exponent 255 after the add -> bare z_sign|0x7F800001.
    (ONE, ONE, 0xFFC00001, 0xFF800001, "1*1 + -NaN"),
    # -0 reads as zero and every zero result is +0.
    (0x80000000, ONE, 0x80000000, 0x00000000, "(-0)*1 + (-0)"),
    (ONE, ONE, 0xBF800000, 0x00000000, "1*1 - 1"),
    (0xBF800000, ONE, ONE, 0x00000000, "(-1)*1 + 1"),
    # Inf*0: p_sign|0x7F800001; the zero sum adds no bits.
    (PINF, 0x00000000, 0x00000000, 0x7F800001, "Inf*0"),
    (NINF, 0x00000000, 0x00000000, 0xFF800001, "-Inf*0"),
    (PINF, 0x80000000, 0x00000000, 0xFF800001, "Inf*(-0): p_sign uses the sign bit"),
    (0x00000001, PINF, 0x00000000, 0x7F800001, "denormal*Inf"),
    # Product 2^254 overflows on its own (exponent 254+254-127 >= 255); meeting
    # -Inf it gives NaN.  Saturated product 1.0*2^128 and Inf's 1.0*2^128
    # cancel exactly, so no bits are ORed in.  IEEE would give -Inf.
    (0x7F000000, 0x7F000000, NINF, 0x7F800001, "overflowed product - Inf"),
    (0xFF000000, 0x7F000000, PINF, 0xFF800001, "-overflowed product + Inf"),
    (0x7F000000, 0x7F000000, PINF, PINF, "overflowed product + Inf"),
    # 2^127 * 2 = 2^128 overflows on its own -> Inf, although the fused result
    # 2^128 - (2^128 - 2^104) = 2^104 is finite.
    (0x7F000000, 0x40000000, 0xFF7FFFFF, PINF, "product overflow beats z"),
    # A normal sum that overflows.
    (0x7F7FFFFF, ONE, 0x7F7FFFFF, PINF, "max + max"),
    # max + half an ulp of max: tie, max's fraction is odd -> rounds to Inf.
    (0x7F7FFFFF, ONE, 0x73000000, PINF, "max + half ulp"),
    (0xFF7FFFFF, ONE, 0xF3000000, NINF, "-max - half ulp"),
    # Inf op finite, and finite product + Inf z returns z.
    (PINF, 0xC0000000, ONE, NINF, "Inf*-2 + 1"),
    (ONE, 0x40000000, NINF, NINF, "1*2 - Inf"),
    (0x7F7FFFFF, 0x3F800000, PINF, PINF, "max*1 + Inf"),
    # Denormal inputs read as zero.
    (0x00000001, 0x7F7FFFFF, 0x00000000, 0x00000000, "denormal*max"),
    (ONE, ONE, 0x007FFFFF, ONE, "1*1 + denormal"),
    (0x007FFFFF, ONE, 0x807FFFFF, 0x00000000, "denormal + denormal"),
    # Difference of normals landing below 2^-126 (exact 2^-127) -> +0.
    (0x00C00000, ONE, 0x80800000, 0x00000000, "1.5*2^-126 - 2^-126"),
    # Plain add / multiply (product exact) behave as usual.
    (0x40000000, 0x40400000, 0x3F800000, 0x40E00000, "2*3 + 1 = 7"),
    (0x3FC00000, 0x3FC00000, 0x00000000, 0x40100000, "1.5*1.5 = 2.25"),
]


# Datapath details of the bit-perfect C model that section 5 does not spell
# out; values derived by hand from the rules listed above ref_wh below.
DATAPATH_EXAMPLES = [
    # Semi-sticky alignment: 1.5*(1+3*2^-23) = 1.5 + 4.5 ulp is an exact tie
    # (-> even, 1.5 + 4 ulp).  z = +-2^-60 is shifted out completely and
    # leaves no sticky bit, so it cannot break the tie.  IEEE fma: 0x3FC00005
    # for +2^-60.
    (0x3F800003, 0x3FC00000, 0x21800000, 0x3FC00004, "shifted-out z ignored (+)"),
    (0x3F800003, 0x3FC00000, 0xA1800000, 0x3FC00004, "shifted-out z ignored (-)"),
    # Two-place renormalisation loses a bit: 1.75*(1.5+3*2^-23) + (1.5+5*2^-23)
    # = 4.125 + 41*2^-25 = 4.125 + 2.5625 ulp.  On the 2^-25 grid the sum is
    # 33*2^23 + 82 (>= 2^28); shifting right by 2 keeps only bit 0 (= 0) as
    # sticky and drops bit 1, so the rounder sees an exact tie at 2.5 ulp and
    # goes to even: +2 ulp.  Correct rounding gives +3 ulp (0x40840003).
    (0x3FE00000, 0x3FC00003, 0x3FC00005, 0x40840002, "renormalise drops bit 1"),
    # Same with z = 1.5+2^-23: 4.125 + 1.5625 ulp; k = 33*2^23 + 50 has bit 1
    # set too, but rounding up is right anyway (+2 ulp).
    (0x3FE00000, 0x3FC00003, 0x3FC00001, 0x40840002, "renormalise, harmless"),
    # The product (1539/2^10) * (87211/2^16) = (2^27+1)/2^26 = 2 + 2^-26 is exact on the
    # 27-bit product grid (2^27+1 units of 2^-26), but z = -(2+2^-22) has the
    # larger exponent, the product is shifted one place right, and its last
    # bit becomes a sticky 1: z - p = (2^26+8) - (2^26+1) = 7 units of 2^-25.
    # Exact (and representable) result: -15*2^-26 (0xB4700000).
    (0x3FC06000, 0x3FAA5580, 0xC0000001, 0xB4600000, "exact product loses a bit in alignment"),
    # A product whose exponent field ea+eb-127 is below 0 is dropped before
    # the add: 2^-64*2^-64 + 2^-126 gives 2^-126 (exact: 1.25*2^-126).
    (0x1F800000, 0x1F800000, 0x00800000, 0x00800000, "product 2^-128 dropped"),
    (0x1F800000, 0x1F800000, 0x80800000, 0x80800000, "product 2^-128 dropped (-)"),
    # ... but exponent field 0 is kept: 2^-64*2^-63 = 2^-127 takes part.
    (0x1F800000, 0x20000000, 0x00800000, 0x00C00000, "product 2^-127 kept"),
    (0x1F800000, 0x20000000, 0x80C00000, 0x80800000, "product 2^-127 kept (-)"),
]


@pytest.mark.parametrize("a,b,c,want", [e[:4] for e in SPEC_EXAMPLES + DATAPATH_EXAMPLES],
                         ids=[e[4] for e in SPEC_EXAMPLES + DATAPATH_EXAMPLES])
def test_spec_examples(a, b, c, want):
    assert fma_wh_scalar(a, b, c) == want


def test_spec_examples_vectorised():
    a, b, c, want = (np.array(col, dtype=np.uint32) for col in list(zip(*SPEC_EXAMPLES))[:4])
    got = fma_wh(a, b, c)
    assert got.dtype == np.uint32
    np.testing.assert_array_equal(got, want)


def test_overflowed_product_minus_inf_is_nan_with_product_sign():
    # Not an exact cancellation: bits may leak in, but it is a NaN, LSB set,
    # sign of the product.  (IEEE: -Inf.)
    for a, b, c, sign in [(0x7F400000, 0x7F000000, NINF, 0),
                          (0x7F7FFFFF, 0x7F7FFFFF, NINF, 0),
                          (0xFF7FFFFF, 0x7F7FFFFF, PINF, 1)]:
        r = fma_wh_scalar(a, b, c)
        assert is_nan(r) and r & 1 and r >> 31 == sign, hex(r)


def test_inf_times_zero_leaks_z_bits():
    # Inf*0 continues with a zero product, so z (here 1.5) passes through the
    # adder and its exponent/fraction bits are ORed into p_sign|0x7F800001.
    assert fma_wh_scalar(PINF, 0, 0x3FC00000) == 0x7F800001 | 0x3FC00000
    assert fma_wh_scalar(NINF, 0, 0xBFC00000) == 0xFF800001 | 0x3FC00000


# ---------------------------------------------------------------------------
# 2. "Multiplying by 1.0 or adding 0 behaves like a plain add or multiply"
#    checked against hardware float64 (exact products, innocuous double
#    rounding for + and *), flush-to-zero after 24-bit rounding, +0 zeros.
# ---------------------------------------------------------------------------

def _f32(bits: np.ndarray) -> np.ndarray:
    """FP32 patterns -> float64, denormals and -0 read as +0."""
    bits = np.asarray(bits, dtype=np.uint32)
    v = bits.view(np.float32).astype(np.float64)
    return np.where((bits & 0x7F800000) == 0, 0.0, v)


def _ftz_round(v: np.ndarray) -> np.ndarray:
    """Round float64 values to FP32 (RNE, 24 bits, unbounded exponent), then
    flush anything below 2^-126 to +0; overflow gives Inf."""
    with np.errstate(over="ignore"):
        big = v.astype(np.float32)                  # normal range: plain RNE
        small = (v * 2.0**64).astype(np.float32)    # tiny: round at 24 bits
    small = np.where(np.abs(small) >= np.float32(2.0**-62),
                     small * np.float32(2.0**-64), np.float32(0))
    r = np.where(np.abs(v) >= 2.0**-100, big, small)
    return np.where(r == 0, np.uint32(0), r.view(np.uint32))


def _random_finite(rng, n):
    """Random finite patterns: uniform exponents 0..254, random fractions."""
    s = rng.integers(0, 2, n, dtype=np.uint32) << 31
    e = rng.integers(0, 255, n, dtype=np.uint32) << 23
    f = rng.integers(0, 1 << 23, n, dtype=np.uint32)
    return s | e | f


def test_times_one_is_ftz_add():
    rng = np.random.default_rng(1)
    n = 200_000
    a = _random_finite(rng, n)
    c = _random_finite(rng, n)
    # also sums of close values (cancellation) and tiny results
    c[: n // 2] = (a[: n // 2] ^ SIGN) + rng.integers(-40, 40, n // 2).astype(np.uint32)
    c = np.where((c & 0x7F800000) == 0x7F800000, a, c)   # keep finite
    want = _ftz_round(_f32(a) + _f32(c))
    np.testing.assert_array_equal(fma_wh(a, ONE, c), want)
    np.testing.assert_array_equal(fma_wh(ONE, a, c), want)
    np.testing.assert_array_equal(fma_wh(a, 0xBF800000, c), _ftz_round(_f32(c) - _f32(a)))


def test_plus_zero_is_ftz_mul():
    rng = np.random.default_rng(2)
    n = 200_000
    a = _random_finite(rng, n)
    b = _random_finite(rng, n)
    # concentrate half the products around the bottom of the normal range
    ea = ((a[: n // 2] >> 23) & 0xFF).astype(np.int64)
    eb = np.clip(127 - ea + rng.integers(-2, 3, n // 2), 1, 254).astype(np.uint32)
    b[: n // 2] = (b[: n // 2] & 0x807FFFFF) | eb << 23
    with np.errstate(over="ignore"):
        want = _ftz_round(_f32(a) * _f32(b))
    for z in (0x00000000, 0x80000000, 0x00000001, 0x807FFFFF):
        np.testing.assert_array_equal(fma_wh(a, b, z), want)


# ---------------------------------------------------------------------------
# 3. Exact results.  Section 5 shows the result is NOT exact in general even
#    when a*b+c is representable ((1+2^-23)^2-(1+2^-22) gives 2^-26, not
#    2^-46; an exact product can also lose a bit when aligned below z).  What
#    does hold: if a*b itself is an FP32 normal (so the 27-bit cut and the
#    alignment lose nothing that matters) and a*b+c is zero or an FP32
#    normal, the result is exactly a*b+c (+0 for zero).
# ---------------------------------------------------------------------------

def _exact_normal_bits(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(is an FP32 normal or zero, its bits with +0) for float64 values."""
    with np.errstate(over="ignore"):
        v32 = v.astype(np.float32)
    ok = (v32.astype(np.float64) == v) & ((np.abs(v) >= 2.0**-126) | (v == 0)) & np.isfinite(v32)
    return ok, np.where(v == 0, np.uint32(0), v32.view(np.uint32))


def test_exact_results_batch():
    rng = np.random.default_rng(3)
    n = 400_000

    def short(k_bits):
        # normal with at most k_bits significand bits (including the hidden bit)
        s = rng.integers(0, 2, n, dtype=np.uint32) << 31
        e = rng.integers(1, 255, n, dtype=np.uint32)
        f = rng.integers(0, 1 << (k_bits - 1), n, dtype=np.uint32) << (24 - k_bits)
        return s, e, f

    sa, ea, fa = short(12)
    sb, eb, fb = short(12)
    eb = np.clip(254 - ea + rng.integers(-130, 4, n), 1, 254).astype(np.uint32)
    a, b = sa | ea << 23 | fa, sb | eb << 23 | fb
    p = _f32(a) * _f32(b)                        # exact: <= 24 significand bits
    # c: within +-26 binades of the product, assorted significand widths,
    # and exact negations of the product (zero results).
    sc, _, _ = short(24)
    pe = np.floor(np.log2(np.abs(p))).astype(np.int64) + 127
    ec = np.clip(pe + rng.integers(-26, 27, n), 1, 254).astype(np.uint32)
    width = rng.integers(1, 25, n)
    fc = rng.integers(0, 1 << 23, n, dtype=np.uint32) >> (24 - width).astype(np.uint32) << (24 - width).astype(np.uint32)
    c = sc | ec << 23 | fc
    neg = rng.integers(0, 8, n) == 0
    p_ok, p_bits = _exact_normal_bits(p)
    c = np.where(neg & p_ok, p_bits ^ np.uint32(SIGN), c)
    cv = _f32(c)
    s = p + cv
    err = (p - (s - (s - p))) + (cv - (s - p))   # TwoSum: s is exact iff err == 0
    r_ok, r_bits = _exact_normal_bits(s)
    sel = p_ok & r_ok & (err == 0)
    assert sel.sum() > 50_000 and (s[sel] == 0).sum() > 10_000
    np.testing.assert_array_equal(fma_wh(a[sel], b[sel], c[sel]), r_bits[sel])


def _fp32(sign: int, exp: int, sig: int) -> tuple[int, Fraction]:
    """FP32 normal (-1)^sign * sig/2^(k-1) * 2^exp for a k-bit integer sig;
    returns (bits, value)."""
    k = sig.bit_length()
    frac = (sig << (24 - k)) & 0x7FFFFF
    return sign << 31 | (exp + 127) << 23 | frac, (-1) ** sign * Fraction(sig, 1 << (k - 1)) * Fraction(2) ** exp


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1), st.integers(-50, 50), st.integers(64, 127),
       st.integers(0, 1), st.integers(-50, 50), st.integers(64, 127),
       st.integers(0, 1), st.integers(-8, 8), st.integers(64, 127))
def test_exact_results_hypothesis(s1, e1, m1, s2, e2, m2, s3, de, m3):
    # 7-bit significands: the product has <= 14 bits and c's leading bit is
    # within 9 binades of the product's, so a*b+c spans at most 24 bits and
    # is always representable (exponents are kept well inside the range).
    a, va = _fp32(s1, e1, m1)
    b, vb = _fp32(s2, e2, m2)
    p = va * vb
    ep = p.numerator.bit_length() - p.denominator.bit_length()
    c, vc = _fp32(s3, ep + de, m3)
    r = p + vc
    if r == 0:
        want = 0
    else:
        assert abs(r) >= Fraction(2) ** -126
        want = _encode(r)
    assert fma_wh_scalar(a, b, c) == want


def _encode(r: Fraction) -> int:
    """Bits of a Fraction known to be an FP32 normal."""
    sign = 1 if r < 0 else 0
    r = abs(r)
    e = _floor_log2(r)
    sig = r / Fraction(2) ** (e - 23)
    assert sig.denominator == 1 and 1 << 23 <= sig < 1 << 24 and -126 <= e <= 127
    return sign << 31 | (e + 127) << 23 | (int(sig) & 0x7FFFFF)


# ---------------------------------------------------------------------------
# 4. Independent scalar reference in exact rational arithmetic.
#
# Values are Fractions throughout.  The rules (section 5 plus the exact
# datapath of the bit-perfect C model):
#   * operands: exponent field 0 -> 0; Inf/NaN -> NaN/Inf handling below;
#   * product: its exponent field is E = ea+eb-127, i.e. nominal leading bit
#     2^(E-127) (the true one may be a place higher), and its "grid" (weight
#     of the lowest kept bit) is 2^(E-153): 24 bits + 3 guard bits.  The
#     exact product is cut to that grid, ORing 1 into the last place when
#     anything was cut ("27 bits + sticky").  E < 0 or a zero product drops
#     the product entirely (result z, or +0);
#   * z sits on the grid 2^(ez-153) likewise (its 3 guard bits are zero);
#   * alignment: both go on the coarser grid; the finer one is cut to it
#     with a sticky 1 - unless nothing at all survives, in which case it is 0;
#   * exact sum; if it is >= 2^28 grid units the adder's 2-place renormalise
#     keeps only the lowest unit as sticky (the next one is lost - HW bug);
#   * one RNE to 24 significant bits (unbounded exponent); below 2^-126 -> +0,
#     >= 2^128 -> Inf; zero -> +0;
#   * NaN lanes: the same datapath runs with Inf/NaN operands read as
#     1.fraction * 2^128 and the product exponent saturated at 255; a finite
#     normal outcome has its bits ORed into the NaN.
# ---------------------------------------------------------------------------

def _floor_log2(q: Fraction) -> int:
    e = q.numerator.bit_length() - q.denominator.bit_length()
    return e - 1 if Fraction(2) ** e > q else e


def _cut_sticky(q: Fraction, semi: bool) -> int:
    """floor(q) (q >= 0) with 1 ORed in if q was not an integer; if semi and
    floor(q) == 0, the result is 0."""
    fl = q.numerator // q.denominator
    if semi and fl == 0:
        return 0
    return fl | (fl != q)


def _round_to_fp32(s: Fraction) -> tuple[str, int]:
    """One RNE at 24 bits with WH's range rules.  Returns (kind, bits) with
    kind 'zero' (bits +0), 'inf' (signed Inf) or 'num' (a normal)."""
    if s == 0:
        return "zero", 0
    inf = ("inf", (s < 0) << 31 | 0x7F800000)
    mag = abs(s)
    e = _floor_log2(mag)
    if e < -127:
        return "zero", 0
    if e >= 128:
        return inf
    units = mag / Fraction(2) ** (e - 23)
    q = units.numerator // units.denominator
    rem = units - q
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and q & 1):
        q += 1
    r = q * Fraction(2) ** (e - 23)
    if r < Fraction(2) ** -126:
        return "zero", 0
    if r >= Fraction(2) ** 128:
        return inf
    return "num", _encode(r if s > 0 else -r)


def _datapath(sa, ea, ma, sb, eb, mb, sc, ec, mc, nan_lane):
    two = Fraction(2)
    pe = ea + eb - 127
    if nan_lane:
        pe = min(pe, 255)
    gp = two ** (pe - 153)
    kp = _cut_sticky(Fraction(ma * mb, 1 << 20), semi=False)
    if kp == 0 or pe < 0:
        kp, gp = 0, two ** -153
    p = (-1) ** (sa ^ sb) * kp * gp
    gz = two ** (ec - 153)
    z = (-1) ** sc * (mc << 3) * gz
    g = max(gp, gz)
    p = (-1) ** (sa ^ sb) * _cut_sticky(abs(p) / g, semi=True) * g
    z = (-1) ** sc * _cut_sticky(abs(z) / g, semi=True) * g
    s = p + z
    k = abs(s) / g
    assert k.denominator == 1
    if k >= 1 << 28:
        k = int(k)
        s = (1 if s > 0 else -1) * (((k >> 2) | (k & 1)) << 2) * g
    return _round_to_fp32(s)


def ref_wh(a: int, b: int, c: int) -> int:
    """Reference WH result of a*b+c on FP32 bit patterns (see rules above)."""
    ops = []
    for v in (a, b, c):
        s, e, f = v >> 31, (v >> 23) & 0xFF, v & 0x7FFFFF
        kind = "zero" if e == 0 else ("num" if e < 255 else ("inf" if f == 0 else "nan"))
        ops.append((s, e, 0 if e == 0 else f | 1 << 23, kind))
    (sa, ea, ma, ka), (sb, eb, mb, kb), (sc, ec, mc, kc) = ops
    ps = sa ^ sb
    p_inf = ka in ("inf", "nan") or kb in ("inf", "nan") or (ka == kb == "num" and ea + eb - 127 >= 255)

    nan_sign = None
    if (ka == "nan" or kb == "nan" or (ka == "inf" and kb == "zero") or (kb == "inf" and ka == "zero")
            or (kc == "inf" and p_inf and ps != sc)):
        nan_sign = ps
    elif kc == "nan":
        nan_sign = sc
    elif kc == "inf":
        return c
    elif p_inf:
        return ps << 31 | 0x7F800000

    kind, bits = _datapath(sa, ea, ma, sb, eb, mb, sc, ec, mc, nan_sign is not None)
    if nan_sign is not None:
        base = nan_sign << 31 | 0x7F800001
        return base | (bits & 0x7FFFFFFF) if kind == "num" else base
    return bits


def test_reference_reproduces_spec_examples():
    for a, b, c, want, name in SPEC_EXAMPLES + DATAPATH_EXAMPLES:
        assert ref_wh(a, b, c) == want, name


SPECIALS = [
    0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x00800001, 0x00FFFFFF, 0x01000000,
    0x3F000000, 0x3F7FFFFF, 0x3F800000, 0x3F800001, 0x3FC00000, 0x40000000, 0x3FB504F3,
    0x1F800000, 0x1F7FFFFF, 0x20000000, 0x5F800000, 0x5F7FFFFF, 0x5F000000, 0x33800000,
    0x7F000000, 0x7F7FFFFE, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF,
]
SPECIALS = SPECIALS + [v | SIGN for v in SPECIALS]


def _reference_vectors():
    rnd = random.Random(1234)
    vec = []
    for _ in range(3000):                       # special-value triples
        vec.append((rnd.choice(SPECIALS), rnd.choice(SPECIALS), rnd.choice(SPECIALS)))
    for _ in range(2000):                       # raw random bit patterns
        vec.append((rnd.getrandbits(32), rnd.getrandbits(32), rnd.getrandbits(32)))

    def frac():
        return rnd.choice([rnd.getrandbits(23), rnd.getrandbits(23) & ~0xFFF, 0, 0x7FFFFF,
                           (1 << rnd.randrange(23)) | (1 << rnd.randrange(23))])

    def num(sign, e):
        return sign << 31 | max(0, min(255, e)) << 23 | frac()

    for _ in range(8000):                       # product and z exponents close
        ea = rnd.randrange(1, 255)
        eb = max(1, min(254, 254 - ea + rnd.randrange(-128, 129)))
        ez = ea + eb - 127 + rnd.choice([rnd.randrange(-4, 5), rnd.randrange(-40, 41)])
        if rnd.random() < 0.05:
            ez = rnd.choice([0, 255])
        vec.append((num(rnd.getrandbits(1), ea), num(rnd.getrandbits(1), eb), num(rnd.getrandbits(1), ez)))
    for _ in range(3000):                       # cancellation: c ~ -(a*b)
        a, b = num(rnd.getrandbits(1), rnd.randrange(64, 190)), num(rnd.getrandbits(1), rnd.randrange(64, 190))
        p = np.float32(np.float64(np.uint32(a).view(np.float32)) * np.float64(np.uint32(b).view(np.float32)))
        c = (int(p.view(np.uint32)) + rnd.randrange(-3, 4)) ^ SIGN
        vec.append((a, b, c & 0xFFFFFFFF))
    for _ in range(4000):
        # same-sign add, equal exponents, exact product (a has a 4-bit
        # significand): sums >= 2^28 grid units exercise the 2-place
        # renormalisation with a clean bit 0
        ea, eb = rnd.randrange(64, 190), rnd.randrange(64, 190)
        s = rnd.getrandbits(1)
        a = rnd.getrandbits(1) << 31 | ea << 23 | rnd.randrange(8) << 20
        b = (s ^ a >> 31) << 31 | eb << 23 | rnd.getrandbits(23)
        vec.append((a, b, s << 31 | (ea + eb - 127) << 23 | rnd.getrandbits(23)))
    for i in range(24):                         # products (1+i*2^-23)(1-j*2^-24)*2^-126
        for j in range(24):                     # straddling the bottom of the range
            for z in (0, 0x80000000, 0x00000001):
                vec.append((0x00800000 + i, 0x3F800000 - j, z))
    for _ in range(3000):                       # results around 2^-126
        ea = rnd.randrange(1, 128)
        eb = max(0, 127 - ea + rnd.randrange(-1, 3))
        vec.append((num(rnd.getrandbits(1), ea), num(rnd.getrandbits(1), eb),
                    rnd.choice([0, 0x80000000, num(rnd.getrandbits(1), rnd.randrange(0, 4))])))
    return vec


def test_against_rational_reference():
    vec = _reference_vectors()
    a, b, c = (np.array(col, dtype=np.uint32) for col in zip(*vec))
    got = fma_wh(a, b, c)
    bad = []
    for (x, y, z), g in zip(vec, got.tolist()):
        w = ref_wh(x, y, z)
        if w != g:
            bad.append((hex(x), hex(y), hex(z), "got", hex(g), "want", hex(w)))
    assert not bad, bad[:10]


# ---------------------------------------------------------------------------
# 5. Full cross product of special values against the rules of section 5.
# ---------------------------------------------------------------------------

def _kind(v: int) -> str:
    e, f = (v >> 23) & 0xFF, v & 0x7FFFFF
    return "zero" if e == 0 else "num" if e < 255 else "inf" if f == 0 else "nan"


def test_special_cross_product_rules():
    sp = np.array(SPECIALS, dtype=np.uint32)
    a, b, c = np.meshgrid(sp, sp, sp, indexing="ij")
    got = fma_wh(a, b, c)
    assert got.shape == a.shape
    for x, y, z, r in zip(a.ravel().tolist(), b.ravel().tolist(), c.ravel().tolist(), got.ravel().tolist()):
        kx, ky, kz = _kind(x), _kind(y), _kind(z)
        ps, zs = (x ^ y) >> 31, z >> 31
        overflow = kx == ky == "num" and ((x >> 23) & 0xFF) + ((y >> 23) & 0xFF) - 127 >= 255
        p_inf = kx in ("inf", "nan") or ky in ("inf", "nan") or overflow
        ctx = f"{x:08x}*{y:08x}+{z:08x} -> {r:08x}"
        # never -0, never a denormal
        assert r != SIGN and not ((r & 0x7F800000) == 0 and r != 0), ctx
        if (kx == "nan" or ky == "nan" or (kx == "inf" and ky == "zero") or (ky == "inf" and kx == "zero")
                or (kz == "inf" and p_inf and ps != zs)):
            assert is_nan(r) and r & 1 and r >> 31 == ps, ctx
        elif kz == "nan":
            assert is_nan(r) and r & 1 and r >> 31 == zs, ctx
        elif kz == "inf":
            assert r == z, ctx
        elif p_inf:
            assert r == (ps << 31 | 0x7F800000), ctx
        else:
            assert not is_nan(r), ctx
            if kx == "zero" or ky == "zero":
                assert r == (z if kz == "num" else 0), ctx     # x*0 + z is exactly z
            if kz == "zero" and (kx == "zero" or ky == "zero"):
                assert r == 0, ctx


# ---------------------------------------------------------------------------
# 6. API: broadcasting, dtype, chunked evaluation, scalar wrapper.
# ---------------------------------------------------------------------------

def test_broadcasting_and_shapes():
    a = np.array([[ONE], [0x40000000], [0x40400000]], dtype=np.uint32)      # (3,1)
    b = np.array([ONE, 0x40000000, 0x3F000000, 0x80000000], dtype=np.uint32)  # (4,)
    got = fma_wh(a, b, ONE)
    assert got.shape == (3, 4) and got.dtype == np.uint32
    av = np.array([1.0, 2.0, 3.0])[:, None]
    bv = np.array([1.0, 2.0, 0.5, -0.0])[None, :]
    want = (av * bv + 1.0).astype(np.float32).view(np.uint32)   # all exact
    np.testing.assert_array_equal(got, want)
    assert fma_wh(ONE, ONE, 0).shape == ()
    assert int(fma_wh(ONE, ONE, 0)) == ONE
    assert fma_wh(np.zeros((0, 5), np.uint32), ONE, ONE).shape == (0, 5)


def test_large_arrays_match_elementwise_evaluation():
    # Larger than any internal chunk; each slice evaluated alone must agree.
    rng = np.random.default_rng(5)
    n = 50_001
    x, y, z = (rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    whole = fma_wh(x, y, z)
    parts = np.concatenate([fma_wh(x[i:i + 777], y[i:i + 777], z[i:i + 777]) for i in range(0, n, 777)])
    np.testing.assert_array_equal(whole, parts)
    idx = rng.integers(0, n, 300)
    assert [fma_wh_scalar(int(x[i]), int(y[i]), int(z[i])) for i in idx] == whole[idx].tolist()
    assert [ref_wh(int(x[i]), int(y[i]), int(z[i])) for i in idx] == whole[idx].tolist()
