"""typecast: tt-llk's Wormhole SFPLOADMACRO type conversions
(ckernel_sfpu_typecast.h), each with a twin that issues the same operations
one instruction at a time.

Dst holds 32-bit data (FP32 or integers, Dst32b, placed with model.dst_io) or
16-bit data (Dst16b). A 16-bit SFPLOAD or SFPSTORE of address `a` reaches
lane `l` at Dst16b row (a & ~3) + l // 8, column 2 (l & 7) + bit 1 of `a`
(SFPLOAD.md, SFPSTORE.md): the same row and column numbers as the 32-bit
modes, but in the 16-bit view, where row r is simply DstBits[r]. tt-llk's
LO16 load/store mode is the documentation's UINT16 (6): the low 16 bits of
the LReg, zero-extended on the way in.

Whether a 16/32-bit mix works on a whole tile depends on which view is read
first. A Dst32b row r lives in DstBits rows A and A + 8 with A >= r
(Dst.md), so a kernel that reads Dst32b row r and writes Dst16b row r never
overwrites an input it has yet to read; the reverse (read Dst16b row r,
write Dst32b row r) overwrites rows of later inputs. The kernels here are the
32 -> 32, 32 -> 16 and 16 -> 16 ones; `NOT_REPRODUCED` says why the others
are not.
"""

from __future__ import annotations

import numpy as np

from tensix_sfpu.model.dst_io import get_tile_bits16, get_tile_fp32, get_tile_hi16, put_tile_bits16, put_tile_bits32

from . import Accuracy, Kernel, LlkSource
from tensix_sfpu.model.isa import Arch

EXACT = Accuracy(True)


def bf16_tile(state) -> np.ndarray:
    """Dst16b BF16 results (stored in Dst's sign, mantissa, exponent order), as FP32."""
    raw = get_tile_bits16(state).astype(np.uint32)
    ieee = (raw & 0x8000) | ((raw & 0xFF) << 7) | ((raw >> 8) & 0x7F)
    return (ieee << 16).astype(np.uint32).view(np.float32)


def typecast_source(conversion: str, regenerated: str, *, twin: bool = False, dest_template: bool = False,
                    **caller) -> LlkSource:
    """The C++ call a typecast kernel comes from (with `twin`, its DISABLE_SFPLOADMACRO path):
    tt-metal's calculate_typecast_<conversion> after its init; `caller` is the caller's set-up.
    `dest_template`: the call takes is_fp32_dest_acc_en, given as false, the 16-bit-Dst
    store these listings follow."""
    targs = "false, 8, false" if dest_template else "false, 8"
    return LlkSource("ckernel_sfpu_typecast.h", f"calculate_typecast_{conversion}<{targs}>()",
                     f"init_typecast_{conversion}<false>()", ("DISABLE_SFPLOADMACRO",) if twin else (),
                     allow=("swap-mad-nop",), regenerated=regenerated, **caller)


# ---------------------------------------------------------------------------
# Inputs

def _fill(special: np.ndarray, rng_part: np.ndarray) -> np.ndarray:
    return np.concatenate([special, rng_part])[:1024]


def fp32_for_uint16(state, rng) -> np.ndarray:
    """Negative values, -0, NaN/Inf of both signs, denormals, every tie a
    rounding can meet near 0 and near 65535, values past 65535, and a spread
    over the whole uint16 range."""
    f = np.float32
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 1e-38,
                        0.25, 0.49999997, 0.5, 0.50000006, 1.0, 1.5, 2.5, 3.5, 4.5, 1023.5,
                        32767.5, 65533.5, 65534.5, 65535.0, 65535.49, 65535.5, 65535.996, 65536.0,
                        65537.0, 1e6, 3.0e38, -0.5, -1.5, -65535.0, -70000.0, -3e38], dtype=f)
    nan_bits = np.array([0x7F800001, 0x7FFFFFFF, 0xFF800001, 0xFFC00000], dtype=np.uint32).view(f)
    n = 1024 - len(special) - len(nan_bits)
    ties = (rng.integers(0, 65535, n // 4) + 0.5).astype(f)
    spread = rng.uniform(-1000.0, 70000.0, n // 4).astype(f)
    small = rng.uniform(-3.0, 3.0, n // 4).astype(f)
    bits = rng.integers(0, 1 << 32, n - 3 * (n // 4), dtype=np.uint64).astype(np.uint32).view(f)
    x = _fill(np.concatenate([special, nan_bits]), np.concatenate([ties, spread, small, bits]))
    x = x[rng.permutation(1024)]
    put_tile_bits32(state, x.view(np.uint32))
    return x


def uint16_values(state, rng) -> np.ndarray:
    """uint16 in Dst16b: 0, powers of two and their neighbours, the values
    whose BF16 rounding is a tie (an odd multiple of half a BF16 step), the
    ones that round up to 65536, and a spread over the whole range."""
    special = [0, 1, 2, 127, 128, 129, 255, 256, 257, 258, 259, 383, 384, 385, 32767, 32768, 32769,
               65279, 65280, 65407, 65408, 65409, 65534, 65535]
    ties = []
    for e in range(8, 16):                       # 2**e <= n < 2**(e+1): BF16 step 2**(e-7)
        step = 1 << (e - 7)
        k = rng.integers(0, 128, 8)
        ties += list((1 << e) + k * step + step // 2)
    n = 1024 - len(special) - len(ties)
    x = np.concatenate([np.array(special + ties), rng.integers(0, 1 << 16, n)]).astype(np.uint16)
    x = x[rng.permutation(1024)]
    put_tile_bits16(state, x)
    return x


def _int32_special() -> list[int]:
    """Edges of int32 conversions: 0, +-1, the extremes, the FP32 limits of
    exactness around 2**24 (ties to even and odd), BF16 ties (an odd multiple
    of half a BF16 step), and values that overflow uint16 after conversion."""
    out = [0, 1, -1, 2, -2, 255, 256, 257, -257, 65535, 65536, -65535, -65536, 65535 + 65536,
           (1 << 31) - 1, -(1 << 31), -(1 << 31) + 1, (1 << 30), -(1 << 30),
           (1 << 24) - 1, 1 << 24, (1 << 24) + 1, (1 << 24) + 2, (1 << 24) + 3, -((1 << 24) + 1),
           -((1 << 24) + 3), (1 << 25) + 2, (1 << 25) + 6, 0x7FFFFF80, 0x7FFFFFC0, 0x7FFFFF7F,
           -0x7FFFFFC0, 0x01018000, 0x01008000, 0x01028000, -0x01018000, 0x40404040]
    for e in range(8, 31):
        out.append((1 << e) + (3 << (e - 8)))       # BF16 tie: 8 significant bits then a half
        out.append(-((1 << e) + (1 << (e - 8))))
    return out


def int32_values(state, rng) -> np.ndarray:
    """Two's complement int32 in Dst32b, as SFPLOAD's INT32 mode hands them
    over unchanged: the edges above, then random bit patterns, random small
    values and random values of every magnitude."""
    special = np.array(_int32_special(), dtype=np.int64)
    n = 1024 - len(special)
    bits = rng.integers(-(1 << 31), 1 << 31, n // 3)
    small = rng.integers(-70000, 70000, n // 3)
    mags = (rng.integers(0, 1 << 31, n - 2 * (n // 3)) >> rng.integers(0, 31, n - 2 * (n // 3)))
    mags = mags * rng.choice([-1, 1], len(mags))
    x = np.concatenate([special, bits, small, mags]).astype(np.int32)[rng.permutation(1024)]
    put_tile_bits32(state, x.view(np.uint32))
    return x


def uint32_values(state, rng) -> np.ndarray:
    """uint32 in Dst32b: the int32 edges read as unsigned, plus 2**31 and
    2**32 - 1 and their neighbours, then random bit patterns and magnitudes."""
    special = np.array(_int32_special() + [1 << 31, (1 << 31) + 1, (1 << 32) - 1, (1 << 32) - 128,
                                            (1 << 32) - 129, 0x80008000, 0x80018000, 0x80800000,
                                            0xFFFF0000, 0x8000FFFF], dtype=np.int64) & 0xFFFFFFFF
    special = np.unique(special)
    n = 1024 - len(special)
    bits = rng.integers(0, 1 << 32, n // 2)
    mags = rng.integers(0, 1 << 32, n - n // 2) >> rng.integers(0, 32, n - n // 2)
    x = np.concatenate([special, bits, mags]).astype(np.uint32)[rng.permutation(1024)]
    put_tile_bits32(state, x)
    return x


def fp32_for_bf16(state, rng) -> np.ndarray:
    """FP32 for BF16 rounding: exact ties with an even and an odd kept bit,
    one below and above a tie, the largest finite values (which round to
    Inf), denormals (including ones that round up to the smallest normal),
    signed zeros, Inf, and NaNs of both signs and several payloads."""
    f = np.float32
    bits = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
            0x7FFFFFFF, 0xFFFFFFFF, 0x7F808000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x7F7F7FFF,
            0x00000001, 0x80000001, 0x00008000, 0x00018000, 0x007F8000, 0x007F7FFF, 0x007FFFFF,
            0x00800000, 0x3F800000, 0x3F808000, 0x3F818000, 0x3F807FFF, 0x3F808001, 0xBF808000,
            0xBF818000, 0x3FFF8000, 0x3F7F8000]
    special = np.array(bits, dtype=np.uint32)
    n = 1024 - len(special)
    tie = (rng.integers(0, 1 << 16, n // 4).astype(np.uint32) << 16) | 0x8000
    near = (rng.integers(0, 1 << 16, n // 4).astype(np.uint32) << 16) | \
        rng.choice(np.array([0x7FFF, 0x8001, 0x0001, 0xFFFF], dtype=np.uint32), n // 4)
    normal = rng.uniform(-1e4, 1e4, n // 4).astype(f).view(np.uint32)
    rand = rng.integers(0, 1 << 32, n - 3 * (n // 4), dtype=np.uint64).astype(np.uint32)
    x = np.concatenate([special, tie, near, normal, rand])[rng.permutation(1024)].view(f)
    put_tile_bits32(state, x.view(np.uint32))
    return x


# ---------------------------------------------------------------------------
# References (numpy, from the instruction pages)

def round_to_bf16(x: np.ndarray) -> np.ndarray:
    """FP32-exact values to 8 significant bits, to nearest with ties away from
    zero (SFPSTOCHRND FP32 -> FP16B), as FP32. Zero and Inf stay."""
    v = np.asarray(x, dtype=np.float64)
    mant, exp = np.frexp(np.abs(v))              # |v| = mant * 2**exp, 0.5 <= mant < 1
    with np.errstate(invalid="ignore"):
        scaled = np.ldexp(mant, 8)               # 8 significant bits above the point
        r = np.where(np.isfinite(v) & (v != 0), np.sign(v) * np.ldexp(np.floor(scaled + 0.5), exp - 8), v)
    return r.astype(np.float32)


def ref_uint16_to_bf16(x: np.ndarray) -> np.ndarray:
    return round_to_bf16(x.astype(np.float64))


def int_to_fp32(x: np.ndarray) -> np.ndarray:
    """Integers to FP32, to nearest with ties to even (SFPCAST; the MAD that
    adds 2**31 or -2**31 afterwards is exact or rounds the same way)."""
    return np.asarray(x, dtype=np.int64).astype(np.float32)


def uint32_to_fp32(x: np.ndarray) -> np.ndarray:
    """The kernels' unsigned conversion: the low 31 bits to FP32 (ties to
    even), then 2**31 added back where bit 31 was set, the sum rounded to FP32
    (ties to even) once more. Both operands are exact in float64, so their
    float64 sum is exact and the cast does the one FP32 rounding of the add."""
    x = np.asarray(x, dtype=np.uint32)
    low = (x & 0x7FFFFFFF).astype(np.int64).astype(np.float32).astype(np.float64)
    return (low + np.where(x >> 31 == 1, 2.0 ** 31, 0.0)).astype(np.float32)


def uint32_to_fp32_once(x: np.ndarray) -> np.ndarray:
    """float32(x) correctly rounded (to nearest, ties to even): the 0.81.1
    header's conversion, which splits x so that only its last MAD rounds.
    Every uint32 is exact in float64, so the one cast is the one rounding."""
    return np.asarray(x, dtype=np.uint32).astype(np.float64).astype(np.float32)


def ref_uint32_to_bf16(x: np.ndarray) -> np.ndarray:
    return round_to_bf16(uint32_to_fp32(x))


def ref_int32_to_uint16(x: np.ndarray) -> np.ndarray:
    """The kernel clamps to 0..65535 (negatives go through SFPCAST as negative
    floats, which the max with 0.0 removes)."""
    return np.clip(np.asarray(x, dtype=np.int64), 0, 65535).astype(np.uint16)


def _bf16_rne(x: np.ndarray, flush: bool) -> np.ndarray:
    """BF16 round to nearest, ties to even, on the BF16 grid (8 significant
    bits; below 2**-126 a fixed step of 2**-133), overflow to Inf, as FP32;
    with `flush`, a BF16 store's flush of a zero exponent to a signed zero.
    NaN has no value to round: the kernels add 0x7FFF plus the lowest kept
    bit to the bit pattern as an integer, and for NaN that bit arithmetic is
    the definition (a NaN can come out as Inf, or wrap round to a zero of the
    other sign)."""
    with np.errstate(invalid="ignore"):
        v = np.asarray(x, dtype=np.float32).astype(np.float64)
    mant, exp = np.frexp(np.abs(v))
    step = np.ldexp(1.0, np.maximum(exp - 1, -126) - 7)
    with np.errstate(invalid="ignore", over="ignore"):
        r = np.round(np.abs(v) / step) * step                  # numpy rounds halves to even
        if flush:
            r = np.where(r < 2.0 ** -126, 0.0, r)
        r = np.copysign(r, v).astype(np.float32)
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    nan_bits = ((b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    if flush:
        exp_zero = (nan_bits & 0x7F800000) == 0
        nan_bits = np.where(exp_zero, nan_bits & 0x80000000, nan_bits).astype(np.uint32)
    return np.where(np.isnan(v), nan_bits.view(np.float32), r)


def ref_fp32_to_bf16_rne(x: np.ndarray) -> np.ndarray:
    """The hand listings' result: rounded to BF16 and stored as BF16, which
    flushes BF16 denormals to signed zeros."""
    return _bf16_rne(x, flush=True)


def ref_fp32_to_bf16_kept(x: np.ndarray) -> np.ndarray:
    """The 0.81.1 header's result: the same rounding, kept as FP32 in 32-bit
    Dst (low half zero). Wormhole's FP32 store does not flush, so BF16
    denormals stay."""
    return _bf16_rne(x, flush=False)


def ref_int_to_bf16(x: np.ndarray) -> np.ndarray:
    """Two roundings, as the kernels do them: to FP32 (ties to even), then
    to BF16 precision (ties away from zero)."""
    return round_to_bf16(int_to_fp32(x))


def ref_fp32_to_uint16(x: np.ndarray) -> np.ndarray:
    """max(x, 0) in sign-magnitude order (so -NaN -> 0 and +NaN stays), then
    SFPSTOCHRND's round to nearest with ties away from zero, saturating at
    65535: |x| < 0.5 is 0, and NaN or |x| >= 2**16 is 65535."""
    bits = x.view(np.uint32)
    negative = (bits >> 31) == 1
    nan = np.isnan(x)
    with np.errstate(invalid="ignore"):
        v = np.where(negative | nan, 0.0, x.astype(np.float64))
    r = np.floor(v + 0.5)
    r = np.where(nan & ~negative, 65535.0, np.minimum(r, 65535.0))
    return r.astype(np.uint16)


# ---------------------------------------------------------------------------

FACE = 8   # row groups per face: tt-llk calls each kernel once per face

# What the 0.81.1 header gives where it changed since the source these listings follow: each
# generated kernel is read and checked against its own reference (LlkSource.result/reference).
UINT32_TO_FP32_REGEN = (
    "the 0.81.1 header splits x = h * 2^23 + l and rounds once, in the MAD (h - 1) * 2^23 + (2^23 + l): "
    "bit-exact against its own reference, the correctly rounded float32(x), in 1024 of 1024 lanes; this "
    "listing follows the older source, which rounds twice (44 lanes 1 ULP apart)")
INT32_TO_UINT16_REGEN = (
    "the 0.81.1 header stores in mode 9 (LO16: the LReg rotated by 16, written raw, no FP32 shuffle; set in "
    "the init's macro store and in the loop's SFPSTORE) where this listing stores mode 6 to the 16-bit view: "
    "read from the high half of each 32-bit datum (DstBits row A), bit-exact against the same clamp in 1024 of "
    "1024 lanes. Read through the FP32 unshuffle instead, only the 772 lanes whose value the shuffle leaves "
    "alone (0, 65535) agree: input 256 reads as 1")
FP32_TO_FP16B_REGEN = (
    "the 0.81.1 header rounds as this listing does (0x7FFF plus the lowest kept bit added to the bits) "
    "without SFPLOADMACRO, and keeps the result as FP32 in 32-bit Dst with the low half cleared, which "
    "Wormhole's FP32 store does not flush: bit-exact against its own reference (BF16 to nearest even, BF16 "
    "denormals kept) in 1024 of 1024 lanes; this listing's BF16 store flushes the 4 denormal results")


KERNELS = [
    Kernel("typecast_fp32_to_uint16", "typecast_fp32_to_uint16.s",
           "_calculate_typecast_fp32_to_uint16_ (SFPLOADMACRO) with _init_typecast_fp32_to_uint16_",
           fp32_for_uint16, get_tile_bits16, ref_fp32_to_uint16, EXACT,
           # Per face: 8 macros each followed by an SFPNOP (16), three SFPNOPs
           # for the last macro's round and store, and two SETRWCs: 21 cycles.
           cycles_per_row=4 * 21 / 32,
           claimed_cycles_per_row=2.0,
           summary="the claim counts the loop inside a face; each face adds 3 SFPNOPs and 2 SETRWCs: 5 cycles per 8 row groups",
           claim="ckernel_sfpu_typecast.h, _calculate_typecast_fp32_to_uint16_: \"a throughput of 2 "
                 "cycles per input row\", and its schedule table",
           timing_note="Inside a face the macros run at exactly the claimed 2 cycles per row group "
                       "(macro + SFPNOP). The source's count leaves out what each call of the kernel "
                       "adds per face: three SFPNOPs so that the last macro's Round and Store, whose "
                       "delays count issued instructions (Misc UnitDelayKind), can run, and the two "
                       "SETRWCs of _llk_math_eltwise_unary_sfpu_params_: 5 cycles per 8 row groups.",
           twin="typecast_fp32_to_uint16_twin",
           notes="FP32 in Dst32b to uint16 in Dst16b (same rows and columns). The SFPSWAP template "
                 "clamps negatives (and -0, -Inf, -NaN) to +0; SFPSTOCHRND then rounds to nearest "
                 "with ties away from zero and saturates at 65535, which also catches +Inf and +NaN. "
                 "tt-llk's sequence runs SFPSWAP without an SFPNOP in the MAD slot, so the kernel "
                 "allows that rule.",
           source_schedule="""\
| t (instr.) | Load | Simple | MAD | Round | Store |
|---|---|---|---|---|---|
| 0 | macro, VD = v | | | | |
| 1 | SFPNOP | v = max(v, 0.0) | | | |
| 0 (next) | next macro | must be idle (SWAP's second cycle) | | must be idle | |
| 1 (next) | SFPNOP | | | L16 = round(v) | |
| 0 (after) | | | | | store L16 |
""",
           timeline=(0, 8),
           llk_source=typecast_source("fp32_to_uint16",
                                      "body words equal; Dst bit-identical (with is_fp32_dest_acc_en true the 0.81.1 "
                                      "header stores with mode 9, halves swapped, and without SFPLOADMACRO)",
                                      dest_template=True), arch=Arch.WORMHOLE),
    Kernel("typecast_fp32_to_uint16_twin", "typecast_fp32_to_uint16_twin.s",
           "_calculate_typecast_fp32_to_uint16_ built with DISABLE_SFPLOADMACRO",
           fp32_for_uint16, get_tile_bits16, ref_fp32_to_uint16, EXACT,
           # Per row group load, SFPSWAP, a stall cycle for SFPSWAP's second
           # cycle, SFPSTOCHRND, store: 5 cycles; per face 40 + 2 SETRWCs.
           cycles_per_row=4 * 42 / 32,
           notes="The source's non-macro path as it stands.",
           llk_source=typecast_source("fp32_to_uint16",
                                      "body words equal; Dst bit-identical (with is_fp32_dest_acc_en true the 0.81.1 "
                                      "header stores with mode 9, halves swapped)", twin=True, dest_template=True),
                                      arch=Arch.WORMHOLE),
    Kernel("typecast_uint16_to_fp16b", "typecast_uint16_to_fp16b.s",
           "_calculate_typecast_uint16_to_fp16b_ (SFPLOADMACRO) with _init_typecast_uint16_to_fp16b_",
           uint16_values, bf16_tile, ref_uint16_to_bf16, EXACT,
           # Per face: 8 macros back to back, three SFPNOPs for the last
           # macro's Simple/Round/Store, two SETRWCs: 13 cycles.
           cycles_per_row=4 * 13 / 32,
           claimed_cycles_per_row=1.0,
           summary="the claim counts the loop inside a face; each face adds 3 SFPNOPs and 2 SETRWCs: 5 cycles per 8 row groups",
           claim="ckernel_sfpu_typecast.h, _calculate_typecast_uint16_to_fp16b_: \"a throughput of 1 "
                 "cycle per input row\", and its schedule table",
           timing_note="Inside a face one macro issues per cycle and one row group completes per cycle, "
                       "as claimed. Each call of the kernel also issues three SFPNOPs so that the last "
                       "macro's Round and Store (whose delays count instructions while the Simple "
                       "entry is instruction-counted) can run, and each face is followed by two "
                       "SETRWCs: 5 cycles per 8 row groups.",
           twin="typecast_uint16_to_fp16b_twin",
           notes="uint16 in Dst16b to BF16 in Dst16b. SFPCAST is exact for 16-bit values; "
                 "SFPSTOCHRND rounds to 8 significant bits with ties away from zero, so 257 becomes "
                 "258 and 65535 becomes 65536. Fp32 Dst mode is off and the SrcB format is BF16, so "
                 "the default store mode is BF16 and input and output share the 16-bit view.",
           source_schedule="""\
| t | Load | Simple | MAD | Round | Store |
|---|---|---|---|---|---|
| 0 | macro, VD = v | | | | |
| 0 (next) | next macro | v = cast(v) | | | |
| 0 (+2) | | | | L16 = round(v) | |
| 0 (+3) | | | | | store L16 |
""",
           timeline=(0, 6),
           llk_source=typecast_source("uint16_to_fp16b",
                                      "body words equal; Dst bit-identical", fp32_dest=0, srcb_format=5),
                                      arch=Arch.WORMHOLE),
    Kernel("typecast_uint16_to_fp16b_twin", "typecast_uint16_to_fp16b_twin.s",
           "_calculate_typecast_uint16_to_fp16b_ built with DISABLE_SFPLOADMACRO",
           uint16_values, bf16_tile, ref_uint16_to_bf16, EXACT,
           # 4 instructions per row group, 32 per face, and two SETRWCs.
           cycles_per_row=4 * 34 / 32,
           notes="The source's non-macro path as it stands.",
           llk_source=typecast_source("uint16_to_fp16b",
                                      "body words equal; Dst bit-identical", twin=True, fp32_dest=0, srcb_format=5),
                                      arch=Arch.WORMHOLE),
    Kernel("typecast_int32_to_fp16b", "typecast_int32_to_fp16b.s",
           "_calculate_typecast_int32_to_fp16b_ (SFPLOADMACRO) with _init_typecast_int32_to_fp16b_",
           int32_values, get_tile_fp32, ref_int_to_bf16, EXACT,
           # Per face: two SFPLOADIs (L0, L1), 8 x (macro + ABS + SHFT2 + CAST),
           # five SFPNOPs for the last macro's MAD, Round and Store, two SETRWCs.
           cycles_per_row=4 * (2 + 32 + 5 + 2) / 32,
           claimed_cycles_per_row=4.0,
           summary="the claim counts the loop inside a face; each face adds 2 SFPLOADIs, 5 SFPNOPs and 2 SETRWCs: 9 cycles per 8 row groups",
           claim="ckernel_sfpu_typecast.h, _calculate_typecast_int32_to_fp16b_: \"a throughput of 4 "
                 "cycles per input row\", and its schedule table",
           timing_note="Inside a face one row group completes every 4 cycles, as claimed; the model's "
                       "timeline matches the table cycle for cycle. Each call (face) also costs two "
                       "SFPLOADIs for L0 and L1, five SFPNOPs that let the last macro's MAD, Round and "
                       "Store run (their delays count issued instructions), and two SETRWCs: 9 cycles "
                       "per 8 row groups.",
           twin="typecast_int32_to_fp16b_twin",
           notes="Two's complement int32 in Dst32b to an FP32 value of BF16 precision, stored over "
                 "it (Fp32 Dst mode). Two roundings: SFPCAST to FP32 (ties to even), SFPSTOCHRND to "
                 "BF16 precision (ties away from zero). -2**31, whose magnitude SFPCAST cannot take, "
                 "is fixed by the indirect-VA MAD, which adds -2**31 when the sign bit of |v| is "
                 "set.",
           source_schedule="""\
| t | Load | Simple | MAD | Round | Store |
|---|---|---|---|---|---|
| 0 | macro, VD = v | | | | |
| 1 | | t = abs(v) | | | |
| 2 | | | | L7 = t >> 31 | |
| 3 | | t = cast(t) | | | |
| 0 (next) | next macro | v = setsgn(t, v) | | | |
| 1 (next) | | | v = L[L7] * 1.0 + v | | |
| 2 (next) | | | | | |
| 3 (next) | | | | L16 = round(v) | |
| 0 (after) | | | | | store L16 |
""",
           timeline=(2, 11),
           llk_source=typecast_source("int32_to_fp16b",
                                      "body words equal; Dst bit-identical"), arch=Arch.WORMHOLE),
    Kernel("typecast_int32_to_fp16b_twin", "typecast_int32_to_fp16b_twin.s",
           "_calculate_typecast_int32_to_fp16b_ built with DISABLE_SFPLOADMACRO",
           int32_values, get_tile_fp32, ref_int_to_bf16, EXACT,
           # 9 instructions per row group, 72 per face, and two SETRWCs.
           cycles_per_row=4 * 74 / 32,
           notes="The source's non-macro path as it stands.",
           llk_source=typecast_source("int32_to_fp16b",
                                      "body words equal; Dst bit-identical", twin=True), arch=Arch.WORMHOLE),
    Kernel("typecast_int32_to_fp32", "typecast_int32_to_fp32.s",
           "_calculate_typecast_int32_to_fp32_ (SFPLOADMACRO) with _init_typecast_int32_to_fp32_",
           int32_values, get_tile_fp32, int_to_fp32, EXACT,
           # Per face: two SFPLOADIs, 8 x (macro + ABS + SHFT2 + CAST), four
           # SFPNOPs for the last macro's MAD and Store, two SETRWCs: 40 cycles.
           cycles_per_row=4 * (2 + 32 + 4 + 2) / 32,
           claimed_cycles_per_row=4.0,
           summary="the claim counts the loop inside a face; each face adds 2 SFPLOADIs, 4 SFPNOPs and 2 SETRWCs: 8 cycles per 8 row groups",
           claim="ckernel_sfpu_typecast.h, _calculate_typecast_int32_to_fp32_: \"a throughput of 4 "
                 "cycles per input row\", and its schedule table",
           timing_note="Inside a face one row group completes every 4 cycles, as claimed, and the "
                       "timeline matches the table. Each call (face) adds two SFPLOADIs (L0, L1), four "
                       "SFPNOPs so that the last macro's MAD and Store, counted in issued "
                       "instructions, can run, and two SETRWCs: 8 cycles per 8 row groups.",
           twin="typecast_int32_to_fp32_twin",
           notes="Two's complement int32 in Dst32b to FP32 (ties to even) over it, Fp32 Dst mode. "
                 "-2**31 is handled by the indirect-VA MAD as in typecast_int32_to_fp16b.",
           source_schedule="""\
| t | Load | Simple | MAD | Round | Store |
|---|---|---|---|---|---|
| 0 | macro, VD = v | | | | |
| 1 | | t = abs(v) | | | |
| 2 | | | | L7 = t >> 31 | |
| 3 | | t = cast(t) | | | |
| 0 (next) | next macro | v = setsgn(t, v) | | | |
| 1 (next) | | | L16 = L[L7] * 1.0 + v | | |
| 2 (next) | | | | | |
| 3 (next) | | | | | store L16 |
""",
           timeline=(2, 10),
           llk_source=typecast_source("int32_to_fp32",
                                      "body words equal; Dst bit-identical"), arch=Arch.WORMHOLE),
    Kernel("typecast_int32_to_fp32_twin", "typecast_int32_to_fp32_twin.s",
           "_calculate_typecast_int32_to_fp32_ built with DISABLE_SFPLOADMACRO",
           int32_values, get_tile_fp32, int_to_fp32, EXACT,
           # 8 instructions per row group, 64 per face, and two SETRWCs.
           cycles_per_row=4 * 66 / 32,
           notes="The source's non-macro path as it stands.",
           llk_source=typecast_source("int32_to_fp32",
                                      "body words equal; Dst bit-identical", twin=True), arch=Arch.WORMHOLE),
    Kernel("typecast_uint32_to_fp16b", "typecast_uint32_to_fp16b.s",
           "_calculate_typecast_uint32_to_fp16b_ (SFPLOADMACRO) with _init_typecast_uint32_to_fp16b_",
           uint32_values, get_tile_fp32, ref_uint32_to_bf16, EXACT,
           # Per face: two SFPLOADIs, 8 x (macro + SHFT2 + SETSGN), five SFPNOPs
           # for the last macro's Simple, MAD, Round and Store, two SETRWCs: 33.
           cycles_per_row=4 * (2 + 24 + 5 + 2) / 32,
           claimed_cycles_per_row=3.0,
           summary="the claim counts the loop inside a face; each face adds 2 SFPLOADIs, 5 SFPNOPs and 2 SETRWCs: 9 cycles per 8 row groups",
           claim="ckernel_sfpu_typecast.h, _calculate_typecast_uint32_to_fp16b_: \"a throughput of 3 "
                 "cycles per input row\", and its schedule table",
           timing_note="Inside a face one row group completes every 3 cycles, as claimed. Each call "
                       "(face) adds two SFPLOADIs (L0, L1), five SFPNOPs for the last macro's "
                       "instruction-counted Simple, MAD, Round and Store, and two SETRWCs: 9 cycles "
                       "per 8 row groups.",
           twin="typecast_uint32_to_fp16b_twin",
           notes="uint32 in Dst32b to an FP32 value of BF16 precision over it (Fp32 Dst mode). "
                 "Three roundings, as the kernel does them: the low 31 bits to FP32, the MAD that "
                 "adds 2**31 back (both ties to even), then BF16 (ties away from zero). tt-llk's init "
                 "for this variant leaves L12 (the shift count, -31) unset; the kernel file sets it.",
           source_schedule="""\
| t | Load | Simple | MAD | Round | Store |
|---|---|---|---|---|---|
| 0 | macro, VD = v | | | | |
| 1 | | | | L7 = v >> 31 | |
| 2 | | v = setsgn(v, 0) | | | |
| 0 (next) | next macro | v = cast(v) | | | |
| 1 (next) | | | v = L[L7] * 1.0 + v | | |
| 2 (next) | | | | | |
| 0 (after) | | | | L16 = round(v) | |
| 1 (after) | | | | | store L16 |
""",
           timeline=(2, 10),
           llk_source=typecast_source("uint32_to_fp16b",
                                      "body words equal; Dst bit-identical"), arch=Arch.WORMHOLE),
    Kernel("typecast_uint32_to_fp16b_twin", "typecast_uint32_to_fp16b_twin.s",
           "_calculate_typecast_uint32_to_fp16b_ built with DISABLE_SFPLOADMACRO",
           uint32_values, get_tile_fp32, ref_uint32_to_bf16, EXACT,
           # 8 instructions per row group, 64 per face, and two SETRWCs.
           cycles_per_row=4 * 66 / 32,
           notes="The source's non-macro path as it stands.",
           llk_source=typecast_source("uint32_to_fp16b",
                                      "the source stores with InstrModLoadStore::FP32 where this listing uses the "
                                      "default, the same format in 32-bit Dst; Dst bit-identical", twin=True),
                                      arch=Arch.WORMHOLE),
    Kernel("typecast_uint32_to_fp32", "typecast_uint32_to_fp32.s",
           "_calculate_typecast_uint32_to_fp32_ (SFPLOADMACRO) with _init_typecast_uint32_to_fp32_",
           uint32_values, get_tile_fp32, uint32_to_fp32, EXACT,
           # Per face: two SFPLOADIs, 8 x three macros, four SFPNOPs for the last
           # row group's instruction-counted MAD, Round and Store, two SETRWCs: 32.
           cycles_per_row=4 * (2 + 24 + 4 + 2) / 32,
           claimed_cycles_per_row=3.0,
           summary="the claim counts the loop inside a face; each face adds 2 SFPLOADIs, 4 SFPNOPs and 2 SETRWCs: 8 cycles per 8 row groups",
           claim="ckernel_sfpu_typecast.h, _calculate_typecast_uint32_to_fp32_: \"a throughput of 3 "
                 "cycles per input row\", and its schedule table",
           timing_note="Inside a face one row group completes every 3 cycles, as claimed. Each call "
                       "(face) adds two SFPLOADIs (L0, L1), four SFPNOPs and two SETRWCs: 8 cycles per "
                       "8 row groups. The MAD of macro 1 is due in the cycle after the next macro 0, "
                       "whose MAD byte selects nothing: it runs because such a byte forgets nothing "
                       "(docs/timing.md), as the source's table requires.",
           twin="typecast_uint32_to_fp32_twin",
           notes="uint32 in Dst32b to FP32 (ties to even) over it, Fp32 Dst mode: the low 31 bits are "
                 "cast, and an indirect-VA MAD adds L1 = 2**31 where L7 (bit 31, shifted down by the "
                 "Round sub-unit) picks L1, or L0 = 0.",
           source_schedule="""\
| t | Load | Simple | MAD | Round | Store |
|---|---|---|---|---|---|
| 0 | macro 0, VD = a | | | | |
| 1 | macro 1, VD = b | a = setsgn(a, 0) | | | |
| 2 | macro 2, VD = L7 | b = cast(a) | | | |
| 0 (next) | ... | | | L7 = L7 >> 31 | |
| 1 (next) | ... | | L16 = L[L7] * 1.0 + b | | |
| 2 (next) | ... | | | | |
| 0 (next but one) | ... | | | | store L16 |
""",
           timeline=(2, 14),
           llk_source=typecast_source("uint32_to_fp32", UINT32_TO_FP32_REGEN, reference=uint32_to_fp32_once),
           arch=Arch.WORMHOLE),
    Kernel("typecast_uint32_to_fp32_twin", "typecast_uint32_to_fp32_twin.s",
           "_calculate_typecast_uint32_to_fp32_ built with DISABLE_SFPLOADMACRO",
           uint32_values, get_tile_fp32, uint32_to_fp32, EXACT,
           # 7 instructions per row group (the store's ADDR_MOD_2 steps the Dst counter),
           # 56 per face, and two SETRWCs.
           cycles_per_row=4 * (8 * 7 + 2) / 32,
           notes="The source's non-macro path, with lane predication switched on first as the "
                 "firmware does at boot.",
           llk_source=typecast_source("uint32_to_fp32", UINT32_TO_FP32_REGEN, twin=True,
                                      reference=uint32_to_fp32_once), arch=Arch.WORMHOLE),
    Kernel("typecast_int32_to_uint16", "typecast_int32_to_uint16.s",
           "_calculate_typecast_int32_to_uint16_ (SFPLOADMACRO) with _init_typecast_int32_to_uint16_",
           int32_values, get_tile_bits16, ref_int32_to_uint16, EXACT,
           # Per face: 8 x (macro + SFPCAST + SFPNOP), three SFPNOPs for the
           # last macro's Round and Store, two SETRWCs: 29 cycles.
           cycles_per_row=4 * (24 + 3 + 2) / 32,
           claimed_cycles_per_row=3.0,
           summary="the claim counts the loop inside a face; each face adds 3 SFPNOPs and 2 SETRWCs: 5 cycles per 8 row groups",
           claim="ckernel_sfpu_typecast.h, _calculate_typecast_int32_to_uint16_: \"a throughput of 3 "
                 "cycles per input row\", and its schedule table",
           timing_note="Inside a face one row group completes every 3 cycles, as claimed. Each call "
                       "(face) adds three SFPNOPs for the last macro's instruction-counted Round and "
                       "Store and two SETRWCs: 5 cycles per 8 row groups.",
           twin="typecast_int32_to_uint16_twin",
           notes="Two's complement int32 in Dst32b clamped to 0..65535 and stored as 16 bits "
                 "(Dst16b, same row and column). SFPCAST sees negative words as negative "
                 "sign-magnitude numbers, SFPSWAP with 0.0 makes them +0, SFPSTOCHRND saturates "
                 "at 65535. The macro SFPSWAP runs without an SFPNOP in the MAD slot, as tt-llk "
                 "schedules it; the kernel allows that rule.",
           source_schedule="""\
| t | Load | Simple | MAD | Round | Store |
|---|---|---|---|---|---|
| 0 | macro, VD = a | | | | |
| 1 | | a = cast(a) | | | |
| 2 | SFPNOP | a = max(0.0, a) | | | |
| 0 (next) | next macro | must be idle (SWAP's second cycle) | | | |
| 1 (next) | | | | L16 = round(a) | |
| 2 (next) | | | | | store L16 |
""",
           timeline=(0, 9),
           llk_source=typecast_source("int32_to_uint16", INT32_TO_UINT16_REGEN, result=get_tile_hi16),
           arch=Arch.WORMHOLE),
    Kernel("typecast_int32_to_uint16_twin", "typecast_int32_to_uint16_twin.s",
           "_calculate_typecast_int32_to_uint16_ built with DISABLE_SFPLOADMACRO",
           int32_values, get_tile_bits16, ref_int32_to_uint16, EXACT,
           # Per row group load, cast, SFPSWAP, a stall, round, store: 6
           # cycles; 48 per face and two SETRWCs.
           cycles_per_row=4 * 50 / 32,
           notes="The source's non-macro path as it stands.",
           llk_source=typecast_source("int32_to_uint16", INT32_TO_UINT16_REGEN, twin=True, result=get_tile_hi16),
           arch=Arch.WORMHOLE),
    Kernel("typecast_fp32_to_fp16b", "typecast_fp32_to_fp16b.s",
           "_calculate_typecast_fp32_to_fp16b_ (SFPLOADMACRO) with _init_typecast_fp32_to_fp16b_",
           fp32_for_bf16, bf16_tile, ref_fp32_to_bf16_rne, EXACT,
           # Per face: 8 x (two macros + SFPAND), three SFPNOPs for the last
           # macros' Simple and Store, two SETRWCs: 29 cycles.
           cycles_per_row=4 * (24 + 3 + 2) / 32,
           claimed_cycles_per_row=3.0,
           summary="the claim counts the loop inside a face; each face adds 3 SFPNOPs and 2 SETRWCs: 5 cycles per 8 row groups",
           claim="ckernel_sfpu_typecast.h, _calculate_typecast_fp32_to_fp16b_: \"a throughput of 3 "
                 "cycles per input row\", and its schedule table",
           timing_note="Inside a face one row group completes every 3 cycles, as claimed. Each call "
                       "(face) adds three SFPNOPs for the last macros' instruction-counted Simple and "
                       "Store and two SETRWCs: 5 cycles per 8 row groups.",
           twin="typecast_fp32_to_fp16b_twin",
           notes="FP32 in Dst32b rounded to BF16 (to nearest, ties to even, by integer addition on "
                 "the bit pattern) and stored as BF16 in Dst16b at the input's row and column. "
                 "The [a] macro also stores the word (x >> 16) & 1 as FP32 over the input, which "
                 "the source relies on to leave zeros in the low half on hardware that maps Dst16b "
                 "onto the high half of Dst32b; without that mapping (our Dst) the result is read "
                 "from the 16-bit view. NaN follows the bit arithmetic (some become Inf or 0).",
           source_schedule="""\
| t | Load | Simple | MAD | Round | Store |
|---|---|---|---|---|---|
| 0 | macro [a] | | | | |
| 1 | macro [b] | | | a = a >> 16 | |
| 2 | | a = a & 1 | | | |
| 0 (next) | ... | b = b + 0x7FFF | | | |
| 1 (next) | ... | L16 = a + b | | | store a |
| 2 (next) | ... | | | | store L16 (BF16) |
""",
           timeline=(0, 9),
           llk_source=typecast_source("fp32_to_fp16b", FP32_TO_FP16B_REGEN, result=get_tile_fp32,
                                      reference=ref_fp32_to_bf16_kept), arch=Arch.WORMHOLE),
    Kernel("typecast_fp32_to_fp16b_twin", "typecast_fp32_to_fp16b_twin.s",
           "_calculate_typecast_fp32_to_fp16b_ built with DISABLE_SFPLOADMACRO, plus the FP32 store "
           "of (x >> 16) & 1 that the macro version does",
           fp32_for_bf16, bf16_tile, ref_fp32_to_bf16_rne, EXACT,
           # 8 instructions per row group, 64 per face, and two SETRWCs.
           cycles_per_row=4 * 66 / 32,
           notes="The source's non-macro path with one added SFPSTORE, so that Dst matches the "
                 "macro version outside the results too.",
           llk_source=typecast_source("fp32_to_fp16b", FP32_TO_FP16B_REGEN, twin=True, result=get_tile_fp32,
                                      reference=ref_fp32_to_bf16_kept), arch=Arch.WORMHOLE),
]

# Variants of ckernel_sfpu_typecast.h that use SFPLOADMACRO but are not here, and why.
NOT_REPRODUCED: dict[str, str] = {
    "uint16_to_fp32":
        "Reads Dst16b row r (LO16) and writes Dst32b row r (FP32). Dst32b row r occupies DstBits rows "
        "A and A + 8 with A = ((r & 0x1F8) << 1) | (r & 7), so from the third row group pair on the "
        "stores overwrite 16-bit inputs not yet read. On hardware the kernels run with bit 11 of "
        "RISCV_DEBUG_REG_DBG_FEATURE_DISABLE set (tt-llk's _llk_math_dbg_feature_disable_), which "
        "maps Dst16b onto the high half of Dst32b; our Dst does not model that mapping.",
    "uint16_to_uint32":
        "Same as uint16_to_fp32: a 16-bit load and a 32-bit store of the same row, which needs the "
        "Dst16b-on-Dst32b mapping of debug bit 11 to work on a whole tile.",
    "uint32_to_uint16":
        "Its [a] macro loads the 16-bit view of a 32-bit input (\"load high 16 bits\"), which is the "
        "high half only under the debug bit 11 mapping; in our Dst, Dst16b row r >= 8 is part of an "
        "earlier row's Dst32b datum, so the kernel cannot be given consistent inputs.",
}
