"""The spec's two worked SFPLOADMACRO examples, cycle by cycle (spec §3.5, §3.6).

Example A is the synthetic single macro; example B is tt-llk's Wormhole fast
exp (FAST_APPROX + CLAMP_NEGATIVE) with eight sanitising macros and eight
back-to-back computing macros. Cycle numbers and occupants come from the
spec's tables; values come from fma_wh on the inputs and from the kernel's
non-macro twin, which issues the same operations one at a time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model import dst_format as dfmt
from tensix_sfpu.model.asm import assemble_file
from tensix_sfpu.model.fma import fma_wh
from tensix_sfpu.model.hazards import rule_class
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.model.dst_io import get_bits32, put_fp32
from tensix_sfpu.model.isa import Arch

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
def occupant(record, unit: str):
    a = record.units.get(unit)
    return None if a is None else (a.origin, a.mnemonic, a.macro_cycle)


# ---------------------------------------------------------------------------
# Example A (§3.5): load at T, MAD at T+1 (written at the end of T+2), store at T+3
# ---------------------------------------------------------------------------

def run_example_a():
    state = SfpuState(Arch.WORMHOLE)
    x = np.linspace(-3.0, 3.0, 32).astype(np.float32)
    put_fp32(state, 8, x)
    result = run_program(assemble_file(str(EXAMPLES / "macro_example_a.s")), state)
    return result, x


def test_example_a_cycle_by_cycle():
    result, x = run_example_a()
    t = max(result.issued_from)              # the SFPLOADMACRO is the last instruction
    trace = result.trace
    assert result.issued_from[t].text.startswith("sfploadmacro")
    assert occupant(trace[t], "load") == ("thread", "SFPLOADMACRO", None)
    assert occupant(trace[t + 1], "mad") == ("macro", "SFPMAD", t)
    assert occupant(trace[t + 3], "store") == ("macro", "SFPSTORE", t)
    # Nothing else runs on the macro's behalf.
    for c in range(t + 1, len(trace)):
        expected = {t + 1: {"mad"}, t + 3: {"store"}}.get(c, set())
        assert set(trace[c].units) == expected, c
    mad = trace[t + 1].units["mad"]
    assert (mad.vd, mad.vb, mad.vc) == (2, 0, 2)      # VC := loaded VD, VB stays the template's L0
    # The load lands at the end of T, the MAD's result at the end of T+2.
    assert [w.reg for w in trace[t].lreg_writes] == [2]
    assert trace[t + 1].lreg_writes == []
    assert [w.reg for w in trace[t + 2].lreg_writes] == [2]
    assert result.cycles == t + 4


def test_example_a_values():
    result, x = run_example_a()
    l12 = np.full(32, 0x37800000, dtype=np.uint32)          # reset value of L12, 1/65536
    l0 = np.full(32, 0x40000000, dtype=np.uint32)           # 2.0, set by the program
    expected = fma_wh(l12, l0, x.view(np.uint32))
    np.testing.assert_array_equal(result.state.lregs[2], expected)
    np.testing.assert_array_equal(get_bits32(result.state, 8), expected)
    t = max(result.issued_from)
    store = result.trace[t + 3]
    rows = {w.row for w in store.dst_writes}
    hi, lo = dfmt.dst32_rows(np.arange(8, 12))
    assert rows == set(hi) | set(lo)                         # rows 8-11 of the Dst32b view
    assert all(w.cols == 0x5555 for w in store.dst_writes)   # even columns


# ---------------------------------------------------------------------------
# Example B (§3.6): the fast-exp kernel
# ---------------------------------------------------------------------------

ADDRESSES = tuple(range(0, 16, 2))

TWIN = EXAMPLES / "exp_fast_macro_twin.s"


def exp_inputs() -> dict[int, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.uniform(-10.0, 10.0, 32 * len(ADDRESSES)).astype(np.float32)
    x[:6] = [-100.0, -88.5, -88.4, 0.0, 1.0, 88.0]          # clamped, at and near the clamp
    return {a: x[i * 32:(i + 1) * 32] for i, a in enumerate(ADDRESSES)}


def run_exp(program: Path):
    state = SfpuState(Arch.WORMHOLE)
    inputs = exp_inputs()
    for a, values in inputs.items():
        put_fp32(state, a, values)
    return run_program(assemble_file(str(program)), state), inputs


@pytest.fixture(scope="module")
def exp_macro():
    return run_exp(EXAMPLES / "exp_fast_macro.s")


def macro_cycles(result, macro: int) -> list[int]:
    return [c for c, item in sorted(result.issued_from.items())
            if item.text.startswith(f"TTI_SFPLOADMACRO({macro * 4}") or
            item.text.startswith(f"TTI_SFPLOADMACRO({macro * 4 + 1}") or
            item.text.startswith(f"TTI_SFPLOADMACRO({macro * 4 + 2}") or
            item.text.startswith(f"TTI_SFPLOADMACRO({macro * 4 + 3}")]


def test_exp_phase1_sanitise_schedule(exp_macro):
    result, _ = exp_macro
    trace = result.trace
    sanitise = macro_cycles(result, 1)
    assert len(sanitise) == 8 and all(b - a == 2 for a, b in zip(sanitise, sanitise[1:]))
    for t in sanitise:
        swap = trace[t + 1].units["simple"]
        assert occupant(trace[t + 1], "simple") == ("macro", "SFPSWAP", t)
        assert (swap.vd, swap.vb, swap.vc) == (swap.vd, 14, swap.vd)    # compares the loaded register with L14
        assert occupant(trace[t + 3], "store") == ("macro", "SFPSTORE", t)
        # The documentation asks for SFPNOP in the MAD slot; the kernel has none.
        assert [h.rule for h in trace[t + 1].hazards] == ["swap-mad-nop"]
        assert trace[t + 1].hazards[0].allowed


def test_exp_phase2_steady_state(exp_macro):
    """In any cycle c: Load = macro c, MAD = macro c-1, Round = macro c-3,
    Simple = macro c-4, Store = macro c-5 (spec §3.6)."""
    result, _ = exp_macro
    trace = result.trace
    compute = macro_cycles(result, 0)
    assert len(compute) == 8 and compute == list(range(compute[0], compute[0] + 8))
    offsets = {"mad": 1, "round": 3, "simple": 4, "store": 5}
    expected_mnemonic = {"mad": "SFPMAD", "round": "SFPSTOCHRND", "simple": "SFPSHFT", "store": "SFPSTORE"}
    for t in compute:
        assert occupant(trace[t], "load") == ("thread", "SFPLOADMACRO", None)
        for unit, d in offsets.items():
            assert occupant(trace[t + d], unit) == ("macro", expected_mnemonic[unit], t), (unit, t)
        assert trace[t + 4].units["simple"].vd == 16 and trace[t + 5].units["store"].vd == 16
        assert trace[t + 3].units["round"].vd == trace[t].units["load"].vd
    # Throughput: cycles in which all five sub-units start work, one row group completing in each.
    full = [r.cycle for r in trace
            if all(u in r.units and r.units[u].mnemonic != "SFPNOP" for u in ("load", "simple", "mad", "round", "store"))]
    assert full == [compute[0] + 5, compute[0] + 6, compute[0] + 7]
    stores = [r.cycle for r in trace if "store" in r.units and r.units["store"].macro_cycle in compute]
    assert stores == list(range(compute[0] + 5, compute[0] + 13))    # one row group per cycle
    assert result.cycles == compute[-1] + 6


def test_exp_no_unexpected_hazards(exp_macro):
    """swap-mad-nop, which the program allows, and one field-report warning
    that does not stop the strict run: phase 1's store of offset 12 (its
    SFPLOADMACRO at T, store delay 2, so it writes at T+3) is read again by
    phase 2's load of offset 12 only 4 cycles later (Dst.md asks for more than 4)."""
    result, _ = exp_macro
    documented = [h for h in result.hazards if h.rule != "dst-read-after-macro-store"]
    assert {h.rule for h in documented} == {"swap-mad-nop"}
    assert all(h.allowed for h in documented)
    spacing = [h for h in result.hazards if h.rule == "dst-read-after-macro-store"]
    assert len(spacing) == 1 and not spacing[0].allowed
    assert "TTI_SFPLOADMACRO(2, 0, 3, 12)" in spacing[0].source and "4 cycle(s) before" in spacing[0].message


def test_exp_macro_matches_twin_bit_for_bit(exp_macro):
    macro, _ = exp_macro
    twin, _ = run_exp(TWIN)
    assert not twin.hazards
    for a in ADDRESSES:
        np.testing.assert_array_equal(get_bits32(macro.state, a), get_bits32(twin.state, a))
    # The macro kernel issues 8 + 8 + 8 + 1 kernel instructions; the twin 7 per row group.
    assert twin.instructions - 9 == 7 * len(ADDRESSES)


def test_exp_accuracy_and_clamp(exp_macro):
    result, inputs = exp_macro
    for a, x in inputs.items():
        y = get_bits32(result.state, a).view(np.float32).astype(np.float64)
        ref = np.exp(np.maximum(x.astype(np.float64), -88.5))
        finite = ref > 1e-30
        # Schraudolph's approximation: a few percent.
        assert np.all(np.abs(y[finite] - ref[finite]) <= 0.05 * ref[finite])
    y0 = get_bits32(result.state, 0).view(np.float32)
    assert y0[0] == y0[1]              # -100 is clamped to -88.5 before exp


def test_a_run_without_its_trace_keeps_nothing_per_cycle_and_the_same_result():
    """Example B's fast exp with and without `keep_trace`: the same final
    state and counts; without, no trace and no cycle-to-instruction map, and
    the Dst rows written are those the traced run's records name."""
    program = assemble_file(str(EXAMPLES / "exp_fast_macro.s"))
    traced = run_program(program, SfpuState(Arch.WORMHOLE))
    lean = run_program(program, SfpuState(Arch.WORMHOLE), keep_trace=False)
    assert lean.trace == [] and lean.issued_from == {}
    assert (lean.cycles, lean.issue_cycles, lean.instructions) == (traced.cycles, traced.issue_cycles,
                                                                   traced.instructions)
    assert np.array_equal(lean.state.dst, traced.state.dst) and np.array_equal(lean.state.lregs, traced.state.lregs)
    assert lean.hazards == traced.hazards
    rows = {w.row for record in traced.trace for w in record.dst_writes}
    assert rows and lean.dst_rows_written == rows == traced.dst_rows_written


def _random_words(arch, seed: int, count: int) -> str:
    """`.word` lines of random instructions of every opcode of `arch`, fields drawn at random."""
    from tensix_sfpu.model import isa
    rng = np.random.default_rng(seed)
    ops = list(isa.ISA[arch].opcodes.values())
    lines = []
    while len(lines) < count:
        op = ops[rng.integers(len(ops))]
        values = {f.name: int(rng.integers(0, 8 if f.kind is isa.Kind.REG else 1 << f.width)) for f in op.fields}
        try:
            lines.append(f".word 0x{isa.encode(op.mnemonic, arch, **values):08X}")
        except ValueError:
            continue
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("source", ["legal", "macro", "flags", "break", "wormhole words", "blackhole words"])
def test_lean_records_change_nothing_but_the_records(source):
    """A run that keeps no trace fills only part of each cycle's record; the
    final state, the counts and every hazard are those of the full run: on
    the generator's programs, and on random words of every opcode of either
    architecture, run leniently, hazards and all."""
    from tensix_sfpu.model.asm import assemble
    from tensix_sfpu.model.isa import Arch
    from tensix_sfpu.tb.stimulus.generator import program_text
    if source.endswith("words"):
        arch = Arch.WORMHOLE if source.startswith("wormhole") else Arch.BLACKHOLE
        text = f".arch {arch.value}\n" + _random_words(arch, 5, 400)
    else:
        text = program_text(source, 3, 300, arch=Arch.WORMHOLE)
    program = assemble(text, source)
    full = run_program(program, strict=False)
    lean = run_program(program, strict=False, keep_trace=False)
    assert lean.trace == [] and full.trace
    # The generator keeps to the documented rules; the field-report ones are warnings it does not avoid.
    documented = [h for h in full.hazards if rule_class(h.rule) == "documented"]
    assert bool(documented) == (source in ("break", "wormhole words", "blackhole words"))
    for name in ("lregs", "dst", "lane_flags", "use_flags", "prng", "lane_config", "macro_templates",
                 "macro_sequences", "macro_misc"):
        assert np.array_equal(getattr(lean.state, name), getattr(full.state, name)), name
    assert [e.masks() for e in lean.state.flag_stack] == [e.masks() for e in full.state.flag_stack]
    assert (lean.cycles, lean.issue_cycles, lean.instructions) == (full.cycles, full.issue_cycles, full.instructions)
    assert [str(h) for h in lean.hazards] == [str(h) for h in full.hazards]
    assert lean.dst_rows_written == {w.row for r in full.trace for w in r.dst_writes}
