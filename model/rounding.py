"""Rounding arithmetic of SFPSTOCHRND (round sub-unit) and SFPCAST (simple sub-unit).

Spec sections 4.6 and 4.7; the ground truth is the functional models of the
Sept-2025 tt-isa-documentation pages ``SFPSTOCHRND_FloatFloat.md``,
``SFPSTOCHRND_FloatInt.md``, ``SFPSTOCHRND_IntInt.md`` and ``SFPCAST.md``.

Only the per-lane value computation lives here.  Lane enables, the VD write
rules and advancing the PRNG belong to the instruction semantics; those pass
in the PRNG output they obtained.

All functions are pure and vectorised over numpy ``uint32`` arrays of any
(broadcast-compatible) shape.
"""

from __future__ import annotations


import numpy as np

from .isa import CastMod1, StochRndMode

__all__ = [
    "StochRndMode",
    "PRNG_BITS_MASK",
    "PRNG_BITS_NEAREST",
    "stochrnd_prng_bits",
    "stochrnd",
    "cast_int_to_fp32",
]

_U32 = np.uint32
_U64 = np.uint64


#: SFPSTOCHRND uses the low 23 bits of the PRNG output.
PRNG_BITS_MASK = 0x7FFFFF
#: Substituted for the PRNG bits when StochasticRounding (bit 21) is clear:
#: gives round to nearest, ties away from zero.
PRNG_BITS_NEAREST = 0x400000

# (max magnitude, keep sign) of the FP32 -> integer modes.
_FLOAT_INT_LIMITS = {
    StochRndMode.FP32_TO_UINT8: (255, False),
    StochRndMode.FP32_TO_INT8: (127, True),
    StochRndMode.FP32_TO_UINT16: (65535, False),
    StochRndMode.FP32_TO_INT16: (32767, True),
}


def stochrnd_prng_bits(prng_value, stochastic: bool) -> np.ndarray:
    """The ``PRNGBits`` operand of SFPSTOCHRND.

    ``prng_value`` is the result of ``AdvancePRNG()`` (the PRNG advances on
    every SFPSTOCHRND, stochastic or not).  Stochastic: its low 23 bits.
    Round-to-nearest: the constant ``0x400000`` in every lane.
    """
    p = np.asarray(prng_value, dtype=_U32)
    if stochastic:
        return p & _U32(PRNG_BITS_MASK)
    return np.full(p.shape, PRNG_BITS_NEAREST, dtype=_U32)


def _check_prng_bits(prng_bits23) -> np.ndarray:
    p = np.asarray(prng_bits23, dtype=_U32)
    if np.any(p > _U32(PRNG_BITS_MASK)):
        raise ValueError("prng_bits23 must already be reduced to 23 bits "
                         "(AdvancePRNG() & 0x7FFFFF, or 0x400000 for round-to-nearest)")
    return p


def _round_fixed23(m: np.ndarray, prng: np.ndarray) -> np.ndarray:
    """``(M >> 23) + ((M & 0x7FFFFF) >= PRNGBits)`` on uint64 fixed-point values."""
    up = (m & _U64(PRNG_BITS_MASK)) >= prng.astype(_U64)
    return (m >> _U64(23)) + up.astype(_U64)


def _stochrnd_float_float(mode: StochRndMode, x: np.ndarray, prng: np.ndarray) -> np.ndarray:
    if mode == StochRndMode.FP32_TO_FP16A:
        discard_mask, prng_shift, unit = 0x1FFF, 10, 0x2000
    else:
        discard_mask, prng_shift, unit = 0xFFFF, 7, 0x10000
    exp = (x >> _U32(23)) & _U32(0xFF)
    discarded = x & _U32(discard_mask)
    # Truncate, then add one unit of the kept precision if the discarded bits
    # reach the (shifted) PRNG bits.  The carry may run into the exponent and
    # up to +-Inf, which is intended.
    up = discarded >= (prng >> _U32(prng_shift))
    rounded = (x - discarded) + np.where(up, _U32(unit), _U32(0))
    out = np.where(exp == _U32(255), x & _U32(0xFF800000), rounded)  # Inf/NaN -> +-Inf
    out = np.where(exp == _U32(0), _U32(0), out)                     # zero/denormal -> +0
    return out.astype(_U32)


def _stochrnd_float_int(mode: StochRndMode, x: np.ndarray, prng: np.ndarray) -> np.ndarray:
    max_mag, keep_sign = _FLOAT_INT_LIMITS[mode]
    sign = (x & _U32(0x80000000)) if keep_sign else np.zeros_like(x)
    e = ((x >> _U32(23)) & _U32(0xFF)).astype(np.int64) - 127
    significand = (_U32(0x800000) | (x & _U32(PRNG_BITS_MASK))).astype(_U64)
    # Only E in [-1, 15] takes the rounding path; clip so the shifts stay sane
    # in the lanes that are overwritten below.
    e_c = np.clip(e, -1, 15)
    left = np.maximum(e_c, 0).astype(_U64)
    right = np.maximum(-e_c, 0).astype(_U64)  # E == -1: drops the lowest mantissa bit
    m = (significand << left) >> right
    mag = np.minimum(_round_fixed23(m, prng), _U64(max_mag))
    mag = np.where(e >= 16, _U64(max_mag), mag)  # |x| >= 2^16, Inf, NaN
    mag = np.where(e < -1, _U64(0), mag)         # |x| < 0.5: always 0, even stochastic
    sign = np.where(mag == 0, _U32(0), sign)     # no -0 result
    return (sign + mag.astype(_U32)).astype(_U32)


def _stochrnd_int_int(mode: StochRndMode, x: np.ndarray, prng: np.ndarray, shift) -> np.ndarray:
    sign = x & _U32(0x80000000)
    m = ((x & _U32(0x7FFFFFFF)).astype(_U64) << _U64(23)) >> np.asarray(shift).astype(_U64)
    mag = _round_fixed23(m, prng)
    if mode == StochRndMode.INT32_TO_UINT8:
        mag = np.minimum(mag, _U64(255))
        sign = np.zeros_like(sign)
    else:
        mag = np.minimum(mag, _U64(127))
        sign = np.where(mag == 0, _U32(0), sign)
    return (sign + mag.astype(_U32)).astype(_U32)


def stochrnd(mode, x, prng_bits23, vb=None, imm5=None, use_imm5: bool = False) -> np.ndarray:
    """Lanewise SFPSTOCHRND result (the value that would be written to VD).

    ``mode``: a :class:`StochRndMode` (the 3-bit Mod1 value).
    ``x``: the VC lanes -- FP32 bits for modes 0-3, 6, 7; sign-magnitude
    int32 for modes 4 and 5.
    ``prng_bits23``: the ``PRNGBits`` operand, already reduced by the caller
    (``AdvancePRNG() & 0x7FFFFF`` when stochastic, ``0x400000`` for round to
    nearest; see :func:`stochrnd_prng_bits`).  Values above 23 bits raise.
    ``vb``, ``imm5``, ``use_imm5``: modes 4 and 5 only; the right shift is
    ``imm5 if use_imm5 else (vb & 31)``.  ``imm5`` is the 5-bit instruction
    field, ``vb`` the VB register lanes.

    Rounding: ``>=`` compare of the discarded bits against the PRNG bits, so
    round-to-nearest is ties-away-from-zero, and a stochastic round can even
    bump an exact value when the PRNG bits are 0 (hardware bug, documented).
    """
    mode = StochRndMode(int(mode))
    x = np.asarray(x, dtype=_U32)
    prng = _check_prng_bits(prng_bits23)
    x, prng = np.broadcast_arrays(x, prng)

    if mode in (StochRndMode.FP32_TO_FP16A, StochRndMode.FP32_TO_FP16B):
        return _stochrnd_float_float(mode, x, prng)
    if mode in _FLOAT_INT_LIMITS:
        return _stochrnd_float_int(mode, x, prng)

    if use_imm5:
        if imm5 is None:
            raise ValueError("use_imm5 is set but imm5 was not given")
        if not 0 <= int(imm5) <= 31:
            raise ValueError(f"imm5 {imm5!r} is not a 5-bit field value")
        shift = np.uint32(int(imm5))
    else:
        if vb is None:
            raise ValueError("modes 4/5 without use_imm5 need the VB lanes (vb)")
        shift = np.asarray(vb, dtype=_U32) & _U32(31)
    return _stochrnd_int_int(mode, x, prng, shift)


def _bit_length_u31(mag: np.ndarray) -> np.ndarray:
    """Bit length of values below 2^31 (0 for 0), exactly, via frexp on float64."""
    _, e = np.frexp(mag.astype(np.float64))
    return e.astype(np.int64)


def cast_int_to_fp32(x, stochastic: bool, prng_value=None) -> np.ndarray:
    """Lanewise SFPCAST: sign-magnitude int32 -> FP32 bits.

    Exact for ``|x| <= 2**24``; otherwise the 8 bits shifted out are rounded
    either to nearest, ties to even (``stochastic=False``) or stochastically.
    Stochastic rounding compares the top 7 of the 8 discarded bits, strictly
    (``>``), with bits 10..16 of ``prng_value`` -- the raw 32-bit
    ``AdvancePRNG()`` result, which the caller obtains (SFPCAST advances the
    PRNG only in stochastic mode).  An exact value is never bumped.

    Zero magnitude keeps its sign: ``0x80000000`` (-0) gives -0.0.
    """
    x = np.asarray(x, dtype=_U32)
    sign = (x & _U32(0x80000000)).astype(np.int64)
    mag = (x & _U32(0x7FFFFFFF)).astype(np.int64)

    bitlen = _bit_length_u31(mag)
    lz = np.where(mag == 0, 157, 32 - bitlen)
    norm = (mag << (lz & 31)) & 0xFFFFFFFF  # leading one (if any) at bit 31
    # (157 - LZ) is the biased exponent minus one: Norm >> 8 carries the
    # leading one into the exponent field as +1.
    d = sign + ((157 - lz) << 23) + (norm >> 8)

    if stochastic:
        if prng_value is None:
            raise ValueError("stochastic SFPCAST needs prng_value (the AdvancePRNG() result)")
        p = np.asarray(prng_value, dtype=_U32).astype(np.int64)
        up = (norm & 0xFE) > ((p >> 9) & 0xFE)
    else:
        up = ((norm & 0x80) != 0) & ((norm & 0x17F) != 0)
    return (d + up).astype(_U32)
