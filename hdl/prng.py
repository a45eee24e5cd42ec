"""The per-lane PRNG: a 32-bit LFSR in every lane.

An advance hands out the current state and shifts the register right by one,
feeding the XNOR of bits 31, 21, 1 and 0 into bit 31 (VectorUnit.md). Writing
a seed re-seeds every lane in one cycle: the seed is stepped 32 times, then
lane 31 takes it stepped twice more, lane 30 twice more again, and so on down
to lane 0 (the procedure docs/decisions.md describes).
"""

from amaranth import Cat, Module, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

LANES = 32
TAPS = (31, 21, 1, 0)


def lfsr_step(state):
    """The register after one shift, as an expression."""
    feedback = ~(state[TAPS[0]] ^ state[TAPS[1]] ^ state[TAPS[2]] ^ state[TAPS[3]])
    return Cat(state[1:32], feedback)


class Prng(wiring.Component):
    advance: In(LANES)                      # lanes whose PRNG an instruction consumes this cycle
    seed_write: In(1)
    seed: In(32)
    value: Out(data.ArrayLayout(32, LANES))  # each lane's current state: what an advance hands out

    def elaborate(self, platform):
        m = Module()
        state = [Signal(32, name=f"state_{lane}") for lane in range(LANES)]
        for lane in range(LANES):
            m.d.comb += self.value[lane].eq(state[lane])
            with m.If(self.advance[lane]):
                m.d.sync += state[lane].eq(lfsr_step(state[lane]))

        # Every step gets its own signal: as nested expressions the taps would
        # repeat the whole chain behind them at each step.
        chain = [self.seed]
        for i in range(32 + 2 * LANES):
            step = Signal(32, name=f"seed_step_{i + 1}")
            m.d.comb += step.eq(lfsr_step(chain[-1]))
            chain.append(step)
        with m.If(self.seed_write):
            for lane in range(LANES):
                m.d.sync += state[lane].eq(chain[32 + 2 * (LANES - lane)])
        return m
