"""StochRound (SFPSTOCHRND's arithmetic) and CastToFp32 (SFPCAST's) against the
golden model, bit for bit, on special values and random values.

The model (model.rounding) is the oracle; a few hand-worked vectors from the
documentation are checked as well, so a shared misreading would show up.
"""

import struct

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.rounding import CastToFp32, StochRndMode, StochRound
from tests.hdl.hdl_sim import evaluate
from tensix_sfpu.model.rounding import cast_int_to_fp32, stochrnd

M = StochRndMode
FLOAT_FLOAT = (M.FP32_TO_FP16A, M.FP32_TO_FP16B)
FLOAT_INT = (M.FP32_TO_UINT8, M.FP32_TO_INT8, M.FP32_TO_UINT16, M.FP32_TO_INT16)
INT_INT = (M.INT32_TO_UINT8, M.INT32_TO_INT8)
NEAREST = 0x400000
RAND_SPECIALS = (NEAREST, 0, 1, 0x3FFFFF, 0x7FFFFF)

RANDOM_PER_MODE = 3000
SLOW_PER_MODE = 50000


def f32(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


# ---------------------------------------------------------------------------
# StochRound: stimulus
# ---------------------------------------------------------------------------

# FP32 words around every boundary the float modes care about (positive;
# both signs are used).
FLOAT_SPECIALS = [
    0x00000000, 0x00000001, 0x00400000, 0x007FFFFF,            # zero, denormals
    0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF,            # Inf, NaNs
    0x7F7FFFFF, 0x7F7FF000, 0x7F7F8000, 0x00800000, 0x00801000,  # extremes; carry to Inf
    0x3F801000, 0x3F803000, 0x3F800FFF, 0x3F801001,            # FP16A: halfway and either side
    0x3F808000, 0x3F818000, 0x3F807FFF, 0x3F808001,            # FP16B: halfway and either side
    0x3FFFF000, 0x3FFF8000, 0x3FFFFFFF,                        # mantissa carry into the exponent
    f32(0.25), 0x3EFFFFFF, f32(0.5), 0x3F000001, f32(0.75), 0x3F7FFFFF,  # |x| < 0.5 / E = -1
    f32(1.0), f32(1.5), f32(2.5), f32(3.5), 0x3FBFFFFF, 0x3FC00001,
    f32(126.5), f32(127.0), f32(127.25), f32(127.5), f32(128.0),
    f32(254.5), f32(255.0), f32(255.5), f32(256.0),
    f32(32766.5), f32(32767.0), f32(32767.5), f32(32768.0),
    f32(65534.5), f32(65535.0), f32(65535.5), 0x477FFFFF,      # just below 2^16
    f32(65536.0), f32(1e9), f32(2.0**31),
]
FLOAT_SPECIALS += [w | 0x80000000 for w in FLOAT_SPECIALS]

# Sign-magnitude integers for the INT32 modes (both signs are used).
INT_SPECIALS = [
    0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0x100, 0x17F, 0x180, 0x1FF,
    0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x12345678, 0x40000000, 0x7FFFFFFF,
]
INT_SPECIALS += [w | 0x80000000 for w in INT_SPECIALS]


def stochround_vector(mode, x, rand, vb=0, imm5=0, use_imm5=0):
    return dict(mode=int(mode.value), x=x, vb=vb, imm5=imm5, use_imm5=use_imm5, rand=rand)


def special_vectors(mode: StochRndMode) -> list[dict]:
    rng = np.random.default_rng(int(mode.value))
    vectors = []
    if mode in INT_INT:
        for x in INT_SPECIALS:
            for shift in range(32):
                for rand in (NEAREST, 0, 0x7FFFFF):
                    # The shift from VB (whose bits above 4 must be ignored)...
                    vb = shift | int(rng.integers(0, 1 << 27)) << 5
                    vectors.append(stochround_vector(mode, x, rand, vb=vb, imm5=31 - shift))
                    # ...and from Imm5, with a VB that would shift differently.
                    vectors.append(stochround_vector(mode, x, rand, vb=~shift & 31, imm5=shift, use_imm5=1))
    else:
        for x in FLOAT_SPECIALS:
            for rand in RAND_SPECIALS:
                vectors.append(stochround_vector(mode, x, rand, vb=int(rng.integers(0, 1 << 32)),
                                                 imm5=int(rng.integers(0, 32)), use_imm5=int(rng.integers(0, 2))))
    return vectors


def random_float(rng, mode: StochRndMode) -> int:
    """An FP32 word; mostly with exponents where the mode does something."""
    kind = rng.integers(0, 8)
    sign = int(rng.integers(0, 2)) << 31
    mantissa = int(rng.integers(0, 1 << 23))
    if kind == 0:
        return int(rng.integers(0, 1 << 32))
    if kind == 1:
        exponent = int(rng.choice([0, 1, 254, 255]))
    elif mode in FLOAT_INT:
        exponent = int(rng.integers(120, 148))          # around -1 <= E <= 15
    else:
        exponent = int(rng.integers(1, 255))
    if kind == 2:                                       # halfway, or all discarded bits set
        mantissa &= ~0x1FFF if mode == M.FP32_TO_FP16A else ~0xFFFF
        mantissa |= int(rng.choice([0x1000, 0x1FFF, 0x8000, 0xFFFF]))
        if mode in FLOAT_INT:                           # k + 0.5 and its neighbours
            e = exponent - 127
            if 0 <= e <= 15:
                frac_bits = 23 - e
                mantissa = (mantissa >> frac_bits << frac_bits) | (1 << (frac_bits - 1))
                mantissa += int(rng.integers(-1, 2))
                mantissa &= 0x7FFFFF
    return sign | exponent << 23 | mantissa


def discarded_as_rand(mode: StochRndMode, v: dict) -> int:
    """Stimulus only: PRNG bits equal to the bits the round throws away, to hit
    the ">=" boundary.  (Expected values still come from the model.)"""
    x = v["x"]
    if mode == M.FP32_TO_FP16A:
        return (x & 0x1FFF) << 10
    if mode == M.FP32_TO_FP16B:
        return (x & 0xFFFF) << 7
    if mode in INT_INT:
        shift = v["imm5"] if v["use_imm5"] else v["vb"] & 31
        return ((x & 0x7FFFFFFF) << 23 >> shift) & 0x7FFFFF
    e = (x >> 23 & 0xFF) - 127
    significand = 0x800000 | (x & 0x7FFFFF)
    fixed = significand << e if e >= 0 else significand >> -e
    return fixed & 0x7FFFFF


def random_vectors(mode: StochRndMode, count: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed * 8 + int(mode.value))
    vectors = []
    for _ in range(count):
        if mode in INT_INT:
            x = int(rng.integers(0, 1 << 32)) >> int(rng.integers(0, 32))   # all magnitudes
            x |= int(rng.integers(0, 2)) << 31
        else:
            x = random_float(rng, mode)
        v = stochround_vector(mode, x, int(rng.integers(0, 1 << 23)),
                              vb=int(rng.integers(0, 1 << 32)), imm5=int(rng.integers(0, 32)),
                              use_imm5=int(rng.integers(0, 2)))
        kind = rng.integers(0, 8)
        if kind < 2:
            v["rand"] = NEAREST
        elif kind == 2:
            v["rand"] = discarded_as_rand(mode, v) + int(rng.integers(0, 2))
            v["rand"] &= 0x7FFFFF
        vectors.append(v)
    return vectors


# ---------------------------------------------------------------------------
# StochRound: oracle and check
# ---------------------------------------------------------------------------

def expected_stochround(vectors: list[dict]) -> list[int]:
    """The model's results, with vectors grouped so each model call is vectorised."""
    out = [0] * len(vectors)
    groups: dict[tuple, list[int]] = {}
    for i, v in enumerate(vectors):
        mode = StochRndMode(v["mode"])
        key = (v["mode"], v["use_imm5"], v["imm5"]) if mode in INT_INT and v["use_imm5"] else (v["mode"],)
        groups.setdefault(key, []).append(i)
    for key, idx in groups.items():
        def col(name):
            return np.array([vectors[i][name] for i in idx], dtype=np.uint32)
        if len(key) == 3:
            y = stochrnd(key[0], col("x"), col("rand"), imm5=key[2], use_imm5=True)
        else:
            y = stochrnd(key[0], col("x"), col("rand"), vb=col("vb"))
        for i, value in zip(idx, y):
            out[i] = int(value)
    return out


def check_stochround(vectors: list[dict]):
    got = [r["y"] for r in evaluate(StochRound(), vectors, ["y"])]
    want = expected_stochround(vectors)
    bad = [(v, g, w) for v, g, w in zip(vectors, got, want) if g != w]
    assert not bad, "\n".join(
        f"mode {StochRndMode(v['mode']).name} x=0x{v['x']:08X} rand=0x{v['rand']:06X} vb=0x{v['vb']:08X} "
        f"imm5={v['imm5']} use_imm5={v['use_imm5']}: RTL 0x{g:08X}, model 0x{w:08X}"
        for v, g, w in bad[:10]) + f"\n({len(bad)} of {len(vectors)} differ)"


@pytest.mark.parametrize("mode", list(StochRndMode), ids=lambda m: m.name)
def test_stochround_special_values(mode):
    check_stochround(special_vectors(mode))


@pytest.mark.parametrize("mode", list(StochRndMode), ids=lambda m: m.name)
def test_stochround_random(mode):
    check_stochround(random_vectors(mode, RANDOM_PER_MODE, seed=1))


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(StochRndMode), ids=lambda m: m.name)
def test_stochround_random_slow(mode):
    check_stochround(random_vectors(mode, SLOW_PER_MODE, seed=2))


# Hand-worked from the documentation's functional models, independent of the model.
TOWARD_ZERO = 0x7FFFFF       # the PRNG bits of Blackhole's rnd_mode 2
HAND_WORKED_STOCHROUND = [
    # (mode, x, rand, vb, y)
    (M.FP32_TO_FP16B, f32(1.0) | 0x8000, NEAREST, 0, f32(1.0) + 0x10000),   # tie: away from zero
    (M.FP32_TO_FP16B, f32(1.0) | 0x7FFF, NEAREST, 0, f32(1.0)),
    (M.FP32_TO_FP16A, f32(1.0), 0, 0, f32(1.0) + 0x2000),                   # exact, rand 0: bumped
    (M.FP32_TO_FP16A, 0x7F7FFFFF, NEAREST, 0, 0x7F800000),                  # carry up to Inf
    (M.FP32_TO_FP16A, 0xFFC00001, NEAREST, 0, 0xFF800000),                  # -NaN -> -Inf
    (M.FP32_TO_FP16B, 0x80000000, NEAREST, 0, 0),                           # -0 -> +0
    (M.FP32_TO_FP16B, 0x807FFFFF, NEAREST, 0, 0),                           # denormal -> +0
    (M.FP32_TO_INT8, f32(-2.5), NEAREST, 0, 0x80000003),                    # ties away
    (M.FP32_TO_INT8, f32(-0.49), 0, 0, 0),                                  # |x| < 0.5: never rounded up
    (M.FP32_TO_INT8, f32(-0.5), NEAREST, 0, 0x80000001),
    (M.FP32_TO_INT8, f32(-200.0), NEAREST, 0, 0x8000007F),
    (M.FP32_TO_UINT8, f32(-200.0), NEAREST, 0, 200),
    (M.FP32_TO_UINT16, 0xFFC00000, NEAREST, 0, 0xFFFF),                     # NaN saturates
    (M.FP32_TO_INT16, 0xFF800000, NEAREST, 0, 0x80007FFF),
    (M.FP32_TO_INT16, f32(32767.5), NEAREST, 0, 0x7FFF),
    (M.INT32_TO_INT8, 0x80000180, NEAREST, 2, 0x80000060),                  # -384 >> 2 = -96
    (M.INT32_TO_INT8, 0x80000001, NEAREST, 1, 0x80000001),                  # -0.5 -> -1
    (M.INT32_TO_INT8, 0x80000001, NEAREST, 2, 0),                           # -0.25 -> 0, no -0
    (M.INT32_TO_UINT8, 0x800003FF, NEAREST, 32 + 2, 0xFF),                  # VB & 31 = 2; clamp, no sign
    # Blackhole's toward zero (rand all ones): the `>=` still rounds all-ones discarded bits away
    # (the flaw docs/blackhole.md lists), anything less goes toward zero.
    (M.FP32_TO_FP16B, f32(1.0) | 0xFFFF, TOWARD_ZERO, 0, f32(1.0) + 0x10000),  # 16 discarded ones
    (M.FP32_TO_FP16B, f32(1.0) | 0xFFFE, TOWARD_ZERO, 0, f32(1.0)),
    (M.FP32_TO_FP16A, f32(-1.0) | 0x1FFF, TOWARD_ZERO, 0, f32(-1.0) + 0x2000),  # 13 discarded ones
    (M.FP32_TO_FP16A, f32(-1.0) | 0x1FFE, TOWARD_ZERO, 0, f32(-1.0)),
    (M.FP32_TO_UINT8, 0x3F7FFFFE, TOWARD_ZERO, 0, 1),                       # 0.9999998807907
    (M.FP32_TO_UINT8, 0x3F7FFFFF, TOWARD_ZERO, 0, 1),                       # 0.9999999403954
    (M.FP32_TO_INT8, 0xBFFFFFFF, TOWARD_ZERO, 0, 0x80000002),               # -1.999999880791
    (M.FP32_TO_INT8, 0x3F7FFFFD, TOWARD_ZERO, 0, 0),
    (M.FP32_TO_INT16, f32(2.75), TOWARD_ZERO, 0, 2),
    (M.INT32_TO_UINT8, 0x807FFFFF, TOWARD_ZERO, 23, 1),                     # descaled by 23 bits
    (M.INT32_TO_UINT8, 0x007FFFFE, TOWARD_ZERO, 23, 0),
]


@pytest.mark.parametrize("mode, x, rand, vb, y", HAND_WORKED_STOCHROUND)
def test_stochround_hand_worked(mode, x, rand, vb, y):
    vector = stochround_vector(mode, x, rand, vb=vb)
    assert evaluate(StochRound(), [vector], ["y"])[0]["y"] == y
    assert expected_stochround([vector]) == [y]


# ---------------------------------------------------------------------------
# CastToFp32
# ---------------------------------------------------------------------------

def cast_special_magnitudes() -> list[int]:
    mags = [0, 1, 2, 3, 0x7FFFFFFF, 0x7FFFFF80, 0x7FFFFF7F, 0x7FFFFF81]
    for k in range(31):
        mags += [1 << k, (1 << k) - 1, (1 << k) + 1]
    for k in range(24, 31):          # magnitudes that need rounding: the discarded byte
        unit = 1 << (k - 23)         # is the part of the magnitude below bit k - 23
        top = (1 << k) | (0x2AAAAA << (k - 23))
        for lsb in (0, unit):        # even and odd kept mantissa (ties to even)
            for low in (0, 1, unit // 2 - 1, unit // 2, unit // 2 + 1, unit - 1):
                mags.append(top | lsb | low)
    return [m & 0x7FFFFFFF for m in mags]


def cast_special_vectors() -> list[dict]:
    rng = np.random.default_rng(11)
    vectors = []
    for mag in cast_special_magnitudes():
        for sign in (0, 0x80000000):
            x = sign | mag
            vectors.append(dict(x=x, stochastic=0, prng=int(rng.integers(0, 1 << 32))))
            # PRNG bits 16..10 at 0, all ones, random, and equal to / one below the
            # top 7 discarded bits (the strict ">" boundary).  Stimulus only.
            lz = 32 - mag.bit_length() if mag else 0
            top7 = ((mag << lz) >> 1) & 0x7F
            for bits in (0, 0x7F, int(rng.integers(0, 128)), top7, max(top7 - 1, 0)):
                noise = int(rng.integers(0, 1 << 32)) & ~(0x7F << 10)
                vectors.append(dict(x=x, stochastic=1, prng=noise | bits << 10))
    return vectors


def cast_random_vectors(count: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [dict(x=(int(rng.integers(0, 1 << 31)) >> int(rng.integers(0, 31))) | int(rng.integers(0, 2)) << 31,
                 stochastic=int(rng.integers(0, 2)), prng=int(rng.integers(0, 1 << 32)))
            for _ in range(count)]


def check_cast(vectors: list[dict]):
    got = [r["y"] for r in evaluate(CastToFp32(), vectors, ["y"])]
    want = [0] * len(vectors)
    for stochastic in (0, 1):
        idx = [i for i, v in enumerate(vectors) if v["stochastic"] == stochastic]
        x = np.array([vectors[i]["x"] for i in idx], dtype=np.uint32)
        prng = np.array([vectors[i]["prng"] for i in idx], dtype=np.uint32)
        for i, y in zip(idx, cast_int_to_fp32(x, bool(stochastic), prng)):
            want[i] = int(y)
    bad = [(v, g, w) for v, g, w in zip(vectors, got, want) if g != w]
    assert not bad, "\n".join(
        f"x=0x{v['x']:08X} stochastic={v['stochastic']} prng=0x{v['prng']:08X}: RTL 0x{g:08X}, model 0x{w:08X}"
        for v, g, w in bad[:10]) + f"\n({len(bad)} of {len(vectors)} differ)"


def test_cast_special_values():
    check_cast(cast_special_vectors())


def test_cast_random():
    check_cast(cast_random_vectors(2 * RANDOM_PER_MODE, seed=1))


@pytest.mark.slow
def test_cast_random_slow():
    check_cast(cast_random_vectors(2 * SLOW_PER_MODE, seed=2))


HAND_WORKED_CAST = [
    # (x, stochastic, prng, y)
    (0x00000000, 0, 0, 0x00000000),
    (0x80000000, 0, 0, 0x80000000),                  # -0 stays -0
    (0x80000001, 0, 0, f32(-1.0)),
    (0x00000003, 0, 0, f32(3.0)),
    (0x01000001, 0, 0, f32(2.0**24)),                # tie, even kept mantissa: down
    (0x01000003, 0, 0, f32(2.0**24 + 4)),            # tie, odd: up
    (0x7FFFFFFF, 0, 0, f32(2.0**31)),                # rounds up into the exponent
    (0x01000002, 1, 0, f32(2.0**24 + 2)),            # exact: never bumped, even with PRNG bits 0
    (0x01000001, 1, 0, f32(2.0**24 + 2)),            # discarded 0x80 > 0x00: up
    (0x01000001, 1, 0x3F << 10, f32(2.0**24 + 2)),   # 0x80 > 0x7E: up
    (0x01000001, 1, 0x40 << 10, f32(2.0**24)),       # 0x80 > 0x80 fails: the compare is strict
]


@pytest.mark.parametrize("x, stochastic, prng, y", HAND_WORKED_CAST)
def test_cast_hand_worked(x, stochastic, prng, y):
    assert evaluate(CastToFp32(), [dict(x=x, stochastic=stochastic, prng=prng)], ["y"])[0]["y"] == y
    assert int(cast_int_to_fp32(np.uint32(x), bool(stochastic), np.uint32(prng))) == y


# ---------------------------------------------------------------------------
# Verilog
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("component, name", [(StochRound, "stoch_round"), (CastToFp32, "cast_to_fp32")])
def test_converts_to_verilog(component, name):
    assert f"module {name}" in verilog.convert(component(), name=name)
