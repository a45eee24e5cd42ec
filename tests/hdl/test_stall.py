"""The thread's interlocks against the model's rules: the stall logic's
masks for every opcode and modifier value (`hdl.stall`), and Blackhole's
stalls in lock-step with the cycle model."""

import numpy as np
import pytest
from amaranth import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.hdl.stall import MASK_BITS, believed_reads, believed_writes, rule_mask
from tensix_sfpu.model import isa
from tensix_sfpu.model.hazards import stall_reads, stall_writes, stalls_after_mad
from tensix_sfpu.tb.sims.rtl_bench import run_lockstep
from tensix_sfpu.tb.stimulus.directed import directed_programs
from tests.hdl.hdl_sim import evaluate

BH = isa.Arch.BLACKHOLE
TABLE = isa.ISA[BH].table
MAD_CLASS = [op for op in TABLE if op.unit is isa.Unit.MAD]


class StallMasks(wiring.Component):
    word: In(32)
    reads: Out(MASK_BITS)
    writes: Out(MASK_BITS)

    def elaborate(self, platform):
        m = Module()
        reads = rule_mask(m, self.word, TABLE, believed_reads, "reads")
        writes = rule_mask(m, self.word, MAD_CLASS, believed_writes, "writes")
        m.d.comb += [self.reads.eq(reads), self.writes.eq(writes)]
        return m


def _words(per_opcode: int = 64) -> list[int]:
    rng = np.random.default_rng(7)
    return [op.opcode << 24 | int(low) for op in TABLE for low in rng.integers(0, 1 << 24, per_opcode)]


def _mask(regs) -> int:
    return sum(1 << r for r in regs)


def test_stall_masks_follow_the_model_for_every_opcode():
    words = _words()
    got = evaluate(StallMasks(), [{"word": w} for w in words], ["reads", "writes"])
    for word, out in zip(words, got):
        ins = isa.decode(word, BH)
        want = {"reads": _mask(stall_reads(ins)), "writes": _mask(stall_writes(ins)) if stalls_after_mad(ins) else 0}
        assert out == want, f"0x{word:08X} {ins.mnemonic}"


def test_the_mad_class_is_the_mad_sub_unit():
    """The instructions that arm the stall are the model's (stalls_after_mad)."""
    assert {op.mnemonic for op in TABLE if stalls_after_mad(isa.decode(op.opcode << 24, BH))} == \
        {op.mnemonic for op in MAD_CLASS}


@pytest.mark.parametrize("name", ["stalls"])
def test_blackhole_stalls_match_the_model(name):
    program = directed_programs(arch=BH)[name]
    [result] = run_lockstep([program])
    assert result.mismatch is None, str(result.mismatch)
    stalled = [r.cycle for r in result.model_trace if r.stalled is not None]
    # SFPADD, SFPMOV, the SFPXOR after INDIRECT_VD, the two words after the interlocks, SFPSTORE.
    assert len(stalled) == 6, stalled
    assert [r.cycle for r in result.rtl_trace if r.stalled is not None] == stalled
