"""The Simple sub-unit against the golden model, on the state it leaves behind.

A small bench wires `SimpleUnit` to a real `LRegFile`, `FlagUnit` and
`ConfigRegs`, as the top does, plus a preload port on the LReg file and
preload writes of the configuration registers. One simulation runs a long
random sequence; each step:

1. preloads random values (FP specials, integer extremes, random words) into
   a random writable LReg of every lane, a random LaneConfig (ROW_MASK,
   DISABLE_BACKDOOR_LOAD, ENABLE_DEST_INDEX, EXCHANGE_SRCB_SRCC, ...) and a
   random template, sequence or Misc, and hands in random PRNG states;
2. runs one random word of a Simple-unit opcode (random Mod1, immediates and
   VD 0-15), either from the thread (`Machine.execute`, the backdoor template
   load applied through `backdoor_write`) or as an SFPLOADMACRO would issue
   it (`Machine.execute_operands` with VD 0-7 or 16 and free VB/VC);
3. compares LRegs, LaneFlags, UseLaneFlags, the flag stack, the
   configuration registers, the PRNG lanes advanced and the flag unit's
   undefined-behaviour report with the model. SFPSWAP's LReg writes must
   still be absent after its cycle and present one cycle later.

The flags and the stack are never preloaded: they evolve through the
predication instructions of the sequence (SFPENCC, SFPSETCC, SFPPUSHC,
SFPPOPC, SFPCOMPC, SFPIADD...), run on both sides.

Each architecture runs its own table on its own elaboration (Blackhole: the
new SFPLE, SFPGT and SFPARECIP, and the changed modes of SFPAND, SFPOR,
SFPSHFT, SFPCAST and SFPPUSHC among them).
"""

import sys

import numpy as np
import pytest
from amaranth import Module
from amaranth.back import verilog
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.hdl.config_regs import ConfigRegs, ConfigRegWrite, ConfigTarget, backdoor_write
from tensix_sfpu.hdl.flags import DEPTH, FlagUnit, StackEntry
from tensix_sfpu.hdl.lregs import LANES, NUM_LREGS, LRegFile, LRegLaneWrite, LaneValues, WriteBack, write_back
from tensix_sfpu.hdl.simple_unit import SWAP_PORTS, SimpleUnit
from tensix_sfpu.hdl.unit_io import ROW_MASK_LO, Issue, LaneConfig, LRegValues
from tensix_sfpu.model.isa import ISA, Arch, Unit, decode
from tensix_sfpu.model.machine import Machine, regular_operands
from tensix_sfpu.model.semantics import Operands
from tensix_sfpu.model.state import LANE_CONFIG_MASK, MISC_MASK, LaneConfigBit, SfpuState
from tests.hdl.hdl_sim import run_clocked

# The simulator writes constants as decimal Python source, and LRegValues
# (17 x 32 lanes x 32 bits) gives masks of more digits than Python allows by default.
sys.set_int_max_str_digits(0)

U32 = np.uint32
WRITABLE = (*range(8), 11, 12, 13, 14, 16)
SIMPLE = {arch: sorted(mn for mn, op in ISA[arch].opcodes.items() if op.unit is Unit.SIMPLE) + ["SFPNOP"]
          for arch in Arch}
# The predication instructions come more often, so the flags and the stack get around.
WEIGHT = {"SFPPUSHC": 4, "SFPPOPC": 4, "SFPENCC": 3, "SFPSETCC": 3, "SFPCOMPC": 2, "SFPSWAP": 2,
          "SFPCONFIG": 2, "SFPMOV": 2}
SPECIAL_WORDS = [
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF,
    0x7FFFFFFF, 0x00000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x3F800000, 0xBF800000, 0x4B7FFFFF,
    0xCB000001, 0x01000001, 0x81000081, 0x00000100, 0x00000005, 0xFFFFFFFB, 0x000007FF, 0x40490FDB,
]
THREAD_STEPS = 350
MACRO_STEPS = 150


def lanes_int(values, width: int = 32) -> int:
    out = 0
    for i, v in enumerate(values):
        out |= int(v) << (i * width)
    return out


def mask_int(bools) -> int:
    return lanes_int(np.asarray(bools, dtype=bool).astype(int), 1)


def split(value: int, count: int, width: int) -> np.ndarray:
    if width == 32:
        return np.frombuffer(value.to_bytes(4 * count, "little"), dtype="<u4").astype(U32)
    return np.array([(value >> (i * width)) & ((1 << width) - 1) for i in range(count)], dtype=U32)


def bools(value: int) -> np.ndarray:
    return ((value >> np.arange(LANES)) & 1).astype(bool)


def pack(layout, **fields) -> int:
    return sum(int(v) << layout[name].offset for name, v in fields.items())


# Everything the test drives, as one signal: each `ctx.set` makes the
# simulator settle the whole design, so the bench sets all inputs at once.
Drive = data.StructLayout({
    "issue": Issue,
    "backdoor": 1,                  # the thread's word has VD 12-15 and is not SFPCONFIG
    "prng": data.ArrayLayout(32, LANES),
    "preload": 1,                   # the configuration writes come from preload_config
    "preload_config": data.ArrayLayout(ConfigRegWrite, 2),
    "preload_lregs": LRegLaneWrite,
})


class Bench(wiring.Component):
    """SimpleUnit with the state it reads and writes, wired as in the top."""
    drive: In(Drive)

    def __init__(self, arch: Arch):
        self.arch = arch
        super().__init__()

    lregs: Out(LRegValues)
    lane_flags: Out(LANES)
    use_flags: Out(LANES)
    depth: Out(4)
    stack: Out(data.ArrayLayout(StackEntry, DEPTH))
    undefined: Out(1)
    lane_config: Out(LaneConfig)
    templates: Out(data.ArrayLayout(LaneValues, 4))
    sequences: Out(data.ArrayLayout(LaneValues, 4))
    misc: Out(data.ArrayLayout(12, LANES))
    prng_used: Out(1)
    prng_advance: Out(LANES)

    def elaborate(self, platform):
        m = Module()
        drive = self.drive
        unit = m.submodules.unit = SimpleUnit(self.arch)
        flags = m.submodules.flags = FlagUnit(self.arch)
        config = m.submodules.config = ConfigRegs()
        unit_ports = [*unit.landing, unit.write]      # in the LReg file's order, before the preload
        specs = [*SimpleUnit.LANDING_TARGETS, SimpleUnit.WRITE_TARGETS, WriteBack(WRITABLE, per_lane=True)]
        lregs = m.submodules.lregs = LRegFile(specs, transpose_position=SWAP_PORTS)

        m.d.comb += [unit.inputs.issue.eq(drive.issue), unit.inputs.enabled.eq(flags.enabled),
                     unit.inputs.lane_config.eq(config.lane_config), unit.lane_flags.eq(flags.lane_flags),
                     unit.use_flags.eq(flags.use_flags), unit.prng.eq(drive.prng),
                     unit.templates.eq(config.templates), unit.sequences.eq(config.sequences),
                     unit.misc.eq(config.misc)]
        # The LReg file presents its registers as an array of ports.
        m.d.comb += [unit.inputs.lregs[r].eq(lregs.value[r]) for r in range(NUM_LREGS)]
        m.d.comb += [self.lregs[r].eq(lregs.value[r]) for r in range(NUM_LREGS)]
        for port, request in zip(lregs.write, unit_ports):
            wiring.connect(m, unit=request, lregs=port)
        m.d.comb += write_back(lregs.write[-1], drive.preload_lregs)
        m.d.comb += [lregs.transpose.eq(unit.transpose), lregs.transpose_lanes.eq(unit.transpose_lanes)]
        wiring.connect(m, unit.flags, flags.request)
        for lane in range(LANES):
            m.d.comb += flags.row_masked[lane].eq(config.lane_config[lane % 8][ROW_MASK_LO + lane // 8])

        # The backdoor load runs before the instruction's own writes, as in the top.
        backdoor = backdoor_write(m, drive.backdoor, drive.issue.word, drive.issue.vd, config.lane_config)
        with m.If(drive.preload):
            m.d.comb += [config.write[i].eq(drive.preload_config[i]) for i in range(2)]
        with m.Else():
            m.d.comb += [config.write[0].eq(backdoor), config.write[1].eq(unit.config_write)]

        m.d.comb += [self.lane_flags.eq(flags.lane_flags),
                     self.use_flags.eq(flags.use_flags), self.depth.eq(flags.depth), self.stack.eq(flags.stack),
                     self.undefined.eq(flags.undefined), self.lane_config.eq(config.lane_config),
                     self.templates.eq(config.templates), self.sequences.eq(config.sequences),
                     self.misc.eq(config.misc), self.prng_used.eq(unit.prng_used),
                     self.prng_advance.eq(unit.prng_advance)]
        return m


def random_value(rng, n: int) -> np.ndarray:
    special = np.array(SPECIAL_WORDS, dtype=U32)[rng.integers(0, len(SPECIAL_WORDS), n)]
    random = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(U32)
    return np.where(rng.random(n) < 0.5, special, random)


def random_lane_config(rng) -> np.ndarray:
    bits = rng.random((LANES, 12)) < 0.35
    config = (bits.astype(np.uint32) << np.arange(12, dtype=np.uint32)).sum(axis=1).astype(U32)
    if rng.random() < 0.3:
        config |= (rng.integers(0, 16, LANES).astype(U32) << U32(ROW_MASK_LO))
    return config | (rng.integers(0, 4, LANES).astype(U32) << U32(16))


def mnemonics(rng, count: int, arch: Arch) -> list[str]:
    """`count` Simple-unit mnemonics: each at least three times, the rest by WEIGHT, shuffled."""
    simple = SIMPLE[arch]
    weights = np.array([WEIGHT.get(n, 1) for n in simple], dtype=float)
    names = simple * 3 + [simple[i] for i in rng.choice(len(simple), count - 3 * len(simple),
                                                        p=weights / weights.sum())]
    rng.shuffle(names)
    return names


def random_word(rng, mnemonic: str, arch: Arch) -> int:
    """A word of `mnemonic` with random fields, a few of them steered to useful values."""
    word = (ISA[arch].opcodes[mnemonic].opcode << 24) | int(rng.integers(0, 1 << 24))
    mod1 = word & 15
    if mnemonic == "SFPPOPC" and rng.random() < 0.5:
        mod1 = 0                                    # an actual pop
    elif mnemonic == "SFPPUSHC" and rng.random() < (0.9 if arch is Arch.WORMHOLE else 0.8):
        mod1 = 0                                    # a push (Wormhole: the must-be-zero bits)
    elif mnemonic == "SFPSWAP" and rng.random() < 0.8:
        mod1 = int(rng.integers(0, 9))              # the defined modes
    elif mnemonic == "SFPSETCC" and rng.random() < 0.5:
        mod1 = int(rng.choice([0, 2, 4, 6]))        # the register tests
    word = (word & ~15) | mod1
    if mnemonic == "SFPCONFIG" and rng.random() < 0.5:
        word = (word & ~0xF0) | int(rng.choice([8, 15])) << 4     # Misc and LaneConfig, 1/16 each otherwise
    return word


class Coverage:
    def __init__(self):
        self.seen: dict[str, int] = {}

    def add(self, what: str, hit: bool = True) -> None:
        if hit:
            self.seen[what] = self.seen.get(what, 0) + 1


def run(seed: int, thread_steps: int, macro_steps: int, arch: Arch = Arch.WORMHOLE) -> Coverage:
    rng = np.random.default_rng(seed)
    dut = Bench(arch)
    state = SfpuState(arch=arch)
    coverage = Coverage()
    steps = [("thread", mn) for mn in mnemonics(rng, thread_steps, arch)] + \
        [("macro", mn) for mn in mnemonics(rng, macro_steps, arch)]
    rng.shuffle(steps)
    errors: list[str] = []

    def check(label: str, got, want) -> None:
        if not np.array_equal(np.asarray(got), np.asarray(want)):
            errors.append(f"{label}: got {np.asarray(got).tolist()} want {np.asarray(want).tolist()}")

    async def bench(ctx):
        for step, (origin, mnemonic) in enumerate(steps):
            # -- 1. preload ------------------------------------------------------------
            regs = np.array(WRITABLE)[rng.integers(0, len(WRITABLE), LANES)]
            en = rng.random(LANES) < 0.9
            values = random_value(rng, LANES)
            state.lregs[regs[en], np.flatnonzero(en)] = values[en]
            preload_lregs = pack(LRegLaneWrite, en=mask_int(en), reg=lanes_int(regs, 5), data=lanes_int(values))
            lane_config = random_lane_config(rng) & U32(LANE_CONFIG_MASK)
            state.lane_config[:] = lane_config
            target = rng.choice([ConfigTarget.TEMPLATE, ConfigTarget.SEQUENCE, ConfigTarget.MISC])
            index = int(rng.integers(0, 4))
            lanes = rng.random(LANES) < 0.7
            config_values = random_value(rng, LANES)
            if target == ConfigTarget.MISC:
                state.macro_misc[:] = np.where(lanes, config_values & U32(MISC_MASK), state.macro_misc)
            else:
                table = state.macro_templates if target == ConfigTarget.TEMPLATE else state.macro_sequences
                table[index] = np.where(lanes, config_values, table[index])
            preload_config = [
                pack(ConfigRegWrite, target=ConfigTarget.LANE_CONFIG.value, lanes=(1 << LANES) - 1,
                     values=lanes_int(lane_config)),
                pack(ConfigRegWrite, target=target.value, index=index, lanes=mask_int(lanes),
                     values=lanes_int(config_values))]
            ctx.set(dut.drive.as_value(), pack(Drive, preload=1, preload_lregs=preload_lregs,
                                                preload_config=lanes_int(preload_config, ConfigRegWrite.size)))
            await ctx.tick()

            # -- 2. one instruction, on the model and on the bench --------------------------
            prng = random_value(rng, LANES)
            prng[prng == U32(0xFFFFFFFF)] = 0x12345678      # a fixed point of the LFSR hides an advance
            state.prng = prng.copy()
            word = random_word(rng, mnemonic, arch)
            ins = decode(word, arch)
            before = state.copy()
            machine = Machine(state, strict=False)
            if origin == "thread":
                x = regular_operands(ins)
                vd, vb, vc = x.vd, x.vb or 0, x.vc or 0
                backdoor = ins.get("vd") is not None and vd >= 12 and ins.mnemonic != "SFPCONFIG"
                effects = machine.execute(word)
            else:
                vd = int(rng.choice([*range(8), 16]))
                vb, vc = int(rng.integers(0, 16)), int(rng.integers(0, 16))
                backdoor = False
                effects = machine.execute_operands(Operands(ins, vd, vb, vc, macro=True))
            label = f"step {step} {origin} {ins.mnemonic} 0x{word:08X} vd={vd} vb={vb} vc={vc}"

            issue = pack(Issue, valid=1, macro=origin == "macro", opcode=ins.op.opcode, word=word, vd=vd, vb=vb, vc=vc)
            ctx.set(dut.drive.as_value(), pack(Drive, issue=issue, backdoor=backdoor, prng=lanes_int(prng)))
            prng_used, prng_advance = ctx.get(dut.prng_used), ctx.get(dut.prng_advance)
            undefined = ctx.get(dut.undefined)
            await ctx.tick()

            # -- 3. compare ----------------------------------------------------------------
            swap = ins.mnemonic == "SFPSWAP"
            lregs = split(ctx.get(dut.lregs.as_value()), NUM_LREGS * LANES, 32).reshape(NUM_LREGS, LANES)
            check(f"{label}: LRegs", lregs, before.lregs if swap else state.lregs)
            check(f"{label}: LaneFlags", bools(ctx.get(dut.lane_flags)), state.lane_flags)
            check(f"{label}: UseLaneFlags", bools(ctx.get(dut.use_flags)), state.use_flags)
            depth = ctx.get(dut.depth)
            check(f"{label}: stack depth", depth, len(state.flag_stack))
            for i, entry in enumerate(state.flag_stack[:depth]):
                check(f"{label}: stack[{i}].lane_flags", bools(ctx.get(dut.stack[i].lane_flags)), entry.lane_flags)
                check(f"{label}: stack[{i}].use_flags", bools(ctx.get(dut.stack[i].use_flags)), entry.use_flags)
            check(f"{label}: undefined", undefined, any("flag stack" in w for w in machine.warnings))
            check(f"{label}: LaneConfig", split(ctx.get(dut.lane_config.as_value()), LANES, 18), state.lane_config)
            check(f"{label}: templates", split(ctx.get(dut.templates.as_value()), 4 * LANES, 32).reshape(4, LANES),
                  state.macro_templates)
            check(f"{label}: sequences", split(ctx.get(dut.sequences.as_value()), 4 * LANES, 32).reshape(4, LANES),
                  state.macro_sequences)
            check(f"{label}: misc", split(ctx.get(dut.misc.as_value()), LANES, 12), state.macro_misc)
            check(f"{label}: PRNG used", prng_used, effects.prng is not None)
            check(f"{label}: PRNG advanced", bools(prng_advance), state.prng != prng)
            if swap:
                ctx.set(dut.drive.as_value(), 0)
                await ctx.tick()          # SFPSWAP's writes land at the end of the next cycle
                lregs = split(ctx.get(dut.lregs.as_value()), NUM_LREGS * LANES, 32).reshape(NUM_LREGS, LANES)
                check(f"{label}: LRegs after SFPSWAP lands", lregs, state.lregs)
            if errors:
                return

            coverage.add(f"{origin} {ins.mnemonic}")
            coverage.add("lreg written", bool(effects.lreg_writes))
            coverage.add("flags changed", effects.flags is not None)
            coverage.add("stack full", len(state.flag_stack) == DEPTH)
            coverage.add("config written", bool(effects.config_writes))
            coverage.add("prng advanced", bool((state.prng != prng).any()))
            coverage.add("backdoor load", backdoor and bool(effects.config_writes))
            lane_config_bit = before.lane_config_bit
            if swap and effects.lreg_writes:
                coverage.add("swap with dest index", bool(lane_config_bit(LaneConfigBit.ENABLE_DEST_INDEX).any()))
            if ins.mnemonic == "SFPTRANSP" and effects.lreg_writes:
                coverage.add("transpose all lanes", all(w.mask.all() for w in effects.lreg_writes))
                coverage.add("transpose some lanes", not all(w.mask.all() for w in effects.lreg_writes))
            mod1 = ins.get("mod1", 0)
            top_changed = effects.stack is not None and len(effects.stack) == len(before.flag_stack) > 0
            coverage.add("stack top changed", ins.mnemonic == "SFPPUSHC" and mod1 != 0 and top_changed)
            coverage.add("compare into the stack", ins.mnemonic in ("SFPLE", "SFPGT") and top_changed)
            coverage.add("integer cast", ins.mnemonic == "SFPCAST" and mod1 & 2 and bool(effects.lreg_writes)
                         and arch is Arch.BLACKHOLE)
            if ins.mnemonic == "SFPCONFIG":
                coverage.add("config constant", bool(effects.lreg_writes))
                for w in effects.config_writes:
                    coverage.add(f"config {w.name}", bool(w.lanes.any()))

    run_clocked(dut, bench)
    assert not errors, errors[0]
    return coverage


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_random_instructions_match_the_model(arch):
    coverage = run(seed=1, thread_steps=THREAD_STEPS, macro_steps=MACRO_STEPS, arch=arch)
    simple = SIMPLE[arch]
    for what in ("lreg written", "flags changed", "stack full", "config written", "prng advanced",
                 "backdoor load", "swap with dest index", "transpose all lanes", "transpose some lanes",
                 "config constant", "config macro_templates", "config macro_sequences", "config macro_misc",
                 "config lane_config", *(f"thread {mn}" for mn in simple), *(f"macro {mn}" for mn in simple)):
        assert coverage.seen.get(what, 0) > 0, f"never exercised: {what}"
    if arch is Arch.BLACKHOLE:
        for what in ("stack top changed", "compare into the stack", "integer cast"):
            assert coverage.seen.get(what, 0) > 0, f"never exercised: {what}"


# Slow, as tests/tb/test_export.py's heavy components are: `make test` already writes and simulates the
# whole top's Verilog, this unit inside it, for both architectures.
@pytest.mark.slow
@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_converts_to_verilog(arch):
    assert "module simple_unit" in verilog.convert(SimpleUnit(arch), name="simple_unit")


@pytest.mark.slow
@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_random_instructions_match_the_model_long(arch):
    run(seed=2, thread_steps=5000, macro_steps=2000, arch=arch)
