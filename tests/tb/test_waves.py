"""The GTKWave translate filter and the save files tb.waves.gtkw writes.

The wave files here are small hand-made VCDs named as the backends name the
SFPU's signals, so nothing needs simulating and GTKWave is not needed."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from vcd import VCDWriter

from tensix_sfpu.hdl.sfpu import Trace
from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import disassemble
from tensix_sfpu.tb.waves import gtkw as waves, mnemonic

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
