"""tb/perf/rows.py: the silicon rows' data and the table docs/perf.md prints
from them (the runs themselves need the variants' source trees, outside the
project: `make perf-rows TREES=DIR`)."""

import pytest

from tensix_sfpu.tb.cli import perf_rows
from tensix_sfpu.tb.perf import rows
from tensix_sfpu.tb.perf.rows import Outcome, Row


def row(id, pair="p", side="A", silicon=100.0, cls="exact", fitted=None):
    return Row(id, pair, side, "wormhole", "k", "src", silicon, "MATH_ISOLATE", "t", "h.h", "f()", None, 0, [], "code",
               cls, fitted)


def test_every_row_names_its_source_settings_code_and_class():
    data = rows.load()
    assert len(data) >= 20
    for r in data:
        assert r.arch in ("wormhole", "blackhole") and r.silicon > 0
        assert r.source and r.settings and r.code and r.call and r.header.endswith(".h")
        assert r.cls in rows.CLASSES
        perf_rows._flags(r.flags)                       # every flag is one the runner passes on
    assert len({r.id for r in data}) == len(data)
    # At most three constants are fitted, each on one row.
    fitted = [r.fitted for r in data if r.fitted]
    assert len(fitted) == len(set(fitted)) <= 3


def test_pairs_compare_consecutive_sides_and_leave_controls_out():
    outcomes = [Outcome(row("a", side="A", silicon=200), 190.0), Outcome(row("i", side="I", silicon=150), 160.0),
                Outcome(row("b", side="B", silicon=100), 110.0), Outcome(row("c", side="control"), 50.0)]
    assert [(a.row.id, b.row.id) for _, a, b in rows.pairs(outcomes)] == [("a", "i"), ("i", "b")]
    table = rows.markdown(outcomes)
    assert "| p | A -> I | 1.33x | 1.19x | yes |" in table
    assert "| a | wormhole | exact | k | src | MATH_ISOLATE | code | 200.00 | 190.00 | -5.0% |" in table


def test_a_pair_pointing_the_other_way_is_said():
    outcomes = [Outcome(row("a", side="A", silicon=120), 100.0), Outcome(row("b", side="B", silicon=100), 110.0)]
    assert "| 1.20x | 0.91x | no |" in rows.markdown(outcomes)


def test_the_summary_judges_exact_rows_not_fitted_on():
    outcomes = [Outcome(row("a", silicon=100), 104.0), Outcome(row("b", silicon=100), 90.0),
                Outcome(row("f", silicon=100, fitted="x"), 100.0), Outcome(row("s", cls="sfpi"), 100.0)]
    assert rows.summary(outcomes) == "exact rows not fitted on: 1 of 2 within 5%"


def test_an_unknown_flag_or_class_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="--fast"):
        perf_rows._flags(["--fast"])
    bad = tmp_path / "rows.json"
    bad.write_text('[{"id": "x", "pair": "p", "side": "A", "arch": "wormhole", "kernel": "k", "source": "s", '
                   '"silicon": 1, "settings": "s", "tree": "t", "header": "h.h", "call": "f()", "init": null, '
                   '"fp32_dest": 0, "flags": [], "code": "c", "class": "guess", "fitted": null}]')
    with pytest.raises(ValueError, match="class 'guess'"):
        rows.load(bad)
