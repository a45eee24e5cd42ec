"""Wormhole B0 and Blackhole SFPU multiply-add arithmetic (SFPMAD and friends), bit-exact.

``fma(a, b, c, features)`` returns the FP32 bit pattern that an SFPU MAD unit
produces for ``a * b + c``; four features (``FmaFeatures``, the fields of the
same names in ``model.isa.Features``) switch the steps where the chips differ,
as hdl/fma.py's do.  ``fma_wh`` and ``fma_bh`` are the two chips' settings.
Inputs and outputs are FP32 bit patterns held in unsigned 32-bit integers; any
shapes that broadcast together are accepted.

Neither unit is an IEEE fma (spec section 5).  What both share:

* denormal inputs read as zero;
* the 48-bit significand product is cut down to 27 bits + a sticky bit
  before the add, and the product's exponent is taken from the inputs'
  exponents alone (its leading bit may sit one place higher);
* a product whose exponent reaches 255 is Inf on its own;
* the smaller addend is aligned with a "semi-sticky" shift: the sticky bit
  is only kept when some bit survives the shift;
* one round-to-nearest-even on three guard bits.

Where they differ, by feature (Wormhole has only product_overflow_inf,
Blackhole the other three):

* canonical_nan: every NaN result is 0x7FC00000 and every Inf/NaN case
  returns at once; zeros are IEEE-signed (a dropped product with a zero or
  denormal z, and an exact cancellation, give a zero negative only if both
  the product's and z's signs are), and a flushed result keeps its sign.
  Without it, -0 reads as zero, every zero result is +0, and NaN results are
  ``sign | 0x7F800001`` with bits of the continuing computation ORed in;
* flush_after_round: a result whose exponent is 0 or below is shifted one
  place further and rounded with exponent 0, so it survives only if it rounds
  up to 2**-126 (even from below 2**-127).  Without it results below 2**-126
  are flushed, and rounding in the binade just below is done at 24-bit
  precision, so that some values which should round up to the minimum normal
  are flushed;
* sticky_keeps_bit1: the renormalising right shift keeps every shifted-out
  bit as sticky.  Without it, a shift by two places loses the upper of the two;
* product_overflow_inf: an overflowed finite product meeting an opposite Inf
  is a NaN.  Without it, that Inf is the result (only a product of an Inf
  input is Inf - Inf).

Everything below is plain numpy over whole arrays; large inputs are processed
in cache-sized chunks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["FmaFeatures", "WORMHOLE_FMA", "BLACKHOLE_FMA", "fma", "fma_wh", "fma_wh_scalar", "fma_bh", "fma_bh_scalar"]

_SIGN = np.uint32(0x80000000)
_FRAC = 0x007FFFFF
_HIDDEN = 0x00800000
_INF = np.uint32(0x7F800000)
_NAN_BASE = np.uint32(0x7F800001)
_NAN_BH = np.uint32(0x7FC00000)

# Elements per chunk, so that the live temporaries stay in cache.  Measured on
# 10M random triples (one core): 4096 -> ~17.6M/s, 32768 -> ~11M/s, whole
# array -> ~12M/s (a drop already at 6144: the temporaries outgrow L1).
_CHUNK = 1 << 12


def _rshift_semi_sticky(v: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``v >> s`` (v < 2**29, s >= 0), ORing 1 into the result when bits were
    lost *and* the shifted value is non-zero.  A value shifted out entirely
    becomes 0, not a sticky 1 - that is what the hardware's aligner does."""
    s = np.minimum(s, 30)  # v < 2**29, so 30 already empties it; keeps masks in int32
    kept = v >> s
    lost = (v & ((np.int32(1) << s) - 1)) != 0
    return kept | (lost & (kept != 0))


def _bit_length(v: np.ndarray) -> np.ndarray:
    """Bit length of non-negative int32 values (int32 result; 0 gives a large
    negative number).  float64 holds these integers exactly, so its biased
    exponent field is bit_length + 1022."""
    return (v.astype(np.float64).view(np.int64) >> 52).astype(np.int32) - 1022


def _unpack(v: np.ndarray):
    """Biased exponent, fraction and significand with the hidden bit (int32).
    Exponent 0 (zero or denormal) reads as significand 0; Inf/NaN keep
    theirs (1.fraction), which matters only to Wormhole's NaN lanes."""
    e = (v >> 23).astype(np.int32) & 0xFF
    f = (v & _FRAC).astype(np.int32)
    return e, f, np.where(e != 0, f | _HIDDEN, 0)


def _product(xm: np.ndarray, ym: np.ndarray, xe: np.ndarray, ye: np.ndarray):
    """The product cut to the adder's grid: (significand, biased exponent).

    Full 48-bit product, then keep 27 bits + sticky: (m*8) >> 23 with the 23
    dropped bits ORed into the LSB, i.e. m >> 20 | (low 20 bits != 0).  The
    product is then on the same 3-guard-bit grid as z, may be up to 2**28,
    and has biased exponent xe + ye - 127 irrespective of whether its leading
    bit is at 2**26 or 2**27."""
    p48 = xm.astype(np.uint64) * ym.astype(np.uint64)
    pm = ((p48 >> 20) | ((p48 & 0xFFFFF) != 0)).astype(np.int32)
    return pm, xe + ye - 127


def _align_add(pm, pe, p_sign, zm, ze, z_sign):
    """Align both addends to the larger exponent (semi-sticky) and add them
    as sign and magnitude: (sign, magnitude < 2**29, exponent of bit 26).
    The sign is that of the larger aligned magnitude, the product's on a tie."""
    re = np.maximum(pe, ze)
    pm = _rshift_semi_sticky(pm, re - pe)
    zm = _rshift_semi_sticky(zm, re - ze)
    r_sign = np.where(pm >= zm, p_sign, z_sign)
    rm = np.where(p_sign == z_sign, pm + zm, np.abs(pm - zm))
    return r_sign, rm, re


def _round(re: np.ndarray, rm: np.ndarray) -> np.ndarray:
    """Exponent and 23 fraction bits of a significand normalised to bit 26,
    then round-to-nearest-even on the three guard bits; a carry may ripple
    into the exponent (up to Inf, or from exponent 0 up to 2**-126)."""
    r = ((re << 23) + ((rm >> 3) & _FRAC)).astype(np.uint32)
    return r + (((rm & 7) + (r & 1).astype(np.int32)) > 4)


class FmaFeatures(NamedTuple):
    """The four ways the two chips' FMAs differ (model.isa.Features has the
    same fields, with their meanings; any object with them will do)."""
    canonical_nan: bool          # one NaN, nothing leaks; IEEE-signed zeros, flushed results keep their sign
    flush_after_round: bool      # results below 2**-126 rounded at exponent 0, then flushed
    sticky_keeps_bit1: bool      # the 2-place right normalisation ORs bit 1 into the sticky bit too
    product_overflow_inf: bool   # an overflowed finite product is an Inf against an opposite Inf z

    @classmethod
    def of(cls, features) -> "FmaFeatures":
        return cls(*(bool(getattr(features, name)) for name in cls._fields))


WORMHOLE_FMA = FmaFeatures(canonical_nan=False, flush_after_round=False, sticky_keeps_bit1=False,
                           product_overflow_inf=True)
BLACKHOLE_FMA = FmaFeatures(canonical_nan=True, flush_after_round=True, sticky_keeps_bit1=True,
                            product_overflow_inf=False)


def _fma_flat(x: np.ndarray, y: np.ndarray, z: np.ndarray, f: FmaFeatures) -> np.ndarray:
    """One FMA on 1-D uint32 arrays of equal length, each feature switching its
    own step (as hdl/fma.py's do).  Every lane runs the whole datapath; the
    lanes decided early (specials, a dropped product) are selected at the end."""
    # ---- classify -------------------------------------------------------
    xe, xf, xm = _unpack(x)
    ye, yf, ym = _unpack(y)
    ze, zf, zm = _unpack(z)
    zm = zm << 3  # 3 guard bits: 27 bits total

    p_sign = (x ^ y) & _SIGN
    z_sign = z & _SIGN
    zero_sign = p_sign & z_sign if f.canonical_nan else np.uint32(0)   # the sign of an early zero

    x_spec, y_spec, z_spec = xe == 255, ye == 255, ze == 255
    z_nan = z_spec & (zf != 0)
    z_inf = z_spec & (zf == 0)

    pm, pe = _product(xm, ym, xe, ye)

    # ---- special cases (NaN / Inf inputs, product overflow) -------------
    # The product alone overflowing (its exponent reaches 255) makes it Inf.
    # Invalid: a NaN x or y, Inf * 0, or Inf - Inf, where an overflowed
    # finite product counts as Inf only under product_overflow_inf: a NaN
    # signed like the product.  Otherwise a NaN z gives a NaN signed like z.
    p_inf_like = x_spec | y_spec | (pe >= 255)
    inf_product = p_inf_like if f.product_overflow_inf else x_spec | y_spec
    any_special = p_inf_like | z_spec
    nan_p = (
        (x_spec & (xf != 0)) | (y_spec & (yf != 0))
        | (x_spec & (ye == 0)) | (y_spec & (xe == 0))
        | (z_inf & inf_product & (p_sign != z_sign))
    )
    nan_z = z_nan & ~nan_p
    is_nan = nan_p | nan_z
    # Not a NaN: an Inf z wins, else the product's Inf.
    inf_res = np.where(z_spec, z, p_sign | _INF)
    if f.canonical_nan:
        # One NaN, and every special lane is decided here: nothing leaks.
        special = np.where(is_nan, _NAN_BH, inf_res)
    else:
        # NaN lanes carry on through the datapath and OR their bits into the
        # NaN (spec section 5); the exponent of such a product saturates.
        nan_res = np.where(nan_p, p_sign | _NAN_BASE,
                           np.where(nan_z, z_sign | _NAN_BASE, np.uint32(0)))
        pe = np.minimum(pe, 255)

    # ---- product underflow / zero -----------------------------------------
    # A zero product, or one whose exponent is below 0 (below 2**-126),
    # leaves z (a zero or denormal z: a zero).  NaN lanes continue with a
    # zero product.
    p_gone = (pm == 0) | (pe < 0)
    gone = np.where(ze != 0, z, zero_sign)
    pm = np.where(p_gone, 0, pm)
    pe = np.where(p_gone, 0, pe)

    r_sign, rm, re = _align_add(pm, pe, p_sign, zm, ze, z_sign)

    # ---- normalise ----------------------------------------------------------
    # Leading one to bit 26.  Left shifts are exact.  A right shift (by 1 or
    # 2: the sum is below 2**29) ORs the sum's bit 0 into the sticky position
    # and, under sticky_keeps_bit1, bit 1 too (n | 1 selects both for n = 2);
    # without it a 2-place shift drops bit 1 (Wormhole's hardware bug).
    # Under flush_after_round a result with exponent <= 0 goes one place
    # further right with exponent 0 (n = 3 cannot happen there: a sum
    # >= 2**27 has a positive exponent).
    n = _bit_length(rm) - 27
    re = re + n
    overflow = re >= 255
    if f.flush_after_round:
        tiny = re <= 0
        n = np.where(tiny, n + 1, n)
        re = np.where(tiny, 0, re)
    lost = rm & ((n | 1) if f.sticky_keeps_bit1 else 1)
    rm = np.where(n <= 0,
                  rm << np.clip(-n, 0, 31),
                  (rm >> np.clip(n, 0, 31)) | (lost != 0))

    # ---- round ----------------------------------------------------------------
    # With exponent 0 the hidden bit is dropped, so only a value that rounds
    # up to 2**-126 survives the flush below (at 24-bit precision inside the
    # binade below 2**-126 unless flush_after_round shifted it first).
    r = _round(re, rm)

    # ---- pack -------------------------------------------------------------------
    # Below 2**-126 after rounding (or, without flush_after_round, an exponent
    # already below 0): flushed, to a zero keeping the result's sign under
    # canonical_nan, else to +0 (the bare NaN on NaN lanes).  A zero sum is
    # +0, or under canonical_nan negative only if both addends are.
    flushed = ((r >> 23) == 0) if f.flush_after_round else (re < 0) | ((r >> 23) == 0)
    if f.canonical_nan:
        out = r_sign | np.where(flushed, np.uint32(0), r)
        out = np.where(overflow, r_sign | _INF, out)
        out = np.where(rm == 0, zero_sign, out)
        out = np.where(p_gone, gone, out)
        return np.where(any_special, special, out)
    out = np.where(is_nan, nan_res, r_sign) | r
    out = np.where(flushed | (rm == 0), nan_res, out)
    out = np.where(overflow, np.where(is_nan, nan_res, r_sign | _INF), out)
    out = np.where(p_gone & ~any_special, gone, out)
    return np.where(any_special & ~is_nan, inf_res, out)


def _chunked(core, a, b, c) -> np.ndarray:
    """Broadcast, flatten and run ``core`` chunk by chunk."""
    a = np.asarray(a, dtype=np.uint32)
    b = np.asarray(b, dtype=np.uint32)
    c = np.asarray(c, dtype=np.uint32)
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    x, y, z = (np.broadcast_to(v, shape).ravel() for v in (a, b, c))
    size = x.size
    if size <= _CHUNK:
        return core(x, y, z).reshape(shape)
    out = np.empty(size, dtype=np.uint32)
    for lo in range(0, size, _CHUNK):
        hi = lo + _CHUNK
        out[lo:hi] = core(x[lo:hi], y[lo:hi], z[lo:hi])
    return out.reshape(shape)


def fma(a, b, c, features) -> np.ndarray:
    """The SFPMAD result ``a * b + c`` on FP32 bit patterns (uint32) of an FMA
    with ``features`` (an FmaFeatures, or anything with its four fields, such
    as an architecture's model.isa.Features).

    ``a``, ``b`` and ``c`` may be any array-likes of non-negative integers
    below 2**32 that broadcast together; the result has the broadcast shape
    and dtype uint32.
    """
    f = FmaFeatures.of(features)
    return _chunked(lambda x, y, z: _fma_flat(x, y, z, f), a, b, c)


def fma_wh(a, b, c) -> np.ndarray:
    """Wormhole's SFPMAD result ``a * b + c`` (``fma`` with WORMHOLE_FMA)."""
    return fma(a, b, c, WORMHOLE_FMA)


def fma_wh_scalar(a: int, b: int, c: int) -> int:
    """Scalar convenience wrapper around :func:`fma_wh`."""
    return int(fma_wh(a, b, c))


def fma_bh(a, b, c) -> np.ndarray:
    """Blackhole's SFPMAD result ``a * b + c`` (``fma`` with BLACKHOLE_FMA)."""
    return fma(a, b, c, BLACKHOLE_FMA)


def fma_bh_scalar(a: int, b: int, c: int) -> int:
    """Scalar convenience wrapper around :func:`fma_bh`."""
    return int(fma_bh(a, b, c))
