"""reduce and cumsum: tt-llk's Wormhole SFPU reductions of one 32 x 32 FP32 tile
(ckernel_sfpu_reduce.h: column sum, mean and maximum, row sum and maximum) and
its cumulative sum down the columns (ckernel_sfpu_cumsum.h).

Inputs and outputs are handled as a 32 x 32 tile (row-major, tile rows and
columns), placed in Dst the way the unpacker lays a tile out: four 16 x 16
faces of 16 Dst rows each, faces 0 and 1 side by side above faces 2 and 3.
"""

from __future__ import annotations

import numpy as np

from tensix_sfpu.model.dst_io import get_tile_fp32, put_tile_bits32

from . import Accuracy, Kernel, LlkSource
from tensix_sfpu.model.isa import Arch

F32 = np.float32


def _tile_order() -> tuple[np.ndarray, np.ndarray]:
    """Tile row and column of each value in put_tile_bits32's order (32 row
    groups of 32 lanes, row group g at SFPLOAD address 2g)."""
    g, lane = np.divmod(np.arange(1024), 32)
    address = 2 * g
    dst_row = (address & ~3) + lane // 8          # Dst row within the tile's 64
    face, face_row = np.divmod(dst_row, 16)
    face_col = (lane % 8) * 2 + ((address >> 1) & 1)
    return (face // 2) * 16 + face_row, (face % 2) * 16 + face_col


_ROWS, _COLS = _tile_order()


def put_tile(state, tile: np.ndarray) -> None:
    put_tile_bits32(state, np.asarray(tile, dtype=F32)[_ROWS, _COLS].view(np.uint32))


def get_tile(state) -> np.ndarray:
    tile = np.empty((32, 32), dtype=F32)
    tile[_ROWS, _COLS] = get_tile_fp32(state)
    return tile


def reduce_inputs(state, rng) -> np.ndarray:
    """Normal FP32 values of mixed sign and magnitude (2^-10 .. 2^10), so that
    the order of the additions shows in the low bits; large values in one
    column (partly cancelling) and in two rows, so that rounding loses small
    terms in an order-dependent way; +Inf in column 9 / row 11 and -Inf in
    column 30 / row 20; column 17 cancels exactly to 0. No denormals, -0 or NaN: the
    SFPU's adds flush denormals and give +0 for every zero result, which the
    FP32 reference below does not model."""
    mag = np.exp2(rng.uniform(-10, 10, (32, 32)))
    x = (mag * rng.choice([-1.0, 1.0], (32, 32))).astype(F32)
    x[::5, 3] = F32(3.0e7)                       # cancellation: big values in a column
    x[2::5, 3] = F32(-3.0e7)
    x[7, ::3] = F32(1.5e6)                       # and in a row
    x[8, ::3] = F32(-1.5e6)
    x[11, 9] = F32(np.inf)                       # column 9 and row 11 sum to +Inf
    x[20, 30] = F32(-np.inf)                     # column 30 and row 20 to -Inf
    x[:16, 17] = rng.uniform(1, 2, 16).astype(F32)
    x[16:, 17] = -x[:16, 17][::-1]               # column 17 sums to exactly 0
    put_tile(state, x)
    return x


def _tree4(a, b, c, d):
    """a + (b + (c + d)) in FP32, one rounding per add: the recorded chain
    L2 += L3, L1 += L2, L0 += L1."""
    return a + (b + (c + d))


def col_sum_fp32(x: np.ndarray) -> np.ndarray:
    """Column sums in the kernel's FP32 order (see kernels/reduce_col_sum.s):
    sums of four consecutive rows, folded four at a time per 16-row half,
    then the two halves added."""
    x = np.asarray(x, dtype=F32)

    def half(h):
        s = [_tree4(*(h[4 * k + i] for i in range(4))) for k in range(4)]
        return _tree4(*s)
    return half(x[:16]) + half(x[16:])


def col_sum_fp32_rows_first(x: np.ndarray) -> np.ndarray:
    """Column sums in the order of the 0.81.1 header's column reduce (ckernel_sfpu_reduce.h,
    perform_reduce_col_sum_avg): each register holds four consecutive rows of a face, lane row j
    the face rows j, 4 + j, 8 + j, 12 + j of its four registers; the recorded chain folds them,
    r(j) + (r(4 + j) + (r(8 + j) + r(12 + j))), in the upper and the lower face; one SFPADD joins
    the two faces; after SFPTRANSP the four lane-row sums p0..p3 are folded as (p0 + p1) + (p2 + p3)."""
    x = np.asarray(x, dtype=F32)
    p = [_tree4(*(x[4 * k + j] for k in range(4))) + _tree4(*(x[16 + 4 * k + j] for k in range(4)))
         for j in range(4)]
    return (p[0] + p[1]) + (p[2] + p[3])


def top_row(state) -> np.ndarray:
    return get_tile(state)[0]


EXACT_ORDER = Accuracy(True)

# The 0.81.1 header's column sum and mean add in another order than the source the hand
# listings follow; each generated kernel is checked against its own order-exact reference.
COL_SUM_REGEN = (
    "the 0.81.1 header folds the four rows of a face each register holds first, joins the upper and lower "
    "faces, then transposes and folds the four lane rows as (p0 + p1) + (p2 + p3): bit-exact against its own "
    "order-exact reference in 32 of 32 columns; this listing's order gives 22 other columns")
COL_AVG_REGEN = (
    "the 0.81.1 header's column sum (its own order, as reduce_col_sum's) times the 1/32 its init preloads in "
    "L12: bit-exact against its own reference in 32 of 32 columns; this listing's order gives 22 other columns")

# Per pass: 8 SFPLOAD, SFPTRANSP, 12 replayed (6 SFPADD + 6 SFPNOP), SFPTRANSP,
# 12 replayed, SFPADD, SFPNOP, SFPSTORE = 37 issue slots; four passes.
COL_SUM_CYCLES = 4 * 37
# The mean adds two SFPLOADI, SFPMUL and the NOP after it to each pass.
COL_AVG_CYCLES = 4 * 41

KERNELS = [
    Kernel("reduce_col_sum", "reduce_col_sum.s",
           "_calculate_reduce_<SUM, REDUCE_COL, Float32> (float path, FP32 load mode)",
           reduce_inputs, top_row, col_sum_fp32, EXACT_ORDER,
           cycles_per_row=COL_SUM_CYCLES / 32,
           notes="Column sums of an FP32 tile into tile row 0. The reference adds in FP32 in the "
                 "order the instruction sequence fixes (SFPTRANSP puts four Dst rows side by side "
                 "in one register's lane rows, the recorded SFPADD chain folds them, a second "
                 "transpose and the same chain fold the four partial sums, and a last SFPADD joins "
                 "the upper and lower halves); with normal inputs each WH SFPADD (x*1.0 + y, one "
                 "round-to-nearest-even) is an IEEE FP32 add, so the result is bit-exact.",
           llk_source=LlkSource("ckernel_sfpu_reduce.h",
                                "calculate_reduce<PoolType::SUM, ReduceDim::REDUCE_COL, "
                                "DataFormat::Float32, true>(1, 1)",
                                "init_reduce<PoolType::SUM, DataFormat::Float32, true>(1)", vector_mode="none",
                                reference=col_sum_fp32_rows_first, regenerated=COL_SUM_REGEN), arch=Arch.WORMHOLE),
    Kernel("reduce_col_avg", "reduce_col_avg.s",
           "_calculate_reduce_<AVG, REDUCE_COL, Float32> (float path, FP32 load mode)",
           reduce_inputs, top_row, lambda x: col_sum_fp32(x) * F32(1 / 32), EXACT_ORDER,
           cycles_per_row=COL_AVG_CYCLES / 32,
           notes="Column means: the column sum's schedule, then SFPMUL by 1/32 (built with two "
                 "SFPLOADIs each pass) before the store. Scaling by 2^-5 is exact for these "
                 "inputs, so the reference is the ordered FP32 sum times 1/32, bit-exact. tt-llk's "
                 "Tensix NOP after the SFPMUL is written as SFPNOP (the same one idle slot).",
           llk_source=LlkSource("ckernel_sfpu_reduce.h",
                                "calculate_reduce<PoolType::AVG, ReduceDim::REDUCE_COL, "
                                "DataFormat::Float32, true>(1, 1)",
                                "init_reduce<PoolType::AVG, DataFormat::Float32, true>(1)", vector_mode="none",
                                reference=lambda x: col_sum_fp32_rows_first(x) * F32(1 / 32),
                                regenerated=COL_AVG_REGEN), arch=Arch.WORMHOLE),
]


def cumsum_inputs(state, rng) -> np.ndarray:
    """Normal FP32 values of mixed sign and magnitude (2^-10 .. 2^10), with a
    few large values that the running totals must then carry and cancel, and
    one column that meets +Inf. No denormals, -0 or NaN (see reduce_inputs)."""
    mag = np.exp2(rng.uniform(-10, 10, (32, 32)))
    x = (mag * rng.choice([-1.0, 1.0], (32, 32))).astype(F32)
    x[5, ::4] = F32(2.5e6)
    x[21, ::4] = F32(-2.5e6)
    x[13, 6] = F32(np.inf)
    put_tile(state, x)
    return x


def cumsum_fp32(x: np.ndarray) -> np.ndarray:
    """Running column sums in FP32, one add per row from the top, starting
    from 0 (the kernel's chain of dependent SFPADDs)."""
    x = np.asarray(x, dtype=F32)
    out = np.empty_like(x)
    acc = np.zeros(32, dtype=F32)
    for r in range(32):
        acc = acc + x[r]
        out[r] = acc
    return out


# 4 SFPMOV clearing the running totals, then 8 blocks of 4 SFPLOAD, SFPTRANSP,
# 8 replayed (4 SFPADD + 4 SFPNOP), SFPTRANSP and 4 SFPSTORE = 18 slots.
CUMSUM_CYCLES = 4 + 8 * 18

KERNELS.append(
    Kernel("cumsum", "cumsum.s", "_calculate_cumsum_<APPROX, ITERATIONS>(first = true)",
           cumsum_inputs, get_tile, cumsum_fp32, EXACT_ORDER,
           cycles_per_row=CUMSUM_CYCLES / 32,
           notes="Cumulative sum down each column of an FP32 tile, four tile rows per block: "
                 "SFPTRANSP puts one tile row in each register, a recorded chain of dependent "
                 "SFPADDs carries the running total from row to row (and from the previous block, "
                 "held in the other register group), a second SFPTRANSP restores Dst order. The "
                 "order of the adds is fixed by that chain (out[r] = out[r-1] + x[r], from 0), so "
                 "the reference is the same sequence of FP32 adds and the result is bit-exact.", arch=Arch.WORMHOLE))


def max_inputs(state, rng) -> np.ndarray:
    """FP32 values over the whole range, +-Inf and denormals included (SFPSWAP
    orders the bit patterns, it does not flush), distinct so that the maximum
    is one bit pattern; no NaN and no -0 (SFPSWAP ranks -0 below +0, where
    numpy's max may return either)."""
    bits = rng.integers(0x00000001, 0x7F800000, (32, 32), dtype=np.uint32)
    bits |= rng.choice(np.array([0, 0x80000000], dtype=np.uint32), (32, 32))
    x = bits.view(F32).copy()
    x[:, 0] = -np.exp2(rng.uniform(-5, 5, 32)).astype(F32)     # an all-negative column
    x[31, 5] = F32(np.inf)                                    # maximum in the last row
    x[:, 12] = F32(-np.inf)
    x[17, 12] = F32(-3.0)                                     # a lone finite value among -Inf
    x[:, 20] = np.arange(32, dtype=F32)                       # increasing down the column
    x[:, 21] = np.arange(32, 0, -1).astype(F32)               # decreasing
    put_tile(state, x)
    return x


# 4 SFPLOADs; 7 steps of 9 slots (INCRWC, SFPLOADMACRO, 2 SFPLOAD, 2 SFPSWAP
# each followed by a stall cycle, SFPLOADMACRO; the macros' SWAPs overlap the
# next slots) plus the 3 dummy SFPLOADs of the 8- and 9-entry replays; SETRWC;
# SFPTRANSP; 3 SFPSWAPs, each followed by a stall cycle (6; the last one delays
# the SFPTRANSP); SFPTRANSP; 4 SFPSTOREs.
COL_MAX_CYCLES = 4 + 7 * 9 + 3 + 1 + 1 + 6 + 1 + 4

KERNELS.append(
    Kernel("reduce_col_max", "reduce_col_max.s",
           "_calculate_reduce_<MAX, REDUCE_COL, Float32>(1, 1) (SFPLOADMACRO + SFPSWAP)",
           max_inputs, top_row, lambda x: np.max(x, axis=0), Accuracy(True),
           cycles_per_row=COL_MAX_CYCLES / 32,
           notes="Column maxima of an FP32 tile into tile row 0. Four running maxima registers "
                 "(one per quarter of the columns, each lane row a residue of the row number mod 4) "
                 "take in four rows of all 32 columns per replayed step: two SFPLOADMACROs whose "
                 "macros run an SFPSWAP on the loaded register, two SFPLOADs and two thread SFPSWAPs. "
                 "An SFPTRANSP and three SFPSWAPs then combine the four residues. SFPSWAP compares "
                 "bit patterns as sign-magnitude, so the result is exactly numpy's maximum.",
           llk_source=LlkSource("ckernel_sfpu_reduce.h",
                                "calculate_reduce<PoolType::MAX, ReduceDim::REDUCE_COL, "
                                "DataFormat::Float32, true>(1, 1)",
                                "init_reduce<PoolType::MAX, DataFormat::Float32, true>(1)", vector_mode="none",
                                allow=("swap-mad-nop", "write-conflict"),
                                regenerated="body words equal; Dst bit-identical (with the write-conflict of "
                                            "ckernel_sfpu_reduce.h:1243 allowed, as this listing does)"),
                                            arch=Arch.WORMHOLE))


def row_sum_fp32(x: np.ndarray) -> np.ndarray:
    """Row sums in the kernel's FP32 order (see kernels/reduce_row_sum.s): four
    columns per lane column by the recorded chain, then the eight lane columns
    folded by halves (shift by 4, 2, 1 and add)."""
    x = np.asarray(x, dtype=F32)
    s = [_tree4(x[:, 2 * c], x[:, 2 * c + 1], x[:, 16 + 2 * c], x[:, 17 + 2 * c]) for c in range(8)]
    t = {c: s[c] + s[c - 4] for c in range(4, 8)}
    u = {c: t[c] + t[c - 2] for c in (6, 7)}
    return u[7] + u[6]


def first_column(state) -> np.ndarray:
    return get_tile(state)[:, 0]


# Per step of 8 rows: 8 SFPLOAD, 12 replayed, horizontal fold (3 phases of
# 2 SFPMOV + 8/4/2 SFPSHFT2 + 2 SFPADD, then 2 SFPSHFT2 = 28), 2 SFPSTORE.
ROW_SUM_CYCLES = 4 * (8 + 12 + 28 + 2)

KERNELS.append(
    Kernel("reduce_row_sum", "reduce_row_sum.s",
           "_calculate_reduce_<SUM, REDUCE_ROW, Float32>(1, 1) (float path, FP32 load mode)",
           reduce_inputs, first_column, row_sum_fp32, EXACT_ORDER,
           cycles_per_row=ROW_SUM_CYCLES / 32,
           notes="Row sums of an FP32 tile into tile column 0. The recorded SFPADD chain sums four "
                 "columns per lane, then SFPSHFT2 right shifts by 4, 2 and 1 lane columns with an "
                 "SFPADD after each fold the eight lanes of a row into one, and a rotate moves it to "
                 "lane column 0. The reference adds in FP32 in that order (derived from the "
                 "instruction sequence), so the result is bit-exact for normal inputs.",
           llk_source=LlkSource("ckernel_sfpu_reduce.h",
                                "calculate_reduce<PoolType::SUM, ReduceDim::REDUCE_ROW, "
                                "DataFormat::Float32, true>(1, 1)",
                                "init_reduce<PoolType::SUM, DataFormat::Float32, true>(1)", vector_mode="none",
                                regenerated="the 0.81.1 header differs from the source this listing follows; bit-"
                                            "exact against numpy, Dst elsewhere differs"), arch=Arch.WORMHOLE))


# Per step of 8 rows: 8 SFPLOAD; 6 SFPSWAP, each with a stall cycle (12);
# phase 1: 2 SFPMOV, 8 SFPSHFT2, 2 SFPSWAP with stalls (14); phases 2-4 from
# the buffer: 4 SFPMOV, 8 SFPSHFT2, 4 SFPSWAP with stalls (20); 2 SFPSTORE.
ROW_MAX_CYCLES = 4 * (8 + 12 + 14 + 20 + 2)

KERNELS.append(
    Kernel("reduce_row_max", "reduce_row_max.s",
           "_calculate_reduce_<MAX, REDUCE_ROW, Float32>(1, 1) (FP32 load mode)",
           max_inputs, first_column, lambda x: np.max(x, axis=1), Accuracy(True),
           cycles_per_row=ROW_MAX_CYCLES / 32,
           notes="Row maxima of an FP32 tile into tile column 0: six SFPSWAPs reduce the four "
                 "column sets of each row to one register, then SFPSHFT2 right shifts by 4, 2 and "
                 "1 lane columns, each followed by an SFPSWAP, fold the eight lanes, and a rotate "
                 "moves the result to lane column 0 (phases 2-4 replayed). Every thread SFPSWAP is "
                 "followed by a non-NOP instruction and so costs a stall cycle. SFPSWAP compares "
                 "bit patterns as sign-magnitude, so the result is exactly numpy's maximum.",
           llk_source=LlkSource("ckernel_sfpu_reduce.h",
                                "calculate_reduce<PoolType::MAX, ReduceDim::REDUCE_ROW, "
                                "DataFormat::Float32, true>(1, 1)",
                                "init_reduce<PoolType::MAX, DataFormat::Float32, true>(1)", vector_mode="none",
                                regenerated="the 0.81.1 header differs from the source this listing follows; bit-"
                                            "exact against numpy, Dst elsewhere differs"), arch=Arch.WORMHOLE))
