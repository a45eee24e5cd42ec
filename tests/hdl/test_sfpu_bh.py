"""The whole `Sfpu` elaborated for Blackhole against Blackhole's cycle model,
cycle by cycle (`tb.rtl_bench.run_lockstep`), one test per group of
sub-units: each cycle's record and the final state must be equal."""

from model.isa import Arch
from tb.rtl_bench import run_lockstep
from tb.stimulus.directed import directed_programs

BLACKHOLE = directed_programs(arch=Arch.BLACKHOLE)


def _check(names: list[str]) -> None:
    results = run_lockstep([BLACKHOLE[n] for n in names])
    failures = []
    for name, result in zip(names, results):
        assert result.model_trace, f"{name} ran no cycles"
        if result.mismatch:
            failures.append(f"{name}: {result.mismatch}")
        else:
            assert len(result.rtl_trace) == len(result.model_trace), name
    assert not failures, "\n".join(failures)


def test_blackhole_memory_programs_match_the_model():
    """Load, Store, Dst, the Tensix registers (Sp, SFPU_STACK_Incr,
    DEST_SP_BASE, the remaps, the 3-bit AddrMod) and the SFPLOADMACRO
    scheduler (Blackhole's templates, the SFPAND/SFPOR VB choice)."""
    _check(["load_store", "dst_formats", "tensix_counters", "tensix_random", "dest_index", "template_edges",
            "stack_remaps"])


def test_blackhole_mad_programs_match_the_model():
    """The MAD sub-unit: Blackhole's FMA (canonical NaN, signed zeros, the
    flush after rounding) under SFPMAD/SFPADD/SFPMUL/SFPADDI/SFPMULI with
    every Mod1 value (NEGATE_VB, NEGATE_VC), SFPLUT, SFPLUTFP32 (its
    Mod1Mirror) and SFPMUL24 with every Mod1 value."""
    _check(["mad", "lut", "mad_edges"])


def test_blackhole_simple_flags_round_programs_match_the_model():
    """The Simple sub-unit (SFPLE, SFPGT, SFPARECIP, SFPAND/SFPOR USE_VB,
    SFPSHFT's ARITHMETIC and ARG_IMM_USE_VC, SFPCAST's integer modes), the
    flag unit (SFPPUSHC changing the stack top, SFPPOPC without the
    full-stack flaw) and the Round sub-unit (SFPSTOCHRND's rnd_mode, SFPSHFT2
    mode 4 without the captured VC)."""
    _check(["simple_int", "simple_fp", "flags", "flag_stack", "round", "cross_lane", "lane_shuffles"])
