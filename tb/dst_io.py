"""Placing values in Dst where SFPLOAD reads them, and reading back what
SFPSTORE wrote: the role the matrix unit and the packer play on the chip."""

from __future__ import annotations

import numpy as np

from model import dst_format as dfmt
from model.state import SfpuState

LANE = np.arange(32)


def fp32_positions(address: int) -> tuple[np.ndarray, np.ndarray]:
    """Dst32b row and column of each lane for an SFPLOAD/SFPSTORE address."""
    return (address & ~3) + LANE // 8, (LANE & 7) * 2 + ((address >> 1) & 1)


def put_bits32(state: SfpuState, address: int, bits) -> None:
    """32 lane values (uint32 bit patterns) where a 32-bit SFPLOAD of `address`
    (FP32 or INT32, Fp32 Dst mode) reads them."""
    rows, cols = fp32_positions(address)
    hi, lo = dfmt.split_dst32(dfmt.shuffle_fp32(np.asarray(bits, dtype=np.uint32)))
    a, b = dfmt.dst32_rows(rows)
    state.dst[a, cols] = hi
    state.dst[b, cols] = lo


def put_fp32(state: SfpuState, address: int, values) -> None:
    put_bits32(state, address, np.asarray(values, dtype=np.float32).view(np.uint32))


def get_bits32(state: SfpuState, address: int) -> np.ndarray:
    """The 32 bit patterns a 32-bit SFPSTORE to `address` wrote."""
    rows, cols = fp32_positions(address)
    a, b = dfmt.dst32_rows(rows)
    return dfmt.unshuffle_fp32(dfmt.join_dst32(state.dst[a, cols], state.dst[b, cols])).astype(np.uint32)
