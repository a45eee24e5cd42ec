"""The configuration registers: two write ports in order (the later wins on a
lane), each register keeping its own width, reset to the model's values; and
the backdoor template load of a thread instruction against the model's
`Machine.execute` with VD 12-15 and random DISABLE_BACKDOOR_LOAD."""

import numpy as np
from amaranth import Module
from amaranth.back import verilog
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.hdl.config_regs import ConfigRegs, ConfigRegWrite, ConfigTarget, backdoor_write
from tensix_sfpu.hdl.lregs import LaneValues
from tensix_sfpu.model.isa import ISA, Arch, decode
from tensix_sfpu.model.machine import Machine
from tensix_sfpu.model.state import LANE_CONFIG_MASK, MISC_MASK, LaneConfigBit, SfpuState
from tests.hdl.hdl_sim import run_clocked

WORMHOLE_ISA = ISA[Arch.WORMHOLE]

LANES = 32
U32 = np.uint32
ATTRIBUTE = {ConfigTarget.TEMPLATE: "macro_templates", ConfigTarget.SEQUENCE: "macro_sequences",
             ConfigTarget.MISC: "macro_misc", ConfigTarget.LANE_CONFIG: "lane_config"}
WIDTH_MASK = {ConfigTarget.MISC: MISC_MASK, ConfigTarget.LANE_CONFIG: LANE_CONFIG_MASK}


def lanes_int(values, width: int = 32) -> int:
    return sum(int(v) << (i * width) for i, v in enumerate(values))


def split(value: int, count: int, width: int) -> np.ndarray:
    return np.array([(value >> (i * width)) & ((1 << width) - 1) for i in range(count)], dtype=U32)


def pack_write(target: ConfigTarget, index: int, lanes: np.ndarray, values: np.ndarray) -> int:
    fields = dict(target=target.value, index=index, lanes=lanes_int(lanes.astype(int), 1), values=lanes_int(values))
    return sum(v << ConfigRegWrite[name].offset for name, v in fields.items())


def read_state(ctx, dut) -> dict[str, np.ndarray]:
    return {
        "lane_config": split(ctx.get(dut.lane_config.as_value()), LANES, 18),
        "macro_templates": split(ctx.get(dut.templates.as_value()), 4 * LANES, 32).reshape(4, LANES),
        "macro_sequences": split(ctx.get(dut.sequences.as_value()), 4 * LANES, 32).reshape(4, LANES),
        "macro_misc": split(ctx.get(dut.misc.as_value()), LANES, 12),
    }


def expected_state(state: SfpuState) -> dict[str, np.ndarray]:
    return {name: getattr(state, name) for name in ("lane_config", "macro_templates", "macro_sequences", "macro_misc")}


def test_writes_in_port_order_match_the_model_state():
    rng = np.random.default_rng(1)
    dut = ConfigRegs()
    state = SfpuState(Arch.WORMHOLE)                 # the reset values
    targets = list(ConfigTarget)
    errors = []

    async def bench(ctx):
        got = read_state(ctx, dut)
        for name, want in expected_state(state).items():
            if not np.array_equal(got[name], want):
                errors.append(f"reset {name}")
        for cycle in range(150):
            for port in dut.write:
                target = targets[rng.integers(0, len(targets))]
                index = int(rng.integers(0, 4))
                # Overlapping lanes on the two ports show which one wins.
                lanes = rng.random(LANES) < 0.6
                values = rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(U32)
                ctx.set(port.as_value(), pack_write(target, index, lanes, values))
                if target is ConfigTarget.NONE:
                    continue
                table = getattr(state, ATTRIBUTE[target])
                row = table[index] if target in (ConfigTarget.TEMPLATE, ConfigTarget.SEQUENCE) else table
                row[...] = np.where(lanes, values & U32(WIDTH_MASK.get(target, 0xFFFFFFFF)), row)
            await ctx.tick()
            got = read_state(ctx, dut)
            for name, want in expected_state(state).items():
                if not np.array_equal(got[name], want):
                    errors.append(f"cycle {cycle}: {name}")

    run_clocked(dut, bench)
    assert not errors, errors[:5]


class BackdoorBench(wiring.Component):
    """`backdoor_write` of a word feeding `ConfigRegs`."""
    valid: In(1)
    word: In(32)
    vd: In(5)
    preload: In(ConfigRegWrite)        # sets LaneConfig
    templates: Out(data.ArrayLayout(LaneValues, 4))

    def elaborate(self, platform):
        m = Module()
        regs = m.submodules.regs = ConfigRegs()
        write = backdoor_write(m, self.valid, self.word, self.vd, regs.lane_config)
        m.d.comb += [regs.write[0].eq(self.preload), regs.write[1].eq(write), self.templates.eq(regs.templates)]
        return m


def test_backdoor_template_load_matches_the_model():
    """Random thread words with VD 8-15 (not SFPCONFIG, whose VD selects a
    target) through the model's `Machine.execute`, which loads
    InstructionTemplate[VD-12] in the lanes with DISABLE_BACKDOOR_LOAD clear."""
    rng = np.random.default_rng(2)
    with_vd = [op for op in WORMHOLE_ISA.opcodes.values() if op.has("vd") and op.mnemonic != "SFPCONFIG"]
    dut = BackdoorBench()
    state = SfpuState(Arch.WORMHOLE)
    errors, loads = [], 0

    async def bench(ctx):
        nonlocal loads
        for step in range(150):
            disabled = rng.random(LANES) < 0.5
            if rng.random() < 0.2:
                disabled[:] = rng.random() < 0.5
            lane_config = disabled.astype(U32) << U32(LaneConfigBit.DISABLE_BACKDOOR_LOAD)
            state.lane_config[:] = lane_config
            ctx.set(dut.valid, 0)
            ctx.set(dut.preload.as_value(), pack_write(ConfigTarget.LANE_CONFIG, 0, np.ones(LANES, bool), lane_config))
            await ctx.tick()

            op = with_vd[rng.integers(0, len(with_vd))]
            vd = int(rng.integers(8, 16))
            word = (op.opcode << 24) | (int(rng.integers(0, 1 << 24)) & ~op.field_map["vd"].mask) \
                | op.field_map["vd"].insert(vd)
            valid = rng.random() < 0.9          # the thread's instruction runs
            before = state.macro_templates.copy()
            if valid:
                Machine(state, strict=False).execute(word)
            loads += int(not np.array_equal(before, state.macro_templates))
            ctx.set(dut.preload.as_value(), 0)
            ctx.set(dut.valid, valid)
            ctx.set(dut.word, word)
            ctx.set(dut.vd, vd)
            await ctx.tick()
            got = split(ctx.get(dut.templates.as_value()), 4 * LANES, 32).reshape(4, LANES)
            if not np.array_equal(got, state.macro_templates):
                errors.append(f"step {step}: {decode(word, state.arch).mnemonic} VD={vd} valid={valid}")

    run_clocked(dut, bench)
    assert not errors, errors[:5]
    assert loads > 30


def test_converts_to_verilog():
    assert "module config_regs" in verilog.convert(ConfigRegs(), name="config_regs")
    assert "module backdoor" in verilog.convert(BackdoorBench(), name="backdoor")
