"""Blackhole A0 behaviour of the instructions Wormhole also has, and where the
two architectures agree or differ on the same word.

Expected values are worked out by hand from the functional models of
tt-isa-documentation's BlackholeA0/TensixTile/TensixCoprocessor/<INSTR>.md pages
(and the WormholeB0 pages for the Wormhole side); the working is in the
comments. None was taken from the model's output.
"""

from __future__ import annotations

import numpy as np
import pytest

from tensix_sfpu.model.isa import Arch, encode
from tensix_sfpu.model.machine import Machine, UndefinedBehaviour
from tensix_sfpu.model.state import FlagStackEntry, SfpuState

BH, WH = Arch.BLACKHOLE, Arch.WORMHOLE
LANES = 32
LANE = np.arange(LANES)
U32 = np.uint32
DISABLE_BACKDOOR_LOAD = 1 << 1


def machine(arch: Arch = BH, strict: bool = True) -> Machine:
    return Machine(SfpuState(arch=arch), strict=strict)


def run(m: Machine, mnemonic: str, **fields) -> None:
    m.execute(encode(mnemonic, m.state.arch, **fields))


def setreg(m: Machine, r: int, values) -> None:
    m.state.lregs[r] = np.broadcast_to(np.asarray(values, dtype=np.int64) & 0xFFFFFFFF, (LANES,)).astype(U32)


def reg(m: Machine, r: int) -> list[int]:
    return [int(v) for v in m.state.lregs[r]]


def on_both(word: int, setup) -> tuple[Machine, Machine]:
    """The same word executed on a Wormhole and a Blackhole machine set up alike."""
    out = []
    for arch in (WH, BH):
        m = machine(arch, strict=False)
        setup(m)
        m.execute(word)
        out.append(m)
    return out[0], out[1]


# ---------------------------------------------------------------------------
# SFPAND / SFPOR: USE_VB
# ---------------------------------------------------------------------------

def _and_or_regs(m: Machine) -> None:
    setreg(m, 1, 0xF0F0F0F0)     # VD
    setreg(m, 2, 0xFF00FF00)     # VB
    setreg(m, 3, 0x0FF00FF0)     # VC


@pytest.mark.parametrize("mnemonic,op", [("SFPAND", lambda a, b: a & b), ("SFPOR", lambda a, b: a | b)])
def test_use_vb(mnemonic, op):
    m = machine()
    _and_or_regs(m)
    run(m, mnemonic, vd=1, vb=2, vc=3, mod1=1)                # USE_VB: VD = VB op VC
    assert reg(m, 1) == [op(0xFF00FF00, 0x0FF00FF0)] * LANES
    m = machine()
    _and_or_regs(m)
    run(m, mnemonic, vd=1, vb=2, vc=3, mod1=0)                # VB field ignored: VD = VD op VC
    assert reg(m, 1) == [op(0xF0F0F0F0, 0x0FF00FF0)] * LANES


@pytest.mark.parametrize("mnemonic", ["SFPAND", "SFPOR"])
def test_use_vb_word_on_wormhole_reads_vd(mnemonic):
    # Wormhole's SFPAND/SFPOR have no VB or Mod1 fields: the same word reads VD.
    word = encode(mnemonic, BH, vd=1, vb=2, vc=3, mod1=1)
    wh, bh = on_both(word, _and_or_regs)
    op = (lambda a, b: a & b) if mnemonic == "SFPAND" else (lambda a, b: a | b)
    assert reg(wh, 1) == [op(0xF0F0F0F0, 0x0FF00FF0)] * LANES
    assert reg(bh, 1) == [op(0xFF00FF00, 0x0FF00FF0)] * LANES
    # Without USE_VB both agree.
    wh, bh = on_both(encode(mnemonic, WH, vd=1, vc=3), _and_or_regs)
    assert reg(wh, 1) == reg(bh, 1)


# ---------------------------------------------------------------------------
# SFPSHFT: ARITHMETIC and ARG_IMM_USE_VC
# ---------------------------------------------------------------------------

# (mod1, imm12, VD value, VC value, result), by hand from SFPSHFT.md (Blackhole).
SHFT_CASES = [
    (0, 0, 0x80000010, 0xFFFFFFFC, 0x08000001),   # VD >> 4 (VC = -4), logical
    (2, 0, 0x80000010, 0xFFFFFFFC, 0xF8000001),   # ARITHMETIC: sign copied in
    (2, 0, 0x40000010, 0xFFFFFFFC, 0x04000001),   # ARITHMETIC on a positive value
    (2, 0, 0x80000010, 0x00000004, 0x00000100),   # ARITHMETIC, left: as logical
    (2, 0, 0x80000010, 0xFFFFFFDC, 0xF8000001),   # VC = -36: right by 36 & 31 = 4
    (1, -4, 0x80000010, 0x12345678, 0x08000001),  # ARG_IMM: VD >> 4
    (3, -4, 0x80000010, 0x12345678, 0xF8000001),  # ARG_IMM | ARITHMETIC
    (1, 8, 0x80000010, 0x12345678, 0x00001000),   # ARG_IMM: VD << 8
    (5, 8, 0x80000010, 0x12345678, 0x34567800),   # ARG_IMM | USE_VC: VC << 8
    (5, -8, 0x80000010, 0x92345678, 0x00923456),  # VC >> 8, logical
    (7, -8, 0x80000010, 0x92345678, 0xFF923456),  # VC >> 8, arithmetic
    (4, 0, 0x80000010, 0x00000001, 0x00000020),   # USE_VC without ARG_IMM: VD << VC
    (6, 0, 0x80000010, 0xFFFFFFFF, 0xC0000008),   # ARITHMETIC (USE_VC ignored): VD >> 1
]


@pytest.mark.parametrize("mod1,imm12,vd,vc,result", SHFT_CASES)
def test_sfpshft_blackhole(mod1, imm12, vd, vc, result):
    m = machine()
    setreg(m, 1, vd)
    setreg(m, 2, vc)
    run(m, "SFPSHFT", vd=1, vc=2, mod1=mod1, imm12=imm12)
    assert reg(m, 1) == [result] * LANES


def test_sfpshft_same_word_on_both():
    # Mod1 = 7 (ARG_IMM | ARITHMETIC | USE_VC), Imm12 = -8. Wormhole only
    # knows ARG_IMM: VD (0x80000010) >> 8 logically = 0x00800000.
    # Blackhole: VC (0x92345678) >> 8 arithmetically = 0xFF923456.
    def setup(m):
        setreg(m, 1, 0x80000010)
        setreg(m, 2, 0x92345678)
    wh, bh = on_both(encode("SFPSHFT", WH, vd=1, vc=2, mod1=7, imm12=-8), setup)
    assert reg(wh, 1) == [0x00800000] * LANES
    assert reg(bh, 1) == [0xFF923456] * LANES
    # Mod1 = 1 (plain immediate): the same on both.
    wh, bh = on_both(encode("SFPSHFT", WH, vd=1, vc=2, mod1=1, imm12=-8), setup)
    assert reg(wh, 1) == reg(bh, 1) == [0x00800000] * LANES


# ---------------------------------------------------------------------------
# SFPCAST: IntInt, IntAbs, IntFloat
# ---------------------------------------------------------------------------

CAST_IN = [5, 0xFFFFFFFB, 0x80000000, 0, 0x80000005, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000001]


def test_sfpcast_int32_abs():
    # Mod1 & 3 == 2: two's complement |x|; -2^31 stays.
    m = machine()
    setreg(m, 1, CAST_IN * 4)
    run(m, "SFPCAST", vd=2, vc=1, mod1=2)
    # 0x80000005 = -2147483643 -> 2147483643 = 0x7FFFFFFB; 0xFFFFFFFF -> 1;
    # 0x80000001 = -2147483647 -> 0x7FFFFFFF.
    assert reg(m, 2) == [5, 5, 0x80000000, 0, 0x7FFFFFFB, 0x7FFFFFFF, 1, 0x7FFFFFFF] * 4


def test_sfpcast_int32_sm32_both_ways():
    # Mod1 & 3 == 3: Sign | (Sign ? -c : c).
    m = machine()
    setreg(m, 1, CAST_IN * 4)
    run(m, "SFPCAST", vd=2, vc=1, mod1=3)
    # -5 (0xFFFFFFFB) -> sign-magnitude 0x80000005; -2^31 -> -0 (0x80000000);
    # sign-magnitude -5 (0x80000005) -> 0xFFFFFFFB; -1 -> 0x80000001;
    # sign-magnitude -1 (0x80000001) -> 0xFFFFFFFF.
    assert reg(m, 2) == [5, 0x80000005, 0x80000000, 0, 0xFFFFFFFB, 0x7FFFFFFF, 0x80000001, 0xFFFFFFFF] * 4


def test_sfpcast_integer_modes_ignore_mod1_bits_2_and_3_and_leave_the_prng():
    m = machine()
    m.state.prng = np.arange(LANES, dtype=U32) * U32(12345) + U32(1)
    prng = m.state.prng.copy()
    setreg(m, 1, CAST_IN * 4)
    run(m, "SFPCAST", vd=2, vc=1, mod1=14)                    # 14 & 3 = 2: IntAbs
    run(m, "SFPCAST", vd=3, vc=1, mod1=7)                     # 7 & 3 = 3: IntInt
    assert reg(m, 2) == [5, 5, 0x80000000, 0, 0x7FFFFFFB, 0x7FFFFFFF, 1, 0x7FFFFFFF] * 4
    assert reg(m, 3)[:2] == [5, 0x80000005]
    assert np.array_equal(m.state.prng, prng)


def test_sfpcast_integer_modes_respect_lane_enable():
    m = machine()
    setreg(m, 1, 0xFFFFFFFF)
    setreg(m, 2, 77)
    m.state.use_flags[:] = True
    m.state.lane_flags = LANE < 4
    run(m, "SFPCAST", vd=2, vc=1, mod1=3)
    assert reg(m, 2) == [0x80000001 if i < 4 else 77 for i in range(LANES)]


def test_sfpcast_float_modes_and_wormhole():
    # Mod1 0 (RNE) is Wormhole's conversion: 5 -> 5.0 (0x40A00000), sm -5 -> -5.0.
    def setup(m):
        setreg(m, 1, [5, 0x80000005] * 16)
    wh, bh = on_both(encode("SFPCAST", WH, vd=2, vc=1, mod1=0), setup)
    assert reg(wh, 2) == reg(bh, 2) == [0x40A00000, 0xC0A00000] * 16
    # Mod1 2: Wormhole still converts to FP32 (bit 0 clear: RNE); Blackhole takes |x|:
    # sm -5 = 0x80000005 as two's complement is -2147483643 -> 0x7FFFFFFB.
    wh, bh = on_both(encode("SFPCAST", WH, vd=2, vc=1, mod1=2), setup)
    assert reg(wh, 2) == [0x40A00000, 0xC0A00000] * 16
    assert reg(bh, 2) == [5, 0x7FFFFFFB] * 16


# ---------------------------------------------------------------------------
# SFPPUSHC: Mod1 != 0 changes the stack top
# ---------------------------------------------------------------------------

# Lanes cycle through (A = top flag, B = current flag) = (0,0), (0,1), (1,0), (1,1).
A = [bool(i & 2) for i in range(4)] * 8
B = [bool(i & 1) for i in range(4)] * 8
# BooleanOp(Mod1, A, B) for those four lanes, written from the page's table.
BOOLEAN_OP = {
    1: [0, 1, 0, 1],    # B
    2: [1, 0, 1, 0],    # !B
    3: [0, 0, 0, 1],    # A && B
    4: [0, 1, 1, 1],    # A || B
    5: [0, 0, 1, 0],    # A && !B
    6: [1, 0, 1, 1],    # A || !B
    7: [0, 1, 0, 0],    # !A && B
    8: [1, 1, 0, 1],    # !A || B
    9: [1, 0, 0, 0],    # !A && !B
    10: [1, 1, 1, 0],   # !A || !B
    11: [0, 1, 1, 0],   # A != B
    12: [1, 0, 0, 1],   # A == B
}
TOP_USE = [i % 3 == 0 for i in range(LANES)]
CUR_USE = [i % 5 == 0 for i in range(LANES)]


def _stacked(m: Machine, depth: int = 2) -> FlagStackEntry:
    bottom = FlagStackEntry(np.zeros(LANES, dtype=bool), np.zeros(LANES, dtype=bool))
    top = FlagStackEntry(np.array(A), np.array(TOP_USE))
    m.state.flag_stack = [bottom] * (depth - 1) + [top]
    m.state.lane_flags = np.array(B)
    m.state.use_flags = np.array(CUR_USE)
    return bottom


@pytest.mark.parametrize("mod1", sorted(BOOLEAN_OP))
def test_pushc_boolean_ops_mutate_the_top(mod1):
    m = machine()
    bottom = _stacked(m)
    run(m, "SFPPUSHC", mod1=mod1)
    assert len(m.state.flag_stack) == 2 and m.state.flag_stack[0] is bottom
    top = m.state.flag_stack[-1]
    assert top.lane_flags.tolist() == [bool(v) for v in BOOLEAN_OP[mod1]] * 8
    assert top.use_flags.tolist() == CUR_USE                  # replaced by the current one
    assert m.state.lane_flags.tolist() == B and m.state.use_flags.tolist() == CUR_USE


def test_pushc_13_inverts_the_flags_and_replaces_the_top():
    m = machine()
    _stacked(m)
    run(m, "SFPPUSHC", mod1=13)
    inverted = [not b for b in B]
    assert m.state.lane_flags.tolist() == inverted
    assert m.state.flag_stack[-1].lane_flags.tolist() == inverted
    assert m.state.flag_stack[-1].use_flags.tolist() == CUR_USE


@pytest.mark.parametrize("mod1,flag", [(14, True), (15, False)])
def test_pushc_14_15_constants(mod1, flag):
    m = machine()
    _stacked(m)
    run(m, "SFPPUSHC", mod1=mod1)
    assert m.state.flag_stack[-1].lane_flags.tolist() == [flag] * LANES
    assert m.state.flag_stack[-1].use_flags.tolist() == [True] * LANES
    assert m.state.lane_flags.tolist() == B


def test_pushc_mutating_a_full_stack_is_fine_pushing_is_not():
    m = machine()
    _stacked(m, depth=8)
    run(m, "SFPPUSHC", mod1=3)
    assert len(m.state.flag_stack) == 8
    with pytest.raises(UndefinedBehaviour):
        run(m, "SFPPUSHC", mod1=0)


def test_pushc_mutating_an_empty_stack_is_undefined():
    with pytest.raises(UndefinedBehaviour):
        run(machine(), "SFPPUSHC", mod1=4)
    m = machine(strict=False)                                 # lenient: nothing changes
    run(m, "SFPPUSHC", mod1=4)
    assert m.state.flag_stack == [] and m.warnings


def test_pushc_plain_push_as_on_wormhole():
    for arch in (WH, BH):
        m = machine(arch)
        m.state.lane_flags = np.array(B)
        m.state.use_flags = np.array(CUR_USE)
        run(m, "SFPPUSHC")
        assert len(m.state.flag_stack) == 1
        assert m.state.flag_stack[0].lane_flags.tolist() == B


def test_pushc_mod1_is_reserved_on_wormhole():
    word = encode("SFPPUSHC", BH, mod1=3)
    with pytest.raises(UndefinedBehaviour):
        machine(WH).execute(word)


def test_pushc_mutation_obeys_the_backdoor_guard():
    # VD = 12: only lanes with DISABLE_BACKDOOR_LOAD (0-15 here) change the top.
    m = machine()
    _stacked(m)
    m.state.lane_config = np.where(LANE < 16, DISABLE_BACKDOOR_LOAD, 0).astype(U32)
    run(m, "SFPPUSHC", vd=12, mod1=14)
    assert m.state.flag_stack[-1].lane_flags.tolist() == [True if i < 16 else A[i] for i in range(LANES)]
    assert m.state.flag_stack[-1].use_flags.tolist() == [True if i < 16 else TOP_USE[i] for i in range(LANES)]


# ---------------------------------------------------------------------------
# SFPPOPC on a full stack: Wormhole's flaw is fixed
# ---------------------------------------------------------------------------

def test_popc_full_stack_bottom_kept_on_blackhole_only():
    def setup(m):
        entries = [FlagStackEntry(np.full(LANES, i % 2 == 0), np.full(LANES, True)) for i in range(7)]
        top = FlagStackEntry(np.array(A), np.array(TOP_USE))
        m.state.flag_stack = entries + [top]
        m.state.lane_flags = np.array(B)
    wh, bh = on_both(encode("SFPPOPC", WH, mod1=3), setup)
    and_flags = [bool(v) for v in BOOLEAN_OP[3]] * 8              # LaneFlags = LaneFlags && Top
    assert wh.state.lane_flags.tolist() == bh.state.lane_flags.tolist() == and_flags
    assert len(wh.state.flag_stack) == len(bh.state.flag_stack) == 8
    assert wh.state.flag_stack[0].lane_flags.tolist() == A         # Wormhole: Bottom = Top
    assert bh.state.flag_stack[0].lane_flags.tolist() == [True] * LANES   # Blackhole: untouched


# ---------------------------------------------------------------------------
# SFPSHFT2 SUBVEC_SHFLSHR1: fixed
# ---------------------------------------------------------------------------

def test_shflshr1_shifts_in_zero_on_blackhole():
    def setup(m):
        setreg(m, 5, 1000 + LANE)
        setreg(m, 6, 2000 + LANE)
    # A mode-3 SFPSHFT2 first, which on Wormhole captures VC (L6) for mode 4's flaw.
    for arch in (WH, BH):
        m = machine(arch)
        setup(m)
        run(m, "SFPSHFT2", vd=7, vc=6, mod1=3)
        run(m, "SFPSHFT2", vd=1, vc=5, mod1=4)
        # lanes with Lane & 7 != 0 take vc[Lane - 1]; lanes 0, 8, 16, 24 take 0
        # (Blackhole) or the captured vc0[Lane + 7] (Wormhole).
        fill = [0] * 4 if arch is BH else [2000 + i + 7 for i in (0, 8, 16, 24)]
        expect = [1000 + i - 1 if i & 7 else fill[i // 8] for i in range(LANES)]
        assert reg(m, 1) == expect, arch


def test_shflror1_captures_nothing_on_blackhole():
    m = machine()
    setreg(m, 6, 5)
    effects = m.execute(encode("SFPSHFT2", BH, vd=7, vc=6, mod1=3))
    assert effects.shft2_captured_vc is None
    assert reg(m, 7) == [5] * LANES


# ---------------------------------------------------------------------------
# SFPSTOCHRND: the 2-bit rounding mode
# ---------------------------------------------------------------------------

def _stochrnd(values, rnd_mode: int, mod1: int, **extra) -> list[int]:
    m = machine()
    setreg(m, 1, (list(values) * LANES)[:LANES])
    run(m, "SFPSTOCHRND", vd=2, vb=1, vc=1, mod1=mod1, rnd_mode=rnd_mode, **extra)
    return reg(m, 2)[:len(values)]


def test_stochrnd_float_float_modes():
    # FP32_TO_FP16B (Mod1 1): 16 discarded bits, round up when
    # DiscardedBits >= PRNGBits >> 7: nearest 0x400000 >> 7 = 0x8000,
    # toward zero 0x7FFFFF >> 7 = 0xFFFF.
    x = [0x3F80FFFF, 0x3F80FFFE, 0x3F808000, 0x3F807FFF, 0xBF80FFFE]
    assert _stochrnd(x, 0, 1) == [0x3F810000, 0x3F810000, 0x3F810000, 0x3F800000, 0xBF810000]
    # toward zero: 0xFFFF >= 0xFFFF still rounds away (the documented flaw)
    assert _stochrnd(x, 2, 1) == [0x3F810000, 0x3F800000, 0x3F800000, 0x3F800000, 0xBF800000]
    # FP32_TO_FP16A (Mod1 0): 13 bits, toward zero compares with 0x7FFFFF >> 10 = 0x1FFF.
    assert _stochrnd([0x3F801FFF, 0x3F801FFE], 2, 0) == [0x3F802000, 0x3F800000]


def test_stochrnd_float_int_toward_zero_and_its_three_flawed_values():
    # FP32_TO_INT8 (Mod1 3): Mag = 1.m shifted by Exp, +1 when its fraction
    # (23 bits) >= PRNGBits (0x7FFFFF toward zero).
    # 0x3F7FFFFE, 0x3F7FFFFF: Exp -1, Mag = 0xFFFFFx >> 1 = 0x7FFFFF: rounds to 1.
    # 0x3FFFFFFF: Exp 0, fraction 0x7FFFFF: 1 + 1 = 2. 0x3FFFFFFE: 1.
    # 2.5 (0x40200000): Exp 1, Mag 0x1400000: 2 (fraction 0x400000); nearest gives 3.
    # -2.5: sign kept.
    x = [0x3F7FFFFE, 0x3F7FFFFF, 0x3FFFFFFF, 0x3FFFFFFE, 0x40200000, 0xC0200000]
    assert _stochrnd(x, 2, 3) == [1, 1, 2, 1, 2, 0x80000002]
    assert _stochrnd(x, 0, 3) == [1, 1, 2, 2, 3, 0x80000003]


def test_stochrnd_int_int_toward_zero_flaw_beyond_22_bits():
    # INT32_TO_INT8 (Mod1 5), shift by Imm5: Mag = (c << 23) >> s, result
    # (Mag >> 23) + (low 23 bits >= 0x7FFFFF). With s = 23 the fraction is c's
    # low 23 bits, which can reach 0x7FFFFF: 0x00FFFFFF -> 1 + 1 = 2.
    # With s = 22 the fraction is at most 0x7FFFFE: 0x003FFFFF -> 0.
    assert _stochrnd([0x00FFFFFF], 2, 5, use_imm5=1, imm5=23) == [2]
    assert _stochrnd([0x003FFFFF], 2, 5, use_imm5=1, imm5=22) == [0]
    assert _stochrnd([0x003FFFFF], 0, 5, use_imm5=1, imm5=22) == [1]    # nearest: 0x7FFFFE >= 0x400000


def test_stochrnd_mode_3_is_stochastic_and_every_mode_advances_the_prng():
    results, prngs = {}, {}
    for mode in range(4):
        m = machine()
        m.state.prng = (np.arange(LANES, dtype=np.uint64) * 2654435761 % (1 << 32)).astype(U32)
        setreg(m, 1, 0x3F80ABCD)
        run(m, "SFPSTOCHRND", vd=2, vb=1, vc=1, mod1=1, rnd_mode=mode)
        results[mode], prngs[mode] = reg(m, 2), m.state.prng.tolist()
    assert results[3] == results[1]                            # no case in the switch: PRNG bits kept
    assert prngs[0] == prngs[1] == prngs[2] == prngs[3]
    assert len(set(results[1])) == 2                            # stochastic: some lanes up, some down
    assert results[0] == [0x3F810000] * LANES and results[2] == [0x3F800000] * LANES


def test_stochrnd_rnd_mode_bit_22_is_ignored_by_wormhole():
    # rnd_mode = 2 sets bit 22; Wormhole's stochastic bit is bit 21 alone:
    # Wormhole rounds 0x3F808000 to nearest (up), Blackhole toward zero.
    def setup(m):
        setreg(m, 1, 0x3F808000)
    wh, bh = on_both(encode("SFPSTOCHRND", BH, vd=2, vb=1, vc=1, mod1=1, rnd_mode=2), setup)
    assert reg(wh, 2) == [0x3F810000] * LANES
    assert reg(bh, 2) == [0x3F800000] * LANES


# ---------------------------------------------------------------------------
# Instructions whose Blackhole page matches Wormhole's: same word, same result
# ---------------------------------------------------------------------------

SAME = [
    ("SFPIADD", dict(vd=1, vc=2, mod1=1, imm12=-3)),
    ("SFPSETCC", dict(vd=1, vc=2, mod1=0)),
    ("SFPABS", dict(vd=1, vc=2, mod1=1)),
    ("SFPXOR", dict(vd=1, vc=2)),
    ("SFPLZ", dict(vd=1, vc=2, mod1=2)),
    ("SFPSWAP", dict(vd=1, vc=2, mod1=1)),
    ("SFPEXEXP", dict(vd=1, vc=2, mod1=0)),
    ("SFPMOV", dict(vd=1, vc=2, mod1=1)),
    ("SFPSHFT2", dict(vd=1, vc=2, mod1=3)),
    ("SFPCOMPC", dict()),
    ("SFPTRANSP", dict()),
    ("SFPCONFIG", dict(vd=15, mod1=1, imm16=0x14)),
]


@pytest.mark.parametrize("mnemonic,fields", SAME)
def test_unchanged_instructions_agree(mnemonic, fields):
    def setup(m):
        rng = np.random.default_rng(len(mnemonic))
        m.state.lregs[:8] = rng.integers(0, 1 << 32, (8, LANES), dtype=np.uint64).astype(U32)
        m.state.lane_flags = rng.integers(0, 2, LANES).astype(bool)
        m.state.use_flags = rng.integers(0, 2, LANES).astype(bool)
        m.state.flag_stack = [FlagStackEntry(rng.integers(0, 2, LANES).astype(bool), np.ones(LANES, dtype=bool))]
    wh, bh = on_both(encode(mnemonic, WH, **fields), setup)
    assert np.array_equal(wh.state.lregs, bh.state.lregs)
    assert wh.state.lane_flags.tolist() == bh.state.lane_flags.tolist()
    assert wh.state.use_flags.tolist() == bh.state.use_flags.tolist()
    assert np.array_equal(wh.state.lane_config, bh.state.lane_config)
