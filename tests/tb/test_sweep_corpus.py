"""The exhaustive sweep of Exp, Reciprocal, Sqrt and Rsqrt on Float16_b ->
Float16_b, every approx x dest cell, on the Wormhole model, against the maximum
tt-llk measured on Wormhole hardware (each budget row's trailing comment).

These need the real kernel tree: they run when SFPU_LLK_SRC names it (`make
llk-corpus` sets it) and are skipped otherwise, saying so. With SFPU_LLK_SRC set,
a tree that cannot be read fails; it is never a skip. Marked slow (about a
minute), so `make test` leaves them to the corpus target.
"""

import os

import pytest

from tensix_sfpu.tb.llk import sweep as sw
from tensix_sfpu.tb.llk.sources import find_tree
from tensix_sfpu.tb.llk.sweep_facts import load

SRC = os.environ.get("SFPU_LLK_SRC")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SRC, reason="needs the kernel tree: set SFPU_LLK_SRC to the unpacked ttnn wheel's "
                                       "ttnn/tt_metal (make llk-corpus does)"),
]


@pytest.fixture(scope="module")
def sweeper():
    tree = find_tree(SRC, "wormhole")
    facts = load(tree)
    stride, phase = sw.read_stride(facts)
    return sw.Sweeper(facts, {"wormhole": tree}, stride, phase)


@pytest.mark.parametrize("op", ["Exp", "Reciprocal", "Sqrt", "Rsqrt"])
@pytest.mark.parametrize("approx", [False, True], ids=["approx-no", "approx-yes"])
@pytest.mark.parametrize("dest", [False, True], ids=["dest-no", "dest-yes"])
def test_float16b_cell_equals_the_hardware_maximum(sweeper, op, approx, dest):
    row = sweeper.measure(sw.Cell(op, "Float16_b", "Float16_b", approx, dest, "wormhole"))
    assert row["hw_max_ulp"] is not None, f"{op}: the budget row has no hardware figure"
    assert row.get("reason") is None, row.get("reason")
    assert row["lanes"] > 30000
    assert row["max_ulp"] == row["hw_max_ulp"], row
