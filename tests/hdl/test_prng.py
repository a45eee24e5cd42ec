"""The PRNG against the model's LFSR and seeding, with lane-selective advances."""

import numpy as np
from amaranth.back import verilog

from tensix_sfpu.hdl.prng import LANES, Prng
from tensix_sfpu.model.prng import prng_advance, prng_seed
from tests.hdl.hdl_sim import run_clocked


def test_seed_then_random_advances():
    rng = np.random.default_rng(5)
    seeds = [0, 1, 0xDEADBEEF, 0xFFFFFFFF]
    plan = [(seed, [rng.random(LANES) < 0.6 for _ in range(40)]) for seed in seeds]
    got = []

    async def bench(ctx):
        for seed, advances in plan:
            ctx.set(dut.seed, seed)
            ctx.set(dut.seed_write, 1)
            await ctx.tick()
            ctx.set(dut.seed_write, 0)
            for lanes in advances:
                got.append([ctx.get(dut.value[i]) for i in range(LANES)])
                ctx.set(dut.advance, int(sum(1 << i for i in np.flatnonzero(lanes))))
                await ctx.tick()
            ctx.set(dut.advance, 0)

    dut = Prng()
    run_clocked(dut, bench)
    expected = []
    for seed, advances in plan:
        state = prng_seed(seed)
        for lanes in advances:
            expected.append([int(v) for v in state])
            old, new = prng_advance(state)
            state = np.where(lanes, new, old).astype(np.uint32)
    assert got == expected


def test_converts_to_verilog():
    assert "module prng" in verilog.convert(Prng(), name="prng")
