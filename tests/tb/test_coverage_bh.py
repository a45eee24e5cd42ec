"""Blackhole's coverage bins: their layout comes from Blackhole's ISA table,
and each stall cause, each gap hazard and each new mode value is hit by a
program that, by the BlackholeA0 pages, must hit it (SFPMAD.md "Instruction
scheduling": a MAD-class result read by the next instruction stalls the
thread a cycle, except through the listed gaps; SFPSWAP.md and SFPSHFT2.md:
only SFPNOP follows SFPSWAP and SFPSHFT2 modes 2-4). A short `sfpu regress
--arch blackhole --backend model` hits every hazard-rule bin, because its
break programs break the rules in turn."""

from __future__ import annotations

import json

import pytest

from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.hazards import GAP_RULES, RULES, WARNING_RULES
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.model.run import run_program
from tensix_sfpu.tb.cli import main as cli
from tensix_sfpu.tb.campaigns.coverage import LAYOUTS, Coverage, collect

BH = Arch.BLACKHOLE
# The MAD-class instructions after which Blackhole's stall logic holds a reader
# (SFPMAD.md, and the pages that refer to it), each writing L4.
MAD_CLASS = {
    "SFPMAD": "sfpmad vd=4 va=1 vb=2 vc=0 mod1=0",
    "SFPADD": "sfpadd vd=4 va=1 vb=2 vc=0 mod1=0",
    "SFPMUL": "sfpmul vd=4 va=1 vb=2 vc=9 mod1=0",
    "SFPADDI": "sfpaddi vd=4 imm16=0x3F80 mod1=0",
    "SFPMULI": "sfpmuli vd=4 imm16=0x4000 mod1=0",
    "SFPLUT": "sfplut vd=4 mod0=0",
    "SFPLUTFP32": "sfplutfp32 vd=4 mod1=0 mod1_mirror=0",
    "SFPMUL24": "sfpmul24 vd=4 va=1 vb=2 vc=9 mod1=0",
}
READ_L4 = "sfpmov vd=5 vc=4 mod1=0"


def cov_of(text: str, strict: bool = True) -> Coverage:
    return collect(assemble(".arch blackhole\n" + text, "<coverage test>"), strict=strict)


def stalls(cov: Coverage) -> dict[str, int]:
    return {k: v for k, v in cov.hits["events"].items() if k.startswith("stall") and v}


def test_blackhole_layout_comes_from_its_table():
    layout = LAYOUTS[BH]
    instr = layout["instruction x modifier"][0]
    for mnemonic in ("SFPLE", "SFPGT", "SFPMUL24", "SFPARECIP", "SFPPUSHC", "SFPAND", "SFPOR"):
        assert [b for b in instr if b.startswith(mnemonic + " mod1=")] == [f"{mnemonic} mod1={v}" for v in range(16)]
    wormhole = LAYOUTS[Arch.WORMHOLE]["instruction x modifier"][0]
    assert "SFPPUSHC" in wormhole and "SFPAND" in wormhole and not any(b.startswith("SFPLE") for b in wormhole)
    # Modes that are not a modifier: the 3-bit AddrMod, SFPSTOCHRND's 2-bit rounding mode and UseImm5.
    modes = set(layout["mode fields"][0])
    assert modes == ({f"{mn} addr_mod={v}" for mn in ("SFPLOAD", "SFPSTORE", "SFPLOADMACRO") for v in range(8)}
                     | {f"SFPSTOCHRND rnd_mode={v}" for v in range(4)} | {"SFPSTOCHRND use_imm5=0",
                                                                         "SFPSTOCHRND use_imm5=1"}
                     | {f"SFPLOADMACRO macro={v}" for v in range(4)})
    # Wormhole's: the 2-bit AddrMod and the 1-bit `stochastic` in their place.
    assert set(LAYOUTS[Arch.WORMHOLE]["mode fields"][0]) == (
        {f"{mn} addr_mod={v}" for mn in ("SFPLOAD", "SFPSTORE", "SFPLOADMACRO") for v in range(4)}
        | {"SFPSTOCHRND stochastic=0", "SFPSTOCHRND stochastic=1", "SFPSTOCHRND use_imm5=0", "SFPSTOCHRND use_imm5=1"}
        | {f"SFPLOADMACRO macro={v}" for v in range(4)})
    assert {b for b in layout["events"][0] if b.startswith("stall")} == (
        {"stall: only SFPNOP after SFPSWAP", "stall: only SFPNOP after SFPSHFT2"}
        | {f"stall: reads a result of {mn} in flight" for mn in MAD_CLASS})
    assert layout["hazard rules"][0] == [r for r in RULES if r not in WARNING_RULES]


@pytest.mark.parametrize("mnemonic", list(MAD_CLASS))
def test_a_read_of_each_mad_class_result_stalls_once(mnemonic):
    cov = cov_of(f".lreg 1 0x3F800000\n.lreg 2 0x40000000\n{MAD_CLASS[mnemonic]}\n{READ_L4}\n")
    assert stalls(cov) == {f"stall: reads a result of {mnemonic} in flight": 1}
    # One cycle later the result has landed: no stall.
    assert stalls(cov_of(f"{MAD_CLASS[mnemonic]}\nsfpnop\n{READ_L4}\n")) == {}


def test_no_stall_when_the_next_instruction_reads_something_else():
    assert stalls(cov_of(f"{MAD_CLASS['SFPMAD']}\nsfpmov vd=5 vc=3 mod1=0\n")) == {}


@pytest.mark.parametrize("first", ["sfpswap vd=1 vc=2 mod1=0", "sfpshft2 vd=1 vc=2 mod1=3"])
def test_only_sfpnop_after_swap_and_shft2_modes_2_to_4(first):
    mnemonic = first.split()[0].upper()
    assert stalls(cov_of(f"{first}\nsfpabs vd=3 vc=4 mod1=1\n")) == {f"stall: only SFPNOP after {mnemonic}": 1}
    assert stalls(cov_of(f"{first}\nsfpnop\nsfpabs vd=3 vc=4 mod1=1\n")) == {}
    # A one-cycle SFPSHFT2 mode locks nothing.
    assert stalls(cov_of("sfpshft2 vd=1 vc=2 mod1=5\nsfpabs vd=3 vc=4 mod1=1\n")) == {}


# A read at T+1 of the SFPMAD's L4 that the stall logic does not see, per gap.
GAP_READS = {
    "stall-gap-use-vb": "sfpand vd=3 vb=4 vc=5 mod1=1",        # looks at VD, reads VB
    "stall-gap-iadd": "sfpiadd vd=4 vc=3 mod1=0",               # reads VD, sees VC only
    "stall-gap-shft": "sfpshft vd=4 vc=3 mod1=0",
    "stall-gap-swap": "sfpswap vd=3 vc=4 mod1=1",               # compares in its first cycle
    "stall-gap-shft2": "sfpshft2 vd=3 vc=5 imm12=4 mod1=5",    # shifts by VB (Imm12), sees VD
}


@pytest.mark.parametrize("rule", list(GAP_READS))
def test_each_gap_hazard_has_its_bin(rule):
    cov = cov_of(f"{MAD_CLASS['SFPMAD']}\n{GAP_READS[rule]}\nsfpnop\n", strict=False)
    assert cov.hits["hazard rules"][rule] == 1
    assert stalls(cov) == {}


def test_the_config_and_lutfp32_mirror_gaps_have_their_bins():
    cov = cov_of("sfpmad vd=0 va=1 vb=2 vc=3 mod1=0\nsfpconfig vd=0\n", strict=False)
    assert cov.hits["hazard rules"]["stall-gap-config"] == 1
    # INDIRECT_VD (Mod1 bit 3) in Mod1 but not in the mirror: the L7 read is not seen.
    cov = cov_of(".lreg 7 5\nsfpmad vd=7 va=1 vb=2 vc=3 mod1=0\nsfplutfp32 vd=0 mod1=8 mod1_mirror=0\n",
                 strict=False)
    assert cov.hits["hazard rules"]["stall-gap-lutfp32-mirror"] == 1
    assert set(GAP_READS) | {"stall-gap-config", "stall-gap-lutfp32-mirror"} == set(GAP_RULES.values()) | {
        "stall-gap-lutfp32-mirror"}


def test_mode_fields_and_new_modifiers_are_counted():
    cov = cov_of("sfpload vd=1 mod0=3 addr_mod=5 imm10=0\nsfpstore vd=1 mod0=3 addr_mod=7 imm10=8\n"
                 "sfpstochrnd vd=2 vc=1 mod1=0 rnd_mode=2\nsfple vd=3 vc=1 mod1=1\nsfparecip vd=4 vc=1 mod1=2\n")
    modes, instr = cov.hits["mode fields"], cov.hits["instruction x modifier"]
    assert modes["SFPLOAD addr_mod=5"] == modes["SFPSTORE addr_mod=7"] == modes["SFPSTOCHRND rnd_mode=2"] == 1
    assert modes["SFPSTOCHRND use_imm5=0"] == 1 and sum(modes.values()) == 4
    assert instr["SFPLE mod1=1"] == instr["SFPARECIP mod1=2"] == instr["SFPSTOCHRND mod1=0"] == 1


def test_a_coverage_samples_only_its_own_architecture():
    with pytest.raises(ValueError, match="blackhole coverage cannot sample a wormhole run"):
        run_program(assemble("sfpnop\n"), SfpuState(Arch.WORMHOLE), on_cycle=Coverage(BH).sample)
    with pytest.raises(ValueError, match="cannot merge"):
        Coverage(Arch.WORMHOLE).merge(Coverage(BH))


def test_json_keeps_the_architecture():
    cov = cov_of(f"{MAD_CLASS['SFPMUL24']}\n{READ_L4}\n")
    again = Coverage.from_json(json.dumps(cov.to_json()))
    assert again.arch is BH and again.hits == cov.hits
    assert "arch" not in Coverage(Arch.WORMHOLE).to_json()           # Wormhole's form is unchanged
    assert cov.report_markdown().startswith("# Functional coverage, Blackhole A0")


def test_regress_on_the_blackhole_model_hits_every_hazard_rule(tmp_path, capsys):
    # Seed k's break program breaks the (k mod 22)-th documented rule, so 22 seeds break each once.
    seeds = len(RULES) - len(WARNING_RULES)
    code = cli.main(["regress", "--arch", "blackhole", "--backend", "model", "--kinds", "break,legal",
                     "--seeds", str(seeds), "--cycles", "30", "--jobs", "2", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["arch"] == "blackhole" and report["failures"] == [] and report["programs"] == 2 * seeds
    cov = Coverage.from_json(report["coverage"])
    assert cov.arch is BH and cov.unhit("hazard rules") == []
    assert "mode fields" in out and "Blackhole A0" in (tmp_path / "coverage.md").read_text()
