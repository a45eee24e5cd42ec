"""Block mode of the lock-step environment (tb.env.sfpu_env with tb.env.harness):
the same verdicts as one cycle at a time, and a check that fails by itself
on every kind of fault, before the per-cycle rerun adds the details.

One simulation of the harness on Amaranth's simulator runs every case."""

import random

import pytest

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.trace import LRegWriteRecord
from tensix_sfpu.tb.env.amaranth_cocotb import simulate
from tensix_sfpu.tb.campaigns.faults import FAULTS, first_difference_cycle, trigger_program
from tensix_sfpu.tb.env.harness import DIGEST_KEYS, SfpuHarness, lreg_digest
from tensix_sfpu.tb.stimulus.programs import resolve_all
from tensix_sfpu.tb.env.scoreboard import Mismatch
from tensix_sfpu.tb.env.sfpu_env import SfpuEnv, _BlockDifference

BLOCK = 16                      # small blocks, so that short programs span several
# Several blocks long, with directives between instructions (the random legal
# kind sets configuration and LRegs by directive).
PROGRAM = "random:legal:5:60"


def _lanes_only(trace):
    return [(r.compared()[:4], [(w.reg, w.lanes) for w in r.lreg_writes], r.compared()[5:]) for r in trace]


async def block_and_per_cycle_agree(dut):
    spec, = resolve_all(PROGRAM)
    assert any(item.__class__.__name__ == "Directive" for item in spec.program.items)
    # Every entry decoded in full too, and the fast comparison checked against it.
    block = SfpuEnv(dut, block=True, keep_rtl_trace=True)
    assert block.block == BLOCK
    by_block = await block.run(spec.program, name=spec.name)
    fast = await SfpuEnv(dut, block=True).run(spec.program, name=spec.name)
    assert fast.rtl_trace == [] and fast.cycles == by_block.cycles
    by_cycle = await SfpuEnv(dut, block=False).run(spec.program, name=spec.name)
    assert by_block.cycles == by_cycle.cycles > 2 * BLOCK
    assert [r.compared() for r in by_block.model_trace] == [r.compared() for r in by_cycle.model_trace]
    assert _lanes_only(by_block.rtl_trace) == _lanes_only(by_cycle.rtl_trace)
    # Block mode checks LReg values through the digest; one cycle at a time reads them.
    assert all(w.values == () for r in by_block.rtl_trace for w in r.lreg_writes)
    assert any(w.values for r in by_cycle.rtl_trace for w in r.lreg_writes)


async def block_check_catches_every_fault(dut):
    env = SfpuEnv(dut, block=True)
    missed = []
    for name in FAULTS:
        program, expected_at = trigger_program(name, Arch.WORMHOLE), first_difference_cycle(name, Arch.WORMHOLE)
        with FAULTS[name].inject():
            try:
                await env._run(program, name=name, seed=None, strict=False, allow=(), check_final=True, dst=None,
                               block=BLOCK)
                missed.append(f"{name}: not caught")
            except _BlockDifference as found:
                if found.difference.cycle != expected_at:
                    missed.append(f"{name}: cycle {found.difference.cycle}")
    assert not missed, missed


async def a_difference_reports_the_per_cycle_details(dut):
    name = "mad_round_bit"          # a wrong value in one lane: block mode sees only the digest
    expected_at = first_difference_cycle(name, Arch.WORMHOLE)
    with FAULTS[name].inject():
        with pytest.raises(Mismatch) as caught:
            await SfpuEnv(dut, block=True).run(trigger_program(name, Arch.WORMHOLE), name=name)
    assert caught.value.lane is not None and "value written to L" in caught.value.what
    assert caught.value.cycle == expected_at


def test_block_mode_on_amaranth():
    tests = [block_and_per_cycle_agree, block_check_catches_every_fault, a_difference_reports_the_per_cycle_details]
    outcomes = simulate([(t.__name__, t) for t in tests], make_top=lambda: SfpuHarness(block=BLOCK, arch=Arch.WORMHOLE))
    failed = [f"{o.name}: {o.message}" for o in outcomes if not o.passed]
    assert not failed, "\n".join(failed)


def _write(reg, values, lanes=0xFFFFFFFF):
    return LRegWriteRecord(reg, lanes, tuple(v if lanes >> i & 1 else 0 for i, v in enumerate(values)))


def test_digest_sees_every_lane_of_every_register_and_nothing_else():
    rng = random.Random(3)
    for reg in range(17):
        values = [rng.getrandbits(32) for _ in range(32)]
        base = lreg_digest([_write(reg, values)])
        for lane in range(32):
            changed = list(values)
            changed[lane] ^= 1 << rng.randrange(32)
            assert lreg_digest([_write(reg, changed)]) != base, (reg, lane)
        # Lanes outside the mask do not count, whatever the record holds there.
        assert lreg_digest([LRegWriteRecord(reg, 0b1, tuple(values))]) == lreg_digest([_write(reg, values, 0b1)])


def _halves(digest):
    return digest & 0xFFFFFFFF, digest >> 32


def test_digest_is_two_weighted_sums_modulo_two_to_the_32():
    a, b = _write(2, range(32)), _write(9, [0xFFFFFFFF] * 32, 0xF0F0F0F0)
    both, alone_a, alone_b = (_halves(lreg_digest(w)) for w in ([a, b], [a], [b]))
    assert both == tuple((x + y) % 2**32 for x, y in zip(alone_a, alone_b))
    one = _write(4, [0] * 7 + [0x3F800000] + [0] * 24, 1 << 7)
    assert _halves(lreg_digest([one])) == tuple(0x3F800000 * k % 2**32 for k in DIGEST_KEYS[4][7])
    assert all(k & 1 and k < 2**32 for keys in DIGEST_KEYS for pair in keys for k in pair)
