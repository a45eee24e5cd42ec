"""Table-driven twins of the Dst format conversions and the LUT coefficient
decoders, for the golden model's 32-lane instructions.

The reference functions (model.dst_format's `load_convert`/`store_convert`/
`dst32_rows`, model.lut's `sfplut_select`/`sfplutfp32_select`) are written for any shape
and check their inputs; on 32 lanes their dozens of numpy calls cost more
than the work. A conversion whose result depends on up to 19 bits of its input (or
is the high half's function with the low half kept) is one table lookup
instead: each table is the reference function applied to every value of
those bits, built on first use. Everything else is the reference function.

With SFPU_FAST=0 in the environment these names are the reference functions
themselves. tests/model/test_fast_tables.py checks both bit for bit:
exhaustively over the table's index, on random and special operands, and
through every opcode and modifier of both architectures.
"""

from __future__ import annotations

import functools
import os

import numpy as np

from . import dst_format as dfmt
from . import lut
from .isa import Arch, Mod0Fmt

ENABLED = os.environ.get("SFPU_FAST", "1") != "0"

U32 = np.uint32
_M = Mod0Fmt
_ALL16 = np.arange(1 << 16, dtype=U32)

# Loads whose result is a function of the 16-bit datum alone (FP16 also of
# ENABLE_FP16A_INF, a second table). LO16_ONLY/HI16_ONLY keep half of the old
# LReg, and INT32_SM's sign-magnitude conversion spans both halves.
_LOAD16 = frozenset({_M.FP16, _M.BF16, _M.INT8, _M.UINT16, _M.HI16, _M.INT16, _M.LO16, _M.INT8_COMP})
# Loads and stores of a Dst32b datum that convert the high half and keep the
# low half (UnshuffleFP32 / FP32Shuffle). Blackhole's FP32 store flushes
# denormals, which clears the low half too, so it is not one of them.
_SPLIT32_LOAD = frozenset({_M.FP32, _M.INT32, _M.INT32_ALL})
_SPLIT32_STORE = frozenset({_M.INT32, _M.INT32_ALL})
# BF16 stores depend only on the high half (ToBF16 truncates the low one),
# FP16 stores only on bits 31:13 (ToFP16 truncates the mantissa to 10 bits).
_STORE_HIGH16 = frozenset({_M.BF16})
_STORE_HIGH19 = frozenset({_M.FP16})


@functools.lru_cache(maxsize=None)
def _load_table(mod0: int, arch: Arch, inf: bool) -> np.ndarray:
    return dfmt.load_convert(mod0, _ALL16, None, inf, arch=arch)


@functools.lru_cache(maxsize=None)
def _high_table(mod0: int, arch: Arch, load: bool) -> np.ndarray:
    """The high half's conversion, the low half 0: a value's is `T[hi] | lo`
    (load), or the reference's for `hi << 16` (store)."""
    if load:
        return dfmt.load_convert(mod0, _ALL16 << U32(16), None, False, arch=arch)
    return dfmt.store_convert(mod0, _ALL16 << U32(16), arch=arch)


@functools.lru_cache(maxsize=None)
def _high19_table(mod0: int, arch: Arch) -> np.ndarray:
    return dfmt.store_convert(mod0, np.arange(1 << 19, dtype=U32) << U32(13), arch=arch)


# The two DstBits rows' first behind each Dst32b row.
_DST32_ROW = dfmt.dst32_rows(np.arange(1024))[0]


def dst32_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`dfmt.dst32_rows` of 10-bit row indices."""
    a = _DST32_ROW[rows]
    return a, a + 8


def load_convert(mod0: int, raw, old_lreg=None, enable_fp16a_inf=False, *, arch: Arch) -> np.ndarray:
    """`dfmt.load_convert` for a datum read from Dst (uint32 lanes whose
    values fit the datum's width)."""
    if not isinstance(raw, np.ndarray) or raw.dtype != U32:
        return dfmt.load_convert(mod0, raw, old_lreg, enable_fp16a_inf, arch=arch)
    if mod0 in _LOAD16:
        if mod0 == _M.FP16:
            inf = np.asarray(enable_fp16a_inf, dtype=bool)
            return np.where(inf, _load_table(mod0, arch, True)[raw], _load_table(mod0, arch, False)[raw])
        return _load_table(mod0, arch, False)[raw]
    if mod0 in _SPLIT32_LOAD:
        return _high_table(mod0, arch, True)[raw >> U32(16)] | (raw & U32(0xFFFF))
    return dfmt.load_convert(mod0, raw, old_lreg, enable_fp16a_inf, arch=arch)


def store_convert(mod0: int, lreg_value, *, arch: Arch) -> np.ndarray:
    """`dfmt.store_convert` for LReg lanes (uint32)."""
    x = lreg_value
    if isinstance(x, np.ndarray) and x.dtype == U32:
        if mod0 in _SPLIT32_STORE or (mod0 == _M.FP32 and not arch.features.store_fp32_flush):
            return _high_table(mod0, arch, False)[x >> U32(16)] | (x & U32(0xFFFF))
        if mod0 in _STORE_HIGH16:
            return _high_table(mod0, arch, False)[x >> U32(16)]
        if mod0 in _STORE_HIGH19:
            return _high19_table(mod0, arch)[x >> U32(13)]
    return dfmt.store_convert(mod0, x, arch=arch)


_LUT8 = lut.lut8_to_fp32(np.arange(256, dtype=U32))


@functools.lru_cache(maxsize=None)
def _lut16() -> np.ndarray:
    return lut.lut16_to_fp32(_ALL16)


def sfplut_select(l3, l0, l1, l2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`lut.sfplut_select` with the LUT8 coefficients from a 256-entry table."""
    b = lut._abs_l3(l3)
    coeffs = lut._pick3(lut._base_index(b), l0, l1, l2)
    if coeffs.shape != b.shape:
        return lut.sfplut_select(l3, l0, l1, l2)
    return _LUT8[(coeffs >> U32(8)) & U32(0xFF)], _LUT8[coeffs & U32(0xFF)], b


def sfplutfp32_select(mod1: int, l3, l0, l1, l2, l4, l5, l6) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`lut.sfplutfp32_select` with the 16-bit coefficients of the
    FP16_3ENTRY layout from a table (the others are the reference's)."""
    table, _, _ = lut.sfplutfp32_decode_mod1(mod1)
    if table != lut.LutFp32Table.FP16_3ENTRY:
        return lut.sfplutfp32_select(mod1, l3, l0, l1, l2, l4, l5, l6)
    b = lut._abs_l3(l3)
    pair = lut._pick3(lut._base_index(b), l0, l1, l2)
    if pair.shape != b.shape:
        return lut.sfplutfp32_select(mod1, l3, l0, l1, l2, l4, l5, l6)
    decode = _lut16()
    return decode[pair >> U32(16)], decode[pair & U32(0xFFFF)], b


if not ENABLED:
    load_convert, store_convert, dst32_rows = dfmt.load_convert, dfmt.store_convert, dfmt.dst32_rows  # noqa: F811
    sfplut_select, sfplutfp32_select = lut.sfplut_select, lut.sfplutfp32_select   # noqa: F811

__all__ = ["ENABLED", "dst32_rows", "load_convert", "store_convert", "sfplut_select", "sfplutfp32_select"]
