"""STALLWAIT in the SFPU-alone model (model.waits): it holds the thread while
the SFPU is busy when its block mask has the SFPU's bit and its conditions
the SFPU-busy one (STALLWAIT.md's tables, per architecture); then the block
lifts a cycle later (STALLWAIT.md L27). It takes no cycle when nothing holds
it, and the conditions the SFPU cannot see are taken as met."""

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.waits import sfpu_alone_hold

STALL_SFPU = 0x100
WAIT_SFPU = {isa.Arch.WORMHOLE: 1 << 14, isa.Arch.BLACKHOLE: 1 << 11}


def stallwait(block: int, condition: int) -> int:
    return (isa.STALLWAIT << 24) | (block << 15) | condition


@pytest.mark.parametrize("arch", list(WAIT_SFPU))
def test_holds_only_a_wait_on_the_sfpu_while_it_is_busy(arch):
    word = stallwait(STALL_SFPU, WAIT_SFPU[arch])
    assert sfpu_alone_hold(word, arch, sfpu_busy=True)
    assert sfpu_alone_hold(word, arch, sfpu_busy=False) is None
    assert sfpu_alone_hold(stallwait(1 << 6, WAIT_SFPU[arch]), arch, True) is None     # blocks the FPU only
    assert sfpu_alone_hold(stallwait(STALL_SFPU, 1 << 7 if arch is isa.Arch.WORMHOLE else 1 << 4), arch, True) is None


@pytest.mark.parametrize("arch", list(WAIT_SFPU))
def test_a_wait_after_a_two_cycle_result_delays_the_next_instruction(arch):
    wait = f"TTI_STALLWAIT(256, {WAIT_SFPU[arch]});\n"
    mad = "sfpmad va=10 vb=10 vc=9 vd=0\n"      # lands at the end of T+1
    plain = run_program(assemble(mad + "sfpnop\n", arch=arch))
    waited = run_program(assemble(mad + wait + "sfpnop\n", arch=arch))
    # The MAD issues at 0 and is in flight in cycle 1: the wait holds cycle 1, the block lifts at 2,
    # and the SFPNOP issues in cycle 3 instead of 1.
    assert [c for c, i in sorted(plain.issued_from.items())] == [0, 1]
    assert [c for c, i in sorted(waited.issued_from.items())] == [0, 3]
    assert [r.waiting is not None for r in waited.trace[:3]] == [False, True, True]


def test_a_wait_with_nothing_in_flight_takes_no_cycle():
    result = run_program(assemble("sfpnop\nTTI_STALLWAIT(256, 16384);\nsfpnop\n"))
    assert result.cycles == 2 and result.instructions == 2
