"""exp: tt-llk's fast SFPLOADMACRO path (FAST_APPROX + CLAMP_NEGATIVE)."""

from __future__ import annotations

import numpy as np

from tb.dst_io import get_tile_bits32, put_tile_bits32

from . import Accuracy, Kernel

FLT_MIN = float(np.finfo(np.float32).tiny)


def exp_inputs(state, rng) -> np.ndarray:
    """FP32 x over the whole range the kernel handles, some below the -88.5 clamp."""
    x = np.concatenate([rng.uniform(-87.0, 88.0, 960), rng.uniform(-120.0, -87.0, 64)]).astype(np.float32)
    put_tile_bits32(state, x.view(np.uint32))
    return x


def fp32_tile(state) -> np.ndarray:
    return get_tile_bits32(state).view(np.float32)


def clamped_exp(x: np.ndarray) -> np.ndarray:
    return np.exp(np.maximum(x.astype(np.float64), -88.5))


SCHRAUDOLPH = Accuracy(
    False, rtol=0.05, atol=FLT_MIN,
    why="Schraudolph's method: 2^(x/ln 2) with the fraction's 2^f replaced by 1+f in the mantissa, "
        "which is off by at most 6.1% before the bias C is tuned and about 3-4% after; results below "
        "FP32's smallest normal come out as 0 or denormal, hence the absolute bound.")

KERNELS = [
    Kernel("exp_fast", "exp_fast.s",
           "_calculate_exponential_<APPROX, FAST_APPROX, CLAMP_NEGATIVE> (SFPLOADMACRO)",
           exp_inputs, fp32_tile, clamped_exp, SCHRAUDOLPH,
           # Per face 26 issue slots: 8 sanitising macros with an SFPNOP after each but the
           # last, 8 computing macros, an SFPNOP and two SETRWCs. The last store is at T+5
           # of the last computing macro, 2 cycles after the last SETRWC.
           cycles_per_row=(4 * 26 + 2) / 32),
]
