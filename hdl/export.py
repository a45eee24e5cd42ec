"""Verilog export of the synthesisable components, by name.

`COMPONENTS` is the one list to extend: (name, module, class, keyword
arguments). A component whose module does not exist yet (being written in
parallel), or that fails to import, is left out of `registry()` and its reason
kept in `unavailable()`, so `sfpu verilog`, `make lint` and `make synth` work
on whatever is there and never fail on a missing file.

The Verilog module of a component is named after its registry name, so that
lint and synthesis can use the name as the top.
"""

from __future__ import annotations

import gc
import importlib
import warnings
from collections.abc import Callable
from functools import lru_cache

from amaranth.back import verilog as _verilog
from amaranth.hdl import UnusedElaboratable

#: The top of the RTL, what `sfpu verilog` writes without --component.
TOP = "Sfpu"

#: (registry name, module under hdl, class name, constructor keyword arguments)
COMPONENTS: list[tuple[str, str, str, dict]] = [
    ("Sfpu",          "sfpu",         "Sfpu",          {}),
    ("Decoder",       "decoder",      "Decoder",       {}),
    ("LRegFile",      "sfpu",         "lreg_file",     {}),     # with the top's write-back ports
    ("FlagUnit",      "flags",        "FlagUnit",      {}),
    ("Prng",          "prng",         "Prng",          {}),
    ("Fma",           "fma",          "Fma",           {}),
    ("LutSelect",     "lut",          "LutSelect",     {}),
    ("LutFp32Select", "lut",          "LutFp32Select", {}),
    ("StochRound",    "rounding",     "StochRound",    {}),
    ("CastToFp32",    "rounding",     "CastToFp32",    {}),
    ("LoadConvert",   "dst_convert",  "LoadConvert",   {}),
    ("StoreConvert",  "dst_convert",  "StoreConvert",  {}),
    ("SimpleAlu",     "simple_alu",   "SimpleAlu",     {}),
    ("MacroScheduler", "scheduler",   "MacroScheduler", {}),
    # The sub-units and the state around them.
    ("MadUnit",       "mad_unit",     "MadUnit",       {}),
    ("RoundUnit",     "round_unit",   "RoundUnit",     {}),
    ("SimpleUnit",    "simple_unit",  "SimpleUnit",    {}),
    ("LoadUnit",      "load_store",   "LoadUnit",      {}),
    ("StoreUnit",     "load_store",   "StoreUnit",     {}),
    ("Dst",           "dst",          "Dst",           {}),
    ("TensixRegs",    "tensix",       "TensixRegs",    {}),
    ("ConfigRegs",    "config_regs",  "ConfigRegs",    {}),
]


class ExportError(Exception):
    """An unknown or unavailable component, or one that fails to elaborate; the message says which."""


@lru_cache(maxsize=1)
def _scan() -> tuple[dict[str, Callable], dict[str, str]]:
    """Import each listed module once: (factories, reasons for the rest)."""
    factories: dict[str, Callable] = {}
    reasons: dict[str, str] = {}
    for name, module, cls_name, kwargs in COMPONENTS:
        where = f"hdl/{module}.py"
        try:
            mod = importlib.import_module(f"hdl.{module}")
        except ModuleNotFoundError as e:
            if e.name == f"hdl.{module}":
                reasons[name] = f"{where} does not exist yet"
            else:
                reasons[name] = f"{where} cannot be imported: {e}"
            continue
        except Exception as e:  # a module being edited may not even parse
            reasons[name] = f"{where} cannot be imported: {type(e).__name__}: {e}"
            continue
        cls = getattr(mod, cls_name, None)
        if cls is None:
            reasons[name] = f"{where} has no class {cls_name} yet"
            continue
        factories[name] = (lambda cls=cls, kwargs=kwargs: cls(**kwargs))
    return factories, reasons


def registry() -> dict[str, Callable]:
    """Available components: name -> zero-argument factory, in list order."""
    return dict(_scan()[0])


def unavailable() -> dict[str, str]:
    """Listed components that cannot be built now: name -> why."""
    return dict(_scan()[1])


def verilog(name: str) -> str:
    """The Verilog of component `name`, its top module named `name`."""
    factories, reasons = _scan()
    if name not in factories:
        if name in reasons:
            raise ExportError(f"component {name!r} is not available: {reasons[name]}")
        known = ", ".join(factories) or "none"
        raise ExportError(f"no component named {name!r} (available: {known})")
    try:
        return _verilog.convert(factories[name](), name=name)
    except Exception as e:  # RTL under construction: report it, no traceback in the CLI
        detail = str(e) if len(str(e)) <= 300 else str(e)[:300] + "..."
        message = f"component {name!r} failed to elaborate: {type(e).__name__}: {detail}"
    # The half-built design is garbage now; collect it quietly rather than have
    # Amaranth warn about each of its never-elaborated parts after our message.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnusedElaboratable)
        gc.collect()
    raise ExportError(message)
