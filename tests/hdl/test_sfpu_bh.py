"""The whole `Sfpu` elaborated for Blackhole against Blackhole's cycle model,
cycle by cycle (`tb.sims.rtl_bench.run_lockstep`), one test per group of
sub-units: each cycle's record and the final state must be equal. Every
directed Blackhole program runs in one of them (`stalls` in
tests/hdl/test_stall.py), and so do random programs of every kind and two of
tt-llk's Blackhole kernels."""

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.sims.rtl_bench import run_lockstep
from tensix_sfpu.tb.stimulus.directed import covered_opcodes, directed_programs, macro_programs
from tensix_sfpu.tb.stimulus.programs import resolve_all

BLACKHOLE = {**directed_programs(arch=Arch.BLACKHOLE), **macro_programs(range(4), arch=Arch.BLACKHOLE)}
BATCHES = {
    # Load, Store, Dst, the Tensix registers (Sp, SFPU_STACK_Incr, DEST_SP_BASE, the remaps, the 3-bit
    # AddrMod) and the SFPLOADMACRO scheduler (Blackhole's templates, the SFPAND/SFPOR VB choice).
    "memory": ["load_store", "dst_formats", "tensix_counters", "tensix_random", "dest_index", "template_edges",
               "stack_remaps"],
    # Blackhole's FMA (canonical NaN, signed zeros, the flush after rounding) under every MAD-class opcode
    # with every Mod1 value (NEGATE_VB, NEGATE_VC), SFPLUTFP32's Mod1Mirror, SFPMUL24.
    "mad": ["mad", "lut", "mad_edges"],
    # SFPSWAP's SWAP mode reading, in its second cycle, the MAD-class result that lands at the end of its first.
    "swap_late_reads": ["swap_late_reads"],
    # SFPLE, SFPGT, SFPARECIP, SFPAND/SFPOR USE_VB, SFPSHFT's new modes, SFPCAST's integer modes; SFPPUSHC
    # changing the stack top, SFPPOPC without the flaw; SFPSTOCHRND's rnd_mode, SFPSHFT2 mode 4.
    "simple_flags_round": ["simple_int", "simple_fp", "flags", "flag_stack", "flag_boolean_ops", "round", "cross_lane",
                           "lane_shuffles"],
    # SFPCONFIG and LaneConfig, ignored fields, random SFPLOADMACRO configurations.
    "configuration_and_macros": ["config", "config_all_ones", "lane_config_mixed", "ignored_fields",
                                 *(f"macro_{seed}" for seed in range(4))],
}
ELSEWHERE = {"stalls"}          # tests/hdl/test_stall.py
# Random programs of every kind and kernels of tt-llk's Blackhole headers, short ones.
RANDOM_AND_KERNELS = ("random:legal:11:150:blackhole random:macro:12:150:blackhole random:flags:13:150:blackhole "
                      "random:break:14:150:blackhole kernel:exp_fast:0:blackhole kernel:mul_uint16_square:0:blackhole")


def _check(names: list[str], programs, dsts=None) -> None:
    results = run_lockstep(programs, dsts=dsts)
    failures = []
    for name, result in zip(names, results):
        assert result.model_trace, f"{name} ran no cycles"
        if result.mismatch:
            failures.append(f"{name}: {result.mismatch}")
        else:
            assert len(result.rtl_trace) == len(result.model_trace), name
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_blackhole_programs_match_the_model(batch):
    _check(BATCHES[batch], [BLACKHOLE[n] for n in BATCHES[batch]])


def test_blackhole_random_programs_and_kernels_match_the_model():
    specs = resolve_all(RANDOM_AND_KERNELS)
    assert all(s.program.arch is Arch.BLACKHOLE for s in specs)
    assert {s.kind for s in specs} >= {"legal", "macro", "flags", "break", "kernel"}
    _check([s.name for s in specs], [s.program for s in specs], [s.dst for s in specs])


def test_every_blackhole_program_runs_and_every_opcode_is_directed():
    assert ELSEWHERE <= set(BLACKHOLE)
    assert sorted(n for batch in BATCHES.values() for n in batch) == sorted(set(BLACKHOLE) - ELSEWHERE)
    assert covered_opcodes(Arch.BLACKHOLE) == set(isa.ISA[Arch.BLACKHOLE].opcodes)
