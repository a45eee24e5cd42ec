"""The Python API: what `sfpu llk`, `sfpu run`, `sfpu timeline`, `sfpu race`
and `sfpu kernels` do, as functions of typed values, for a kernel author's own
scripts and tests. The commands parse their options and call these.

    from tensix_sfpu import api
    listing = api.compile_kernel("ckernel_sfpu_exp.h", "calculate_exponential<false, false, 32>()",
                                 init="exp_init<false, false>()", src="/path/to/tt_metal")
    x = np.random.default_rng(1).uniform(-4, 4, (32, 32)).astype(np.float32)
    result = api.run(listing, inputs=x, format="fp32")
    result.output            # what the kernel stored where x was, as float32, shaped like x
    result.cycles, result.hazards
    report = api.race(listing, inputs=x)     # every timing the front end allows
    report.deterministic

Errors in what is given (a header that does not compile, an input that does
not fit Dst, a program with an error) raise `ApiError`, whose message is one
line naming the file, line or value; a hazard in a strict run raises
`model.machine.UndefinedBehaviour` with the cycle and the C++ line.
"""

from __future__ import annotations

import dataclasses

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import AsmError, Program, assemble
from tensix_sfpu.model.hazards import RULES, Hazard, unknown_rule
from tensix_sfpu.model.machine import UndefinedBehaviour
from tensix_sfpu.model.race import DEFAULT_MAX_GAP, DEFAULT_SEEDS, RaceInputError, RaceReport, explore
from tensix_sfpu.model.run import RunResult, run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.model.trace import CycleRecord
from tensix_sfpu.model import dst_io
from tensix_sfpu.tb.llk.frontend import (Listing, LlkError, Op, Request, compile_call, cxx_of_message, remember,
                                         with_cxx_locations)
from tensix_sfpu.tb.llk.sources import SourceError, find_header, find_tree

if TYPE_CHECKING:
    from tensix_sfpu.tb.kernel_measure import Measured

BACKENDS = ("model", "amaranth", "icarus", "verilator")
FORMATS = tuple(dst_io.FORMATS)
SRC = "src="              # the kernel tree, as errors name it (the command line says --src)


class ApiError(ValueError):
    """Something given cannot be used; the message says what and where, in one line."""


class NotModelledError(ApiError):
    """A Blackhole feature the model does not have yet."""


def compile_kernel(header: str | Path, call: str, *, init: str | None = None, arch: str = "wormhole",
                   src: str | Path | None = None, defines: tuple[str, ...] | list[str] = (),
                   fp32_dest: int | None = None, srcb_format: int | None = None,
                   setup: tuple[str, ...] | list[str] = (), vector_mode: str = "rc",
                   strict_fields: bool = False) -> Listing:
    """A kernel's C++ header (a path, a file name in `src`'s kernel folders,
    or `example:NAME` for a header of the package's examples) compiled for
    `call` (and `init`, run once before the faces) into a listing of the
    project's assembly, as `sfpu llk` writes it: `listing.text` and
    `listing.program`. `src` is a tt-metal/tt-llk tree or the unpacked ttnn
    wheel's ttnn/tt_metal (default: $SFPU_LLK_SRC); `defines` are `NAME` or
    `NAME=VALUE`; `setup` holds directives for Tensix state the caller sets up,
    e.g. ".addr_mod 6 dst_incr=2". A `TTI_` argument with bits outside its
    field is in `listing.field_warnings`, or with `strict_fields` an error."""
    return compile_kernels([KernelOp(header, call, init)], arch=arch, src=src, defines=defines, fp32_dest=fp32_dest,
                           srcb_format=srcb_format, setup=setup, vector_mode=vector_mode, strict_fields=strict_fields)


@dataclass(frozen=True)
class KernelOp:
    """One op of a chain: a kernel call in a header, and its init (None: none)."""
    header: str | Path
    call: str
    init: str | None = None


def compile_kernels(ops: list[KernelOp] | list[tuple], *, arch: str = "wormhole", src: str | Path | None = None,
                    defines: tuple[str, ...] | list[str] = (), fp32_dest: int | None = None,
                    srcb_format: int | None = None, setup: tuple[str, ...] | list[str] = (), vector_mode: str = "rc",
                    strict_fields: bool = False) -> Listing:
    """Several kernel calls in order on one thread, each after its init (`KernelOp`s, or (header, call[, init])
    tuples), compiled into one listing as `compile_kernel` does one. Each op's return is checked against
    the state contract (docs/llk.md): what it leaves changed is `state-left-changed` when the listing runs."""
    request = dataclasses.replace(_chain_request(ops, arch, src, defines, fp32_dest, srcb_format, setup, vector_mode),
                                  strict_fields=strict_fields)
    try:
        listing = compile_call(request, name=f"{request.header.name}.s")
    except LlkError as e:
        raise ApiError(str(e)) from None
    remember(listing)
    return listing


def _chain_request(ops, arch, src, defines, fp32_dest, srcb_format, setup, vector_mode) -> Request:
    """The front end's request for `ops` (`KernelOp`s or (header, call[, init]) tuples) in order on one
    thread: the first op's, with the others' headers included and their calls to follow."""
    ops = [op if isinstance(op, KernelOp) else KernelOp(*op) for op in ops]
    if not ops:
        raise ApiError("the sequence of kernel calls is empty: give at least one (header, call, init)")
    first = ops[0]
    request = _request(first.header, first.call, first.init, arch, src, defines, fp32_dest, srcb_format, setup,
                       vector_mode)
    others = []
    for op in ops[1:]:
        try:
            path = find_header(str(op.header), request.tree, SRC)
        except SourceError as e:
            raise ApiError(f"{op.call}: {e}") from None
        if path.resolve() != request.header.resolve() and path not in others:
            others.append(path)
    return dataclasses.replace(request, preincludes=request.preincludes + tuple(others),
                               then=tuple(Op(op.call, op.init) for op in ops[1:]))


def _request(header, call, init, arch, src, defines, fp32_dest, srcb_format, setup, vector_mode) -> Request:
    """The front end's request for a kernel call: the header found (in `src`'s tree), the set-up checked."""
    for line in setup:
        if not line.strip().startswith("."):
            raise ApiError(f"setup {line!r}: expected a directive such as '.addr_mod 6 dst_incr=2'")
    try:
        tree = find_tree(src, arch, SRC)
        path = find_header(str(header), tree, SRC)
    except SourceError as e:
        raise ApiError(str(e)) from None
    return Request(path, call, init, arch=arch, defines=tuple(defines), fp32_dest=fp32_dest, srcb_format=srcb_format,
                   setup=tuple(setup), vector_mode=vector_mode, tree=tree)


def perf(header: str | Path, call: str, *, init: str | None = None, **options):
    """A kernel's cycles per tile as tt-llk's perf suite measures them on silicon
    (docs/perf.md): `call` once per tile after `init` once, as `perf_kernels`
    times a sequence of one. Returns a `tb.perf.measure.PerfResult`:
    `.cycles_per_tile`, `.breakdown`, `.to_json()`."""
    return perf_kernels([KernelOp(header, call, init)], **options)


def perf_kernels(ops: list[KernelOp] | list[tuple], *, arch: str = "wormhole", src: str | Path | None = None,
                 defines: tuple[str, ...] | list[str] = (), fp32_dest: int | None = None,
                 srcb_format: int | None = None, setup: tuple[str, ...] | list[str] = (), vector_mode: str = "none",
                 harness: str = "math-isolate", tiles: int = 8, loop_factor: int = 16, unpack_to_dest: bool = False,
                 build: str = "default", strict: bool = True, allow: tuple[str, ...] | list[str] = (),
                 max_cycles: int = 2_000_000, keep_events: bool = False):
    """Cycles per tile of kernel calls under tt-llk's perf harness
    (docs/perf.md): `ops` as for `compile_kernels`, each call once per tile
    (`vector_mode` "none" as the suite calls it). One op's init runs once
    before the zone; a chain's inits run before their calls on every tile.
    `harness` "math-isolate" puts the datacopy into Dst first, "tile-loop"
    leaves it out; `tiles` x `loop_factor` tiles; the math thread compiled
    for the baby RISC-V as the suite's `build` makes it ("default": loop
    counts read at run time; "speed-of-light": fixed) and timed through the
    issue path. Returns a `tb.perf.measure.PerfResult`."""
    from tensix_sfpu.tb.perf import harness as perf_harness
    from tensix_sfpu.tb.perf.measure import PerfError
    from tensix_sfpu.tb.perf.measure import perf as measure_perf
    _check_rules(allow)
    request = _chain_request(ops, arch, src, defines, fp32_dest, srcb_format, setup, vector_mode)
    try:
        result = measure_perf(request, perf_harness.Settings(harness, tiles, loop_factor, unpack_to_dest, build),
                              strict=strict, allow=frozenset(allow), max_cycles=max_cycles, keep_events=keep_events)
    except (LlkError, PerfError) as e:
        raise ApiError(str(e)) from None
    remember(result.listing)
    return result


def assemble_program(source: str | Path, *, arch: str | None = None, strict: bool = True,
                     name: str = "<program>") -> Program:
    """A program of the project's assembly, from a file (a `Path`, or a string
    naming an existing `.s` file) or from its text. With `strict`, a TTI_
    argument wider than its field is an error."""
    chosen = _arch(arch) if arch is not None else None
    path = Path(source) if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source
                                                          and source.endswith(".s")) else None
    try:
        text = path.read_text() if path is not None else str(source)
        return assemble(text, str(path) if path is not None else name, strict, chosen)
    except OSError as e:
        raise ApiError(f"{source}: cannot read: {e.strerror or e}") from None
    except AsmError as e:
        raise ApiError(str(e)) from None


@dataclass
class Result:
    """One run: what the kernel left, in the caller's format, and how it ran."""
    arch: isa.Arch
    output: np.ndarray | None         # the values read back where `inputs` went (None without inputs)
    dst: np.ndarray                   # raw Dst at the end, uint16[1024][16]
    lregs: np.ndarray                 # uint32[17][32]: L0-L7, the constants L8-L15, L16
    cycles: int                       # until the last result is written
    instructions: int
    hazards: list[Hazard]
    trace: list[CycleRecord] = field(default_factory=list)      # with trace=True
    run: RunResult | None = field(default=None, repr=False)     # the model's own record of the run

    def timeline_html(self, title: str = "", first: int = 0, last: int | None = None) -> str:
        """The run as `sfpu timeline --html` draws it (needs trace=True)."""
        from tensix_sfpu.tb.timeline_view import to_html
        return to_html(self._traced(), self.arch, title, first, last)

    def perfetto(self, title: str = "", first: int = 0, last: int | None = None) -> dict:
        """The run as Chrome/Perfetto trace events (needs trace=True)."""
        from tensix_sfpu.tb.timeline_view import to_perfetto
        return to_perfetto(self._traced(), self.arch, title, first, last)

    def _traced(self) -> RunResult:
        if not self.trace:
            raise ApiError("this run kept no trace: run(..., trace=True) for its timeline")
        return self.run


def _program(program: Listing | Program | str | Path) -> Program:
    if isinstance(program, Listing):
        return program.program
    if isinstance(program, Program):
        return program
    return assemble_program(program)


def initial_state(program: Program, inputs: np.ndarray | None = None, format: str = "fp32",
                  dst: np.ndarray | None = None) -> SfpuState:
    """The state a run starts from: reset on the program's architecture, Dst
    from `dst` (raw uint16[1024][16]) if given, then `inputs` placed where
    SFPLOAD reads them in `format` (row group after row group from address 0)."""
    state = SfpuState(arch=program.arch)
    if dst is not None:
        dst = np.asarray(dst)
        if dst.shape != state.dst.shape or dst.dtype != np.uint16:
            raise ApiError(f"dst: raw uint16 {state.dst.shape} expected, got {dst.dtype} {dst.shape}")
        state.dst = dst.copy()
    if inputs is not None:
        fmt = _format(format)
        values = np.asarray(inputs)
        problem = dst_io.fit_problem(values.size, fmt)
        if problem:
            raise ApiError(f"inputs: {problem}")
        dst_io.put_array(state, fmt, values)
    return state


def _format(name: str) -> dst_io.Format:
    if name not in dst_io.FORMATS:
        raise ApiError(f"format {name!r}: expected one of {', '.join(FORMATS)}")
    return dst_io.FORMATS[name]


def execute(program: Program, state: SfpuState, *, backend: str = "model", strict: bool = True,
            allow: tuple[str, ...] | set[str] | frozenset[str] = (), trace: bool = False,
            dst_given: bool = True) -> RunResult:
    """`program` from `state` on `backend`: the cycle model, or the RTL on a
    simulator with the model in lock-step (its trace and final state the
    RTL's). Without `dst_given` the RTL keeps its reset Dst."""
    _check_backend(backend)
    _check_rules(allow)
    if program.is_threaded and backend != "model":
        raise ApiError(f"backend {backend}: a program of several threads runs on the model only (the RTL's "
                       "configuration port holds one thread's Tensix registers)")
    if backend == "model":
        try:
            return run_program(program, state, strict=strict, allow=set(allow), keep_trace=trace)
        except (NotImplementedError, LookupError, ImportError) as e:
            if program.arch is isa.DEFAULT_ARCH:
                raise                # the default architecture's model is whole: a bug, let it show
            raise NotModelledError(f"{program.name}: not modelled on {program.arch.title} yet: "
                                   f"{type(e).__name__}: {e}") from None
    from tensix_sfpu.tb.sims import rtl_run, runner
    try:
        return rtl_run.run_program(backend, program, state.dst if dst_given else None, strict=strict,
                                   allow=set(allow))
    except runner.RunnerError as e:
        raise ApiError(str(e)) from None


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise ApiError(f"backend {backend!r}: expected one of {', '.join(BACKENDS)}")


def _check_rules(allow) -> None:
    unknown = [r for r in allow if r not in RULES]
    if unknown:
        raise ApiError(f"allow {unknown[0]}: {unknown_rule(unknown[0])}")


def run(program: Listing | Program | str | Path, *, inputs: np.ndarray | None = None, format: str = "fp32",
        dst: np.ndarray | None = None, backend: str = "model", strict: bool = True,
        allow: tuple[str, ...] | list[str] = (), trace: bool = False) -> Result:
    """Run a compiled kernel (a `Listing`), a `Program`, or a program's file
    or text from reset. `inputs` (numbers, a multiple of 32) are placed in
    Dst in `format` (see `FORMATS`: fp32, int32, uint32, fp16b, fp16,
    uint16); `result.output` has what the kernel stored there, in the same
    format and shape. With `strict` (the default) a hazard or undefined
    behaviour stops the run; `allow` names hazard rules that only report.
    The stop's message (and an RTL backend's report of a difference) names
    the C++ file and line of a compiled kernel's instruction, as `sfpu run` does."""
    from tensix_sfpu.tb.sims.rtl_run import RtlMismatch
    prog = _program(program)
    state = initial_state(prog, inputs, format, dst)
    try:
        result = execute(prog, state, backend=backend, strict=strict, allow=tuple(allow), trace=trace,
                         dst_given=inputs is not None or dst is not None)
    except (UndefinedBehaviour, RtlMismatch) as e:
        _name_cxx_lines(e, program)
        raise
    output = None
    if inputs is not None:
        output = dst_io.get_array(result.state, _format(format), np.shape(inputs))
    return Result(prog.arch, output, result.state.dst.copy(), result.state.lregs.copy(), result.cycles,
                  result.instructions, list(result.hazards), list(result.trace), result)


def _name_cxx_lines(error: Exception, program) -> None:
    """Put the C++ file:line of each listing line `error` names before it, as
    `sfpu run` says a stop: from `program` itself if it is a Listing (two
    listings compiled from one header share a name), else from the listing
    compiled or written under the name the message gives (tb.llk.frontend)."""
    message = str(error)
    if isinstance(program, Listing) and isinstance(error, UndefinedBehaviour):
        error.args = (cxx_of_message(message, program),)
    else:
        error.args = (with_cxx_locations(message),)


def kernel_names(arch: str = "wormhole") -> list[str]:
    """The kernels of the kernels package for `arch`, as `measure_kernel` and `sfpu kernels` name them."""
    from tensix_sfpu import kernels
    return list(kernels.all_kernels(_arch(arch)))


def measure_kernel(name: str, *, arch: str = "wormhole", src: str | Path | None = None,
                   backend: str = "model") -> "Measured":
    """What `sfpu kernels NAME` reports, for one kernel: run on the model
    (from its C++ call compiled from `src`, a tt-metal tree, if given and the
    kernel names one; else from its listing), compared with numpy within its
    tolerance (`.accurate`, `.accuracy`), its macro version against its
    non-macro twin (`.twin_same`), its cycles per row group
    (`.run.cycles_per_row`), and with an RTL `backend` its lock-step run
    (`.rtl`)."""
    return measure_kernels([name], arch=arch, src=src, backend=backend)[0]


def measure_kernels(names: list[str] | None = None, *, arch: str = "wormhole", src: str | Path | None = None,
                    backend: str = "model") -> list["Measured"]:
    """`measure_kernel` for each of `names` (every kernel of `arch` without
    them), in one pass: a kernel and its twin run once however many ask."""
    from tensix_sfpu.tb.kernel_measure import measure, run_on_rtl
    chosen = _arch(arch)
    defined = kernel_names(chosen.value)
    unknown = [n for n in names or () if n not in defined]
    if unknown:
        raise ApiError(f"no kernel {unknown[0]!r} on {chosen.title} (there are {', '.join(defined)})")
    _check_backend(backend)
    programs = None
    if src is not None:
        from tensix_sfpu.tb.llk.regenerate import programs_from_source
        try:
            programs = programs_from_source(str(src), list(names or defined), chosen, SRC)
        except ValueError as e:
            raise ApiError(str(e)) from None
    measured = measure(list(names) if names else None, programs, arch=chosen)
    if backend != "model":
        run_on_rtl(measured, backend, chosen)
    return measured


def _arch(name: str) -> isa.Arch:
    try:
        return isa.Arch.parse(name)
    except ValueError as e:
        raise ApiError(f"arch: {e}") from None


RACE_INPUT_SEED = 0x2ACE      # the random Dst a race starts from, when none is given


def race(program: Listing | Program | str | Path, *, inputs: np.ndarray | None = None, format: str | None = None,
         dst: np.ndarray | None = None, max_gap: int = DEFAULT_MAX_GAP, seeds: int = DEFAULT_SEEDS,
         allow: tuple[str, ...] | list[str] = (), dst_spacing: int | None = None,
         base_gaps: dict[tuple[str, int], int] | None = None) -> RaceReport:
    """Does the result depend on timing? Runs `program` once with no idle
    cycles, then with a gap of 1..`max_gap` idle cycles before every
    instruction where one is allowed, every point at which another thread's
    code may run, and `seeds` random schedules (model.race). Dst starts as
    `dst`, then `inputs` in `format` over it; with neither, random values of
    `format` in one tile, or without `format` random bits in all of Dst (a
    fixed seed, so a report repeats). `report.deterministic` is False when
    some schedule changes the final Dst or LRegs; `report.divergences` says
    which schedules, the first cycle that differs and the hazards broken.
    `dst_spacing` is the cycles after a macro-scheduled SFPSTORE in which
    reading its rows is flagged (default 4). `base_gaps` ((thread, index) ->
    idle cycles) is a spacing every schedule keeps, the explored gaps on top:
    `perf(..., keep_events=True).issue_gaps()` gives the pushes' real one,
    with `.listing` the program it is for."""
    prog = _program(program)
    _check_rules(allow)
    if dst is None and inputs is None:
        state = SfpuState(arch=prog.arch)
        rng = np.random.default_rng(RACE_INPUT_SEED)
        if format is not None:
            fmt = _format(format)
            dst_io.put_array(state, fmt, _random_values(fmt, rng))
        else:
            state.dst = rng.integers(0, 1 << 16, size=state.dst.shape, dtype=np.uint16)
    else:
        state = initial_state(prog, inputs, format or "fp32", dst)
    try:
        return explore(prog, state, max_gap=max_gap, seeds=seeds, allow=set(allow), dst_read_spacing=dst_spacing,
                       base_gaps=base_gaps)
    except RaceInputError as e:
        raise ApiError(str(e)) from None


def _random_values(fmt: dst_io.Format, rng: np.random.Generator, count: int = 1024) -> np.ndarray:
    dtype = np.dtype(fmt.dtype)
    if dtype.kind == "f":
        return rng.uniform(-8.0, 8.0, count).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, int(info.max) + 1, count, dtype=dtype)


__all__ = ["ApiError", "BACKENDS", "FORMATS", "NotModelledError", "Result", "assemble_program",
           "compile_kernel", "execute", "initial_state", "kernel_names", "measure_kernel", "measure_kernels", "perf",
           "perf_kernels", "race", "run"]
