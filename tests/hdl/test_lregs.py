"""The LReg file: lane-indexed write ports in priority order, the constants,
and SFPTRANSP by remapping (every lane enabled) or by a masked move, checked
against a plain numpy register file and the model's SFPTRANSP."""

import numpy as np
import pytest
from amaranth.back import verilog

from hdl.lregs import L16, LANES, LRegFile
from model.isa import encode
from model.machine import Machine
from model.state import SfpuState, reset_lregs
from tests.hdl.hdl_sim import run_clocked

PORTS = 3
WRITABLE = (*range(8), 11, 12, 13, 14, L16)


def transpose_reference(lregs: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    """SFPTRANSP through the golden model, with `lanes` enabled (ROW_MASK and flags)."""
    state = SfpuState()
    state.lregs = lregs.copy()
    state.use_flags[:] = True
    state.lane_flags[:] = lanes
    Machine(state).execute(encode("SFPTRANSP"))
    return state.lregs


def random_program(rng, cycles: int):
    """Per cycle: three write ports (lane masks, per-lane registers, data) and maybe a transpose."""
    steps = []
    for _ in range(cycles):
        ports = []
        for _ in range(PORTS):
            active = rng.random() < 0.5
            en = rng.random(LANES) < 0.5 if active else np.zeros(LANES, dtype=bool)
            regs = rng.choice(WRITABLE, LANES) if rng.random() < 0.3 else np.full(LANES, rng.choice(WRITABLE))
            ports.append((en, regs, rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(np.uint32)))
        transpose = rng.random() < 0.4
        lanes = np.ones(LANES, dtype=bool) if rng.random() < 0.6 else rng.random(LANES) < 0.7
        steps.append((ports, transpose, lanes))
    return steps


def written_reference(ports, transpose, lanes) -> list[int]:
    """Lane mask of each register written in one cycle: the port writes, and
    every lane of L0-L7 an SFPTRANSP may write."""
    written = [0] * 17
    for en, regs, _ in ports:
        for lane in np.flatnonzero(en):
            written[regs[lane]] |= 1 << int(lane)
    if transpose:
        for reg in range(8):
            written[reg] |= int(sum(1 << int(i) for i in np.flatnonzero(lanes)))
    return written


def reference(steps, transpose_position: int):
    lr = reset_lregs()
    history = []
    for ports, transpose, lanes in steps:
        new = lr.copy()

        def apply(port):
            en, regs, values = port
            for lane in np.flatnonzero(en):
                new[regs[lane], lane] = values[lane]
        for port in ports[:transpose_position]:
            apply(port)
        if transpose:
            moved = transpose_reference(lr, lanes)
            new[:8] = np.where(lanes, moved[:8], new[:8])
        for port in ports[transpose_position:]:
            apply(port)
        lr = new
        history.append(lr.copy())
    return history


@pytest.mark.parametrize("seed", [1, 2])
def test_random_writes_and_transposes(seed):
    rng = np.random.default_rng(seed)
    steps = random_program(rng, 60)
    dut = LRegFile(PORTS, transpose_position=1)
    expected = reference(steps, 1)
    seen, mappings, written = [], set(), []

    async def bench(ctx):
        for ports, transpose, lanes in steps:
            mappings.add(ctx.get(dut.transposed))
            for port, (en, regs, values) in zip(dut.write, ports):
                ctx.set(port.en, int(sum(1 << i for i in np.flatnonzero(en))))
                for lane in range(LANES):
                    ctx.set(port.reg[lane], int(regs[lane]))
                    ctx.set(port.data[lane], int(values[lane]))
            ctx.set(dut.transpose, int(transpose))
            ctx.set(dut.transpose_lanes, int(sum(1 << i for i in np.flatnonzero(lanes))))
            written.append([ctx.get(dut.written[r]) for r in range(17)])
            await ctx.tick()
            seen.append(np.array([[ctx.get(dut.value[r][lane]) for lane in range(LANES)]
                                  for r in range(17)], dtype=np.uint32))

    run_clocked(dut, bench)
    for cycle, (got, want) in enumerate(zip(seen, expected)):
        np.testing.assert_array_equal(got, want, err_msg=f"cycle {cycle}")
    assert len(mappings) > 1          # both the remapping and the masked move were exercised
    for cycle, (step, got) in enumerate(zip(steps, written)):
        assert got == written_reference(*step), f"cycle {cycle}"


def test_transpose_twice_with_all_lanes_is_the_identity_and_flips_the_mapping():
    dut = LRegFile(1)
    rng = np.random.default_rng(3)
    values = rng.integers(0, 1 << 32, (8, LANES), dtype=np.uint64).astype(np.uint32)
    states = []

    async def bench(ctx):
        for reg in range(8):
            ctx.set(dut.write[0].en, (1 << LANES) - 1)
            for lane in range(LANES):
                ctx.set(dut.write[0].reg[lane], reg)
                ctx.set(dut.write[0].data[lane], int(values[reg, lane]))
            await ctx.tick()
        ctx.set(dut.write[0].en, 0)
        ctx.set(dut.transpose_lanes, (1 << LANES) - 1)
        for _ in range(2):
            ctx.set(dut.transpose, 1)
            await ctx.tick()
            states.append((ctx.get(dut.transposed),
                           np.array([[ctx.get(dut.value[r][l]) for l in range(LANES)] for r in range(8)])))
        ctx.set(dut.transpose, 0)

    run_clocked(dut, bench)
    full = reset_lregs()
    full[:8] = values
    once = transpose_reference(full, np.ones(LANES, dtype=bool))[:8]
    assert [flags for flags, _ in states] == [0b11, 0b00]      # remapped, not moved
    np.testing.assert_array_equal(states[0][1], once)
    np.testing.assert_array_equal(states[1][1], values)


def test_converts_to_verilog():
    assert "module lregs" in verilog.convert(LRegFile(2, 1), name="lregs")
