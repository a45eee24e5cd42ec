"""tools/mutant_proofs.py without a netlist: its table against equivalent_mutants, and the UF rewrite on
a small miter. (The proofs themselves take a netlist of mutants and minutes: the tool's docstring.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.campaigns.equivalent_mutants import EQUIVALENT

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import mutant_proofs  # noqa: E402


@pytest.mark.parametrize("arch", list(Arch))
def test_the_table_proves_each_entry_that_cites_sat(arch):
    mutant_proofs.check_table(arch)


def test_every_proof_and_control_names_a_scope():
    for table in (mutant_proofs.PROOFS, mutant_proofs.CONTROLS):
        for proofs in table.values():
            assert {p.scope for p in proofs.values()} <= mutant_proofs.SCOPES.keys()


def test_a_reason_citing_sat_without_a_proof_is_refused(monkeypatch):
    arch = next(iter(mutant_proofs.PROOFS))
    monkeypatch.setitem(EQUIVALENT, arch, {**EQUIVALENT[arch], "-mode inv -cell x -port A -portbit 0": "(SAT"})
    with pytest.raises(mutant_proofs.ProofError, match="the table lacks"):
        mutant_proofs.check_table(arch)


def _multiplier(name: str, a: str, b: str, y: str) -> str:
    return (f"  cell $mul {name}\n    parameter \\A_WIDTH 2\n    parameter \\B_WIDTH 3\n    parameter \\Y_WIDTH 5\n"
            f"    connect \\A {a}\n    connect \\B {b}\n    connect \\Y {y}\n  end\n")


def test_the_mutated_copys_product_becomes_the_shared_one_when_the_operands_agree():
    miter = ("module \\miter\n" + _multiplier("$gold.m", "\\a", "\\b", "\\p")
             + _multiplier("$gate.m", "\\a2", "\\b", "\\q") + "end\n")
    text = mutant_proofs.uninterpreted_multiplier(miter)
    assert "$mul" not in text
    assert "connect \\A { \\a2 \\b }\n    connect \\B { \\a \\b }" in text
    assert "connect \\A \\uf_free\n    connect \\B \\p\n    connect \\S \\uf_same_operands\n    connect \\Y \\q" in text
    assert "parameter \\A_WIDTH 5" in text and text.endswith("  end\nend\n")
