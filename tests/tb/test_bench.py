"""`sfpu bench` reports what it measured: the table has a row for every
measurement and names a backend that could not run. No speed is asserted."""

from tensix_sfpu.tb.campaigns import bench


def results(**rtl):
    return {"model": {"functional_instructions_per_s": 12000.0, "cycle_exact_instructions_per_s": 2500.0},
            "model_macro": {"cycle_exact_instructions_per_s": 1700.0},
            "fma": {"operands_per_s": 1.2e7},
            "verilog": {"sfpu_verilog_s": 50.0, "simulation_verilog_s": 90.0},
            "rtl": rtl, "synth": {"Fma": 5438}}


def row(text: str, name: str) -> str:
    """The value of the table's row `name` (the columns' width varies)."""
    return next(line[len(name):].strip() for line in text.splitlines() if line.startswith(name + "  "))


def test_table_has_every_measurement():
    text = bench.table(results(verilator={"checked_cycles_per_s": 800.0, "raw_cycles_per_s": 3000.0,
                                          "checked_per_cycle_cycles_per_s": 400.0,
                                          "checked_macro_cycles_per_s": 600.0, "held_cycles_per_s": 6500.0,
                                          "build_s": 150.0, "startup_s": 1.5, "generation_s": 30.0},
                               icarus={"error": "RunnerError: Icarus Verilog is not installed"}))
    assert "12,000 instructions/s" in text and "2,500 instructions/s" in text
    assert row(text, "golden model, cycle-exact, macros") == "1,700 instructions/s"
    assert "12,000,000 operands/s" in text
    assert "800 checked cycles/s (0.27 of raw)" in text and "3,000 cycles/s" in text and "build 150 s" in text
    assert row(text, "RTL on verilator, lock-step one cycle at a time") == "400 checked cycles/s"
    assert row(text, "RTL on verilator, lock-step, SFPLOADMACRO streams") == "600 checked cycles/s"
    assert "one word held" in text and "6,500 cycles/s" in text
    assert "RTL on icarus" in text and "not installed" in text
    assert "Fma 5,438" in text


def test_the_model_is_measured_on_a_fixed_program():
    first, second = bench.bench_model(("legal", 1, 300)), bench.bench_model(("legal", 1, 300))
    assert first["instructions"] == second["instructions"] > 250
    assert first["cycles"] == second["cycles"]


def test_table_has_the_sweep_when_it_ran():
    r = results()
    one = {"jobs": 1, "cells": 29, "seconds": 31.0, "tiles": 896, "model_seconds": 27.0,
           "model_seconds_per_tile": 0.03, "equal_to_hardware": 29}
    r["sweep"] = {"op": "Exp", "runs": [one, {**one, "jobs": 2, "seconds": 17.0, "model_seconds_per_tile": 0.015}]}
    assert row(bench.table(r), "sfpu sweep Exp --jobs 1") == "31 s for 29 cells, 896 tiles (30 ms of model per tile)"
    assert row(bench.table(r), "sfpu sweep Exp --jobs 2") == "17 s for 29 cells, 896 tiles (15 ms of model per tile)"
    r["sweep"] = None
    assert "sfpu sweep" not in bench.table(r)
