"""The compiled FMAs (model/fma_native.py, fma_lanes.cpp) against model.fma,
bit for bit: on special operands in every combination, on random triples,
on triples built to cancel, and through every opcode and modifier of both
architectures run on the machine with either FMA."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from tensix_sfpu.model import fma, fma_native, isa, semantics
from tensix_sfpu.model.machine import Machine
from tensix_sfpu.model.state import SfpuState

U32 = np.uint32
PAIRS = [(fma.fma_wh, fma_native.fma_wh), (fma.fma_bh, fma_native.fma_bh)]
IDS = ["wormhole", "blackhole"]
# Every mix of the four FMA features, the two chips' among them: a chip that mixes them gets the
# same compiled FMA as the numpy one.
MIXES = [fma.FmaFeatures(*bits) for bits in itertools.product((False, True), repeat=4)]
MIX_IDS = ["".join("1" if on else "0" for on in f) for f in MIXES]

# Zeros, denormals, 1.0 and its neighbours, the normal extremes, values whose
# products overflow or underflow, infinities and NaNs with payloads; each signed.
MAGNITUDES = [0x00000000, 0x00000001, 0x00400000, 0x007FFFFF, 0x00800000, 0x00800001, 0x01000000,
              0x3F7FFFFF, 0x3F800000, 0x3F800001, 0x3FC00000, 0x40000000, 0x1F800000, 0x20000000,
              0x5F800000, 0x5F7FFFFF, 0x7F000000, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000,
              0x7FFFFFFF]
SPECIALS = np.array(MAGNITUDES + [m | 0x80000000 for m in MAGNITUDES], dtype=U32)


def test_compiled_when_gplusplus_is_there():
    """`make setup` needs g++ (Verilator), so the compiled path is the one that runs."""
    assert fma_native.AVAILABLE == (shutil.which("g++") is not None)


def test_sfpu_native_0_falls_back_to_model_fma():
    code = "from tensix_sfpu.model import fma, fma_native; print(fma_native.AVAILABLE, fma_native.fma_wh is fma.fma_wh)"
    done = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, SFPU_NATIVE="0"),
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.parametrize("reference, native", PAIRS, ids=IDS)
def test_every_combination_of_special_operands(reference, native):
    a, b, c = (np.array(v, dtype=U32) for v in zip(*itertools.product(SPECIALS, repeat=3)))
    expected, got = reference(a, b, c), native(a, b, c)
    bad = np.flatnonzero(expected != got)
    assert bad.size == 0, [f"{a[i]:08X} * {b[i]:08X} + {c[i]:08X}: {expected[i]:08X} != {got[i]:08X}"
                           for i in bad[:5]]


@pytest.mark.parametrize("reference, native", PAIRS, ids=IDS)
def test_random_triples(reference, native):
    rng = np.random.default_rng(19)
    a, b, c = (rng.integers(0, 1 << 32, 1 << 20, dtype=np.uint64).astype(U32) for _ in range(3))
    assert np.array_equal(reference(a, b, c), native(a, b, c))


@pytest.mark.parametrize("reference, native", PAIRS, ids=IDS)
def test_near_cancellation_and_small_exponents(reference, native):
    """c close to -(a * b), and exponents near the bottom of the range, where
    the alignment, the renormalisation and the flushes decide the result."""
    rng = np.random.default_rng(7)
    n = 1 << 18
    sign = rng.integers(0, 2, (3, n), dtype=np.uint64).astype(U32) << U32(31)
    exponent = rng.integers(0, 40, (3, n), dtype=np.uint64).astype(U32)
    exponent[:2] += U32(44)                            # products near 2^-126
    mantissa = rng.integers(0, 1 << 23, (3, n), dtype=np.uint64).astype(U32)
    a, b, c = sign | (exponent << U32(23)) | mantissa
    product = fma.fma_wh(a, b, np.zeros(n, dtype=U32))
    near = (product ^ U32(0x80000000)) + rng.integers(-4, 5, n).astype(U32)
    for z in (c, near):
        assert np.array_equal(reference(a, b, z), native(a, b, z))


@pytest.mark.parametrize("features", MIXES, ids=MIX_IDS)
def test_every_feature_mix(features):
    """fma_lanes.cpp switches each feature where model.fma does: special operands in every
    combination, and random triples with exponents near the bottom of the range."""
    a, b, c = (np.array(v, dtype=U32) for v in zip(*itertools.product(SPECIALS, repeat=3)))
    rng = np.random.default_rng(5)
    n = 1 << 15
    low = (rng.integers(0, 1 << 32, (3, n), dtype=np.uint64).astype(U32) & U32(0x807FFFFF)) \
        | (rng.integers(40, 90, (3, n), dtype=np.uint64).astype(U32) << U32(23))
    a, b, c = (np.concatenate([v, w]) for v, w in zip((a, b, c), low))
    expected, got = fma.fma(a, b, c, features), fma_native.fma_for(features)(a, b, c)
    bad = np.flatnonzero(expected != got)
    assert bad.size == 0, [f"{a[i]:08X} * {b[i]:08X} + {c[i]:08X}: {expected[i]:08X} != {got[i]:08X}"
                           for i in bad[:5]]


def test_the_chips_fmas_are_their_features():
    assert fma.FmaFeatures.of(isa.Arch.WORMHOLE.features) == fma.WORMHOLE_FMA
    assert fma.FmaFeatures.of(isa.Arch.BLACKHOLE.features) == fma.BLACKHOLE_FMA


@pytest.mark.parametrize("shapes", [((32,), (), (32,)), ((4, 8), (8,), ()), ((), (), ())])
def test_broadcasting_and_integer_operands_as_model_fma(shapes):
    rng = np.random.default_rng(3)
    a, b, c = (rng.integers(0, 1 << 32, s, dtype=np.uint64) for s in shapes)     # uint64, converted
    for reference, native in PAIRS:
        expected, got = reference(a, b, c), native(a, b, c)
        assert got.dtype == U32 and got.shape == expected.shape and np.array_equal(expected, got)


def _instructions(arch: isa.Arch, rng) -> list[int]:
    """Every opcode of `arch` with every value of its modifier fields (mod0,
    mod1), random registers below 8 and random immediates."""
    words = []
    for op in isa.ISA[arch].opcodes.values():
        mods = [f.name for f in op.fields if f.name in ("mod0", "mod1")]
        combos = itertools.product(*[range(1 << op.field_map[m].width) for m in mods]) if mods else [()]
        for combo in combos:
            values = dict(zip(mods, combo))
            for f in op.fields:
                if f.name in values or f.name == "macro":
                    continue
                top = 7 if f.kind is isa.Kind.REG else (1 << f.width) - 1
                values[f.name] = int(rng.integers(0, top + 1)) if f.min >= 0 else 0
            try:
                words.append(isa.encode(op.mnemonic, arch, **values))
            except ValueError:
                pass
    return words


def _random_state(arch: isa.Arch, rng) -> SfpuState:
    state = SfpuState(arch=arch)
    state.lregs[:8] = rng.integers(0, 1 << 32, (8, 32), dtype=np.uint64).astype(U32)
    state.lregs[:8, :4] = SPECIALS[rng.integers(0, SPECIALS.size, (8, 4))]
    state.lregs[7, 4:12] = np.arange(8, dtype=U32)          # INDIRECT_VA / _VD read L7's low bits
    state.dst[:] = rng.integers(0, 1 << 16, state.dst.shape, dtype=np.uint64).astype(np.uint16)
    return state


def _numpy_fma_for(features):
    return lambda a, b, c: fma.fma(a, b, c, features)


def _run(word: int, state: SfpuState, fma_for) -> tuple:
    saved = semantics.fma_for
    semantics.fma_for = fma_for
    try:
        machine = Machine(state.copy(), strict=False)
        machine.execute(word)
    finally:
        semantics.fma_for = saved
    st = machine.state
    return st.lregs.tobytes(), st.dst.tobytes(), st.lane_flags.tobytes(), st.prng.tobytes(), machine.warnings


@pytest.mark.parametrize("arch", [isa.Arch.WORMHOLE, isa.Arch.BLACKHOLE], ids=IDS)
def test_every_opcode_and_modifier_runs_the_same_with_either_fma(arch):
    rng = np.random.default_rng(11)
    words = _instructions(arch, rng)
    assert len(words) > 200
    mad_class = 0
    for word in words:
        state = _random_state(arch, rng)
        reference = _run(word, state, _numpy_fma_for)
        native = _run(word, state, fma_native.fma_for)
        assert reference == native, isa.decode(word, arch).mnemonic
        mad_class += isa.decode(word, arch).op.unit is isa.Unit.MAD
    assert mad_class > 50
