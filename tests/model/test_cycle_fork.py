"""`CycleModel.fork`: a copy that shares what no step changes. A fork must
behave as a deep copy, and stepping it must leave the original untouched."""

import copy
import random

import numpy as np
import pytest

from tensix_sfpu.model.asm import Directive
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.run import run_program, walk
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.tb.stimulus.generator import generate

CASES = [(arch, kind, seed) for arch in (Arch.WORMHOLE, Arch.BLACKHOLE) for kind, seed in
         (("legal", 11), ("macro", 12), ("flags", 13))]


def _state(model: CycleModel) -> list:
    s = model.state
    return [s.lregs, s.lane_flags, s.use_flags, s.prng, s.lane_config, s.macro_templates, s.macro_sequences,
            s.macro_misc, s.shft2_captured_vc, s.dst, [(e.lane_flags, e.use_flags) for e in s.flag_stack],
            s.tensix.rwc_dst, s.tensix.rwc_dst_cr]


def _same(a: list, b: list) -> bool:
    return all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("arch, kind, seed", CASES)
def test_stepping_forks_leaves_the_original_run_unchanged(arch, kind, seed):
    program = generate(kind, seed, 250, arch=arch)
    alone = run_program(program, strict=False)
    rng = random.Random(seed)
    words = program.words
    model = CycleModel(SfpuState(arch=arch), strict=False)
    records = []
    for step in walk(program, model):
        if isinstance(step, Directive):
            continue
        records.append(step.record.compared())
        twin = model.fork()
        for _ in range(4):              # other words, hazards and all, on the fork only
            twin.step(rng.choice(words))
    assert records == [r.compared() for r in alone.trace]
    assert _same(_state(model), _state(CycleModel(alone.state)))


@pytest.mark.parametrize("arch, kind, seed", CASES)
def test_a_fork_runs_as_a_deep_copy_does(arch, kind, seed):
    program = generate(kind, seed, 250, arch=arch)
    rng = random.Random(seed + 1)
    model = CycleModel(SfpuState(arch=arch), strict=False)
    for i, step in enumerate(walk(program, model)):
        if isinstance(step, Directive) or i % 7:
            continue
        twin, deep = model.fork(), copy.deepcopy(model)
        for _ in range(6):
            word = rng.choice(program.words)
            assert twin.step(word).compared() == deep.step(word).compared()
        assert _same(_state(twin), _state(deep))
        assert (twin.busy, twin.cycle, len(twin.hazards)) == (deep.busy, deep.cycle, len(deep.hazards))
