"""The cocotb tests of tb/cocotb_sfpu.py on every backend: a short lock-step
regression (programs of every random kind and a spec example) and the
fault-injection proof, each backend in one simulation.

The simulators' builds are cached under build/cocotb (`make test` builds
them first); Amaranth's simulator needs no build but elaborates the SFPU
for about 20 s."""

import pytest

from tb import runner
from tb.faults import FAULTS

SHORT_REGRESSION = ("example:macro_example_a.s random:legal:1:40 random:macro:2:40 random:flags:3:40 "
                    "random:break:4:40")


@pytest.mark.parametrize("backend", runner.BACKENDS)
def test_lockstep_and_fault_injection(backend, tmp_path):
    outcomes = runner.run(backend, ["lockstep", "faults_are_caught"],
                          {"SFPU_PROGRAMS": SHORT_REGRESSION, "SFPU_FAULTS": "all"}, work=tmp_path)
    assert [o.name for o in outcomes] == ["lockstep", "faults_are_caught"]
    failed = [f"{o.name}: {o.message}" for o in outcomes if not o.passed]
    assert not failed, "\n".join(failed)
    assert len(FAULTS) >= 7

