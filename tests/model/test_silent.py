"""The silent-effect rules (model.silent) on short programs. Each expected
finding is read off the functional model of the page the rule cites: a write
the page drops, a store that writes nothing or half a datum, a configuration
write that lands somewhere other than its fields suggest, and an LReg that
SFPTRANSP or SFPSWAP overwrites while the code still relies on it."""

from __future__ import annotations

import numpy as np
import pytest

from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.hazards import RULES, rule_class
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.run import result_to_json, run_program
from tensix_sfpu.model.silent import SILENT_RULES, LiveValues
from tensix_sfpu.model.state import SfpuState

ARCHS = [Arch.WORMHOLE, Arch.BLACKHOLE]


def silent(text: str, arch: Arch = Arch.WORMHOLE, state: SfpuState | None = None) -> list[str]:
    program = assemble(text, arch=arch)
    result = run_program(program, state or SfpuState(arch=arch), strict=True)
    return [h.rule for h in result.hazards if rule_class(h.rule) == "silent-effect"]


def test_every_silent_rule_is_registered_with_its_page():
    for name, rule in SILENT_RULES.items():
        assert name in RULES and rule_class(name) == "silent-effect"
        assert ".md L" in rule.page, name


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("text, rule", [
    ("sfpmov vd=9 vc=0", "dropped-write"),                       # SFPMOV.md: VD < 8 || VD == 16
    ("sfploadi vd=10 mod0=0 imm16=0x3f80", "dropped-write"),    # SFPLOADI.md L37: if (VD < 8)
    ("sfpconfig vd=10 imm16=5 mod1=1", "config-selects-nothing"),   # SFPCONFIG.md L64
    ("sfpconfig vd=12 imm16=0x3f80 mod1=1", "config-constant-default"),   # SFPCONFIG.md L70-77
])
def test_an_instruction_that_does_less_than_its_fields_say_is_flagged(arch, text, rule):
    assert silent(text + "\n", arch) == [rule]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("text", [
    "sfpmov vd=1 vc=0",
    "sfpconfig vd=11 imm16=0 mod1=1",          # restoring L11's default is what Imm16 = 0 asks
    "sfpconfig vd=11 imm16=0x5555 mod1=9",      # a lane mask, not a value
    "sfpmov vd=12 vc=0",                        # the backdoor: the word goes to InstructionTemplate[0]
    "sfpstore vd=9 mod0=3 imm10=0",             # L8-L11 store their constants
    "sfpload vd=8 mod0=3 imm10=0",              # loads nothing, steps the counters: tt-llk's "dummy load"
])
def test_the_documented_ways_are_not_flagged(arch, text):
    assert silent(text + "\n", arch) == []


@pytest.mark.parametrize("arch", ARCHS)
def test_a_write_to_l12_with_the_backdoor_disabled_is_dropped(arch):
    # LaneConfig's DISABLE_BACKDOOR_LOAD (bit 1) set: VD = 12 is an LReg again, and one nothing writes.
    assert silent("sfpconfig vd=15 imm16=2 mod1=1\nsfpnop\nsfpmov vd=12 vc=0\n", arch) == ["dropped-write"]


@pytest.mark.parametrize("arch", ARCHS)
def test_store_from_l12_stores_nothing_unless_the_backdoor_is_disabled(arch):
    assert silent("sfpstore vd=12 mod0=3 imm10=0\n", arch) == ["store-from-constant"]
    assert silent("sfpconfig vd=15 imm16=2 mod1=1\nsfpnop\nsfpstore vd=12 mod0=3 imm10=0\n", arch) == []


@pytest.mark.parametrize("arch", ARCHS)
def test_blocked_dst_access_moves_nothing(arch):
    # LaneConfig bits 5 (BLOCK_SFPU_RD_FROM_DEST) and 4 (BLOCK_DEST_WR_FROM_SFPU) in every lane.
    assert silent("sfpconfig vd=15 imm16=0x20 mod1=1\nsfpload vd=0 mod0=3 imm10=0\n", arch) == ["dst-access-blocked"]
    assert silent("sfpconfig vd=15 imm16=0x10 mod1=1\nsfpstore vd=0 mod0=3 imm10=0\n", arch) == ["dst-access-blocked"]


@pytest.mark.parametrize("arch", ARCHS)
def test_a_bf16_store_into_a_32_bit_dst_names_the_halves_it_writes(arch):
    state = SfpuState(arch=arch)
    state.tensix.fp32_dest = True
    program = assemble("sfploadi vd=0 mod0=0 imm16=0x3f80\nsfpstore vd=0 mod0=2 imm10=0\n", arch=arch)
    result = run_program(program, state)
    [hazard] = [h for h in result.hazards if h.rule == "store-half-datum"]
    # Dst16b rows 0-3 are DstBits rows 0-3: the high halves of Dst32b rows 0-3 (Dst.md L11).
    assert "the high 16 bits of Dst32b rows 0-3" in hazard.message
    assert silent("sfploadi vd=0 mod0=0 imm16=0x3f80\nsfpstore vd=0 mod0=3 imm10=0\n", arch, state) == []


def test_silent_effects_are_warnings_with_their_class_in_the_json():
    result = run_program(assemble("sfpmov vd=9 vc=0\nsfpnop\n"), strict=True)      # strict, and it runs on
    [entry] = result_to_json(result)["hazards"]
    assert (entry["rule"], entry["class"]) == ("dropped-write", "silent-effect")
    assert run_program(assemble("sfpmov vd=9 vc=0\n"), allow={"dropped-write"}).hazards[0].allowed


# -- clobbered-live ---------------------------------------------------------------

MARKED = ".mark body\n"


@pytest.mark.parametrize("arch", ARCHS)
def test_data_the_body_computes_and_transposes_is_not_flagged(arch):
    # Loaded, used, transposed, used again: tt-llk's cumsum and EMA do this with their data on purpose.
    assert silent(MARKED + "sfploadi vd=4 mod0=0 imm16=0x4000\nsfpmov vd=1 vc=4\nsfptransp\nsfpmov vd=1 vc=4\n",
                  arch) == []
    # Transposed back: L4 is the init's value again.
    assert silent("sfploadi vd=4 mod0=0 imm16=0x4000\n" + MARKED + "sfptransp\nsfptransp\nsfpmov vd=2 vc=4\n",
                  arch) == []


@pytest.mark.parametrize("arch", ARCHS)
def test_a_program_without_a_body_swaps_its_inputs_as_it_means_to(arch):
    assert silent(".lreg 4 0x40000000\nsfptransp\nsfpmov vd=2 vc=4\n", arch) == []


@pytest.mark.parametrize("arch", ARCHS)
def test_state_kept_from_before_the_body_counts_as_in_use(arch):
    before = "sfploadi vd=4 mod0=0 imm16=0x4000\n"
    after = "sfptransp\nsfpmov vd=1 vc=4\n"
    assert silent(before + MARKED + after, arch) == ["clobbered-live"]
    assert silent(before + MARKED + "sfptransp\nsfploadi vd=4 mod0=0 imm16=0x4000\nsfpmov vd=1 vc=4\n", arch) == []


@pytest.mark.parametrize("arch", ARCHS)
def test_sfpswap_writes_vc_as_well(arch):
    # A threshold kept in L1 from before the body; the swap (min/max) puts the max into it.
    text = "sfploadi vd=1 mod0=0 imm16=0x3f00\n" + MARKED + "sfpswap vc=1 vd=0 mod1=1\nsfpnop\nsfpmov vd=2 vc=1\n"
    assert silent(text, arch) == ["clobbered-live"]


def test_live_values_follow_the_writer_of_the_overwritten_value():
    live = LiveValues()
    assert live.observe("SFPLOADI", "load", "a.s:1", 0, frozenset(), {4}) == []       # the init's
    live.body_begins()
    assert live.observe("SFPTRANSP", "transp", "a.s:3", 2, frozenset(range(8)), set(range(8))) == []
    assert live.observe("SFPMOV", "mov", "a.s:4", 3, frozenset({4}), {2}) == [(4, "transp", "a.s:3", 2, "a.s:1")]
    assert live.observe("SFPMOV", "mov", "a.s:5", 4, frozenset({4}), {3}) == []       # reported once
