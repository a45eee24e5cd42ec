"""Top-k building blocks: tt-llk's Wormhole bitonic sort steps on values with their indices."""

from __future__ import annotations

import numpy as np

from tensix_sfpu.model.dst_io import get_bits32, put_bits32

from . import Kernel, Accuracy
from tensix_sfpu.model.isa import Arch

ROWS, COLS = 64, 32            # two tiles, one above the other; every column is one sequence
INDEX_BASE = 128               # the indices sit two tiles (128 address units) after the values


def _layout() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each SFPLOAD address of the two value tiles, the (row, column) of
    the 64 x 32 matrix each of its 32 lanes holds. A tile is four 16 x 16
    faces (top left, top right, bottom left, bottom right) of 16 Dst rows each;
    an address reads four Dst rows, even or odd columns."""
    addresses = np.arange(0, 128, 2)
    lane = np.arange(32)
    dst_row = (addresses[:, None] & ~3) + lane[None, :] // 8           # 0-127
    face_col = (lane[None, :] & 7) * 2 + ((addresses[:, None] >> 1) & 1)
    tile, in_tile = dst_row // 64, dst_row % 64
    face = in_tile // 16
    row = tile * 32 + (face // 2) * 16 + in_tile % 16
    col = (face % 2) * 16 + face_col
    return addresses, row, col


ADDRESSES, ROW_OF, COL_OF = _layout()


def put_matrix(state, matrix: np.ndarray, base: int) -> None:
    for a, rows, cols in zip(ADDRESSES, ROW_OF, COL_OF):
        put_bits32(state, base + a, matrix[rows, cols])


def get_matrix(state, base: int) -> np.ndarray:
    out = np.zeros((ROWS, COLS), dtype=np.uint32)
    for a, rows, cols in zip(ADDRESSES, ROW_OF, COL_OF):
        out[rows, cols] = get_bits32(state, base + a)
    return out


def sort_inputs(state, rng) -> np.ndarray:
    """64 x 32 FP32 values, each beside its row number as index. Most columns
    are random over a wide range; some draw from eight values only (many
    ties, where only the pairing with indices can be checked); some hold
    +-Inf, +-0 and denormals. No NaNs: the order the kernel gives them is the
    swap's sign-magnitude order, which numpy has no counterpart for."""
    f32 = np.float32
    x = (rng.standard_normal((ROWS, COLS)) * np.exp(rng.uniform(-20, 20, (ROWS, COLS)))).astype(f32)
    x[:, 4:8] = rng.choice(np.array([-2, -1, -0.5, 0, 0.5, 1, 2, 3], dtype=f32), (ROWS, 4))
    specials = np.array([np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 1e-40, np.finfo(f32).max,
                         -np.finfo(f32).max, np.finfo(f32).tiny], dtype=f32)
    x[:, 8:10] = np.where(rng.random((ROWS, 2)) < 0.5, rng.choice(specials, (ROWS, 2)), x[:, 8:10])
    x[:, 10] = np.arange(ROWS, dtype=f32)             # already ascending
    x[:, 11] = np.arange(ROWS, dtype=f32)[::-1]       # already descending
    x[:, 12] = f32(7.0)                               # all equal
    put_matrix(state, x.view(np.uint32), 0)
    put_matrix(state, np.repeat(np.arange(ROWS, dtype=np.uint32)[:, None], COLS, axis=1), INDEX_BASE)
    return x


def values_and_indices(state) -> np.ndarray:
    """[value bits, index] for every place of the 64 x 32 matrix."""
    return np.stack([get_matrix(state, 0), get_matrix(state, INDEX_BASE)])


def local_sort_reference(run_length: int):
    """numpy: every run of `run_length` rows of every column sorted, even runs
    descending, odd ones ascending; [value bits, original row] (a stable
    argsort; among equal values any order of indices is right)."""
    def reference(x: np.ndarray) -> np.ndarray:
        values = np.zeros((ROWS, COLS), dtype=np.uint32)
        index = np.zeros((ROWS, COLS), dtype=np.uint32)
        for run in range(ROWS // run_length):
            rows = slice(run * run_length, (run + 1) * run_length)
            block = x[rows].astype(np.float64)
            order = np.argsort(-block if run % 2 == 0 else block, axis=0, kind="stable")
            index[rows] = order + run * run_length
            values[rows] = np.take_along_axis(x[rows], order, axis=0).view(np.uint32)
        return np.stack([values, index])
    return reference


def check_runs(run_length: int):
    """The order the step guarantees (every run sorted in its direction, the
    same values as numpy's, equal values in any order), each run's indices a
    permutation of its rows, and each value beside its own index."""
    def compare(got: np.ndarray, want: np.ndarray) -> tuple[bool, str]:
        got_v, got_i = got[0].view(np.float32), got[1]
        want_v, want_i = want[0].view(np.float32), want[1]
        x = np.zeros((ROWS, COLS), dtype=np.uint32)     # the inputs again, from numpy's permutation
        np.put_along_axis(x, want_i.astype(np.int64), want[0], axis=0)
        problems = []
        for run in range(ROWS // run_length):
            lo = run * run_length
            rows = slice(lo, lo + run_length)
            v, w = got_v[rows].astype(np.float64), want_v[rows].astype(np.float64)
            wrong = (v[1:] > v[:-1]) if run % 2 == 0 else (v[1:] < v[:-1])
            if wrong.any():
                r, c = np.argwhere(wrong)[0]
                problems.append(f"run {run} column {c} out of order at row {lo + r}")
            if not np.array_equal(v, w):
                r, c = np.argwhere(v != w)[0]
                problems.append(f"run {run} column {c} row {lo + r}: {v[r, c]!r}, numpy {w[r, c]!r}")
            idx = got_i[rows]
            own_rows = np.repeat(np.arange(lo, lo + run_length, dtype=np.uint32)[:, None], COLS, axis=1)
            if not np.array_equal(np.sort(idx, axis=0), own_rows):
                problems.append(f"run {run}: indices are not a permutation of rows {lo}-{lo + run_length - 1}")
                continue
            paired = np.take_along_axis(x, idx.astype(np.int64), axis=0)
            if not np.array_equal(paired, got[0][rows]):
                r, c = np.argwhere(paired != got[0][rows])[0]
                problems.append(f"run {run} column {c} row {lo + r}: value {got_v[rows][r, c]!r} "
                                f"beside index {idx[r, c]}, whose value is {paired[r, c]:#010x}")
        if problems:
            return False, f"{len(problems)} problems; first: {problems[0]}"
        return True, "every run sorted, values as numpy's, each beside its own index"
    return compare


KERNELS = [
    Kernel("topk_local_sort", "topk_local_sort.s",
           "_bitonic_topk_phases_steps<APPROX, fp32 Dst, STABLE_SORT=false>(ArgMax, end phase 3, "
           "start phase 0): top-k's local sort for k = 16, with _init_topk",
           sort_inputs, values_and_indices, local_sort_reference(16), Accuracy(True),
           rows=ROWS,
           # Per walk (a quarter of the columns, four groups of 16 rows x 8 columns) and
           # phase: a SETRWC, then per group 8 loads and 8 stores (16 cycles) and the
           # network, every SFPSWAP taking two cycles (interlock), every other instruction
           # one. Phase 0: 2 transposes + 2 swaps = 6; phase 1: 2 + 4 swaps = 10; phase 2:
           # 2 + 7 swaps = 16; phase 3: twice (4 swaps + transpose) = 18, plus 6 for the
           # two SFPCONFIGs and four SFPNOPs in each ascending group. Per walk
           # 4 + 4 * (22 + 26 + 32) + 2 * 34 + 2 * 40 = 472; four walks, 64 row groups.
           cycles_per_row=4 * 472 / 64,
           compare=check_runs(16),
           notes="Sorts each column of 64 FP32 values (two tiles, one above the other) in runs of "
                 "16, alternately descending and ascending, carrying a 32-bit index tile two tiles "
                 "on. Checked for the order the step guarantees, the same values as numpy's sort "
                 "and each value beside its own index; ties may come in any index order. "
                 "Cycles per row count the 64 value row groups.", arch=Arch.WORMHOLE),
    Kernel("topk_local_sort_k32", "topk_local_sort_k32.s",
           "_bitonic_topk_phases_steps<APPROX, fp32 Dst, STABLE_SORT=false>(ArgMax, end phase 4, "
           "start phase 0): top-k's local sort for k = 32, with _init_topk",
           sort_inputs, values_and_indices, local_sort_reference(32), Accuracy(True),
           rows=ROWS,
           # Phases 0-3 as in topk_local_sort (472 cycles per walk). Phase 4: its SETRWC
           # and step 5's own (2); step 5, four groups of 8 loads, 2 swaps (4 cycles) and
           # 8 stores (80), with 1 + 8 INCRWCs per pair of faces (18); steps 4 to 1: a
           # SETRWC and four groups of 34 as in phase 3, the two ascending ones 6 more
           # (149). Per walk 472 + 249 = 721; four walks, 64 row groups.
           cycles_per_row=4 * 721 / 64,
           compare=check_runs(32),
           notes="As topk_local_sort, one phase further: runs of 32, the top half of each "
                 "column descending and the bottom half ascending, through the source's general "
                 "branch (step 5 on pairs of faces, INCRWC with Dst_Cr to walk them).", arch=Arch.WORMHOLE),
]
