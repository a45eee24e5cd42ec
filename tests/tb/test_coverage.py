"""Functional coverage: each bin is hit by a small program that, by the spec,
must hit it; merging adds; the JSON form round-trips."""

from __future__ import annotations

import json

from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.hazards import RULES, WARNING_RULES
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.campaigns.coverage import LAYOUT, Coverage, collect
from tensix_sfpu.tb.stimulus.directed import load_l0

NEG_POS = " ".join("0x80000001" if lane % 2 else "0x00000005" for lane in range(32))


def cov_of(text: str, strict: bool = True) -> Coverage:
    return collect(assemble(text, "<coverage test>"), strict=strict)


def macro_setup(templates: dict[int, str], sequences: dict[int, int], misc: int) -> str:
    lines = []
    for i, t in templates.items():
        lines += load_l0(assemble(t).words[0]) + [f"sfpconfig vd={i}"]
    for m, s in sequences.items():
        lines += load_l0(s) + [f"sfpconfig vd={4 + m}"]
    return "\n".join(lines + [f"sfpconfig vd=8 imm16={misc:#x} mod1=1"]) + "\n"


def test_instruction_x_modifier_counts_thread_instructions_by_their_modifier():
    cov = cov_of("sfpiadd vd=1 vc=2 imm12=3 mod1=5\nsfpiadd vd=1 vc=2 imm12=3 mod1=5\nsfpand vd=1 vc=2\n"
                 "sfploadi vd=2 mod0=10 imm16=1\nsfpstochrnd vd=1 vc=2 mod1=6\n")
    bins = cov.hits["instruction x modifier"]
    assert bins["SFPIADD mod1=5"] == 2 and bins["SFPAND"] == 1
    assert bins["SFPLOADI mod0=10"] == 1 and bins["SFPSTOCHRND mod1=6"] == 1
    assert sum(bins.values()) == 5


def test_undefined_modifiers_are_excluded_with_a_reason_not_dropped():
    cov = Coverage(Arch.WORMHOLE)
    excluded = cov.excluded["instruction x modifier"]
    assert "SFPLOADI mod0=3" in excluded and "SFPSHFT2 mod1=7" in excluded
    assert "SFPLOADI mod0=3" not in cov.hits["instruction x modifier"]
    assert all(reason for reason in excluded.values())
    assert "SFPLOADI mod0=3" in cov.report_markdown()


def test_lane_flag_patterns_with_use_flags_off_and_on():
    # Reset: flags clear, not in use. SFPIADD sets LaneFlags (sign of the
    # result) even without predication; SFPENCC EI turns predication on with
    # every flag set; SFPSETCC narrows to the negative lanes, CLEAR empties.
    text = f""".lreg 3 {NEG_POS}
    sfpnop
    sfpiadd vd=4 vc=3 imm12=0 mod1=1
    sfpencc mod1=2 imm2=1
    sfpsetcc vc=3 mod1=0
    sfpsetcc vc=3 mod1=8
    sfpencc mod1=2 imm2=0
    """
    bins = cov_of(text).hits["lane flags"]
    assert all(bins.values()), bins


def test_flag_stack_depth_zero_to_full():
    cov = cov_of("sfppushc\n" * 8 + "sfppopc mod1=0\n" * 8)
    bins = cov.hits["flag stack depth"]
    assert all(bins.values()) and bins["8"] == 1 and bins["0"] == 1


def test_load_and_store_formats_including_srcb_resolution():
    text = """.fp32_dest 0
    .srcb_format 1
    sfpload vd=0 mod0=0 imm10=0
    sfpstore vd=0 mod0=0 imm10=0
    .srcb_format 5
    sfpload vd=0 mod0=0 imm10=0
    .fp32_dest 1
    sfpstore vd=0 mod0=0 imm10=0
    sfpstore vd=0 mod0=5 imm10=0
    sfpload vd=0 mod0=13 imm10=0
    """
    cov = cov_of(text)
    loads, stores = cov.hits["SFPLOAD format"], cov.hits["SFPSTORE format"]
    assert {k for k, v in loads.items() if v} == {"0 SRCB as FP16", "0 SRCB as BF16", "13 INT8_COMP"}
    assert {k for k, v in stores.items() if v} == {"0 SRCB as FP16", "0 SRCB as FP32", "5 INT8"}


def test_macro_sub_unit_delay_and_kind():
    # Sequence 0: Simple runs template 0 with Delay 3; Store stores with Delay 5.
    # Misc bit 11 gives the Store sub-unit the instruction delay kind; Simple
    # keeps the cycle kind (the bin is the sub-unit's configured kind, even
    # though its counter then counts instructions too). The SFPLOADMACRO loads
    # with Mod0 3, and its store takes Mod0 from Misc (4).
    seq = (4 | 3 << 3) | (3 | 5 << 3) << 24
    text = macro_setup({0: "sfpiadd vd=0 vc=0 imm12=1 mod1=5"}, {0: seq}, misc=4 | 1 << 11)
    text += "sfploadmacro macro=0 vd=2 mod0=3 addr_mod=0 offset=8\n" + "sfpnop\n" * 8
    cov = cov_of(text)
    hit = {k for k, v in cov.hits["macro sub-unit x delay x kind"].items() if v}
    assert hit == {"simple delay=3 cycles", "store delay=5 instructions"}
    assert cov.hits["SFPLOAD format"]["3 FP32"] == 1
    assert cov.hits["SFPSTORE format"]["4 INT32"] == 1
    assert cov.hits["instruction x modifier"]["SFPLOADMACRO mod0=3"] == 1
    # Cycle-kind: the same sequence with Misc 0.
    text = macro_setup({}, {1: 2 | 6 << 3}, misc=0) + "sfploadmacro macro=1 vd=2 mod0=3 addr_mod=0\n"
    assert cov_of(text).hits["macro sub-unit x delay x kind"]["simple delay=6 cycles"] == 1


def test_swap_interlock_stall():
    cov = cov_of(".lreg 1 1\n.lreg 2 2\nsfpswap vd=1 vc=2 mod1=0\nsfpmov vd=3 vc=1\n")
    assert cov.hits["events"]["stall: only SFPNOP after SFPSWAP"] == 1
    assert cov_of("sfpswap vd=1 vc=2 mod1=0\nsfpnop\n").hits["events"]["stall: only SFPNOP after SFPSWAP"] == 0


def test_macro_discard_and_hazard_rules():
    # Simple runs template 0 at T+1 (Delay 0), when the thread's SFPXOR arrives.
    text = macro_setup({0: "sfpiadd vd=0 vc=0 imm12=1 mod1=5"}, {0: 0x04}, misc=0)
    text += "sfploadmacro macro=0 vd=2 mod0=3 addr_mod=0\nsfpxor vd=4 vc=5\n"
    cov = cov_of(text, strict=False)
    assert cov.hits["events"]["discarded on simple"] == 1
    assert cov.hits["hazard rules"]["discarded"] == 1
    assert sum(cov.hits["hazard rules"].values()) == 1


def test_macro_left_pending_is_counted_by_finish():
    text = macro_setup({0: "sfpiadd vd=0 vc=0 imm12=1 mod1=5"}, {0: 0x04 | 2 << 3}, misc=1 << 8)
    cov = cov_of(text + "sfploadmacro macro=0 vd=2 mod0=3 addr_mod=0\n", strict=False)
    assert cov.hits["hazard rules"]["macro-left-pending"] == 1


def test_every_hazard_rule_has_a_bin_or_a_reason():
    cov = Coverage(Arch.WORMHOLE)
    bins, excluded = set(cov.hits["hazard rules"]), set(cov.excluded["hazard rules"])
    assert bins | excluded == set(RULES) and not bins & excluded


def test_merge_adds_counts():
    a = cov_of("sfpand vd=1 vc=2\nsfpand vd=1 vc=2\n")
    b = cov_of("sfpand vd=1 vc=2\nsfpor vd=1 vc=2\n")
    expected = {g: {k: a.hits[g][k] + b.hits[g][k] for k in a.hits[g]} for g in a.hits}
    merged = Coverage(Arch.WORMHOLE).merge(a).merge(b)
    assert merged.hits == expected
    assert merged.hits["instruction x modifier"]["SFPAND"] == 3


def test_json_round_trip():
    cov = cov_of("sfpand vd=1 vc=2\nsfppushc\n")
    again = Coverage.from_json(json.loads(json.dumps(cov.to_json())))
    assert again.hits == cov.hits and again.excluded == cov.excluded
    assert Coverage.from_json(json.dumps(cov.to_json())).hits == cov.hits


def test_reports_name_every_group():
    cov = cov_of("sfpand vd=1 vc=2\n")
    summary, report = cov.summary(), cov.report_markdown()
    for group in LAYOUT:
        assert group in summary and f"## {group}" in report
    assert "SFPOR" in report                      # an unhit bin is listed


def test_wormhole_excludes_the_blackhole_stall_gaps():
    """Wormhole has no stall logic, so the seven holes the Blackhole pages list
    in theirs cannot be reported there: excluded with a reason, not unhit."""
    gaps = {"stall-gap-use-vb", "stall-gap-iadd", "stall-gap-shft", "stall-gap-config", "stall-gap-swap",
            "stall-gap-shft2", "stall-gap-lutfp32-mirror"}
    bins, excluded = LAYOUT["hazard rules"]
    assert set(excluded) == gaps | WARNING_RULES
    assert all("mad_stall" in reason for rule, reason in excluded.items() if rule in gaps)
    assert set(bins) == set(RULES) - gaps - WARNING_RULES
