"""Tests for model.dst_format (SFPLOAD / SFPSTORE data conversions).

Expected values are worked by hand from the field layouts in tt-isa-documentation
(SFPLOAD.md, SFPSTORE.md, Dst.md); the comment beside each one shows the working.
"""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tensix_sfpu.model.dst_format import (
    dst32_rows,
    dst_width,
    join_dst32,
    resolve_srcb,
    shuffle_bf16,
    shuffle_fp16,
    shuffle_fp32,
    split_dst32,
    unshuffle_bf16,
    unshuffle_fp16,
    unshuffle_fp32,
)

from tensix_sfpu.model import dst_format
from tensix_sfpu.model.isa import Arch, DataFormat
from tensix_sfpu.model.isa import Mod0Fmt as F

# These tests are Wormhole's (test_semantics_bh_mem covers Blackhole's conversions).
load_convert = functools.partial(dst_format.load_convert, arch=Arch.WORMHOLE)
store_convert = functools.partial(dst_format.store_convert, arch=Arch.WORMHOLE)

U32 = np.uint32
ALL_MODES = [m for m in F if m != F.SRCB]
RNG_SEED = 0x5F9


def ld(mode, raw, **kw):
    return int(load_convert(mode, raw, **kw))


def st_(mode, value):
    return int(store_convert(mode, value))


# ---------------------------------------------------------------------------
# Constants and SRCB resolution

def test_mod0_values():
    assert [int(m) for m in F] == list(range(16))
    assert (F.SRCB, F.FP16, F.BF16, F.FP32, F.INT32, F.INT8, F.UINT16, F.HI16) == tuple(range(8))
    assert (F.INT16, F.LO16, F.INT32_ALL, F.ZERO, F.INT32_SM, F.INT8_COMP,
            F.LO16_ONLY, F.HI16_ONLY) == tuple(range(8, 16))


def test_data_format_codes():
    # 4-bit encoding table: row = bits 3:2, column = bits 1:0.
    assert (DataFormat.FP32, DataFormat.FP16, DataFormat.BFP8A, DataFormat.BFP4A) == (0, 1, 2, 3)
    assert (DataFormat.TF32, DataFormat.BF16, DataFormat.BFP8, DataFormat.BFP4) == (4, 5, 6, 7)
    assert (DataFormat.INT32, DataFormat.INT16, DataFormat.FP8, DataFormat.BFP2A) == (8, 9, 10, 11)
    assert (DataFormat.INT8, DataFormat.BFP2) == (14, 15)


def test_resolve_srcb():
    for code in range(16):
        assert resolve_srcb(True, code) == F.FP32
    bf16_codes = {0, 4, 5, 6, 7, 15, 8, 9}   # FP32 TF32 BF16 BFP8 BFP4 BFP2 INT32 INT16
    for code in range(16):
        want = F.BF16 if code in bf16_codes else F.FP16
        assert resolve_srcb(False, code) == want, code
    assert resolve_srcb(False, DataFormat.BFP8A) == F.FP16
    assert resolve_srcb(False, DataFormat.INT8) == F.FP16
    with pytest.raises(ValueError):
        resolve_srcb(False, 16)


def test_srcb_and_bad_modes_rejected():
    for fn in (lambda m: load_convert(m, 0), lambda m: store_convert(m, 0),
               lambda m: dst_width(m, "load")):
        with pytest.raises(ValueError, match="SRCB"):
            fn(0)
        with pytest.raises(ValueError, match="16"):
            fn(16)
        with pytest.raises(ValueError):
            fn(-1)
    with pytest.raises(ValueError):
        dst_width(F.FP16, "read")


def test_bad_inputs_rejected():
    with pytest.raises(ValueError, match="LO16_ONLY"):
        load_convert(F.LO16_ONLY, 1)
    with pytest.raises(ValueError, match="HI16_ONLY"):
        load_convert(F.HI16_ONLY, 1)
    with pytest.raises(ValueError):          # a Dst16b datum must fit 16 bits
        load_convert(F.FP16, 0x10000)
    with pytest.raises(ValueError):
        store_convert(F.FP32, -1)
    with pytest.raises(TypeError):
        store_convert(F.FP32, np.array([1.0]))


def test_widths():
    load16 = {F.FP16, F.BF16, F.INT8, F.UINT16, F.HI16, F.INT16, F.LO16, F.ZERO,
              F.INT8_COMP, F.LO16_ONLY, F.HI16_ONLY}
    for m in ALL_MODES:
        assert dst_width(m, "load") == (16 if m in load16 else 32), m
    store32 = {F.FP32, F.INT32, F.INT32_ALL, F.INT32_SM, F.LO16, F.HI16}
    for m in ALL_MODES:
        assert dst_width(m, "store") == (32 if m in store32 else 16), m


# ---------------------------------------------------------------------------
# Permutations

def test_shuffle_bit_positions():
    # BF16: sign 15 stays; exponent bits 14..7 go to 7..0; mantissa 6..0 to 14..8.
    for b in range(16):
        want = 15 if b == 15 else (b - 7 if b >= 7 else b + 8)
        assert int(shuffle_bf16(1 << b)) == 1 << want, b
        assert int(unshuffle_bf16(1 << want)) == 1 << b, b
    # FP16: exponent bits 14..10 go to 4..0; mantissa 9..0 to 14..5.
    for b in range(16):
        want = 15 if b == 15 else (b - 10 if b >= 10 else b + 5)
        assert int(shuffle_fp16(1 << b)) == 1 << want, b
        assert int(unshuffle_fp16(1 << want)) == 1 << b, b


def test_shuffle_examples():
    assert int(shuffle_bf16(0x3F80)) == 0x007F        # BF16 1.0: E=0x7F, M=0
    assert int(shuffle_bf16(0xBFC0)) == 0xC07F        # -1.5: S, M=0x40 -> 0x4000, E=0x7F
    assert int(shuffle_fp16(0x3C00)) == 0x000F        # FP16 1.0: E=15
    assert int(shuffle_fp16(0xC100)) == 0xA010        # -2.5: S, M=0x100 -> 0x2000, E=16
    assert int(shuffle_fp32(0x3F800000)) == 0x007F0000
    # 0x1234: E = 0x1234 >> 7 = 0x24, M = 0x34 -> hi 0x3424; low half kept.
    assert int(shuffle_fp32(0x12345678)) == 0x34245678
    assert int(unshuffle_fp32(0x34245678)) == 0x12345678


def test_shuffle16_inverse_exhaustive():
    x = np.arange(1 << 16, dtype=U32)
    for fwd, inv in ((shuffle_bf16, unshuffle_bf16), (shuffle_fp16, unshuffle_fp16)):
        y = fwd(x)
        assert y.dtype == U32 and y.shape == x.shape
        assert np.array_equal(np.sort(y), x)          # a bijection on 16 bits
        assert np.array_equal(inv(y), x)
        assert np.array_equal(fwd(inv(x)), x)


def test_shuffle32_inverse_random():
    x = np.random.default_rng(RNG_SEED).integers(0, 1 << 32, size=(64, 1024), dtype=U32)
    assert np.array_equal(unshuffle_fp32(shuffle_fp32(x)), x)
    assert np.array_equal(shuffle_fp32(unshuffle_fp32(x)), x)
    assert np.array_equal(shuffle_fp32(x) & U32(0xFFFF), x & U32(0xFFFF))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 0xFFFFFFFF))
def test_shuffle32_inverse_hypothesis(v):
    assert int(unshuffle_fp32(shuffle_fp32(v))) == v
    assert int(shuffle_fp32(v)) == (int(shuffle_bf16(v >> 16)) << 16) | (v & 0xFFFF)


# ---------------------------------------------------------------------------
# Dst geometry

def test_dst32_rows_examples():
    assert dst32_rows(5) == (5, 13)
    assert dst32_rows(8) == (16, 24)
    assert dst32_rows(0) == (0, 8)
    assert dst32_rows(15) == (23, 31)              # (8<<1)|7 = 23
    assert dst32_rows(0x1FF) == (0x3F7, 0x3FF)     # (0x1F8<<1)|7
    assert dst32_rows(0x200) == (0x200, 0x208)     # bit 9 kept
    assert dst32_rows(0x100) == (0x200, 0x208)     # bit 8 shifts onto bit 9


def test_dst32_rows_cover_dst_once():
    hi, lo = dst32_rows(np.arange(512))
    assert len(np.unique(hi)) == 512
    both = np.concatenate([hi, lo])
    assert np.array_equal(np.sort(both), np.arange(1024))
    hi_all, _ = dst32_rows(np.arange(1024))        # 10-bit index, still 512 distinct A
    assert len(np.unique(hi_all)) == 512
    with pytest.raises(ValueError):
        dst32_rows(1024)


def test_split_join_dst32():
    hi, lo = split_dst32(0x12345678)
    assert (int(hi), int(lo)) == (0x1234, 0x5678)
    assert int(join_dst32(0x1234, 0x5678)) == 0x12345678


# ---------------------------------------------------------------------------
# SFPLOAD, hand-worked

def test_load_fp16():
    assert ld(F.FP16, 0x000F) == 0x3F800000        # 1.0: E=15 -> 127
    assert ld(F.FP16, 0xA010) == 0xC0200000        # -2.5: E=16 -> 128, M=0x100 << 13
    assert ld(F.FP16, 0x0001) == 0x38800000        # 2**-14: E=1 -> 113
    # Denormal (E=0, M=1 at bit 5) stays an FP32 denormal: M << 13.
    assert ld(F.FP16, 0x0020) == 0x00002000
    assert ld(F.FP16, 0x8000) == 0x80000000        # -0
    # Largest pattern S=0, M=0x3FF, E=31: finite 131008 unless FP16A_INF.
    assert ld(F.FP16, 0x7FFF) == 0x47FFE000
    assert ld(F.FP16, 0x7FFF, enable_fp16a_inf=True) == 0x7F800000
    assert ld(F.FP16, 0xFFFF, enable_fp16a_inf=True) == 0xFF800000
    # E=31 with other mantissas stays finite even with the flag (IEEE 0x7C00 -> 65536).
    assert ld(F.FP16, 0x001F, enable_fp16a_inf=True) == 0x47800000
    assert ld(F.FP16, 0x7FDF, enable_fp16a_inf=True) == 0x47FFC000   # M=0x3FE


def test_load_fp16_per_lane_flag():
    out = load_convert(F.FP16, np.array([0x7FFF, 0x7FFF, 0x000F], dtype=U32),
                       enable_fp16a_inf=np.array([True, False, True]))
    assert out.tolist() == [0x7F800000, 0x47FFE000, 0x3F800000]


def test_load_fp16_matches_numpy_for_normals():
    # Independent reference: numpy's IEEE half -> single for every normal FP16.
    ieee = np.arange(1 << 16, dtype=U32)
    e = (ieee >> 10) & 0x1F
    ieee = ieee[(e != 0) & (e != 31)]
    want = ieee.astype(np.uint16).view(np.float16).astype(np.float32).view(U32)
    got = load_convert(F.FP16, shuffle_fp16(ieee))
    assert np.array_equal(got, want)


def test_load_bf16():
    assert ld(F.BF16, 0x007F) == 0x3F800000
    assert ld(F.BF16, 0xC07F) == 0xBFC00000
    assert ld(F.BF16, 0x00FF) == 0x7F800000        # E=0xFF, M=0: +Inf
    assert ld(F.BF16, 0x40FF) == 0x7FC00000        # quiet NaN kept
    assert ld(F.BF16, 0x0100) == 0x00010000        # E=0, M=1: denormal kept as bits


def test_load_fp32_family():
    for m in (F.FP32, F.INT32, F.INT32_ALL):
        assert ld(m, 0x007F0000) == 0x3F800000
        assert ld(m, 0x34245678) == 0x12345678
        assert ld(m, 0x40FF0001) == 0x7FC00001     # NaN with payload, exact
        assert ld(m, 0x00000001) == 0x00000001     # denormal, exact
        assert ld(m, 0x80000005) == 0x80000005     # sign-magnitude -5, as is


def test_load_int32_sm():
    assert ld(F.INT32_SM, 0x80000005) == 0xFFFFFFFB   # -5
    assert ld(F.INT32_SM, 0x00000005) == 5
    assert ld(F.INT32_SM, 0x80000000) == 0            # -0 -> 0
    # sign-magnitude 0x00010000: hi 0x0001 has M=1 -> shuffled 0x0100.
    assert ld(F.INT32_SM, 0x01000000) == 0x00010000
    # -0x12345678: sign-mag 0x92345678, shuffled hi 0x9234 -> 0xB424.
    assert ld(F.INT32_SM, 0xB4245678) == 0xEDCBA988


def test_load_int8():
    # -100: S | 100 << 5 | exponent 16 = 0x8000 | 0x0C80 | 0x10
    assert ld(F.INT8, 0x8C90) == 0x80000064
    assert ld(F.INT8_COMP, 0x8C90) == 0xFFFFFF9C
    # Magnitude 200 (0xC8): INT8 keeps 7 bits -> 0x48; INT8_COMP keeps 10 bits.
    assert ld(F.INT8, 0x1910) == 0x48
    assert ld(F.INT8_COMP, 0x1910) == 0xC8
    # -1023 = S | 0x3FF << 5 | 16
    assert ld(F.INT8, 0xFFF0) == 0x8000007F
    assert ld(F.INT8_COMP, 0xFFF0) == 0xFFFFFC01
    # Exponent bits are ignored (0 from the unpacker, or anything else).
    assert ld(F.INT8, 0x0C80) == 100
    assert ld(F.INT8, 0x0C9F) == 100
    assert ld(F.INT8_COMP, 0x0C8F) == 100
    # -0: INT8 keeps the sign bit (sign-magnitude); INT8_COMP gives 0.
    assert ld(F.INT8, 0x8010) == 0x80000000
    assert ld(F.INT8_COMP, 0x8010) == 0


def test_load_16bit_integer_modes():
    assert ld(F.INT16, 0x8005) == 0x80000005
    assert ld(F.INT16, 0xFFFF) == 0x80007FFF
    assert ld(F.INT16, 0x7FFF) == 0x00007FFF
    assert ld(F.UINT16, 0xABCD) == 0x0000ABCD
    assert ld(F.LO16, 0xABCD) == 0x0000ABCD
    assert ld(F.HI16, 0xABCD) == 0xABCD0000
    assert ld(F.LO16_ONLY, 0xABCD, old_lreg=0x12345678) == 0x1234ABCD
    assert ld(F.HI16_ONLY, 0xABCD, old_lreg=0x12345678) == 0xABCD5678
    assert ld(F.ZERO, 0xFFFF, old_lreg=0x12345678) == 0


def test_load_shapes_and_broadcast():
    raw = np.full((4, 8), 0xABCD, dtype=U32)
    out = load_convert(F.LO16_ONLY, raw, old_lreg=np.uint32(0x12345678))
    assert out.shape == (4, 8) and out.dtype == U32
    assert np.all(out == 0x1234ABCD)
    assert load_convert(F.ZERO, raw).shape == (4, 8)
    assert load_convert(F.FP32, np.zeros((2, 3, 5), dtype=U32)).shape == (2, 3, 5)


# ---------------------------------------------------------------------------
# SFPSTORE, hand-worked

def test_store_fp16():
    assert st_(F.FP16, 0x3F800000) == 0x000F       # 1.0
    assert st_(F.FP16, 0xC0200000) == 0xA010       # -2.5
    # Truncation: mantissa bits below bit 13 are dropped.
    assert st_(F.FP16, 0x3F801FFF) == 0x000F
    assert st_(F.FP16, 0x3F803FFF) == 0x002F       # IEEE 0x3C01 -> M=1 << 5 | 15
    assert st_(F.FP16, 0xBF803FFF) == 0x802F
    # Underflow flush to signed zero: exp 113 is the smallest kept (FP16 E=1).
    assert st_(F.FP16, 0x38800000) == 0x0001       # 2**-14
    assert st_(F.FP16, 0x38000000) == 0x0000       # 2**-15, exp 112 -> E=0
    assert st_(F.FP16, 0xB8000000) == 0x8000
    assert st_(F.FP16, 0x387FFFFF) == 0x0000       # just below 2**-14, mantissa cleared
    assert st_(F.FP16, 0x00000001) == 0x0000       # FP32 denormal
    assert st_(F.FP16, 0x80000001) == 0x8000
    assert st_(F.FP16, 0x80000000) == 0x8000
    # exp 143 (E=31) is in range: 65536.0 -> IEEE 0x7C00 -> Dst 0x001F.
    assert st_(F.FP16, 0x47800000) == 0x001F
    assert st_(F.FP16, 0x47FFFFFF) == 0x7FFF       # E=31, M truncates to 0x3FF
    # exp >= 144 saturates to E=31, M=0x3FF: Dst 0x7FFF / 0xFFFF.
    assert st_(F.FP16, 0x48000000) == 0x7FFF       # 131072.0
    assert st_(F.FP16, 0x7F7FFFFF) == 0x7FFF       # FP32 max
    assert st_(F.FP16, 0xC8000000) == 0xFFFF
    assert st_(F.FP16, 0x7F800000) == 0x7FFF       # +Inf
    assert st_(F.FP16, 0xFF800000) == 0xFFFF       # -Inf
    assert st_(F.FP16, 0x7FC00000) == 0x7FFF       # NaN
    assert st_(F.FP16, 0xFFC00001) == 0xFFFF       # -NaN


def test_store_bf16():
    assert st_(F.BF16, 0x3F800000) == 0x007F
    assert st_(F.BF16, 0x3F80FFFF) == 0x007F       # truncation
    assert st_(F.BF16, 0x3FFFFFFF) == 0x7F7F       # BF16 0x3FFF: M=0x7F, E=0x7F
    assert st_(F.BF16, 0xBFC00000) == 0xC07F
    assert st_(F.BF16, 0x007FFFFF) == 0x0000       # denormal flushed
    assert st_(F.BF16, 0x807FFFFF) == 0x8000       # sign kept
    assert st_(F.BF16, 0x00800000) == 0x0001       # smallest normal: E=1
    # NaN whose payload is only in the low 16 bits truncates to Inf.
    assert st_(F.BF16, 0x7F800001) == 0x00FF
    assert st_(F.BF16, 0xFF80FFFF) == 0x80FF
    assert ld(F.BF16, st_(F.BF16, 0x7F800001)) == 0x7F800000
    # A NaN with payload in the high mantissa bits stays NaN.
    assert st_(F.BF16, 0x7FC00001) == 0x40FF


def test_store_fp32_family():
    for m in (F.FP32, F.INT32, F.INT32_ALL):
        assert st_(m, 0x3F800000) == 0x007F0000
        assert st_(m, 0xBFC00000) == 0xC07F0000
        assert st_(m, 0x12345678) == 0x34245678
        assert st_(m, 0x7FC00001) == 0x40FF0001    # NaN payload kept
        assert st_(m, 0x00000001) == 0x00000001    # denormal not flushed
        assert st_(m, 0x807FFFFF) == 0xFF00FFFF    # hi 0x807F: S, M=0x7F, E=0


def test_store_int32_sm():
    assert st_(F.INT32_SM, 0xFFFFFFFB) == 0x80000005   # -5
    assert st_(F.INT32_SM, 5) == 5
    assert st_(F.INT32_SM, 0) == 0
    assert st_(F.INT32_SM, 0xEDCBA988) == 0xB4245678   # -0x12345678
    assert st_(F.INT32_SM, 0x00010000) == 0x01000000
    # -2**31 has no sign-magnitude form: the formula gives -0, which loads as 0.
    assert st_(F.INT32_SM, 0x80000000) == 0x80000000
    assert ld(F.INT32_SM, st_(F.INT32_SM, 0x80000000)) == 0


def test_store_int8():
    # Sign-magnitude -100 -> S | 100 << 5 | 16
    assert st_(F.INT8, 0x80000064) == 0x8C90
    assert st_(F.INT8, 200) == 0x1910              # 10-bit magnitude kept
    assert st_(F.INT8, 0x8000007F) == 0x8FF0       # 0x7F << 5 = 0x0FE0
    assert st_(F.INT8, 0x00000464) == 0x0C90       # 1124: bit 10 dropped
    assert st_(F.INT8, 0) == 0x0010                # exponent 16 even for zero
    assert st_(F.INT8, 0x7FFFFC00) == 0x0010       # magnitude bits 30:10 dropped
    assert st_(F.INT8_COMP, 0xFFFFFF9C) == 0x8C90  # -100
    assert st_(F.INT8_COMP, 0xFFFFFC01) == 0xFFF0  # -1023
    assert st_(F.INT8_COMP, 100) == 0x0C90
    assert st_(F.INT8_COMP, 0) == 0x0010


def test_store_16bit_integer_modes():
    assert st_(F.INT16, 0x80000005) == 0x8005
    assert st_(F.INT16, 0x12345678) == 0x5678
    assert st_(F.INT16, 0x8001ABCD) == 0xABCD      # S | 0x2BCD
    assert st_(F.UINT16, 0x12345678) == 0x5678
    assert st_(F.LO16_ONLY, 0x12345678) == 0x5678
    assert st_(F.HI16_ONLY, 0x12345678) == 0x1234
    assert st_(F.LO16, 0x12345678) == 0x56781234   # Dst32b, rotated
    assert st_(F.HI16, 0x12345678) == 0x12345678   # Dst32b, no shuffle
    assert st_(F.ZERO, 0x12345678) == 0


def test_store_output_fits_width():
    x = np.random.default_rng(RNG_SEED).integers(0, 1 << 32, size=4096, dtype=U32)
    x[:8] = [0, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 1]
    for m in ALL_MODES:
        out = store_convert(m, x)
        assert out.dtype == U32 and out.shape == x.shape
        if dst_width(m, "store") == 16:
            assert int(out.max()) <= 0xFFFF, m


# ---------------------------------------------------------------------------
# Round trips

def _rng():
    return np.random.default_rng(RNG_SEED)


def test_roundtrip_fp32_family_random():
    x = _rng().integers(0, 1 << 32, size=100_000, dtype=U32)
    x[:6] = [0x7FC00001, 0xFFBFFFFF, 0x7F800001, 0x00000001, 0x807FFFFF, 0x80000000]
    for m in (F.FP32, F.INT32, F.INT32_ALL):
        assert np.array_equal(load_convert(m, store_convert(m, x)), x)


def test_roundtrip_int32_sm():
    x = _rng().integers(0, 1 << 32, size=100_000, dtype=U32)
    x = x[x != 0x80000000]
    x = np.concatenate([x, np.array([0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000001], dtype=U32)])
    assert np.array_equal(load_convert(F.INT32_SM, store_convert(F.INT32_SM, x)), x)


def test_roundtrip_fp16_lreg_side():
    # Every FP32 value that FP16 represents exactly (as Dst sees it: E=1..31 all
    # finite) round-trips; for E=31, M=0x3FF only without FP16A_INF.
    ieee = np.arange(1 << 16, dtype=U32)
    e = (ieee >> 10) & 0x1F
    m = ieee & 0x3FF
    sign = (ieee >> 15) << 31
    keep = e != 0
    f32 = sign | ((e + 112) << 23) | (m << 13)
    f32 = np.where(keep, f32, sign).astype(U32)           # E=0 -> signed zero only
    sel = keep | (m == 0)
    f32 = f32[sel]
    assert np.array_equal(load_convert(F.FP16, store_convert(F.FP16, f32)), f32)
    top = np.isin(f32, [0x47FFE000, 0xC7FFE000])
    got = load_convert(F.FP16, store_convert(F.FP16, f32), enable_fp16a_inf=True)
    assert np.array_equal(got[~top], f32[~top])
    # Inf survives a store/load with the flag; the saturated pattern becomes Inf.
    inf = np.array([0x7F800000, 0xFF800000], dtype=U32)
    assert np.array_equal(load_convert(F.FP16, store_convert(F.FP16, inf), enable_fp16a_inf=True), inf)


def test_roundtrip_fp16_dst_side():
    # Dst -> LReg -> Dst is the identity except that denormals flush to signed zero.
    raw = np.arange(1 << 16, dtype=U32)
    e = raw & 0x1F
    m = (raw >> 5) & 0x3FF
    want = np.where((e == 0) & (m != 0), raw & 0x8000, raw)
    for flag in (False, True):
        got = store_convert(F.FP16, load_convert(F.FP16, raw, enable_fp16a_inf=flag))
        assert np.array_equal(got, want), flag


def test_roundtrip_bf16_dst_side():
    # Every BF16 pattern incl. Inf/NaN survives; only denormals flush to signed zero.
    raw = np.arange(1 << 16, dtype=U32)
    e = raw & 0xFF
    m = (raw >> 8) & 0x7F
    want = np.where((e == 0) & (m != 0), raw & 0x8000, raw)
    assert np.array_equal(store_convert(F.BF16, load_convert(F.BF16, raw)), want)


def test_roundtrip_bf16_lreg_side():
    x = _rng().integers(0, 1 << 16, size=20_000, dtype=U32) << U32(16)
    x = x[((x >> 23) & 0xFF) != 0]                        # normals, Inf, NaN
    assert np.array_equal(load_convert(F.BF16, store_convert(F.BF16, x)), x)


def test_roundtrip_small_integers():
    rng = _rng()
    mag7 = rng.integers(0, 128, size=5000, dtype=U32)
    sgn = rng.integers(0, 2, size=5000, dtype=U32) << U32(31)
    sm8 = sgn | mag7
    assert np.array_equal(load_convert(F.INT8, store_convert(F.INT8, sm8)), sm8)
    tc10 = rng.integers(-1023, 1024, size=5000).astype(np.int64).astype(U32)
    assert np.array_equal(load_convert(F.INT8_COMP, store_convert(F.INT8_COMP, tc10)), tc10)
    sm16 = sgn | rng.integers(0, 1 << 15, size=5000, dtype=U32)
    assert np.array_equal(load_convert(F.INT16, store_convert(F.INT16, sm16)), sm16)
    u16 = rng.integers(0, 1 << 16, size=5000, dtype=U32)
    assert np.array_equal(load_convert(F.UINT16, store_convert(F.UINT16, u16)), u16)


def test_roundtrip_lo16_hi16_only_pair():
    # A 32-bit value split across two Dst16b datums and merged back.
    x = _rng().integers(0, 1 << 32, size=5000, dtype=U32)
    lo = store_convert(F.LO16_ONLY, x)
    hi = store_convert(F.HI16_ONLY, x)
    r = load_convert(F.LO16_ONLY, lo, old_lreg=np.zeros_like(x))
    r = load_convert(F.HI16_ONLY, hi, old_lreg=r)
    assert np.array_equal(r, x)


def test_lo16_hi16_through_physical_dst():
    # LO16/HI16 store a Dst32b datum but load a Dst16b one. Model the physical
    # rows for Dst32b row 5 (rows 5 and 13) and read both as Dst16b.
    x = np.array([0x12345678, 0xDEADBEEF], dtype=U32)
    a, b = dst32_rows(5)
    for mode, row_a, row_b in ((F.HI16, 0x1234, 0x5678), (F.LO16, 0x5678, 0x1234)):
        dst_bits = np.zeros((16, 2), dtype=U32)
        dst_bits[a], dst_bits[b] = split_dst32(store_convert(mode, x))
        assert dst_bits[a, 0] == row_a and dst_bits[b, 0] == row_b
        got = load_convert(mode, dst_bits[a])
        want = x & U32(0xFFFF0000) if mode == F.HI16 else x & U32(0xFFFF)
        assert np.array_equal(got, want)
    # HI16 store + HI16 load of row A + LO16_ONLY load of row A + 8 rebuilds x.
    dst_bits = np.zeros((16, 2), dtype=U32)
    dst_bits[a], dst_bits[b] = split_dst32(store_convert(F.HI16, x))
    r = load_convert(F.HI16, dst_bits[a])
    r = load_convert(F.LO16_ONLY, dst_bits[b], old_lreg=r)
    assert np.array_equal(r, x)


def test_zero_mode():
    x = np.array([0, 1, 0xFFFFFFFF], dtype=U32)
    assert store_convert(F.ZERO, x).tolist() == [0, 0, 0]
    assert load_convert(F.ZERO, x).tolist() == [0, 0, 0]
