"""The injected faults of tb/campaigns/faults.py: each must change the compared trace of
its trigger program, and leave no trace of itself once its block exits.

These run the model against itself (clean vs faulted), so they prove that
`comparable()` sees every fault; since the RTL is correct and matches the
clean model, the lock-step checker then must report each fault too."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from tensix_sfpu.model import cycle, fast_tables, fma_native, machine, prng, semantics, state
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.campaigns.faults import (FAULTS, active_faults, faults, first_difference_cycle, model_trace,
                                             trigger_program)
from tensix_sfpu.tb.env.scoreboard import comparable

NAMES = sorted(FAULTS)
REQUIRED = {"mad_round_bit", "macro_delay_off_by_one", "dropped_lane_enable", "stack_pop_wrong",
            "store_format_swap", "swap_interlock_missing", "prng_stuck"}
BLACKHOLE_ONLY = {"mad_stall_missing"}
ALL = [(arch, name) for arch in Arch for name in sorted(faults(arch))]
FIRST_DIFFERENCE_WITHIN = 30     # cycles


def compared(name: str, arch: Arch = Arch.WORMHOLE) -> list[tuple]:
    return [comparable(r) for r in model_trace(trigger_program(name, arch))]


def test_required_faults_exist():
    assert REQUIRED <= FAULTS.keys()
    assert faults(Arch.BLACKHOLE).keys() == REQUIRED | BLACKHOLE_ONLY
    for arch in Arch:
        for name, fault in faults(arch).items():
            assert fault.name == name and fault.description and "\n" not in fault.description
            assert fault.arch is arch and trigger_program(name, arch).arch is arch


def test_no_fault_active_by_default():
    assert active_faults() == []
    # The module-level patch points hold the real functions.
    assert semantics.fma_for is fma_native.fma_for     # model.fma's, compiled
    assert machine.prng_advance is prng.prng_advance
    assert semantics.store_convert is fast_tables.store_convert     # model.dst_format's, table-driven


@pytest.mark.parametrize("arch, name", ALL, ids=[f"{a.value}-{n}" for a, n in ALL])
def test_fault_changes_trace_and_is_restored(arch, name):
    clean = compared(name, arch)
    with faults(arch)[name].inject():
        assert name in active_faults()
        faulty = compared(name, arch)
    assert active_faults() == []
    assert faulty != clean
    at = first_difference_cycle(name, arch)
    assert at is not None and clean[:at] == faulty[:at] and clean[at] != faulty[at], f"{name}: the trigger program's trace does not change"
    assert at < FIRST_DIFFERENCE_WITHIN, f"{name}: first difference only at cycle {at}"
    assert compared(name, arch) == clean, f"{name}: the model is not restored"


@pytest.mark.parametrize("name", NAMES)
def test_fault_restored_after_exception(name):
    clean = compared(name)
    with pytest.raises(RuntimeError, match="inside"):
        with FAULTS[name].inject():
            raise RuntimeError("inside")
    assert active_faults() == []
    assert compared(name) == clean


def test_faults_nest():
    """All faults at once, in one stack, then none."""
    before = {name: compared(name) for name in NAMES}
    step, lane_enabled = cycle.CycleModel.step, state.SfpuState.lane_enabled
    with ExitStack() as stack:
        for name in NAMES:
            stack.enter_context(FAULTS[name].inject())
        assert active_faults(Arch.WORMHOLE) == NAMES
    assert active_faults() == []
    assert cycle.CycleModel.step is step and state.SfpuState.lane_enabled is lane_enabled
    assert {name: compared(name) for name in NAMES} == before


def test_each_trigger_runs_clean_in_strict_mode():
    """The triggers are legal programs: the clean model reports no hazard."""
    for arch, name in ALL:
        trace = model_trace(trigger_program(name, arch), strict=True)
        assert not any(r.hazards for r in trace), (arch, name)
