"""Integer arithmetic on two tiles: tt-llk's Wormhole add_int (int32, wrapping) and
mul_int (uint16, the low 16 bits of the product)."""

from __future__ import annotations

import numpy as np

from tensix_sfpu.model.dst_io import TILE_ADDRESSES, get_tile_bits16, get_tile_bits32, put_tile_bits16, put_tile_bits32

from . import Accuracy, Kernel, LlkSource
from tensix_sfpu.model.isa import Arch

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
    put_tile_bits32(state, pair[1].view(np.uint32), base=TILE_ADDRESSES)
    return pair


def int32_tile0(state) -> np.ndarray:
    return get_tile_bits32(state, base=0).view(np.int32)


def wrapping_add(pair: np.ndarray) -> np.ndarray:
    total = pair[0].astype(np.int64) + pair[1].astype(np.int64)
    return ((total + 2**31) % 2**32 - 2**31).astype(np.int32)


def uint16_pair(state, rng) -> np.ndarray:
    """Two uint16 tiles, a at tile 0 and b at tile 1: random over the whole
    range, small values, and the byte-boundary cases of the split."""
    pair = rng.integers(0, 0x10000, (2, 1024), dtype=np.int64)
    pair[:, 64:128] = rng.integers(0, 256, (2, 64))
    edges = [(0xFFFF, 0xFFFF), (0xFFFF, 1), (0, 0xFFFF), (0x100, 0x100), (0xFF, 0xFF), (0x1FF, 0x1FF),
             (0x8000, 2), (0xFF00, 0x00FF), (0x00FF, 0xFF00), (0xFF00, 0xFF00), (1, 1), (0, 0)]
    for i, (x, y) in enumerate(edges):
        pair[:, i] = x, y
    pair = pair.astype(np.uint16)
    put_tile_bits16(state, pair[0])
    put_tile_bits16(state, pair[1], base=TILE_ADDRESSES)
    return pair


def wrapping_mul16(pair: np.ndarray) -> np.ndarray:
    return ((pair[0].astype(np.uint64) * pair[1].astype(np.uint64)) % 0x10000).astype(np.uint16)


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
                 "the sum written over tile 0.", arch=Arch.WORMHOLE),
    Kernel("mul_uint16_nomacro", "mul_int_nomacro.s",
           "_mul_int_<APPROX, 8> with DISABLE_SFPLOADMACRO, in0 = tile 0, in1 = tile 1, out = tile 0",
           uint16_pair, get_tile_bits16, wrapping_mul16, Accuracy(True),
           # Twenty one-cycle instructions per row group, two SETRWCs per face.
           cycles_per_row=4 * (8 * 20 + 2) / 32,
           notes="The plain sequence: bytes multiplied in FP32, rounded back to integers with "
                 "SFP_STOCH_RND, combined with SFPIADD and SFPSHFT; exact.",
           llk_source=LlkSource("ckernel_sfpu_mul_int.h", "_mul_int_<false, 8>(0, 1, 0)", "_init_mul_int_<false>()",
                                ("DISABLE_SFPLOADMACRO",), fp32_dest=0, setup=(".addr_mod 6 dst_incr=2",),
                                regenerated="body words equal; Dst bit-identical (the binary SFPU caller's ADDR_MOD_6"
                                            " given as set-up)"), arch=Arch.WORMHOLE),
]

# The macro kernel: its store survives a later byte that selects nothing (docs/timing.md).
MUL_UINT16_MACRO = Kernel("mul_uint16", "mul_int.s",
       "_mul_int_<APPROX, 8> (SFPLOADMACRO) with _init_mul_int_, "
       "in0 = tile 0, in1 = tile 1, out = tile 0",
       uint16_pair, get_tile_bits16, wrapping_mul16, Accuracy(True),
       # Per face eight row groups of twelve instructions, three SFPNOPs and two
       # SETRWCs: 4 * (8 * 12 + 3 + 2) / 32. The last row group's store waits for
       # seven more thread instructions (the three SFPNOPs and the SETRWCs count).
       cycles_per_row=4 * (8 * 12 + 3 + 2) / 32,
       claimed_cycles_per_row=12.0, claim="ckernel_sfpu_mul_int.h, comment and table above the SFPLOADMACRO loop",
       summary="the claim counts the twelve-instruction loop; each face adds 3 SFPNOPs and 2 SETRWCs: "
               "5 cycles per 8 row groups",
       timing_note="The claim counts the twelve-instruction loop; each face adds the three SFPNOPs the "
                   "source issues after its loop (to let the last macro finish) and the params "
                   "wrapper's two SETRWCs: 5/8 cycle per row.",
       twin="mul_uint16_nomacro",
       notes="uint16 in 16-bit Dst mode. The bytes of a and b are multiplied in FP32 with 2^23 "
             "added through the FMA, so each sum of partial products (below 2^18) lands in the "
             "mantissa and SFPEXMAN reads it out as an integer: exact. The result is "
             "lo + (hi << 8) mod 2^16, numpy's uint16 product.",
       source_schedule=(
           "| t | Load | Simple | MAD | Round | Store |\n"
           "|---|---|---|---|---|---|\n"
           "| 0 | [b1] | | | | |\n"
           "| 1 | [a0] | | | [b1] >>= 8 | |\n"
           "| 2 | [b0] | [b1] = cast(b1) | | | |\n"
           "| 3 | | a0 &= 0xff | | | |\n"
           "| 4 | | b0 &= 0xff | | | |\n"
           "| 5 | [a1] | [a0] = cast(a0) | | | |\n"
           "| 6 | [out] | [b0] = cast(b0) | | | |\n"
           "| 7 | | | b1 = a0*b1 + 2^23 | [a1] >>= 8 | |\n"
           "| 8 | | [a1] = cast(a1) | a0 = a0*b0 + 2^23 | | |\n"
           "| 9 | | | b1 = a1*b0 + b1 | | |\n"
           "| 10 | | tmp = exman(a0) | | | |\n"
           "| 11 | | out = exman(b1) | | | |\n"
           "| 0 (next) | ... | | | [out] <<= 8 | |\n"
           "| 1 (next) | ... | L16 = tmp + [out] | | | |\n"
           "| 2 (next) | ... | | | | store L16 |\n"),
       timeline=(0, 26),
                          llk_source=LlkSource("ckernel_sfpu_mul_int.h", "_mul_int_<false, 8>(0, 1, 0)",
                                               "_init_mul_int_<false>()", fp32_dest=0,
                                               setup=(".addr_mod 6 dst_incr=2",),
                                               regenerated="body words equal; Dst bit-identical (the binary SFPU "
                                                           "caller's ADDR_MOD_6 given as set-up)"), arch=Arch.WORMHOLE)

KERNELS.append(MUL_UINT16_MACRO)
