"""The GTKWave translate filter and the save files tb.waves.gtkw writes.

The wave files here are small hand-made VCDs named as the backends name the
SFPU's signals, so nothing needs simulating and GTKWave is not needed; the
last tests run `sfpu sim --waves` on Icarus, and `make waves`, where neither
GTKWave nor its fst2vcd is on PATH."""

import os
import re
import shutil
import subprocess
import sys
from itertools import islice, takewhile
from pathlib import Path

import pytest
from vcd import VCDWriter

from tensix_sfpu.hdl.sfpu import Trace
from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import disassemble
from tensix_sfpu.tb.cli import sim
from tensix_sfpu.tb.cli.main import main
from tensix_sfpu.tb.waves import gtkw as waves, mnemonic

ROOT = Path(__file__).resolve().parents[2]

FILTER = [sys.executable, "-m", "tensix_sfpu.tb.waves.mnemonic"]
GROUPS = ["issue and stall", "load", "simple", "mad", "round", "store", "LRegs by lane", "flags and stack",
          "macro slots"]


def test_filter_translates_words_and_passes_the_rest_through():
    mad = isa.encode("SFPMAD", isa.Arch.WORMHOLE, vd=3, va=0, vb=1, vc=2, mod1=0)
    lines = [f"{mad:08X}", "840c0dd0", "00000000", "xxxxxxxx", "84", "zz", ""]
    result = subprocess.run(FILTER, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [disassemble(mad, arch=isa.Arch.WORMHOLE), disassemble(0x840C0DD0, arch=isa.Arch.WORMHOLE), "00000000", "xxxxxxxx",
                                          "SFPMAD", "zz", ""]


def test_filter_answers_each_line_at_once():
    """GTKWave keeps the process open and waits for each answer."""
    with subprocess.Popen(FILTER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as proc:
        for word in (0x840C0DD0, isa.encode("SFPNOP", isa.Arch.WORMHOLE)):
            proc.stdin.write(f"{word:08X}\n")
            proc.stdin.flush()
            assert proc.stdout.readline() == disassemble(word, arch=isa.Arch.WORMHOLE) + "\n"
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def test_translate_never_raises():
    assert mnemonic.translate("0x7A00F0F1", isa.Arch.WORMHOLE) == disassemble(0x7A00F0F1, arch=isa.Arch.WORMHOLE)
    assert mnemonic.translate("FFFFFFFF", isa.Arch.WORMHOLE) == "FFFFFFFF"
    assert mnemonic.translate("-1", isa.Arch.WORMHOLE) == "-1"


@pytest.mark.parametrize("arch", list(isa.Arch))
def test_the_filter_a_save_file_names_serves_its_architecture(arch, tmp_path, monkeypatch):
    """GTKWave passes a filter no arguments: `sfpu-mnemonic-ARCH` (the name
    filter_command gives) says the architecture, `sfpu-mnemonic` the default."""
    name = mnemonic.FILTER_NAME + arch.tagged("-{}")
    assert mnemonic.invoked_arch(f"/venv/bin/{name}") is arch
    assert mnemonic.invoked_arch("/x/tensix_sfpu/tb/waves/mnemonic.py") is isa.DEFAULT_ARCH
    script = tmp_path / name
    script.write_text("")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python-here"))
    assert waves.filter_command(arch) == str(script)


def test_an_unknown_architecture_in_the_filter_name_is_an_error(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/venv/bin/sfpu-mnemonic-grayskull"])
    assert mnemonic.main([]) == 2
    assert "unknown architecture 'grayskull'" in capsys.readouterr().err


def _vcd(path: Path, top: tuple[str, ...], fields: bool) -> None:
    """A VCD with the SFPU top's ports in `top`: with `fields`, struct fields
    and lanes are variables of their own (as in Amaranth's and Icarus's
    files); without, only the whole vectors exist."""
    with open(path, "w") as f, VCDWriter(f, timescale="1 ps") as w:
        scope = ".".join(top)
        variables = [w.register_var(scope, "clk", "wire", size=1, init=0),
                     w.register_var(scope, "instr__valid", "wire", size=1, init=0),
                     w.register_var(scope, "instr__payload", "wire", size=32, init=0),
                     w.register_var(scope, "cycle_trace", "wire", size=Trace.size, init=0),
                     w.register_var(scope, "lane_flags", "wire", size=32, init=0),
                     w.register_var(scope, "flag_stack", "wire", size=512, init=0),
                     w.register_var(scope + ".scheduler", "slot_mad_0", "wire", size=89, init=0)]
        for reg in range(17):
            w.register_var(scope, f"lregs__{reg}", "wire", size=1024, init=0)
        if fields:
            w.register_var(scope, "\\mad_inputs__issue.word", "wire", size=32, init=0)
            w.register_var(scope, "\\mad_inputs__issue.valid", "wire", size=1, init=0)
            w.register_var(scope, "\\lregs__0[1]", "wire", size=32, init=0)
        w.change(variables[1], 100, 1)


def _names(gtkw: str) -> list[str]:
    """Every signal a save file names (bundles name the vector of each bit)."""
    names = []
    for line in gtkw.splitlines():
        if not line or line[0] in "[@-^*":
            continue
        if line.startswith("#{"):
            names += re.findall(r"\(\d+\)(\S+)", line)
        else:
            names.append(re.sub(r"^\+\{[^}]*\} ", "", line))
    return names


@pytest.mark.parametrize("top,fields", [(("bench", "top", "dut"), True), (("Sfpu",), True),
                                        (("TOP", "Sfpu"), False)])
def test_save_file_names_existing_signals_in_groups(tmp_path, top, fields):
    wave = tmp_path / "Sfpu.vcd"
    _vcd(wave, top, fields)
    out = tmp_path / "Sfpu.gtkw"
    rows = waves.write_gtkw(wave, out, filter_proc="/opt/sfpu-mnemonic", arch=isa.Arch.WORMHOLE)
    text = out.read_text()
    existing = {v.name for v in waves.read_vars(wave).values()}
    names = _names(text)
    assert names and set(names) <= existing
    assert len(rows) == len(set(rows))
    for group in GROUPS:
        assert f"-{group}" in text.splitlines()
    # The instruction word goes through the filter process: flag 0x4000 and `^>1 PATH` before it.
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.endswith(".instr__payload[31:0]"))
    assert lines[at - 1] == "^>1 /opt/sfpu-mnemonic"
    assert int(lines[at - 2].lstrip("@"), 16) & 0x4000
    assert f'[dumpfile] "{wave.resolve()}"' in lines


def test_issue_group_shows_the_interlocks_of_each_architecture(tmp_path):
    """The issue stage's signals live in its submodule, whose scope Amaranth's
    VCD may number (`issue$378`); Blackhole's group adds the MAD stall."""
    wave = tmp_path / "Sfpu.vcd"
    with open(wave, "w") as f, VCDWriter(f, timescale="1 ps") as w:
        top = "bench.top.dut.sfpu"
        w.register_var(top, "instr__payload", "wire", size=32, init=0)
        w.register_var(top, "accepted", "wire", size=1, init=0)
        w.register_var(top + ".issue$378", "interlock_q", "wire", size=1, init=0)
        w.register_var(top + ".issue$378.mad_stall", "hold", "wire", size=1, init=0)
        w.register_var(top + ".issue$378.mad_stall", "mad_writes_q", "wire", size=17, init=0)
    names = {}
    for arch in isa.Arch:
        out = tmp_path / f"{arch.value}.gtkw"
        waves.write_gtkw(wave, out, filter_proc="/opt/f", arch=arch)
        names[arch] = _names(out.read_text())
    stall = [f"{top}.issue$378.mad_stall.hold", f"{top}.issue$378.mad_stall.mad_writes_q[16:0]"]
    assert f"{top}.issue$378.interlock_q" in names[isa.Arch.WORMHOLE]
    assert not set(stall) & set(names[isa.Arch.WORMHOLE])
    assert set(stall) <= set(names[isa.Arch.BLACKHOLE])


def test_fields_become_bit_ranges_of_the_enclosing_vector(tmp_path):
    wave = tmp_path / "Sfpu.vcd"
    _vcd(wave, ("TOP", "Sfpu"), fields=False)
    signals = waves.Signals(waves.read_vars(wave))
    assert signals.top == "TOP.Sfpu"
    word = signals.get("cycle_trace", "units", 2, "word")
    offset = Trace["units"].offset + 2 * Trace["units"].shape.elem_shape.size + \
        Trace["units"].shape.elem_shape["word"].offset
    msb = Trace.size - 1
    indices = [int(i) for i in re.findall(r"\((\d+)\)", word.line)]
    assert word.width == 32
    assert indices == list(range(msb - offset - 31, msb - offset + 1))     # GTKWave counts from the MSB
    lane = signals.get("lregs__3", 5)
    assert re.findall(r"\((\d+)\)", lane.line)[0] == str(1023 - (5 * 32 + 31))
    assert signals.get("mad_inputs__issue", "word") is None      # not in this file, and no enclosing vector


def test_view_starts_before_the_first_instruction(tmp_path):
    wave = tmp_path / "Sfpu.vcd"
    _vcd(wave, ("Sfpu",), fields=True)
    assert waves.first_rise(wave) == 100
    start, zoom = waves.view_for(10_000, 1_000)
    assert start == 7_000 and zoom < 0


def _path_without_gtkwave(folder: Path) -> str:
    """A PATH holding only the simulator's commands (GTKWave, if installed, lives beside them in /usr/bin)."""
    folder.mkdir()
    for tool in ("iverilog", "vvp"):
        (folder / tool).symlink_to(shutil.which(tool))
    return str(folder)


@pytest.mark.skipif(shutil.which("iverilog") is None, reason="Icarus is not installed")
def test_icarus_waves_need_no_gtkwave_and_latest_names_them(tmp_path, monkeypatch, capsys):
    """`sfpu sim --backend icarus --waves` writes a VCD and its save file
    without GTKWave or fst2vcd on PATH, and points latest.gtkw at the save
    file just written, not at an older run's."""
    path = _path_without_gtkwave(tmp_path / "bin")
    monkeypatch.setenv("PATH", path)
    assert shutil.which("gtkwave") is None and shutil.which("fst2vcd") is None
    latest = tmp_path / "waves" / "latest.gtkw"
    monkeypatch.setattr(sim, "LATEST", latest)
    older = tmp_path / "older.gtkw"
    older.write_text("[dumpfile] \"older.vcd\"\n")
    sim.point_latest(older)
    out = tmp_path / "run"
    assert main(["sim", "example:macro_example_a.s", "--backend", "icarus", "--waves", "--out", str(out)]) == 0, \
        capsys.readouterr()
    wave, gtkw = out / "Sfpu.vcd", out / "Sfpu.gtkw"
    with open(wave) as f:     # a VCD: declarations up to $enddefinitions, then value changes at #times
        header = {line.split()[0] for line in takewhile(lambda line: not line.startswith("$enddefinitions"), f)
                  if line.strip()}
        changes = [line for line in islice(f, 10_000) if line.startswith("#")]
    assert {"$timescale", "$scope", "$var", "$upscope"} <= header and not any(k[0] == "#" for k in header)
    assert changes and changes[0].rstrip() == "#0"
    assert waves.find_top(waves.read_vars(wave)).endswith("sfpu")      # the harness's SFPU top
    assert latest.resolve() == gtkw.resolve()
    assert f'[dumpfile] "{wave.resolve()}"' in latest.read_text().splitlines()
    assert f"waveform: {wave}" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_waves_without_gtkwave_says_where_the_waveform_is(tmp_path):
    saved = tmp_path / "build" / "waves" / "icarus" / "Sfpu.gtkw"
    saved.parent.mkdir(parents=True)
    saved.write_text('[dumpfile] "/runs/here/Sfpu.vcd"\n')
    (tmp_path / "build" / "waves" / "latest.gtkw").symlink_to("icarus/Sfpu.gtkw")
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS")}
    env["PATH"] = _path_without_gtkwave(tmp_path / "bin") + os.pathsep + os.path.dirname(shutil.which("make"))
    if shutil.which("gtkwave", path=env["PATH"]):
        pytest.skip("GTKWave is installed beside make")
    done = subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "waves"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "the waveform is /runs/here/Sfpu.vcd" in done.stderr and str(saved) in done.stderr
    assert "needs GTKWave" in done.stderr
