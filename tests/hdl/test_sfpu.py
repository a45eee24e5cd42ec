"""The whole `Sfpu` against the cycle model, cycle by cycle.

Every program runs on the RTL in Amaranth's simulator and on the cycle model
in lock-step (`tb.sims.rtl_bench`): each cycle's record (what each sub-unit
started, every LReg and Dst write, flags and stack, undefined behaviour) must
be equal, and so must the final state. The programs are the directed set of
`tb.stimulus.directed` (every opcode with every modifier value, with and without
predication), random SFPLOADMACRO configurations that also break scheduling
rules on purpose (the RTL must then do what the model's lenient mode does),
and the spec's SFPLOADMACRO examples.
"""

from pathlib import Path

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import assemble_file
from tensix_sfpu.tb.stimulus.directed import covered_opcodes, directed_programs, macro_programs
from tensix_sfpu.tb.sims.rtl_bench import run_lockstep

WORMHOLE_ISA = isa.ISA[isa.Arch.WORMHOLE]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DIRECTED = {**directed_programs(arch=isa.Arch.WORMHOLE), **macro_programs(range(4), arch=isa.Arch.WORMHOLE)}
SPEC_EXAMPLES = ("macro_example_a.s", "exp_fast_macro.s")

# Elaborating the whole SFPU for Amaranth's simulator takes about 20 s, so
# each test runs a batch of programs on one simulation; the two batches have
# about the same number of cycles, one per pytest-xdist worker.
BATCHES = {
    "mad_lut_flags_macro": ["mad", "mad_edges", "lut", "flags", "flag_stack", "flag_boolean_ops", "dest_index", "ignored_fields",
                            "template_edges",
                            *SPEC_EXAMPLES, *(f"macro_{seed}" for seed in range(4))],
    "load_store_simple_round": ["load_store", "dst_formats", "tensix_counters", "simple_int", "simple_fp", "round",
                                "cross_lane", "config", "config_all_ones", "lane_config_mixed", "lane_shuffles",
                                "tensix_random"],
}


def program(name: str):
    return assemble_file(str(EXAMPLES / name)) if name in SPEC_EXAMPLES else DIRECTED[name]


def test_batches_hold_every_program():
    assert sorted(n for batch in BATCHES.values() for n in batch) == sorted([*DIRECTED, *SPEC_EXAMPLES])


def test_directed_programs_cover_every_opcode():
    assert covered_opcodes(isa.Arch.WORMHOLE) == set(WORMHOLE_ISA.opcodes)


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_programs_match_the_model_cycle_by_cycle(batch):
    names = BATCHES[batch]
    results = run_lockstep([program(n) for n in names])
    failures = []
    for name, result in zip(names, results):
        assert result.model_trace, f"{name} ran no cycles"
        assert len(result.rtl_trace) == len(result.model_trace) or result.mismatch
        if result.mismatch:
            failures.append(f"{name}: {result.mismatch}")
        if name in SPEC_EXAMPLES:
            # The macro's own instructions ran, as macro instructions, on the RTL.
            units = {(unit, a.origin) for rec in result.rtl_trace for unit, a in rec.units.items()}
            assert {("mad", "macro"), ("store", "macro")} <= units, name
    assert not failures, "\n".join(failures)
