"""`sfpu sweep` on a fixture tree (tests/tb/sweep_tree, written for these tests in
tt-llk's layout): the facts read from the tree, the kernel the dispatch selects,
and the packer path end to end.

The fixture kernel computes x * (1 + 2**-8), exact in FP32 for every BF16 x
(8 + 8 significant bits). Writing x = m * 2**e with m in 128..255, the result is
(m + m/256) BF16 steps, so its fraction is m/256: exactly one half when m = 128
(x a power of two), above one half otherwise. The golden rounds to nearest even,
so it keeps x at a power of two and rounds up everywhere else. Therefore:
- 32-bit Dst, packer rounding to nearest with ties away from zero: one step up
  everywhere, so the only lanes 1 ULP off are the powers of two;
- 16-bit Dst, SFPSTORE truncating to BF16: x everywhere, so the lanes 1 ULP off
  are exactly the ones that are not powers of two.
A packer that truncated, or rounded to even, would move those lane sets.
(Where x * 2**-8 is below FP32's normal range the MAD flushes the product and
returns x: those lanes, |x| < 2**-118, are left out of the lane sets.)
"""

import json
from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.tb.cli.main import main
from tensix_sfpu.tb.llk import sweep as sw
from tensix_sfpu.tb.llk.frontend import LlkError, Request, compile_call
from tensix_sfpu.tb.llk.sources import find_tree
from tensix_sfpu.tb.llk.sweep_facts import FactsError, load, resolve

TREE_DIR = Path(__file__).resolve().parent / "sweep_tree"
REFERENCE = {"FixtureScale": lambda x: x * (1.0 + 2.0 ** -8)}


@pytest.fixture(scope="module")
def facts():
    return load(find_tree(TREE_DIR, "wormhole"))


@pytest.fixture(scope="module")
def sweeper(facts):
    stride, phase = sw.read_stride(facts)
    return sw.Sweeper(facts, {"wormhole": find_tree(TREE_DIR, "wormhole")}, stride, phase, refs=REFERENCE)


def test_facts_come_from_the_tree(facts):
    # the SFPU_BINARY op is not a unary op
    assert facts.ops == {"FixtureScale": "fixture_scale", "FixtureHalf": "fixture_half",
                         "FixtureWrapped": "fixture_wrapped"}
    assert (facts.iterations, facts.fast_mode, facts.clamp_negative) == (32, False, True)
    assert facts.singularities == {"FixtureScale": [(0.0, "BOTH")]}
    assert facts.nonpositive_poles == {"FixtureBinary"}
    assert facts.claim_limits == {"FixtureBinary": 65504.0}
    assert sw.read_stride(facts) == (1 << 16, pytest.approx(0.6180339887))
    row = facts.row("FixtureScale", "Float16_b", "Float16_b", False, True, "wormhole")
    assert (row.max_ulp, row.hw_max_ulp) == (1, 1)
    assert facts.row("FixtureScale", "Float16_b", "Float32", False, True, "wormhole").max_ulp is None   # tolerance


def test_the_dispatch_selects_the_cells_kernel(facts):
    exact = facts.kernel("FixtureScale", False, True, "wormhole")
    assert exact.call == "calculate_fixture_scale<false, true, 32>()"
    assert exact.init == "fixture_scale_init<false>()"
    assert (exact.vector_mode, exact.header.name) == ("none", "ckernel_sfpu_fixture_scale.h")
    approx = facts.kernel("FixtureScale", True, False, "wormhole")
    assert (approx.call, approx.vector_mode) == ("calculate_fixture_scale<true, false, 8>()", "rc")
    with pytest.raises(FactsError, match="calculate_fixture_missing"):
        facts.kernel("FixtureScale", False, True, "wormhole", math_format="Int32")
    with pytest.raises(FactsError, match="calculate_fixture_blackhole_only"):
        facts.kernel("FixtureScale", False, True, "blackhole")


def test_a_header_compiles_after_what_the_dispatch_includes_before_it(sweeper, facts):
    # ckernel_sfpu_fixture_half.h uses the global `using namespace sfpi` and the constant of
    # ckernel_sfpu_fixture_base.h, which the dispatch includes just before it; the header after
    # it in the dispatch's list is not included.
    half = facts.kernel("FixtureHalf", False, True, "wormhole")
    assert [p.name for p in half.preincludes] == ["ckernel_sfpu_fixture_scale.h", "ckernel_sfpu_fixture_base.h"]
    refs = {"FixtureHalf": lambda x: x * 0.5, "FixtureWrapped": lambda x: x * 0.5}
    wrapped = facts.kernel("FixtureWrapped", False, True, "wormhole")
    # The dispatch's own wrapper: compiled from the dispatch's lines, after all of its includes.
    assert wrapped.call == "calculate_fixture_wrapped<false, 32>()" and len(wrapped.preincludes) == 3
    for op in refs:
        cell = sw.Cell(op, "Float16_b", "Float16_b", False, True, "wormhole")
        record = sw.Sweeper(sweeper.facts, sweeper.trees, refs=refs, tiles=2).measure(cell)
        assert (record.get("reason"), record["max_ulp"], record["hw_max_ulp"]) == (None, 0, 0)
    # The wrapper keeps its dispatch line number (after `#pragma once` and a `#line 1`); the
    # harness code around it is blank.
    dispatch = (facts.tests / "helpers" / "include" / "sfpu_operations.h").read_text().splitlines()
    extracted = wrapped.header.read_text().splitlines()
    assert extracted[1] == f'#line 1 "{facts.tests / "helpers" / "include" / "sfpu_operations.h"}"'
    line = next(i for i, text in enumerate(dispatch) if "void calculate_fixture_wrapped()" in text)
    assert extracted[line + 2] == dispatch[line]
    assert not any("call_unary_sfpu_operation" in text for text in extracted)


def test_worker_processes_share_the_tiles_without_changing_a_lane(sweeper):
    # Three tiles over two workers: an uneven share; every lane's result equals the one-process run.
    cell = sw.Cell("FixtureScale", "Float16_b", "Float16_b", False, True, "wormhole")
    rows = [sw.Sweeper(sweeper.facts, sweeper.trees, refs=REFERENCE, tiles=3, jobs=jobs).measure(cell, detail=True)
            for jobs in (1, 2)]
    assert rows[0]["lanes"] == rows[1]["lanes"] > 2 * sw.TILE
    assert np.array_equal(rows[0]["detail"]["result"], rows[1]["detail"]["result"], equal_nan=True)
    assert rows[0]["max_ulp"] == rows[1]["max_ulp"] == 1


def test_static_assert_false_fails_only_where_its_branch_is_taken(facts):
    # g++ 12 rejects `static_assert(false, ...)` even in a discarded branch; the kernels' compiler
    # (and the front end's copy of the header) only where the branch is instantiated.
    tree = find_tree(TREE_DIR, "wormhole")
    half = facts.kernel("FixtureHalf", False, True, "wormhole")
    taken = Request(half.header, "calculate_fixture_half<false, 0>()", None, arch="wormhole", fp32_dest=1,
                    vector_mode="none", tree=tree, preincludes=half.preincludes)
    with pytest.raises(LlkError, match=r"ckernel_sfpu_fixture_half.h:\d+: C\+\+ compile error: .*"
                                       r"ITERATIONS must be positive"):
        compile_call(taken)


def test_resolve_keeps_the_branch_the_constants_select():
    text = """
        constexpr bool both = A && !B;
        if constexpr (OPERATION == SfpuType::x) { if (both) { pick(1); } else { pick(2); } }
        else if constexpr (OPERATION == SfpuType::y || B) { pick(3); }
        else { pick(4); }"""
    env = {"OPERATION": "SfpuType::x", "A": True, "B": False}
    assert "pick(1)" in resolve(text, dict(env), "t") and "pick(2)" not in resolve(text, dict(env), "t")
    assert "pick(3)" in resolve(text, {**env, "OPERATION": "SfpuType::z", "B": True}, "t")
    assert "pick(4)" in resolve(text, {**env, "OPERATION": "SfpuType::z"}, "t")
    with pytest.raises(FactsError, match="unknown_name"):
        resolve("if constexpr (unknown_name) { a(); }", {}, "t")


def _powers_of_two(x):
    m, _ = np.frexp(np.abs(x))
    return (m == 0.5) & (x != 0)


def _scaled_normally(mask, x):
    return mask & (np.abs(x) >= 2.0 ** -118)


def test_packer_rounds_ties_away_and_the_16_bit_store_truncates(sweeper):
    wide = sweeper.measure(sw.Cell("FixtureScale", "Float16_b", "Float16_b", False, True, "wormhole"), detail=True)
    narrow = sweeper.measure(sw.Cell("FixtureScale", "Float16_b", "Float16_b", False, False, "wormhole"),
                             detail=True)
    # Ranked: all but the 254 BF16 subnormals and the zero the op does not claim; at 16-bit Dst also
    # but +-max BF16, whose golden rounds to infinity where the truncating store stays finite.
    for record, off_by_one, overflows in ((wide, _powers_of_two, 0), (narrow, lambda x: ~_powers_of_two(x), 2)):
        d = record["detail"]
        x, steps, mask = d["x"], d["steps"], _scaled_normally(d["mask"], d["x"])
        assert record["max_ulp"] == record["hw_max_ulp"] == 1
        assert (record["lanes"], record["nonfinite"]) == (65279 - 254 - 1 - overflows, overflows)
        assert np.array_equal(mask & (steps == 1), mask & off_by_one(x))
        assert set(np.unique(steps[mask])) == {0, 1}


def test_a_per_face_kernel_covers_the_whole_tile(sweeper):
    record = sweeper.measure(sw.Cell("FixtureScale", "Float16_b", "Float16_b", True, True, "wormhole"), detail=True)
    d = record["detail"]
    mask = _scaled_normally(d["mask"], d["x"])
    assert record["max_ulp"] == 1
    assert np.array_equal(mask & (d["steps"] == 1), mask & _powers_of_two(d["x"]))


def test_sweep_inputs_are_every_finite_value_once():
    bf16 = sw.sweep_inputs("Float16_b", 1 << 16, 0.618)
    fp16 = sw.sweep_inputs("Float16", 1 << 16, 0.618)
    assert (len(bf16), len(fp16)) == (65279, 63487)             # SFPU_ULP.md's counts
    assert np.all(np.diff(np.array([float(v) for v in (bf16.astype(np.uint32) << 16).view(np.float32)])) > 0)
    fp32 = sw.sweep_inputs("Float32", 1 << 16, (5 ** 0.5 - 1) / 2)
    assert len(fp32) == 65280 and np.all(np.isfinite(fp32.view(np.float32)))


def test_ulp_steps_rank_subnormals_as_zero():
    # FP32: the smallest normal is one step from zero, and from any subnormal; -1.0 to 1.0 is 2 * 0x3F800000
    # minus the subnormal band on each side.
    g = np.array([0x00800000, 0x00000001, 0xBF800000], np.uint32)
    r = np.array([0x00000000, 0x00800000, 0x3F800000], np.uint32)
    assert sw.ulp_steps("Float32", g, r).tolist() == [1, 1, 2 * (0x3F800000 - 0x7FFFFF)]
    assert sw.ulp_steps("Float16", np.array([0x0400], np.uint32), np.array([0x0001], np.uint32)).tolist() == [1]


def _cli(capsys, *args):
    code = main(["sweep", "--src", str(TREE_DIR), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_writes_rows_keyed_like_the_budget(tmp_path, capsys):
    out = tmp_path / "rows.json"
    code, text, _ = _cli(capsys, "FixtureScale", "--approx", "no", "--dest", "yes", "--json", str(out))
    rows = json.loads(out.read_text())
    # FixtureScale has no numpy reference outside this test: the row says so rather than guess one.
    keys = {"op", "in", "out", "approx", "dest", "arch", "max_ulp", "hw_max_ulp", "budget", "worst_input", "lanes"}
    assert code == 0 and len(rows) == 1 and keys <= set(rows[0])
    assert (rows[0]["op"], rows[0]["in"], rows[0]["out"], rows[0]["approx"], rows[0]["dest"], rows[0]["budget"],
            rows[0]["hw_max_ulp"]) == ("FixtureScale", "Float16_b", "Float16_b", "No", "Yes", 1, 1)
    assert rows[0]["max_ulp"] is None and "no numpy reference" in rows[0]["reason"]
    assert "no numpy reference" in text


def test_cli_runs_the_model_with_worker_processes(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sw, "references", lambda: REFERENCE)
    out = tmp_path / "rows.json"
    code, _, _ = _cli(capsys, "FixtureScale", "--approx", "no", "--dest", "yes", "--jobs", "2", "--json", str(out))
    (row,) = json.loads(out.read_text())
    assert code == 0 and row.get("reason") is None
    # every finite Float16_b input (65,280) but those the masks leave out
    assert (row["max_ulp"], row["hw_max_ulp"]) == (1, 1) and 65_000 < row["lanes"] <= 65_280


@pytest.mark.parametrize("args, message", [
    (("Nope",), "Nope: not a unary op of"),
    (("FixtureScal",), "sfpu_accuracy_budget.yaml (did you mean FixtureScale?)"),
    (("FixtureScale", "--in", "Bfp8_b"), "--in Bfp8_b: not a format"),
    (("FixtureScale", "--out", "Float32"), "no cell with a step budget"),
    (("FixtureScale", "--all"), "give OP names or --all"),
    (("FixtureScale", "--jobs", "0"), "--jobs 0: give at least 1"),
])
def test_bad_input_is_one_line_and_status_2(capsys, args, message):
    code, _, err = _cli(capsys, *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_tree_without_tt_llk_tests_is_status_2(tmp_path, capsys):
    (tmp_path / "tt_llk_wormhole_b0" / "common" / "inc" / "sfpu").mkdir(parents=True)
    code = main(["sweep", "--src", str(tmp_path), "Exp"])
    err = capsys.readouterr().err
    assert code == 2 and "no tests/python_tests/helpers" in err


def test_merge_joins_shards(tmp_path, capsys):
    row = {"op": "FixtureScale", "in": "Float16_b", "out": "Float16_b", "approx": "No", "dest": "Yes",
           "arch": "wormhole", "max_ulp": 1, "hw_max_ulp": 1, "budget": 1, "worst_input": "1 (0x3F80)", "lanes": 9}
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps([row]))
    b.write_text(json.dumps([{**row, "dest": "No"}]))
    assert main(["sweep", "--merge", str(a), str(b), "--json", str(tmp_path / "all.json")]) == 0
    assert len(json.loads((tmp_path / "all.json").read_text())) == 2
    assert "2 of 2 measured cells equal" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("{}")
    assert main(["sweep", "--merge", str(tmp_path / "bad.json")]) == 2


def test_the_blackhole_page_is_marked_a_prediction_and_lists_cells_above_the_budget():
    from tensix_sfpu.tb.cli.sweep import prediction_markdown
    base = {"op": "FixtureScale", "in": "Float16_b", "out": "Float16_b", "approx": "No", "arch": "blackhole",
            "hw_max_ulp": 0, "budget": 1, "worst_input": "1 (0x3F80)", "lanes": 9}
    page = prediction_markdown([{**base, "dest": "Yes", "max_ulp": 3}, {**base, "dest": "No", "max_ulp": 1},
                                {**base, "arch": "wormhole", "dest": "No", "max_ulp": 7}])
    assert "a model prediction" in page and "Not a hardware measurement" in page
    assert "2 cells, 2 run on the model; 1 predicted above the Wormhole budget" in page
    assert "| FixtureScale | Float16_b -> Float16_b | No | Yes | 3 | 1 | 0 |" in page
    assert page.count("arch: blackhole}") == 2 and "ABOVE the Wormhole budget" in page


# Values of erf's inverse and of the Bessel function I1 from mpmath at 30 digits (an independent
# arbitrary-precision implementation), rounded to 17 significant digits.
@pytest.mark.parametrize("x, value", [(0.5, 0.47693627620446987), (-0.9, -1.1630871536766742),
                                      (0.999, 2.3267537655135245), (1e-20, 8.8622692545275797e-21)])
def test_erfinv_reference(x, value):
    assert sw._erfinv(np.array([x]))[0] == pytest.approx(value, rel=1e-14)


def test_erfinv_reference_is_infinite_at_one_and_nan_outside():
    assert sw._erfinv(np.array([1.0, -1.0, 1.5, 0.0])).tolist()[:2] == [np.inf, -np.inf]
    assert np.isnan(sw._erfinv(np.array([1.5]))[0]) and sw._erfinv(np.array([0.0]))[0] == 0.0


@pytest.mark.parametrize("x, value", [(1.0, 0.56515910399248503), (2.5, 2.5167162452886984),
                                      (10.0, 2670.9883037012547), (19.5, 26065069.264457166),
                                      (20.5, 69170831.679184373), (50.0, 2.9030785901035568e+20),
                                      (90.0, 5.1106068152565982e+37)])
def test_bessel_i1_reference_is_odd_on_both_sides_of_its_seam(x, value):
    assert sw._bessel_i1(np.array([x, -x])).tolist() == pytest.approx([value, -value], rel=1e-14)


def test_bessel_i1_reference_is_exactly_zero_at_zero_and_infinite_past_fp32():
    assert sw._bessel_i1(np.array([0.0, 100.0, -1e30])).tolist() == [0.0, np.inf, -np.inf]


def test_the_lut_reference_reads_its_segments_from_the_table():
    # Slopes 1..6 and intercepts 10..60 on SFPLUTFP32's TABLE1 segments (cuts 0.5, 1, 1.5, 2, 3).
    table = [1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60]
    x = np.array([0.25, -0.75, 1.0, 1.75, 2.5, 7.0])
    t = np.array([1 * 0.25 + 10, 2 * 0.75 + 20, 3 * 1.0 + 30, 4 * 1.75 + 40, 5 * 2.5 + 50, 6 * 7.0 + 60])
    assert sw._one_minus_lut_squared(x, table).tolist() == (1 - t * t).tolist()


def test_the_lut_table_is_read_from_the_init_by_register(facts):
    assert facts.lut_table("fixture_lut_init<false>()") == [1.0, 0.5, 0.125, 2.0, 4.0, 0.0,
                                                            0.0, 0.25, 0.75, 1.5, 3.0, 1.0]
    with pytest.raises(FactsError, match="fixture_scale_init does not load LReg0-2"):
        facts.lut_table("fixture_scale_init<false>()")


def test_the_near_zero_floor_covers_band_lanes_within_its_atol_only():
    # SFPU_ULP.md / tt-llk's within_ulp: a lane is covered when |golden| is under 1% of the cell's
    # largest finite golden and at most atol/0.01, and its absolute error is at most atol; a band
    # lane further off is ranked on its steps.
    atol = 1e-3
    golden = np.array([100.0, 0.05, 0.1, 0.1, 0.2, 0.0, np.inf])
    result = np.array([100.0, 0.0505, 0.1, 0.102, 0.2, 0.0, np.inf])
    mask = np.array([True, True, True, True, True, False, True])
    covered = sw.near_zero_lanes(golden, result, mask, atol)
    # 0.1 is exactly atol/0.01 (in the band); 0.2 is past it; the masked-out lane is never covered;
    # +inf does not count as the largest golden.
    assert covered.tolist() == [False, True, True, False, False, False, False]
