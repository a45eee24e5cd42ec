"""Every kernel of the kernels package on the golden model: its result against numpy,
its twin, and its cycles per row group. The RTL runs them in lock-step in
tests/tb/test_backends.py."""

import sys

import numpy as np
import pytest

from tensix_sfpu import kernels
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.stimulus.programs import resolve

sys.set_int_max_str_digits(0)

KERNELS = kernels.all_kernels(Arch.WORMHOLE)


@pytest.fixture(scope="module")
def runs():
    cache = {}

    def run(name):
        if name not in cache:
            cache[name] = kernels.run_kernel(KERNELS[name])
        return cache[name]
    return run


@pytest.mark.parametrize("name", list(KERNELS))
def test_result_agrees_with_numpy(runs, name):
    ok, how = kernels.check_accuracy(runs(name))
    assert ok, f"{name}: {how}"


@pytest.mark.parametrize("name", [n for n, k in KERNELS.items() if k.twin])
def test_twin_leaves_dst_bit_identical(runs, name):
    twin = KERNELS[name].twin
    assert np.array_equal(runs(name).result.state.dst, runs(twin).result.state.dst), (
        f"{name} and its twin {twin} leave different Dst")


@pytest.mark.parametrize("name", [n for n, k in KERNELS.items() if k.cycles_per_row is not None])
def test_cycles_per_row_as_counted(runs, name):
    assert runs(name).cycles_per_row == pytest.approx(KERNELS[name].cycles_per_row, abs=1e-9)


@pytest.mark.parametrize("name", [n for n, k in KERNELS.items() if k.claimed_cycles_per_row is not None])
def test_claimed_throughput_met_or_explained(runs, name):
    k = KERNELS[name]
    if runs(name).cycles_per_row != pytest.approx(k.claimed_cycles_per_row, abs=1e-9):
        assert k.timing_note, f"{name}: measured {runs(name).cycles_per_row} cycles/row, the source claims " \
                              f"{k.claimed_cycles_per_row}, and no timing note explains it"


def test_every_kernel_is_described():
    for k in KERNELS.values():
        assert k.path.is_file(), k.path
        assert k.accuracy.exact or k.accuracy.why or k.compare, f"{k.name}: a tolerance needs its reason"
        assert k.twin is None or k.twin in KERNELS, f"{k.name}: unknown twin {k.twin}"


def test_kernel_specs_carry_their_inputs():
    spec = resolve("kernel:exp_fast")[0]
    assert spec.dst is not None and spec.dst.any() and spec.program.words


def test_a_wrong_kernel_fails_the_accuracy_check():
    run = kernels.run_kernel(KERNELS["exp_fast"])
    run.outputs = run.outputs * np.float32(1.1)
    ok, how = kernels.check_accuracy(run)
    assert not ok and "outside" in how


def test_report_table_and_doc(tmp_path):
    from tensix_sfpu.tb.cli import kernel_report
    from tensix_sfpu.tb.kernel_measure import measure
    measured = measure(["exp_fast", "exp_fast_twin"], arch=Arch.WORMHOLE)
    table = kernel_report.format_table(measured, width=None)
    assert "exp_fast" in table and "bit-identical" in table and "within rel. 0.05" in table
    assert "FAILS" not in table
    narrow = kernel_report.format_table(measured)
    assert "max rel. error" in narrow and max(len(line) for line in narrow.splitlines()) <= 120
    doc = tmp_path / "kernels.md"
    kernel_report.write_doc(measured, doc)
    text = doc.read_text()
    # The macro kernel's section shows the source's schedule and our timeline beside it.
    section = text[text.index("### exp_fast\n"):text.index("### exp_fast_twin")]
    assert "The source's schedule" in section and "@" in section and "sfploadmacro" in section
    assert "SETRWC" in section and "REPLAY" in section
