"""The unpacker's and the packer's format conversions between L1 and Dst, for
the float formats tt-llk's accuracy sweep gates on (Float32, Float16_b,
Float16 in and out; 32-bit or 16-bit Dst).

Ground truth (tt-isa-documentation, WormholeB0): Unpackers/FormatConversion.md
and UNPACR_Regular.md's `FormatConversion` (L1 -> SrcA or Dst), MOVA2D.md
(SrcA -> Dst, the datacopy), Packers/FormatConversion.md (Dst -> L1: an early
conversion to the packer's intermediate format, then a late one to the L1
format) and FloatBitPatterns.md. The BlackholeA0 pages have no packer format
page; Blackhole uses the same rules here, except where tt-llk configures its
packer differently (`pack_plan`).

Bits travel as numpy uint32 arrays of any shape: FP32 bit patterns, or 16-bit
patterns (BF16 `S E8 M7`, FP16 `S E5 M10`) in the low half. All in IEEE field
order; the Dst layout (shuffled fields) is `dst_format`'s business. Tensix FP16
has no Inf or NaN: exponent 31 is an ordinary binade (up to 131008), which is
how the Dst holds it; a host reading Float16 from L1 reads IEEE FP16.

Rules, each from the pages above unless marked [inferred]:
- Unpacker FP32 -> BF16 (to SrcA or Dst): denormals flushed to signed zero,
  then the low 16 bits dropped (truncation).
- Unpacker FP32 -> FP16: the documentation names `FP32ToFP16` without
  defining it. [inferred] As the packer's late FP32 -> FP16 conversion:
  exponent saturated, mantissa truncated, below 2**-14 flushed.
- MOVA2D (SrcA -> Dst, the datacopy), with tt-llk's default flush: a datum
  whose exponent field is 0 becomes +0 (denormals, and -0). BF16 and FP16 in
  SrcA become the same value in a 32-bit Dst (exact); in a 16-bit Dst they
  stay as they are.
- Packer early conversion from 32-bit Dst:
  FP32 -> FP32 identity; FP32 -> BF16 rounding (to nearest, ties away from
  zero; denormals flushed; -0 becomes +0; NaN becomes Inf); FP32 -> TF32
  (Round_10b_mant) the same rounding to a 10-bit mantissa.
  From 16-bit Dst: BF16 -> BF16 and FP16 -> FP16 "rounding" (Read_raw off):
  denormals flushed, -0 becomes +0, a BF16 NaN becomes Inf.
- Packer late conversion: to FP32 or BF16 truncates a narrower mantissa; to
  FP16 saturates the exponent, then truncates; exponent narrowing flushes
  |x| <= 2**-15 to zero and "mishandles" 2**-15 < |x| < 2**-14 [inferred: we
  flush that band too]; NaN becomes FP16 "infinity". Saturation clamps to
  +-65504 (0x7BFF), the value SFPU_ULP.md reports Wormhole's pack returning.
  Widening the exponent (FP16 -> BF16/FP32) keeps the value; FP16 denormals
  cannot reach it (the early conversion flushed them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .isa import Arch

__all__ = [
    "FLOAT32", "FLOAT16_B", "FLOAT16", "FORMATS", "DST_FP32", "DST_BF16", "DST_FP16",
    "CellPlan", "plan", "unpack", "pack", "values",
    "unpack_fp32_to_bf16", "unpack_fp32_to_fp16", "mova2d_flush",
    "round_fp32_to_bf16", "round_fp32_to_tf32", "fp32_to_fp16_saturating",
    "bf16_to_fp32", "fp16_to_fp32", "flush16",
]

FLOAT32, FLOAT16_B, FLOAT16 = "Float32", "Float16_b", "Float16"
FORMATS = (FLOAT16_B, FLOAT16, FLOAT32)          # tt-llk's DataFormat names
DST_FP32, DST_BF16, DST_FP16 = "fp32", "bf16", "fp16"   # what a Dst datum holds

_U32 = np.uint32
_SIGN32 = _U32(0x80000000)
_EXP32 = _U32(0x7F800000)
FP16_MAX = 0x7BFF                     # 65504, the pack's clamp


def _u32(x) -> np.ndarray:
    return np.asarray(x).astype(np.uint32)


def _flush_fp32(b: np.ndarray) -> np.ndarray:
    """Denormals (exponent field 0) to zero of the same sign."""
    return np.where((b & _EXP32) == 0, b & _SIGN32, b).astype(np.uint32)


# ---------------------------------------------------------------------------
# Unpacker (L1 -> SrcA or Dst) and the datacopy (SrcA -> Dst)

def unpack_fp32_to_bf16(b) -> np.ndarray:
    """UNPACR FP32 -> BF16: denormals to signed zero, then the low 16 bits dropped."""
    return _flush_fp32(_u32(b)) >> _U32(16)


def unpack_fp32_to_fp16(b) -> np.ndarray:
    """UNPACR FP32 -> FP16 [inferred: as the packer's late conversion]."""
    return fp32_to_fp16_saturating(b)


def mova2d_flush(b) -> np.ndarray:
    """MOVA2D's FlushDenormals on an FP32-ordered value: exponent 0 (denormal or
    either zero) becomes +0. (SrcA's exponent field is the low 8 bits of its
    layout; for FP16 data the 5-bit exponent sits in those bits too.)"""
    b = _u32(b)
    return np.where((b & _EXP32) == 0, _U32(0), b).astype(np.uint32)


# ---------------------------------------------------------------------------
# Widening (exact)

def bf16_to_fp32(h) -> np.ndarray:
    return _u32(h) << _U32(16)


def fp16_to_fp32(h) -> np.ndarray:
    """A Tensix FP16 datum as FP32: exponent 31 is a normal binade; a denormal
    (exponent 0) widens to zero of its sign, as the paths here flush it."""
    h = _u32(h)
    sign = (h >> _U32(15)) << _U32(31)
    exp = (h >> _U32(10)) & _U32(0x1F)
    man = h & _U32(0x3FF)
    wide = sign | ((exp + _U32(112)) << _U32(23)) | (man << _U32(13))
    return np.where(exp == 0, sign, wide).astype(np.uint32)


# ---------------------------------------------------------------------------
# Packer

def round_fp32_to_bf16(b) -> np.ndarray:
    """Early conversion FP32 -> BF16, rounding: to nearest, ties away from zero,
    denormals flushed, -0 -> +0, NaN -> Inf (of its sign)."""
    b = _flush_fp32(_u32(b))
    nan = ((b & _EXP32) == _EXP32) & ((b & _U32(0x7FFFFF)) != 0)
    r = ((b & _U32(0x7FFFFFFF)) + _U32(0x8000)) >> _U32(16)      # magnitude rounds away on a tie
    r = np.minimum(r, _U32(0x7F80)) | ((b >> _U32(16)) & _U32(0x8000))
    r = np.where(nan, (b >> _U32(16)) & _U32(0xFF80), r)
    return np.where((r & _U32(0x7FFF)) == 0, _U32(0), r).astype(np.uint32)


def round_fp32_to_tf32(b) -> np.ndarray:
    """Early conversion FP32 -> TF32 (Round_10b_mant): the same rounding to a
    10-bit mantissa; the result is FP32 bits with the low 13 bits clear."""
    b = _flush_fp32(_u32(b))
    nan = ((b & _EXP32) == _EXP32) & ((b & _U32(0x7FFFFF)) != 0)
    mag = ((b & _U32(0x7FFFFFFF)) + _U32(0x1000)) & _U32(0xFFFFE000)
    r = np.minimum(mag, _U32(0x7F800000)) | (b & _SIGN32)
    r = np.where(nan, b & _U32(0xFF800000), r)
    return np.where((r & _U32(0x7FFFFFFF)) == 0, _U32(0), r).astype(np.uint32)


def fp32_to_fp16_saturating(b) -> np.ndarray:
    """Late conversion FP32 -> FP16: |x| < 2**-14 flushed to signed zero, the
    mantissa truncated, anything past 65504 (Inf too) clamped to +-65504, NaN to
    FP16's all-ones exponent."""
    b = _u32(b)
    sign = (b >> _U32(16)) & _U32(0x8000)
    exp = ((b >> _U32(23)) & _U32(0xFF)).astype(np.int64) - 112
    man = (b >> _U32(13)) & _U32(0x3FF)
    nan = ((b & _EXP32) == _EXP32) & ((b & _U32(0x7FFFFF)) != 0)
    normal = (np.clip(exp, 0, 31).astype(np.uint32) << _U32(10)) | man
    h = np.where(exp <= 0, _U32(0), np.where(exp >= 31, _U32(FP16_MAX), np.minimum(normal, _U32(FP16_MAX))))
    h = np.where(nan, _U32(0x7C00), h)
    return (h | sign).astype(np.uint32)


def flush16(h, exponent_bits: int) -> np.ndarray:
    """A 16-bit float's denormals and -0 to +0 (the early conversion's rounding
    mode on a 16-bit Dst); a BF16 NaN becomes Inf."""
    h = _u32(h)
    man_bits = 15 - exponent_bits
    exp_mask = _U32(((1 << exponent_bits) - 1) << man_bits)
    h = np.where((h & exp_mask) == 0, _U32(0), h)
    if exponent_bits == 8:
        nan = ((h & exp_mask) == exp_mask) & ((h & _U32(0x7F)) != 0)
        h = np.where(nan, h & _U32(0xFF80), h)
    return h.astype(np.uint32)


# ---------------------------------------------------------------------------
# One sweep cell, end to end

@dataclass(frozen=True)
class CellPlan:
    """How a cell's values travel: what the SrcA holds (None when the unpacker
    writes Dst directly), what Dst holds, and the packer's intermediate format."""
    in_fmt: str
    out_fmt: str
    dest32: bool
    arch: str
    src: str | None          # FLOAT16_B / FLOAT16 / None (unpack to Dst)
    dst: str                 # DST_FP32 / DST_BF16 / DST_FP16
    pack_src: str            # FLOAT32 / FLOAT16_B / FLOAT16

    @property
    def srcb_format(self) -> int:
        """The 4-bit format code the math side's SrcB format register holds
        (what SFPLOAD's default mode resolves with on a 16-bit Dst)."""
        return 1 if self.src == FLOAT16 else 5


def plan(in_fmt: str, out_fmt: str, dest32: bool, arch: str) -> CellPlan:
    """The formats tt-llk's test harness configures for one cell (its format
    inference for the unary SFPU test; the rules are facts about that harness,
    summarised here):
    - a Float32 input unpacks straight into a 32-bit Dst; into a 16-bit Dst it
      goes through SrcA as BF16, or as FP16 when the output is Float16;
    - Float16_b and Float16 go through SrcA in their own format;
    - the packer reads Float32 from a 32-bit Dst when the output is Float16 on
      Wormhole (it cannot do that conversion in its early stage), else the
      output format (`Features.pack_fp32_to_fp16_early`); from a 16-bit Dst it
      reads the Dst's own format."""
    for name, value in (("input", in_fmt), ("output", out_fmt)):
        if value not in FORMATS:
            raise ValueError(f"{name} format {value!r}: expected one of {', '.join(FORMATS)}")
    if in_fmt == FLOAT32:
        src = None if dest32 else (FLOAT16 if out_fmt == FLOAT16 else FLOAT16_B)
    else:
        src = in_fmt
    dst = DST_FP32 if dest32 else (DST_FP16 if src == FLOAT16 else DST_BF16)
    if dest32:
        early = Arch.parse(arch).features.pack_fp32_to_fp16_early
        pack_src = FLOAT32 if (out_fmt == FLOAT16 and not early) else out_fmt
    else:
        pack_src = src
    return CellPlan(in_fmt, out_fmt, dest32, arch, src, dst, pack_src)


def unpack(p: CellPlan, l1) -> np.ndarray:
    """L1 data (FP32 bits; BF16 or IEEE FP16 bits for the 16-bit formats) to
    what Dst holds: FP32 bits for a 32-bit Dst, BF16 or FP16 bits for a 16-bit one."""
    l1 = _u32(l1)
    if p.src is None:                                   # unpack to Dst: FP32 identity
        return l1
    if p.in_fmt == FLOAT32:
        srca = unpack_fp32_to_fp16(l1) if p.src == FLOAT16 else unpack_fp32_to_bf16(l1)
    else:
        srca = l1
    wide = mova2d_flush(fp16_to_fp32(srca) if p.src == FLOAT16 else bf16_to_fp32(srca))
    if p.dst == DST_FP32:
        return wide
    if p.dst == DST_BF16:
        return wide >> _U32(16)
    return fp32_to_fp16_saturating(wide)               # exact: the value came from FP16


def pack(p: CellPlan, dst) -> np.ndarray:
    """What Dst holds (as `unpack` returns it) to the L1 output's bits."""
    d = _u32(dst)
    if p.dst == DST_FP32:
        if p.pack_src == FLOAT16_B:
            return round_fp32_to_bf16(d)
        if p.pack_src == FLOAT16:                       # Round_10b_mant, then the late conversion
            return fp32_to_fp16_saturating(round_fp32_to_tf32(d))
        # FP32 intermediate: the late conversion does the rest
        if p.out_fmt == FLOAT32:
            return d
        if p.out_fmt == FLOAT16_B:
            return d >> _U32(16)
        return fp32_to_fp16_saturating(d)
    if p.dst == DST_BF16:
        h = flush16(d, 8)
        return h if p.out_fmt == FLOAT16_B else (bf16_to_fp32(h) if p.out_fmt == FLOAT32
                                                  else fp32_to_fp16_saturating(bf16_to_fp32(h)))
    h = flush16(d, 5)
    if p.out_fmt == FLOAT16:
        return h
    wide = fp16_to_fp32(h)
    return wide if p.out_fmt == FLOAT32 else wide >> _U32(16)


def values(fmt: str, bits) -> np.ndarray:
    """L1 bits of `fmt` as float64, as a host reads them (Float16 as IEEE FP16)."""
    b = _u32(bits)
    with np.errstate(invalid="ignore"):        # a signalling NaN widens to a quiet one, as on a host
        if fmt == FLOAT32:
            return b.view(np.float32).astype(np.float64)
        if fmt == FLOAT16_B:
            return (b << _U32(16)).view(np.float32).astype(np.float64)
        return b.astype(np.uint16).view(np.float16).astype(np.float64)
