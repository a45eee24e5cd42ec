"""Tests for ``hdl.fma.Fma``, the two-stage SFPMAD datapath of Wormhole and
of Blackhole (with Blackhole's SFPMUL24 on the same multiplier).

Every result is compared bit for bit.  ``model.fma.fma_wh`` / ``fma_bh`` (and
``model.bh_arith`` for SFPMUL24) are the oracles, except for the hand-written
tables of spec section 5's examples and of Blackhole's documented differences.  The pipeline
is driven as in hardware: a new triple on every clock, each result read one
clock later, so both the latency and the throughput are exercised.

Amaranth's simulator runs this design at about 2,300-3,400 triples per
second on the project's 2-core machine, depending on load
(``test_simulator_speed`` prints the figure); that sets the sizes below.
"""

import dataclasses
import re

import numpy as np
import pytest
from amaranth.sim import Simulator

from tensix_sfpu.hdl.fma import STAGE1, STAGE1_MUL24, Fma
from tensix_sfpu.model.bh_arith import mul24, mul24_shift_add
from tensix_sfpu.model.fma import FmaFeatures, fma, fma_bh, fma_wh
from tensix_sfpu.model.isa import Arch

ORACLE = {Arch.WORMHOLE: fma_wh, Arch.BLACKHOLE: fma_bh}
ARCHS = pytest.mark.parametrize("arch", list(Arch), ids=[a.value for a in Arch])


# ---------------------------------------------------------------------------
# Driving the pipeline
# ---------------------------------------------------------------------------

def simulate(a, b, c, arch: Arch = Arch.WORMHOLE, mul24=None, upper=None, features=None) -> np.ndarray:
    """Stream the triples through one Fma (of ``arch``, or of ``features`` where given), one per
    clock; return d for each. With SFPMUL24 (Blackhole), ``mul24`` and ``upper`` give each
    triple's SFPMUL24 inputs (0 when not given).

    ``tick().sample(d)`` gives d as it was just before the edge: the output
    of the register loaded at the previous edge, i.e. the result for the
    triple presented one cycle earlier.  So the first sample is the reset
    value and sample i+1 is the result for triple i.  A process rather than a
    testbench drives the inputs: a testbench settles the design after every
    ctx.set, which makes the run about twice as slow."""
    a, b, c = ([int(v) for v in np.asarray(x, dtype=np.uint32).ravel()] for x in (a, b, c))
    assert len(a) == len(b) == len(c)
    dut = Fma(arch, features=features)
    out: list[int] = []
    bh = dut.features.mul24
    mul24, upper = ([int(v) for v in np.broadcast_to(0 if v is None else v, len(a))] for v in (mul24, upper))

    async def drive(ctx):
        with ctx.critical():                    # processes start as background
            for x, y, z, is_mul24, u in zip(a, b, c, mul24, upper):
                ctx.set(dut.a, x)
                ctx.set(dut.b, y)
                ctx.set(dut.c, z)
                if bh:
                    ctx.set(dut.mul24, is_mul24)
                    ctx.set(dut.upper, u)
                _, _, d = await ctx.tick().sample(dut.d)
                out.append(d)
            _, _, d = await ctx.tick().sample(dut.d)
            out.append(d)

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_process(drive)
    sim.run()
    assert out[0] == 0          # an all-zero pipeline register packs to +0
    return np.array(out[1:], dtype=np.uint32)


def check(a, b, c, arch: Arch = Arch.WORMHOLE):
    """Run the RTL and the oracle on the same triples; fail with the first
    few mismatches spelled out."""
    a, b, c = (np.asarray(x, dtype=np.uint32).ravel() for x in (a, b, c))
    got = simulate(a, b, c, arch)
    want = ORACLE[arch](a, b, c)
    report(a, b, c, got, want)


def report(a, b, c, got, want):
    bad = np.flatnonzero(got != want)
    if bad.size:
        lines = [f"a={a[i]:08X} b={b[i]:08X} c={c[i]:08X}: rtl {got[i]:08X}, model {want[i]:08X}"
                 for i in bad[:12]]
        pytest.fail(f"{bad.size} of {a.size} results differ:\n" + "\n".join(lines))


# ---------------------------------------------------------------------------
# Spec section 5 examples, expected values written by hand
# ---------------------------------------------------------------------------

HAND_TABLE = [
    # a           b           c           d
    # (1+2^-23)^2 - (1+2^-22): the 2^-46 term of the product survives only
    # as a sticky bit of weight 2^-26.
    (0x3F800001, 0x3F800001, 0xBF800002, 0x32800000),
    # Rounds up to 2^-126 in IEEE; WH rounds the exponent-0 value at 24-bit
    # precision, keeps 0x7FFFFF and flushes it.
    (0x00800000, 0x3F7FFFFF, 0x00000000, 0x00000000),
    # (1 - 2^-46) * 2^-126 at exponent 0: the all-ones fraction rounds up
    # into 2^-126 and so survives the flush.
    (0x3F000001, 0x00FFFFFE, 0x00000000, 0x00800000),
    # Sum 0x101FFFD2 (29 bits) is renormalised right by two places and bit 1
    # is dropped: the guard bits read as an exact tie, which rounds to even
    # (IEEE, with a true sticky bit: 0x4080FFFF).
    (0x3FD00001, 0x3FA00000, 0x3FFFFFF9, 0x4080FFFE),
    # Every zero is +0.
    (0x80000000, 0x3F800000, 0x80000000, 0x00000000),
    (0x3F800000, 0x3F800000, 0xBF800000, 0x00000000),
    (0xBF800000, 0x3F800000, 0x3F800000, 0x00000000),
    # NaN results: sign | 0x7F800001 with the datapath's bits ORed in.
    (0x7FC00000, 0x3F000000, 0x00000000, 0x7FC00001),   # p = 1.5 * 2^127: bits leak
    (0x7FC00000, 0x3F800000, 0x00000000, 0x7F800001),   # exponent 255: overflow, bare NaN
    (0x3F800000, 0x3F800000, 0xFFC00001, 0xFF800001),   # NaN z, signed like z
    (0x7F800000, 0x00000000, 0x00000000, 0x7F800001),   # Inf * 0
    (0xFF800000, 0x00000000, 0x3F800000, 0xFF800001),   # -Inf * 0: signed like the product
    (0x7F800000, 0x80000000, 0x00000000, 0xFF800001),   # Inf * -0: the zero's sign counts
    (0x7F800000, 0x007FFFFF, 0x00000000, 0x7F800001),   # a denormal is 0 here too
    (0x3F800000, 0x7F800000, 0xFF800000, 0x7F800001),   # Inf - Inf
    # A finite product whose exponent reaches 255 is Inf on its own, and is
    # invalid against an opposite Inf (IEEE: finite 2^127, and -Inf).
    (0x7F000000, 0x40000000, 0xFF000000, 0x7F800000),
    (0x7F000000, 0x7F000000, 0xFF800000, 0x7F800001),
    # Inf z with a finite product returns z; Inf product with finite z is Inf.
    (0x40000000, 0x40400000, 0xFF800000, 0xFF800000),
    (0xFF800000, 0x40000000, 0x7F7FFFFF, 0xFF800000),
    # Multiplying by 1 or adding 0 is a plain add or multiply.
    (0x3F800000, 0x40400000, 0x3F000000, 0x40600000),   # 1 * 3 + 0.5 = 3.5
    (0x3FC00000, 0x3FC00000, 0x00000000, 0x40100000),   # 1.5 * 1.5 = 2.25
    # Denormal inputs read as zero.
    (0x3F800000, 0x3F800000, 0x00000001, 0x3F800000),
    (0x007FFFFF, 0x7F000000, 0x00000000, 0x00000000),
    # A product below 2^-126 is dropped before the add; z comes back as is.
    (0x1F800000, 0x1F800000, 0xBF800000, 0xBF800000),   # 2^-64 * 2^-64 - 1
    # A product of exactly 2^-127 has exponent 0 and is flushed.
    (0x20000000, 0x1F800000, 0x00000000, 0x00000000),
    # The minimum normal passes through unchanged.
    (0x00800000, 0x3F800000, 0x00000000, 0x00800000),
]


def test_hand_table_matches_oracle():
    """The oracle agrees with the hand-derived values (so a failure of the
    RTL test below is the RTL's)."""
    a, b, c, d = (np.array(col, dtype=np.uint32) for col in zip(*HAND_TABLE))
    assert [f"{v:08X}" for v in fma_wh(a, b, c)] == [f"{v:08X}" for v in d]


def test_hand_table():
    a, b, c, d = (np.array(col, dtype=np.uint32) for col in zip(*HAND_TABLE))
    got = simulate(a, b, c)
    assert [f"{v:08X}" for v in got] == [f"{v:08X}" for v in d]


# Blackhole's differences (docs/blackhole.md, the BlackholeA0 SFPMAD page),
# expected values worked out by hand.
BH_HAND_TABLE = [
    # a           b           c           d
    # Every NaN result is 0x7FC00000: no payload, no sign, nothing leaks.
    (0x7F800000, 0x00000000, 0x00000000, 0x7FC00000),   # Inf * 0
    (0x7FC12345, 0x3F800000, 0x3F800000, 0x7FC00000),   # NaN x
    (0x3F800000, 0x3F800000, 0xFFC00001, 0x7FC00000),   # negative NaN z
    (0x3F800000, 0x7F800000, 0xFF800000, 0x7FC00000),   # Inf - Inf
    # An overflowed finite product against an opposite Inf is that Inf.
    (0x7F000000, 0x7F000000, 0xFF800000, 0xFF800000),
    # Zeros are signed: negative only if both the product and z are.
    (0x80000000, 0x3F800000, 0x80000000, 0x80000000),   # -0 * 1 + -0
    (0x80000000, 0x3F800000, 0x00000000, 0x00000000),   # -0 * 1 + +0
    (0x3F800000, 0x3F800000, 0xBF800000, 0x00000000),   # exact cancellation
    (0x1F800000, 0x9F800000, 0x80000000, 0x80000000),   # -2^-128 dropped, -0 z
    (0x1F800000, 0x9F800000, 0x00000000, 0x00000000),   # -2^-128 dropped, +0 z
    # Below 2^-126: rounded at exponent 0, kept only if it reaches 2^-126,
    # else flushed to a zero of the result's sign.
    (0x00800000, 0x3F7FFFFF, 0x00000000, 0x00800000),   # (1 - 2^-24) 2^-126: a tie, rounds up
    (0x00800000, 0x3F000000, 0x00000000, 0x00000000),   # 2^-127
    (0x80800000, 0x3F000000, 0x00000000, 0x80000000),   # -2^-127
    # The two-place right renormalisation keeps bit 1 as sticky (Wormhole
    # drops it and gets 0x4080FFFE).
    (0x3FD00001, 0x3FA00000, 0x3FFFFFF9, 0x4080FFFF),
    # Shared with Wormhole: plain arithmetic, denormal inputs are zero.
    (0x3F800000, 0x40400000, 0x3F000000, 0x40600000),
    (0x3F800000, 0x3F800000, 0x00000001, 0x3F800000),
]


def test_blackhole_hand_table_matches_oracle():
    a, b, c, d = (np.array(col, dtype=np.uint32) for col in zip(*BH_HAND_TABLE))
    assert [f"{v:08X}" for v in fma_bh(a, b, c)] == [f"{v:08X}" for v in d]


def test_blackhole_hand_table():
    a, b, c, d = (np.array(col, dtype=np.uint32) for col in zip(*BH_HAND_TABLE))
    got = simulate(a, b, c, Arch.BLACKHOLE)
    assert [f"{v:08X}" for v in got] == [f"{v:08X}" for v in d]


# SFPMUL24 (BlackholeA0 SFPMUL24 page), worked out by hand: the low 23 bits
# of a * b, or (UPPER) bits 45:23 of the product of the low 23 bits of each;
# then the shift-add with c, a no-op for c = 0 (L9).
MUL24_HAND_TABLE = [
    # a           b           c           upper  d
    (0x00000003, 0x00000005, 0x00000000, 0, 0x0000000F),
    (0xFF800003, 0x00000005, 0x00000000, 0, 0x0000000F),   # bits 31:23 do not count
    (0xFFFFFFFF, 0xFFFFFFFF, 0x00000000, 0, 0x00000001),   # (2^32 - 1)^2 mod 2^23
    (0xFFFFFFFF, 0xFFFFFFFF, 0x00000000, 1, 0x007FFFFE),   # (2^23 - 1)^2 >> 23
    (0x00400000, 0x00000004, 0x00000000, 1, 0x00000002),   # 2^24 >> 23
    (0x00000003, 0x00000005, 0x3A800000, 0, 0x0000400F),   # c = 2^-10: + 2^26 >> 12
    (0x00000003, 0x00000005, 0x3F800000, 0, 0x0000000F),   # c = 1.0: + 2^24, gone mod 2^23
    (0x00000003, 0x00000005, 0x34FFFFFF, 0, 0x00010016),   # shifted by 24: + 7, + 2^16 for lost bits 16 up
    (0x00000003, 0x00000005, 0x32000000, 0, 0x0000000F),   # shifted by 29: nothing left, p alone
    (0xFFFFFFFF, 0xFFFFFFFF, 0x41000001, 1, 0x00400007),   # c = 8 + ulp: p >> 1, + 8
]


def _mul24_columns(table):
    return (np.array(col, dtype=np.uint32) for col in zip(*table))


def test_mul24_hand_table_matches_oracle():
    a, b, c, upper, d = _mul24_columns(MUL24_HAND_TABLE)
    want = [int(mul24_shift_add(mul24(x, y, bool(u)), z)) for x, y, z, u in zip(a, b, c, upper)]
    assert [f"{v:08X}" for v in want] == [f"{v:08X}" for v in d]


def test_mul24_hand_table():
    a, b, c, upper, d = _mul24_columns(MUL24_HAND_TABLE)
    got = simulate(a, b, c, Arch.BLACKHOLE, mul24=1, upper=upper)
    assert [f"{v:08X}" for v in got] == [f"{v:08X}" for v in d]


def test_mul24_random():
    """Random words, UPPER at random, and c's exponent over 0 (the shift-add
    is a no-op), the shift range below 129, 129 itself and above (to 255)."""
    rng = np.random.default_rng(24)
    n = 6_000
    a, b = (rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32) for _ in range(2))
    exp = rng.choice([0, 0, 95, 100, 104, 105, 110, 120, 127, 128, 129, 130, 140, 160, 254, 255], n)
    exp = np.where(rng.random(n) < 0.3, rng.integers(0, 256, n), exp)
    c = _fp(rng, n, exp=exp)
    upper = rng.integers(0, 2, n)
    got = simulate(a, b, c, Arch.BLACKHOLE, mul24=1, upper=upper)
    want = np.where(upper == 1, mul24_shift_add(mul24(a, b, True), c), mul24_shift_add(mul24(a, b, False), c))
    report(a, b, c, got, want)


def test_mul24_and_fma_interleave():
    """SFPMUL24 and FMA triples alternate clock by clock: each result is its
    own instruction's (the mode travels with the triple down the pipeline)."""
    a, b, c = random_triples(7, 800)
    mode = np.arange(a.size) % 2 == 1
    got = simulate(a, b, c, Arch.BLACKHOLE, mul24=mode)
    want = np.where(mode, mul24_shift_add(mul24(a, b, False), c), fma_bh(a, b, c))
    report(a, b, c, got, want)


# ---------------------------------------------------------------------------
# Pipeline timing
# ---------------------------------------------------------------------------

def test_one_cycle_latency():
    """d depends only on the pipeline register: it changes at the clock edge
    after the operands are presented, not before, and not later."""
    dut = Fma(Arch.WORMHOLE)
    triples = [row[:3] for row in HAND_TABLE[:6]]
    want = [row[3] for row in HAND_TABLE[:6]]

    async def bench(ctx):
        assert ctx.get(dut.d) == 0
        previous = 0
        for (x, y, z), expected in zip(triples, want):
            ctx.set(dut.a, x)
            ctx.set(dut.b, y)
            ctx.set(dut.c, z)
            assert ctx.get(dut.d) == previous       # no combinational path
            await ctx.tick()
            assert ctx.get(dut.d) == expected
            previous = expected
        # Holding the operands holds the result.
        await ctx.tick()
        assert ctx.get(dut.d) == want[-1]

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()


# ---------------------------------------------------------------------------
# Special values
# ---------------------------------------------------------------------------

SPECIALS_20 = [
    0x00000000, 0x80000000,             # +0, -0
    0x00000001, 0x807FFFFF,             # smallest denormal, -largest denormal
    0x00800000, 0x80800001,             # min normal, -(its upper neighbour)
    0x7F7FFFFF, 0xFF7FFFFF,             # +-max normal
    0x3F800000, 0xBF800000,             # +-1.0
    0x3F800001, 0x3F7FFFFF,             # neighbours of 1.0
    0x7F800000, 0xFF800000,             # +-Inf
    0x7FC00000, 0x7F800001, 0xFFC00001,  # quiet, signalling, negative NaN
    0x3F000000,                         # 0.5
    0x34000000,                         # 2^-23
    0xC0000000,                         # -2.0
]

SPECIALS_40 = SPECIALS_20 + [
    0x007FFFFF, 0x80000001,             # the other denormal ends
    0x00800001, 0x80800000, 0x00FFFFFF,  # around the min normal
    0x7F000000, 0xFF000000,             # +-2^127
    0x3FFFFFFF, 0xBFC00000, 0x40400000,  # 2-ulp (product carry), -1.5, 3.0
    0x7FBFFFFF, 0xFF800001, 0xFFFFFFFF,  # more NaN payloads
    0x1F800000, 0x20000000,             # 2^-64, 2^-63: products near 2^-127
    0x33800000, 0xB4000000,             # 2^-24, -2^-23
    0x4B000000, 0xCB000001,             # +-2^23 (and a neighbour)
    0x3F800002,                         # 1 + 2^-22
]


def _cross(values):
    v = np.array(values, dtype=np.uint32)
    a, b, c = np.meshgrid(v, v, v, indexing="ij")
    return a.ravel(), b.ravel(), c.ravel()


@ARCHS
def test_special_values_cross_product(arch):
    assert len(set(SPECIALS_20)) == 20
    check(*_cross(SPECIALS_20), arch)           # 8,000 triples


# ---------------------------------------------------------------------------
# Random operands
# ---------------------------------------------------------------------------

def _fp(rng, n, *, sign=None, exp, frac=None):
    """FP32 bit patterns from per-element sign, biased exponent and fraction
    (random where not given)."""
    if sign is None:
        sign = rng.integers(0, 2, n)
    if frac is None:
        frac = rng.integers(0, 1 << 23, n)
    exp = np.clip(exp, 0, 255)
    return ((np.asarray(sign, np.uint32) << 31) | (np.asarray(exp, np.uint32) << 23)
            | np.asarray(frac, np.uint32)).astype(np.uint32)


def _uniform(rng, n):
    bits = lambda: rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    return bits(), bits(), bits()


def _close_exponents(rng, n):
    """z within a few binades of x*y, mostly of the opposite sign: the
    alignment shift is short and the add often cancels."""
    ea, eb = rng.integers(90, 165, n), rng.integers(90, 165, n)
    a, b = _fp(rng, n, exp=ea), _fp(rng, n, exp=eb)
    p_sign = (a ^ b) >> 31
    z_sign = np.where(rng.random(n) < 0.75, p_sign ^ 1, p_sign)
    c = _fp(rng, n, sign=z_sign, exp=ea + eb - 127 + rng.integers(-3, 4, n))
    return a, b, c


def _cancellation(rng, n):
    """z = -(x*y rounded to FP32) give or take a few ulps: massive
    cancellation, where only the product's cut-off bits and sticky remain."""
    a = _fp(rng, n, exp=rng.integers(100, 155, n))
    b = _fp(rng, n, exp=rng.integers(100, 155, n))
    prod = (a.view(np.float32).astype(np.float64) * b.view(np.float32).astype(np.float64))
    c = prod.astype(np.float32).view(np.uint32) ^ np.uint32(0x80000000)
    c = (c.astype(np.int64) + rng.integers(-4, 5, n)).astype(np.uint32)
    return a, b, c


def _carry(rng, n):
    """Large significands of equal sign and exponent: the sum reaches 2^28
    and is renormalised right by two places (the dropped-bit quirk).  The
    fractions end in 9-12 zeros, so that the product is often exact and the
    dropped bit 1 is often the only lost one."""
    ea, eb = rng.integers(100, 155, n), rng.integers(100, 155, n)
    sign_a, sign_b = rng.integers(0, 2, n), rng.integers(0, 2, n)

    def big_frac():
        frac = rng.integers(0x400000, 0x800000, n)
        return frac & ~((1 << rng.integers(9, 13, n)) - 1)

    a = _fp(rng, n, sign=sign_a, exp=ea, frac=big_frac())
    b = _fp(rng, n, sign=sign_b, exp=eb, frac=big_frac())
    c = _fp(rng, n, sign=sign_a ^ sign_b, exp=ea + eb - 127 + rng.integers(0, 2, n), frac=big_frac())
    return a, b, c


def _round_carry(rng, n):
    """Products just below a power of two (all-ones fraction, round bits set
    or not), so rounding carries into the exponent: at exponent 0 (the
    value that does or does not survive the flush to 2^-126), at 254 (to
    Inf) and anywhere between.  z is zero, or a nudge either way."""
    x_sig = rng.integers(1 << 23, 1 << 24, n)
    y_sig = (((1 << 47) - 1) // x_sig) - rng.integers(0, 3, n)
    y_sig = np.maximum(y_sig, 1 << 23)
    pe = rng.choice([0, 0, 0, 1, 254, 254], n)
    pe = np.where(rng.random(n) < 0.3, rng.integers(0, 255, n), pe)
    ea = rng.integers(np.maximum(1, pe + 128 - 254), np.minimum(254, pe + 126) + 1)
    a = _fp(rng, n, exp=ea, frac=x_sig & 0x7FFFFF)
    b = _fp(rng, n, exp=pe + 127 - ea, frac=y_sig & 0x7FFFFF)
    kind = rng.integers(0, 3, n)
    c = np.select(
        [kind == 0, kind == 1],
        [_fp(rng, n, exp=np.zeros(n, int)),                         # zero / denormal
         _fp(rng, n, exp=np.maximum(pe - 24, 0), frac=np.zeros(n, int))],  # +-1 ulp-ish
        _fp(rng, n, exp=np.maximum(pe - rng.integers(25, 28, n), 0)))  # below the sticky
    return a, b, c


def _underflow(rng, n):
    """Products around 2^-126 (exponent -4..4) with zero, denormal, tiny or
    cancelling z: the exponent-0 rounding edge and the flushes."""
    ea = rng.integers(1, 127, n)
    eb = 127 - ea + rng.integers(-4, 5, n)
    a, b = _fp(rng, n, exp=ea), _fp(rng, n, exp=np.clip(eb, 1, 254))
    kind = rng.integers(0, 4, n)
    c = np.select(
        [kind == 0, kind == 1, kind == 2],
        [_fp(rng, n, exp=np.zeros(n, int)),                       # zero / denormal
         _fp(rng, n, exp=rng.integers(1, 4, n)),                   # tiny normal
         _fp(rng, n, sign=((a ^ b) >> 31) ^ 1, exp=rng.integers(0, 3, n))],  # cancelling
        _fp(rng, n, exp=np.full(n, 1), frac=rng.integers(0, 16, n)))  # just above 2^-126
    return a, b, c


def _overflow(rng, n):
    """Product exponents around 255 against large, Inf and NaN z."""
    ea = rng.integers(128, 255, n)
    eb = 127 + 255 - ea + rng.integers(-5, 4, n)
    a, b = _fp(rng, n, exp=ea), _fp(rng, n, exp=np.clip(eb, 1, 254))
    c = _fp(rng, n, exp=rng.integers(240, 256, n),
            frac=np.where(rng.random(n) < 0.5, 0, rng.integers(0, 1 << 23, n)))
    return a, b, c


def _mixed_specials(rng, n):
    """Each operand a special value with probability 0.3, else random."""
    pool = np.array(SPECIALS_40, dtype=np.uint32)
    ops = []
    for _ in range(3):
        rand = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
        ops.append(np.where(rng.random(n) < 0.3, rng.choice(pool, n), rand))
    return tuple(ops)


def _nan_leak(rng, n):
    """A NaN operand with random payload and sign, the others random from
    moderate ranges, so the rest of the datapath leaks into the NaN."""
    nan = _fp(rng, n, exp=np.full(n, 255), frac=rng.integers(1, 1 << 23, n))
    x = _fp(rng, n, exp=rng.integers(0, 256, n))
    y = _fp(rng, n, exp=rng.integers(60, 200, n))
    z = _fp(rng, n, exp=rng.integers(0, 256, n))
    which = rng.integers(0, 3, n)
    a = np.where(which == 0, nan, x)
    b = np.where(which == 1, nan, y)
    c = np.where(which == 2, nan, z)
    return a, b, c


def _two_place_normalisation(rng, n):
    """A product of 2.5x-4x its exponent's unit plus a same-signed z of that
    exponent, >= 1.5: the sum is normalised right by two places, where
    Wormhole drops the sum's bit 1 and Blackhole keeps it as sticky.  The
    significands are odd multiples of 2**11 and 2**10, so the product's low
    21 bits are zero and its bit 21 (the sum's bit 1) is set: the guard bits
    then decide between an exact tie and a round-up."""
    a_sig = (rng.integers(0xD00, 0x1000, n) << 12) | (1 << 11)             # 1.63 .. 2
    b_sig = (rng.integers(0x2800, 0x4000, n) << 10) & 0xFFFFFF | (1 << 10)  # 1.25 .. 2
    b_sig = b_sig | (1 << 23)
    ea = rng.integers(64, 190, n)
    a = _fp(rng, n, exp=ea, frac=a_sig & 0x7FFFFF)
    b = _fp(rng, n, sign=np.zeros(n, int), exp=np.full(n, 127), frac=b_sig & 0x7FFFFF)
    c = _fp(rng, n, sign=a >> 31, exp=ea, frac=rng.integers(1 << 22, 1 << 23, n))
    return a, b, c


GENERATORS = [_close_exponents, _cancellation, _carry, _round_carry, _underflow,
              _overflow, _mixed_specials, _nan_leak, _two_place_normalisation]


def random_triples(seed: int, n: int):
    """n triples: a fifth uniform over all bit patterns, the rest spread over
    the stress generators."""
    rng = np.random.default_rng(seed)
    n_uniform = n // 5
    per = (n - n_uniform) // len(GENERATORS)
    parts = [_uniform(rng, n - per * len(GENERATORS))]
    parts += [gen(rng, per) for gen in GENERATORS]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


@ARCHS
@pytest.mark.parametrize("seed", [1, 2])
def test_random(seed, arch):
    check(*random_triples(seed, 10_000), arch)  # 2 x 10,000 triples


# ---------------------------------------------------------------------------
# A chip that mixes the two FMAs: one feature of the other chip's
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("arch, flipped", [(arch, name) for arch in Arch for name in FmaFeatures._fields],
                         ids=lambda v: getattr(v, "value", v))
def test_one_fma_feature_switched(arch, flipped):
    """The RTL and the model switch each FMA feature alike (model.fma.fma with the features, as
    model.semantics calls it): on the triples where the switch changes the model's result, and on
    a sample of the others, driven through the pipeline one a clock."""
    features = dataclasses.replace(arch.features, **{flipped: not getattr(arch.features, flipped)})
    cross, rand = _cross(SPECIALS_20), random_triples(3, 4_000)
    a, b, c = (np.concatenate([x, y]) for x, y in zip(cross, rand))
    want = fma(a, b, c, features)
    switched = want != fma(a, b, c, arch.features)
    changed = np.flatnonzero(switched)
    assert changed.size > 0, f"{flipped} changes no result of these triples: nothing would be checked"
    others = np.random.default_rng(4).choice(np.flatnonzero(~switched), 1_000)
    pick = np.concatenate([changed[:3_000], others])
    a, b, c, want = a[pick], b[pick], c[pick], want[pick]
    report(a, b, c, simulate(a, b, c, arch, features=features), want)


# ---------------------------------------------------------------------------
# Verilog
# ---------------------------------------------------------------------------

@ARCHS
def test_converts_to_verilog(arch):
    from amaranth.back import verilog
    text = verilog.convert(Fma(arch), name="fma")
    assert re.search(r"^module fma\(", text, re.M)
    for port in ("a", "b", "c"):
        assert re.search(rf"^\s*input \[31:0\] {port};", text, re.M)
    assert re.search(r"^\s*output \[31:0\] d;", text, re.M)
    assert re.search(r"^\s*input clk;", text, re.M)
    # Only Blackhole's has SFPMUL24's inputs.
    for port in ("mul24", "upper"):
        assert bool(re.search(rf"^\s*input {port};", text, re.M)) == (arch is Arch.BLACKHOLE)
    # The only state is the stage boundary, one register of the layout's width.
    layout = STAGE1_MUL24 if arch.features.mul24 else STAGE1
    assert re.findall(r"^\s*reg \[(\d+):0\] (\w+) =", text, re.M) == [(str(layout.size - 1), "stage2")]


# ---------------------------------------------------------------------------
# Slow: larger random run and the 40-value cross product
# ---------------------------------------------------------------------------

@pytest.mark.slow
@ARCHS
@pytest.mark.parametrize("chunk", range(6))
def test_random_slow(chunk, arch):
    check(*random_triples(1000 + chunk, 50_000), arch)  # 6 x 50,000 triples


@pytest.mark.slow
@ARCHS
@pytest.mark.parametrize("chunk", range(4))
def test_special_values_cross_product_slow(chunk, arch):
    a, b, c = _cross(SPECIALS_40)                       # 64,000 triples in 4 chunks
    assert len(set(SPECIALS_40)) == 40
    part = slice(chunk * 16_000, (chunk + 1) * 16_000)
    check(a[part], b[part], c[part], arch)
