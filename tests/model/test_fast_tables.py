"""The table-driven conversions (model/fast_tables.py) against the reference
functions of model.dst_format and model.lut, bit for bit: over every value a
table is indexed by, on random and special operands, through every opcode
and modifier of both architectures on the machine, and, with SFPU_FAST=0
and SFPU_NATIVE=0 against the defaults, on whole runs: random programs of
both architectures and the kernels, final state, counts, hazards and trace."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tensix_sfpu.model import dst_format as dfmt
from tensix_sfpu.model import fast_tables, fma, fma_native, isa, lut, machine, semantics
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.machine import Machine
from tests.model.test_fma_native import IDS, SPECIALS, _instructions, _random_state

U32 = np.uint32
ARCHS = [Arch.WORMHOLE, Arch.BLACKHOLE]
MODES = [m for m in isa.Mod0Fmt if m != isa.Mod0Fmt.SRCB]
# (module, name): the reference function, its fast twin.
PATHS = {(semantics, "load_convert"): (dfmt.load_convert, fast_tables.load_convert),
         (semantics, "store_convert"): (dfmt.store_convert, fast_tables.store_convert),
         (semantics, "sfplut_select"): (lut.sfplut_select, fast_tables.sfplut_select),
         (semantics, "sfplutfp32_select"): (lut.sfplutfp32_select, fast_tables.sfplutfp32_select),
         (semantics, "fma_for"): (lambda features: lambda a, b, c: fma.fma(a, b, c, features),
                                  fma_native.fma_for),
         (machine, "dst32_rows"): (dfmt.dst32_rows, fast_tables.dst32_rows)}
REFERENCE = {place: pair[0] for place, pair in PATHS.items()}
FAST = {place: pair[1] for place, pair in PATHS.items()}


def _operands(rng, count: int = 1 << 16) -> np.ndarray:
    """Random 32-bit values, the specials, and every high half with a random low half."""
    return np.concatenate([rng.integers(0, 1 << 32, count, dtype=np.uint64).astype(U32), SPECIALS,
                           (np.arange(1 << 16, dtype=U32) << U32(16)) | rng.integers(0, 1 << 16, 1 << 16,
                                                                                       dtype=np.uint64).astype(U32)])


def _same(expected: np.ndarray, got: np.ndarray) -> None:
    assert got.dtype == U32 and got.shape == expected.shape
    bad = np.flatnonzero(expected != got)
    assert bad.size == 0, f"{bad.size} differ, first at {bad[0]}: {expected[bad[0]]:#x} != {got[bad[0]]:#x}"


def test_enabled_unless_sfpu_fast_0():
    assert semantics.load_convert is (fast_tables.load_convert if fast_tables.ENABLED else dfmt.load_convert)
    code = ("from tensix_sfpu.model import fast_tables as f, dst_format as d, lut, semantics as s; "
            "assert not f.ENABLED and s.load_convert is d.load_convert and s.store_convert is d.store_convert "
            "and s.sfplut_select is lut.sfplut_select and s.sfplutfp32_select is lut.sfplutfp32_select")
    done = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, SFPU_FAST="0"), capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("arch", ARCHS, ids=IDS)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_load_every_datum(arch, mode):
    """Every 16-bit datum (FP16 with ENABLE_FP16A_INF off, on and mixed per
    lane), and random 32-bit data for the Dst32b modes."""
    rng = np.random.default_rng(int(mode))
    raw = np.arange(1 << 16, dtype=U32) if dfmt.dst_width(mode, "load") == 16 else _operands(rng)
    old = rng.integers(0, 1 << 32, raw.size, dtype=np.uint64).astype(U32)
    for inf in (False, True, rng.integers(0, 2, raw.size).astype(bool)):
        _same(dfmt.load_convert(mode, raw, old, inf, arch=arch),
              fast_tables.load_convert(mode, raw, old, inf, arch=arch))


@pytest.mark.parametrize("arch", ARCHS, ids=IDS)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_store_every_high_half(arch, mode):
    x = _operands(np.random.default_rng(100 + int(mode)))
    _same(dfmt.store_convert(mode, x, arch=arch), fast_tables.store_convert(mode, x, arch=arch))


def test_dst32_rows():
    rows = np.arange(1024)
    for ref, got in zip(dfmt.dst32_rows(rows), fast_tables.dst32_rows(rows)):
        assert ref.dtype == got.dtype and np.array_equal(ref, got)


def test_lut_selects():
    """SFPLUT and every SFPLUTFP32 Mod1: L3 at each range boundary's
    neighbours and at random, coefficients covering every 8- and 16-bit code."""
    rng = np.random.default_rng(3)
    n = 1 << 16
    l3 = np.concatenate([_operands(rng, n)[:n], SPECIALS,
                         U32([0x3EFFFFFF, 0x3F000000, 0x3F7FFFFF, 0x3F800000, 0x3FBFFFFF, 0x3FC00000, 0x3FFFFFFF,
                              0x40000000, 0x403FFFFF, 0x40400000, 0x407FFFFF, 0x40800000])])
    regs = [rng.integers(0, 1 << 32, l3.size, dtype=np.uint64).astype(U32) for _ in range(6)]
    regs[0][:n] = np.arange(n, dtype=U32) * U32(0x10001)      # every 16-bit code in both halves
    for ref, got in zip(lut.sfplut_select(l3, *regs[:3]), fast_tables.sfplut_select(l3, *regs[:3])):
        _same(ref, got)
    for mod1 in range(16):
        for ref, got in zip(lut.sfplutfp32_select(mod1, l3, *regs), fast_tables.sfplutfp32_select(mod1, l3, *regs)):
            _same(ref, got)


def _run(word: int, state, functions: dict) -> tuple:
    saved = {place: getattr(*place) for place in functions}
    for (module, name), f in functions.items():
        setattr(module, name, f)
    try:
        m = Machine(state.copy(), strict=False)
        effects = m.execute(word)
    finally:
        for (module, name), f in saved.items():
            setattr(module, name, f)
    st = m.state
    stack = [(e.lane_flags.tobytes(), e.use_flags.tobytes()) for e in st.flag_stack]
    writes = [(w.reg, w.mask.tobytes(), w.values.tobytes()) for w in effects.lreg_writes]
    rows = [(w.row, w.col_mask, w.values.tobytes()) for w in effects.dst_writes]
    return (st.lregs.tobytes(), st.dst.tobytes(), st.lane_flags.tobytes(), st.use_flags.tobytes(), stack,
            st.prng.tobytes(), st.lane_config.tobytes(), st.macro_templates.tobytes(), vars(st.tensix), writes, rows,
            m.warnings)


@pytest.mark.parametrize("arch", ARCHS, ids=IDS)
def test_every_opcode_and_modifier_runs_the_same_on_either_path(arch):
    """Each word on a random state (random Dst, LRegs with special values)
    and, again, with a random LaneConfig (column exchanges, the FP16A Inf
    bit, Dst read/write blocks, row masks, the dest index capture), flags,
    Dst counters and Blackhole's Dst remapping: LRegs, Dst, flags, stack, PRNG, configuration, the
    effect log and the warnings must agree."""
    rng = np.random.default_rng(12)
    words = _instructions(arch, rng)
    loads = 0
    for word in words:
        for configured in (False, True):
            state = _random_state(arch, rng)
            if configured:
                state.lane_config[:] = rng.integers(0, 1 << 18, 32, dtype=np.uint64).astype(U32)
                state.lane_flags = rng.integers(0, 2, 32).astype(bool)
                state.use_flags = rng.integers(0, 2, 32).astype(bool)
                t = state.tensix
                t.rwc_dst, t.rwc_sp, t.sfpu_stack_incr = (int(v) for v in rng.integers(0, 1024, 3))
                t.fp32_dest, t.dest_remap_addrs, t.dest_swizzle_32b = (bool(v) for v in rng.integers(0, 2, 3))
            reference = _run(word, state, REFERENCE)
            assert reference == _run(word, state, FAST), f"{isa.decode(word, arch).mnemonic} 0x{word:08X}"
        loads += isa.decode(word, arch).mnemonic in ("SFPLOAD", "SFPSTORE")
    assert loads >= 2 * 15


_RUNS = """
import hashlib, json, sys
from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.run import result_to_json, run_program
from tensix_sfpu.tb.stimulus.generator import program_text
from tensix_sfpu.kernels import all_kernels, prepared
from tensix_sfpu.model.isa import Arch
from tests.model.test_cycle_examples import _random_words
out = {}
def digest(name, result):
    record = result_to_json(result, trace=True)
    record["dst_rows_written"] = sorted(result.dst_rows_written)
    out[name] = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
for kind in ("legal", "macro", "flags", "break"):
    digest(kind, run_program(assemble(program_text(kind, 7, 600, arch=Arch.WORMHOLE), kind), strict=False))
for arch in ("wormhole", "blackhole"):
    text = f".arch {arch}\\n" + _random_words(__import__("tensix_sfpu.model.isa").model.isa.Arch(arch), 9, 800)
    digest(arch, run_program(assemble(text, arch), strict=False))
for name, kernel in sorted(all_kernels(__import__("tensix_sfpu.model.isa").model.isa.Arch.WORMHOLE).items()):
    program, state, _ = prepared(kernel, 0, None)
    digest(name, run_program(program, state, strict=False))
print(json.dumps(out))
"""


def test_whole_runs_agree_with_the_reference_path():
    """Random programs of every kind, random words of every opcode of both
    architectures, and every kernel: `sfpu run --json --trace`'s record
    (final state, cycles, hazards, every cycle's record) and the Dst rows
    written, with SFPU_FAST=0 SFPU_NATIVE=0 and with the defaults."""
    digests = []
    for env in ({}, {"SFPU_FAST": "0", "SFPU_NATIVE": "0"}):
        done = subprocess.run([sys.executable, "-c", _RUNS], env=dict(os.environ, **env), capture_output=True,
                              text=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
        assert done.returncode == 0, done.stderr[-2000:]
        digests.append(json.loads(done.stdout))
    fast, reference = digests
    assert len(fast) > 20 and fast.keys() == reference.keys()
    assert [name for name in fast if fast[name] != reference[name]] == []
