"""model.l1_formats: the unpacker's and packer's conversions around Dst.

Expected values come from the rules of tt-isa-documentation's
Packers/FormatConversion.md, UNPACR_Regular.md and MOVA2D.md (worked by hand
in the comments), from numpy's float16 where the rounding is standard, and
from nearest-value searches in float64 where it is not (ties away from zero).
"""

import numpy as np
import pytest

from tensix_sfpu.model import l1_formats as lf

U32 = np.uint32


def fp32(*values) -> np.ndarray:
    return np.array(values, dtype=np.float32).view(U32)


# --- packer early conversion FP32 -> BF16: rounding, ties away from zero ------

def test_bf16_rounding_worked_examples():
    # 1 + 2**-8 sits exactly between BF16 1.0 (0x3F80) and 1 + 2**-7 (0x3F81): away from zero.
    # -(1 + 2**-8) likewise rounds to -(1 + 2**-7). Just below the tie rounds down.
    got = lf.round_fp32_to_bf16(fp32(1 + 2**-8, -(1 + 2**-8), 1 + 2**-8 - 2**-23, 1 + 3 * 2**-8))
    assert got.tolist() == [0x3F81, 0xBF81, 0x3F80, 0x3F82]   # 1.5 LSB is a tie: away, to 2


def test_bf16_rounding_specials():
    # Denormals flushed, -0 becomes +0, NaN becomes Inf of its sign, Inf stays,
    # the largest finite FP32 rounds up into Inf.
    bits = np.array([0x00000001, 0x807FFFFF, 0x80000000, 0x7FC00001, 0xFFC00000, 0x7F800000,
                     0x7F7FFFFF], dtype=U32)
    assert lf.round_fp32_to_bf16(bits).tolist() == [0, 0, 0, 0x7F80, 0xFF80, 0x7F80, 0x7F80]


def _nearest_bf16_ties_away(x: np.ndarray) -> np.ndarray:
    """The BF16 nearest x, chosen in float64 between the truncation and the next value up."""
    b = x.view(U32)
    low = (b >> 16).astype(np.int64)
    high = low + 1
    value = lambda h: ((h.astype(U32) << 16).view(np.float32)).astype(np.float64)
    d_low = np.abs(x.astype(np.float64) - value(low))
    d_high = np.abs(value(high) - x.astype(np.float64))
    return np.where(d_high <= d_low, high, low).astype(U32)     # a tie goes to the larger magnitude


def test_bf16_rounding_against_nearest_search():
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(20000) * np.exp2(rng.integers(-100, 100, 20000))).astype(np.float32)
    x = np.concatenate([x, ((rng.integers(0, 1 << 16, 2000).astype(U32) << 16) | 0x8000).view(np.float32)])
    x = x[np.isfinite(x) & (np.abs(x) < 3e38) & (np.abs(x) >= 2.0**-126)]   # flushing: its own test
    assert np.array_equal(lf.round_fp32_to_bf16(x.view(U32)), _nearest_bf16_ties_away(x))


def test_tf32_rounding():
    # 1 + 2**-11 is a tie between 1.0 and 1 + 2**-10: away. Denormal: flushed.
    got = lf.round_fp32_to_tf32(fp32(1 + 2**-11, 1 + 2**-11 - 2**-23, -(1 + 2**-11), 1e-40))
    assert got.tolist() == fp32(1 + 2**-10, 1.0, -(1 + 2**-10), 0.0).tolist()


# --- late conversion FP32 -> FP16: saturate, then truncate -----------------------

def _truncated_fp16(x: np.ndarray) -> np.ndarray:
    """numpy's float16 of x, stepped one value toward zero where numpy rounded away."""
    h = x.astype(np.float16)
    away = np.abs(h.astype(np.float64)) > np.abs(x.astype(np.float64))
    stepped = np.nextafter(h, np.float16(0))
    return np.where(away, stepped, h).view(np.uint16).astype(U32)


def test_fp16_truncation_matches_numpy_in_range():
    rng = np.random.default_rng(3)
    x = rng.uniform(-65504, 65504, 20000).astype(np.float32)
    x = np.concatenate([x, rng.uniform(-2, 2, 20000).astype(np.float32)])
    x = x[np.abs(x) >= 2**-14]
    assert np.array_equal(lf.fp32_to_fp16_saturating(x.view(U32)), _truncated_fp16(x))


def test_fp16_exact_values_match_numpy():
    # Every finite normal FP16 value converts to its own bits (numpy's float16 is exact on them).
    h = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    h = h[np.isfinite(h) & (np.abs(h) >= np.float16(2**-14))]
    assert np.array_equal(lf.fp32_to_fp16_saturating(h.astype(np.float32).view(U32)),
                          h.view(np.uint16).astype(U32))


def test_fp16_saturation_and_flush():
    # Past 65504 (and Inf) clamps to +-65504 = 0x7BFF; below 2**-14 flushes to zero of its sign;
    # NaN becomes the all-ones exponent.
    got = lf.fp32_to_fp16_saturating(fp32(65535.0, 70000.0, np.inf, -np.inf, 2**-15, -2**-14.5, np.nan))
    assert got.tolist() == [0x7BFF, 0x7BFF, 0x7BFF, 0xFBFF, 0, 0x8000, 0x7C00]


# --- unpacker and datacopy ---------------------------------------------------

def test_unpack_fp32_to_bf16_truncates_and_flushes():
    # 1 + 2**-8 + 2**-9 is above the BF16 midpoint but truncation keeps 1.0; denormal -> -0.
    got = lf.unpack_fp32_to_bf16(fp32(1 + 2**-8 + 2**-9, -1e-40, np.inf))
    assert got.tolist() == [0x3F80, 0x8000, 0x7F80]


def test_mova2d_flush_takes_zero_exponent_to_plus_zero():
    assert lf.mova2d_flush(fp32(-0.0, 1e-40, -1e-40, 1.5)).tolist() == fp32(0.0, 0.0, 0.0, 1.5).tolist()


def test_fp16_widening_keeps_exponent_31():
    # Tensix FP16: exponent 31 is a normal binade; 0x7FFF is (2 - 2**-10) * 2**16 = 131008.
    assert lf.fp16_to_fp32(np.array([0x7FFF, 0x3C00, 0x8001], U32)).view(np.float32).tolist() == \
        [131008.0, 1.0, -0.0]


# --- whole cells --------------------------------------------------------------

def test_plans():
    p = lf.plan("Float32", "Float16", False, "wormhole")
    assert (p.src, p.dst, p.pack_src) == ("Float16", "fp16", "Float16")
    p = lf.plan("Float32", "Float16_b", False, "wormhole")
    assert (p.src, p.dst, p.pack_src) == ("Float16_b", "bf16", "Float16_b")
    p = lf.plan("Float32", "Float32", True, "wormhole")
    assert (p.src, p.dst, p.pack_src) == (None, "fp32", "Float32")
    assert lf.plan("Float16_b", "Float16", True, "wormhole").pack_src == "Float32"
    assert lf.plan("Float16_b", "Float16", True, "blackhole").pack_src == "Float16"
    assert lf.plan("Float16", "Float16_b", False, "wormhole").srcb_format == 1
    with pytest.raises(ValueError, match="Bfp8_b"):
        lf.plan("Bfp8_b", "Float32", True, "wormhole")


def test_float16b_round_trip_through_32bit_dst():
    # Every finite BF16 goes into a 32-bit Dst and out as itself, but denormals and -0 (flushed
    # to +0 by the datacopy).
    h = np.arange(1 << 16, dtype=U32)
    finite = (h & 0x7F80) != 0x7F80
    p = lf.plan("Float16_b", "Float16_b", True, "wormhole")
    out = lf.pack(p, lf.unpack(p, h[finite]))
    expect = np.where((h[finite] & 0x7F80) == 0, 0, h[finite])
    assert np.array_equal(out, expect)


def test_float32_dst_to_float16_output_matches_numpy_truncation():
    p = lf.plan("Float16_b", "Float16", True, "wormhole")
    x = np.linspace(-60000, 60000, 5001).astype(np.float32)
    x = x[np.abs(x) >= 2**-14]
    assert np.array_equal(lf.pack(p, x.view(U32)), _truncated_fp16(x))


def test_values_reads_float16_as_ieee():
    assert lf.values("Float16", np.array([0x7C00, 0x3C00], U32)).tolist() == [np.inf, 1.0]
    assert lf.values("Float16_b", np.array([0x3F80], U32)).tolist() == [1.0]
