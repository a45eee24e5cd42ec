"""The Tensix instructions around the SFPU: SETRWC, INCRWC, REPLAY, SETC16.

Expected counter values follow tt-isa-documentation's functional models of
SETRWC and INCRWC, worked by hand; REPLAY follows its Replay Expander."""

import pytest

from tensix_sfpu.model.asm import AsmError, Instr, assemble
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import TensixRegs
from tensix_sfpu.model import tensix


def counters(source: str) -> TensixRegs:
    return run_program(assemble(source)).state.tensix


def test_llk_face_step_moves_dst_by_sixteen():
    # tt-llk steps to the next face with two SETRWC(CR_D, 8, SET_D): Dst = Dst_Cr + 8.
    t = counters("TTI_INCRWC(0, 2, 0, 0)\n" * 3 + "TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, "
                 "p_setrwc::SET_D)\n" * 2)
    assert (t.rwc_dst, t.rwc_dst_cr) == (16, 16)


def test_incrwc_plain_and_through_carry():
    t = counters("TTI_INCRWC(0, 5, 1, 2)\nTTI_INCRWC(4, 3, 0, 0)\nTTI_INCRWC(4, 3, 0, 0)")
    # Plain: Dst 5, Cr 0; through Cr twice: Cr 3 then 6, and Dst follows Cr.
    assert (t.rwc_dst, t.rwc_dst_cr, t.rwc_srcb, t.rwc_srca) == (6, 6, 1, 2)


def test_setrwc_c_to_cr_adds_the_counter_and_sets_dst_without_set_d():
    t = counters("TTI_INCRWC(0, 7, 0, 0)\nTTI_SETRWC(0, 8, 2, 0, 0, 0)")
    assert (t.rwc_dst, t.rwc_dst_cr) == (9, 9)


def test_setrwc_without_set_bits_changes_nothing():
    t = counters("TTI_INCRWC(0, 7, 3, 1)\nTTI_SETRWC(0, 7, 2, 2, 2, 0)")
    assert (t.rwc_dst, t.rwc_dst_cr, t.rwc_srcb, t.rwc_srca) == (7, 0, 3, 1)


def test_counter_instructions_take_one_issue_slot_each():
    result = run_program(assemble("TTI_INCRWC(0, 2, 0, 0)\nTTI_SETRWC(0, 0, 0, 0, 0, 4)\nsfpnop"))
    assert result.issue_cycles == 3 and all(not r.units for r in result.trace[:2])


def test_replay_records_and_plays_back():
    program = assemble("TTI_REPLAY(30, 3, 0, 1)\nsfpnop\nTTI_INCRWC(0, 1, 0, 0)\nsfpnop\n"
                       "TTI_REPLAY(31, 2, 0, 0)\nTTI_REPLAY(30, 3, 0, 0)")
    texts = [i.text for i in program.items]
    # Entries 30, 31, 0 hold NOP, INCRWC, NOP: the buffer wraps round its 32 entries.
    assert texts == ["TTI_INCRWC(0, 1, 0, 0)", "sfpnop", "sfpnop", "TTI_INCRWC(0, 1, 0, 0)", "sfpnop"]
    assert all(isinstance(i, Instr) and i.replayed_by is not None for i in program.items)


def test_replay_with_execute_issues_while_recording():
    program = assemble("TTI_REPLAY(0, 2, 1, 1)\nsfpnop\nTTI_INCRWC(0, 1, 0, 0)\nTTI_REPLAY(0, 2, 0, 0)")
    assert len(program.items) == 4 and program.items[0].replayed_by is None


@pytest.mark.parametrize("source, where, message", [
    ("TTI_REPLAY(0, 1, 0, 0)", ":1:", "nothing has recorded"),
    ("TTI_REPLAY(0, 1, 0, 1)\nsfpnop\nTTI_REPLAY(0, 0, 0, 0)", ":3:", "entry 1, which nothing"),
    ("TTI_REPLAY(0, 2, 0, 1)\nsfpnop", ":1:", "ends 1 instructions into"),
    ("TTI_REPLAY(0, 2, 0, 1)\nsfpnop\n.fp32_dest 1", ":3:", "inside the recording"),
    ("TTI_SETC16(40, 1)", ":1:12", "not one the SFPU reads"),
    ("TTI_SETRWC(0, 0, 0, 0, 0, 16)", ":1:27", "undefined"),
    ("TTI_INCRWC(8, 0, 0, 0)", ":1:12", "undefined"),
    ("TTI_INCRWC(0, 16, 0, 0)", ":1:15", "out of range"),
    ("TTI_MVMUL(0, 0, 0, 0)", ":1:1", "neither a Wormhole SFPU instruction"),
])
def test_bad_tensix_instructions_are_reported_where_they_are(source, where, message):
    with pytest.raises(AsmError) as e:
        assemble(source, "k.s")
    assert f"k.s{where}" in str(e.value) and message in str(e.value)


def test_setc16_becomes_the_addr_mod_it_writes():
    state = run_program(assemble("TTI_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, 2 | (1 << 11) | (7 << 13))\n"
                                 "TTI_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, 0x8143)\n"
                                 "TTI_SETC16(ADDR_MOD_BIAS_SEC6_BiasIncr_ADDR32, 0x11)\n"
                                 "TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1)\n"
                                 "TTI_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 12)")).state
    slot = state.tensix.addr_mods[6]
    assert (slot.dst_incr, slot.dst_clear, slot.dst_cr, slot.dst_c_to_cr) == (2, True, False, False)
    assert (slot.srca_incr, slot.srca_cr, slot.srca_clear) == (3, True, False)
    assert (slot.srcb_incr, slot.srcb_cr, slot.srcb_clear) == (1, False, True)
    assert (slot.bias_incr, slot.bias_clear) == (1, True)
    assert state.tensix.addr_mod_set_base and state.tensix.dest_offset == 12


def test_disassembly_round_trips():
    from tensix_sfpu.model.asm import disassemble
    for text in ("TTI_SETRWC(3, 8, 2, 5, 6, 15);", "TTI_INCRWC(7, 3, 2, 1);"):
        word = assemble(text).words[0]
        assert disassemble(word, arch=Arch.WORMHOLE) == text and tensix.is_issued(word)
