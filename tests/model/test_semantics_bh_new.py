"""The four instructions new in Blackhole A0: SFPLE, SFPGT, SFPMUL24, SFPARECIP.

Expected values come from the functional models of tt-isa-documentation's
BlackholeA0/TensixTile/TensixCoprocessor/<INSTR>.md pages: either worked out by
hand (the working is in the comments) or computed by the small reference
functions below, each a line-by-line transliteration of the page's C into
Python integers. SFPARECIP's tables are checked against the page's accuracy
statement for every table entry and against entries read off the page by hand;
nothing is taken from the model's own output.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.isa import Arch, encode
from tensix_sfpu.model.machine import Machine, UndefinedBehaviour
from tensix_sfpu.model.state import FlagStackEntry, SfpuState

BH = Arch.BLACKHOLE
LANES = 32
LANE = np.arange(LANES)
U32 = np.uint32
DISABLE_BACKDOOR_LOAD = 1 << 1


def machine() -> Machine:
    return Machine(SfpuState(arch=BH), strict=True)


def run(m: Machine, mnemonic: str, **fields) -> None:
    m.execute(encode(mnemonic, BH, **fields))


def setreg(m: Machine, r: int, values) -> None:
    m.state.lregs[r] = np.broadcast_to(np.asarray(values, dtype=np.int64) & 0xFFFFFFFF, (LANES,)).astype(U32)


def reg(m: Machine, r: int) -> list[int]:
    return [int(v) for v in m.state.lregs[r]]


def enable_only(m: Machine, lanes) -> None:
    m.state.use_flags = np.ones(LANES, dtype=bool)
    flags = np.zeros(LANES, dtype=bool)
    flags[list(lanes)] = True
    m.state.lane_flags = flags


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


# ---------------------------------------------------------------------------
# SFPLE / SFPGT
# ---------------------------------------------------------------------------

def ref_sign_mag_is_smaller(c: int, d: int) -> bool:
    """SignMagIsSmaller from SFPLE.md, with C's uint32/int32 casts spelled out."""
    def remap(v: int) -> int:
        as_i32 = v - (1 << 32) if v & 0x80000000 else v
        shifted = (as_i32 >> 30) & 0xFFFFFFFF        # (uint32_t)((int32_t)v >> 30)
        v ^= shifted >> 1
        return v - (1 << 32) if v & 0x80000000 else v
    return remap(c) < remap(d)


# (VD, VC, VD <= VC) worked by hand from the total order -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
PAIRS = [
    (0x80000000, 0x00000000, True),    # -0 <= +0
    (0x00000000, 0x80000000, False),   # +0 <= -0 is false
    (0x00000005, 0x00000005, True),    # equal
    (0x80000001, 0x00000001, True),    # -1 <= +1 (sign-magnitude integers)
    (0x80000002, 0x80000001, True),    # -2 <= -1
    (0x80000001, 0x80000002, False),   # -1 <= -2 is false
    (0x7FC00000, 0x7F800000, False),   # +NaN <= +Inf is false
    (0xFFC00000, 0xFF800000, True),    # -NaN <= -Inf
    (0x3F800000, 0x40000000, True),    # 1.0 <= 2.0
    (0xC0000000, 0xBF800000, True),    # -2.0 <= -1.0
    (0x7FFFFFFF, 0xFFFFFFFF, False),   # largest positive vs most negative
    (0x00000001, 0x00000000, False),   # 1 <= 0 is false
]


def _pair_lanes():
    vd = np.array([p[0] for p in PAIRS] * 3, dtype=U32)[:LANES]
    vc = np.array([p[1] for p in PAIRS] * 3, dtype=U32)[:LANES]
    le = np.array([p[2] for p in PAIRS] * 3)[:LANES]
    return vd, vc, le


def test_reference_comparison_agrees_with_the_hand_worked_pairs():
    for d, c, le in PAIRS:
        assert (not ref_sign_mag_is_smaller(c, d)) == le, (hex(d), hex(c))


@pytest.mark.parametrize("mnemonic", ["SFPLE", "SFPGT"])
def test_set_vd_writes_minus_one_or_zero(mnemonic):
    m = machine()
    vd, vc, le = _pair_lanes()
    setreg(m, 1, vd)
    setreg(m, 2, vc)
    run(m, mnemonic, vd=1, vc=2, mod1=8)                       # SET_VD
    result = le if mnemonic == "SFPLE" else ~le
    assert reg(m, 1) == [0xFFFFFFFF if r else 0 for r in result]
    assert not m.state.lane_flags.any()                         # no SET_CC: flags untouched


@pytest.mark.parametrize("mnemonic", ["SFPLE", "SFPGT"])
def test_random_operands_against_the_page(mnemonic):
    rng = np.random.default_rng(7)
    specials = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 1, 0x80000001], dtype=U32)
    for _ in range(20):
        m = machine()
        d = rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(U32)
        c = np.where(rng.random(LANES) < 0.3, d, rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(U32))
        c = np.where(rng.random(LANES) < 0.2, specials[rng.integers(0, 8, LANES)], c).astype(U32)
        setreg(m, 3, d)
        setreg(m, 4, c)
        run(m, mnemonic, vd=3, vc=4, mod1=8)
        expect = []
        for dd, cc in zip(d.tolist(), c.tolist()):
            smaller = ref_sign_mag_is_smaller(cc, dd)            # VC < VD
            expect.append(0xFFFFFFFF if (smaller if mnemonic == "SFPGT" else not smaller) else 0)
        assert reg(m, 3) == expect


def test_set_cc_only_in_enabled_lanes():
    m = machine()
    vd, vc, le = _pair_lanes()
    setreg(m, 1, vd)
    setreg(m, 2, vc)
    enable_only(m, range(0, 32, 2))                             # odd lanes disabled, their flag 0
    run(m, "SFPLE", vd=1, vc=2, mod1=1)                         # SET_CC
    expect = [bool(le[i]) if i % 2 == 0 else False for i in range(LANES)]
    assert m.state.lane_flags.tolist() == expect
    assert reg(m, 1) == vd.tolist()                             # no SET_VD: VD untouched


def test_set_vd_and_set_cc_together_use_the_old_vd():
    # VD = 3, VC = 5: 3 <= 5 so VD becomes -1 and the flag 1; with SET_VD the
    # comparison is not redone on the new VD.
    m = machine()
    setreg(m, 1, 3)
    setreg(m, 2, 5)
    run(m, "SFPLE", vd=1, vc=2, mod1=9)
    assert reg(m, 1) == [0xFFFFFFFF] * LANES
    assert m.state.lane_flags.all()
    m = machine()
    setreg(m, 1, 3)
    setreg(m, 2, 5)
    run(m, "SFPGT", vd=1, vc=2, mod1=9)                         # 3 > 5 is false
    assert reg(m, 1) == [0] * LANES
    assert not m.state.lane_flags.any()


def test_set_vd_with_disabled_lanes():
    m = machine()
    setreg(m, 1, 7)
    setreg(m, 2, 7)                                             # 7 <= 7
    enable_only(m, [0, 5])
    run(m, "SFPLE", vd=1, vc=2, mod1=8)
    assert reg(m, 1) == [0xFFFFFFFF if i in (0, 5) else 7 for i in range(LANES)]


def _stack_top(flags) -> FlagStackEntry:
    return FlagStackEntry(np.array(flags, dtype=bool), np.array([i % 3 == 0 for i in range(LANES)]))


@pytest.mark.parametrize("mod1,combine", [(2, "and"), (6, "or")])
def test_mutate_stack_top_in_every_lane(mod1, combine):
    # The stack mutation sits outside `if (LaneEnabled)`: disabled lanes change too.
    m = machine()
    vd, vc, le = _pair_lanes()
    setreg(m, 1, vd)
    setreg(m, 2, vc)
    top_flags = [i % 4 < 2 for i in range(LANES)]
    below = FlagStackEntry(np.zeros(LANES, dtype=bool), np.zeros(LANES, dtype=bool))
    m.state.flag_stack = [below, _stack_top(top_flags)]
    enable_only(m, [0])
    run(m, "SFPGT", vd=1, vc=2, mod1=mod1)
    gt = ~le
    expect = [(t and g) if combine == "and" else (t or g) for t, g in zip(top_flags, gt)]
    assert m.state.flag_stack[-1].lane_flags.tolist() == expect
    assert m.state.flag_stack[-1].use_flags.tolist() == [i % 3 == 0 for i in range(LANES)]   # kept
    assert m.state.flag_stack[0] is below                       # only the top changes
    assert m.state.lane_flags.tolist() == [i == 0 for i in range(LANES)]   # no SET_CC
    assert reg(m, 1) == vd.tolist()


def test_mutate_or_alone_does_nothing_and_an_empty_stack_is_fine():
    m = machine()
    setreg(m, 1, 1)
    setreg(m, 2, 2)
    m.state.flag_stack = [_stack_top([False] * LANES)]
    run(m, "SFPLE", vd=1, vc=2, mod1=4)                         # MUTATE_OR without MUTATE_STACK
    assert not m.state.flag_stack[-1].lane_flags.any()
    m = machine()
    run(m, "SFPLE", vd=1, vc=2, mod1=2)                         # empty stack: skipped, not undefined
    assert m.state.flag_stack == []


def test_vd_16_compares_and_l9_writes_nothing():
    # VD = 9 (a constant): SET_VD writes nothing, SET_CC still sets flags from
    # L9 (0) <= VC.
    m = machine()
    setreg(m, 2, [0x80000001 if i < 16 else 1 for i in range(LANES)])   # -1 in lanes 0-15, +1 above
    run(m, "SFPLE", vd=9, vc=2, mod1=9)
    assert reg(m, 9) == [0] * LANES
    assert m.state.lane_flags.tolist() == [i >= 16 for i in range(LANES)]   # 0 <= -1 false, 0 <= 1 true


def test_backdoor_guard_gates_the_stack_mutation():
    # VD = 12 with DISABLE_BACKDOOR_LOAD set only in lanes 0-15: VB = VD = L12
    # (0x37800000 = 2^-16 at reset); with VC = 0 in every lane, L12 > 0, so
    # SFPGT's result is 1, and the AND keeps the top in guarded lanes, while
    # SFPLE's result is 0 and clears them. Other lanes keep the top.
    for mnemonic, result in (("SFPGT", True), ("SFPLE", False)):
        m = machine()
        m.state.lane_config = np.where(LANE < 16, DISABLE_BACKDOOR_LOAD, 0).astype(U32)
        m.state.flag_stack = [_stack_top([True] * LANES)]
        setreg(m, 2, 0)
        run(m, mnemonic, vd=12, vc=2, mod1=2 | 1)
        assert m.state.flag_stack[-1].lane_flags.tolist() == [result if i < 16 else True for i in range(LANES)]
        # SET_CC in guarded lanes too (every lane is enabled)
        assert m.state.lane_flags.tolist() == [result if i < 16 else False for i in range(LANES)]
        # and the word went into InstructionTemplate[0] in the other lanes
        word = encode(mnemonic, BH, vd=12, vc=2, mod1=3)
        assert [int(v) for v in m.state.macro_templates[0]] == [0 if i < 16 else word for i in range(LANES)]


@pytest.mark.parametrize("mnemonic", ["SFPLE", "SFPGT"])
@pytest.mark.parametrize("mod1", range(16))
def test_every_mod1_against_the_page(mnemonic, mod1):
    # The page's model per lane: result = SFPLE ? !(VC < VD) : (VC < VD);
    # in enabled lanes SET_VD (8) writes -1/0 and SET_CC (1) the flag; with
    # MUTATE_STACK (2) and a non-empty stack the top's flag is ANDed, or with
    # MUTATE_OR (4) ORed, with the result in every lane.
    rng = np.random.default_rng(mod1 + (16 if mnemonic == "SFPGT" else 0))
    m = machine()
    d = rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(U32)
    c = np.where(rng.random(LANES) < 0.3, d ^ U32(0x80000000), rng.integers(0, 1 << 32, LANES, dtype=np.uint64))
    setreg(m, 1, d)
    setreg(m, 2, c)
    enabled = rng.random(LANES) < 0.6
    m.state.use_flags = np.ones(LANES, dtype=bool)
    m.state.lane_flags = enabled.copy()
    top = rng.random(LANES) < 0.5
    m.state.flag_stack = [_stack_top(top)]
    run(m, mnemonic, vd=1, vc=2, mod1=mod1)
    results = []
    for dd, cc in zip(d.tolist(), (np.asarray(c) & 0xFFFFFFFF).tolist()):
        smaller = ref_sign_mag_is_smaller(cc, dd)
        results.append(smaller if mnemonic == "SFPGT" else not smaller)
    vd = [(0xFFFFFFFF if r else 0) if (mod1 & 8 and e) else old
          for r, e, old in zip(results, enabled, d.tolist())]
    flags = [r if (mod1 & 1 and e) else bool(e) for r, e in zip(results, enabled)]
    if mod1 & 2:
        new_top = [(t or r) if mod1 & 4 else (t and r) for t, r in zip(top, results)]
    else:
        new_top = top.tolist()
    assert reg(m, 1) == vd
    assert m.state.lane_flags.tolist() == flags
    assert m.state.flag_stack[-1].lane_flags.tolist() == new_top


def test_sfple_is_not_on_wormhole():
    with pytest.raises(ValueError):
        encode("SFPLE", Arch.WORMHOLE, vd=1, vc=2)


# ---------------------------------------------------------------------------
# SFPMUL24
# ---------------------------------------------------------------------------

def ref_mul24(a: int, b: int, upper: bool) -> int:
    if upper:
        return ((a & 0x7FFFFF) * (b & 0x7FFFFF)) >> 23
    return ((a * b) & 0xFFFFFFFF) & 0x7FFFFF                    # uint32_t a * b, then & 0x7fffff


def ref_mul24_shift_add(p_m: int, z: int) -> int:
    """Mul24ShiftAdd from SFPMUL24.md with every uint32 operation wrapped."""
    z_e = (z >> 23) & 0xFF
    if z_e:
        p_e = 129
        r_e = p_e if p_e > z_e else z_e
        s = (r_e - z_e) & 31
        z_m = (1 << 23) + (z & 0x7FFFFF)
        z_m_grs = (z_m << 3) & 0xFFFFFFFF
        p_m >>= (r_e - p_e) & 31
        z_m = z_m_grs >> s
        if z_m:
            p_m = (p_m + z_m) & 0xFFFFFFFF
            p_m = (p_m + (int((((z_m << s) & 0xFFFFFFFF) ^ z_m_grs) > 0xFFFF) << 16)) & 0xFFFFFFFF
            p_m &= 0x7FFFFF
    return p_m


def test_mul24_low_and_high_by_hand():
    m = machine()
    setreg(m, 1, [3, 0x7FFFFF, 0x00800003, 0xFFFFFFFF] * 8)
    setreg(m, 2, [5, 0x7FFFFF, 0x00000002, 0xFFFFFFFF] * 8)
    run(m, "SFPMUL24", vd=0, va=1, vb=2, vc=9)                 # low, VC = L9 = 0: no shift-add
    # 3*5 = 15; (2^23-1)^2 = 2^46 - 2^24 + 1, low 23 bits 1; 0x800003*2 =
    # 0x1000006, low 23 bits 6; 0xFFFFFFFF^2 mod 2^32 = 1.
    assert reg(m, 0) == [15, 1, 6, 1] * 8
    run(m, "SFPMUL24", vd=3, va=1, vb=2, vc=9, mod1=1)         # UPPER
    # 15 >> 23 = 0; (2^46 - 2^24 + 1) >> 23 = 2^23 - 2 = 0x7FFFFE;
    # (0x000003 * 2) >> 23 = 0 (bit 23 of VA is masked off); 0x7FFFFF^2 >> 23 = 0x7FFFFE.
    assert reg(m, 3) == [0, 0x7FFFFE, 0, 0x7FFFFE] * 8


# (VC, what Mul24ShiftAdd does to p = 0x123456), worked by hand:
SHIFT_ADD_CASES = [
    (0x00000000, 0x123456),   # exponent 0: nothing
    (0x3F800000, 0x123456),   # 1.0: e 127, s 2, adds 0x4000000 >> 2 = 2^24, masked away
    (0x3F800001, 0x123458),   # 1.0 + 2^-23: adds (0x800001 << 3) >> 2 = 0x1000002 -> +2
    (0x41000000, 0x091A2B),   # 8.0: e 130, p >>= 1, adds 2^26 (masked away)
    (0x37000000, 0x1234D6),   # e 110: s 19, adds 2^26 >> 19 = 128, no bits dropped
    (0x377FFFFF, 0x133555),   # e 110, mantissa all ones: adds 0x7FFFFF8 >> 19 = 255 and, as
                              # 0x7F80000 ^ 0x7FFFFF8 = 0x7FFF8 > 0xFFFF, 1 << 16: 0x123456 + 0xFF + 0x10000
    (0x32000000, 0x123456),   # e 100: s 29, 2^26 >> 29 = 0: nothing
    (0x00800001, 0x12345E),   # e 1: s = 128 & 31 = 0, adds 0x4000008, low 23 bits +8
    (0x7F800000, 0x000000),   # Inf: p >>= 126 & 31 = 30 -> 0, adds 2^26 -> 0
]


@pytest.mark.parametrize("vc_value,expect", SHIFT_ADD_CASES)
def test_mul24_shift_add_by_hand(vc_value, expect):
    assert ref_mul24_shift_add(0x123456, vc_value) == expect     # the reference agrees with the hand
    m = machine()
    setreg(m, 1, 0x123456)
    setreg(m, 2, 1)
    setreg(m, 3, vc_value)
    run(m, "SFPMUL24", vd=0, va=1, vb=2, vc=3)
    assert reg(m, 0) == [expect] * LANES


def test_mul24_random_against_the_page():
    rng = np.random.default_rng(24)
    for mod1 in (0, 1, 2, 3):               # bit 1 is not a modifier: ignored
        upper = mod1 & 1
        for _ in range(10):
            m = machine()
            a = rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(U32)
            b = rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(U32)
            exps = rng.integers(0, 256, LANES).astype(U32)
            z = (exps << U32(23)) | rng.integers(0, 1 << 23, LANES).astype(U32) | (rng.integers(0, 2, LANES).astype(U32) << U32(31))
            setreg(m, 4, a)
            setreg(m, 5, b)
            setreg(m, 6, z)
            run(m, "SFPMUL24", vd=7, va=4, vb=5, vc=6, mod1=mod1)
            expect = [ref_mul24_shift_add(ref_mul24(x, y, bool(upper)), w)
                      for x, y, w in zip(a.tolist(), b.tolist(), z.tolist())]
            assert reg(m, 7) == expect


def test_mul24_indirect_va_and_vd():
    # INDIRECT_VA (4): lane i multiplies L[L7 & 15] by VB; INDIRECT_VD (8):
    # writes L[L7 & 15]. L7 = 0x10 | k: the low four bits select.
    m = machine()
    for r in range(7):
        setreg(m, r, r + 10)                                    # L_r = r + 10
    sel = np.array([i % 4 for i in range(LANES)])
    setreg(m, 7, 0x10 | sel)
    setreg(m, 5, 3)
    run(m, "SFPMUL24", vd=6, va=0, vb=5, vc=9, mod1=4)         # VD = 6: L[sel] * 3
    assert reg(m, 6) == [(s + 10) * 3 for s in sel]
    m2 = machine()
    setreg(m2, 7, [2 if i < 16 else 9 for i in range(LANES)])   # lanes 16+ target L9: no write
    setreg(m2, 1, 6)
    setreg(m2, 2, 7)
    run(m2, "SFPMUL24", vd=0, va=1, vb=2, vc=9, mod1=8)
    assert reg(m2, 2) == [42 if i < 16 else 7 for i in range(LANES)]
    assert reg(m2, 0) == [0] * LANES


def test_mul24_lane_enable_and_backdoor():
    m = machine()
    setreg(m, 1, 4)
    setreg(m, 2, 5)
    enable_only(m, [3])
    run(m, "SFPMUL24", vd=0, va=1, vb=2, vc=9)
    assert reg(m, 0) == [20 if i == 3 else 0 for i in range(LANES)]
    m = machine()                                               # VD 13, backdoor open: only the template
    setreg(m, 1, 4)
    run(m, "SFPMUL24", vd=13, va=1, vb=1, vc=9)
    assert [int(v) for v in m.state.macro_templates[1]] == [encode("SFPMUL24", BH, vd=13, va=1, vb=1, vc=9)] * LANES


# ---------------------------------------------------------------------------
# SFPARECIP
# ---------------------------------------------------------------------------

def test_arecip_documented_values():
    # The page: ApproxRecip(1.0) is 0.99609375; ApproxExp(1.0) is 2.703125.
    m = machine()
    setreg(m, 1, bits(1.0))
    run(m, "SFPARECIP", vd=2, vc=1, mod1=0)
    run(m, "SFPARECIP", vd=3, vc=1, mod1=2)
    assert reg(m, 2) == [bits(0.99609375)] * LANES
    assert reg(m, 3) == [bits(2.703125)] * LANES


RECIP_CASES = [
    # x, RECIP result; exponent 253 - e, mantissa bits 22:16 from LUT[(x >> 16) & 0x7f]
    (0x3FC00000, 0x3F2A0000),  # 1.5: e 127 -> 126; LUT[64] = 42 (row four of the page's table) = 0x2A
    (0xC0000000, 0xBEFF0000),  # -2.0: e 128 -> 125, LUT[0] = 127; sign put back
    (0x00000000, 0x7F800000),  # +0: below 2^-126 -> +Inf
    (0x80000000, 0xFF800000),  # -0 -> -Inf
    (0x00000001, 0x7F800000),  # denormal -> +Inf
    (0x007FFFFF, 0x7F800000),
    (0x00800000, 0x7E7F0000),  # 2^-126: e 1 -> 252 (252 << 23 = 0x7E000000), LUT[0] = 127
    (0x7E7FFFFF, 0x00800000),  # just below 2^126: e 252 -> 1, LUT[127] = 0
    (0x7E800000, 0x00000000),  # 2^126 and above -> 0
    (0x7F800000, 0x00000000),  # +Inf -> 0
    (0x7FC00000, 0x00000000),  # +NaN -> 0
    (0xFFC00000, 0x80000000),  # -NaN -> -0
    (0x3F810000, 0x3F7D0000),  # 1.0078125: LUT[1] = 125
]


def test_arecip_recip_by_hand():
    m = machine()
    setreg(m, 1, ([c[0] for c in RECIP_CASES] * 3)[:LANES])
    run(m, "SFPARECIP", vd=2, vc=1, mod1=0)
    assert reg(m, 2)[:len(RECIP_CASES)] == [c[1] for c in RECIP_CASES]


EXP_CASES = [
    (0x00000000, 0x3F800000),  # 0 -> 1.0
    (0x80000000, 0xBF800000),  # -0 -> -1.0 (sign put back)
    (0x3C000000, 0x3F810000),  # 2^-7 < 2^-6: 0x3f810000 | low 16 bits (0)
    (0x3C001234, 0x3F811234),  # ... keeping x's low 16 bits
    (0x3C800000, 0x3F820000),  # 2^-6: LUT[0] = 2 -> 1.015625
    (0x3F320000, 0x40000000),  # 0.6953125: LUT[690] = 0 (first entry of the page's second run) -> 2.0
    (0x3FFF0000, 0x40EA0000),  # 1.9921875: LUT[895] = 234 (the last) carries into the exponent: 7.3125
    (0x40000000, 0x40800000),  # 2.0 and above: 4.0 | low 16 bits
    (0x40405678, 0x40805678),  # 3.0...: 4.0 with x's low 16 bits
    (0x7FC00001, 0x40800001),  # NaN: 4.0 | low 16 bits
    (0xBF800000, 0xC02D0000),  # -1.0 -> -2.703125
]


def test_arecip_exp_by_hand():
    m = machine()
    setreg(m, 1, ([c[0] for c in EXP_CASES] * 3)[:LANES])
    run(m, "SFPARECIP", vd=2, vc=1, mod1=2)
    assert reg(m, 2)[:len(EXP_CASES)] == [c[1] for c in EXP_CASES]


@pytest.mark.parametrize("mod1", [3, 7, 15])
def test_arecip_other_mod1_values_are_exp(mod1):
    # `case SFPARECIP_MOD1_EXP: default:` -- every Mod1 above 2 computes EXP.
    m = machine()
    setreg(m, 1, ([c[0] for c in EXP_CASES] * 3)[:LANES])
    run(m, "SFPARECIP", vd=2, vc=1, mod1=mod1)
    assert reg(m, 2)[:len(EXP_CASES)] == [c[1] for c in EXP_CASES]


def test_arecip_cond_recip():
    # COND_RECIP: where VB is negative (as int32; -0 = 0x80000000 counts), VD =
    # ApproxRecip(|VC|) without the sign; elsewhere VD = VC.
    m = machine()
    vb = [0x80000000, 0xFFFFFFFF, 0x00000000, 0x7FFFFFFF] * 8
    setreg(m, 1, [0xC0000000] * LANES)                          # -2.0
    setreg(m, 4, vb)
    run(m, "SFPARECIP", vd=2, vb=4, vc=1, mod1=1)
    # ApproxRecip(2.0) = 0x3EFF0000 (see RECIP_CASES, without the sign)
    assert reg(m, 2) == [0x3EFF0000, 0x3EFF0000, 0xC0000000, 0xC0000000] * 8


def _recip_value(x: int) -> float:
    m = machine()
    setreg(m, 1, x)
    run(m, "SFPARECIP", vd=2, vc=1, mod1=0)
    return f32(reg(m, 2)[0])


def test_arecip_recip_accuracy_for_every_table_entry():
    # The page: for 2^-126 <= x < 2^126, 0.9944/x < ApproxRecip(x) < 1.0054/x.
    # The first and last x of every one of the 128 table bins, at three
    # exponents (each lane a different x).
    xs = []
    for e in (1, 127, 252):
        for k in range(128):
            lo = (e << 23) | (k << 16)
            xs += [lo, lo | 0xFFFF]
    for start in range(0, len(xs), LANES):
        chunk = xs[start:start + LANES]
        m = machine()
        setreg(m, 1, chunk + [chunk[0]] * (LANES - len(chunk)))
        run(m, "SFPARECIP", vd=2, vc=1, mod1=0)
        for x, r in zip(chunk, reg(m, 2)):
            value = f32(x)
            assert 0.9944 / value < f32(r) < 1.0054 / value, (hex(x), hex(r))


def test_arecip_exp_accuracy_for_every_table_entry():
    # The page: for 0 <= x < 2, 0.9922 e^x < ApproxExp(x) < 1.016 e^x. Every
    # 2^16-wide bin from 2^-6 up to 2 (the 896 table entries), first and last
    # x, and the ranges below.
    xs = [0, 0x00000001, 0x00800000, 0x3C000000, 0x3C7FFFFF]
    for hi in range(0x3C80, 0x4000):
        xs += [hi << 16, (hi << 16) | 0xFFFF]
    for start in range(0, len(xs), LANES):
        chunk = xs[start:start + LANES]
        m = machine()
        setreg(m, 1, chunk + [chunk[0]] * (LANES - len(chunk)))
        run(m, "SFPARECIP", vd=2, vc=1, mod1=2)
        for x, r in zip(chunk, reg(m, 2)):
            e = math.exp(f32(x))
            assert 0.9922 * e < f32(r) < 1.016 * e, (hex(x), hex(r))


def test_arecip_lanes_and_destinations():
    m = machine()
    setreg(m, 1, bits(1.0))
    setreg(m, 2, 0x1234)
    enable_only(m, [1, 2])
    run(m, "SFPARECIP", vd=2, vc=1, mod1=0)
    assert reg(m, 2) == [0x3F7F0000 if i in (1, 2) else 0x1234 for i in range(LANES)]
    m = machine()
    setreg(m, 1, bits(1.0))
    run(m, "SFPARECIP", vd=9, vc=1, mod1=0)                     # VD 9: nothing written
    assert reg(m, 9) == [0] * LANES


def test_new_instructions_assemble_with_arch_blackhole():
    program = assemble(".arch blackhole\nsfple vd=1 vc=2 mod1=1\nsfpmul24 vd=0 va=1 vb=2 vc=9 mod1=1\n"
                       "sfparecip vd=3 vb=0 vc=1 mod1=2\nsfpgt vd=1 vc=2 mod1=8\n")
    words = [i.word for i in program.items]
    assert [w >> 24 for w in words] == [0x96, 0x98, 0x99, 0x97]
    m = machine()
    for w in words:
        m.execute(w)


def test_strict_mode_is_the_default_for_blackhole():
    # SFPPOPC on an empty stack is undefined on Blackhole too.
    with pytest.raises(UndefinedBehaviour):
        run(machine(), "SFPPOPC", mod1=0)
