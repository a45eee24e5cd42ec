"""A kernel author's test, to copy and adapt: compile an SFPU kernel from its
C++ header, run it on random inputs on the cycle-exact model, check it against
numpy within a ULP budget, and check that its SFPLOADMACRO path and its plain
path (-D DISABLE_SFPLOADMACRO) give the same bits.

    cp test_my_kernel.py ~/my_tests/ && cd ~/my_tests && pytest test_my_kernel.py
    KERNEL_SRC=/path/to/tt_metal pytest test_my_kernel.py    # headers named without a path looked up there

As it stands it tests the package's example kernel, `example:ckernel_sfpu_affine.h`
(y = 2x + 1), which is found wherever this file is copied; change HEADER (a
path, or a file name under KERNEL_SRC), CALL, INIT, reference() and
BUDGET_ULP for your kernel.
"""

import os

import numpy as np
import pytest

from tensix_sfpu import api
from tensix_sfpu.tb.llk.sweep import ulp_steps       # tt-llk's ULP count (SFPU_ULP.md)

HEADER = "example:ckernel_sfpu_affine.h"     # yours: a path (Path(__file__).parent / "ckernel_sfpu_mine.h") or a name under KERNEL_SRC
CALL = "calculate_affine<false>()"
INIT = "affine_init<false>()"
SRC = os.environ.get("KERNEL_SRC")           # a tt-metal tree, for headers named without a path
BUDGET_ULP = 0


def reference(x: np.ndarray) -> np.ndarray:
    return (np.float64(2) * x + 1).astype(np.float32)


def compile_kernel(*defines: str):
    return api.compile_kernel(HEADER, CALL, init=INIT, src=SRC, fp32_dest=1, defines=defines)


@pytest.fixture(scope="module")
def inputs() -> np.ndarray:
    return np.random.default_rng(2024).uniform(-1000, 1000, (32, 32)).astype(np.float32)   # one tile


def test_within_the_ulp_budget(inputs):
    result = api.run(compile_kernel(), inputs=inputs, format="fp32")
    steps = ulp_steps("Float32", reference(inputs).view(np.uint32), result.output.view(np.uint32))
    worst = int(np.argmax(steps))
    assert steps.max() <= BUDGET_ULP, (f"{steps.max()} ULP at x = {inputs.flat[worst]!r}: "
                                       f"{result.output.flat[worst]!r}, expected {reference(inputs).flat[worst]!r}")
    assert result.hazards == []


def test_the_macro_path_and_the_plain_path_agree(inputs):
    fast = api.run(compile_kernel(), inputs=inputs, format="fp32")
    plain = api.run(compile_kernel("DISABLE_SFPLOADMACRO"), inputs=inputs, format="fp32")
    assert np.array_equal(fast.output.view(np.uint32), plain.output.view(np.uint32))
    assert fast.cycles < plain.cycles          # what the macros are for
