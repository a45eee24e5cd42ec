"""A kernel of the kernels package measured as `sfpu kernels` reports it: run
on the golden model, compared with numpy, with its non-macro twin, and
optionally run in lock-step on an RTL backend."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from tensix_sfpu import kernels
from tensix_sfpu.model import tensix
from tensix_sfpu.model.isa import DEFAULT_ARCH, TENSIX_ISSUED, Arch, decode, opcode_of


@dataclass
class Measured:
    """One kernel's run, its agreement with numpy (`accurate`, and `accuracy`
    in words), whether its twin left the same Dst (None without a twin), the
    mnemonics it used, its RTL run in words, and whether it ran from its
    C++ source rather than its hand listing."""
    kernel: kernels.Kernel
    run: kernels.KernelRun
    accurate: bool
    accuracy: str
    twin_same: bool | None
    instructions: list[str]
    rtl: str = "not run"
    from_source: bool = False


def instructions_used(run: kernels.KernelRun) -> list[str]:
    """Mnemonics the thread issued and the sub-units ran (macro instructions included)."""
    names = set()
    for rec in run.result.trace:
        if rec.issued is not None:
            names.add(TENSIX_ISSUED[opcode_of(rec.issued)] if tensix.is_issued(rec.issued)
                      else decode(rec.issued, run.result.state.arch).mnemonic)
        names.update(a.mnemonic for a in rec.units.values())
    replayed = any(i.replayed_by is not None for i in run.result.issued_from.values())
    return sorted(names) + (["REPLAY"] if replayed else [])


def measure(names: list[str] | None = None, programs: dict | None = None,
            *, arch: Arch) -> list[Measured]:
    """Each kernel of `arch` on the model; `programs` replaces the listing of the kernels it
    names (e.g. the listings generated from their C++ source, tb.llk.regenerate)."""
    sys.set_int_max_str_digits(0)
    table = kernels.all_kernels(arch)
    runs: dict[str, kernels.KernelRun] = {}
    programs = programs or {}

    def run(name):
        if name not in runs:
            runs[name] = kernels.run_kernel(table[name], program=programs.get(name))
        return runs[name]

    out = []
    for name in names or list(table):
        k = table[name]
        r = run(name)
        ok, how = kernels.check_accuracy(r)
        same = (np.array_equal(r.result.state.dst, run(k.twin).result.state.dst) if k.twin else None)
        out.append(Measured(k, r, ok, how, same, instructions_used(r), from_source=name in programs))
    return out


def run_on_rtl(measured: list[Measured], backend: str, arch: Arch) -> None:
    """Lock-step of every kernel of `arch` on `backend`, one simulation each (a failure names its kernel)."""
    from tensix_sfpu.tb.sims import runner
    tail = "" if arch is DEFAULT_ARCH else f":0:{arch.value}"
    for m in measured:
        outcomes = runner.run(backend, ["lockstep"], {"SFPU_PROGRAMS": f"kernel:{m.kernel.name}{tail}"}, arch=arch)
        ok = bool(outcomes) and all(o.passed for o in outcomes)
        m.rtl = f"identical on {backend}" if ok else f"DIFFERS on {backend}: {outcomes[0].message if outcomes else ''}"
