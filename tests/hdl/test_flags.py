"""The flag unit against the golden model on random sequences of predication
instructions: SFPENCC, SFPSETCC, SFPIADD's flag refinement, SFPPUSHC,
SFPPOPC (every Mod1, including Wormhole's full-stack flaw) and SFPCOMPC; on
Blackhole also SFPPUSHC's Mod1 1-15 and SFPLE/SFPGT's flag results."""

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.flags import DEPTH, FlagOp, FlagUnit
from tensix_sfpu.model.isa import Arch, encode
from tensix_sfpu.model.machine import Machine
from tensix_sfpu.model.state import LANES, SfpuState
from tests.hdl.hdl_sim import run_clocked

ALL = (1 << LANES) - 1


def mask(bools) -> int:
    return int(sum(1 << i for i in np.flatnonzero(bools)))


def random_instruction(rng, arch: Arch):
    """(model word, flag-unit inputs apart from cond) for one predication instruction."""
    if arch is Arch.BLACKHOLE and rng.random() < 0.25:
        return random_blackhole_instruction(rng)
    kind = rng.choice(["encc", "setcc", "iadd", "pushc", "popc", "compc"], p=[.2, .2, .15, .15, .2, .1])
    if kind == "encc":
        mod1, imm2 = int(rng.choice([0, 1, 2, 3, 8, 9, 10, 11])), int(rng.integers(0, 4))
        return encode("SFPENCC", arch, mod1=mod1, imm2=imm2), dict(op=FlagOp.ENCC, mod1=mod1, imm2=imm2)
    if kind == "setcc":
        mod1 = int(rng.integers(0, 16))
        return encode("SFPSETCC", arch, vc=1, mod1=mod1, imm1=int(rng.integers(0, 2))), dict(op=FlagOp.SETCC, mod1=mod1)
    if kind == "iadd":
        mod1 = int(rng.choice([1, 5, 9, 13]))          # immediate forms, with and without CC and inversion
        return (encode("SFPIADD", arch, vd=2, vc=1, imm12=int(rng.integers(-2048, 2048)), mod1=mod1),
                dict(op=FlagOp.REFINE, mod1=mod1))
    if kind == "pushc":
        return encode("SFPPUSHC", arch), dict(op=FlagOp.PUSHC, mod1=0)
    if kind == "popc":
        mod1 = int(rng.integers(0, 16))
        return encode("SFPPOPC", arch, mod1=mod1), dict(op=FlagOp.POPC, mod1=mod1)
    return encode("SFPCOMPC", arch), dict(op=FlagOp.COMPC, mod1=0)


def random_blackhole_instruction(rng):
    """SFPPUSHC changing the stack top (Mod1 1-15), or SFPLE/SFPGT of L1 with
    L2 (SET_CC, MUTATE_STACK, MUTATE_OR; never SET_VD, which would change L1)."""
    bh = Arch.BLACKHOLE
    if rng.random() < 0.5:
        mod1 = int(rng.integers(1, 16))
        return encode("SFPPUSHC", bh, mod1=mod1), dict(op=FlagOp.PUSHC, mod1=mod1)
    mnemonic, mod1 = str(rng.choice(["SFPLE", "SFPGT"])), int(rng.integers(0, 8))
    return encode(mnemonic, bh, vd=1, vc=2, mod1=mod1), dict(op=FlagOp.COMPARE, mod1=mod1, mnemonic=mnemonic)


def sign_magnitude_order(v: np.ndarray) -> np.ndarray:
    """FP32 bit patterns as integers in their total order (-NaN < ... < -0 < +0 < ... < +NaN)."""
    s = v.view(np.int32).astype(np.int64)
    return np.where(s < 0, -(s & 0x7FFFFFFF) - 1, s)


def condition(word: int, fields: dict, l1: np.ndarray, l2: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The per-lane condition the Simple sub-unit hands the flag unit, from the
    instruction pages: SFPSETCC's test, SFPIADD's sign of the result, SFPLE's
    L1 <= L2 and SFPGT's L1 > L2."""
    c = l1.view(np.int32).astype(np.int64)
    mod1 = fields["mod1"]
    if fields["op"] == FlagOp.COMPARE:
        d, e = sign_magnitude_order(l1), sign_magnitude_order(l2)
        return (d <= e) if fields["mnemonic"] == "SFPLE" else (d > e), 0, 0
    if fields["op"] == FlagOp.SETCC:
        imm1 = (word >> 12) & 1
        if mod1 & 8:
            cond = np.zeros(LANES, dtype=bool)
        elif mod1 & 1:
            cond = np.full(LANES, bool(imm1))
        else:
            cond = {0: c < 0, 2: c != 0, 4: c >= 0, 6: c == 0}[mod1]
        return cond, 1, 0
    if fields["op"] == FlagOp.REFINE:
        imm = (word >> 12) & 0xFFF
        imm = imm - 4096 if imm & 0x800 else imm
        result = ((c + imm) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
        return result < 0, int(not mod1 & 4), int(bool(mod1 & 8))
    return np.zeros(LANES, dtype=bool), 0, 0


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
@pytest.mark.parametrize("seed,row_mask", [(1, False), (2, True), (3, False)])
def test_random_predication_sequences_match_the_model(seed, row_mask, arch):
    rng = np.random.default_rng(seed)
    state = SfpuState(arch=arch)
    values = [0, 1, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF, 5, 0xFFFFF000, 0x3F800000, 0x7FC00000]
    state.lregs[1] = rng.choice(values, LANES).astype(np.uint32)
    state.lregs[2] = rng.choice(values, LANES).astype(np.uint32)
    if row_mask:
        state.lane_config[:] = (rng.integers(0, 16, LANES) << 12).astype(np.uint32)
    rows = np.arange(LANES)
    row_masked = ((state.lane_config[rows & 7] >> 12) >> (rows // 8)) & 1
    machine = Machine(state, strict=False)
    steps = [random_instruction(rng, arch) for _ in range(300)]
    expected, undefined_steps = [], []
    for i, (word, fields) in enumerate(steps):
        n = len(machine.warnings)
        cond, valid, invert = condition(word, fields, state.lregs[1], state.lregs[2])
        machine.execute(word)
        if len(machine.warnings) > n:
            undefined_steps.append(i)
        st = machine.state
        expected.append((mask(st.lane_flags), mask(st.use_flags), len(st.flag_stack),
                         [(mask(e.lane_flags), mask(e.use_flags)) for e in st.flag_stack], (cond, valid, invert)))
    dut = FlagUnit(arch)
    got, undefined = [], []

    async def bench(ctx):
        ctx.set(dut.request.guard, ALL)
        ctx.set(dut.row_masked, mask(row_masked))
        for (word, fields), (*_, (cond, valid, invert)) in zip(steps, expected):
            ctx.set(dut.request.op, fields["op"])
            ctx.set(dut.request.mod1, fields["mod1"])
            ctx.set(dut.request.imm2, fields.get("imm2", 0))
            ctx.set(dut.request.cond, mask(cond))
            ctx.set(dut.request.cond_valid, valid)
            ctx.set(dut.request.invert, invert)
            undefined.append(ctx.get(dut.undefined))
            await ctx.tick()
            depth = ctx.get(dut.depth)
            got.append((ctx.get(dut.lane_flags), ctx.get(dut.use_flags), depth,
                        [(ctx.get(dut.stack[i].lane_flags), ctx.get(dut.stack[i].use_flags)) for i in range(depth)]))

    run_clocked(dut, bench)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g == tuple(e[:4]), f"step {i}: {steps[i][1]}"
    assert [i for i, u in enumerate(undefined) if u] == undefined_steps
    assert undefined_steps                     # the sequences reach the undefined cases
    assert max(e[2] for e in expected) == DEPTH


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_converts_to_verilog(arch):
    assert "module flags" in verilog.convert(FlagUnit(arch), name="flags")
