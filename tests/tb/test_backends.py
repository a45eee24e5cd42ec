"""The cocotb tests of tb/cli/cocotb_tests.py on every backend and architecture:
a short lock-step regression (programs of every random kind and a spec
example; on Blackhole its stalls) and the fault-injection proof with the
architecture's faults, each in one simulation.

The simulators' builds are cached under build/cocotb (`make test` builds
them first); Amaranth's simulator needs no build but elaborates the SFPU
for about 20 s."""

import re
from types import SimpleNamespace

import pytest

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.campaigns.faults import faults

SHORT_REGRESSION = {
    Arch.WORMHOLE: "example:macro_example_a.s random:legal:1:40 random:macro:2:40 random:flags:3:40 random:break:4:40",
    Arch.BLACKHOLE: ("directed:stalls:blackhole random:legal:1:40:blackhole random:macro:2:40:blackhole "
                     "random:flags:3:40:blackhole random:break:4:40:blackhole"),
}


# In `make test-all` only: Blackhole on the Verilog simulators, for their builds (minutes each);
# in `make test` Blackhole runs these tests on Amaranth's simulator.
TEST_ALL_ONLY = {("icarus", Arch.BLACKHOLE), ("verilator", Arch.BLACKHOLE)}
CASES = [pytest.param(backend, arch, id=f"{backend}-{arch.value}",
                      marks=[pytest.mark.slow] if (backend, arch) in TEST_ALL_ONLY else [])
         for backend in runner.BACKENDS for arch in Arch]


@pytest.mark.parametrize("backend, arch", CASES)
def test_lockstep_and_fault_injection(backend, arch, tmp_path):
    outcomes = runner.run(backend, ["lockstep", "faults_are_caught"],
                          {"SFPU_PROGRAMS": SHORT_REGRESSION[arch], "SFPU_FAULTS": "all"}, work=tmp_path, arch=arch)
    assert [o.name for o in outcomes] == ["lockstep", "faults_are_caught"]
    failed = [f"{o.name}: {o.message}" for o in outcomes if not o.passed]
    assert not failed, "\n".join(failed)
    assert len(faults(arch)) >= 7



def test_verilator_builds_make_only_the_tops_ports_public(tmp_path):
    """The build's configuration names each port of the top (read from the
    module header, escaped names unescaped) and replaces cocotb's
    `--public-flat-rw`; a submodule's ports are not listed."""
    source = tmp_path / "netlist.v"
    source.write_text("module inner(a, b);\nendmodule\n"
                      "module Top(clk, \\wide$1 ,\n  instr__payload);\n  input clk;\nendmodule\n")
    fake = SimpleNamespace(_build_command=lambda: [["verilator", "--vpi", "--public-flat-rw", str(source)], ["make"]])
    runner._public_ports_only(fake, source, "Top", tmp_path)
    verilate, make = fake._build_command()
    config = tmp_path / runner.PUBLIC_CONFIG
    assert verilate == ["verilator", "--vpi", str(config), str(source)] and make == ["make"]
    assert config.read_text().splitlines() == ["`verilator_config",
                                               'public_flat_rw -module "Top" -var "clk"',
                                               'public_flat_rw -module "Top" -var "wide$1"',
                                               'public_flat_rw -module "Top" -var "instr__payload"']
    runner._public_ports_only(fake, source, "Missing", tmp_path)
    with pytest.raises(runner.RunnerError, match="netlist.v: no module Missing"):
        fake._build_command()


def test_a_build_says_each_stage_and_its_time_and_a_cached_one_nothing(tmp_path, capfd):
    """A first build of a netlist (a one-line Verilog with the top's name, so
    that iverilog compiles it at once) says its one stage on stderr, finished
    with its time; the second finds the build current and says nothing."""
    netlist = tmp_path / "tiny.v"
    netlist.write_text(f"module {runner.TOP}(input clk);\nendmodule\n")
    runner.build("icarus", netlist=netlist, arch=Arch.WORMHOLE)
    err = capfd.readouterr().err
    assert re.fullmatch(r"building tiny.v for icarus: compiling with iverilog[.][.][.] \d+ s\n", err), err
    runner.build("icarus", netlist=netlist, arch=Arch.WORMHOLE)
    assert capfd.readouterr().err == ""


def test_a_failed_stage_says_so(capsys):
    with pytest.raises(RuntimeError):
        with runner.stage("building X", "compiling"):
            raise RuntimeError("no")
    assert capsys.readouterr().err == "building X: compiling... failed after 0 s\n"
    assert runner.duration(59.4) == "59 s" and runner.duration(190) == "3 min 10 s"
