"""Verilog export of the synthesisable components, by name.

`COMPONENTS` is the one list to extend: (name, module, class, keyword
arguments). Every listed component must exist: a module that is missing or
does not import, or a class it does not define, is an error of the list
(`ExportError` from `registry()` and `verilog()`), never skipped quietly.

The Verilog module of a component is named after its registry name, so that
lint and synthesis can use the name as the top.
"""

from __future__ import annotations

import gc
import importlib
import inspect
import warnings
from collections.abc import Callable
from functools import lru_cache

from amaranth.back import verilog as _verilog
from amaranth.hdl import UnusedElaboratable

from tensix_sfpu.model.isa import Arch

#: The top of the RTL, what `sfpu verilog` writes without --component.
TOP = "Sfpu"

#: (registry name, module under hdl, class name, constructor keyword arguments)
COMPONENTS: list[tuple[str, str, str, dict]] = [
    ("Sfpu",          "sfpu",         "Sfpu",          {}),
    ("Decoder",       "decoder",      "Decoder",       {}),
    ("IssueStage",    "issue",        "IssueStage",    {}),
    ("TraceRecorder", "trace",        "TraceRecorder", {}),
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
    """An unknown component, a listed one that does not exist, or one that fails to elaborate; the message says which."""


@lru_cache(maxsize=1)
def _scan() -> dict[str, Callable]:
    """Import each listed module once: name -> factory of the architecture
    (which only a component that differs between them takes), in list order."""
    factories: dict[str, Callable] = {}
    for name, module, cls_name, kwargs in COMPONENTS:
        where = f"hdl/{module}.py"
        try:
            mod = importlib.import_module(f"{__package__}.{module}")
        except ModuleNotFoundError as e:
            what = "does not exist" if e.name == f"{__package__}.{module}" else f"cannot be imported: {e}"
            raise ExportError(f"component {name!r} is listed but {where} {what}") from e
        cls = getattr(mod, cls_name, None)
        if cls is None:
            raise ExportError(f"component {name!r} is listed but {where} has no {cls_name}")
        takes_arch = "arch" in inspect.signature(cls).parameters
        factory = (lambda arch, cls=cls, kwargs=kwargs, takes_arch=takes_arch:
                   cls(**kwargs, **({"arch": arch} if takes_arch else {})))
        factory.takes_arch = takes_arch
        factories[name] = factory
    return factories


def arch_components() -> list[str]:
    """The components that differ between the architectures (they take `arch`)."""
    return [name for name, factory in _scan().items() if factory.takes_arch]


def registry() -> dict[str, Callable]:
    """Every listed component: name -> factory of `arch` (which only some use), in list order."""
    return dict(_scan())


def verilog(name: str, arch: Arch) -> str:
    """The Verilog of component `name` for `arch`, its top module named `name`."""
    factories = _scan()
    if name not in factories:
        raise ExportError(f"no component named {name!r} (components: {', '.join(factories)})")
    try:
        return _verilog.convert(factories[name](arch), name=name)
    except Exception as e:  # report it as one message, no traceback in the CLI
        detail = str(e) if len(str(e)) <= 300 else str(e)[:300] + "..."
        message = f"component {name!r} failed to elaborate: {type(e).__name__}: {detail}"
    # The half-built design is garbage now; collect it quietly rather than have
    # Amaranth warn about each of its never-elaborated parts after our message.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnusedElaboratable)
        gc.collect()
    raise ExportError(message)
