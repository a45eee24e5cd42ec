"""SFPU kernels: tt-llk's Wormhole instruction schedules as programs of our
assembly (`kernels/*.s`), each with the inputs it runs on, the numpy function
it computes and how closely it must agree (docs/kernels.md).

Each module of this package lists its kernels in `KERNELS`; `all_kernels(arch)`
collects them. A kernel runs on one 32 x 32 tile of Dst unless it says
otherwise: `prepare` writes its inputs into a fresh state, `result` reads
what it wrote, and `reference` is numpy on the inputs. A program marks the
start of its body with `.mark body`; its cycles per row group are counted
from there to the cycle its last result is written.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from tensix_sfpu.model.asm import Program, assemble_file
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.run import RunResult, run_program
from tensix_sfpu.model.state import SfpuState

KERNEL_DIR = Path(__file__).resolve().parent      # the listings sit beside their definitions
TILE_ROW_GROUPS = 32      # a 32 x 32 tile: four 16 x 16 faces of eight 32-lane row groups


@dataclass(frozen=True)
class Accuracy:
    """How a kernel's output must agree with numpy: bit-exact, or within
    `rtol` relative and `atol` absolute error, for the reason given."""
    exact: bool
    rtol: float = 0.0
    atol: float = 0.0
    why: str = ""

    def describe(self) -> str:
        if self.exact:
            return "bit-exact"
        parts = [f"rel. {self.rtol:g}" if self.rtol else "", f"abs. {self.atol:g}" if self.atol else ""]
        return " + ".join(p for p in parts if p) or "any"


@dataclass(frozen=True)
class LlkSource:
    """The C++ call a kernel comes from, for the front end (`sfpu llk`, tb/llk):
    the header's file name in a tt-metal/tt-llk tree, the call and init
    expressions, preprocessor definitions, and what the caller sets up outside
    the kernel. `allow` lists the hazard rules its hand listing allows too."""
    header: str
    call: str
    init: str | None = None
    defines: tuple[str, ...] = ()
    fp32_dest: int | None = 1
    srcb_format: int | None = None
    setup: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()
    vector_mode: str = "rc"                       # faces the caller runs it on (tb/llk/frontend.py)
    # Where the header's results differ in layout or meaning from the hand listing's (the
    # 0.81.1 typecasts and column reduces): how the generated kernel's outputs are read, and
    # what numpy computes for it. None: the kernel's own `result` / `reference`.
    result: Callable[[SfpuState], np.ndarray] | None = None
    reference: Callable[[np.ndarray], np.ndarray] | None = None
    # What regenerating it from tt-metal's ttnn 0.81.1 wheel gave (docs/llk.md): whether the
    # SFPU words equal the hand listing's, and why not where they differ.
    regenerated: str = ""


@dataclass(frozen=True)
class Kernel:
    name: str
    source: str                                    # file in kernels/
    llk: str                                       # the tt-llk function and variant it reproduces
    prepare: Callable[[SfpuState, np.random.Generator], np.ndarray]   # write inputs to Dst, return them
    result: Callable[[SfpuState], np.ndarray]      # the outputs, read from Dst
    reference: Callable[[np.ndarray], np.ndarray]  # what numpy computes from the inputs
    accuracy: Accuracy
    rows: int = TILE_ROW_GROUPS                    # 32-lane row groups the body processes
    cycles_per_row: float | None = None            # what the schedule gives, by our own count
    claimed_cycles_per_row: float | None = None    # what the tt-llk source claims, where it does
    claim: str = ""                                # where that claim is made
    timing_note: str = ""                          # why measured and claimed differ, if they do
    summary: str = ""                              # the reason behind a surprising number, in one line
    twin: str | None = None                        # a kernel that must leave Dst bit-identical
    strict: bool = True                            # run the model in strict mode (every rule obeyed)
    compare: Callable[[np.ndarray, np.ndarray], tuple[bool, str]] | None = None   # replaces `accuracy`
    # docs/kernels.md: what the kernel does and any choice made, in a few sentences; for a
    # macro kernel the source's schedule table retyped as markdown, and which body cycles
    # (from `.mark body`) of our timeline to show next to it.
    notes: str = ""
    source_schedule: str = ""
    timeline: tuple[int, int] | None = None
    llk_source: LlkSource | None = None               # the C++ call it can be generated from instead
    arch: Arch = field(kw_only=True)                  # the architecture its listing is for

    @property
    def path(self) -> Path:
        return KERNEL_DIR / self.source


@dataclass
class KernelRun:
    kernel: Kernel
    inputs: np.ndarray
    outputs: np.ndarray
    expected: np.ndarray
    result: RunResult

    @property
    def body_cycles(self) -> int:
        return self.result.cycles - self.result.marks["body"]

    @property
    def cycles_per_row(self) -> float:
        return self.body_cycles / self.kernel.rows


@cache
def all_kernels(arch: Arch) -> dict[str, Kernel]:
    """The kernels of `arch` by name (a Blackhole kernel may share its Wormhole twin's name)."""
    table: dict[str, Kernel] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for k in getattr(module, "KERNELS", ()):
            if k.arch is not arch:
                continue
            if k.name in table:
                raise ValueError(f"kernel {k.name!r} is defined twice")
            table[k.name] = k
    return table


def issue_slots_per_row(source: str, rows: int = TILE_ROW_GROUPS) -> float:
    """Our own count for a listing without stalls (Wormhole's thread never
    stalls; the SFPNOPs are written out): one issue cycle per instruction
    after `.mark body`, over the row groups it processes."""
    lines = (KERNEL_DIR / source).read_text().splitlines()
    body = lines[lines.index(".mark body") + 1:]
    return sum(1 for line in body if line.strip() and not line.startswith(("#", "."))) / rows


@cache
def _program(path: Path) -> Program:
    return assemble_file(str(path))


def prepared(kernel: Kernel, seed: int = 0, program: Program | None = None) -> tuple[Program, SfpuState, np.ndarray]:
    """The kernel's program (its hand listing unless another is given, e.g. one
    generated from its source by tb.llk.regenerate), a state holding its inputs,
    and the inputs."""
    program = program or _program(kernel.path)
    state = SfpuState(arch=program.arch)          # a kernel generated for Blackhole runs on Blackhole
    inputs = kernel.prepare(state, np.random.default_rng([seed, 0x5F0]))
    return program, state, inputs


def run_kernel(kernel: Kernel, seed: int = 0, program: Program | None = None) -> KernelRun:
    """Run on the cycle model. A `program` given is the one generated from the kernel's
    source call, whose outputs are read and checked as that call says (LlkSource)."""
    generated = program is not None
    program, state, inputs = prepared(kernel, seed, program)
    src = kernel.llk_source if generated else None
    allow = set(src.allow) if src else set()
    result = run_program(program, state, strict=kernel.strict, allow=allow)
    if "body" not in result.marks:
        raise ValueError(f"{kernel.path}: no `.mark body` line")
    read = src.result if src and src.result else kernel.result
    reference = src.reference if src and src.reference else kernel.reference
    return KernelRun(kernel, inputs, read(result.state), reference(inputs), result)


def check_accuracy(run: KernelRun) -> tuple[bool, str]:
    """Whether the outputs agree with numpy as the kernel requires, and how closely."""
    k = run.kernel
    if k.compare is not None:
        return k.compare(run.outputs, run.expected)
    got, want = np.asarray(run.outputs).ravel(), np.asarray(run.expected).ravel()
    if got.shape != want.shape:
        return False, f"shape {got.shape}, expected {want.shape}"
    if k.accuracy.exact:
        # Bit patterns, so that a NaN or a -0 must match too.
        bad = np.flatnonzero(_bits(got) != _bits(want))
        if len(bad):
            i = bad[0]
            return False, f"{len(bad)} of {len(got)} differ; first at {i}: {got[i]!r}, expected {want[i]!r}"
        return True, "bit-exact"
    g, w = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    err = np.where(both_nan, 0.0, np.abs(g - w))
    limit = k.accuracy.atol + k.accuracy.rtol * np.abs(w)
    bad = np.flatnonzero(~(err <= limit))
    finite = np.isfinite(w) & (np.abs(w) >= np.finfo(np.float32).tiny)     # normal results only
    worst = float(np.max(err[finite] / np.abs(w[finite]))) if finite.any() else 0.0
    if len(bad):
        i = bad[0]
        return False, (f"{len(bad)} of {len(g)} outside {k.accuracy.describe()}; first at {i}: input "
                       f"{run.inputs.flat[i]!r} gave {g[i]!r}, numpy {w[i]!r}")
    return True, f"max rel. error {worst:.3g}"


def _bits(values: np.ndarray) -> np.ndarray:
    values = np.ascontiguousarray(values).ravel()
    return values.view(f"u{values.dtype.itemsize}") if values.dtype.kind == "f" else values


__all__ = ["Accuracy", "Kernel", "LlkSource", "KernelRun", "issue_slots_per_row", "all_kernels", "prepared", "run_kernel", "check_accuracy",
           "KERNEL_DIR", "TILE_ROW_GROUPS"]
