"""SFPLUT and SFPLUTFP32 operand selection and the LUT coefficient decoders
against the golden model (model.lut), bit for bit, plus hand-worked values
from the documentation."""

import struct

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.lut import LutFp32Select, LutSelect, Lut8ToFp32, Lut16ToFp32
from tests.hdl.hdl_sim import evaluate
from tensix_sfpu.model.lut import lut8_to_fp32, lut16_to_fp32, sfplut_select, sfplutfp32_select

RANDOM_PER_TABLE = 3000       # SFPLUTFP32: per table layout, spread over its Mod1 values
RANDOM_SFPLUT = 3000
SLOW_PER_TABLE = 50000

# Mod1 values of each SFPLUTFP32 layout (Sept-2025 decode, spec 4.5).
TABLES = {
    "FP32_3ENTRY": (0, 1, 4, 5, 8, 9, 12, 13),
    "FP16_6ENTRY_CUT3": (2, 6),
    "FP16_6ENTRY_CUT4": (3, 7),
    "FP16_3ENTRY": (10, 11, 14, 15),
}
FP32_OPS = ["l3", "l0", "l1", "l2", "l4", "l5", "l6"]
LUT_OPS = ["l3", "l0", "l1", "l2"]
OUTPUTS = ["a", "c", "b"]


def f32(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


# |L3| below 1, between 1 and 2, above 2 (with every split of the 6-entry
# tables and the words either side of it), Inf and NaN; both signs are used.
L3_SPECIALS = [
    0x00000000, 0x00000001, 0x007FFFFF,                        # zero, denormals
    f32(0.25), 0x3EFFFFFF, f32(0.5), 0x3F000001, f32(0.75), 0x3F7FFFFF,
    f32(1.0), 0x3F800001, 0x3FBFFFFF, f32(1.5), 0x3FC00001, 0x3FFFFFFF,
    f32(2.0), 0x40000001, f32(2.5), 0x403FFFFF, f32(3.0), 0x40400001,
    f32(3.5), 0x407FFFFF, f32(4.0), 0x40800001, f32(100.0), 0x7F7FFFFF,
    0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF,            # Inf, NaNs
]
L3_SPECIALS += [w | 0x80000000 for w in L3_SPECIALS]


def random_l3s(rng, n) -> np.ndarray:
    """Mostly near the ranges' boundaries; a quarter are any word at all."""
    exponent = rng.choice(np.array([0, 1, 100, 125, 126, 127, 128, 129, 130, 200, 254, 255], dtype=np.uint32), n)
    near = rng.integers(0, 2, n, dtype=np.uint32) << 31 | exponent << 23 | rng.integers(0, 1 << 23, n, dtype=np.uint32)
    return np.where(rng.integers(0, 4, n) == 0, rng.integers(0, 1 << 32, n, dtype=np.uint32), near)


def random_coefficient_words(rng, n) -> np.ndarray:
    """Random words whose bytes / halves are often the decoders' special codes."""
    words = rng.integers(0, 1 << 32, n, dtype=np.uint32)
    for pos in range(0, 32, 8):                                   # LUT8 codes 0xFF (zero) and 0x7F
        code = rng.choice(np.array([0xFF, 0x7F], dtype=np.uint32), n) << pos
        words = np.where(rng.integers(0, 6, n) == 0, words & ~np.uint32(0xFF << pos) | code, words)
    for pos in (10, 26):                                          # LUT16 exponents 0 and 31
        code = rng.choice(np.array([0, 31], dtype=np.uint32), n) << pos
        words = np.where(rng.integers(0, 4, n) == 0, words & ~np.uint32(0x1F << pos) | code, words)
    return words


def make_vectors(rng, operands, l3, **fixed) -> list[dict]:
    """Vectors with the given L3 words and random coefficient registers."""
    cols = {"l3": l3, **{n: random_coefficient_words(rng, len(l3)) for n in operands[1:]}}
    cols.update({k: np.broadcast_to(np.asarray(v), len(l3)) for k, v in fixed.items()})
    return [dict(zip(cols, map(int, row))) for row in zip(*cols.values())]


def check(component, vectors, oracle, operands, describe):
    got = evaluate(component, vectors, OUTPUTS)
    bad = []
    for key, idx in group(vectors).items():
        cols = [np.array([vectors[i][n] for i in idx], dtype=np.uint32) for n in operands]
        a, c, b = oracle(key, cols)
        for k, i in enumerate(idx):
            want = {"a": int(a[k]), "c": int(c[k]), "b": int(b[k])}
            if got[i] != want:
                bad.append((vectors[i], got[i], want))
    assert not bad, "\n".join(
        f"{describe(v)}: RTL {fmt(g)}, model {fmt(w)}" for v, g, w in bad[:10]
    ) + f"\n({len(bad)} of {len(vectors)} differ)"


def group(vectors):
    groups = {}
    for i, v in enumerate(vectors):
        groups.setdefault(v.get("mod1"), []).append(i)
    return groups


def fmt(d):
    return " ".join(f"{k}=0x{v:08X}" for k, v in d.items())


# ---------------------------------------------------------------------------
# Decoders
# ---------------------------------------------------------------------------

def test_lut8_exhaustive():
    got = [r["value"] for r in evaluate(Lut8ToFp32(), [{"byte": x} for x in range(256)], ["value"])]
    assert got == [int(v) for v in lut8_to_fp32(np.arange(256, dtype=np.uint32))]


def test_lut16_exhaustive():
    got = [r["value"] for r in evaluate(Lut16ToFp32(), [{"half": x} for x in range(1 << 16)], ["value"])]
    assert got == [int(v) for v in lut16_to_fp32(np.arange(1 << 16, dtype=np.uint32))]


@pytest.mark.parametrize("byte, value", [
    (0x00, f32(1.0)), (0x0F, f32(1.9375)), (0x80, f32(-1.0)), (0x70, f32(2.0**-7)),
    (0x7F, f32(0.0151367187500)),           # a valid value, not a zero
    (0xFE, f32(-0.0146484375)), (0xFF, 0),  # 0xFF is the only zero
])
def test_lut8_hand_worked(byte, value):
    assert evaluate(Lut8ToFp32(), [{"byte": byte}], ["value"])[0]["value"] == value


@pytest.mark.parametrize("half, value", [
    (0x3C00, f32(1.0)), (0xC000, f32(-2.0)), (0x7BFF, f32(65504.0)),
    (0x0000, f32(2.0**-15)),                # exponent 0 is not a denormal
    (0x03FF, f32((1 + 1023 / 1024) * 2.0**-15)),
    (0x7C00, 0x00000000), (0xFC00, 0x80000000),   # exponent 31: signed zero...
    (0x7C01, 0x00002000), (0xFFFF, 0x807FE000),   # ...or an FP32 denormal, not Inf/NaN
])
def test_lut16_hand_worked(half, value):
    assert evaluate(Lut16ToFp32(), [{"half": half}], ["value"])[0]["value"] == value


# ---------------------------------------------------------------------------
# SFPLUT
# ---------------------------------------------------------------------------

def lut_oracle(_key, cols):
    return sfplut_select(*cols)


def lut_describe(v):
    return " ".join(f"{n}=0x{v[n]:08X}" for n in LUT_OPS)


def lut_special_vectors():
    rng = np.random.default_rng(21)
    return make_vectors(rng, LUT_OPS, np.repeat(np.array(L3_SPECIALS, dtype=np.uint32), 8))


def lut_random_vectors(count, seed):
    rng = np.random.default_rng(seed)
    return make_vectors(rng, LUT_OPS, random_l3s(rng, count))


def test_sfplut_special_values():
    check(LutSelect(), lut_special_vectors(), lut_oracle, LUT_OPS, lut_describe)


def test_sfplut_random():
    check(LutSelect(), lut_random_vectors(RANDOM_SFPLUT, seed=1), lut_oracle, LUT_OPS, lut_describe)


@pytest.mark.slow
def test_sfplut_random_slow():
    check(LutSelect(), lut_random_vectors(SLOW_PER_TABLE, seed=2), lut_oracle, LUT_OPS, lut_describe)


def test_sfplut_hand_worked():
    # |L3| = 1.5 picks L1; A = Lut8(0x10) = 0.5, C = Lut8(0xFF) = 0; b = 1.5.
    l1 = 0xABCD10FF
    vector = dict(l3=f32(-1.5), l0=0x00000000, l1=l1, l2=0x7F7F7F7F)
    assert evaluate(LutSelect(), [vector], OUTPUTS)[0] == {"a": f32(0.5), "c": 0, "b": f32(1.5)}
    # NaN fails both compares and picks L2.
    vector["l3"] = 0xFFC00000
    assert evaluate(LutSelect(), [vector], OUTPUTS)[0] == {
        "a": f32(0.0151367187500), "c": f32(0.0151367187500), "b": 0x7FC00000}


# ---------------------------------------------------------------------------
# SFPLUTFP32
# ---------------------------------------------------------------------------

def fp32_oracle(mod1, cols):
    return sfplutfp32_select(mod1, *cols)


def fp32_describe(v):
    return f"mod1={v['mod1']} " + " ".join(f"{n}=0x{v[n]:08X}" for n in FP32_OPS)


def fp32_special_vectors(mod1):
    rng = np.random.default_rng(100 + mod1)
    return make_vectors(rng, FP32_OPS, np.repeat(np.array(L3_SPECIALS, dtype=np.uint32), 2), mod1=mod1)


def fp32_random_vectors(table, count, seed):
    rng = np.random.default_rng(seed * 16 + TABLES[table][0])
    return make_vectors(rng, FP32_OPS, random_l3s(rng, count), mod1=rng.choice(TABLES[table], count))


def test_sfplutfp32_tables_cover_every_mod1():
    assert sorted(m for mods in TABLES.values() for m in mods) == list(range(16))


@pytest.mark.parametrize("mod1", range(16))
def test_sfplutfp32_special_values(mod1):
    check(LutFp32Select(), fp32_special_vectors(mod1), fp32_oracle, FP32_OPS, fp32_describe)


@pytest.mark.parametrize("table", TABLES)
def test_sfplutfp32_random(table):
    check(LutFp32Select(), fp32_random_vectors(table, RANDOM_PER_TABLE, seed=1),
          fp32_oracle, FP32_OPS, fp32_describe)


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES)
def test_sfplutfp32_random_slow(table):
    check(LutFp32Select(), fp32_random_vectors(table, SLOW_PER_TABLE, seed=2),
          fp32_oracle, FP32_OPS, fp32_describe)


REGS = dict(l0=0x3C00_4000, l1=0x4C00_3800, l2=0x5000_5400, l4=0x4400_4800, l5=0x4A00_4E00, l6=0x5800_5C00)


@pytest.mark.parametrize("mod1, l3, a_from, c_from", [
    # 6-entry, cut 3.0: [0.5, 1) uses the high halves of L0 / L4, [2, 3) the
    # low halves of L2 / L6, [3, inf) and NaN their high halves.
    (2, f32(0.75), ("l0", 16), ("l4", 16)),
    (2, f32(0.25), ("l0", 0), ("l4", 0)),
    (6, f32(1.25), ("l1", 0), ("l5", 0)),
    (2, f32(2.5), ("l2", 0), ("l6", 0)),
    (2, f32(3.5), ("l2", 16), ("l6", 16)),
    (3, f32(3.5), ("l2", 0), ("l6", 0)),              # cut 4.0
    (7, 0x7FC00000, ("l2", 16), ("l6", 16)),
    # FP16_3ENTRY: both halves of one register, L1 for [1, 2).
    (10, f32(-1.75), ("l1", 16), ("l1", 0)),
])
def test_sfplutfp32_hand_worked(mod1, l3, a_from, c_from):
    def decoded(reg, shift):
        return evaluate(Lut16ToFp32(), [{"half": REGS[reg] >> shift & 0xFFFF}], ["value"])[0]["value"]

    (got,) = evaluate(LutFp32Select(), [dict(mod1=mod1, l3=l3, **REGS)], OUTPUTS)
    assert got == {"a": decoded(*a_from), "c": decoded(*c_from), "b": l3 & 0x7FFFFFFF}


def test_sfplutfp32_fp32_layout_passes_registers_through():
    (got,) = evaluate(LutFp32Select(), [dict(mod1=12, l3=f32(-2.0), **REGS)], OUTPUTS)
    assert got == {"a": REGS["l2"], "c": REGS["l6"], "b": f32(2.0)}


# ---------------------------------------------------------------------------
# Verilog
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("component, name", [
    (Lut8ToFp32, "lut8_to_fp32"), (Lut16ToFp32, "lut16_to_fp32"),
    (LutSelect, "lut_select"), (LutFp32Select, "lut_fp32_select"),
])
def test_converts_to_verilog(component, name):
    assert f"module {name}" in verilog.convert(component(), name=name)
