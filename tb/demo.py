"""`make demo`: tt-llk's fast-exp SFPLOADMACRO pipeline on the cycle-exact
golden model: its timeline, its throughput, its results against numpy's exp,
and a bit-for-bit comparison with its non-macro twin."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from model.asm import assemble_file
from model.run import run_program
from model.state import SfpuState
from tb import timeline
from tb.dst_io import get_bits32, put_fp32

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KERNEL = EXAMPLES / "exp_fast_macro.s"
TWIN = EXAMPLES / "exp_fast_macro_twin.s"
ADDRESSES = tuple(range(0, 16, 2))     # 8 row groups of 32 lanes: Dst rows 0-15, both column halves


def run_kernel(path: Path, x: np.ndarray):
    state = SfpuState()
    for i, a in enumerate(ADDRESSES):
        put_fp32(state, a, x[i * 32:(i + 1) * 32])
    result = run_program(assemble_file(str(path)), state)
    y = np.concatenate([get_bits32(result.state, a) for a in ADDRESSES])
    return result, y


def compute_macros(result) -> list[int]:
    """Cycles of the SFPLOADMACROs that use macro 0 (the computing sequence)."""
    return [c for c, item in sorted(result.issued_from.items())
            if item.text.startswith("TTI_SFPLOADMACRO(") and int(item.text.split("(")[1].split(",")[0]) < 4]


def run_demo() -> int:
    x = np.linspace(-95.0, 10.0, 32 * len(ADDRESSES), dtype=np.float32)
    result, y_bits = run_kernel(KERNEL, x)
    twin, twin_bits = run_kernel(TWIN, x)
    compute = compute_macros(result)
    first, last = compute[0], compute[-1] + 5

    print(f"kernel {KERNEL.name}: {result.instructions} instructions, {result.cycles} cycles\n")
    print(f"The computing phase: eight SFPLOADMACROs in cycles {compute[0]}-{compute[-1]}")
    print(timeline.format_table(result.trace, first, last))
    full = timeline.full_cycles(result.trace)
    stores = [r.cycle for r in result.trace if "store" in r.units and r.units["store"].macro_cycle in compute]
    print(f"\nAll five sub-units busy in cycles {full[0]}-{full[-1]}; the eight row groups are stored in cycles "
          f"{stores[0]}-{stores[-1]}: {len(stores) / (stores[-1] - stores[0] + 1):.0f} row group of 32 lanes "
          "per cycle.")
    body = result.cycles - min(c for c, i in result.issued_from.items() if "SFPLOADMACRO" in i.text)
    twin_body = twin.cycles - min(c for c, i in twin.issued_from.items() if "SFPLOAD(" in i.text)
    print(f"Kernel body for {len(ADDRESSES)} row groups: {body} cycles with macros (sanitise and compute), "
          f"{twin_body} cycles for the non-macro twin ({twin_body // len(ADDRESSES)} per row group, "
          "SFPSWAP's interlock included).")

    y = y_bits.view(np.float32).astype(np.float64)
    ref = np.exp(np.maximum(x.astype(np.float64), -88.5))
    normal = ref >= np.finfo(np.float32).tiny      # below, results are denormal and the approximation fails
    rel = np.abs(y - ref) / ref
    print(f"\n{'x':>10} {'sfpu exp(x)':>14} {'numpy exp(x)':>14} {'rel. error':>11}")
    for i in list(range(0, len(x), 32)) + [len(x) - 1]:
        print(f"{x[i]:10.4f} {y[i]:14.6g} {ref[i]:14.6g} {rel[i]:11.2e}")
    same = np.array_equal(y_bits, twin_bits)
    clamped = x < -88.5
    print(f"max relative error {rel[normal].max():.3e} over the {normal.sum()} inputs whose exp is a normal FP32 "
          "(Schraudolph's approximation is good to a few percent);")
    print(f"the {clamped.sum()} inputs below -88.5 are clamped and all give exp(-88.5): "
          f"{bool(np.all(y[clamped] == y[np.argmax(x >= -88.5) - 1]))}")
    print(f"macro kernel and twin leave Dst {'bit-identical' if same else 'DIFFERENT'}")
    return 0 if rel[normal].max() < 0.05 and same else 1
