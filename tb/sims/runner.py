"""Runs the project's cocotb test modules on one of three backends.

- `amaranth`: Amaranth's built-in simulator through tb.env.amaranth_cocotb, in
  this process; needs nothing installed beyond the project.
- `icarus`, `verilator`: `cocotb_tools.runner` on the Verilog of
  `tb.env.harness.SfpuHarness`: the `Sfpu` top with its ports passed through and
  the block-mode stimulus and capture beside them.

The Verilog is written once per version of the RTL and architecture (its
file name carries a hash of hdl/ and model/, and `-blackhole` for Blackhole)
and each simulator's build is kept under
build/cocotb/<backend>[-blackhole][-waves]/, so a second run starts at once.
Test parameters go to the test module as SFPU_* environment variables, the
architecture as SFPU_ARCH.

With `waves` a run leaves its waveform in its work folder (`wave_file`): a
VCD from every backend (Verilator's build with tracing is separate, as
tracing slows every run down). VCD, not FST: the save file's writer
(tb.waves.gtkw) reads it in Python, where an FST would need GTKWave's fst2vcd,
and Verilator's FST writer needs liblz4's header.

A build's slow stages (elaborating the RTL, Yosys's Verilog, the simulator's
compile) each say on standard error what they do and, when done, how long
they took: a first Verilator build takes minutes. A cached build says nothing.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from contextlib import contextmanager
from pathlib import Path

import amaranth

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.sims import simulators
from tensix_sfpu.tb.env.amaranth_cocotb import Outcome

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("SFPU_BUILD", ROOT / "build")) / "cocotb"
BACKENDS = ("amaranth", "icarus", "verilator")
TEST_MODULE = "tensix_sfpu.tb.cli.cocotb_tests"
TOP = "Sfpu"                    # the design (the RTLIL tb.campaigns.mutants mutates)
SIM_TOP = "SfpuHarness"         # what the simulators run (tb.env.harness)
TIMESCALE = ("1ns", "1ps")
PUBLIC_CONFIG = "public-ports.vlt"    # in the build folder: the top's ports, the only signals made public
VERILATOR_OPT = "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1"
VERILATOR_ARGS = ["-O2", "--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal", "-Wno-lint", "-Wno-style",
                  "--output-split", "20000"]


class RunnerError(RuntimeError):
    """A backend could not build or run; the message says what and how to fix it."""


def duration(seconds: float) -> str:
    """`12 s`, `3 min 10 s`."""
    seconds = round(seconds)
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"


@contextmanager
def stage(title: str, what: str):
    """Say on stderr that a slow build stage starts, then how long it took
    (one line, finished when the stage is)."""
    print(f"{title}: {what}...", end="", file=sys.stderr, flush=True)
    started = time.monotonic()
    ended = "failed after "
    try:
        yield
        ended = ""
    finally:
        print(f" {ended}{duration(time.monotonic() - started)}", file=sys.stderr, flush=True)


def wave_file(backend: str, work: Path) -> Path:
    """Where `run(backend, waves=True, work=work)` leaves the waveform (a VCD)."""
    return Path(work) / f"{TOP}.vcd"


def _icarus_dumps_vcd(runner) -> None:
    """cocotb asks vvp for an FST (`-fst` after the plusargs, and the last
    format flag wins); ask for a VCD instead."""
    test_command = runner._test_command

    def vcd_command():
        return [["-vcd" if arg == "-fst" else arg for arg in cmd] for cmd in test_command()]
    runner._test_command = vcd_command


def rtl_version() -> str:
    """A hash of everything the generated Verilog depends on."""
    digest = hashlib.sha256((amaranth.__version__ + SIMULATION_SCRIPT + repr(FLOW_PROC)).encode())
    for path in [*sorted((ROOT / "hdl").glob("*.py")), *sorted((ROOT / "model").glob("*.py")),
                 ROOT / "tb" / "env" / "harness.py"]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@contextmanager
def _locked(name: str):
    """One process at a time builds a given thing (pytest-xdist workers, regress jobs)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _arch_suffix(arch: Arch) -> str:
    """The default architecture's files keep their plain names; another architecture's carry it."""
    return arch.tagged("-{}")


def verilog(backend: str = "icarus", *, arch: Arch) -> Path:
    """The simulation harness's Verilog for `backend`, for this version of the
    RTL and `arch` (generated if missing; it takes about a minute)."""
    flow = SIMULATION_FLOWS[backend]
    path = BUILD / f"{SIM_TOP}{_arch_suffix(arch)}-{rtl_version()}-{flow}.v"
    with _locked("verilog"):
        if not path.is_file():
            rtlil(SIM_TOP, arch=arch)     # elaborated first: a stage of its own, not one inside Yosys's
            tmp = path.with_suffix(".tmp")
            with stage(f"building the {arch.title} RTL for {backend}", "writing its Verilog with Yosys"):
                tmp.write_text(simulation_verilog(backend, arch=arch))
            tmp.replace(path)
    return path


# Amaranth's own Verilog (`sfpu verilog`, what lint and synthesis read)
# keeps combinational logic in `always @*` blocks. Icarus does not run such a
# block at time 0, so one whose inputs never change before a test samples
# its output stays X (a macro slot's fields until the first SFPLOADMACRO).
# For Icarus the processes become multiplexers (`proc` without `-nomux`),
# which Yosys writes as continuous assignments: same logic, defined from time
# 0, and 5x faster on Icarus than the processes. Verilator evaluates every
# block at time 0 and runs the processes (`proc -nomux`) about twice as fast
# as the multiplexers, so it gets those (docs/performance.md measures both
# flows on both). Without attributes: Icarus's lexer cannot take a line as
# long as the `unused_bits` list of a wide port.
SIMULATION_SCRIPT = """\
read_rtlil <<rtlil
{rtlil}
rtlil
proc {proc}
opt_clean
memory_collect
write_verilog -noattr
"""
FLOW_PROC = {"mux": "-norom", "nomux": "-nomux -norom"}
SIMULATION_FLOWS = {"icarus": "mux", "verilator": "nomux"}


def rtlil(top: str = TOP, *, arch: Arch) -> Path:
    """The RTLIL of the design (`TOP`) or of the simulation harness around it
    (`SIM_TOP`), for this version of the RTL and `arch` (written if missing:
    about half a minute); the simulation Verilog and tb.campaigns.mutants start from it."""
    path = BUILD / f"{top}{_arch_suffix(arch)}-{rtl_version()}.il"
    with _locked(f"rtlil-{top}"):
        if not path.is_file():
            from amaranth.back import rtlil as amaranth_rtlil

            if top == SIM_TOP:
                from tensix_sfpu.tb.env.harness import SfpuHarness as Top
            else:
                from tensix_sfpu.hdl.sfpu import Sfpu as Top
            tmp = path.with_suffix(".tmp")
            with stage(f"building the {arch.title} RTL", f"elaborating {top} in Amaranth"):
                tmp.write_text(amaranth_rtlil.convert(Top(arch=arch), name=top))
            tmp.replace(path)
    return path


def simulation_verilog(backend: str = "icarus", *, arch: Arch) -> str:
    from amaranth._toolchain.yosys import find_yosys
    yosys = find_yosys(lambda version: version >= (0, 40))
    script = SIMULATION_SCRIPT.format(rtlil=rtlil(SIM_TOP, arch=arch).read_text(),
                                      proc=FLOW_PROC[SIMULATION_FLOWS[backend]])
    return yosys.run(["-q", "-"], script, ignore_warnings=True)


@contextmanager
def _environment(changes: dict[str, str]):
    saved = {k: os.environ.get(k) for k in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def build_dir(backend: str, waves: bool = False, netlist: Path | None = None, *, arch: Arch) -> Path:
    """Where the simulator's build lives: under build/cocotb for the design,
    next to the netlist for another Verilog (tb.campaigns.mutants' netlist of mutants)."""
    name = backend + _arch_suffix(arch) + ("-waves" if waves else "")
    return BUILD / name if netlist is None else netlist.parent / name


def _build_args(backend: str, waves: bool) -> list[str]:
    args = list(VERILATOR_ARGS) if backend == "verilator" else []
    if backend == "verilator" and waves:
        args += ["--trace-structs"]
    return args


def _recipe(backend: str, waves: bool, source: Path) -> str:
    """What a build folder was built from: a different recipe rebuilds it."""
    verilator = [PUBLIC_CONFIG, VERILATOR_OPT] if backend == "verilator" else []
    return " ".join([source.name, *_build_args(backend, waves), *verilator])


def _top_ports(source: Path, top: str) -> list[str]:
    """The port names of module `top` in Yosys' Verilog `source` (its header lists them)."""
    match = re.search(rf"^module {re.escape(top)}\((.*?)\);", source.read_text(), re.M | re.S)
    if not match:
        raise RunnerError(f"{source}: no module {top}")
    return [name.strip().lstrip("\\").strip() for name in match.group(1).split(",")]


def _public_ports_only(runner, source: Path, top: str, folder: Path) -> None:
    """cocotb's Verilator build makes every signal public and writable
    (`--public-flat-rw`), which stops Verilator optimising across any of them.
    The tests touch only the top's ports, so a configuration file makes those
    public and nothing else. (`--public-depth 1` also made every net of the top
    module public: in the bare `Sfpu` those are all its sub-units' port wires,
    which Verilator then kept as copies and re-evaluated, with what they feed,
    on every evaluation; docs/performance.md measures it.)"""
    commands = runner._build_command

    def build_command():
        cmds = commands()
        config = folder / PUBLIC_CONFIG
        config.write_text("`verilator_config\n" + "".join(
            f'public_flat_rw -module "{top}" -var "{port}"\n' for port in _top_ports(source, top)))
        verilate = cmds[0]
        at = verilate.index("--public-flat-rw")
        cmds[0] = verilate[:at] + [str(config)] + verilate[at + 1:]
        return cmds
    runner._build_command = build_command


def runner_source(backend: str, netlist: Path | None, arch: Arch) -> Path:
    return verilog(backend, arch=arch) if netlist is None else netlist


def _toplevel(source: Path) -> str:
    """The harness for the design's Verilog; `Sfpu` itself in another netlist
    (tb.campaigns.mutants' netlist of mutants, which has the same ports)."""
    return SIM_TOP if source.name.startswith(SIM_TOP) else TOP


# What each command of a simulator's build does, as its stage says it.
BUILD_STAGES = {"iverilog": "compiling with iverilog", "verilator": "verilating", "make": "compiling its C++"}


def _stages_said(runner, title: str) -> None:
    """Each command of the runner's build run as a stage of its own (`stage`)."""
    execute_cmds = runner._execute_cmds

    def each_a_stage(cmds, cwd, stdout=None):
        for cmd in cmds:
            name = Path(cmd[0]).name
            with stage(title, BUILD_STAGES.get(name, f"running {name}")):
                execute_cmds([cmd], cwd, stdout)
    runner._execute_cmds = each_a_stage


def _runner(backend: str, waves: bool, execute: bool, source: Path, folder: Path, arch: Arch):
    """A cocotb runner configured for the Verilog `source`. With `execute`
    false the build steps are skipped (the folder's build is current): cocotb's
    runner only learns its sources through `build()`."""
    from cocotb_tools.runner import get_runner
    args = _build_args(backend, waves)
    runner = get_runner(backend)
    if backend == "verilator":
        _public_ports_only(runner, source, _toplevel(source), folder)
    if execute:
        of = f"the {arch.title} RTL" if _toplevel(source) == SIM_TOP else source.name
        _stages_said(runner, f"building {of} for {backend}{' with waves' if waves else ''}")
    else:
        runner._execute = lambda cmds, cwd: None
    # cocotb's `waves` adds Icarus's dump module, or Verilator's `--trace` (a VCD) and VM_TRACE=1.
    runner.build(sources=[source], hdl_toplevel=_toplevel(source), build_dir=folder, timescale=TIMESCALE, build_args=args,
                 waves=waves, always=True, clean=execute, log_file=folder / "build.log")
    for patched in ("_execute", "_execute_cmds"):          # tests run quietly
        runner.__dict__.pop(patched, None)
    return runner


@contextmanager
def _simulator_environment(backend: str):
    env = simulators.verilator_env()[1] if backend == "verilator" else dict(os.environ)
    if backend == "verilator":
        # The C++ compiles in parallel, and at -O1 (-O0 for the run-once
        # code): Verilator's default -Os takes about 21 CPU-minutes for this
        # design, and the lock-step run's time is mostly Python anyway.
        env["MAKEFLAGS"] = f"{env['MAKEFLAGS']} -j{os.cpu_count() or 1} {VERILATOR_OPT}"
    with _environment({k: env[k] for k in ("PATH", "VERILATOR_ROOT", "MAKEFLAGS") if k in env}):
        yield


def build(backend: str, waves: bool = False, netlist: Path | None = None, *, arch: Arch):
    """Build (or reuse) the simulator's model of the top (the design's for
    `arch`, or the Verilog `netlist` with the same top and ports); returns a
    runner for it."""
    try:
        simulators.check(backend)
    except simulators.SimulatorMissing as e:
        raise RunnerError(str(e)) from None
    source = runner_source(backend, netlist, arch)
    folder = build_dir(backend, waves, netlist, arch=arch)
    stamp = folder / "built-from"
    with _locked(folder.name), _simulator_environment(backend):
        recipe = _recipe(backend, waves, source)
        current = stamp.is_file() and stamp.read_text() == recipe
        try:
            runner = _runner(backend, waves, not current, source, folder, arch)
        except (SystemExit, RuntimeError) as e:      # cocotb's runner exits or raises on a failed build
            raise RunnerError(f"{backend} build of {source.name} failed ({e}); see {folder / 'build.log'}") from None
        if not current:
            stamp.write_text(recipe)
    return runner


def run(backend: str, testcase: list[str] | None = None, env: dict[str, str] | None = None,
        waves: bool = False, work: Path | None = None, netlist: Path | None = None,
        *, arch: Arch) -> list[Outcome]:
    """Run the tests of TEST_MODULE (all, or those named) on `backend`, on the
    RTL elaborated for `arch`; with
    `waves` the waveform is left at `wave_file(backend, work)`. Without a
    `work` folder each run gets its own under build/runs (two runs at once
    must not share cocotb's results file), kept only if a test failed."""
    if backend not in BACKENDS:
        raise RunnerError(f"unknown backend {backend!r} (one of {', '.join(BACKENDS)})")
    if work is None and not waves:
        (BUILD / "runs").mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f"{backend}-", dir=BUILD / "runs"))
        outcomes = run(backend, testcase, env, False, scratch, netlist, arch=arch)
        if outcomes and all(o.passed for o in outcomes):
            shutil.rmtree(scratch, ignore_errors=True)
        return outcomes
    env = {**(env or {}), "SFPU_ARCH": arch.value}
    work = Path(work or BUILD / "runs" / backend).resolve()      # the simulator runs in another folder
    work.mkdir(parents=True, exist_ok=True)
    if backend == "amaranth":
        from tensix_sfpu.tb.env.amaranth_cocotb import run_tests
        from tensix_sfpu.tb.env.harness import SfpuHarness
        with _environment({**env, "SFPU_BACKEND": "amaranth"}):
            return run_tests(TEST_MODULE, testcase, make_top=lambda: SfpuHarness(arch=arch),
                             vcd=wave_file(backend, work) if waves else None, reuse=("SfpuHarness", arch))
    runner = build(backend, waves, netlist, arch=arch)
    results = work / "results.xml"
    results.unlink(missing_ok=True)
    waves_at = wave_file(backend, work)
    if waves:
        waves_at.unlink(missing_ok=True)
    # Icarus's dump module writes into the shared build folder unless told
    # otherwise; Verilator's model writes dump.vcd into the run's folder.
    plusargs = [f"+dumpfile_path={waves_at}"] if waves and backend == "icarus" else []
    if waves and backend == "icarus":
        _icarus_dumps_vcd(runner)
    with _simulator_environment(backend):
        try:
            runner.test(test_module=TEST_MODULE, hdl_toplevel=_toplevel(runner_source(backend, netlist, arch)),
                        testcase=testcase,
                        test_dir=work, results_xml=str(results), waves=waves, timescale=TIMESCALE,
                        plusargs=plusargs, extra_env={**env, "SFPU_BACKEND": backend}, log_file=work / "sim.log")
        except SystemExit as e:
            raise RunnerError(f"{backend} run failed ({e}); see {work / 'sim.log'}") from None
    if waves and backend == "verilator" and (work / "dump.vcd").is_file():
        (work / "dump.vcd").replace(waves_at)
    return read_results(results, work / "sim.log")


def read_results(xml: Path, log: Path) -> list[Outcome]:
    """The outcome of each test from cocotb's JUnit results file."""
    if not xml.is_file():
        raise RunnerError(f"the simulator wrote no results ({xml}); see {log}")
    outcomes = []
    for case in ET.parse(xml).getroot().iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        message = "" if failure is None else (failure.get("message") or failure.text or "failed")
        outcomes.append(Outcome(case.get("name", "?"), failure is None and case.find("skipped") is None, message,
                                float(case.get("sim_time_ns", 0) or 0), float(case.get("time", 0) or 0)))
    return outcomes
