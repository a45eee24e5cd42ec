"""MadUnit against the golden model, one instruction (or none) every cycle.

Every cycle starts from a fresh random SfpuState (LRegs with FP specials:
signed zeros, denormals, infinities, NaNs, values near overflow and
underflow, |L3| around the LUT range boundaries; L7's low bits random for the
indirect modes; random flags and LaneConfig, so that LaneEnabled and
DISABLE_BACKDOOR_LOAD vary). Its instruction is a random MAD-class word with
random Mod bits, issued by the thread (`Machine.execute`, VD 0-15) or by a
macro (`Machine.execute_operands`, VD 0-7 or 16, any VB/VC), or an SFPNOP, or
nothing (valid clear). The model's LReg writes must appear on `landing` in
the next cycle, read after that cycle's own (unrelated) inputs are applied,
so the pipeline must carry everything it took from the issue cycle.

Each architecture runs its own instructions on its own MadUnit: Blackhole's
add SFPMUL24, its Mod1 bits NEGATE_VB/NEGATE_VC, and SFPLUTFP32's Mod1Mirror
field (random, so it must be ignored).
"""

from dataclasses import dataclass

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.mad_unit import MadUnit
from tensix_sfpu.hdl.unit_io import Issue
from tensix_sfpu.model.isa import Arch, decode, encode
from tensix_sfpu.model.machine import Machine, regular_operands
from tensix_sfpu.model.semantics import Operands
from tensix_sfpu.model.state import LANES, SfpuState
from tests.hdl.hdl_sim import model_lane_writes, pack, pack_fields, port_lane_writes, port_raw, run_clocked


SEED = 0x3AD
CYCLES = 400
SLOW_CYCLES = 4000
M32 = 0xFFFFFFFF

MNEMONICS = {
    Arch.WORMHOLE: ["SFPMAD", "SFPADD", "SFPMUL", "SFPADDI", "SFPMULI", "SFPLUT", "SFPLUTFP32"],
    Arch.BLACKHOLE: ["SFPMAD", "SFPADD", "SFPMUL", "SFPADDI", "SFPMULI", "SFPLUT", "SFPLUTFP32", "SFPMUL24"],
}
ARCHS = pytest.mark.parametrize("arch", list(Arch), ids=[a.value for a in Arch])

SPECIAL_WORDS = np.array([
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00400000,      # zeros, denormals
    0x00800000, 0x80800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F000000,      # smallest normals, near overflow
    0x7F800000, 0xFF800000, 0x7F800001, 0x7FC00000, 0xFFFFFFFF,      # Inf, NaN
    0x3F000000, 0x3F7FFFFF, 0x3F800000, 0xBF800000, 0x3FC00000,      # LUT boundaries 0.5, 1, 1.5
    0x40000000, 0x40400000, 0x403FFFFF, 0x40800000, 0x407FFFFF,      # 2, 3, 4
], dtype=np.uint32)

SPECIAL_BF16 = [0x0000, 0x8000, 0x0001, 0x3F80, 0xBF80, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0x0080]


def lane_values(rng, n: int) -> np.ndarray:
    """Specials, FP32 of nearby exponents (so sums cancel and round), extreme exponents, random words."""
    words = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    near = rng.integers(120, 134, n).astype(np.uint32)
    extreme = rng.choice(np.array([0, 1, 2, 63, 64, 190, 191, 252, 253, 254, 255], dtype=np.uint32), n)
    floats = (words & np.uint32(0x807FFFFF)) | (near << np.uint32(23))
    edges = (words & np.uint32(0x807FFFFF)) | (extreme << np.uint32(23))
    specials = rng.choice(SPECIAL_WORDS, n)
    return np.choose(rng.integers(0, 5, n), [specials, floats, floats, edges, words]).astype(np.uint32)


def random_state(rng, arch: Arch) -> SfpuState:
    st = SfpuState(arch=arch)
    for r in (*range(8), 11, 12, 13, 14, 16):
        st.lregs[r] = lane_values(rng, LANES)
    if rng.random() < 0.5:                       # L7 as an index: mostly L0-L7, some L8-L15
        low = np.where(rng.random(LANES) < 0.7, rng.integers(0, 8, LANES), rng.integers(8, 16, LANES))
        st.lregs[7] = (st.lregs[7] & np.uint32(~15 & M32)) | low.astype(np.uint32)
    row_masks = (rng.random((LANES, 4)) < 0.15) @ (1 << np.arange(4))
    st.lane_config = (rng.integers(0, 1 << 12, LANES) | (row_masks << 12)).astype(np.uint32)
    if rng.random() < 0.5:                       # DISABLE_BACKDOOR_LOAD the same in every lane
        bit = np.uint32(1 << 1)
        st.lane_config = st.lane_config | bit if rng.random() < 0.5 else st.lane_config & ~bit
    st.use_flags = rng.random(LANES) < (0.0 if rng.random() < 0.4 else 0.5)
    st.lane_flags = rng.random(LANES) < 0.6
    return st


def random_word(rng, mnemonic: str, arch: Arch) -> int:
    vd = int(rng.integers(0, 8)) if rng.random() < 0.6 else int(rng.integers(0, 16))
    mod = int(rng.integers(0, 16))
    if mnemonic in ("SFPMAD", "SFPADD", "SFPMUL", "SFPMUL24"):
        return encode(mnemonic, arch, mod1=mod, vd=vd, va=int(rng.integers(0, 16)), vb=int(rng.integers(0, 16)),
                      vc=int(rng.integers(0, 16)))
    if mnemonic in ("SFPADDI", "SFPMULI"):
        imm16 = int(rng.choice(SPECIAL_BF16)) if rng.random() < 0.3 else int(rng.integers(0, 1 << 16))
        return encode(mnemonic, arch, mod1=mod, vd=vd, imm16=imm16)
    if mnemonic == "SFPLUT":
        return encode(mnemonic, arch, mod0=mod, vd=vd)
    if arch is Arch.BLACKHOLE:      # SFPLUTFP32's Mod1Mirror: mostly Mod1, sometimes anything
        mirror = mod if rng.random() < 0.5 else int(rng.integers(0, 16))
        return encode(mnemonic, arch, mod1=mod, vd=vd, mod1_mirror=mirror)
    return encode(mnemonic, arch, mod1=mod, vd=vd)


@dataclass
class Cycle:
    label: str
    issue: int                  # raw Issue bits
    lregs: int
    enabled: int
    lane_config: int
    landing: dict               # (reg, lane) -> value, written at the end of the next cycle










def model_cycle(rng, state: SfpuState, kind: str) -> Cycle:
    """Run one issue of `kind` (thread, macro, nop, idle) on the model from `state`."""
    arch = state.arch
    mnemonic = str(rng.choice(MNEMONICS[arch]))
    word = random_word(rng, mnemonic, arch)
    machine = Machine(state.fork(), strict=False)
    if kind == "idle":          # valid clear: the fields on the bus must do nothing
        issue = pack_fields(Issue, opcode=word >> 24, word=word, vd=word >> 4 & 15, vb=1, vc=2)
        label, landing = f"idle 0x{word:08X}", {}
    else:
        if kind == "nop":
            word = encode("SFPNOP", arch)
        if kind == "macro":
            vd = int(rng.choice([*range(8), 16, 16])) if rng.random() < 0.9 else int(rng.integers(8, 16))
            x = Operands(decode(word, arch), vd, int(rng.integers(0, 16)), int(rng.integers(0, 16)), macro=True)
            effects = machine.execute_operands(x)
        else:
            x = regular_operands(decode(word, arch))
            effects = machine.execute(word)
        issue = pack_fields(Issue, valid=1, macro=x.macro, opcode=word >> 24, word=word, vd=x.vd,
                            vb=x.vb or 0, vc=x.vc or 0)
        mod = x.ins.get("mod0", x.ins.get("mod1"))
        label = f"{kind} {x.ins.mnemonic} mod={mod} vd={x.vd} vb={x.vb} vc={x.vc} word=0x{word:08X}"
        landing = model_lane_writes(effects.lreg_writes)
    return Cycle(label=label, issue=issue, lregs=pack(state.lregs.reshape(-1)),
                 enabled=pack(state.lane_enabled(), 1), lane_config=pack(state.lane_config, 18),
                 landing=landing)


def build_cycles(seed: int, n: int, arch: Arch) -> list[Cycle]:
    rng = np.random.default_rng(seed)
    kinds = rng.choice(["thread", "macro", "nop", "idle"], n, p=[0.55, 0.3, 0.05, 0.1])
    return [model_cycle(rng, random_state(rng, arch), str(kind)) for kind in kinds]


def simulate(cycles: list[Cycle], arch: Arch) -> list[int]:
    """`landing` (raw) before any issue, then in the cycle after each of
    `cycles`, read while that next cycle's own inputs are driven (so it must
    come from the pipeline registers alone), then after an idle cycle."""
    dut = MadUnit(arch)
    observed = []

    async def bench(ctx):
        for c in cycles:
            ctx.set(dut.inputs.issue.as_value(), c.issue)
            ctx.set(dut.inputs.lregs.as_value(), c.lregs)
            ctx.set(dut.inputs.enabled, c.enabled)
            ctx.set(dut.inputs.lane_config.as_value(), c.lane_config)
            observed.append(port_raw(ctx, dut.landing, per_lane=True))      # the previous cycle's issue
            await ctx.tick()
        ctx.set(dut.inputs.issue.as_value(), 0)
        ctx.set(dut.inputs.lregs.as_value(), ~cycles[-1].lregs & ((1 << (17 * LANES * 32)) - 1))
        ctx.set(dut.inputs.enabled, M32)
        observed.append(port_raw(ctx, dut.landing, per_lane=True))          # the last issue
        await ctx.tick()
        observed.append(port_raw(ctx, dut.landing, per_lane=True))          # after the idle cycle: nothing

    run_clocked(dut, bench)
    return observed


def check(cycles: list[Cycle], observed: list[int]) -> None:
    assert not port_lane_writes([observed[0]], per_lane=True), "landing out of reset"
    for i, c in enumerate(cycles):
        got = port_lane_writes([observed[i + 1]], per_lane=True)
        if got != c.landing:
            diff = sorted(k for k in set(got) | set(c.landing) if got.get(k) != c.landing.get(k))
            detail = ", ".join(f"L{r} lane {lane}: rtl {got.get((r, lane))} model {c.landing.get((r, lane))}"
                               for r, lane in diff[:4])
            raise AssertionError(f"cycle {i}: {c.label}: {len(diff)} lanes differ: {detail}")
    assert not port_lane_writes([observed[-1]], per_lane=True), "landing after the idle cycle"


def check_coverage(cycles: list[Cycle], arch: Arch) -> None:
    labels = [c.label for c in cycles]
    for mn in MNEMONICS[arch]:
        assert any(f" {mn} " in lb and c.landing for lb, c in zip(labels, cycles)), mn
    assert any(lb.startswith("macro") and "vd=16" in lb and c.landing for lb, c in zip(labels, cycles))
    assert any(c.landing and not n.landing and n.label.startswith("idle") for c, n in zip(cycles, cycles[1:]))
    assert sum(bool(c.landing) and bool(n.landing) for c, n in zip(cycles, cycles[1:])) > len(cycles) // 5
    # Indirect destinations that fan out over several registers in one cycle.
    assert any(len({r for r, _ in c.landing}) > 1 for c in cycles)
    if arch is Arch.BLACKHOLE:
        landed = [lb for lb, c in zip(labels, cycles) if c.landing]
        for mn in ("SFPMAD", "SFPADDI", "SFPMULI"):        # NEGATE_VC (NEGATE_VB's is SFPMAD's too)
            assert any(f" {mn} " in lb and _mod(lb) & 2 for lb in landed), mn
        assert any(" SFPMAD " in lb and _mod(lb) & 1 for lb in landed)
        assert any(" SFPMUL24 " in lb and _mod(lb) & 1 for lb in landed)    # UPPER
        # SFPLUTFP32 whose Mod1Mirror differs from its Mod1.
        assert any(" SFPLUTFP32 " in lb and (_word(lb) >> 16 & 15) != (_word(lb) & 15) for lb in landed)


def _mod(label: str) -> int:
    return int(label.split(" mod=")[1].split()[0])


def _word(label: str) -> int:
    return int(label.split("word=")[1], 16)


@ARCHS
def test_mad_unit_against_model(arch):
    cycles = build_cycles(SEED, CYCLES, arch)
    check_coverage(cycles, arch)
    check(cycles, simulate(cycles, arch))


@pytest.mark.slow
@ARCHS
def test_mad_unit_against_model_long(arch):
    cycles = build_cycles(SEED + 1, SLOW_CYCLES, arch)
    check_coverage(cycles, arch)
    check(cycles, simulate(cycles, arch))


# Slow, as tests/tb/test_export.py's heavy components are: `make test` already writes and simulates the
# whole top's Verilog, this unit inside it, for both architectures.
@pytest.mark.slow
@ARCHS
def test_verilog_conversion(arch):
    assert "module" in verilog.convert(MadUnit(arch))
