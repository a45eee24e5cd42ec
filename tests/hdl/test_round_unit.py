"""RoundUnit (SFPSTOCHRND, SFPSHFT2) against the golden model, cycle by cycle.

Short runs of instructions start from a random SfpuState (LRegs with FP
specials and integer extremes, random flags, LaneConfig with random row masks
and DISABLE_BACKDOOR_LOAD, random PRNG states and captured VC) and carry on
for up to a few back-to-back cycles. Each instruction is an SFPSTOCHRND or
SFPSHFT2 issued by the thread (`Machine.execute`, VD 0-15) or by a macro
(`Machine.execute_operands`, VD 0-7 or 16, any VB/VC), an SFPNOP, or an idle
issue. Between cycles the model's state advances the way `model.cycle` lands
effects: the previous cycle's two-cycle writes, then this cycle's one-cycle
writes, then everything else (PRNG, captured VC).

In each cycle the unit's `write` ports must hold the model's one-cycle LReg
writes and, after the clock, its `landing` ports the two-cycle ones (both
merged per register and lane, the later write winning); `prng_used` /
`prng_advance` must reproduce the model's new PRNG state, `captured_vc` after
the clock the model's `shft2_captured_vc`, and `undefined` its warnings.

Each architecture's unit runs its own words: Blackhole's SFPSTOCHRND has the
2-bit `rnd_mode`, and its SFPSHFT2 captures nothing (its state starts with the
captured VC at 0, where it stays) and feeds mode 4's row starts with zeros.
"""

from dataclasses import dataclass, replace

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.isa import Opcode
from tensix_sfpu.hdl.round_unit import RoundUnit
from tensix_sfpu.hdl.unit_io import Issue
from tensix_sfpu.model.isa import Arch, decode, encode
from tensix_sfpu.model.machine import Machine, apply_effects, regular_operands
from tensix_sfpu.model.prng import prng_step
from tensix_sfpu.model.semantics import Operands
from tensix_sfpu.model.state import LANES, SfpuState
from tests.hdl.hdl_sim import model_lane_writes, pack, pack_fields, port_lane_writes, port_raw, run_clocked


SEED = 0x5F2
RUNS = 900                      # runs of 1-6 cycles: about 3,000 cycles
M32 = 0xFFFFFFFF

SPECIAL_WORDS = np.array([
    0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x80000001,      # zeros, denormals
    0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,      # normals, Inf
    0x7F800001, 0x7FC00000, 0xFFFFFFFF,                              # NaNs
    0x3F000000, 0x3EFFFFFF, 0x3F7FFFFF, 0x3FC00000, 0x477FFF00,      # around 0.5, 1.5, 65535
    0x47000000, 0x437F0000, 0x42FE0000, 0x4F000000,                  # 32768, 255, 127, 2^31
    0x7FFFFFFF, 0x0000001F, 0x00000020, 0xFFFFFFE1, 0xFFFFFFE0,      # shift amounts around +-32
], dtype=np.uint32)

SPECIAL_IMM12 = [0, 1, 31, 32, 33, -1, -31, -32, -33, 2047, -2048]


def lane_values(rng, shape) -> np.ndarray:
    """Specials, small signed integers, FP32 near the rounding exponents, random words."""
    n = int(np.prod(shape))
    words = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    exponents = rng.integers(110, 160, n).astype(np.uint32)
    floats = (words & np.uint32(0x807FFFFF)) | (exponents << np.uint32(23))
    small = (rng.integers(-40, 41, n) & M32).astype(np.uint32)
    specials = rng.choice(SPECIAL_WORDS, n)
    picked = np.choose(rng.integers(0, 4, n), [specials, small, floats, words])
    return picked.astype(np.uint32).reshape(shape)


def random_state(rng, arch: Arch = Arch.WORMHOLE) -> SfpuState:
    st = SfpuState(arch=arch)
    for r in (*range(8), 11, 12, 13, 14, 16):
        st.lregs[r] = lane_values(rng, LANES)
    row_masks = (rng.random((LANES, 4)) < 0.15) @ (1 << np.arange(4))
    st.lane_config = (rng.integers(0, 1 << 12, LANES) | (row_masks << 12)).astype(np.uint32)
    if rng.random() < 0.4:                       # DISABLE_BACKDOOR_LOAD the same in every lane
        bit = np.uint32(1 << 1)
        st.lane_config = st.lane_config | bit if rng.random() < 0.5 else st.lane_config & ~bit
    st.use_flags = rng.random(LANES) < (0.0 if rng.random() < 0.3 else 0.5)
    st.lane_flags = rng.random(LANES) < 0.6
    st.prng = rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(np.uint32)
    if arch is Arch.WORMHOLE:                    # Blackhole never captures
        st.shft2_captured_vc = lane_values(rng, LANES)
    return st


def random_word(rng, mnemonic: str, shuffles: bool, arch: Arch = Arch.WORMHOLE) -> int:
    vd = int(rng.integers(0, 8)) if rng.random() < 0.6 else int(rng.integers(0, 16))
    vc = int(rng.integers(0, 16))
    if mnemonic == "SFPSTOCHRND":
        fields = dict(mod1=int(rng.integers(0, 8)), use_imm5=int(rng.integers(0, 2)), vd=vd, vc=vc,
                      vb=int(rng.integers(0, 16)), imm5=int(rng.integers(0, 32)))
        if arch is Arch.BLACKHOLE:
            return encode(mnemonic, arch, rnd_mode=int(rng.integers(0, 4)), **fields) | int(rng.integers(0, 2)) << 23
        word = encode(mnemonic, arch, stochastic=int(rng.integers(0, 2)), **fields)
        return word | int(rng.integers(0, 4)) << 22          # unused bits 23:22
    r = rng.random()
    if shuffles:
        mod1 = int(rng.choice([2, 3, 4, 4, 0, 1, 5, 6]))
    else:
        mod1 = int(rng.integers(0, 7)) if r < 0.85 else int(rng.integers(7, 16))
    imm12 = int(rng.choice(SPECIAL_IMM12)) if rng.random() < 0.5 else int(rng.integers(-2048, 2048))
    return encode(mnemonic, arch, mod1=mod1, vd=vd, vc=vc, imm12=imm12)


@dataclass
class Cycle:
    label: str
    issue: int                  # raw Issue bits
    lregs: int
    enabled: int
    lane_config: int
    prng: np.ndarray
    captured_set: int | None    # load the capture register first (start of a run)
    writes: dict                # (reg, lane) -> value, landing at the end of this cycle
    landing: dict               # ... at the end of the next cycle
    new_prng: np.ndarray | None
    captured_after: int
    undefined: bool






def pack_word(issue: int) -> int:
    return issue >> Issue["word"].offset & M32






def model_cycle(rng, state: SfpuState, shuffles: bool):
    """Pick an issue, run it on the model; return (label, Issue bits, effects, two-cycle, warnings)."""
    kind = rng.choice(["thread", "macro", "nop", "idle"], p=[0.55, 0.35, 0.05, 0.05])
    machine = Machine(state.fork(), strict=False)
    arch = state.arch
    mnemonic = "SFPSTOCHRND" if rng.random() < (0.3 if shuffles else 0.45) else "SFPSHFT2"
    word = random_word(rng, mnemonic, shuffles, arch)
    if kind == "idle":        # valid clear: an SFPSTOCHRND's fields on the bus must do nothing
        return "idle", pack_fields(Issue, opcode=Opcode.STOCHRND.value, word=word, vd=1, vb=2, vc=3), None, []
    if kind == "nop":
        word = encode("SFPNOP", arch)
    if kind == "macro":
        ins = decode(word, arch)
        x = Operands(ins, int(rng.choice([*range(8), 16])), int(rng.integers(0, 16)), int(rng.integers(0, 16)),
                     macro=True)
        effects = machine.execute_operands(x)
    else:
        x = regular_operands(decode(word, arch))
        effects = machine.execute(word)
    issue = pack_fields(Issue, valid=1, macro=x.macro, opcode=word >> 24, word=word, vd=x.vd,
                        vb=x.vb or 0, vc=x.vc or 0)
    label = (f"{kind} {x.ins.mnemonic} mod1={x.ins.get('mod1')} rnd_mode={x.ins.get('rnd_mode')} "
             f"vd={x.vd} vb={x.vb} vc={x.vc} word=0x{word:08X}")
    return label, issue, effects, machine.warnings


def build_cycles(seed: int, runs: int, arch: Arch = Arch.WORMHOLE) -> list[Cycle]:
    rng = np.random.default_rng(seed)
    cycles = []
    for _ in range(runs):
        state = random_state(rng, arch)
        shuffles = rng.random() < 0.5            # runs rich in modes 2-4 back to back
        in_flight = []                           # last cycle's two-cycle writes
        for n in range(int(rng.integers(1, 7))):
            label, issue, effects, warnings = model_cycle(rng, state, shuffles)
            two_cycle = effects is not None and decode(pack_word(issue), arch).latency > 1
            now = [] if effects is None or two_cycle else effects.lreg_writes
            later = effects.lreg_writes if two_cycle else []
            cycles.append(Cycle(
                label=label, issue=issue,
                lregs=pack(state.lregs.reshape(-1)),
                enabled=pack(state.lane_enabled(), 1),
                lane_config=pack(state.lane_config, 18),
                prng=state.prng.copy(),
                captured_set=pack(state.shft2_captured_vc) if n == 0 else None,
                writes=model_lane_writes(now), landing=model_lane_writes(later),
                new_prng=None if effects is None else effects.prng,
                captured_after=pack(state.shft2_captured_vc if effects is None or effects.shft2_captured_vc is None
                                    else effects.shft2_captured_vc),
                undefined=bool(warnings)))
            # The end of the cycle, as model.cycle lands it.
            nxt = state.fork()
            for w in in_flight + now:
                nxt.lregs[w.reg] = np.where(w.mask, w.values, nxt.lregs[w.reg])
            if effects is not None:
                apply_effects(nxt, replace(effects, lreg_writes=[]))
            state, in_flight = nxt, later
    return cycles


def simulate(cycles: list[Cycle], arch: Arch = Arch.WORMHOLE) -> list[dict]:
    dut = RoundUnit(arch)
    observed = []

    async def bench(ctx):
        for c in cycles:
            if c.captured_set is not None:
                ctx.set(dut.captured_vc.as_value(), c.captured_set)
            ctx.set(dut.inputs.issue.as_value(), c.issue)
            ctx.set(dut.inputs.lregs.as_value(), c.lregs)
            ctx.set(dut.inputs.enabled, c.enabled)
            ctx.set(dut.inputs.lane_config.as_value(), c.lane_config)
            ctx.set(dut.prng.as_value(), pack(c.prng))
            obs = {
                "write": [port_raw(ctx, p) for p in dut.write],
                "prng_used": ctx.get(dut.prng_used),
                "prng_advance": ctx.get(dut.prng_advance),
                "undefined": ctx.get(dut.undefined),
            }
            await ctx.tick()
            obs["landing"] = [port_raw(ctx, p) for p in dut.landing]
            obs["captured"] = ctx.get(dut.captured_vc.as_value())
            observed.append(obs)

    run_clocked(dut, bench)
    return observed


def check(cycles: list[Cycle], observed: list[dict]) -> None:
    for i, (c, obs) in enumerate(zip(cycles, observed)):
        where = f"cycle {i}: {c.label}"
        assert port_lane_writes(obs["write"]) == c.writes, f"{where}: write"
        assert port_lane_writes(obs["landing"]) == c.landing, f"{where}: landing"
        assert obs["undefined"] == c.undefined, f"{where}: undefined"
        assert obs["prng_used"] == (c.new_prng is not None), f"{where}: prng_used"
        if c.new_prng is None:
            assert obs["prng_advance"] == 0, f"{where}: prng_advance without prng_used"
        else:
            advance = (obs["prng_advance"] >> np.arange(LANES) & 1).astype(bool)
            got = np.where(advance, prng_step(c.prng), c.prng)
            assert np.array_equal(got, c.new_prng), f"{where}: PRNG state after the advance"
        assert obs["captured"] == c.captured_after, f"{where}: captured_vc"


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_round_unit_against_model(arch):
    cycles = build_cycles(SEED, RUNS, arch)
    # The draw must cover every path: each mode issued both ways, with and without writes.
    labels = [c.label for c in cycles]
    for mod1 in range(16):
        assert any(f"SFPSHFT2 mod1={mod1} " in lb for lb in labels), mod1
    for mod1 in range(8):
        assert any(f"SFPSTOCHRND mod1={mod1} " in lb for lb in labels), mod1
    if arch is Arch.BLACKHOLE:
        for rnd_mode in range(4):
            assert any("SFPSTOCHRND mod1=" in lb and f"rnd_mode={rnd_mode} " in lb for lb in labels), rnd_mode
    assert any(lb.startswith("macro") and "vd=16" in lb for lb in labels)
    assert sum(bool(c.landing) for c in cycles) > 100
    assert sum(bool(c.landing) and bool(n.landing) for c, n in zip(cycles, cycles[1:])) > 20
    check(cycles, simulate(cycles, arch))


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_verilog_conversion(arch):
    assert "module" in verilog.convert(RoundUnit(arch))


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
@pytest.mark.parametrize("reg", [0, 3])
def test_mode2_then_mode4_reads_fresh_capture(reg, arch):
    """Wormhole: mode 2 captures its VC at the end of its cycle; a mode 4
    right after sees the new value in lanes 0, 8, 16, 24 (the spec's
    back-to-back example). Blackhole: those lanes take 0."""
    rng = np.random.default_rng(reg)
    state = random_state(rng, arch)
    state.use_flags[:] = False
    state.lane_config[:] = 0
    m2 = encode("SFPSHFT2", arch, mod1=2, vd=0, vc=reg)
    m4 = encode("SFPSHFT2", arch, mod1=4, vd=5, vc=6)
    cycles = []
    for word in (m2, m4):
        machine = Machine(state.fork(), strict=False)
        effects = machine.execute(word)
        x = regular_operands(decode(word, arch))
        cycles.append(Cycle(
            label=f"0x{word:08X}", issue=pack_fields(Issue, valid=1, opcode=word >> 24, word=word, vd=x.vd,
                                                     vb=x.vb, vc=x.vc),
            lregs=pack(state.lregs.reshape(-1)), enabled=M32, lane_config=0, prng=state.prng.copy(),
            captured_set=pack(state.shft2_captured_vc) if word == m2 else None,
            writes={}, landing=model_lane_writes(effects.lreg_writes), new_prng=None,
            captured_after=pack(effects.shft2_captured_vc if effects.shft2_captured_vc is not None
                                else state.shft2_captured_vc),
            undefined=False))
        nxt = state.fork()
        apply_effects(nxt, replace(effects, lreg_writes=[]))    # mode 2's LRegs land only at T+1
        state = nxt
    landing = cycles[1].landing
    for lane in (0, 8, 16, 24):
        captured = int(cycles[0].lregs >> (32 * (32 * reg + lane + 7)) & M32)
        assert landing[(5, lane)] == (captured if arch is Arch.WORMHOLE else 0)
    check(cycles, simulate(cycles, arch))
