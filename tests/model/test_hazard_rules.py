"""Each hazard rule whole (issue 39, item 5): a rule's name, text and the
condition the cycle model checks on what runs in a cycle are in one place,
model/hazards.py; the cycle model only calls the condition on the decoded
instructions and reports what it finds. (That no report changed is the
business of tests/model's cycle and race tests.)"""

import re
from pathlib import Path
from types import SimpleNamespace

from tensix_sfpu.model import hazards
from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.hazards import FIELD_RULES, RULES
from tensix_sfpu.model.isa import DEFAULT_ARCH, Unit
from tensix_sfpu.model.machine import word_operands

CYCLE = Path(hazards.__file__).with_name("cycle.py")

# The rules the cycle model finds itself, where no per-cycle condition could: a thread instruction discarded as it
# is accepted, the macro plan's configuration checks, the pending work left at the end, the semantics' undefined
# behaviour; and the silent-effect and contract rules of model.silent and model.contract.
FOUND_IN_THE_CYCLE_MODEL = {"discarded", "undefined", "macro-left-pending", "macro-select-reserved",
                            "macro-template-invalid", "macro-store-not-sfpstore", "store-not-all-lanes",
                            "macro-config-not-uniform", "clobbered-live", "state-left-changed"}


def _conditions() -> dict[str, list]:
    found: dict[str, list] = {}
    for value in vars(hazards).values():
        if callable(value) and hasattr(value, "rule"):
            found.setdefault(value.rule, []).append(value)
    return found


def test_every_rule_the_model_checks_per_cycle_has_its_condition_beside_it():
    conditions = _conditions()
    assert set(conditions) <= set(RULES)
    assert {"read-in-flight", "write-conflict", "shft2-next-cycle", "simple-round-vd16", "swap-mad-nop",
            "swap-next-cycle", "config-backdoor-next", *FIELD_RULES} <= set(conditions)


def test_the_cycle_model_names_no_rule_whose_condition_is_in_hazards():
    text = CYCLE.read_text()
    named = {rule for rule in RULES if re.search(rf"""["']{re.escape(rule)}["']""", text)}
    assert named <= FOUND_IN_THE_CYCLE_MODEL, sorted(named - FOUND_IN_THE_CYCLE_MODEL)
    assert not named & set(_conditions())


def _running(text: str, unit: Unit, origin: str = "thread"):
    """A stand-in for the cycle model's Execution: the decoded instruction on a sub-unit."""
    x = word_operands(assemble(text).words[0], DEFAULT_ARCH)
    return SimpleNamespace(unit=unit, x=x, origin=origin, mnemonic=x.ins.mnemonic, source=text, thread="",
                           effects=None, is_nop=x.ins.mnemonic == "SFPNOP",
                           label=lambda: f"{origin} {x.ins.mnemonic} on {unit.value}")


def test_a_condition_runs_on_decoded_instructions_alone():
    simple, rnd = _running("sfpabs vd=3 vc=1 mod1=1", Unit.SIMPLE), _running("sfpstochrnd vd=4 vc=2 mod1=0",
                                                                             Unit.ROUND)
    found = hazards.simple_round_vd16(simple, rnd)
    assert found.rule == "simple-round-vd16" and "(VD=3)" in found.message and "(VD=4)" in found.message
    assert hazards.simple_round_vd16(simple, _running("sfpnop", Unit.ROUND)) is None
    swap = _running("sfpswap vd=1 vc=2 mod1=0", Unit.SIMPLE)
    assert [f.rule for f in hazards.swap_next_cycle(swap, simple, rnd)] == ["swap-next-cycle"] * 2
    assert hazards.swap_next_cycle(simple, simple, rnd) == []
