"""Timing exploration (model.race), the front end's gap marks, threads, and
the rules from field reports. Expected values are worked out in the fixture
listings' comments (tests/model/race_fixtures)."""

from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model.asm import AsmError, assemble, assemble_file, join_threads
from tensix_sfpu.model.hazards import FIELD_RULES, RULES, rule_class
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.race import RaceInputError, explore, report_to_json, streams
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState

FIXTURES = Path(__file__).parent / "race_fixtures"
X = 0x1234_5678


def state_with(value: int, arch: Arch = Arch.WORMHOLE) -> SfpuState:
    """Dst row group 0 holding `value` in every lane as INT32 (fp32 Dst: rows 0-3 high halves, ...)."""
    state = SfpuState(arch=arch)
    rng = np.random.default_rng(7)
    state.dst = rng.integers(0, 1 << 16, size=state.dst.shape, dtype=np.uint16)
    program = assemble(f".fp32_dest 1\nsfploadi vd=1 mod0=10 imm16={value & 0xFFFF:#x}\n"
                       f"sfploadi vd=1 mod0=8 imm16={value >> 16:#x}\nsfpstore vd=1 mod0=4 addr_mod=0 imm10=0\n",
                       arch=arch)
    return run_program(program, state).state


def stored(state: SfpuState) -> set[int]:
    """The INT32 values an SFPLOAD of address 4 reads back (the fixtures' store)."""
    program = assemble(".fp32_dest 1\nsfpload vd=3 mod0=4 addr_mod=0 imm10=4\n", arch=state.arch)
    return set(int(v) for v in run_program(program, state.copy()).state.lregs[3])


# -- the front end: where a gap may fall --------------------------------------

def test_replay_playback_is_back_to_back_after_its_first_instruction():
    p = assemble("TTI_SFPNOP;\nTTI_REPLAY(0, 3, 0, 1);\nTTI_SFPNOP;\nTTI_SFPNOP;\nTTI_SFPNOP;\n"
                 "TTI_REPLAY(0, 3, 0, 0);\nTTI_REPLAY(1, 2, 0, 0);\n")
    # Line 1 is pushed; 3-5 are only recorded; the first playback issues 3, 4, 5;
    # the second plays entries 1-2 (lines 4, 5), its first again after a possible gap.
    assert [(i.loc.line, i.back_to_back) for i in p.items] == [
        (1, False), (3, False), (4, True), (5, True), (4, False), (5, True)]


def test_execute_while_loading_passes_the_threads_gaps_through():
    p = assemble("TTI_REPLAY(0, 2, 1, 1);\nTTI_SFPNOP;\nTTI_SFPNOP;\n")
    assert [i.back_to_back for i in p.items] == [False, False]


def test_issue_directive_marks_a_hand_written_run():
    p = assemble("sfpnop\n.issue back_to_back\nsfpnop\nsfpnop\nsfpnop\n.issue direct\nsfpnop\n")
    assert [i.back_to_back for i in p.items] == [False, False, True, True, False]
    assert not any(getattr(i, "name", None) == "issue" for i in p.items)


@pytest.mark.parametrize("text, where, words", [
    (".issue sometimes\n", "1:8", "back_to_back"),
    ("TTI_REPLAY(0, 2, 0, 1);\nsfpnop\n.issue direct\nsfpnop\n", "3:1", "inside the recording"),
])
def test_issue_directive_errors_say_where(text, where, words):
    with pytest.raises(AsmError) as err:
        assemble(text, "p.s")
    assert f"p.s:{where}" in str(err.value) and words in str(err.value)


# -- exploring gaps ---------------------------------------------------------------

def test_a_macro_racing_the_thread_is_timing_dependent():
    """gap_race.s: back to back the store reads L2 before the macro's +1 lands;
    one idle cycle before any of the three instructions after the macro lets it land first."""
    program = assemble_file(str(FIXTURES / "gap_race.s"))
    state = state_with(X)
    assert stored(run_program(program, state.copy(), strict=False).state) == {X}
    report = explore(program, state, max_gap=3, seeds=2)
    assert not report.deterministic
    smallest = report.divergences[0]
    assert smallest.schedule.kind == "single-gap" and smallest.schedule.gaps[0][1] == 1
    gap_line = report.ops[smallest.schedule.order[smallest.schedule.gaps[0][0]]].instr.loc.line
    assert gap_line in (21, 22, 23)                 # the two SFPNOPs and the SFPSTORE
    assert smallest.first["mnemonic"] == "SFPSTORE" and smallest.first["what"] == "different results"
    assert smallest.first["cycle"] == smallest.first["baseline_cycle"] + 1
    assert smallest.dst_cells == 32                 # the low halves of one INT32 row group
    # Every single gap of 1-3 cycles before those three instructions diverges: 9 schedules.
    singles = [d for d in report_to_json(report)["divergences"] if d["schedule"]["kind"] == "single-gap"]
    assert len(singles) == min(5, 9) and report.divergent_schedules >= 9


def test_a_spacing_kept_in_every_schedule_is_the_baseline_and_gaps_come_on_top():
    """With the pushes' real spacing leaving one idle cycle after the macro (`base_gaps`, as `sfpu race
    --perf-spacing` gives it), the macro's +1 lands before the store in the baseline itself, and no further
    gap can change that: deterministic, and the baseline one cycle longer."""
    program = assemble_file(str(FIXTURES / "gap_race.s"))
    state = state_with(X)
    plain = explore(program, state, max_gap=3, seeds=2)
    _, threads = streams(program)
    thread, ops = next(iter(threads.items()))
    first_nop = next(op.index for op in ops if op.instr.loc.line == 21)
    spaced = explore(program, state, max_gap=3, seeds=2, base_gaps={(thread, first_nop): 1})
    assert spaced.baseline_cycles == plain.baseline_cycles + 1
    assert spaced.deterministic and spaced.schedules_run > 0


def test_the_gapped_schedule_really_stores_the_increment():
    """The divergence is the one worked out in the fixture: X + 1 instead of X."""
    text = (FIXTURES / "gap_race.s").read_text().replace("sfpstore", "sfpnop\nsfpstore", 1)
    state = state_with(X)
    assert stored(run_program(assemble(text), state, strict=False).state) == {X + 1}


def test_back_to_back_playback_leaves_nothing_to_race():
    program = assemble_file(str(FIXTURES / "gap_race_back_to_back.s"))
    report = explore(program, state_with(X), max_gap=3, seeds=4)
    assert report.deterministic and report.divergences == []
    assert report.gaps_pruned == report.gap_points       # every gap point has nothing in flight


def test_a_program_without_macros_is_deterministic_without_running_a_gap():
    program = assemble(".fp32_dest 1\nsfpload vd=0 mod0=4 addr_mod=0 imm10=0\n"
                       "sfpiadd vd=0 vc=0 imm12=1 mod1=5\nsfpstore vd=0 mod0=4 addr_mod=0 imm10=4\n")
    report = explore(program, state_with(X), seeds=0)
    assert report.deterministic and report.schedules_run == 0 and report.gaps_pruned == 2


@pytest.mark.parametrize("max_gap", [0, 65, -1])
def test_gap_lengths_out_of_range_are_refused(max_gap):
    with pytest.raises(RaceInputError, match="1..64"):
        explore(assemble("sfpnop\n"), max_gap=max_gap)


def test_exploration_is_reproducible():
    program = assemble_file(str(FIXTURES / "gap_race.s"))
    a = report_to_json(explore(program, state_with(X), seeds=6))
    b = report_to_json(explore(program, state_with(X), seeds=6))
    assert a == b


# -- threads ------------------------------------------------------------------------

def two_threads():
    return join_threads([("math", assemble_file(str(FIXTURES / "math_recip_like.s"))),
                         ("pack", assemble_file(str(FIXTURES / "pack_exp_like_init.s")))])


def test_threads_run_one_after_another_with_registers_of_their_own():
    program = two_threads()
    assert [name for name, _ in program.threads] == ["math", "pack"]
    result = run_program(program, state_with(X), strict=False)
    assert stored(result.state) == {X + 1}          # the math thread's own template
    assert not [h for h in result.hazards if h.rule == "shared-macro-config"]


def test_another_threads_init_between_init_and_macro_is_caught():
    """pack's init between math's init and its SFPLOADMACRO: the macro adds 2,
    and the rule names the SFPLOADMACRO's line and the SFPCONFIG that wrote the template."""
    program = two_threads()
    report = explore(program, state_with(X), seeds=4)
    assert not report.deterministic
    assert report.divergent_rules.get("shared-macro-config", 0) >= 1
    hazards = [h for d in report.divergences for h in d.hazards if h.rule == "shared-macro-config"]
    assert hazards
    h = hazards[0]
    assert "math_recip_like.s:13:1: sfploadmacro" in h.source
    assert "InstructionTemplate[0]" in h.message and "pack_exp_like_init.s:8:1: sfpconfig vd=0" in h.message


def test_threads_of_two_architectures_are_refused():
    bh = assemble(".arch blackhole\nsfpnop\n", "bh.s")
    with pytest.raises(ValueError, match="different architectures"):
        join_threads([("math", assemble("sfpnop\n", "wh.s")), ("pack", bh)])


def test_each_thread_section_has_its_own_replay_buffer():
    with pytest.raises(AsmError, match="t.s:6:1: REPLAY of buffer entry 0, which nothing has recorded"):
        assemble(".thread math\nTTI_REPLAY(0, 1, 0, 1);\nsfpnop\nTTI_REPLAY(0, 1, 0, 0);\n.thread pack\n"
                 "TTI_REPLAY(0, 1, 0, 0);\n", "t.s")


@pytest.mark.parametrize("text, message", [
    ("sfpnop\n.thread math\nsfpnop\n", "t.s:1:1: an instruction before the first .thread section"),
    (".thread math\nsfpnop\n.thread math\nsfpnop\n", "t.s:3:1: thread math has a section already, at t.s:1:1"),
    (".thread 2math\n", "t.s:1:1: .thread expects one name"),
])
def test_thread_section_errors_say_where(text, message):
    with pytest.raises(AsmError) as err:
        assemble(text, "t.s")
    assert message in str(err.value)


# -- rules from field reports ------------------------------------------------------------

def hazards_of(text: str, arch: Arch = Arch.WORMHOLE, **kw):
    result = run_program(assemble(text, "r.s", arch=arch), **kw)       # strict: these warn, never stop
    return [h for h in result.hazards if h.rule in FIELD_RULES]


def test_field_rules_are_a_class_of_their_own():
    assert set(FIELD_RULES) <= set(RULES)
    assert {rule_class(r) for r in FIELD_RULES} == {"field-report"}
    assert rule_class("read-in-flight") == "documented"
    for rule in FIELD_RULES.values():
        assert rule.reports and rule.summary and rule.inferred


@pytest.mark.parametrize("arch", [Arch.WORMHOLE, Arch.BLACKHOLE])
def test_ten_2932_result_to_l4_l7_under_enable_dest_index(arch):
    text = "sfpconfig vd=15 mod1=1 imm16=4\nsfpiadd vd=5 vc=0 imm12=1 mod1=5\n"
    [h] = hazards_of(text, arch)
    assert h.rule == "ten-2932" and "r.s:2:1" in h.source and "L5" in h.message


@pytest.mark.parametrize("line", ["sfpload vd=5 mod0=4 addr_mod=0 imm10=0", "sfpiadd vd=3 vc=0 imm12=1 mod1=5",
                                  "sfpswap vd=5 vc=4 mod1=0", "sfpnop"])
def test_ten_2932_exemptions_and_l0_l3(line):
    assert hazards_of(f"sfpconfig vd=15 mod1=1 imm16=4\n{line}\n") == []


def test_ten_2932_needs_enable_dest_index():
    assert hazards_of("sfpiadd vd=5 vc=0 imm12=1 mod1=5\n") == []


ARMED = ".fp32_dest 1\nsfpconfig vd=8 imm16=0x100 mod1=1\n"
PLAIN = ("sfpload vd=0 mod0=4 addr_mod=0 imm10=0\nsfpiadd vd=0 vc=0 imm12=1 mod1=5\n"
         "sfpstore vd=0 mod0=4 addr_mod=0 imm10=0\n")


def test_armed_macro_config_before_plain_code_and_at_the_end():
    """PR#47675: the init armed Misc's UnitDelayKind, the plain loop never used it."""
    found = hazards_of(ARMED + PLAIN)
    assert [h.rule for h in found] == ["armed-macro-config", "armed-macro-config"]
    assert "r.s:3:1: sfpload" in found[0].source and "0x100" in found[0].message
    assert "ends with" in found[1].message and "r.s:2:1" in found[1].message


def test_disarmed_or_used_or_blackhole_is_not_armed():
    disarm = "sfpconfig vd=8 imm16=0 mod1=1\n"
    assert hazards_of(ARMED + disarm + PLAIN) == []
    # An SFPLOADMACRO uses the configuration: plain code after it is the macro kernel's own.
    assert hazards_of(ARMED + "sfploadmacro macro=0 vd=2 mod0=4 addr_mod=0 offset=0\n" + PLAIN) == []
    assert hazards_of(".arch blackhole\n" + ARMED + PLAIN, Arch.BLACKHOLE) == []


MACRO_STORE = (".fp32_dest 1\n"
               # Sequence[0]: Store = SFPSTORE (select 3) at delay 0: byte 0x03 in the store position
               "sfploadi vd=0 mod0=10 imm16=0\nsfploadi vd=0 mod0=8 imm16=0x0300\nsfpconfig vd=4\n"
               "sfpconfig vd=8 imm16=0 mod1=1\n"
               "sfploadmacro macro=0 vd=2 mod0=4 addr_mod=0 offset=0\n")    # line 6: its store runs at T+1


@pytest.mark.parametrize("nops, flagged", [(0, False), (1, True), (4, True), (5, False)])
def test_a_read_soon_after_a_macro_store(nops, flagged):
    """The SFPLOADMACRO at T schedules its store at T+1, which writes rows 0-3
    at the end of T+1. A load of address 0 after `nops` SFPNOPs runs at
    T+1+nops: in the store's own cycle it reads before the write lands (not a
    hazard); 1-4 cycles later it is flagged; 5 cycles later it is not."""
    text = MACRO_STORE + "sfpnop\n" * nops + "sfpload vd=3 mod0=4 addr_mod=0 imm10=0\n"
    found = hazards_of(text)
    assert [h.rule for h in found] == (["dst-read-after-macro-store"] if flagged else [])
    if flagged:
        assert f"{nops} cycle(s) before" in found[0].message


def test_the_spacing_is_a_parameter_and_plain_stores_are_not_flagged():
    from tensix_sfpu.model.cycle import CycleModel
    program = assemble(MACRO_STORE + "sfpnop\nsfpload vd=3 mod0=4 addr_mod=0 imm10=0\n")
    model = CycleModel(SfpuState(Arch.WORMHOLE), dst_read_spacing=0)
    from tensix_sfpu.model.run import walk
    for _ in walk(program, model):
        pass
    assert not [h for h in model.hazards if h.rule in FIELD_RULES]
    assert hazards_of(".fp32_dest 1\nsfpstore vd=0 mod0=4 addr_mod=0 imm10=0\n"
                      "sfpload vd=3 mod0=4 addr_mod=0 imm10=0\n") == []


def test_field_rules_never_stop_a_strict_run_and_allow_silences_them():
    result = run_program(assemble(ARMED + PLAIN), strict=True)
    assert {h.rule for h in result.hazards} == {"armed-macro-config"}
    allowed = run_program(assemble(".allow armed-macro-config\n" + ARMED + PLAIN), strict=True)
    assert all(h.allowed for h in allowed.hazards)
