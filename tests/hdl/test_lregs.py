"""The LReg file: write-back ports in priority order (one target register per
port, or one per lane), each reaching only its declared registers, the
constants, and SFPTRANSP as a masked move, checked against a plain numpy
register file and the model's SFPTRANSP."""

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.lregs import LANES, VD_TARGETS, WRITABLE, LRegFile, WriteBack
from tensix_sfpu.model.isa import encode
from tensix_sfpu.model.machine import Machine
from tensix_sfpu.model.state import SfpuState, reset_lregs
from tensix_sfpu.model.isa import Arch
from tests.hdl.hdl_sim import run_clocked

# A per-lane port, a port that reaches only L4-L7, one that reaches everything.
PORTS = (WriteBack(VD_TARGETS, per_lane=True), WriteBack((4, 5, 6, 7)), WriteBack(WRITABLE))


def transpose_reference(lregs: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    """SFPTRANSP through the golden model, with `lanes` enabled (ROW_MASK and flags)."""
    state = SfpuState(Arch.WORMHOLE)
    state.lregs = lregs.copy()
    state.use_flags[:] = True
    state.lane_flags[:] = lanes
    Machine(state).execute(encode("SFPTRANSP", state.arch))
    return state.lregs


def random_program(rng, cycles: int):
    """Per cycle: the PORTS' writes (lane masks, registers per lane, data) and maybe a transpose."""
    steps = []
    for _ in range(cycles):
        ports = []
        for spec in PORTS:
            active = rng.random() < 0.5
            en = rng.random(LANES) < 0.5 if active else np.zeros(LANES, dtype=bool)
            per_lane = spec.per_lane and rng.random() < 0.7
            regs = rng.choice(spec.targets, LANES) if per_lane else np.full(LANES, rng.choice(spec.targets))
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
    seen, written = [], []

    async def bench(ctx):
        for ports, transpose, lanes in steps:
            for spec, port, (en, regs, values) in zip(PORTS, dut.write, ports):
                ctx.set(port.en, int(sum(1 << i for i in np.flatnonzero(en))))
                if spec.per_lane:
                    for lane in range(LANES):
                        ctx.set(port.reg[lane], int(regs[lane]))
                else:
                    ctx.set(port.reg, int(regs[0]))
                for lane in range(LANES):
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
    transposes = [lanes for _, transpose, lanes in steps if transpose]
    assert any(lanes.all() for lanes in transposes) and not all(lanes.all() for lanes in transposes)
    for cycle, (step, got) in enumerate(zip(steps, written)):
        assert got == written_reference(*step), f"cycle {cycle}"


def test_transpose_twice_with_all_lanes_is_the_identity():
    dut = LRegFile([WriteBack(WRITABLE)])
    rng = np.random.default_rng(3)
    values = rng.integers(0, 1 << 32, (8, LANES), dtype=np.uint64).astype(np.uint32)
    states = []

    async def bench(ctx):
        for reg in range(8):
            ctx.set(dut.write[0].en, (1 << LANES) - 1)
            ctx.set(dut.write[0].reg, reg)
            for lane in range(LANES):
                ctx.set(dut.write[0].data[lane], int(values[reg, lane]))
            await ctx.tick()
        ctx.set(dut.write[0].en, 0)
        ctx.set(dut.transpose_lanes, (1 << LANES) - 1)
        for _ in range(2):
            ctx.set(dut.transpose, 1)
            await ctx.tick()
            states.append(np.array([[ctx.get(dut.value[r][l]) for l in range(LANES)] for r in range(8)]))
        ctx.set(dut.transpose, 0)

    run_clocked(dut, bench)
    full = reset_lregs()
    full[:8] = values
    once = transpose_reference(full, np.ones(LANES, dtype=bool))[:8]
    assert not np.array_equal(once, values)
    np.testing.assert_array_equal(states[0], once)
    np.testing.assert_array_equal(states[1], values)


def test_converts_to_verilog():
    assert "module lregs" in verilog.convert(LRegFile(PORTS, 1), name="lregs")


def test_a_port_reaches_only_its_targets():
    """A write naming a register outside the port's targets is not taken."""
    dut = LRegFile([WriteBack((4, 5, 6, 7))])
    got = []

    async def bench(ctx):
        for reg in (0, 5):
            ctx.set(dut.write[0].en, (1 << LANES) - 1)
            ctx.set(dut.write[0].reg, reg)
            for lane in range(LANES):
                ctx.set(dut.write[0].data[lane], 0x1234 + reg)
            got.append(ctx.get(dut.written[reg]))
            await ctx.tick()
        got.append([ctx.get(dut.value[r][0]) for r in (0, 5)])

    run_clocked(dut, bench)
    assert got == [0, (1 << LANES) - 1, [0, 0x1234 + 5]]
