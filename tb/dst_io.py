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


TILE_ADDRESSES = 64      # SFPLOAD address units per 32 x 32 tile: 32 row groups, two apart


def tile_addresses(base: int = 0, row_groups: int = 32) -> list[int]:
    """SFPLOAD addresses of a tile's 32-lane row groups in the order tt-llk's
    kernels walk them: two per four Dst rows (even, then odd columns), four
    faces of 16 rows."""
    return [base + 2 * i for i in range(row_groups)]


def put_tile_bits32(state: SfpuState, bits, base: int = 0) -> None:
    """32 x len/32 values (uint32 bit patterns) at the tile's row groups, 32 per group."""
    bits = np.asarray(bits, dtype=np.uint32).reshape(-1, 32)
    for address, group in zip(tile_addresses(base, len(bits)), bits):
        put_bits32(state, address, group)


def get_tile_bits32(state: SfpuState, base: int = 0, row_groups: int = 32) -> np.ndarray:
    return np.concatenate([get_bits32(state, a) for a in tile_addresses(base, row_groups)])


def get_tile_fp32(state: SfpuState, base: int = 0) -> np.ndarray:
    return get_tile_bits32(state, base).view(np.float32)


def put_bits16(state: SfpuState, address: int, bits) -> None:
    """32 lane values (16 bits each) where a 16-bit SFPLOAD of `address` reads them."""
    rows, cols = fp32_positions(address)
    state.dst[rows, cols] = np.asarray(bits, dtype=np.uint16)


def get_bits16(state: SfpuState, address: int) -> np.ndarray:
    """The 32 values a 16-bit SFPSTORE to `address` wrote."""
    rows, cols = fp32_positions(address)
    return state.dst[rows, cols].astype(np.uint16)


def put_tile_bits16(state: SfpuState, bits, base: int = 0) -> None:
    bits = np.asarray(bits, dtype=np.uint16).reshape(-1, 32)
    for address, group in zip(tile_addresses(base, len(bits)), bits):
        put_bits16(state, address, group)


def get_tile_bits16(state: SfpuState, base: int = 0, row_groups: int = 32) -> np.ndarray:
    return np.concatenate([get_bits16(state, a) for a in tile_addresses(base, row_groups)])
