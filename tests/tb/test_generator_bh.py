"""The random program generator on Blackhole: programs of Blackhole's own
table, legal where they promise to be, and a program that breaks each rule,
the stall logic's documented gaps among them."""

from __future__ import annotations

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import Instr
from tensix_sfpu.model.hazards import GAP_RULES, RULES, WARNING_RULES, HazardError, rule_class
from tensix_sfpu.model.run import run_program
from tensix_sfpu.tb.stimulus.generator import (ALSO_BROKEN, UNBREAKABLES, breakable, generate, generate_break, legal_opcodes,
                          modifier_values, program_text, undefined_modifiers)

BH, WH = isa.Arch.BLACKHOLE, isa.Arch.WORMHOLE
NEW_OPCODES = {"SFPLE", "SFPGT", "SFPMUL24", "SFPARECIP"}     # Blackhole's (docs/blackhole.md)


def decoded(program) -> list[isa.Instruction]:
    return [isa.decode(item.word, program.arch) for item in program.items if isinstance(item, Instr)]


def test_blackhole_programs_say_so_and_are_reproducible():
    text = program_text("legal", 3, 60, arch=BH)
    assert text.startswith(".arch blackhole\n")
    assert text == program_text("legal", 3, 60, arch=BH)
    assert text != program_text("legal", 4, 60, arch=BH)
    program = generate("legal", 3, 60, arch=BH)
    assert program.arch is BH
    assert {item.loc.file for item in program.items} == {"random-legal-seed3-blackhole"}


def test_the_wormhole_stream_of_a_seed_does_not_depend_on_blackhole():
    # The same seed on the two architectures: different programs, and the
    # Wormhole one is what it is without an architecture argument.
    assert program_text("macro", 2, 60, arch=WH) == program_text("macro", 2, 60, arch=WH)
    assert program_text("macro", 2, 60, arch=BH) != program_text("macro", 2, 60, arch=WH)


@pytest.mark.parametrize("kind", ("legal", "macro", "flags"))
@pytest.mark.parametrize("seed", [0, 1])
def test_legal_kinds_run_clean_on_the_strict_blackhole_model(kind, seed):
    model = run_program(generate(kind, seed, 120, arch=BH), strict=True)
    # No timing rule broken (random data flow may break a silent-effect one, a warning).
    assert [h for h in model.hazards if rule_class(h.rule) != "silent-effect"] == []
    assert 120 <= model.cycles < 120 + 40


def test_legal_opcodes_come_from_blackholes_table():
    assert set(legal_opcodes(BH)) == set(isa.ISA[BH].opcodes) - {"SFPLOADMACRO"}
    assert NEW_OPCODES <= set(legal_opcodes(BH)) and not NEW_OPCODES & set(legal_opcodes(WH))


def test_legal_programs_use_every_blackhole_opcode_but_sfploadmacro_over_20_seeds():
    seen = set()
    for seed in range(20):
        seen |= {ins.mnemonic for ins in decoded(generate("legal", seed, 150, arch=BH))}
    assert seen == set(isa.ISA[BH].opcodes) - {"SFPLOADMACRO"}


def test_blackhole_fields_take_their_blackhole_values():
    """Over a few programs: AddrMod beyond Wormhole's two bits, every rounding
    mode, USE_VB, NEGATE_VB/VC, the arithmetic and immediate-with-VC shifts,
    SFPCAST's integer modes and SFPPUSHC's stack-top modes."""
    seen: dict[str, set[int]] = {}

    def note(key, value):
        seen.setdefault(key, set()).add(value)

    for seed in range(6):
        for kind in ("legal", "macro"):
            for ins in decoded(generate(kind, seed, 150, arch=BH)):
                mn = ins.mnemonic
                if mn in ("SFPLOAD", "SFPSTORE", "SFPLOADMACRO"):
                    note("addr_mod", ins["addr_mod"])
                elif mn == "SFPSTOCHRND":
                    note("rnd_mode", ins["rnd_mode"])
                elif mn in ("SFPAND", "SFPOR"):
                    note("use_vb", ins["mod1"] & 1)
                elif mn == "SFPMAD":
                    note("negate", ins["mod1"] & 3)
                elif mn == "SFPSHFT":
                    note("shft", ins["mod1"] & 7)
                elif mn == "SFPCAST":
                    note("cast", ins["mod1"] & 3)
                elif mn == "SFPPUSHC":
                    note("pushc", min(ins["mod1"], 1))
    assert seen["addr_mod"] == set(range(8))
    assert seen["rnd_mode"] == set(range(4))
    assert seen["use_vb"] == {0, 1} and seen["negate"] == {0, 1, 2, 3}
    assert {3, 5, 7} <= seen["shft"] and seen["cast"] == {0, 1, 2, 3} and seen["pushc"] == {0, 1}


def test_blackhole_programs_never_use_undefined_modifiers():
    undefined = undefined_modifiers(BH)
    for seed in range(3):
        for ins in decoded(generate("legal", seed, 150, arch=BH)):
            field = "mod0" if ins.op.has("mod0") else "mod1"
            assert ins.get(field) not in undefined.get(ins.mnemonic, {}), ins


def test_blackhole_modifier_values():
    # SFPPUSHC's Mod1 is Blackhole's only (Wormhole: reserved, no field).
    assert modifier_values("SFPPUSHC", BH) == list(range(16)) and modifier_values("SFPPUSHC", WH) == []
    assert modifier_values("SFPAND", BH) == list(range(16))
    assert modifier_values("SFPLOADI", BH) == [0, 1, 2, 4, 8, 10]


def test_every_documented_blackhole_rule_is_breakable_the_gaps_included():
    assert set(breakable(BH)) == set(RULES) - WARNING_RULES and set(UNBREAKABLES[BH]) == WARNING_RULES
    assert set(GAP_RULES.values()) <= set(breakable(BH))
    # Wormhole has no stall logic, so no gap of it.
    assert not {r for r in breakable(WH) if r.startswith("stall-gap-")}


@pytest.mark.parametrize("index", range(len(breakable(BH))), ids=list(breakable(BH)))
def test_blackhole_break_program_reports_its_rule(index):
    program, rule = generate_break(index, 60, arch=BH)
    assert program.arch is BH and rule == breakable(BH)[index]
    model = run_program(program, strict=False)
    assert {h.rule for h in model.hazards if rule_class(h.rule) != "silent-effect"} == \
        {rule} | ({ALSO_BROKEN[rule]} if rule in ALSO_BROKEN else set())
    with pytest.raises(HazardError) as err:
        run_program(program, strict=True)
    assert err.value.hazard.rule == rule
