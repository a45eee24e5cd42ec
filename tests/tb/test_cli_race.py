"""`sfpu race` and `sfpu run --thread`: exit statuses, the report and its
JSON, and bad input (tests/model/race_fixtures hold the programs)."""

import json
from pathlib import Path

import pytest

from tensix_sfpu.tb.cli.main import main

FIXTURES = Path(__file__).parents[1] / "model" / "race_fixtures"
RACE = FIXTURES / "gap_race.s"
B2B = FIXTURES / "gap_race_back_to_back.s"
MATH = FIXTURES / "math_recip_like.s"
PACK = FIXTURES / "pack_exp_like_init.s"


def run_cli(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_timing_dependent_exits_1_and_says_where(capsys, tmp_path):
    out_json = tmp_path / "race.json"
    code, out, err = run_cli(["race", RACE, "--seeds", "3", "--max-gap", "2", "--json", out_json], capsys)
    assert code == 1, err
    assert "TIMING-DEPENDENT" in out
    assert "single-gap: 1 idle cycle(s) before" in out and "gap_race.s:23:1: sfpstore" in out
    record = json.loads(out_json.read_text())
    assert record["deterministic"] is False and record["arch"] == "wormhole"
    assert record["schedules_run"] >= 6 and record["divergent_schedules"] >= 6
    first = record["divergences"][0]
    assert first["schedule"]["kind"] == "single-gap" and first["schedule"]["gaps"][0]["cycles"] == 1
    assert first["dst_cells_differ"] == 32 and first["first_difference"]["mnemonic"] == "SFPSTORE"


def test_deterministic_exits_0(capsys):
    code, out, err = run_cli(["race", B2B, "--seeds", "2"], capsys)
    assert code == 0, err
    assert "deterministic: the final Dst and LRegs are the same under every schedule run" in out


def test_nothing_to_explore_is_said(capsys, tmp_path):
    program = tmp_path / "one.s"
    program.write_text("sfpnop\n")
    code, out, err = run_cli(["race", program, "--seeds", "0"], capsys)
    assert code == 0, err
    assert "nothing to explore" in out


def test_threads_are_explored_and_the_shared_configuration_named(capsys, tmp_path):
    out_json = tmp_path / "threads.json"
    code, out, err = run_cli(["race", "--thread", f"math:{MATH}", "--thread", f"pack:{PACK}", "--seeds", "2",
                              "--json", out_json], capsys)
    assert code == 1, err
    assert "threads math, pack" in out and "shared-macro-config in" in out
    record = json.loads(out_json.read_text())
    assert record["threads"] == ["math", "pack"] and record["divergent_rules"]["shared-macro-config"] >= 1
    kinds = {d["schedule"]["kind"] for d in record["divergences"]}
    assert "switch" in kinds


def test_run_takes_threads_one_after_another(capsys, tmp_path):
    out_json = tmp_path / "run.json"
    code, out, err = run_cli(["run", "--thread", f"math:{MATH}", "--thread", f"pack:{PACK}", "--json", out_json],
                             capsys)
    assert code == 0, err
    assert json.loads(out_json.read_text())["instructions"] == 14


@pytest.mark.parametrize("argv, message", [
    (["race", RACE, "--max-gap", "0"], "1..64"),
    (["race", RACE, "--max-gap", "100000"], "1..64"),
    (["race", RACE, "--seeds", "-3"], "expected 0..100000"),
])
def test_bad_option_values_are_refused_by_the_parser(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (["race", "--thread", "math"], "expected NAME:LISTING"),
    (["race", RACE, "--thread", f"math:{MATH}"], "not both"),
    (["race"], "give a PROGRAM"),
    (["race", "--thread", f"math:{MATH}", "--thread", f"math:{PACK}"], "thread math is given twice"),
    (["race", RACE, "--backend", "verilator"], "explores timings on the cycle model"),
    (["run", "--thread", f"math:{MATH}", "--backend", "icarus"], "runs on the model only"),
    (["race", "--thread", f"math:{MATH}", "--thread", "pack:/no/such/file.s"], "no such file"),
])
def test_bad_input_is_a_clear_error(argv, message, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_thread_of_the_other_architecture_is_refused(capsys, tmp_path):
    bh = tmp_path / "bh.s"
    bh.write_text(".arch blackhole\nsfpnop\n")
    code, out, err = run_cli(["race", "--thread", f"math:{MATH}", "--thread", f"pack:{bh}"], capsys)
    assert code == 2 and "different architectures" in err and "bh.s (blackhole)" in err


MACRO_RACE = Path(__file__).parent / "llk_fixtures" / "ckernel_sfpu_fixture_macro_race.h"


def line_of(path: Path, text: str, nth: int = 0) -> int:
    return [i for i, line in enumerate(path.read_text().splitlines(), start=1) if text in line][nth]


def race_header(call: str, capsys, tmp_path):
    out_json = tmp_path / "race.json"
    code, out, err = run_cli(["race", MACRO_RACE, "--call", call, "--init", "fixture_macro_race_init<false>()",
                              "--fp32-dest", "1", "--seeds", "2", "--max-gap", "2", "--json", out_json], capsys)
    return code, out, err, json.loads(out_json.read_text())


def test_a_kernel_header_racing_its_macro_names_the_cxx_lines(capsys, tmp_path):
    code, out, err, record = race_header("calculate_fixture_macro_race<false, 8>()", capsys, tmp_path)
    assert code == 1, err
    store_line = line_of(MACRO_RACE, "TTI_SFPSTORE(p_sfpu::LREG2")
    first = record["divergences"][0]["first_difference"]
    assert first["mnemonic"] == "SFPSTORE"
    assert first["instruction"].startswith(f"{MACRO_RACE}:{store_line}: ")
    gap = record["divergences"][0]["schedule"]["gaps"][0]["before"]
    assert any(gap.startswith(f"{MACRO_RACE}:{line_of(MACRO_RACE, text)}: ")
               for text in ("TTI_SFPNOP;", "TTI_SFPSTORE(p_sfpu::LREG2"))


def test_the_same_row_played_from_the_replay_buffer_is_deterministic(capsys, tmp_path):
    code, out, err, record = race_header("calculate_fixture_macro_race_replayed<false, 8>()", capsys, tmp_path)
    assert code == 0, err
    assert record["deterministic"] is True and record["gap_points"] == record["gap_points_idle"]


def test_perf_spacing_keeps_the_pushes_real_spacing(capsys, tmp_path):
    code, out, err = run_cli(["race", MACRO_RACE, "--call", "calculate_fixture_macro_race<false, 8>()", "--init",
                              "fixture_macro_race_init<false>()", "--fp32-dest", "1", "--perf-spacing",
                              "--seeds", "2"], capsys)
    assert "the pushes' spacing from sfpu perf (one tile of math-isolate)" in out
    assert ".perf.s on wormhole" in out and code in (0, 1)


def test_perf_spacing_needs_a_header_and_a_call(capsys, tmp_path):
    listing = tmp_path / "k.s"
    listing.write_text("TTI_SFPNOP;\n")
    code, out, err = run_cli(["race", listing, "--perf-spacing"], capsys)
    assert code == 2 and "--perf-spacing needs a kernel header and --call" in err


def test_a_stallwait_before_the_store_is_listed_waited_on_and_removes_the_race(capsys, tmp_path):
    waited = "calculate_fixture_macro_race_waited<false, 8>()"
    code, out, err = run_cli(["llk", MACRO_RACE, "--call", waited, "--init", "fixture_macro_race_init<false>()",
                              "--fp32-dest", "1"],
                             capsys)
    wait_line = line_of(MACRO_RACE, "TTI_STALLWAIT(p_stall::STALL_SFPU, p_stall::WAIT_SFPU)")
    # p_stall::STALL_SFPU is block bit 8, WAIT_SFPU Wormhole's condition bit 14 (STALLWAIT.md).
    assert f"TTI_STALLWAIT(256, 16384);  # {MACRO_RACE}:{wait_line}" in out
    code, out, err = run_cli(["timeline", MACRO_RACE, "--call", waited, "--init", "fixture_macro_race_init<false>()",
                              "--fp32-dest", "1"], capsys)
    assert code == 0 and "wait: TTI_STALLWAIT(256, 16384);" in out
    code, out, err, record = race_header(waited, capsys, tmp_path)
    assert code == 0, err
    assert record["deterministic"] is True
