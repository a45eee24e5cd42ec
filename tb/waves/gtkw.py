"""GTKWave save files (.gtkw) for the SFPU's waveforms.

A wave file of the whole top holds thousands of signals; the save file picks
the ones a kernel author reads and groups them: issue and stall, one group per
sub-unit, the LRegs by lane, flags and stack, the macro slots. Every
instruction word and opcode goes through the `sfpu-mnemonic` translate filter
(tb.waves.mnemonic), so the waveform shows assembly.

The three backends name the same signals differently:
- Amaranth's VCD: the top is `bench.top.dut`; every struct field and array
  element is a signal of its own (`\\mad_inputs__issue.word`, `\\lregs__0[3]`);
- Icarus's VCD (of Yosys's Verilog): the top is `Sfpu` (`SfpuHarness.sfpu`
  in the simulation harness); struct fields survive as escaped wires
  (`\\mad_inputs__issue.word`), array elements do not;
- Verilator's VCD: the same scopes as Icarus's, with the same names where
  Verilator kept them, and the harness's ports alone in `$rootio` (older
  Verilators put the top under `TOP`).
So each wanted signal is looked up by its field path; where the wave file has
only an enclosing vector, the field becomes a bit range of it, its offset
taken from the Amaranth layout (GTKWave's `#{alias} (i)vector ...` syntax).
What a file does not have at all is left out. The sub-unit groups prefer the
top's per-unit issue signals (this cycle); without them they fall back to
`cycle_trace`, which shows each cycle one cycle late.
"""

from __future__ import annotations

import math
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from amaranth.hdl import Shape
from amaranth.lib import data
from vcd.gtkw import GTKWSave

from tensix_sfpu.hdl.flags import DEPTH, StackEntry
from tensix_sfpu.hdl.lregs import LANES, LaneValues
from tensix_sfpu.hdl.scheduler import SLOTS, Scheduled
from tensix_sfpu.hdl.sfpu import MACRO_UNITS, UNITS, Trace
from tensix_sfpu.hdl.unit_io import Issue
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.waves.mnemonic import FILTER_NAME

ISSUE_TRACE = ("valid", "macro", "opcode", "word", "vd", "vb", "vc")

# Layouts of the signals whose fields the save file shows.
LAYOUTS: dict[str, data.Layout] = {
    "cycle_trace": Trace,
    "flag_stack": data.ArrayLayout(StackEntry, DEPTH),
    "due": data.ArrayLayout(Scheduled, len(MACRO_UNITS)),
    **{f"{u}_inputs__issue": Issue for u in UNITS},
    **{f"lregs__{r}": LaneValues for r in range(17)},
    **{f"scheduler.slot_{u}_{k}": Scheduled for u in MACRO_UNITS for k in range(SLOTS)},
}


class WaveError(RuntimeError):
    """The wave file cannot be read or holds no SFPU top."""


@dataclass(frozen=True)
class Var:
    name: str          # as GTKWave names it: scope.reference[msb:lsb]
    width: int
    msb: int
    lsb: int
    string: bool       # a VCD string variable (Amaranth's enums): no range, no hex


# -- reading the signal list ----------------------------------------------------------------

def _lines(path: Path):
    """The lines of a VCD (every backend writes one: tb.sims.runner)."""
    try:
        with open(path, errors="replace") as f:
            yield from f
    except OSError as e:
        raise WaveError(f"{path}: cannot read: {e.strerror or e}") from None


def _declarations(lines) -> Iterator[tuple[list[str], list[str]]]:
    """(scope path, tokens) of each `$var` of the header; `lines` is left
    just after `$enddefinitions`, where the values start."""
    scopes: list[str] = []
    for line in lines:
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] == "$scope":
            scopes.append(tokens[2])
        elif tokens[0] == "$upscope":
            scopes.pop()
        elif tokens[0] == "$var":
            yield scopes, tokens
        elif tokens[0] == "$enddefinitions":
            return


def read_vars(path: Path) -> dict[str, Var]:
    """Every variable of the wave file, keyed by its scope path and reference
    without escapes or range (`bench.top.dut.mad_inputs__issue.word`)."""
    out: dict[str, Var] = {}
    for scopes, tokens in _declarations(_lines(Path(path))):
        kind, width, ref = tokens[1], int(tokens[2]), tokens[4]
        msb, lsb = width - 1, 0
        if len(tokens) > 6 and (m := re.fullmatch(r"\[(\d+):(\d+)\]", tokens[5])):
            msb, lsb = int(m[1]), int(m[2])
        string = kind == "string"
        suffix = f"[{msb}:{lsb}]" if width > 1 and not string else ""
        key = ".".join([*scopes, ref.lstrip("\\")])
        out.setdefault(key, Var(".".join([*scopes, ref]) + suffix, width, msb, lsb, string))
    if not out:
        raise WaveError(f"{path}: no signals (not a VCD file?)")
    return out


def find_top(variables: dict[str, Var]) -> str:
    """The scope of the SFPU top: the one with `instr__payload` and the most signals
    (Verilator's VCD also has the ports alone in `$rootio`)."""
    counts: dict[str, int] = {}
    for key in variables:
        counts[key.rpartition(".")[0]] = counts.get(key.rpartition(".")[0], 0) + 1
    tops = [key[:-len(".instr__payload")] for key in variables if key.endswith(".instr__payload")]
    if not tops:
        raise WaveError("the wave file has no SFPU top (no signal instr__payload)")
    return max(tops, key=lambda scope: counts.get(scope, 0))


# -- resolving a field path to a trace ------------------------------------------------------------

def _path_names(base: str, path: tuple) -> list[str]:
    """`cycle_trace`, `cycle_trace.units`, `cycle_trace.units[2]`, ... for each prefix."""
    names = [base]
    for item in path:
        names.append(names[-1] + (f"[{item}]" if isinstance(item, int) else f".{item}"))
    return names


def _bits(layout, path: tuple) -> tuple[int, int]:
    offset, shape = 0, layout
    for item in path:
        field = shape[item]
        offset, shape = offset + field.offset, field.shape
    return offset, Shape.cast(shape).width


@dataclass(frozen=True)
class Row:
    """One row of the save file: a whole variable or a bit range of one."""
    line: str          # what the save file names: a variable or a `#{alias} (i)var ...` bundle
    width: int
    string: bool = False


class Signals:
    def __init__(self, variables: dict[str, Var]):
        self.variables = variables
        self.top = find_top(variables)
        # Amaranth's VCD writer numbers a scope whose name repeats (`issue$378`); a
        # submodule's signal is asked for by its plain path (`issue.interlock_q`).
        self.unnumbered: dict[str, Var] = {}
        for key, var in variables.items():
            scopes, _, ref = key.rpartition(".")
            self.unnumbered.setdefault(f"{re.sub(r'[$][0-9]+(?=[.]|$)', '', scopes)}.{ref}", var)

    def var(self, name: str) -> Var | None:
        key = f"{self.top}.{name}"
        return self.variables.get(key) or self.unnumbered.get(key)

    def get(self, base: str, *path, alias: str | None = None) -> Row | None:
        """The field `path` of the top's signal `base` (a field path into
        LAYOUTS[base]), as a variable of its own if the file has one, else as a
        bit range of the nearest enclosing variable."""
        names = _path_names(base, path)
        for depth in range(len(names) - 1, -1, -1):
            var = self.var(names[depth])
            if var is None:
                continue
            if depth == len(path):
                return Row(var.name, var.width, var.string)
            layout = LAYOUTS.get(base)
            if layout is None:
                return None
            start, _ = _bits(layout, path[:depth]) if depth else (0, 0)
            offset, width = _bits(layout, path)
            lo = var.lsb + offset - start
            hi = lo + width - 1
            if hi > var.msb:
                return None
            label = alias or names[-1]
            bits = " ".join(f"({var.msb - bit}){var.name}" for bit in range(hi, lo - 1, -1))
            return Row(f"#{{{label}}} {bits}", width)
        return None


# -- writing the save file -------------------------------------------------------------------------

def filter_command(arch: Arch) -> str:
    """The translate filter's executable for `arch` (`sfpu-mnemonic`, or
    `sfpu-mnemonic-blackhole`: GTKWave passes a filter no arguments): next to
    this Python's (the project's virtual environment), else on PATH."""
    name = FILTER_NAME + arch.tagged("-{}")
    here = Path(sys.executable).parent / name
    if here.is_file():
        return str(here)
    found = shutil.which(name)
    if found is None:
        raise WaveError(f"{name} is not installed: pip install -e . (make setup does this)")
    return found


class _Writer:
    def __init__(self, gtkw: GTKWSave, signals: Signals, filter_proc: str):
        self.gtkw, self.signals, self.filter = gtkw, signals, filter_proc
        self.written: list[str] = []

    def add(self, trace: Row | None, alias: str | None = None, mnemonic: bool = False, fmt: str = "hex") -> None:
        if trace is None:
            return
        bundle = trace.line.startswith("#{")
        self.gtkw.trace(trace.line, alias=None if bundle else alias,
                        datafmt="hex" if trace.string else fmt,
                        translate_filter_proc=self.filter if mnemonic and not trace.string else None)
        self.written.append(trace.line)

    def signal(self, base: str, *path, alias: str | None = None, **kw) -> None:
        self.add(self.signals.get(base, *path, alias=alias), alias, **kw)


def _issue_group(w: _Writer, unit: str) -> None:
    s = w.signals
    index = UNITS.index(unit)
    if s.get(f"{unit}_inputs__issue", "word") is not None:
        source, prefix = (f"{unit}_inputs__issue",), ()
        cycle = f"macro_cycle_{unit}"
    else:
        w.gtkw.blank("from cycle_trace: one cycle late")
        source, prefix = ("cycle_trace",), ("units", index)
        cycle = None
    for field in ISSUE_TRACE:
        w.signal(*source, *prefix, field, alias=f"{unit}_{field}", mnemonic=field in ("opcode", "word"))
    if unit == "store":
        w.signal(*source, *prefix, "store_addr", alias=f"{unit}_store_addr")
    if unit in MACRO_UNITS:
        if cycle is not None and s.var(cycle) is not None:
            w.signal(cycle, alias=f"{unit}_macro_cycle", fmt="dec")
        else:
            w.signal("cycle_trace", "units", index, "macro_cycle", alias=f"{unit}_macro_cycle", fmt="dec")


def write_gtkw(wave: Path, out: Path, *, lanes: int = 4, filter_proc: str | None = None,
               start_time: int | None = None, zoom: float | None = None, arch: Arch) -> list[str]:
    """Write the save file for `wave` (of the RTL elaborated for `arch`) to
    `out`; returns the traces it names.

    `start_time` (in the wave file's time unit) and `zoom` (`view_for`) set
    the initial view."""
    wave, out = Path(wave).resolve(), Path(out)
    signals = Signals(read_vars(wave))
    proc = filter_proc or filter_command(arch)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w") as f:
        gtkw = GTKWSave(f)
        gtkw.comment(f"SFPU waveform: {wave.name}", "written by tb/waves/gtkw.py; instruction words through "
                     f"{FILTER_NAME}")
        gtkw.dumpfile(str(wave))
        gtkw.savefile(str(out.resolve()))
        if start_time is not None:
            gtkw.timestart(start_time)
        if zoom is not None:
            gtkw.zoom_markers(zoom)
        gtkw.size(1600, 1000)
        gtkw.signals_width(300)
        gtkw.sst_expanded(False)
        w = _Writer(gtkw, signals, proc)

        with gtkw.group("issue and stall"):
            for name in ("clk", "rst", "run", "instr__valid"):
                w.signal(name, alias=name)
            w.signal("instr__payload", alias="instr__payload", mnemonic=True)
            w.signal("instr__ready", alias="instr__ready")
            w.signal("issue.interlock_q", alias="interlock")      # only SFPNOP may follow
            if arch.features.mad_stall:                             # the stall after a MAD-class instruction
                w.signal("issue.mad_stall.hold", alias="mad_stall")
                w.signal("issue.mad_stall.stall_reads", alias="stall_reads")
                w.signal("issue.mad_stall.mad_writes_q", alias="mad_writes")
            w.signal("accepted", alias="accepted")
            w.signal("issue.thread_runs", alias="thread_runs")     # accepted and not discarded for a macro
            w.signal("cycle", alias="cycle", fmt="dec")
            w.signal("cycle_trace", "valid", alias="trace_valid")
            w.signal("cycle_trace", "cycle", alias="trace_cycle", fmt="dec")
            w.signal("cycle_trace", "issued", alias="trace_issued")
            w.signal("cycle_trace", "stalled", alias="trace_stalled")
            w.signal("cycle_trace", "word", alias="trace_word", mnemonic=True)

        for unit in UNITS:
            with gtkw.group(unit):
                _issue_group(w, unit)

        with gtkw.group("LRegs by lane", closed=True):
            for reg in (*range(8), 16):
                with gtkw.group(f"L{reg}", closed=reg >= 4):
                    for lane in range(min(lanes, LANES)):
                        w.signal(f"lregs__{reg}", lane, alias=f"L{reg}[{lane}]")

        with gtkw.group("flags and stack"):
            w.signal("lane_flags", alias="lane_flags", fmt="bin")
            w.signal("use_flags", alias="use_flags")
            w.signal("flag_depth", alias="flag_depth", fmt="dec")
            with gtkw.group("flag_stack", closed=True):
                for i in range(DEPTH):
                    w.signal("flag_stack", i, "lane_flags", alias=f"stack{i}_lane_flags")
                    w.signal("flag_stack", i, "use_flags", alias=f"stack{i}_use_flags")

        with gtkw.group("macro slots"):
            w.signal("busy", alias="busy")
            w.signal("scheduler.pending", alias="pending")
            for i, unit in enumerate(MACRO_UNITS):
                w.signal("due", i, "valid", alias=f"due_{unit}_valid")
                w.signal("due", i, "word", alias=f"due_{unit}_word", mnemonic=True)
            for unit in MACRO_UNITS:
                with gtkw.group(f"slots {unit}", closed=True):
                    for k in range(SLOTS):
                        w.signal(f"scheduler.slot_{unit}_{k}", "valid", alias=f"slot_{unit}{k}_valid")
                        w.signal(f"scheduler.slot_{unit}_{k}", "word", alias=f"slot_{unit}{k}_word", mnemonic=True)
    return w.written


# The time range GTKWave 3.3 shows at zoom 0 in the window `write_gtkw` asks
# for, in time units (measured): each step of -1 doubles it.
ZOOM0_SPAN = 6.3


def view_for(first_time: int, period: int, cycles: int = 40) -> tuple[int, float]:
    """A start time and zoom that show `cycles` clock periods from a few before `first_time`."""
    start = max(0, first_time - 3 * period)
    return start, -math.log2(cycles * period / ZOOM0_SPAN)


def first_rise(wave: Path, name: str = "instr__valid") -> int | None:
    """When the top's `name` first goes to 1 (for the initial view); None if never.
    Reads the file only up to that point."""
    wave = Path(wave)
    signals = Signals(read_vars(wave))
    var = signals.var(name)
    if var is None:
        return None
    scope, _, ref = var.name.rpartition(".")
    lines = _lines(wave)
    try:
        codes = {tokens[3] for scopes, tokens in _declarations(lines)
                 if ".".join(scopes) == scope and tokens[4] == ref}
        now = 0
        for line in lines:
            if line.startswith("#"):
                now = int(line[1:])
            elif line.startswith("1") and line[1:].strip() in codes:
                return now
    finally:
        lines.close()
    return None


def _timescale(wave: Path) -> float:
    """The wave file's time unit in seconds."""
    text = ""
    for line in _lines(Path(wave)):
        text += line
        if "$end" in line and "$timescale" in text:
            break
        if "$enddefinitions" in line:
            break
    m = re.search(r"\$timescale\s+(\d+)\s*([munpf]?s)\s", text)
    if m is None:
        return 1e-12
    return int(m[1]) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12, "fs": 1e-15}[m[2]]


def write_for_run(wave: Path, out: Path, clock_ns: float, **kw) -> list[str]:
    """The save file of a lock-step run: the view opens on the first
    instruction presented, about 40 cycles wide."""
    first = first_rise(wave)
    if first is None:
        return write_gtkw(wave, out, **kw)
    period = round(clock_ns * 1e-9 / _timescale(wave))
    start, zoom = view_for(first, period)
    return write_gtkw(wave, out, start_time=start, zoom=zoom, **kw)
