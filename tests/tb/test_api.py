"""The Python API (tb/api.py): typed values in, numpy out, one-line ApiErrors.

Expected values: the example kernel computes 2x + 1 (one rounding, as numpy's
float32 2*x + 1, since 2x is exact); the RTL's result is the other half of the
model/RTL pair; error messages name what was given."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model.machine import UndefinedBehaviour
from tensix_sfpu.model.race import report_to_json
import tensix_sfpu
from tensix_sfpu import api
from tensix_sfpu.tb.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
AFFINE = ROOT / "examples" / "ckernel_sfpu_affine.h"
FIXTURES = Path(__file__).resolve().parent / "llk_fixtures"
RACES = ROOT / "tests" / "model" / "race_fixtures"
X = np.random.default_rng(7).uniform(-50, 50, (32, 32)).astype(np.float32)


@pytest.fixture(scope="module")
def affine():
    return api.compile_kernel(AFFINE, "calculate_affine<false>()", init="affine_init<false>()", fp32_dest=1)


def test_compile_and_run_a_header(affine):
    assert affine.program.arch.value == "wormhole" and "TTI_SFPLOADMACRO" in affine.text
    result = api.run(affine, inputs=X, format="fp32", trace=True)
    assert result.output.shape == X.shape and result.output.dtype == np.float32
    assert np.array_equal(result.output, 2 * X + 1)
    assert result.hazards == [] and result.cycles >= result.instructions > 32
    assert result.lregs.shape == (17, 32) and result.dst.shape == (1024, 16)
    assert "<svg" in result.timeline_html("affine") and result.perfetto()["traceEvents"]


def test_other_formats_round_trip_through_dst():
    # A program that stores what it loads: the output is the input, in each format's own terms.
    for fmt, values, mode in (("int32", np.arange(-16, 16, dtype=np.int32), ".fp32_dest 1\n"),
                              ("uint16", np.arange(32, dtype=np.uint16) * 999, "")):
        mod0 = f"MOD0_FMT_{fmt.upper()}"
        program = api.assemble_program(f"{mode}sfpload vd=0 mod0={mod0} addr_mod=0 imm10=0\n"
                                       f"sfpnop\nsfpstore vd=0 mod0={mod0} addr_mod=0 imm10=0\n")
        out = api.run(program, inputs=values, format=fmt).output
        assert out.dtype == values.dtype and np.array_equal(out, values)


def test_a_hazard_stops_a_strict_run_and_is_reported_in_a_lenient_one():
    listing = api.compile_kernel(FIXTURES / "ckernel_sfpu_fixture_add_one.h",
                                 "calculate_fixture_add_one_hazard<false, 2>()", init="fixture_add_one_init<false>()")
    with pytest.raises(UndefinedBehaviour, match="ckernel_sfpu_fixture_add_one.h"):
        api.run(listing, inputs=X, format="fp32")
    lenient = api.run(listing, inputs=X, format="fp32", strict=False)
    assert lenient.hazards and all(h.rule for h in lenient.hazards)


def test_a_stop_names_the_cxx_line_as_the_command_line_does(capsys):
    """The listing exists only in memory, so the stop names the C++ line
    first, as `sfpu run HEADER --call` does: line 35 of the fixture is the
    SFPSTORE that reads the SFPADD result in flight. A second listing compiled
    from the same header (the same listing name) does not change which line
    the first one's stop names."""
    header = FIXTURES / "ckernel_sfpu_fixture_add_one.h"
    call, init = "calculate_fixture_add_one_hazard<false, 2>()", "fixture_add_one_init<false>()"
    hazard = api.compile_kernel(header, call, init=init)
    api.compile_kernel(header, "calculate_fixture_add_one<false, 2>()", init=init)
    with pytest.raises(UndefinedBehaviour) as stop:
        api.run(hazard, inputs=X, format="fp32")
    assert str(stop.value).startswith(f"{header}:35: ckernel_sfpu_fixture_add_one.h.s:")
    assert stop.value.hazard.rule == "read-in-flight"
    assert main(["run", str(header), "--call", call, "--init", init]) == 3
    # The command line's stop is the API's, then its hint (--allow, --lenient).
    assert capsys.readouterr().err.splitlines()[0] == f"sfpu: stopped: {stop.value}"


def test_the_rtl_gives_the_models_result(affine):
    model = api.run(affine, inputs=X, format="fp32")
    rtl = api.run(affine, inputs=X, format="fp32", backend="verilator")
    assert np.array_equal(model.dst, rtl.dst) and model.cycles == rtl.cycles


@pytest.mark.parametrize("call, message", [
    (lambda: api.compile_kernel(AFFINE, "calculate_nothing<false>()"), "calculate_nothing"),
    (lambda: api.compile_kernel("no_such.h", "f()"), "no_such.h: no such header"),
    # The API's own names for the kernel tree, not the command line's --src:
    (lambda: api.compile_kernel("no_such.h", "f()"), "give src=DIR or set SFPU_LLK_SRC"),
    (lambda: api.compile_kernel("no_such.h", "f()", src="/nonexistent"), "src=/nonexistent: no such folder"),
    (lambda: api.compile_kernel("/moved/ckernel_sfpu_affine.h", "f()"),
     "/moved/ckernel_sfpu_affine.h: no such file; the package's example of that name is "
     "example:ckernel_sfpu_affine.h"),
    (lambda: api.compile_kernel("example:nope.h", "f()"),
     "example:nope.h: the package has no such example header (it has example:ckernel_sfpu_affine.h)"),
    (lambda: api.compile_kernel(AFFINE, "calculate_affine<false>()", setup=["addr_mod 6"]), "setup 'addr_mod 6'"),
    (lambda: api.assemble_program("sfpnop\nsfpbogus\n", name="p.s"), "p.s:2"),
    (lambda: api.assemble_program(Path("/nonexistent/x.s")), "/nonexistent/x.s: cannot read"),
    (lambda: api.assemble_program("sfpnop\n", arch="quasar"), "quasar"),
    (lambda: api.run("sfpnop\n", inputs=np.zeros(33, np.float32)), "33 values"),
    (lambda: api.run("sfpnop\n", inputs=np.zeros(32, np.float32), format="bf16"), "format 'bf16'"),
    (lambda: api.run("sfpnop\n", dst=np.zeros((4, 4), np.uint16)), "dst: raw uint16"),
    (lambda: api.run("sfpnop\n", backend="spice"), "backend 'spice'"),
    (lambda: api.run("sfpnop\n", allow=["no-such-rule"]), "allow no-such-rule"),
    (lambda: api.race("sfpnop\n", max_gap=65), "1..64"),
    (lambda: api.race("sfpnop\n", allow=["no-such-rule"]), "allow no-such-rule"),
    (lambda: api.measure_kernel("no_such_kernel"), "kernel 'no_such_kernel'"),
    (lambda: api.measure_kernel("exp_fast", arch="quasar"), "quasar"),
    (lambda: api.measure_kernels(["exp_fast", "nope"]), "no kernel 'nope' on Wormhole B0"),
    (lambda: api.measure_kernels(["exp_fast"], backend="spice"), "backend"),
])
def test_bad_values_are_one_line_errors(call, message):
    with pytest.raises(api.ApiError) as error:
        call()
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_run_without_trace_has_no_timeline(affine):
    with pytest.raises(api.ApiError, match="trace=True"):
        api.run(affine, inputs=X).timeline_html()


@pytest.mark.parametrize("kernel_src", [None, FIXTURES.parent / "llk_tree"])
def test_the_example_kernel_test_passes_copied_into_an_empty_folder(tmp_path, kernel_src):
    """docs/api.md invites a copy: it finds the package's example header
    wherever it is, with or without a kernel tree in KERNEL_SRC (here a
    fixture tree, which has no such header), and both its tests run."""
    shutil.copy(ROOT / "examples" / "test_my_kernel.py", tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("KERNEL_SRC", "SFPU_LLK_SRC")}
    # The package under test, wherever it is imported from here (a checkout, or an install).
    package = Path(tensix_sfpu.__file__).resolve().parents[1]
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package), env.get("PYTHONPATH")]))
    if kernel_src is not None:
        env["KERNEL_SRC"] = str(kernel_src)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_my_kernel.py"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert proc.returncode == 0 and "2 passed" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_race_finds_the_macro_racing_the_store():
    """gap_race.s (its comment works the race out): back to back the store
    reads L2 before the macro's +1 lands, one idle cycle before it lets it
    land. The Dst given is what the first load reads; the report names the
    store as the first difference."""
    values = np.arange(32, dtype=np.int32) * 3
    report = api.race(RACES / "gap_race.s", inputs=values, format="int32", max_gap=2, seeds=0)
    assert not report.deterministic
    first = report.divergences[0]
    assert first.schedule.kind == "single-gap" and first.first["mnemonic"] == "SFPSTORE"


def test_race_of_back_to_back_playback_is_deterministic():
    report = api.race(RACES / "gap_race_back_to_back.s", max_gap=3, seeds=2)
    assert report.deterministic and report.gaps_pruned == report.gap_points


def test_race_without_inputs_starts_from_a_repeatable_random_dst():
    a = api.race(RACES / "gap_race.s", max_gap=1, seeds=1)
    b = api.race(RACES / "gap_race.s", max_gap=1, seeds=1, format="fp32")
    again = api.race(RACES / "gap_race.s", max_gap=1, seeds=1)
    assert not a.deterministic and not b.deterministic
    assert report_to_json(a) == report_to_json(again)


def test_measure_kernel_reports_what_sfpu_kernels_does():
    """exp_fast: the SFPLOADMACRO kernel and its twin leave the same Dst
    (docs/kernels.md), within the kernel's own numpy tolerance."""
    assert "exp_fast" in api.kernel_names() and "exp_fast" in api.kernel_names("blackhole")
    m = api.measure_kernel("exp_fast")
    assert m.kernel.name == "exp_fast" and m.accurate and m.twin_same is True
    assert m.run.cycles_per_row > 0 and "SFPLOADMACRO" in m.instructions and m.rtl == "not run"


def test_measure_kernels_keeps_the_order_asked_and_agrees_with_one_at_a_time():
    """reciprocal has no twin, exp_fast's is exp_fast_twin (asked for too):
    each result is the one measure_kernel gives for that kernel alone."""
    both = api.measure_kernels(["reciprocal", "exp_fast", "exp_fast_twin"])
    assert [m.kernel.name for m in both] == ["reciprocal", "exp_fast", "exp_fast_twin"]
    assert both[1].twin_same is True and both[0].twin_same is None
    for m in both:
        alone = api.measure_kernel(m.kernel.name)
        assert (m.accurate, m.twin_same, m.run.cycles_per_row, m.from_source) == \
            (alone.accurate, alone.twin_same, alone.run.cycles_per_row, False)
