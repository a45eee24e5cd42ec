"""Integer arithmetic on two tiles: tt-llk's add_int (int32, wrapping)."""

from __future__ import annotations

import numpy as np

from tb.dst_io import get_tile_bits32, put_tile_bits32

from . import Accuracy, Kernel

TILE = 64          # Dst address units per 32 x 32 tile
I32 = np.iinfo(np.int32)


def int32_pair(state, rng) -> np.ndarray:
    """Two int32 tiles, a at tile 0 and b at tile 1: random words over the whole
    range (so about half the sums overflow), plus the edge cases of wrapping."""
    a = rng.integers(I32.min, I32.max, 1024, endpoint=True, dtype=np.int64)
    b = rng.integers(I32.min, I32.max, 1024, endpoint=True, dtype=np.int64)
    edges = [(I32.max, 1), (I32.min, -1), (I32.max, I32.max), (I32.min, I32.min), (-1, 1), (0, 0),
             (I32.min, I32.max), (-1, -1), (0x7FFF, 1), (0xFFFF, 1), (-0x8000, -1), (12345, -12345)]
    for i, (x, y) in enumerate(edges):
        a[i], b[i] = x, y
    small = slice(64, 192)                          # small magnitudes, the common case
    a[small] = rng.integers(-1000, 1000, 128)
    b[small] = rng.integers(-1000, 1000, 128)
    pair = np.stack([a, b]).astype(np.int32)
    put_tile_bits32(state, pair[0].view(np.uint32), base=0)
    put_tile_bits32(state, pair[1].view(np.uint32), base=TILE)
    return pair


def int32_tile0(state) -> np.ndarray:
    return get_tile_bits32(state, base=0).view(np.int32)


def wrapping_add(pair: np.ndarray) -> np.ndarray:
    total = pair[0].astype(np.int64) + pair[1].astype(np.int64)
    return ((total + 2**31) % 2**32 - 2**31).astype(np.int32)


KERNELS = [
    Kernel("add_int32", "add_int.s",
           "_add_int_<APPROX, 8, InstrModLoadStore::INT32, SIGN_MAGNITUDE_FORMAT=false>, "
           "in0 = tile 0, in1 = tile 1, out = tile 0",
           int32_pair, int32_tile0, wrapping_add, Accuracy(True),
           # Per face eight row groups of five issue slots (two loads, SFPIADD, store,
           # INCRWC) and the two SETRWCs: (4 * (8 * 5 + 2)) / 32. The last store lands
           # in its own cycle, before the two trailing SETRWCs.
           cycles_per_row=4 * (8 * 5 + 2) / 32,
           notes="Two's complement int32 in FP32 Dst mode, loaded and stored as INT32; "
                 "SFPIADD with CC_NONE adds L1 into L0 without touching the lane flags, "
                 "so the sum wraps modulo 2^32 as numpy's int32 does. Inputs at tiles 0 and 1, "
                 "the sum written over tile 0."),
]
