"""The state contract between ops: what a kernel must leave as it found it.

Compute kernels chain ops on one thread (init A, call A, init B, call B), and
each op relies on state it does not set itself: the constants the SFPI
compiler assumes, the LaneConfig and predication the caller set up, the
macro configuration disarmed. A kernel that changes one of them breaks the op
after it, never itself. A listing states the contract with directives (the
front end writes tt-llk's, tb/llk/state_contract.py):

    .contract L11 = 0xBF800000    every op returns with L11 holding this
    .contract L12 keep            a call that reads it returns with what it found (its init's value)
    .op entry 1 TEXT              op 1's call starts here (TEXT names it)
    .op return 1 TEXT             ... and returns here: check the contract

At each return the model reports `state-left-changed` for every part left
otherwise, with the expected and actual values and the line that wrote it
last. Like the silent effects it is a warning (`--allow` silences it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import isa
from .state import SfpuState

# LoadMacroConfig.Misc's UnitDelayKind bits (SFPLOADMACRO.md): set, a macro is armed.
_KIND_OFFSET, _KIND_MASK = isa.layout_field(isa.MACRO_MISC, "unit_delay_kind")
UNIT_DELAY_KIND_BITS = _KIND_MASK << _KIND_OFFSET


def _uniform(values: np.ndarray) -> int | None:
    """The value every lane holds, or None when lanes differ."""
    return int(values[0]) if (values == values[0]).all() else None


# The parts of the state a contract can name, each read as one integer (None: lanes differ).
READERS: dict[str, Callable[[SfpuState], int | None]] = {
    **{f"L{r}": (lambda st, r=r: _uniform(st.lregs[r])) for r in range(15)},
    "lane_config": lambda st: _uniform(st.lane_config),
    "macro_misc_delay_kind": lambda st: _uniform(st.macro_misc & UNIT_DELAY_KIND_BITS),
    "lanes_enabled": lambda st: int(np.count_nonzero(st.lane_enabled())),
    "flag_stack_depth": lambda st: len(st.flag_stack),
    "addr_mod7_dst_incr": lambda st: st.tensix.addr_mods[7].dst_incr,
}


class ContractError(ValueError):
    pass


def check_name(name: str) -> None:
    if name not in READERS:
        raise ContractError(f"no contract register {name!r} (known: L0-L14, "
                            f"{', '.join(n for n in READERS if not n.startswith('L'))})")


@dataclass
class Contract:
    """The contract a listing states, and what each op found at its entry."""
    expected: dict[str, int | None] = field(default_factory=dict)   # None: the call keeps it
    at_entry: dict[str, int | None] = field(default_factory=dict)
    last_writer: dict[str, str] = field(default_factory=dict)       # part -> the source that wrote it last
    at_return: dict[str, int | None] | None = None                  # at the last op's return
    relied: set[str] = field(default_factory=set)       # kept parts the call read before writing them
    rewritten: set[str] = field(default_factory=set)    # parts the call has written

    def add(self, name: str, value: int | None) -> None:
        check_name(name)
        self.expected[name] = value

    def enter(self, state: SfpuState) -> None:
        self.at_entry = {name: READERS[name](state) for name, value in self.expected.items() if value is None}
        self.relied, self.rewritten = set(), set()

    def read(self, regs) -> None:
        """The call read these LRegs: a kept part read before the call wrote it is one it relies on."""
        for r in regs:
            name = f"L{r}"
            if name in self.at_entry and name not in self.rewritten:
                self.relied.add(name)

    def broken(self, state: SfpuState) -> list[tuple[str, int | None, int | None, str]]:
        """(part, expected, actual, last writer) for every part the op leaves otherwise. A part an
        earlier op broke and this one left as it was is that op's, already reported."""
        out = []
        now = {name: READERS[name](state) for name in self.expected}
        for name, value in self.expected.items():
            if value is None and name not in self.relied:
                continue            # the call does not read what its init set: it owns the part
            want = self.at_entry.get(name) if value is None else value
            if now[name] != want and (self.at_return is None or self.at_return[name] != now[name]):
                out.append((name, want, now[name], self.last_writer.get(name, "before the code")))
        self.at_return = now
        return out

    def wrote(self, effects, source: str) -> None:
        """Note who changed what, from one execution's effects (machine.Effects)."""
        for w in effects.lreg_writes:
            self.last_writer[f"L{w.reg}"] = source
            self.rewritten.add(f"L{w.reg}")
        for w in effects.config_writes:
            if w.name == "lane_config":
                self.last_writer["lane_config"] = source
            elif w.name == "macro_misc":
                self.last_writer["macro_misc_delay_kind"] = source
        if effects.flags is not None or effects.stack is not None:
            self.last_writer["lanes_enabled"] = source
        if effects.stack is not None:
            self.last_writer["flag_stack_depth"] = source


def show(name: str, value: int | None) -> str:
    if value is None:
        return "a value that differs between lanes"
    if name.startswith("L") or name == "lane_config":
        return f"0x{value:08X}"
    return str(value)
