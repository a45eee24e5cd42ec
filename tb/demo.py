"""`make demo`: the fast-exp kernel (non-macro twin) on the golden model,
with its results set against numpy's exp."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from model import dst_format as dfmt
from model.asm import assemble_file
from model.run import run_program
from model.state import SfpuState

KERNEL = Path(__file__).resolve().parent.parent / "examples" / "exp_fast_twin.s"
ROW_GROUPS = 4        # the kernel processes Dst rows 0-15, even columns


def _lane_positions(group: int) -> tuple[np.ndarray, np.ndarray]:
    lanes = np.arange(32)
    return group * 4 + lanes // 8, (lanes & 7) * 2


def write_inputs(state: SfpuState, x: np.ndarray) -> None:
    """Place 32 FP32 values per row group where SFPLOAD (FP32, even columns) reads them."""
    bits = x.astype(np.float32).view(np.uint32).reshape(ROW_GROUPS, 32)
    for g in range(ROW_GROUPS):
        rows, cols = _lane_positions(g)
        hi, lo = dfmt.split_dst32(dfmt.shuffle_fp32(bits[g]))
        a, b = dfmt.dst32_rows(rows)
        state.dst[a, cols] = hi
        state.dst[b, cols] = lo


def read_outputs(state: SfpuState) -> np.ndarray:
    out = []
    for g in range(ROW_GROUPS):
        rows, cols = _lane_positions(g)
        a, b = dfmt.dst32_rows(rows)
        raw = dfmt.join_dst32(state.dst[a, cols], state.dst[b, cols])
        out.append(dfmt.unshuffle_fp32(raw))
    return np.concatenate(out).astype(np.uint32).view(np.float32)


def run_demo() -> int:
    x = np.linspace(-6.0, 6.0, 32 * ROW_GROUPS, dtype=np.float32)
    state = SfpuState()
    write_inputs(state, x)
    program = assemble_file(str(KERNEL))
    result = run_program(program, state)
    y = read_outputs(result.state)
    ref = np.exp(x.astype(np.float64))
    rel = np.abs(y - ref) / ref
    print(f"kernel: {KERNEL.name}  ({result.instructions} instructions, {result.cycles} cycles, "
          f"{ROW_GROUPS} row groups of 32 lanes)")
    print(f"{'x':>10} {'sfpu exp(x)':>14} {'numpy exp(x)':>14} {'rel. error':>11}")
    for i in range(0, len(x), 8):
        print(f"{x[i]:10.4f} {y[i]:14.6g} {ref[i]:14.6g} {rel[i]:11.2e}")
    print(f"max relative error {rel.max():.3e} over {len(x)} values "
          f"(the Schraudolph-style approximation is good to a few percent)")
    return 0 if rel.max() < 0.05 else 1
