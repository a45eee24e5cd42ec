"""The flag unit against the golden model on random sequences of predication
instructions: SFPENCC, SFPSETCC, SFPIADD's flag refinement, SFPPUSHC,
SFPPOPC (every Mod1, including the full-stack flaw) and SFPCOMPC."""

import numpy as np
import pytest
from amaranth.back import verilog

from hdl.flags import DEPTH, FlagOp, FlagUnit
from model.isa import encode
from model.machine import Machine
from model.state import LANES, SfpuState
from tests.hdl.hdl_sim import run_clocked

ALL = (1 << LANES) - 1


def mask(bools) -> int:
    return int(sum(1 << i for i in np.flatnonzero(bools)))


def random_instruction(rng):
    """(model word, flag-unit inputs apart from cond) for one predication instruction."""
    kind = rng.choice(["encc", "setcc", "iadd", "pushc", "popc", "compc"], p=[.2, .2, .15, .15, .2, .1])
    if kind == "encc":
        mod1, imm2 = int(rng.choice([0, 1, 2, 3, 8, 9, 10, 11])), int(rng.integers(0, 4))
        return encode("SFPENCC", mod1=mod1, imm2=imm2), dict(op=FlagOp.ENCC, mod1=mod1, imm2=imm2)
    if kind == "setcc":
        mod1 = int(rng.integers(0, 16))
        return encode("SFPSETCC", vc=1, mod1=mod1, imm1=int(rng.integers(0, 2))), dict(op=FlagOp.SETCC, mod1=mod1)
    if kind == "iadd":
        mod1 = int(rng.choice([1, 5, 9, 13]))          # immediate forms, with and without CC and inversion
        return (encode("SFPIADD", vd=2, vc=1, imm12=int(rng.integers(-2048, 2048)), mod1=mod1),
                dict(op=FlagOp.REFINE, mod1=mod1))
    if kind == "pushc":
        return encode("SFPPUSHC"), dict(op=FlagOp.PUSHC, mod1=0)
    if kind == "popc":
        mod1 = int(rng.integers(0, 16))
        return encode("SFPPOPC", mod1=mod1), dict(op=FlagOp.POPC, mod1=mod1)
    return encode("SFPCOMPC"), dict(op=FlagOp.COMPC, mod1=0)


def condition(word: int, fields: dict, l1: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The per-lane condition the Simple sub-unit hands the flag unit, from the
    instruction pages: SFPSETCC's test, SFPIADD's sign of the result."""
    c = l1.view(np.int32).astype(np.int64)
    mod1 = fields["mod1"]
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


@pytest.mark.parametrize("seed,row_mask", [(1, False), (2, True), (3, False)])
def test_random_predication_sequences_match_the_model(seed, row_mask):
    rng = np.random.default_rng(seed)
    state = SfpuState()
    state.lregs[1] = rng.choice([0, 1, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF, 5, 0xFFFFF000], LANES).astype(np.uint32)
    if row_mask:
        state.lane_config[:] = (rng.integers(0, 16, LANES) << 12).astype(np.uint32)
    rows = np.arange(LANES)
    row_masked = ((state.lane_config[rows & 7] >> 12) >> (rows // 8)) & 1
    machine = Machine(state, strict=False)
    steps = [random_instruction(rng) for _ in range(300)]
    expected, undefined_steps = [], []
    for i, (word, fields) in enumerate(steps):
        n = len(machine.warnings)
        cond, valid, invert = condition(word, fields, state.lregs[1])
        machine.execute(word)
        if len(machine.warnings) > n:
            undefined_steps.append(i)
        st = machine.state
        expected.append((mask(st.lane_flags), mask(st.use_flags), len(st.flag_stack),
                         [(mask(e.lane_flags), mask(e.use_flags)) for e in st.flag_stack], (cond, valid, invert)))
    dut = FlagUnit()
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


def test_converts_to_verilog():
    assert "module flags" in verilog.convert(FlagUnit(), name="flags")
