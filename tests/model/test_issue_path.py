"""The issue path (model/issue_path.py) against the documented timing, worked
out by hand: each expected cycle below follows from the pages PATH_TIMING
cites (one instruction a cycle through each stage, the store queue, the wait
gate's one-cycle release lag, the MOP and replay expanders' rates)."""

import dataclasses

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import Instr, assemble
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model.issue_path import (BLOCK_ALL, PATH_TIMING, IssuePath, PathError, RvInstr, RvKind,
                                          expand_mop, fuse_ttinsn, held, riscv_schedule)
from tensix_sfpu.model.state import SfpuState

WH, BH = isa.Arch.WORMHOLE, isa.Arch.BLACKHOLE
SFPNOP = isa.encode("SFPNOP", WH)
# The documented timing alone, without the instruction cache's refills and jumps and the FPU-busy tail (the
# two fitted constants and the L1 latency they go with), for the tests that work each cycle out by hand.
DOCUMENTED = {arch: dataclasses.replace(PATH_TIMING[arch], icache_line_port_cycles=0, l1_latency=0, fpu_busy_tail=0)
              for arch in (WH, BH)}


def word(opcode: int, params: int = 0) -> int:
    return isa.OPCODE.insert(opcode) + params


MOVA2D, NOP = word(isa.MOVA2D), word(isa.NOP)
STALLWAIT_SFPU_ON_FPU = word(isa.STALLWAIT, (0x100 << 15) | (1 << 7))   # B8 blocked while C7 (WH: FPU busy)


def alu(pc=0, rd=0, rs=()):
    return RvInstr(pc, RvKind.ALU, rd, tuple(rs))


def push(w, pc=0, ttinsn=True, mop_cfg=()):
    return RvInstr(pc, RvKind.PUSH, words=(w,), ttinsn=ttinsn, mop_cfg=mop_cfg)


def program(text, arch=WH):
    return [i for i in assemble(text, "t.s", arch=arch).items]


def run(instrs, listing="", arch=WH, timing=None):
    path = IssuePath(CycleModel(SfpuState(arch=arch)), program(listing, arch), arch)
    path.timing = timing or DOCUMENTED[arch]
    return path.run(instrs, keep_events=True)


def issue_cycles(result):
    return [e.cycle for e in result.events if e.gate == "issue"]


# -- the RISC-V ------------------------------------------------------------------

def test_alu_results_feed_the_next_instruction_without_a_bubble():
    times = riscv_schedule([alu(0, 5), alu(4, 6, (5,)), alu(8, 7, (6,))], DOCUMENTED[WH])
    assert times.issue == [0, 1, 2]


def test_a_load_from_local_memory_delays_its_user_by_one_cycle():
    load = RvInstr(0, RvKind.LOAD, 5, (2,))
    times = riscv_schedule([load, alu(4, 6, (5,))], DOCUMENTED[WH])
    assert times.issue == [0, 2]                      # README.md: latency 2


def test_wormhole_mul_holds_the_integer_unit_two_cycles_blackhole_one():
    mul = RvInstr(0, RvKind.MUL, 5, (1, 2))
    assert riscv_schedule([mul, alu(4, 6)], DOCUMENTED[WH]).issue == [0, 2]
    assert riscv_schedule([mul, alu(4, 6)], DOCUMENTED[BH]).issue == [0, 1]


def test_a_mispredicted_branch_costs_the_documented_bubble():
    # A branch taken on its first sight is mispredicted (a counter starts weakly not-taken): WH 2, BH 4 cycles.
    branch = RvInstr(0, RvKind.BRANCH, rs=(1, 2), taken=True)
    assert riscv_schedule([branch, alu(8)], DOCUMENTED[WH]).issue == [0, 3]
    assert riscv_schedule([branch, alu(8)], DOCUMENTED[BH]).issue == [0, 5]
    # Taken again, it is now predicted: no bubble.
    times = riscv_schedule([branch, alu(8), branch, alu(8)], DOCUMENTED[WH])
    assert times.issue == [0, 3, 4, 5] and times.mispredicts == 1


def test_blackhole_fuses_up_to_four_adjacent_ttinsn():
    pushes = [push(SFPNOP, pc=4 * i) for i in range(6)]
    fused = fuse_ttinsn(pushes, PATH_TIMING[BH].ttinsn_fusion)
    assert [len(p.words) for p in fused] == [4, 2]
    assert fuse_ttinsn(pushes, PATH_TIMING[WH].ttinsn_fusion) == pushes
    # Stores to the instruction buffer are not fused.
    assert len(fuse_ttinsn([push(SFPNOP, 4 * i, ttinsn=False) for i in range(4)], 4)) == 4


# -- the frontend ------------------------------------------------------------------

def test_a_push_reaches_the_sfpu_four_stages_later_and_back_to_back_pushes_issue_one_a_cycle():
    # Pushed at RISC-V cycles 0..3: at the store queue's head 2 cycles later (IU, LSU), in the FIFO that
    # cycle, then one cycle each through the MOP expander, the replay expander and to the wait gate.
    result = run([push(SFPNOP, 4 * i) for i in range(4)], "TTI_SFPNOP;\n" * 4)
    assert result.push_cycles == [2, 3, 4, 5]
    assert issue_cycles(result) == [5, 6, 7, 8]


def test_pushes_spaced_by_the_riscv_loop_reach_the_sfpu_spaced_the_same():
    instrs = []
    for i in range(3):
        instrs += [push(SFPNOP, 0), alu(4, 5), alu(8, 6)]       # one push every three RISC-V cycles
    result = run(instrs, "TTI_SFPNOP;\n" * 3)
    assert issue_cycles(result) == [5, 8, 11]
    assert result.breakdown.frontend_empty > 0


def test_a_full_fifo_stalls_the_riscv():
    # Blackhole pushes four fused SFPNOPs a cycle; the SFPU takes one a cycle, so the FIFO (32, refilled
    # from 28) and the store queue (4) fill and the RISC-V waits: 400 instructions still take 400 cycles
    # at the SFPU, and the RISC-V, which would need 100, is held for most of the rest.
    pushes = [push(SFPNOP, 4 * i) for i in range(400)]
    result = run(pushes, "TTI_SFPNOP;\n" * 400, arch=BH)
    issued = issue_cycles(result)
    assert len(issued) == 400 and issued[-1] - issued[0] == 399
    assert result.breakdown.riscv_fifo_full >= 400 - 100 - (32 + 8 + 2 + 4 * 4)


def test_stallwait_holds_the_sfpu_until_the_fpu_is_done_plus_the_release_lag():
    # MOVA2D at the gate in cycle 5 keeps the FPU busy for 4 cycles (5-8, MatrixUnit.md); the STALLWAIT
    # goes to the sync unit in cycle 6; the condition clears in cycle 9 and the block lifts a cycle later.
    result = run([push(MOVA2D, 0), push(STALLWAIT_SFPU_ON_FPU, 4), push(SFPNOP, 8)], "TTI_SFPNOP;\n")
    gates = {e.cycle: e.gate for e in result.events if e.gate}
    assert gates[5] == "MOVA2D" and gates[6] == "STALLWAIT"
    assert [c for c, g in gates.items() if g == "wait"] == [7, 8, 9]
    assert issue_cycles(result) == [10]
    assert result.breakdown.waits == 3


def test_stallwait_whose_condition_is_already_met_still_holds_one_cycle():
    result = run([push(STALLWAIT_SFPU_ON_FPU, 0), push(SFPNOP, 4)], "TTI_SFPNOP;\n")
    assert issue_cycles(result) == [7]          # STALLWAIT at 5, held at 6 (the lag), issued at 7


def test_an_instruction_the_mask_does_not_block_passes_a_latched_wait():
    setrwc_is_fpu = word(isa.STALLWAIT, (0x100 << 15) | (1 << 7))   # blocks the SFPU (B8) only
    result = run([push(MOVA2D, 0), push(setrwc_is_fpu, 4), push(word(isa.SETC16, 1 << 16), 8)],
                 "TTI_SETC16(1, 0);\n")
    assert any(e.gate == "SETC16" and e.cycle == 7 for e in result.events)


def test_a_plain_nop_passes_a_wait_unless_every_unit_is_blocked_and_a_new_wait_queues():
    assert not held(NOP, 0x100, WH) and held(NOP, BLOCK_ALL, WH)
    assert held(STALLWAIT_SFPU_ON_FPU, 0x100, WH) and held(STALLWAIT_SFPU_ON_FPU, 0x80, WH)
    assert held(SFPNOP, 0x100, WH) and not held(SFPNOP, 0x40 | 0x80, WH)
    assert held(word(isa.SETRWC), 0x40, WH) and not held(word(isa.SETRWC), 0x100, WH)   # the FPU's


# -- the expanders ------------------------------------------------------------------

DATACOPY_CFG = (4, 2, NOP, word(isa.SETRWC, 3 << 22 | 3), NOP, MOVA2D, NOP, MOVA2D, MOVA2D)


def test_mop_template_1_expands_as_the_functional_model():
    out = expand_mop(word(isa.MOP, 1 << 23), DATACOPY_CFG, 0)
    setrwc = word(isa.SETRWC, 3 << 22 | 3)
    assert out == [MOVA2D, MOVA2D, setrwc] * 4


def test_mop_template_0_skips_where_the_mask_is_set():
    a0, b, skip = word(isa.MOVA2D, 1), word(isa.MOVB2D, 2), word(isa.ZEROACC, 3)
    cfg = (0, 1, b, a0, 0, 0, 0, skip, skip)
    out = expand_mop(word(isa.MOP, (2 << 16) | 0b010), cfg, 0)    # three iterations, the second masked
    assert out == [a0, b, skip, skip, a0, b]


def test_a_mop_before_its_configuration_is_an_error():
    with pytest.raises(PathError, match="MopCfg"):
        run([push(word(isa.MOP, 1 << 23))])


def test_mop_expansion_emits_one_a_cycle_then_idles_a_cycle():
    mop = push(word(isa.MOP, 1 << 23), 0, mop_cfg=DATACOPY_CFG)
    listing = "TTI_SETRWC(3, 0, 0, 0, 0, 3);\n" * 4 + "TTI_SFPNOP;\n"
    result = run([mop, push(SFPNOP, 4)], listing)
    gates = [(e.cycle, e.gate) for e in result.events if e.gate]
    # The MOP is in the FIFO at 2; its expansion leaves the expander at 3..14 and reaches the gate at 5..16.
    assert [c for c, _ in gates[:12]] == list(range(5, 17))
    # The SFPNOP waits out the transition penalty at 15 and leaves at 16: at the gate in 18.
    assert gates[-1] == (18, "issue")


def test_replay_plays_back_one_a_cycle_with_no_extra_cycle():
    record = word(isa.REPLAY, (0 << 14) | (2 << 4) | (1 << 1) | 1)    # record 2, executing them
    replay = word(isa.REPLAY, (0 << 14) | (2 << 4))
    sfpmov = isa.encode("SFPMOV", WH, vd=1, vc=0)
    listing = "TTI_REPLAY(0, 2, 1, 1);\nTTI_SFPNOP;\nTTI_SFPMOV(0, 0, 1, 0);\nTTI_REPLAY(0, 2, 0, 0);\n"
    result = run([push(record, 0), push(SFPNOP, 4), push(sfpmov, 8), push(replay, 12)], listing)
    # In the FIFO at 2..5: the REPLAY(load) is ingested by the replay expander at 4, the SFPNOP and SFPMOV
    # pass at 5 and 6 (gate 6, 7); the playback REPLAY is ingested at 7 with its first instruction.
    assert issue_cycles(result) == [6, 7, 8, 9]


def test_the_listing_must_match_what_the_riscv_pushed():
    with pytest.raises(PathError, match="the listing has"):
        run([push(isa.encode("SFPMOV", WH, vd=1, vc=0), 0)], "TTI_SFPNOP;\n")
    with pytest.raises(PathError, match="beyond the listing"):
        run([push(SFPNOP, 0)], "")


def test_an_unknown_tensix_opcode_is_named():
    with pytest.raises(PathError, match="opcode 0x"):
        run([push(word(0x7E if 0x7E not in isa.ISA[WH].by_opcode else 0x5F), 0)])


def test_a_ttsync_load_waits_for_the_coprocessor_to_drain():
    sync = RvInstr(0, RvKind.SYNC, 5, (1,))
    mark = RvInstr(0, RvKind.MARK, words=("phase",))
    result = run([push(MOVA2D, 0), push(STALLWAIT_SFPU_ON_FPU, 4), push(SFPNOP, 8), sync, mark], "TTI_SFPNOP;\n")
    # The SFPNOP issues at 10 (above); the load returns once nothing is in flight, and the marker after it.
    (kind, cycle), = result.marks
    assert kind == "phase" and cycle >= 11


# -- the instruction cache ---------------------------------------------------------------

def test_code_that_fits_the_cache_is_fetched_once():
    loop = [alu(4 * i) for i in range(64)]                 # 256 bytes, 16 lines: inside Wormhole T1's 512
    times = riscv_schedule(loop + loop, PATH_TIMING[WH])
    assert times.fetches == [16 * 0 + 4 * i for i in range(16)]   # each line once, on the first pass only


def test_code_larger_than_the_cache_misses_on_every_pass():
    loop = [alu(4 * i) for i in range(192)]                # 768 bytes: least recently used out, every line
    times = riscv_schedule(loop + loop, PATH_TIMING[WH])
    assert len(times.fetches) == 2 * 48
    # Blackhole's cache (4 KiB) holds it.
    assert len(riscv_schedule(loop + loop, PATH_TIMING[BH]).fetches) == 48


def test_a_jump_to_code_not_in_the_cache_waits_for_l1():
    timing = PATH_TIMING[WH]
    times = riscv_schedule([alu(0x100), alu(0x104), alu(0x2000)], timing)
    # The first fetch and the jump both wait the L1 latency; the sequential one was prefetched.
    assert times.issue == [timing.l1_latency, timing.l1_latency + 1, 2 * timing.l1_latency + 2]


def test_refills_take_the_memory_port_from_the_pushes():
    # 256 straight-line pushes (64 lines, twice Wormhole T1's cache): each line's refill takes
    # icache_line_port_cycles of the port the pushes need, so the SFPU sees them spread over that much longer.
    timing = dataclasses.replace(PATH_TIMING[WH], fpu_busy_tail=0)
    pushes = [push(SFPNOP, 4 * i) for i in range(256)]
    issued = issue_cycles(run(pushes, "TTI_SFPNOP;\n" * 256, timing=timing))
    spread = issued[-1] - issued[0] + 1
    expected = 256 + 64 * timing.icache_line_port_cycles
    assert expected - 2 <= spread <= expected + 2


def test_timing_records_are_per_architecture():
    assert PATH_TIMING[WH].fifo_depth == 16 and PATH_TIMING[BH].fifo_depth == 32
    assert dataclasses.replace(PATH_TIMING[WH], fifo_depth=1).fifo_depth == 1
