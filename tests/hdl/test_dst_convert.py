"""hdl/dst_convert.py against the golden model's `load_convert` / `store_convert`.

Every defined Mod0 (1..15) in both directions: special values, then random ones,
each result compared bit for bit, on both architectures (the conversions take
the architecture, as the model's do). The slow test takes every 16-bit Dst
pattern for the 16-bit load formats and 50,000 random values for the rest.
"""


import numpy as np
import pytest
from amaranth.back import verilog
from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.hdl.dst_convert import LoadConvert, Mod0, StoreConvert, dst_width, is_dst32
from tests.hdl.hdl_sim import evaluate
from tensix_sfpu.model import dst_format as df
from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import Arch

FORMATS = [fmt for fmt in Mod0 if fmt is not Mod0.SRCB]
LOAD16 = [fmt for fmt in FORMATS if df.dst_width(fmt.value, "load") == 16]
LOAD32 = [fmt for fmt in FORMATS if df.dst_width(fmt.value, "load") == 32]

N_RANDOM = 2000
N_RANDOM_SLOW = 50_000
ARCHS = pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)


# ---------------------------------------------------------------------------
# Values

def _neg(x: int) -> int:
    return -x & 0xFFFFFFFF


_FLOATS = [
    0x00000000, 0x00000001, 0x007FFFFF, 0x00010000, 0x007F0000,     # zero, denormals
    0x00800000, 0x00FF0000, 0x7F7FFFFF,                              # min / max normals
    0x7F800000, 0x7FC00000, 0x7F800001, 0x7F80FFFF, 0x7F810000, 0x7FFFFFFF,  # Inf, NaNs
    0x3F800000, 0x3F800001, 0x3F801FFF, 0x3F802000, 0x3F80FFFF, 0x3FFFFFFF,  # 1.0 and truncations
    # FP16 edges: exponent 112 flushes, 113 is the smallest normal, 143 the
    # largest, 144 saturates.
    0x38000000, 0x387FFFFF, 0x38800000, 0x38801FFF, 0x477FE000, 0x477FFFFF, 0x47800000,
]
_INTS = [
    0, 1, 127, 128, 255, 1023, 1024, 0x3FF, 0x7FF, 0x7FFF, 0x8000, 0xFFFF, 0x10000,
    0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFF0000, 0xAAAA5555, 0x5555AAAA, 0x12345678,
]
LREG_SPECIALS = sorted(
    {x | s for x in _FLOATS for s in (0, 0x80000000)}
    | {v for x in _INTS for v in (x, _neg(x))}
)


def _fields16() -> list[int]:
    """Dst16b patterns with every field at its edges, in each 16-bit layout."""
    out = set()
    for s in (0, 1):
        for e in (0, 1, 15, 16, 30, 31):                       # FP16: S, M10, E5
            for m in (0, 1, 0x1FF, 0x200, 0x3FE, 0x3FF):
                out.add(s << 15 | m << 5 | e)
        for e in (0, 1, 0x70, 0x7F, 0x80, 0x8F, 0xFE, 0xFF):   # BF16: S, M7, E8
            for m in (0, 1, 0x3F, 0x40, 0x7F):
                out.add(s << 15 | m << 8 | e)
        for mag in (0, 1, 0x7F, 0x80, 0x3FF, 0x7FFF):          # Int8 / Int16
            out.add(s << 15 | mag)
            out.add(s << 15 | (mag & 0x3FF) << 5 | 16)
    return sorted(out)


DST16_SPECIALS = _fields16()


def _random_lreg(rng, n: int) -> np.ndarray:
    """A third uniform bits, a third floats with exponents near the interesting
    edges, a third integers of every magnitude in both encodings."""
    k = n // 3
    uniform = rng.integers(0, 1 << 32, n - 2 * k, dtype=np.uint64)
    exps = np.concatenate([np.arange(0, 9), np.arange(100, 151), np.arange(246, 256)])
    floats = (rng.integers(0, 2, k, dtype=np.uint64) << 31
              | rng.choice(exps, k).astype(np.uint64) << 23
              | rng.integers(0, 1 << 23, k, dtype=np.uint64))
    mags = rng.integers(0, 1 << 62, k, dtype=np.uint64) >> rng.integers(31, 63, k, dtype=np.uint64)
    twos = np.where(rng.integers(0, 2, k) == 1, (np.uint64(1 << 32) - mags) & np.uint64(0xFFFFFFFF), mags)
    signmag = np.where(rng.integers(0, 2, k) == 1, mags | np.uint64(0x80000000), mags)
    ints = np.where(rng.integers(0, 2, k) == 1, twos, signmag)
    return np.concatenate([uniform, floats, ints]).astype(np.uint32)


# ---------------------------------------------------------------------------
# Checking

def _hex(a) -> str:
    return f"0x{int(a):08X}"


def check_load(fmt: Mod0, raw, old, inf, garbage, arch: Arch) -> int:
    """Run LoadConvert on these vectors and compare with the model; returns the count.

    ``garbage`` fills the unused high half of ``raw`` for 16-bit formats: the
    hardware must ignore it (the model refuses such values)."""
    raw, old, inf, garbage = (np.asarray(a, dtype=np.uint32) for a in (raw, old, inf, garbage))
    if dst_width(fmt, "load") == 16:
        raw = raw & np.uint32(0xFFFF)
        drive = raw | (garbage << np.uint32(16))
    else:
        drive = raw
    expected = df.load_convert(fmt.value, raw, old, inf.astype(bool), arch=arch)
    vectors = [{"mod0": fmt, "raw": int(r), "old": int(o), "fp16a_inf": int(i)}
               for r, o, i in zip(drive, old, inf)]
    got = np.array([r["value"] for r in evaluate(LoadConvert(arch), vectors, ["value"])], dtype=np.uint32)
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, f"load {fmt.name}: {bad.size} of {len(vectors)} wrong, e.g. " + ", ".join(
        f"raw={_hex(drive[i])} old={_hex(old[i])} inf={int(inf[i])}: {_hex(got[i])} != {_hex(expected[i])}"
        for i in bad[:5])
    return len(vectors)


def check_store(fmt: Mod0, value, arch: Arch) -> int:
    value = np.asarray(value, dtype=np.uint32)
    expected = df.store_convert(fmt.value, value, arch=arch)
    vectors = [{"mod0": fmt, "value": int(v)} for v in value]
    got = np.array([r["raw"] for r in evaluate(StoreConvert(arch), vectors, ["raw"])], dtype=np.uint32)
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, f"store {fmt.name}: {bad.size} of {len(vectors)} wrong, e.g. " + ", ".join(
        f"value={_hex(value[i])}: {_hex(got[i])} != {_hex(expected[i])}" for i in bad[:5])
    return len(vectors)


def _load_inputs(fmt: Mod0, rng, n: int):
    """Specials then ``n`` random raw values for a load format, with random
    old values, FP16A_INF bits and high-half garbage."""
    if dst_width(fmt, "load") == 16:
        specials = np.repeat(np.array(DST16_SPECIALS, dtype=np.uint32), 2)
        random = rng.integers(0, 1 << 16, n, dtype=np.uint32)
    else:
        specials16 = np.array(DST16_SPECIALS, dtype=np.uint32)
        lreg = np.array(LREG_SPECIALS, dtype=np.uint32)
        specials = np.concatenate([lreg, df.shuffle_fp32(lreg), specials16 << np.uint32(16) | specials16])
        random = np.concatenate([rng.integers(0, 1 << 32, n // 2, dtype=np.uint32),
                                 df.shuffle_fp32(_random_lreg(rng, n - n // 2))])
    raw = np.concatenate([specials, random])
    inf = rng.integers(0, 2, raw.size, dtype=np.uint32)
    inf[:specials.size] = np.arange(specials.size) % 2        # each special with both settings
    old = rng.integers(0, 1 << 32, raw.size, dtype=np.uint32)
    garbage = rng.integers(0, 1 << 16, raw.size, dtype=np.uint32)
    return raw, old, inf, garbage


def _store_inputs(rng, n: int) -> np.ndarray:
    return np.concatenate([np.array(LREG_SPECIALS, dtype=np.uint32), _random_lreg(rng, n)])


# ---------------------------------------------------------------------------
# Tests

@ARCHS
@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_load(fmt, arch):
    rng = np.random.default_rng(1000 + fmt.value)
    assert check_load(fmt, *_load_inputs(fmt, rng, N_RANDOM), arch) > N_RANDOM


@ARCHS
@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_store(fmt, arch):
    rng = np.random.default_rng(2000 + fmt.value)
    assert check_store(fmt, _store_inputs(rng, N_RANDOM), arch) > N_RANDOM


@pytest.mark.slow
@ARCHS
@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_load_slow(fmt, arch):
    rng = np.random.default_rng(3000 + fmt.value)
    if fmt in LOAD16:
        # Every Dst16b pattern (both FP16A_INF settings for FP16).
        raw = np.tile(np.arange(1 << 16, dtype=np.uint32), 2 if fmt is Mod0.FP16 else 1)
        inf = (np.arange(raw.size) >> 16).astype(np.uint32)
        if fmt is not Mod0.FP16:
            inf = rng.integers(0, 2, raw.size, dtype=np.uint32)
        old = rng.integers(0, 1 << 32, raw.size, dtype=np.uint32)
        garbage = rng.integers(0, 1 << 16, raw.size, dtype=np.uint32)
        check_load(fmt, raw, old, inf, garbage, arch)
    else:
        check_load(fmt, *_load_inputs(fmt, rng, N_RANDOM_SLOW), arch)


@pytest.mark.slow
@ARCHS
@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_store_slow(fmt, arch):
    rng = np.random.default_rng(4000 + fmt.value)
    check_store(fmt, _store_inputs(rng, N_RANDOM_SLOW), arch)


@ARCHS
@pytest.mark.parametrize("fmt", [Mod0.FP32, Mod0.INT32, Mod0.INT32_ALL, Mod0.INT32_SM], ids=lambda f: f.name)
def test_round_trip_32(fmt, arch):
    """Store then load with the same 32-bit format gives the LReg value back.
    Wormhole's INT32_SM: except -2**31, which has no sign-magnitude form and
    comes back as 0 (Blackhole's deprecated INT32_SM is INT32: no exception).
    Blackhole's FP32: except denormals, which the store flushes to a signed zero."""
    values = _store_inputs(np.random.default_rng(5000 + fmt.value), N_RANDOM)
    stored = evaluate(StoreConvert(arch), [{"mod0": fmt, "value": int(v)} for v in values], ["raw"])
    loaded = evaluate(LoadConvert(arch), [{"mod0": fmt, "raw": r["raw"], "old": 0, "fp16a_inf": 1} for r in stored],
                      ["value"])
    got = np.array([r["value"] for r in loaded], dtype=np.uint32)
    want = values.copy()
    if fmt is Mod0.INT32_SM and arch is Arch.WORMHOLE:
        want[want == 0x80000000] = 0
    if fmt is Mod0.FP32 and arch is Arch.BLACKHOLE:
        denormal = (want & 0x7F800000) == 0
        want[denormal] &= np.uint32(0x80000000)
    assert np.array_equal(got, want)


@ARCHS
def test_unresolved_srcb_gives_zero(arch):
    """SRCB is resolved by the top; if it ever got here, both directions give 0."""
    values = [0x3F800000, 0xFFFFFFFF, 0x12345678]
    loads = evaluate(LoadConvert(arch), [{"mod0": Mod0.SRCB, "raw": v, "old": v, "fp16a_inf": 1} for v in values],
                     ["value"])
    stores = evaluate(StoreConvert(arch), [{"mod0": Mod0.SRCB, "value": v} for v in values], ["raw"])
    assert [r["value"] for r in loads] == [0, 0, 0]
    assert [r["raw"] for r in stores] == [0, 0, 0]


def test_mod0_matches_model():
    assert [(f.name, f.value) for f in Mod0] == [(f.name, f.value) for f in isa.Mod0Fmt]


class _Widths(wiring.Component):
    mod0: In(Mod0)
    load32: Out(1)
    store32: Out(1)

    def elaborate(self, platform):
        m = Module()
        m.d.comb += [self.load32.eq(is_dst32(self.mod0, "load")),
                     self.store32.eq(is_dst32(self.mod0, "store"))]
        return m


def test_dst_width():
    got = evaluate(_Widths(), [{"mod0": f} for f in Mod0], ["load32", "store32"])
    for fmt, hw in zip(Mod0, got):
        for op in ("load", "store"):
            want = 16 if fmt is Mod0.SRCB else df.dst_width(fmt.value, op)   # the model rejects SRCB
            assert dst_width(fmt, op) == dst_width(fmt.value, op) == want, (fmt, op)
            assert (32 if hw[f"{op}32"] else 16) == want, (fmt, op)
    with pytest.raises(ValueError):
        dst_width(Mod0.FP32, "move")


@ARCHS
@pytest.mark.parametrize("component", [LoadConvert, StoreConvert])
def test_converts_to_verilog(component, arch):
    text = verilog.convert(component(arch), name=component.__name__)
    assert f"module {component.__name__}" in text
