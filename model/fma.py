"""Wormhole B0 and Blackhole SFPU multiply-add arithmetic (SFPMAD and friends), bit-exact.

``fma_wh(a, b, c)`` and ``fma_bh(a, b, c)`` return the FP32 bit pattern that
the Wormhole and the Blackhole SFPU MAD unit produce for ``a * b + c``.
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

Wormhole:

* -0 reads as zero and every zero result is +0;
* after the add, a right renormalisation by two places loses the upper of
  the two shifted-out bits instead of folding it into the sticky bit;
* results below 2**-126 are flushed to +0 (and rounding in the binade just
  below 2**-126 is done at 24-bit precision, so that some values which should
  round up to the minimum normal are flushed);
* an overflowed finite product meeting an opposite Inf is a NaN;
* NaN results are ``sign | 0x7F800001`` with bits of the continuing
  computation ORed in.

Blackhole:

* every NaN result is 0x7FC00000, and every Inf/NaN case returns at once:
  an overflowed finite product meeting an opposite Inf returns that Inf (only
  a product of an Inf input is Inf - Inf);
* a zero product or one whose exponent is below 0 returns z unchanged, or,
  when z is zero or denormal, a zero that is negative only if both the
  product's and z's signs are;
* an exact cancellation is signed by the same rule, which makes it +0 (the
  signs differ);
* the renormalising right shift keeps every shifted-out bit as sticky;
* a result whose exponent is 0 or below is shifted just one place further and
  rounded with exponent 0, so it survives only if it rounds up to 2**-126
  (even from below 2**-127); any other is flushed after rounding to a zero
  that keeps the result's sign.

Everything below is plain numpy over whole arrays; large inputs are processed
in cache-sized chunks.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fma_wh", "fma_wh_scalar", "fma_bh", "fma_bh_scalar"]

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


def _fma_wh_flat(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Wormhole core on 1-D uint32 arrays of equal length."""
    # ---- classify -------------------------------------------------------
    xe, xf, xm = _unpack(x)
    ye, yf, ym = _unpack(y)
    ze, zf, zm = _unpack(z)
    zm = zm << 3  # 3 guard bits: 27 bits total

    p_sign = (x ^ y) & _SIGN
    z_sign = z & _SIGN

    x_spec, y_spec, z_spec = xe == 255, ye == 255, ze == 255
    x_nan = x_spec & (xf != 0)
    y_nan = y_spec & (yf != 0)
    z_nan = z_spec & (zf != 0)
    z_inf = z_spec & (zf == 0)

    pm, pe = _product(xm, ym, xe, ye)

    # ---- special cases (NaN / Inf inputs, product overflow) -------------
    # The product counts as infinite if x or y is Inf/NaN or its exponent
    # alone reaches 255 (overflow is decided before the add).
    p_inf_like = x_spec | y_spec | (pe >= 255)
    any_special = p_inf_like | z_spec
    # Invalid product or Inf - Inf (including an overflowed finite product):
    # NaN signed like the product.  A NaN x or y also lands here.
    nan_p = (
        x_nan | y_nan
        | (x_spec & (ye == 0)) | (y_spec & (xe == 0))
        | (z_inf & p_inf_like & (p_sign != z_sign))
    )
    # Otherwise a NaN z gives a NaN signed like z.
    nan_z = z_nan & ~nan_p
    is_nan = nan_p | nan_z
    nan_res = np.where(nan_p, p_sign | _NAN_BASE,
                       np.where(nan_z, z_sign | _NAN_BASE, np.uint32(0)))
    ret_z_inf = any_special & ~is_nan & z_inf        # finite/Inf p + Inf z -> z
    ret_p_inf = any_special & ~is_nan & ~z_spec      # Inf or overflowed p -> Inf
    # NaN lanes carry on through the datapath (their bits leak into the
    # result); the exponent of such a product saturates at 255.
    pe = np.minimum(pe, 255)

    # ---- product underflow / zero -----------------------------------------
    # A zero product, or one whose exponent is below 0 (so below 2**-126),
    # leaves z untouched (z zero or denormal -> +0).  NaN lanes continue
    # with a zero product.
    p_gone = (pm == 0) | (pe < 0)
    ret_z = p_gone & ~any_special
    pm = np.where(p_gone, 0, pm)
    pe = np.where(p_gone, 0, pe)

    r_sign, rm, re = _align_add(pm, pe, p_sign, zm, ze, z_sign)

    # ---- normalise ----------------------------------------------------------
    # Bring the leading one to bit 26.  Left shifts are exact; a right shift
    # (by 1 or 2, the sum is below 2**29) ORs only bit 0 into the sticky
    # position - with a 2-place shift, bit 1 is simply dropped (HW bug).
    n = _bit_length(rm) - 27
    re = re + n
    rm = np.where(n <= 0,
                  rm << np.clip(-n, 0, 31),
                  (rm >> np.clip(n, 0, 31)) | (rm & 1))

    # ---- round ----------------------------------------------------------------
    # For re == 0 this rounds at 24-bit precision inside the binade below
    # 2**-126, so only values that then reach 2**-126 survive the flush.
    r = _round(re, rm)

    # ---- pack -------------------------------------------------------------------
    # Sum zero, exponent below 0, or a result still below 2**-126 after
    # rounding: +0 (or the bare NaN).  Exponent >= 255: Inf (or bare NaN).
    # Otherwise sign | bits, where NaN lanes OR their bits into the NaN.
    flushed = (rm == 0) | (re < 0) | ((r >> 23) == 0)
    overflow = re >= 255
    out = np.where(is_nan, nan_res, r_sign) | r
    out = np.where(flushed, nan_res, out)
    out = np.where(overflow, np.where(is_nan, nan_res, r_sign | _INF), out)
    out = np.where(ret_z, np.where(ze != 0, z, np.uint32(0)), out)
    out = np.where(ret_p_inf, p_sign | _INF, out)
    out = np.where(ret_z_inf, z, out)
    return out


def _fma_bh_flat(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Blackhole core on 1-D uint32 arrays of equal length.  Every lane runs
    the whole datapath; the lanes that return early (specials, dropped
    product, zero sum) are selected over it at the end."""
    xe, xf, xm = _unpack(x)
    ye, yf, ym = _unpack(y)
    ze, zf, zm = _unpack(z)
    zm = zm << 3

    p_sign = (x ^ y) & _SIGN
    z_sign = z & _SIGN
    zero_sign = p_sign & z_sign   # the sign of every early zero

    pm, pe = _product(xm, ym, xe, ye)

    # ---- special cases: decided up front, nothing leaks ------------------
    x_spec, y_spec, z_spec = xe == 255, ye == 255, ze == 255
    any_special = x_spec | y_spec | z_spec | (pe >= 255)
    # NaN input, Inf * 0 (a denormal is 0 too), or Inf - Inf where the
    # product's Inf comes from an Inf input; an overflowed finite product
    # against an Inf z is not an Inf - Inf, z wins below.
    is_nan = (
        (x_spec & (xf != 0)) | (y_spec & (yf != 0)) | (z_spec & (zf != 0))
        | (x_spec & (ye == 0)) | (y_spec & (xe == 0))
        | (z_spec & (x_spec | y_spec) & (p_sign != z_sign))
    )
    special = np.where(is_nan, _NAN_BH, np.where(z_spec, z, p_sign | _INF))

    # ---- product zero or below 2**-126: z, or a zero -----------------------
    p_gone = (pm == 0) | (pe < 0)
    gone = np.where(ze != 0, z, zero_sign)

    r_sign, rm, re = _align_add(pm, pe, p_sign, zm, ze, z_sign)

    # ---- normalise ----------------------------------------------------------
    # Leading one to bit 26.  A result with exponent <= 0 goes one place
    # further right with exponent 0, whatever its exponent was.  The right
    # shift ORs the bits selected by (n | 1) into the sticky position: every
    # lost bit for n = 1 or 2 (n = 3 cannot happen: a sum >= 2**27 has a
    # positive exponent).
    n = _bit_length(rm) - 27
    re = re + n
    overflow = re >= 255
    tiny = re <= 0
    n = np.where(tiny, n + 1, n)
    re = np.where(tiny, 0, re)
    rm = np.where(n <= 0,
                  rm << np.clip(-n, 0, 31),
                  (rm >> np.clip(n, 0, 31)) | ((rm & (n | 1)) != 0))

    # ---- round, flush after rounding (sign kept), pack ----------------------
    r = _round(re, rm)
    r = np.where((r >> 23) == 0, np.uint32(0), r)
    out = r_sign | r
    out = np.where(overflow, r_sign | _INF, out)
    out = np.where(rm == 0, zero_sign, out)
    out = np.where(p_gone, gone, out)
    return np.where(any_special, special, out)


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


def fma_wh(a, b, c) -> np.ndarray:
    """Wormhole SFPMAD result ``a * b + c`` on FP32 bit patterns (uint32).

    ``a``, ``b`` and ``c`` may be any array-likes of non-negative integers
    below 2**32 that broadcast together; the result has the broadcast shape
    and dtype uint32.
    """
    return _chunked(_fma_wh_flat, a, b, c)


def fma_wh_scalar(a: int, b: int, c: int) -> int:
    """Scalar convenience wrapper around :func:`fma_wh`."""
    return int(fma_wh(a, b, c))


def fma_bh(a, b, c) -> np.ndarray:
    """Blackhole SFPMAD result ``a * b + c`` on FP32 bit patterns (uint32),
    with the same shape contract as :func:`fma_wh`."""
    return _chunked(_fma_bh_flat, a, b, c)


def fma_bh_scalar(a: int, b: int, c: int) -> int:
    """Scalar convenience wrapper around :func:`fma_bh`."""
    return int(fma_bh(a, b, c))
