"""Placing values in Dst where SFPLOAD reads them, and reading back what
SFPSTORE wrote: the role the matrix unit and the packer play on the chip."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import dst_format as dfmt
from .state import DST_COLS, DST_ROWS, SfpuState

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


def get_tile_hi16(state: SfpuState, base: int = 0, row_groups: int = 32) -> np.ndarray:
    """The 16-bit values an SFPSTORE in LO16 mode (9) left at the tile's row groups: it writes
    the LReg rotated by 16 as the raw Dst32b datum (no FP32 shuffle), so the LReg's low half
    is the datum's high half, DstBits row A."""
    out = []
    for address in tile_addresses(base, row_groups):
        rows, cols = fp32_positions(address)
        out.append(state.dst[dfmt.dst32_rows(rows)[0], cols])
    return np.concatenate(out).astype(np.uint16)


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


# ---------------------------------------------------------------------------
# Typed arrays in and out of Dst (`sfpu run --input/--output --format`)

class DstFileError(ValueError):
    """A .npy file that cannot be read as what it should hold; the message names the file."""


def load_npy(path: str, what: str) -> np.ndarray:
    """One array from a .npy file (numpy.save), `what` naming it in errors."""
    try:
        if Path(path).is_dir():
            raise DstFileError(f"{path}: is a directory, not {what}")
        array = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise DstFileError(f"{path}: no such file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:      # a corrupt or truncated file
        if isinstance(e, DstFileError):
            raise
        raise DstFileError(f"{path}: cannot read as .npy: {e}") from None
    if not isinstance(array, np.ndarray):
        array.close()
        raise DstFileError(f"{path}: a .npz archive; {what} is one array in a .npy file (numpy.save)")
    return array


def load_dst(path: str) -> np.ndarray:
    """A whole Dst from a .npy file: raw uint16 rows, DST_ROWS x DST_COLS."""
    dst = load_npy(path, "Dst")
    if dst.shape != (DST_ROWS, DST_COLS):
        raise DstFileError(f"{path}: Dst must have shape ({DST_ROWS}, {DST_COLS}), got {dst.shape}")
    if dst.dtype != np.uint16:
        raise DstFileError(f"{path}: Dst must be raw uint16 bits, got dtype {dst.dtype}")
    return dst


@dataclass(frozen=True)
class Format:
    """Values of one SFPLOAD/SFPSTORE format as a numpy dtype: `to_bits`
    gives the Dst bits that SFPLOAD with that Mod0 reads back as the value,
    `from_bits` the value SFPSTORE with that Mod0 left in those bits."""
    name: str
    dtype: type
    width: int                    # 32: Dst32b (Fp32 Dst mode), 16: Dst16b
    mod0: str
    to_bits: Callable[[np.ndarray], np.ndarray]
    from_bits: Callable[[np.ndarray], np.ndarray]
    note: str


def _bf16_round(values: np.ndarray) -> np.ndarray:
    """FP32 to the BF16 bit pattern, rounding to nearest even (NaNs stay NaN)."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint32)
    return np.where(np.isnan(values), (bits >> 16).astype(np.uint32) | 0x40, rounded).astype(np.uint16)


FORMATS = {f.name: f for f in (
    Format("fp32", np.float32, 32, "FP32", lambda v: v.astype(np.float32).view(np.uint32),
           lambda b: b.astype(np.uint32).view(np.float32), "float32, bit for bit"),
    Format("int32", np.int32, 32, "INT32", lambda v: v.astype(np.int32).view(np.uint32),
           lambda b: b.astype(np.uint32).view(np.int32), "two's complement"),
    Format("uint32", np.uint32, 32, "INT32", lambda v: v.astype(np.uint32),
           lambda b: b.astype(np.uint32), "any 32 bits (LReg bit patterns)"),
    Format("fp16b", np.float32, 16, "BF16", lambda v: dfmt.shuffle_bf16(_bf16_round(v)).astype(np.uint16),
           lambda b: (dfmt.unshuffle_bf16(b).astype(np.uint32) << 16).view(np.float32),
           "bfloat16, given and returned as float32 (rounded to nearest even on the way in)"),
    Format("fp16", np.float16, 16, "FP16", lambda v: dfmt.shuffle_fp16(v.astype(np.float16).view(np.uint16))
           .astype(np.uint16), lambda b: dfmt.unshuffle_fp16(b).astype(np.uint16).view(np.float16),
           "IEEE half precision (float16)"),
    Format("uint16", np.uint16, 16, "UINT16", lambda v: v.astype(np.uint16), lambda b: b.astype(np.uint16),
           "16-bit integers, zero-extended by SFPLOAD"),
)}
ROW_GROUPS = {32: 256, 16: 512}    # 32-lane row groups Dst holds: 512 Dst32b rows, 1024 Dst16b rows


def capacity(fmt: Format) -> int:
    """How many values of `fmt` Dst holds."""
    return ROW_GROUPS[fmt.width] * 32


def fit_problem(count: int, fmt: Format) -> str | None:
    """Why `count` values of `fmt` cannot be placed in Dst by `put_array`, or None."""
    if count == 0 or count % 32:
        return (f"{count} values; the input fills 32-lane row groups, so its size must be a positive multiple "
                "of 32 (a 32 x 32 tile is 1024)")
    if count > capacity(fmt):
        return f"{count} values; Dst holds {capacity(fmt)} in {fmt.width}-bit format {fmt.name}"
    return None


def put_array(state: SfpuState, fmt: Format, values: np.ndarray) -> None:
    """Value k (of the flattened array) where SFPLOAD with `fmt`'s Mod0 reads
    it as lane k % 32 of address 2 * (k // 32): row group after row group, in
    the order of `tile_addresses`, 1024 values per 32 x 32 tile."""
    bits = fmt.to_bits(np.asarray(values).reshape(-1))
    (put_tile_bits32 if fmt.width == 32 else put_tile_bits16)(state, bits)


def get_array(state: SfpuState, fmt: Format, shape: tuple[int, ...]) -> np.ndarray:
    """The values SFPSTORE with `fmt`'s Mod0 left where `put_array` put theirs."""
    groups = int(np.prod(shape)) // 32
    bits = (get_tile_bits32 if fmt.width == 32 else get_tile_bits16)(state, 0, groups)
    return fmt.from_bits(bits).reshape(shape)
