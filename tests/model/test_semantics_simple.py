"""Simple-unit, predication, backdoor and cross-lane semantics of model.machine.

Every expected value below was worked out by hand from the functional models of
jasondavies/tt-isa-documentation (e739ac0), WormholeB0/TensixTile/
TensixCoprocessor/<INSTR>.md, and VectorUnit.md for IsLaneEnabled and
AdvancePRNG; the spec sheet sections are noted where useful. None of them was
obtained by running the model.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.isa import decode, encode
from tensix_sfpu.model.machine import Machine, UndefinedBehaviour
from tensix_sfpu.model.semantics import Operands
from tensix_sfpu.model.state import FlagStackEntry, SfpuState
from tensix_sfpu.model.isa import Arch

LANES = 32
LANE = np.arange(LANES)
U32 = np.uint32

# LaneConfig bits (SFPCONFIG.md, "LaneConfig" table).
DISABLE_BACKDOOR_LOAD = 1 << 1
ENABLE_DEST_INDEX = 1 << 2
EXCHANGE_SRCB_SRCC = 1 << 8


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def machine() -> Machine:
    return Machine(SfpuState(Arch.WORMHOLE), strict=True)


def setreg(m: Machine, r: int, values) -> None:
    m.state.lregs[r] = np.broadcast_to(np.asarray(values, dtype=np.int64) & 0xFFFFFFFF, (LANES,)).astype(U32)


def reg(m: Machine, r: int) -> list[int]:
    return [int(v) for v in m.state.lregs[r]]


def run(m: Machine, mnemonic: str, **fields) -> None:
    m.execute(encode(mnemonic, m.state.arch, **fields))


def enable_only(m: Machine, lanes) -> None:
    """UseLaneFlagsForLaneEnable = 1 everywhere, LaneFlags = 1 only in `lanes`."""
    m.state.use_flags = np.ones(LANES, dtype=bool)
    flags = np.zeros(LANES, dtype=bool)
    flags[list(lanes)] = True
    m.state.lane_flags = flags


def bools(bits) -> np.ndarray:
    return np.array([bool(b) for b in bits], dtype=bool)


def flags(m: Machine) -> list[bool]:
    return [bool(b) for b in m.state.lane_flags]


def use(m: Machine) -> list[bool]:
    return [bool(b) for b in m.state.use_flags]


def entry(lane_flags, use_flags) -> FlagStackEntry:
    return FlagStackEntry(np.broadcast_to(bools(lane_flags) if np.ndim(lane_flags) else np.full(LANES, bool(lane_flags)),
                                          (LANES,)).copy(),
                          np.broadcast_to(bools(use_flags) if np.ndim(use_flags) else np.full(LANES, bool(use_flags)),
                                          (LANES,)).copy())


def run_vd16(m: Machine, word: int, vb: int | None = None, vc: int | None = None) -> None:
    """Execute `word` as an SFPLOADMACRO-scheduled instruction whose VD was
    overridden to 16 (the only way VD = 16 arises)."""
    ins = decode(word, m.state.arch)
    if vc is None:
        vc = ins.get("vc")
    m.execute_operands(Operands(ins, 16, vb, vc, macro=True))


def ror1(lane: int) -> int:
    """Source lane of SHFLROR1: `Lane & 7 ? Lane - 1 : Lane + 7` (SFPSHFT2.md)."""
    return lane - 1 if lane & 7 else lane + 7


# ---------------------------------------------------------------------------
# SFPABS (SFPABS.md)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mod1,x,expected", [
    # FLOAT: sign clear -> unchanged; x > 0xFF800000 (-NaN) -> unchanged; else clear sign.
    (1, 0x3F800000, 0x3F800000),
    (1, 0x7FC00000, 0x7FC00000),   # +NaN untouched (sign clear)
    (1, 0xBF800000, 0x3F800000),
    (1, 0x80000000, 0x00000000),   # -0 -> +0
    (1, 0x80000001, 0x00000001),   # -denormal -> +denormal
    (1, 0xFF800000, 0x7F800000),   # -Inf -> +Inf (jd text: strict >)
    (1, 0xFF800001, 0xFF800001),   # -NaN kept
    (1, 0xFFC00000, 0xFFC00000),   # -NaN kept
    (1, 0xFFFFFFFF, 0xFFFFFFFF),   # -NaN kept
    (1, 0xFF7FFFFF, 0x7F7FFFFF),   # -max finite
    # INT: two's-complement negate when the sign is set.
    (0, 0x00000005, 0x00000005),
    (0, 0x7FFFFFFF, 0x7FFFFFFF),
    (0, 0xFFFFFFFF, 0x00000001),
    (0, 0x80000001, 0x7FFFFFFF),
    (0, 0x80000000, 0x80000000),   # -2^31 stays
    (0, 0xBF800000, 0x40800000),   # -(0xBF800000) mod 2^32
    (0, 0xFF800000, 0x00800000),
])
def test_sfpabs(mod1, x, expected):
    m = machine()
    setreg(m, 2, x)
    setreg(m, 1, 0xDEADBEEF)
    run(m, "SFPABS", vd=1, vc=2, mod1=mod1)
    assert reg(m, 1) == [expected] * LANES
    assert reg(m, 2) == [x] * LANES


def test_sfpabs_other_mod1_bits_ignored():
    # Only bit 0 (FLOAT) is tested by the model: Mod1=3 behaves as FLOAT, 2 as INT.
    m = machine()
    setreg(m, 2, 0xFF800000)
    run(m, "SFPABS", vd=1, vc=2, mod1=3)
    assert reg(m, 1) == [0x7F800000] * LANES
    run(m, "SFPABS", vd=3, vc=2, mod1=2)
    assert reg(m, 3) == [0x00800000] * LANES


# ---------------------------------------------------------------------------
# SFPAND / SFPOR / SFPXOR / SFPNOT
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mn,expected", [
    ("SFPAND", 0xF0001200),
    ("SFPOR", 0xFFF0FF34),
    ("SFPXOR", 0x0FF0ED34),
])
def test_bitwise_vd_op_vc(mn, expected):
    # VB = VD: VD = VD op VC.
    m = machine()
    setreg(m, 1, 0xF0F01234)
    setreg(m, 2, 0xFF00FF00)
    run(m, mn, vd=1, vc=2)
    assert reg(m, 1) == [expected] * LANES
    assert reg(m, 2) == [0xFF00FF00] * LANES


def test_sfpnot_ignores_old_vd():
    m = machine()
    setreg(m, 1, 0x12345678)
    setreg(m, 2, 0xFF00FF00)
    run(m, "SFPNOT", vd=1, vc=2)
    assert reg(m, 1) == [0x00FF00FF] * LANES


def test_bitwise_same_register_and_constants():
    m = machine()
    setreg(m, 3, 0x12345678)
    run(m, "SFPXOR", vd=3, vc=3)
    assert reg(m, 3) == [0] * LANES
    setreg(m, 4, 0xFFFFFFFF)
    run(m, "SFPAND", vd=4, vc=10)        # L10 = 1.0
    assert reg(m, 4) == [0x3F800000] * LANES
    run(m, "SFPOR", vd=4, vc=15)         # L15 lane i = 2i
    assert reg(m, 4) == [0x3F800000 | (2 * i) for i in range(LANES)]
    run(m, "SFPNOT", vd=5, vc=9)         # L9 = 0
    assert reg(m, 5) == [0xFFFFFFFF] * LANES


# ---------------------------------------------------------------------------
# SFPLZ (SFPLZ.md)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("c,nosgn,expected", [
    (0x00000000, False, 32),
    (0x00000001, False, 31),
    (0x00000100, False, 23),
    (0x00010000, False, 15),
    (0x7FFFFFFF, False, 1),
    (0x80000000, False, 0),
    (0xFFFFFFFF, False, 0),
    (0x80000000, True, 32),     # masked to 0
    (0xFFFFFFFF, True, 1),      # masked to 0x7FFFFFFF
    (0x80000001, True, 31),
    (0x00FFFFFF, False, 8),
    (0x01000000, False, 7),
])
def test_sfplz_count(c, nosgn, expected):
    m = machine()
    setreg(m, 2, c)
    run(m, "SFPLZ", vd=1, vc=2, mod1=4 if nosgn else 0)
    assert reg(m, 1) == [expected] * LANES


def test_sfplz_every_bit_position():
    # clz(1 << k) = clz((2 << k) - 1) = 31 - k: one k per lane (k = lane).
    m = machine()
    setreg(m, 2, [1 << k for k in range(32)])
    setreg(m, 3, [(2 << k) - 1 for k in range(32)])
    run(m, "SFPLZ", vd=1, vc=2, mod1=0)
    run(m, "SFPLZ", vd=4, vc=3, mod1=0)
    assert reg(m, 1) == [31 - k for k in range(32)]
    assert reg(m, 4) == [31 - k for k in range(32)]


# lanes 0..3 hold c = 0, 5, 0x80000000, 0xFFFFFFFF; initial LaneFlags F, T, F, T (all enabled: Use = 0).
LZ_C = [0, 5, 0x80000000, 0xFFFFFFFF]
LZ_OLD = [False, True, False, True]


@pytest.mark.parametrize("mod1,expected_flags", [
    (0, LZ_OLD),                          # no CC bits: flags untouched
    (2, [False, True, True, True]),       # CC_NE0: c != 0
    (4, LZ_OLD),                          # NOSGN alone: no flag change
    (6, [False, True, False, True]),      # NE0 on the masked value (0x80000000 -> 0)
    (8, [True, False, True, False]),      # CC_COMP alone: invert old flags
    (10, [True, False, False, False]),    # NE0 then invert: c == 0
    (12, [True, False, True, False]),     # NOSGN | COMP: invert
    (14, [True, False, True, False]),     # masked NE0 then invert
])
def test_sfplz_flags(mod1, expected_flags):
    m = machine()
    setreg(m, 2, LZ_C * 8)
    m.state.lane_flags = bools(LZ_OLD * 8)
    run(m, "SFPLZ", vd=1, vc=2, mod1=mod1)
    assert flags(m) == expected_flags * 8
    assert use(m) == [False] * LANES


def test_sfplz_flags_only_in_enabled_lanes():
    m = machine()
    setreg(m, 2, 0)
    setreg(m, 1, 0xAAAA)
    enable_only(m, range(0, 32, 2))     # odd lanes disabled (their flags are 0)
    run(m, "SFPLZ", vd=1, vc=2, mod1=10)   # flags = (c == 0) = 1 where executed
    assert flags(m) == [lane % 2 == 0 for lane in range(LANES)]
    assert reg(m, 1) == [32 if lane % 2 == 0 else 0xAAAA for lane in range(LANES)]


def test_sfplz_no_flag_update_for_vd16():
    # `if (VD < 8)` guards the flag update; VD = 16 still writes L16.
    m = machine()
    setreg(m, 2, 0x00010000)
    m.state.lane_flags = bools([True, False] * 16)
    run_vd16(m, encode("SFPLZ", Arch.WORMHOLE, vd=1, vc=2, mod1=10))
    assert reg(m, 16) == [15] * LANES
    assert flags(m) == [True, False] * 16


@pytest.mark.parametrize("vd", [8, 9, 10, 11])
def test_sfplz_vd_ge8_changes_nothing(vd):
    m = machine()
    setreg(m, 2, 0)
    m.state.lane_flags = bools([True, False] * 16)
    before = m.state.lregs.copy()
    run(m, "SFPLZ", vd=vd, vc=2, mod1=8)
    assert np.array_equal(m.state.lregs, before)
    assert flags(m) == [True, False] * 16


# ---------------------------------------------------------------------------
# SFPSHFT (SFPSHFT.md)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("imm12,value,expected", [
    (4, 0x12345678, 0x23456780),
    (-4, 0x12345678, 0x01234567),
    (-1, 0x80000000, 0x40000000),     # logical, not arithmetic
    (-1, 0xFFFFFFFF, 0x7FFFFFFF),
    (31, 0x00000001, 0x80000000),
    (32, 0x12345678, 0x12345678),     # 32 & 31 = 0
    (-32, 0x12345678, 0x12345678),
    (2047, 0x00000003, 0x80000000),   # 2047 & 31 = 31
    (-2048, 0x12345678, 0x12345678),  # 2048 & 31 = 0
    (-31, 0x80000000, 0x00000001),
    (0, 0xCAFEF00D, 0xCAFEF00D),
])
def test_sfpshft_immediate(imm12, value, expected):
    m = machine()
    setreg(m, 1, value)
    run(m, "SFPSHFT", vd=1, vc=2, imm12=imm12, mod1=1)
    assert reg(m, 1) == [expected] * LANES


def test_sfpshft_immediate_ignores_vc():
    m = machine()
    setreg(m, 1, 1)
    setreg(m, 2, 5)
    run(m, "SFPSHFT", vd=1, vc=2, imm12=3, mod1=1)
    assert reg(m, 1) == [8] * LANES


# Register amounts (L[VC] as int32), one per lane; VD = 0x80000001 in every lane.
SHFT_AMOUNTS = [0, 1, -1, 31, -31, 33, -33, 0x80000000, 0x7FFFFFFF, -2, 16, -16]
SHFT_EXPECT = [0x80000001, 0x00000002, 0x40000000, 0x80000000, 0x00000001, 0x00000002,
               0x40000000, 0x80000001, 0x80000000, 0x20000000, 0x00010000, 0x00008000]


def test_sfpshft_register_amounts():
    m = machine()
    amounts = (SHFT_AMOUNTS + [0] * LANES)[:LANES]
    setreg(m, 1, 0x80000001)
    setreg(m, 2, amounts)
    run(m, "SFPSHFT", vd=1, vc=2, imm12=5, mod1=0)    # Imm12 unused without ARG_IMM
    assert reg(m, 1)[:len(SHFT_EXPECT)] == SHFT_EXPECT
    assert reg(m, 1)[len(SHFT_EXPECT):] == [0x80000001] * (LANES - len(SHFT_EXPECT))


# ---------------------------------------------------------------------------
# SFPIADD (SFPIADD.md)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mod1,imm12,vd_val,vc_val,result,flag", [
    # ARG_IMM: VD = VC + SignExtend(Imm12); CC_LT0 default.
    (1, -7, 0, 5, 0xFFFFFFFE, True),
    (1, 7, 0, 5, 12, False),
    (1, 2047, 0, 0x7FFFFFFF, 0x800007FE, True),        # wraps
    (1, -2048, 0, 0x80000000, 0x7FFFF800, False),      # wraps
    (1, -1, 0, 0, 0xFFFFFFFF, True),
    # 2SCOMP_LREG_DST: VD = VC - VD.
    (2, 0, 3, 10, 7, False),
    (2, 0, 10, 3, 0xFFFFFFF9, True),
    (2, 0, 1, 0x80000000, 0x7FFFFFFF, False),          # wraps
    (2, 0, 0x80000000, 0, 0x80000000, True),
    # LREG_DST: VD = VC + VD.
    (0, 0, 0xFFFFFFFF, 1, 0, False),                   # wraps to 0
    (0, 0, 0x7FFFFFFF, 1, 0x80000000, True),           # wraps to negative
    (0, 0, 0x80000000, 0x80000000, 0, False),
    (0, 0, 3, 4, 7, False),
    # ARG_IMM takes priority over the subtract bit.
    (3, 1, 100, 5, 6, False),
])
def test_sfpiadd_arith_and_lt0_flags(mod1, imm12, vd_val, vc_val, result, flag):
    m = machine()
    setreg(m, 1, vd_val)
    setreg(m, 2, vc_val)
    m.state.lane_flags = bools([not flag] * LANES)
    run(m, "SFPIADD", vd=1, vc=2, imm12=imm12, mod1=mod1)
    assert reg(m, 1) == [result] * LANES
    assert flags(m) == [flag] * LANES
    assert use(m) == [False] * LANES


# lanes: VC + 0 gives -1, 0, 1, 0x80000000; old flags T, F, T, F.
IADD_VC = [0xFFFFFFFF, 0, 1, 0x80000000]
IADD_OLD = [True, False, True, False]


@pytest.mark.parametrize("cc,expected", [
    (0, [True, False, False, True]),      # CC_LT0
    (4, IADD_OLD),                        # CC_NONE: untouched
    (8, [False, True, True, False]),      # CC_GTE0
    (12, [False, True, False, True]),     # CC_NONE | CC_GTE0: invert old flags
])
def test_sfpiadd_cc_modes(cc, expected):
    m = machine()
    setreg(m, 2, IADD_VC * 8)
    m.state.lane_flags = bools(IADD_OLD * 8)
    run(m, "SFPIADD", vd=1, vc=2, imm12=0, mod1=1 | cc)
    assert reg(m, 1) == IADD_VC * 8
    assert flags(m) == expected * 8


def test_sfpiadd_flags_only_in_enabled_lanes():
    m = machine()
    setreg(m, 2, 5)
    setreg(m, 1, 0x1234)
    enable_only(m, [0, 1, 2, 3, 16])
    run(m, "SFPIADD", vd=1, vc=2, imm12=-6, mod1=1)     # -1 < 0: flag stays 1 where enabled
    run(m, "SFPIADD", vd=1, vc=2, imm12=0, mod1=1)      # 5 >= 0: flag -> 0 in enabled lanes
    assert flags(m) == [False] * LANES
    assert reg(m, 1) == [5 if lane in (0, 1, 2, 3, 16) else 0x1234 for lane in range(LANES)]
    # CC_GTE0 on the now-disabled lanes must not set anything.
    run(m, "SFPIADD", vd=1, vc=2, imm12=0, mod1=9)
    assert flags(m) == [False] * LANES


def test_sfpiadd_gte0_in_enabled_lanes_only():
    m = machine()
    setreg(m, 2, 7)
    enable_only(m, [4, 5])
    m.state.lane_flags[[4, 5]] = True
    run(m, "SFPIADD", vd=1, vc=2, imm12=0, mod1=13)     # CC_NONE|CC_GTE0: invert in enabled lanes
    assert flags(m) == [False] * LANES


def test_sfpiadd_vd16_writes_l16_but_no_flags():
    m = machine()
    setreg(m, 2, 1)
    m.state.lane_flags = bools([False, True] * 16)
    run_vd16(m, encode("SFPIADD", Arch.WORMHOLE, vd=1, vc=2, imm12=-3, mod1=1))
    assert reg(m, 16) == [0xFFFFFFFE] * LANES
    assert flags(m) == [False, True] * 16


@pytest.mark.parametrize("vd", [8, 9, 10, 11])
def test_sfpiadd_vd_ge8_no_flags(vd):
    m = machine()
    setreg(m, 2, 1)
    m.state.lane_flags = bools([False, True] * 16)
    before = m.state.lregs.copy()
    run(m, "SFPIADD", vd=vd, vc=2, imm12=-3, mod1=9)
    assert flags(m) == [False, True] * 16
    assert np.array_equal(m.state.lregs, before)


# ---------------------------------------------------------------------------
# SFPEXEXP / SFPEXMAN
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("c,biased,unbiased", [
    (0x3F800000, 127, 0),              # 1.0
    (0x3F000000, 126, 0xFFFFFFFF),     # 0.5 -> -1
    (0x00000000, 0, 0xFFFFFF81),       # -127
    (0x00000001, 0, 0xFFFFFF81),       # denormal: exponent field 0
    (0x7F800000, 255, 128),            # Inf
    (0xFFC00000, 255, 128),            # -NaN: sign ignored
    (0xC0000000, 128, 1),              # -2.0
    (0x80000000, 0, 0xFFFFFF81),       # -0
])
def test_sfpexexp_values(c, biased, unbiased):
    m = machine()
    setreg(m, 2, c)
    run(m, "SFPEXEXP", vd=1, vc=2, mod1=0)
    run(m, "SFPEXEXP", vd=3, vc=2, mod1=1)      # NODEBIAS
    assert reg(m, 1) == [unbiased] * LANES
    assert reg(m, 3) == [biased] * LANES


# lanes: 1.0, 0.5, 0.0, 2.0 -> debiased exponent 0, -1, -127, 1. Old flags T, T, F, F.
EXEXP_C = [0x3F800000, 0x3F000000, 0x00000000, 0x40000000]
EXEXP_OLD = [True, True, False, False]


@pytest.mark.parametrize("mod1,expected", [
    (0, EXEXP_OLD),
    (1, EXEXP_OLD),
    (2, [False, True, True, False]),      # SET_CC_SGN_EXP: exp < 0
    (3, [False, False, False, False]),    # no bias: never negative
    (8, [False, False, True, True]),      # COMP alone inverts old flags
    (9, [False, False, True, True]),
    (10, [True, False, False, True]),     # exp >= 0
    (11, [True, True, True, True]),
])
def test_sfpexexp_flags(mod1, expected):
    m = machine()
    setreg(m, 2, EXEXP_C * 8)
    m.state.lane_flags = bools(EXEXP_OLD * 8)
    run(m, "SFPEXEXP", vd=1, vc=2, mod1=mod1)
    assert flags(m) == expected * 8


def test_sfpexexp_flags_only_in_enabled_lanes_and_vd_lt8():
    m = machine()
    setreg(m, 2, 0x3F000000)                 # exp - 127 = -1
    enable_only(m, [1, 3])
    m.state.lane_flags[:] = False
    m.state.lane_flags[[1, 3]] = True
    run(m, "SFPEXEXP", vd=1, vc=2, mod1=10)  # flag = !(exp<0) = 0 in lanes 1, 3
    assert flags(m) == [False] * LANES
    run(m, "SFPEXEXP", vd=1, vc=2, mod1=8)   # no enabled lanes now: nothing changes
    assert flags(m) == [False] * LANES
    # VD = 16: L16 written, flags not.
    m2 = machine()
    setreg(m2, 2, 0x3F000000)
    run_vd16(m2, encode("SFPEXEXP", Arch.WORMHOLE, vd=1, vc=2, mod1=2))
    assert reg(m2, 16) == [0xFFFFFFFF] * LANES
    assert flags(m2) == [False] * LANES


@pytest.mark.parametrize("c,mod1,expected", [
    (0x3F800000, 0, 0x00800000),
    (0x3FC00000, 0, 0x00C00000),
    (0x00000000, 0, 0x00800000),   # hidden bit even for zero
    (0xFFFFFFFF, 0, 0x00FFFFFF),
    (0x3F800000, 1, 0x00000000),   # PAD9
    (0x3FC00000, 1, 0x00400000),
    (0x00000000, 1, 0x00000000),
    (0xFFFFFFFF, 1, 0x007FFFFF),
])
def test_sfpexman(c, mod1, expected):
    m = machine()
    setreg(m, 2, c)
    setreg(m, 1, 0x55555555)
    run(m, "SFPEXMAN", vd=1, vc=2, mod1=mod1)
    assert reg(m, 1) == [expected] * LANES


# ---------------------------------------------------------------------------
# SFPSETEXP / SFPSETMAN / SFPSETSGN
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mod1,imm8,vd_val,vc_val,expected", [
    (1, 0x80, 0x00000000, 0xBFC00000, 0xC0400000),   # imm: -1.5 -> -3.0
    (1, 0x00, 0xFFFFFFFF, 0xBFC00000, 0x80400000),
    (3, 0xFF, 0x00000000, 0x3F800000, 0x7F800000),   # imm wins over bit 1
    (2, 0x00, 0x41200000, 0xBFC00000, 0xC1400000),   # exponent field of VD (10.0 -> 0x82)
    (2, 0x00, 0x807FFFFF, 0x3FFFFFFF, 0x007FFFFF),   # VD exponent 0
    (0, 0x00, 0x12345681, 0x3FC00000, 0x40C00000),   # VD & 0xFF = 0x81
    (0, 0x77, 0xFFFFFF00, 0xBF800000, 0x80000000),   # VD & 0xFF = 0; Imm8 unused
])
def test_sfpsetexp(mod1, imm8, vd_val, vc_val, expected):
    m = machine()
    setreg(m, 1, vd_val)
    setreg(m, 2, vc_val)
    run(m, "SFPSETEXP", vd=1, vc=2, imm8=imm8, mod1=mod1)
    assert reg(m, 1) == [expected] * LANES


@pytest.mark.parametrize("mod1,imm12,vd_val,vc_val,expected", [
    (1, 0xFFF, 0x00000000, 0xBF800000, 0xBFFFF800),   # Man = Imm12 << 11
    (1, 0x800, 0x00000000, 0xBF800000, 0xBFC00000),
    (1, 0x001, 0x00000000, 0x7F800000, 0x7F800800),
    (1, 0x000, 0xFFFFFFFF, 0x3FFFFFFF, 0x3F800000),
    (0, 0x000, 0xFFFFFFFF, 0x40000000, 0x407FFFFF),   # Man = VD & 0x7FFFFF
    (0, 0xABC, 0x80000001, 0xC0FFFFFF, 0xC0800001),
])
def test_sfpsetman(mod1, imm12, vd_val, vc_val, expected):
    m = machine()
    setreg(m, 1, vd_val)
    setreg(m, 2, vc_val)
    run(m, "SFPSETMAN", vd=1, vc=2, imm12=imm12, mod1=mod1)
    assert reg(m, 1) == [expected] * LANES


@pytest.mark.parametrize("mod1,imm1,vd_val,vc_val,expected", [
    (1, 1, 0x00000000, 0x3F800000, 0xBF800000),
    (1, 0, 0xFFFFFFFF, 0xFFC00001, 0x7FC00001),   # NaN not special-cased
    (1, 0, 0x00000000, 0x80000000, 0x00000000),
    (0, 0, 0x80000000, 0x40000000, 0xC0000000),   # sign from VD
    (0, 1, 0x7FFFFFFF, 0xC0000000, 0x40000000),   # Imm1 ignored without ARG_IMM
])
def test_sfpsetsgn(mod1, imm1, vd_val, vc_val, expected):
    m = machine()
    setreg(m, 1, vd_val)
    setreg(m, 2, vc_val)
    run(m, "SFPSETSGN", vd=1, vc=2, imm1=imm1, mod1=mod1)
    assert reg(m, 1) == [expected] * LANES


# ---------------------------------------------------------------------------
# SFPDIVP2 (SFPDIVP2.md)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mod1,imm8,c,expected", [
    (1, 0x01, 0x3F800000, 0x40000000),   # 1.0 * 2 = 2.0
    (1, 0xFF, 0x3F800000, 0x3F000000),   # (127 + 255) & 0xFF = 126: 0.5
    (1, 0x01, 0x7F000000, 0x7F800000),   # wraps up to an Inf pattern
    (1, 0x01, 0x7F400000, 0x7FC00000),   # ... or a NaN pattern
    (1, 0xFF, 0x00800000, 0x00000000),   # down to exponent 0
    (1, 0xFF, 0x80800000, 0x80000000),
    (1, 0x80, 0x40000000, 0x00000000),   # (128 + 128) & 0xFF = 0
    (1, 0x02, 0x00000001, 0x01000001),   # exponent 0 is not special
    (1, 0x01, 0x7F800000, 0x7F800000),   # Inf unchanged
    (1, 0x80, 0xFF800000, 0xFF800000),   # -Inf unchanged
    (1, 0x01, 0xFFC00001, 0xFFC00001),   # NaN unchanged
    (0, 0x80, 0xBFC00000, 0xC0400000),   # set exponent
    (0, 0x7F, 0x7F800000, 0x3F800000),   # set overrides Inf
    (0, 0x00, 0xFFC00001, 0x80400001),   # set overrides NaN
    (0, 0xFF, 0x00000000, 0x7F800000),
])
def test_sfpdivp2(mod1, imm8, c, expected):
    m = machine()
    setreg(m, 2, c)
    run(m, "SFPDIVP2", vd=1, vc=2, imm8=imm8, mod1=mod1)
    assert reg(m, 1) == [expected] * LANES


# ---------------------------------------------------------------------------
# SFPMOV (SFPMOV.md)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mod1,x,expected", [
    (0, 0x3F800000, 0x3F800000),
    (1, 0x3F800000, 0xBF800000),
    (1, 0x00000000, 0x80000000),
    (1, 0xFFC00000, 0x7FC00000),   # NaN not special-cased
    (1, 0x80000005, 0x00000005),
])
def test_sfpmov_plain_and_negate(mod1, x, expected):
    m = machine()
    setreg(m, 2, x)
    run(m, "SFPMOV", vd=1, vc=2, mod1=mod1)
    assert reg(m, 1) == [expected] * LANES


def _disable_some_lanes(m: Machine) -> set[int]:
    """Disable lanes 3, 5 through LaneFlags and grid row 2 (lanes 16-23) through ROW_MASK."""
    enable_only(m, set(range(LANES)) - {3, 5})
    m.state.lane_config[:8] = 1 << (12 + 2)
    return {3, 5} | set(range(16, 24))


def test_sfpmov_all_lanes_enabled_ignores_predication_and_row_mask():
    m = machine()
    _disable_some_lanes(m)
    setreg(m, 1, 0x11111111)
    setreg(m, 2, 0x3F800000)
    run(m, "SFPMOV", vd=1, vc=2, mod1=2)
    assert reg(m, 1) == [0x3F800000] * LANES


@pytest.mark.parametrize("mod1,expected_value", [
    (0, 0x3F800000),
    (1, 0xBF800000),
    (3, 0xBF800000),    # ALL_LANES_ENABLED only when Mod1 == 2 exactly
])
def test_sfpmov_respects_lane_enable(mod1, expected_value):
    m = machine()
    disabled = _disable_some_lanes(m)
    setreg(m, 1, 0x11111111)
    setreg(m, 2, 0x3F800000)
    run(m, "SFPMOV", vd=1, vc=2, mod1=mod1)
    assert reg(m, 1) == [0x11111111 if lane in disabled else expected_value for lane in range(LANES)]


def _special_state(m: Machine) -> None:
    st_ = m.state
    for i in range(4):
        st_.macro_templates[i] = 0x84000000 + (i << 16) + LANE
        st_.macro_sequences[i] = 0x13000000 + (i << 16) + LANE
    st_.macro_misc[:] = 0x100 + LANE
    st_.lane_config[:] = 0x30000 | (LANE << 4)    # no ROW_MASK bits, backdoor enabled


@pytest.mark.parametrize("vc", range(16))
def test_sfpmov_from_special(vc):
    m = machine()
    _special_state(m)
    setreg(m, 1, 0xDEADBEEF)
    m.state.prng[:] = 0x12345678
    run(m, "SFPMOV", vd=1, vc=vc, mod1=8)
    if vc < 4:
        expected = [0x84000000 + (vc << 16) + lane for lane in range(LANES)]
    elif vc < 8:
        expected = [0x13000000 + ((vc - 4) << 16) + lane for lane in range(LANES)]
    elif vc == 8:
        expected = [0x100 + lane for lane in range(LANES)]
    elif vc == 9:
        expected = [0x12345678] * LANES          # the OLD state
    elif vc == 15:
        expected = [0x30000 | (lane << 4) for lane in range(LANES)]
    else:
        expected = [0] * LANES
    assert reg(m, 1) == expected
    # Only VC = 9 advances the PRNG (0x12345678 -> 0x091A2B3C, spec 1.3 worked values).
    assert [int(p) for p in m.state.prng] == [0x091A2B3C if vc == 9 else 0x12345678] * LANES


def test_sfpmov_from_special_ignores_negate_bit():
    m = machine()
    _special_state(m)
    run(m, "SFPMOV", vd=1, vc=8, mod1=9)
    assert reg(m, 1) == [0x100 + lane for lane in range(LANES)]


def test_sfpmov_prng_enabled_lanes_only_returns_old_state():
    m = machine()
    m.state.prng[:] = 0x12345678
    m.state.prng[0] = 0
    setreg(m, 1, 0xDEADBEEF)
    enable_only(m, [0, 1, 2, 30])
    run(m, "SFPMOV", vd=1, vc=9, mod1=8)
    expected_l1 = [0xDEADBEEF] * LANES
    expected_l1[0] = 0x00000000
    expected_l1[1] = expected_l1[2] = expected_l1[30] = 0x12345678
    assert reg(m, 1) == expected_l1
    expected_prng = [0x12345678] * LANES
    expected_prng[0] = 0x80000000
    expected_prng[1] = expected_prng[2] = expected_prng[30] = 0x091A2B3C
    assert [int(p) for p in m.state.prng] == expected_prng
    # A second read returns the next old state.
    run(m, "SFPMOV", vd=2, vc=9, mod1=8)
    assert reg(m, 2)[0] == 0x80000000 and reg(m, 2)[1] == 0x091A2B3C and reg(m, 2)[3] == 0
    assert int(m.state.prng[1]) == 0x848D159E and int(m.state.prng[0]) == 0x40000000


def test_sfpmov_prng_advances_even_when_vd_write_is_dropped():
    # AdvancePRNG() runs inside the LaneEnabled block; only the LReg write is guarded by VD < 8.
    m = machine()
    run(m, "SFPMOV", vd=9, vc=9, mod1=8)
    assert [int(p) for p in m.state.prng] == [0x80000000] * LANES
    assert reg(m, 9) == [0] * LANES


def test_sfpmov_prng_with_all_lanes_bit_is_still_predicated():
    # Mod1 = 10 (FROM_SPECIAL | ALL_LANES_ENABLED) != 2: only enabled lanes.
    m = machine()
    enable_only(m, [7])
    run(m, "SFPMOV", vd=1, vc=9, mod1=10)
    assert [int(p) for p in m.state.prng] == [0x80000000 if lane == 7 else 0 for lane in range(LANES)]


# ---------------------------------------------------------------------------
# SFPCAST (SFPCAST.md)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("x,expected", [
    (0x00000000, 0x00000000),
    (0x80000000, 0x80000000),     # -0 -> -0.0
    (0x00000001, 0x3F800000),
    (0x80000001, 0xBF800000),
    (0x00000003, 0x40400000),
    (0x01000000, 0x4B800000),     # 2^24 exact
    (0x00FFFFFF, 0x4B7FFFFF),
    (0x01000001, 0x4B800000),     # tie -> even (down)
    (0x01000003, 0x4B800002),     # tie -> even (up)
    (0x01000005, 0x4B800002),
    (0x01000007, 0x4B800004),
    (0x02000005, 0x4C000001),     # below half -> down
    (0x02000006, 0x4C000002),     # tie, odd -> up
    (0x02000007, 0x4C000002),     # above half -> up
    (0x7FFFFFFF, 0x4F000000),     # rounds up to 2^31
    (0xFFFFFFFF, 0xCF000000),
    (0x8000000A, 0xC1200000),     # -10
])
def test_sfpcast_rne(x, expected):
    m = machine()
    m.state.prng[:] = 0x12345678
    setreg(m, 2, x)
    run(m, "SFPCAST", vd=1, vc=2, mod1=0)
    assert reg(m, 1) == [expected] * LANES
    assert [int(p) for p in m.state.prng] == [0x12345678] * LANES     # RNE does not advance


def test_sfpcast_stochastic():
    # x = 0x01000001: Norm = 0x80000080, Norm & 0xFE = 0x80; d = 0x4B800000 before rounding.
    # +1 iff 0x80 > ((PRNG >> 9) & 0xFE).
    states = [0x00000000, 0x00010000, 0xFFFFFFFF, 0x0000FE00]
    results = [0x4B800001, 0x4B800000, 0x4B800000, 0x4B800001]
    next_states = [0x80000000, 0x80008000, 0xFFFFFFFF, 0x80007F00]
    m = machine()
    m.state.prng[:] = (states * 8)
    setreg(m, 2, 0x01000001)
    run(m, "SFPCAST", vd=1, vc=2, mod1=1)
    assert reg(m, 1) == results * 8
    assert [int(p) for p in m.state.prng] == next_states * 8


def test_sfpcast_stochastic_exact_value_never_rounds_and_still_advances():
    m = machine()
    setreg(m, 2, 1)                 # Norm = 0x80000000: low byte 0
    run(m, "SFPCAST", vd=1, vc=2, mod1=1)
    assert reg(m, 1) == [0x3F800000] * LANES
    assert [int(p) for p in m.state.prng] == [0x80000000] * LANES


def test_sfpcast_stochastic_advances_only_enabled_lanes():
    m = machine()
    setreg(m, 2, 0x01000001)
    setreg(m, 1, 0x77)
    enable_only(m, [2, 9])
    run(m, "SFPCAST", vd=1, vc=2, mod1=1)
    assert [int(p) for p in m.state.prng] == [0x80000000 if lane in (2, 9) else 0 for lane in range(LANES)]
    assert reg(m, 1) == [0x4B800001 if lane in (2, 9) else 0x77 for lane in range(LANES)]


# ---------------------------------------------------------------------------
# SFPSETCC (SFPSETCC.md)
# ---------------------------------------------------------------------------

SETCC_C = [0, 1, 0x80000000, 0xFFFFFFFF, 0x7FFFFFFF, 0x7FC00000, 0xFFC00000, 0x3F800000]
SETCC_TESTS = {
    0: [False, False, True, True, False, False, True, False],   # c < 0 (-0 and -NaN count)
    2: [False, True, True, True, True, True, True, True],       # c != 0 (-0 counts)
    4: [True, True, False, False, True, True, False, True],     # c >= 0
    6: [True, False, False, False, False, False, False, False], # c == 0
}


@pytest.mark.parametrize("imm1", [0, 1])
@pytest.mark.parametrize("mod1", range(16))
def test_sfpsetcc_every_mod1(mod1, imm1):
    m = machine()
    setreg(m, 2, SETCC_C * 4)
    m.state.use_flags = np.ones(LANES, dtype=bool)
    m.state.lane_flags = np.ones(LANES, dtype=bool)       # all enabled
    run(m, "SFPSETCC", vd=0, vc=2, imm1=imm1, mod1=mod1)
    if mod1 & 8:
        expected = [False] * 8
    elif mod1 & 1:
        expected = [bool(imm1)] * 8
    else:
        expected = SETCC_TESTS[mod1]
    assert flags(m) == expected * 4
    assert use(m) == [True] * LANES


@pytest.mark.parametrize("mod1,imm1", [(0, 0), (1, 1), (2, 0), (4, 0), (6, 0), (8, 0)])
def test_sfpsetcc_use_flags_off_gives_zero(mod1, imm1):
    m = machine()
    setreg(m, 2, SETCC_C * 4)
    m.state.lane_flags = np.ones(LANES, dtype=bool)       # Use = 0: lanes enabled regardless
    run(m, "SFPSETCC", vd=0, vc=2, imm1=imm1, mod1=mod1)
    assert flags(m) == [False] * LANES
    assert use(m) == [False] * LANES


def test_sfpsetcc_mixed_use_and_enable():
    # lane 0: Use 0, flag 1 -> enabled, !Use -> 0
    # lane 1: Use 1, flag 1 -> enabled, test c>=0 (c=5) -> 1
    # lane 2: Use 1, flag 0 -> disabled -> stays 0
    # lane 3: Use 1, flag 1, c = -1 -> 0
    # lane 4: Use 1, flag 1, ROW_MASK row 0 at column 4 -> disabled -> stays 1
    m = machine()
    setreg(m, 2, [0, 5, 5, 0xFFFFFFFF, 0xFFFFFFFF] + [5] * 27)
    m.state.use_flags = bools([0, 1, 1, 1, 1] + [1] * 27)
    m.state.lane_flags = bools([1, 1, 0, 1, 1] + [1] * 27)
    m.state.lane_config[4] = 1 << 12
    run(m, "SFPSETCC", vd=0, vc=2, mod1=4)
    assert flags(m)[:5] == [False, True, False, False, True]
    assert flags(m)[5:] == [True] * 27


def test_sfpsetcc_clear_keeps_row_masked_lanes():
    m = machine()
    m.state.use_flags = np.ones(LANES, dtype=bool)
    m.state.lane_flags = np.ones(LANES, dtype=bool)
    m.state.lane_config[:8] = 0b0010 << 12      # grid row 1 (lanes 8-15) masked
    run(m, "SFPSETCC", vd=0, vc=0, mod1=8)
    assert flags(m) == [8 <= lane < 16 for lane in range(LANES)]


# ---------------------------------------------------------------------------
# SFPENCC (SFPENCC.md)
# ---------------------------------------------------------------------------

ENCC_USE0 = [False, True] * 16
ENCC_FLAGS0 = [True, True, False, False] * 8


def _encc_expected(mod1, imm2):
    """Transcription of SFPENCC's functional model for the initial state above."""
    if mod1 & 2:          # EI
        new_use = [bool(imm2 & 1)] * LANES
    elif mod1 & 1:        # EC
        new_use = [not u for u in ENCC_USE0]
    else:
        new_use = list(ENCC_USE0)
    new_flags = [bool(imm2 & 2)] * LANES if mod1 & 8 else [True] * LANES
    return new_use, new_flags


@pytest.mark.parametrize("imm2", range(4))
@pytest.mark.parametrize("mod1", [0, 1, 2, 3, 8, 9, 10, 11])
def test_sfpencc_combinations(mod1, imm2):
    m = machine()
    m.state.use_flags = bools(ENCC_USE0)
    m.state.lane_flags = bools(ENCC_FLAGS0)
    m.state.lane_config[:8] = 0b0100 << 12      # ROW_MASK must not matter: ENCC is all lanes
    run(m, "SFPENCC", vd=0, imm2=imm2, mod1=mod1)
    new_use, new_flags = _encc_expected(mod1, imm2)
    assert use(m) == new_use
    assert flags(m) == new_flags


@pytest.mark.parametrize("mod1,imm2,exp_use,exp_flag", [
    (0, 3, None, True),       # Use kept, LaneFlags = 1 (immediate ignored)
    (2, 1, True, True),       # EI: Use = 1
    (2, 2, False, True),      # EI: Use = Imm2 bit 0 = 0
    (10, 1, True, False),     # EI|RI: Use 1, flags = Imm2 bit 1 = 0
    (10, 2, False, True),
    (8, 0, None, False),      # RI: flags 0
    (3, 0, False, True),      # EI beats EC
    (1, 3, "inv", True),      # EC: invert, immediate ignored
])
def test_sfpencc_literal_cases(mod1, imm2, exp_use, exp_flag):
    m = machine()
    m.state.use_flags = bools(ENCC_USE0)
    m.state.lane_flags = bools(ENCC_FLAGS0)
    run(m, "SFPENCC", vd=0, imm2=imm2, mod1=mod1)
    if exp_use is None:
        assert use(m) == ENCC_USE0
    elif exp_use == "inv":
        assert use(m) == [not u for u in ENCC_USE0]
    else:
        assert use(m) == [exp_use] * LANES
    assert flags(m) == [exp_flag] * LANES


def test_sfpencc_immediate_is_imm2_not_mod1_low_bits():
    # The jd text reads E and R from Imm2 (bits 13:12); Mod1 = 10 with Imm2 = 0 -> Use 0, flags 0.
    m = machine()
    m.state.use_flags = np.ones(LANES, dtype=bool)
    m.state.lane_flags = np.ones(LANES, dtype=bool)
    m.execute(0x8A00000A)
    assert use(m) == [False] * LANES
    assert flags(m) == [False] * LANES
    m.execute(0x8A00300A)      # Imm2 = 3
    assert use(m) == [True] * LANES
    assert flags(m) == [True] * LANES


# ---------------------------------------------------------------------------
# SFPPUSHC / SFPPOPC (SFPPUSHC.md, SFPPOPC.md)
# ---------------------------------------------------------------------------

def test_sfppushc_pushes_a_copy():
    m = machine()
    m.state.lane_flags = bools([True, False] * 16)
    m.state.use_flags = bools([True, True, False, False] * 8)
    run(m, "SFPPUSHC", vd=0)
    assert len(m.state.flag_stack) == 1
    top = m.state.flag_stack[-1]
    assert [bool(b) for b in top.lane_flags] == [True, False] * 16
    assert [bool(b) for b in top.use_flags] == [True, True, False, False] * 8
    # flags themselves are unchanged, and later changes do not alter the entry
    assert flags(m) == [True, False] * 16
    run(m, "SFPENCC", vd=0, imm2=0, mod1=10)
    assert [bool(b) for b in m.state.flag_stack[-1].lane_flags] == [True, False] * 16
    assert [bool(b) for b in m.state.flag_stack[-1].use_flags] == [True, True, False, False] * 8


def test_sfppushc_eight_then_ub():
    m = machine()
    for _ in range(8):
        run(m, "SFPPUSHC", vd=0)
    assert len(m.state.flag_stack) == 8
    with pytest.raises(UndefinedBehaviour):
        run(m, "SFPPUSHC", vd=0)


def test_sfppopc_pop_restores_top():
    m = machine()
    m.state.flag_stack = [entry(False, False), entry([True, False] * 16, [False, True] * 16)]
    m.state.lane_flags = np.zeros(LANES, dtype=bool)
    m.state.use_flags = np.ones(LANES, dtype=bool)
    run(m, "SFPPOPC", vd=0, mod1=0)
    assert len(m.state.flag_stack) == 1
    assert flags(m) == [True, False] * 16
    assert use(m) == [False, True] * 16
    run(m, "SFPPOPC", vd=0, mod1=0)
    assert len(m.state.flag_stack) == 0
    assert flags(m) == [False] * LANES and use(m) == [False] * LANES


def test_sfppopc_pop_on_empty_is_ub():
    m = machine()
    with pytest.raises(UndefinedBehaviour):
        run(m, "SFPPOPC", vd=0, mod1=0)


def test_sfppopc_pop_all_lanes_regardless_of_enable():
    m = machine()
    m.state.flag_stack = [entry(True, True)]
    m.state.use_flags = np.ones(LANES, dtype=bool)
    m.state.lane_flags = np.zeros(LANES, dtype=bool)      # every lane disabled
    m.state.lane_config[:8] = 0xF << 12                   # and every row masked
    run(m, "SFPPOPC", vd=0, mod1=0)
    assert flags(m) == [True] * LANES and use(m) == [True] * LANES


# Lane i: A = LaneFlags = bit 0, B = Top.LaneFlags = bit 1, Top.Use = bit 2, current Use = bit 3.
POPC_A = [bool(i & 1) for i in range(LANES)]
POPC_B = [bool(i & 2) for i in range(LANES)]
POPC_TOP_USE = [bool(i & 4) for i in range(LANES)]
POPC_USE = [bool(i & 8) for i in range(LANES)]
# f(A, B) for (A, B) = (0,0), (1,0), (0,1), (1,1) -- the lane order of i & 3.
POPC_TABLE = {
    1: (0, 0, 1, 1),     # B
    2: (1, 1, 0, 0),     # !B
    3: (0, 0, 0, 1),     # A && B
    4: (0, 1, 1, 1),     # A || B
    5: (0, 1, 0, 0),     # A && !B
    6: (1, 1, 0, 1),     # A || !B
    7: (0, 0, 1, 0),     # !A && B
    8: (1, 0, 1, 1),     # !A || B
    9: (1, 0, 0, 0),     # !A && !B
    10: (1, 1, 1, 0),    # !A || !B
    11: (0, 1, 1, 0),    # A != B
    12: (1, 0, 0, 1),    # A == B
    13: (1, 0, 1, 0),    # !A
    14: (1, 1, 1, 1),
    15: (0, 0, 0, 0),
}


def _popc_setup(depth: int = 2) -> Machine:
    m = machine()
    m.state.flag_stack = [entry([True] * LANES, [False] * LANES) for _ in range(depth - 1)]
    m.state.flag_stack.append(entry(POPC_B, POPC_TOP_USE))
    m.state.lane_flags = bools(POPC_A)
    m.state.use_flags = bools(POPC_USE)
    return m


@pytest.mark.parametrize("mod1", range(1, 16))
def test_sfppopc_peek_modes(mod1):
    m = _popc_setup(depth=2)
    run(m, "SFPPOPC", vd=0, mod1=mod1)
    assert flags(m) == [bool(POPC_TABLE[mod1][i & 3]) for i in range(LANES)]
    if mod1 <= 12:
        assert use(m) == POPC_TOP_USE
    elif mod1 == 13:
        assert use(m) == POPC_USE
    else:
        assert use(m) == [True] * LANES
    # peek only: the stack is untouched
    assert len(m.state.flag_stack) == 2
    assert [bool(b) for b in m.state.flag_stack[-1].lane_flags] == POPC_B
    assert [bool(b) for b in m.state.flag_stack[-1].use_flags] == POPC_TOP_USE
    assert [bool(b) for b in m.state.flag_stack[0].lane_flags] == [True] * LANES


# Empty stack: Top = {LaneFlags 0, Use 0}; f(A, 0) for A = 0, 1.
POPC_EMPTY = {1: (0, 0), 2: (1, 1), 3: (0, 0), 4: (0, 1), 5: (0, 1), 6: (1, 1), 7: (0, 0), 8: (1, 0),
              9: (1, 0), 10: (1, 1), 11: (0, 1), 12: (1, 0), 13: (1, 0), 14: (1, 1), 15: (0, 0)}


@pytest.mark.parametrize("mod1", range(1, 16))
def test_sfppopc_empty_stack_top_is_zero(mod1):
    m = machine()
    m.state.lane_flags = bools([False, True] * 16)
    m.state.use_flags = bools([True, True, False, False] * 8)
    run(m, "SFPPOPC", vd=0, mod1=mod1)      # not UB for Mod1 != 0
    assert flags(m) == [bool(POPC_EMPTY[mod1][i & 1]) for i in range(LANES)]
    if mod1 <= 12:
        assert use(m) == [False] * LANES
    elif mod1 == 13:
        assert use(m) == [True, True, False, False] * 8
    else:
        assert use(m) == [True] * LANES
    assert len(m.state.flag_stack) == 0


@pytest.mark.parametrize("mod1", range(1, 16))
def test_sfppopc_full_stack_overwrites_bottom(mod1):
    m = _popc_setup(depth=8)
    m.state.flag_stack[0] = entry([False, False, True, True] * 8, [True, False] * 16)   # distinct bottom
    run(m, "SFPPOPC", vd=0, mod1=mod1)
    stack = m.state.flag_stack
    assert len(stack) == 8
    # Bottom() = Top (a copy of the top entry), top unchanged, middle entries unchanged.
    assert [bool(b) for b in stack[0].lane_flags] == POPC_B
    assert [bool(b) for b in stack[0].use_flags] == POPC_TOP_USE
    assert [bool(b) for b in stack[7].lane_flags] == POPC_B
    assert [bool(b) for b in stack[7].use_flags] == POPC_TOP_USE
    for k in range(1, 7):
        assert [bool(b) for b in stack[k].lane_flags] == [True] * LANES
        assert [bool(b) for b in stack[k].use_flags] == [False] * LANES
    # The flag result is the same as with a shorter stack.
    assert flags(m) == [bool(POPC_TABLE[mod1][i & 3]) for i in range(LANES)]


def test_sfppopc_seven_entries_no_overwrite_and_full_pop_no_overwrite():
    m = _popc_setup(depth=7)
    m.state.flag_stack[0] = entry(False, True)
    run(m, "SFPPOPC", vd=0, mod1=1)
    assert [bool(b) for b in m.state.flag_stack[0].lane_flags] == [False] * LANES
    assert [bool(b) for b in m.state.flag_stack[0].use_flags] == [True] * LANES
    # Plain pop of a full stack: no bottom overwrite.
    m = _popc_setup(depth=8)
    m.state.flag_stack[0] = entry(False, True)
    run(m, "SFPPOPC", vd=0, mod1=0)
    assert len(m.state.flag_stack) == 7
    assert [bool(b) for b in m.state.flag_stack[0].lane_flags] == [False] * LANES
    assert [bool(b) for b in m.state.flag_stack[0].use_flags] == [True] * LANES
    assert flags(m) == POPC_B and use(m) == POPC_TOP_USE


def test_push_pop_nesting():
    # if (c >= 0) { ... } else { ... } with SETCC / PUSHC / COMPC / POPC.
    m = machine()
    setreg(m, 2, [1, 0xFFFFFFFF] * 16)
    run(m, "SFPENCC", vd=0, imm2=1, mod1=2)       # Use = 1, flags = 1
    run(m, "SFPPUSHC", vd=0)
    run(m, "SFPSETCC", vd=0, vc=2, mod1=4)        # c >= 0
    assert flags(m) == [True, False] * 16
    run(m, "SFPCOMPC", vd=0)                      # else branch
    assert flags(m) == [False, True] * 16
    run(m, "SFPPOPC", vd=0, mod1=0)
    assert flags(m) == [True] * LANES and use(m) == [True] * LANES
    assert len(m.state.flag_stack) == 0


# ---------------------------------------------------------------------------
# SFPCOMPC (SFPCOMPC.md)
# ---------------------------------------------------------------------------

def test_sfpcompc_empty_stack_top_is_one_one():
    # (Use, LaneFlags) = (0,0), (0,1), (1,0), (1,1) -> 0, 0, 1, 0.
    m = machine()
    m.state.use_flags = bools([0, 0, 1, 1] * 8)
    m.state.lane_flags = bools([0, 1, 0, 1] * 8)
    run(m, "SFPCOMPC", vd=0)
    assert flags(m) == [False, False, True, False] * 8
    assert use(m) == [False, False, True, True] * 8
    assert len(m.state.flag_stack) == 0


def test_sfpcompc_with_stack_top():
    # lane i: LaneFlags = bit 0, Use = bit 1, Top.LaneFlags = bit 2, Top.Use = bit 3.
    # Result = Top.Use && Use ? Top.LaneFlags && !LaneFlags : 0 -> true only for i & 15 == 0b1110.
    m = machine()
    m.state.lane_flags = bools([i & 1 for i in range(LANES)])
    m.state.use_flags = bools([i & 2 for i in range(LANES)])
    m.state.flag_stack = [entry(False, False), entry([i & 4 for i in range(LANES)], [i & 8 for i in range(LANES)])]
    m.state.lane_config[:8] = 0b1001 << 12     # row mask must not matter
    run(m, "SFPCOMPC", vd=0)
    assert flags(m) == [(i & 15) == 14 for i in range(LANES)]
    assert use(m) == [bool(i & 2) for i in range(LANES)]
    assert len(m.state.flag_stack) == 2


# ---------------------------------------------------------------------------
# ROW_MASK (VectorUnit.md IsLaneEnabled)
# ---------------------------------------------------------------------------

ROW_MASKS = [0b0001, 0b0010, 0b0100, 0b1000, 0b1111, 0b0000, 0b0101, 0b1010]   # per column 0..7
ROW_MASKED_LANES = {0, 9, 18, 27, 4, 12, 20, 28, 6, 22, 15, 31}


def test_row_mask_uses_laneconfig_of_lane_and_7():
    m = machine()
    m.state.lane_config[:8] = [mk << 12 for mk in ROW_MASKS]
    m.state.lane_config[8:] = 0xF << 12       # entries 8..31 are never consulted for ROW_MASK
    setreg(m, 1, 0x11111111)
    setreg(m, 2, 0x22222222)
    run(m, "SFPMOV", vd=1, vc=2, mod1=0)
    assert reg(m, 1) == [0x11111111 if lane in ROW_MASKED_LANES else 0x22222222 for lane in range(LANES)]


def test_row_mask_set_via_sfpconfig_and_beats_lane_flags():
    m = machine()
    setreg(m, 0, [mk << 12 for mk in ROW_MASKS] * 4)
    run(m, "SFPCONFIG", vd=15, imm16=0, mod1=0)     # LaneConfig[lane] = L0[lane & 7]
    assert [int(v) for v in m.state.lane_config] == [mk << 12 for mk in ROW_MASKS] * 4
    run(m, "SFPENCC", vd=0, imm2=3, mod1=10)       # Use = 1, LaneFlags = 1
    setreg(m, 2, 5)
    run(m, "SFPIADD", vd=3, vc=2, imm12=0, mod1=5)  # ARG_IMM | CC_NONE
    assert reg(m, 3) == [0 if lane in ROW_MASKED_LANES else 5 for lane in range(LANES)]


# ---------------------------------------------------------------------------
# Writes to L8-L15 are dropped; VD = 16 cannot be encoded
# ---------------------------------------------------------------------------

DROPPED = [
    ("SFPABS", dict(vc=2, mod1=1)),
    ("SFPAND", dict(vc=2)),
    ("SFPOR", dict(vc=2)),
    ("SFPXOR", dict(vc=2)),
    ("SFPNOT", dict(vc=2)),
    ("SFPLZ", dict(vc=2, mod1=2)),
    ("SFPSHFT", dict(vc=2, imm12=1, mod1=1)),
    ("SFPIADD", dict(vc=2, imm12=-100, mod1=1)),
    ("SFPEXEXP", dict(vc=2, mod1=10)),
    ("SFPEXMAN", dict(vc=2)),
    ("SFPSETEXP", dict(vc=2, imm8=3, mod1=1)),
    ("SFPSETMAN", dict(vc=2, imm12=3, mod1=1)),
    ("SFPSETSGN", dict(vc=2, imm1=1, mod1=1)),
    ("SFPDIVP2", dict(vc=2, imm8=3, mod1=1)),
    ("SFPMOV", dict(vc=2, mod1=0)),
    ("SFPMOV", dict(vc=2, mod1=2)),
    ("SFPMOV", dict(vc=0, mod1=8)),
    ("SFPCAST", dict(vc=2, mod1=0)),
    ("SFPSHFT2", dict(vc=2, mod1=3)),
    ("SFPSHFT2", dict(vc=2, mod1=4)),
    ("SFPSHFT2", dict(vb=2, vc=1, mod1=5)),
]


def _sentinel_state(m: Machine) -> None:
    for r in range(8):
        setreg(m, r, [(r << 24) | (lane << 8) | 0x5A for lane in range(LANES)])
    m.state.use_flags = np.ones(LANES, dtype=bool)
    m.state.lane_flags = np.ones(LANES, dtype=bool)


@pytest.mark.parametrize("vd", [8, 9, 10, 11])
@pytest.mark.parametrize("mn,fields", DROPPED, ids=[f"{mn}-{i}" for i, (mn, _) in enumerate(DROPPED)])
def test_writes_to_l8_l11_dropped(mn, fields, vd):
    m = machine()
    _sentinel_state(m)
    before = m.state.copy()
    run(m, mn, vd=vd, **fields)
    assert np.array_equal(m.state.lregs, before.lregs)
    assert flags(m) == [True] * LANES
    assert np.array_equal(m.state.macro_templates, before.macro_templates)


@pytest.mark.parametrize("vd", [12, 13, 14, 15])
@pytest.mark.parametrize("mn,fields", DROPPED, ids=[f"{mn}-{i}" for i, (mn, _) in enumerate(DROPPED)])
def test_writes_to_l12_l15_dropped_with_backdoor_disabled(mn, fields, vd):
    m = machine()
    _sentinel_state(m)
    m.state.lane_config[:] = DISABLE_BACKDOOR_LOAD
    before = m.state.copy()
    run(m, mn, vd=vd, **fields)
    assert np.array_equal(m.state.lregs, before.lregs)
    assert flags(m) == [True] * LANES
    assert np.array_equal(m.state.macro_templates, before.macro_templates)


def test_shft2_imm_to_l8_dropped():
    m = machine()
    _sentinel_state(m)
    before = m.state.lregs.copy()
    run(m, "SFPSHFT2", vd=8, imm12=1, mod1=6)
    assert np.array_equal(m.state.lregs, before)


def test_vd16_not_encodable():
    with pytest.raises(ValueError):
        encode("SFPMOV", Arch.WORMHOLE, vd=16, vc=1)
    with pytest.raises(ValueError):
        encode("SFPIADD", Arch.WORMHOLE, vd=16, vc=1)
    # The 4-bit field decodes to at most 15.
    assert decode(0x7C0000F0, Arch.WORMHOLE).get("vd") == 15
    assert decode(0x7C0000F0 | 0x100, Arch.WORMHOLE).get("vd") == 15


def test_regular_instructions_never_write_l16():
    m = machine()
    m.state.lane_config[:] = DISABLE_BACKDOOR_LOAD
    setreg(m, 2, 0x12345678)
    for vd in range(16):
        run(m, "SFPMOV", vd=vd, vc=2, mod1=2)
        run(m, "SFPIADD", vd=vd, vc=2, imm12=1, mod1=5)
    assert reg(m, 16) == [0] * LANES


# ---------------------------------------------------------------------------
# The backdoor (SFPCONFIG.md LaneConfig.DISABLE_BACKDOOR_LOAD; per-instruction guards)
# ---------------------------------------------------------------------------

def test_backdoor_sfpmad_word_loads_template_1():
    word = 0x840C0DD0           # TTI_SFPMAD(12, 0, 13, 13, 0)
    assert encode("SFPMAD", Arch.WORMHOLE, va=12, vb=0, vc=13, vd=13, mod1=0) == word
    assert assemble("TTI_SFPMAD(12, 0, 13, 13, 0);").words == [word]
    m = machine()
    _sentinel_state(m)
    before = m.state.copy()
    m.execute(word)
    assert [int(v) for v in m.state.macro_templates[1]] == [word] * LANES
    for i in (0, 2, 3):
        assert [int(v) for v in m.state.macro_templates[i]] == [0] * LANES
    assert np.array_equal(m.state.lregs, before.lregs)


def test_backdoor_sfpshft_vd15_loads_template_3():
    word = 0x7A00F0F1           # TTI_SFPSHFT(15, 0, 15, 1)
    assert encode("SFPSHFT", Arch.WORMHOLE, imm12=15, vc=0, vd=15, mod1=1) == word
    m = machine()
    _sentinel_state(m)
    before = m.state.copy()
    m.execute(word)
    assert [int(v) for v in m.state.macro_templates[3]] == [word] * LANES
    assert np.array_equal(m.state.macro_templates[:3], before.macro_templates[:3])
    assert np.array_equal(m.state.lregs, before.lregs)


BACKDOOR_CASES = [
    ("SFPMAD", dict(va=0, vb=1, vc=2)),
    ("SFPABS", dict(vc=2, mod1=1)),
    ("SFPAND", dict(vc=2)),
    ("SFPLZ", dict(vc=2, mod1=10)),
    ("SFPIADD", dict(vc=2, imm12=-100, mod1=9)),
    ("SFPEXEXP", dict(vc=2, mod1=10)),
    ("SFPSHFT", dict(vc=2, imm12=3, mod1=1)),
    ("SFPSETCC", dict(vc=2, mod1=8)),
    ("SFPENCC", dict(imm2=0, mod1=10)),
    ("SFPPUSHC", dict()),
    ("SFPPOPC", dict(mod1=0)),
    ("SFPPOPC", dict(mod1=14)),
    ("SFPCOMPC", dict()),
    ("SFPTRANSP", dict()),
    ("SFPSWAP", dict(vc=1, mod1=0)),
    ("SFPSWAP", dict(vc=1, mod1=1)),
    ("SFPMOV", dict(vc=9, mod1=8)),
    ("SFPMOV", dict(vc=1, mod1=2)),
    ("SFPCAST", dict(vc=2, mod1=1)),
    ("SFPSHFT2", dict(vc=2, mod1=0)),
    ("SFPSHFT2", dict(vc=2, mod1=1)),
    ("SFPSHFT2", dict(vc=2, mod1=2)),
    ("SFPSHFT2", dict(vc=2, mod1=3)),
    ("SFPSHFT2", dict(vc=2, mod1=4)),
    ("SFPSHFT2", dict(vb=2, vc=1, mod1=5)),
]


@pytest.mark.parametrize("vd", [12, 13, 14, 15])
@pytest.mark.parametrize("mn,fields", BACKDOOR_CASES,
                         ids=[f"{mn}-{i}" for i, (mn, _) in enumerate(BACKDOOR_CASES)])
def test_backdoor_writes_template_and_does_nothing_else(mn, fields, vd):
    m = machine()
    _sentinel_state(m)
    m.state.lane_flags = bools([True, True, True, False] * 8)     # lane 3 etc. disabled
    m.state.flag_stack = [entry([False, True] * 16, [True] * LANES)]
    m.state.prng[:] = 0x12345678
    before = m.state.copy()
    word = encode(mn, Arch.WORMHOLE, vd=vd, **fields)
    m.execute(word)
    st_ = m.state
    assert [int(v) for v in st_.macro_templates[vd - 12]] == [word] * LANES
    for i in range(4):
        if i != vd - 12:
            assert np.array_equal(st_.macro_templates[i], before.macro_templates[i])
    assert np.array_equal(st_.lregs, before.lregs)
    assert np.array_equal(st_.lane_flags, before.lane_flags)
    assert np.array_equal(st_.use_flags, before.use_flags)
    assert len(st_.flag_stack) == 1
    assert np.array_equal(st_.flag_stack[0].lane_flags, before.flag_stack[0].lane_flags)
    assert np.array_equal(st_.prng, before.prng)
    assert np.array_equal(st_.lane_config, before.lane_config)


def test_backdoor_popc_on_empty_stack_is_not_ub():
    # The UndefinedBehaviour() call sits inside the VD < 12 || DISABLE_BACKDOOR_LOAD guard.
    m = machine()
    word = encode("SFPPOPC", Arch.WORMHOLE, vd=12, mod1=0)
    m.execute(word)
    assert [int(v) for v in m.state.macro_templates[0]] == [word] * LANES


def test_backdoor_pushc_on_full_stack_is_not_ub():
    m = machine()
    m.state.flag_stack = [entry(True, True) for _ in range(8)]
    word = encode("SFPPUSHC", Arch.WORMHOLE, vd=13)
    m.execute(word)
    assert len(m.state.flag_stack) == 8
    assert [int(v) for v in m.state.macro_templates[1]] == [word] * LANES


def test_disable_backdoor_via_sfpconfig_then_instructions_execute():
    m = machine()
    run(m, "SFPCONFIG", vd=15, imm16=DISABLE_BACKDOOR_LOAD, mod1=1)
    assert [int(v) for v in m.state.lane_config] == [DISABLE_BACKDOOR_LOAD] * LANES
    assert [int(v) for v in m.state.macro_templates[3]] == [0] * LANES    # SFPCONFIG is not a backdoor write
    # SFPSWAP VD=12 VC=1 Mod1=0: L1 = L12 (1/65536), L12 not writable.
    setreg(m, 1, 0x3F800000)
    run(m, "SFPSWAP", vd=12, vc=1, mod1=0)
    assert reg(m, 1) == [0x37800000] * LANES
    assert reg(m, 12) == [0x37800000] * LANES
    # SFPMOV FROM_SPECIAL VC=9 with VD=13: PRNG advances, nothing written.
    run(m, "SFPMOV", vd=13, vc=9, mod1=8)
    assert [int(p) for p in m.state.prng] == [0x80000000] * LANES
    # SFPENCC / SFPPUSHC / SFPSETCC with VD >= 12 execute.
    run(m, "SFPENCC", vd=14, imm2=1, mod1=2)
    assert use(m) == [True] * LANES and flags(m) == [True] * LANES
    run(m, "SFPPUSHC", vd=15)
    assert len(m.state.flag_stack) == 1
    run(m, "SFPSETCC", vd=12, vc=9, mod1=2)        # L9 != 0 is false
    assert flags(m) == [False] * LANES
    assert np.array_equal(m.state.macro_templates, np.zeros((4, LANES), dtype=U32))


def test_backdoor_is_per_lane():
    # Lanes 0-15 have DISABLE_BACKDOOR_LOAD set: they execute; lanes 16-31 get the template.
    m = machine()
    m.state.lane_config[:16] = DISABLE_BACKDOOR_LOAD
    m.state.use_flags = np.ones(LANES, dtype=bool)
    m.state.lane_flags = np.ones(LANES, dtype=bool)
    word = encode("SFPSETCC", Arch.WORMHOLE, vd=12, vc=9, mod1=8)
    m.execute(word)
    assert flags(m) == [lane >= 16 for lane in range(LANES)]
    assert [int(v) for v in m.state.macro_templates[0]] == [0] * 16 + [word] * 16


@pytest.mark.parametrize("vd,default", [(11, 0xBF800000), (12, 0x37800000), (13, 0xBF2CC4C7),
                                        (14, 0xBEB08FF9)])
def test_sfpconfig_vd11_14_writes_constants_not_template(vd, default):
    m = machine()
    l0 = [0x40000000 + c for c in range(8)]
    setreg(m, 0, l0 + [0xFFFFFFFF] * 24)       # only lanes 0..7 of L0 are read
    run(m, "SFPCONFIG", vd=vd, imm16=0, mod1=0)
    assert reg(m, vd) == l0 * 4
    assert np.array_equal(m.state.macro_templates, np.zeros((4, LANES), dtype=U32))
    run(m, "SFPCONFIG", vd=vd, imm16=0, mod1=1)   # IMM16_IS_VALUE: the fixed default
    assert reg(m, vd) == [default] * LANES
    assert np.array_equal(m.state.macro_templates, np.zeros((4, LANES), dtype=U32))


# ---------------------------------------------------------------------------
# SFPTRANSP (SFPTRANSP.md)
# ---------------------------------------------------------------------------

def _transp_state(m: Machine) -> None:
    for r in range(8):
        setreg(m, r, [(r << 8) | lane for lane in range(LANES)])


def test_sfptransp_spec_examples():
    m = machine()
    _transp_state(m)
    run(m, "SFPTRANSP", vd=0)
    # new L1 lanes 0..7 = old L0 lanes 8..15
    assert reg(m, 1)[0:8] == [(0 << 8) | lane for lane in range(8, 16)]
    # new L0 lanes 8..15 = old L1 lanes 0..7
    assert reg(m, 0)[8:16] == [(1 << 8) | lane for lane in range(0, 8)]
    # new L3 lanes 16..23 = old L2 lanes 24..31
    assert reg(m, 3)[16:24] == [(2 << 8) | lane for lane in range(24, 32)]
    # diagonal rows stay: L0 row 0, L1 row 1, L2 row 2, L3 row 3 (and the same for L4..L7)
    assert reg(m, 0)[0:8] == [lane for lane in range(8)]
    assert reg(m, 2)[16:24] == [(2 << 8) | lane for lane in range(16, 24)]
    assert reg(m, 7)[24:32] == [(7 << 8) | lane for lane in range(24, 32)]
    # second group: new L5 row 2 = old L6 row 1
    assert reg(m, 5)[16:24] == [(6 << 8) | lane for lane in range(8, 16)]
    # full rule: new L[b+r] row k = old L[b+k] row r
    for b in (0, 4):
        for r in range(4):
            for k in range(4):
                for c in range(8):
                    assert reg(m, b + r)[k * 8 + c] == ((b + k) << 8) | (r * 8 + c)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**63 - 1))
def test_sfptransp_twice_is_identity(seed):
    rng = np.random.default_rng(seed)
    m = machine()
    data = rng.integers(0, 2**32, size=(8, LANES), dtype=np.uint64).astype(U32)
    m.state.lregs[:8] = data
    run(m, "SFPTRANSP", vd=0)
    run(m, "SFPTRANSP", vd=0)
    assert np.array_equal(m.state.lregs[:8], data)


def test_sfptransp_partial_enable_writes_only_enabled_destinations():
    m = machine()
    _transp_state(m)
    disabled = {8, 19}          # grid (row 1, col 0) and (row 2, col 3)
    enable_only(m, set(range(LANES)) - disabled)
    run(m, "SFPTRANSP", vd=0)
    for b in (0, 4):
        for r in range(4):
            for k in range(4):
                for c in range(8):
                    lane = k * 8 + c
                    old_own = ((b + r) << 8) | lane
                    moved = ((b + k) << 8) | (r * 8 + c)
                    assert reg(m, b + r)[lane] == (old_own if lane in disabled else moved)
    # Explicitly: L1 lane 0 (enabled) receives old L0 lane 8, but L0 lane 8 (disabled) keeps its value.
    assert reg(m, 1)[0] == 8
    assert reg(m, 0)[8] == 8
    assert reg(m, 1)[16] == (2 << 8) | 8     # lane 16 enabled: old L2 lane 8
    assert reg(m, 2)[8] == (2 << 8) | 8      # lane 8 disabled: unchanged


# ---------------------------------------------------------------------------
# SFPSWAP (SFPSWAP.md)
# ---------------------------------------------------------------------------

SWAP_MASKS = {0: None, 1: 0xFFFFFFFF, 2: 0x0000FFFF, 3: 0x00FF00FF, 4: 0xFF0000FF, 5: 0x000000FF,
              6: 0x0000FF00, 7: 0x00FF0000, 8: 0xFF000000, **{k: 0 for k in range(9, 16)}}
ONE, TWO = 0x3F800000, 0x40000000


@pytest.mark.parametrize("vc_smaller", [True, False])
@pytest.mark.parametrize("mod1", range(16))
def test_sfpswap_masks(mod1, vc_smaller):
    m = machine()
    d0, c0 = (TWO, ONE) if vc_smaller else (ONE, TWO)
    setreg(m, 1, d0)        # VD
    setreg(m, 2, c0)        # VC
    run(m, "SFPSWAP", vd=1, vc=2, mod1=mod1)
    mask = SWAP_MASKS[mod1]
    if mask is None:        # unconditional swap
        exp_d = [c0] * LANES
    else:
        exp_d = [ONE if (mask >> lane) & 1 else TWO for lane in range(LANES)]
    assert reg(m, 1) == exp_d
    assert reg(m, 2) == [ONE + TWO - v for v in exp_d]


# Ascending in the sign-magnitude total order.
ORDERED = [0xFFFFFFFF, 0xFFC00000, 0xFF800001, 0xFF800000, 0xC0000000, 0xBF800000, 0x80000001,
           0x80000000, 0x00000000, 0x00000001, 0x3F800000, 0x7F800000, 0x7FC00000, 0x7FFFFFFF]


def test_sfpswap_total_order():
    pairs = [(ORDERED[i], ORDERED[j]) for i in range(len(ORDERED)) for j in range(i + 1, len(ORDERED))]
    for start in range(0, len(pairs), 16):
        chunk = pairs[start:start + 16]
        lo = [p[0] for p in chunk] + [0] * (16 - len(chunk))
        hi = [p[1] for p in chunk] + [0] * (16 - len(chunk))
        m = machine()
        # lanes 0..15: VD = hi, VC = lo; lanes 16..31: VD = lo, VC = hi.
        setreg(m, 1, hi + lo)
        setreg(m, 2, lo + hi)
        run(m, "SFPSWAP", vd=1, vc=2, mod1=1)       # VD = min, VC = max everywhere
        assert reg(m, 1) == lo + lo, [hex(v) for v in reg(m, 1)]
        assert reg(m, 2) == hi + hi


def test_sfpswap_minus_zero_below_plus_zero():
    m = machine()
    setreg(m, 1, 0x00000000)
    setreg(m, 2, 0x80000000)
    run(m, "SFPSWAP", vd=1, vc=2, mod1=1)
    assert reg(m, 1) == [0x80000000] * LANES and reg(m, 2) == [0] * LANES


def _dest_index_state(m: Machine) -> None:
    # lanes i % 4: (VD=L0, VC=L1) = (3, 2), (1, 4), (-1, -2), (5, 5); payload L4 = 100+i, L5 = 200+i.
    d = [0x40400000, 0x3F800000, 0xBF800000, 0x40A00000]
    c = [0x40000000, 0x40800000, 0xC0000000, 0x40A00000]
    setreg(m, 0, d * 8)
    setreg(m, 1, c * 8)
    setreg(m, 4, [100 + i for i in range(LANES)])
    setreg(m, 5, [200 + i for i in range(LANES)])
    m.state.lane_config[:] = ENABLE_DEST_INDEX


@pytest.mark.parametrize("mod1,swapped", [
    (1, [True, False, True, False]),     # VD gets min; equal values: no swap
    (9, [False, True, False, True]),     # VD gets max; equal values: swap
    (0, [True, True, True, True]),
])
def test_sfpswap_dest_index_argminmax(mod1, swapped):
    m = machine()
    _dest_index_state(m)
    d0, c0 = reg(m, 0), reg(m, 1)
    run(m, "SFPSWAP", vd=0, vc=1, mod1=mod1)
    for lane in range(LANES):
        s = swapped[lane % 4]
        assert reg(m, 0)[lane] == (c0[lane] if s else d0[lane])
        assert reg(m, 1)[lane] == (d0[lane] if s else c0[lane])
        assert reg(m, 4)[lane] == (200 + lane if s else 100 + lane)
        assert reg(m, 5)[lane] == (100 + lane if s else 200 + lane)


def test_sfpswap_equal_values_swap_only_in_max_lanes():
    # Mod1 = 2: lanes 0-15 want min in VD (no swap on equality), lanes 16-31 want max (swap).
    m = machine()
    setreg(m, 0, 0x40A00000)
    setreg(m, 1, 0x40A00000)
    setreg(m, 4, 1)
    setreg(m, 5, 2)
    m.state.lane_config[:] = ENABLE_DEST_INDEX
    run(m, "SFPSWAP", vd=0, vc=1, mod1=2)
    assert reg(m, 4) == [1] * 16 + [2] * 16
    assert reg(m, 5) == [2] * 16 + [1] * 16


def test_sfpswap_exchange_srcb_srcc_inverts():
    m = machine()
    setreg(m, 1, TWO)
    setreg(m, 2, ONE)
    m.state.lane_config[:16] = EXCHANGE_SRCB_SRCC
    run(m, "SFPSWAP", vd=1, vc=2, mod1=1)     # normally VD = min = 1.0 everywhere
    assert reg(m, 1) == [TWO] * 16 + [ONE] * 16
    assert reg(m, 2) == [ONE] * 16 + [TWO] * 16
    # Equal values with inversion: min-lanes now swap, max-lanes do not.
    m = machine()
    setreg(m, 0, 7)
    setreg(m, 1, 7)
    setreg(m, 4, 1)
    setreg(m, 5, 2)
    m.state.lane_config[:] = EXCHANGE_SRCB_SRCC | ENABLE_DEST_INDEX
    run(m, "SFPSWAP", vd=0, vc=1, mod1=2)
    assert reg(m, 4) == [2] * 16 + [1] * 16


def test_sfpswap_exchange_does_not_affect_unconditional_swap():
    m = machine()
    setreg(m, 1, TWO)
    setreg(m, 2, ONE)
    m.state.lane_config[:] = EXCHANGE_SRCB_SRCC
    run(m, "SFPSWAP", vd=1, vc=2, mod1=0)
    assert reg(m, 1) == [ONE] * LANES and reg(m, 2) == [TWO] * LANES


def test_sfpswap_dest_index_value_writes_only_below_4():
    # VD = 2, VC = 5, unconditional: L2 = old L5 (VD < 4); L5 gets no value write (VC >= 4);
    # VCA = 4 + (5 & 3) = 5, VDA = 4 + (2 & 3) = 6: L5 <-> L6.
    m = machine()
    setreg(m, 2, 0x22)
    setreg(m, 5, 0x55)
    setreg(m, 6, 0x66)
    m.state.lane_config[:] = ENABLE_DEST_INDEX
    run(m, "SFPSWAP", vd=2, vc=5, mod1=0)
    assert reg(m, 2) == [0x55] * LANES
    assert reg(m, 5) == [0x66] * LANES
    assert reg(m, 6) == [0x55] * LANES
    # Without ENABLE_DEST_INDEX it is a plain swap of L2 and L5.
    m = machine()
    setreg(m, 2, 0x22)
    setreg(m, 5, 0x55)
    setreg(m, 6, 0x66)
    run(m, "SFPSWAP", vd=2, vc=5, mod1=0)
    assert reg(m, 2) == [0x55] * LANES and reg(m, 5) == [0x22] * LANES and reg(m, 6) == [0x66] * LANES


def test_sfpswap_disabled_lanes_untouched():
    m = machine()
    setreg(m, 1, TWO)
    setreg(m, 2, ONE)
    enable_only(m, range(0, 32, 3))
    run(m, "SFPSWAP", vd=1, vc=2, mod1=1)
    assert reg(m, 1) == [ONE if lane % 3 == 0 else TWO for lane in range(LANES)]
    assert reg(m, 2) == [TWO if lane % 3 == 0 else ONE for lane in range(LANES)]


def test_sfpswap_vd_constant_writes_only_vc():
    # VD = 10 (1.0, read-only), VC = 1 = 2.0, max into VD: swap -> L1 = 1.0, L10 unchanged.
    m = machine()
    setreg(m, 1, TWO)
    run(m, "SFPSWAP", vd=10, vc=1, mod1=9)
    assert reg(m, 1) == [ONE] * LANES
    assert reg(m, 10) == [ONE] * LANES


# ---------------------------------------------------------------------------
# SFPSHFT2 (SFPSHFT2.md)
# ---------------------------------------------------------------------------

def _shft2_state(m: Machine) -> None:
    for r in range(4):
        setreg(m, r, [((r + 1) << 8) | lane for lane in range(LANES)])    # L0 = 0x100+i ... L3 = 0x400+i


def test_shft2_copy4():
    m = machine()
    _shft2_state(m)
    enable_only(m, set(range(LANES)) - {5})
    run(m, "SFPSHFT2", vd=0, vc=0, mod1=0)
    for lane in range(LANES):
        if lane == 5:
            assert [reg(m, r)[lane] for r in range(4)] == [0x105, 0x205, 0x305, 0x405]
        else:
            assert [reg(m, r)[lane] for r in range(4)] == [0x200 | lane, 0x300 | lane, 0x400 | lane, 0]


def test_shft2_chained_copy4():
    m = machine()
    _shft2_state(m)
    enable_only(m, set(range(LANES)) - {8})
    run(m, "SFPSHFT2", vd=0, vc=0, mod1=1)
    for lane in range(LANES):
        if lane == 8:
            assert [reg(m, r)[lane] for r in range(4)] == [0x108, 0x208, 0x308, 0x408]
            continue
        l3 = (0x100 | (lane + 8)) if lane < 24 else 0
        assert [reg(m, r)[lane] for r in range(4)] == [0x200 | lane, 0x300 | lane, 0x400 | lane, l3]
    assert reg(m, 3)[0] == 0x108     # from the snapshot of L0, although lane 8 is disabled


def test_shft2_shflror1_and_copy4_vc_l15():
    m = machine()
    _shft2_state(m)
    run(m, "SFPSHFT2", vd=0, vc=15, mod1=2)
    assert reg(m, 3) == [2 * ror1(lane) for lane in range(LANES)]
    assert reg(m, 3)[0] == 14 and reg(m, 3)[1] == 0 and reg(m, 3)[8] == 30 and reg(m, 3)[9] == 16
    assert reg(m, 0) == [0x200 | lane for lane in range(LANES)]
    assert reg(m, 2) == [0x400 | lane for lane in range(LANES)]


def test_shft2_shflror1_and_copy4_vc_captured_before_writes():
    m = machine()
    _shft2_state(m)
    run(m, "SFPSHFT2", vd=0, vc=0, mod1=2)       # VC = L0, which the instruction overwrites
    assert reg(m, 3) == [0x100 | ror1(lane) for lane in range(LANES)]
    assert reg(m, 0) == [0x200 | lane for lane in range(LANES)]


def test_shft2_shflror1():
    m = machine()
    setreg(m, 1, 0xDEAD)
    run(m, "SFPSHFT2", vd=1, vc=15, mod1=3)
    assert reg(m, 1) == [2 * ror1(lane) for lane in range(LANES)]
    assert reg(m, 1)[:2] == [14, 0] and reg(m, 1)[8:10] == [30, 16]


def test_shft2_shflror1_partial_enable():
    m = machine()
    setreg(m, 1, 0xDEAD)
    enable_only(m, [0, 1, 8])
    run(m, "SFPSHFT2", vd=1, vc=15, mod1=3)
    assert reg(m, 1) == [{0: 14, 1: 0, 8: 30}.get(lane, 0xDEAD) for lane in range(LANES)]


def test_shft2_shflshr1_bug_spec_example():
    # Spec 4.2: SHFLROR1 of L15, then SHFLSHR1 of L15: lane 0 = 14 (should be 0), lane 8 = 30.
    m = machine()
    run(m, "SFPSHFT2", vd=1, vc=15, mod1=3)
    run(m, "SFPSHFT2", vd=2, vc=15, mod1=4)
    got = reg(m, 2)
    assert got[0] == 14 and got[8] == 30
    assert got[16] == 46 and got[24] == 62          # vc0[lane + 7] = 2 * (lane + 7)
    assert got[1] == 0 and got[9] == 16             # ordinary lanes: vc[lane - 1]
    assert [got[lane] for lane in range(LANES) if lane & 7] == [2 * (lane - 1) for lane in range(LANES) if lane & 7]


def test_shft2_shflshr1_bug_uses_captured_vc_not_current():
    # vc0 comes from the last mode-2/3 with VD < 12, not from the SHFLSHR1's own VC.
    m = machine()
    setreg(m, 4, [0x1000 + lane for lane in range(LANES)])
    run(m, "SFPSHFT2", vd=1, vc=4, mod1=3)        # vc0 = L4
    setreg(m, 4, 0)
    run(m, "SFPSHFT2", vd=2, vc=15, mod1=4)
    got = reg(m, 2)
    assert [got[lane] for lane in (0, 8, 16, 24)] == [0x1007, 0x100F, 0x1017, 0x101F]
    # A SHFLROR1_AND_COPY4 (mode 2) also captures.
    setreg(m, 5, [0x2000 + lane for lane in range(LANES)])
    run(m, "SFPSHFT2", vd=0, vc=5, mod1=2)
    run(m, "SFPSHFT2", vd=6, vc=15, mod1=4)
    assert [reg(m, 6)[lane] for lane in (0, 8, 16, 24)] == [0x2007, 0x200F, 0x2017, 0x201F]


def test_shft2_vd9_vc9_mode3_zeroes_vc0():
    m = machine()
    run(m, "SFPSHFT2", vd=1, vc=15, mod1=3)
    before = m.state.lregs.copy()
    run(m, "SFPSHFT2", vd=9, vc=9, mod1=3)       # writes nothing (VD = 9) but captures vc0 = L9 = 0
    assert np.array_equal(m.state.lregs, before)
    run(m, "SFPSHFT2", vd=2, vc=15, mod1=4)
    got = reg(m, 2)
    assert [got[lane] for lane in (0, 8, 16, 24)] == [0, 0, 0, 0]
    assert [got[lane] for lane in range(LANES) if lane & 7] == [2 * (lane - 1) for lane in range(LANES) if lane & 7]


def test_shft2_mode3_with_vd_ge12_does_not_capture():
    # "the most recent ... with VD < 12": a VD = 12 SHFLROR1 (backdoor disabled) leaves vc0 alone.
    m = machine()
    run(m, "SFPSHFT2", vd=9, vc=9, mod1=3)       # vc0 = 0
    m.state.lane_config[:] = DISABLE_BACKDOOR_LOAD
    run(m, "SFPSHFT2", vd=12, vc=15, mod1=3)
    run(m, "SFPSHFT2", vd=2, vc=15, mod1=4)
    assert [reg(m, 2)[lane] for lane in (0, 8, 16, 24)] == [0, 0, 0, 0]


def test_shft2_mode3_captures_even_with_no_lane_enabled():
    # SFPSHFT2.md: `auto vc = LReg[VC];` executes before, and outside, the LaneEnabled test; the note
    # says vc0 is what the most recent mode-2/3 with VD < 12 observed when executing that line.
    m = machine()
    run(m, "SFPSHFT2", vd=9, vc=9, mod1=3)       # vc0 = 0
    enable_only(m, [])                            # every lane disabled
    run(m, "SFPSHFT2", vd=1, vc=15, mod1=3)      # writes nothing, but vc0 = L15
    assert reg(m, 1) == [0] * LANES
    run(m, "SFPENCC", vd=0, imm2=0, mod1=2)      # Use = 0, flags = 1: all lanes enabled
    run(m, "SFPSHFT2", vd=2, vc=15, mod1=4)
    assert [reg(m, 2)[lane] for lane in (0, 8, 16, 24)] == [14, 30, 46, 62]


def test_shft2_shflshr1_partial_enable():
    m = machine()
    run(m, "SFPSHFT2", vd=9, vc=9, mod1=3)
    setreg(m, 2, 0xBEEF)
    enable_only(m, [0, 3, 8])
    run(m, "SFPSHFT2", vd=2, vc=15, mod1=4)
    assert reg(m, 2) == [{0: 0, 3: 4, 8: 0}.get(lane, 0xBEEF) for lane in range(LANES)]


def test_shft2_shft_lreg():
    m = machine()
    amounts = (SHFT_AMOUNTS + [0] * LANES)[:LANES]
    setreg(m, 2, 0x80000001)      # VB
    setreg(m, 3, amounts)         # VC
    run(m, "SFPSHFT2", vd=1, vb=2, vc=3, mod1=5)
    assert reg(m, 1)[:len(SHFT_EXPECT)] == SHFT_EXPECT
    assert reg(m, 2) == [0x80000001] * LANES


@pytest.mark.parametrize("imm12,expected", [
    (3, 0x91A2B3C0),      # VB = 3: L3 (0x12345678) << 3
    (-3, 0x17E59898),     # 0xFFD: VB = 13: L13 (0xBF2CC4C7) >> 3
    (33, 0x00000002),     # VB = 1, shift 33 & 31 = 1: L1 (0x80000001) << 1
    (-31, 0x00000001),    # 0xFE1: VB = 1, L1 >> 31
])
def test_shft2_shft_imm(imm12, expected):
    m = machine()
    setreg(m, 3, 0x12345678)
    setreg(m, 1, 0x80000001)
    run(m, "SFPSHFT2", vd=5, imm12=imm12, mod1=6)
    assert reg(m, 5) == [expected] * LANES


def test_shft2_shft_imm_encoding_overlap():
    # VB is the low four bits of the signed Imm12.
    word = encode("SFPSHFT2", Arch.WORMHOLE, vd=2, imm12=-3, mod1=6)
    assert word == 0x94FFD026
    assert decode(word, Arch.WORMHOLE)["imm12"] == -3


def test_sfplz_flag_tests_the_input_when_vd_is_vc():
    """The SFPLZ page sets LaneFlags from `c`, read before LReg[VD] is
    written, so VD == VC must not matter. The inputs whose count differs in
    zero-ness from the input: 0 (count 32) and bit 31 set (count 0)."""
    inputs = np.array([0x00000000, 0x80000000, 0xFFFFFFFF, 0x00010000] * 8, dtype=np.uint32)
    state = SfpuState(Arch.WORMHOLE)
    state.lregs[4] = inputs
    Machine(state).execute(encode("SFPLZ", Arch.WORMHOLE, vd=4, vc=4, mod1=2))       # CC_NE0
    assert list(state.lane_flags) == list(inputs != 0)
