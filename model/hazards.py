"""The scheduling rules the cycle model checks, each with a stable name.

A `Hazard` is one violation: the rule's name, the cycle, the sub-unit and a
message. In strict mode the cycle model raises `HazardError` at the first one
that is not allowed; in lenient mode it records each in the cycle's trace
record and carries on as docs/timing.md describes. A program can allow a rule
with the `.allow RULE` directive (the fast-exp kernel needs `swap-mad-nop`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .machine import UndefinedBehaviour

RULES: dict[str, str] = {
    "read-in-flight":
        "an instruction reads an LReg at T+1 that a two-cycle instruction issued at T is still writing",
    "write-conflict":
        "two instructions write the same LReg lane at the end of the same cycle",
    "shft2-next-cycle":
        "the cycle after SFPSHFT2 mode 2, 3 or 4 runs an instruction that mode forbids",
    "simple-round-vd16":
        "Simple and Round both run in one cycle but not exactly one of them has VD = 16",
    "swap-mad-nop":
        "a macro-scheduled SFPSWAP runs without SFPNOP scheduled in the MAD sub-unit for that cycle",
    "swap-next-cycle":
        "the cycle after SFPSWAP runs something other than SFPNOP on the Simple or Round sub-unit",
    "discarded":
        "a macro-scheduled instruction reached the sub-unit of the thread's instruction, which was discarded",
    "macro-select-reserved":
        "a sequence byte selects 1, which is undefined",
    "macro-template-invalid":
        "a sequence byte selects a template that is not an SFPU instruction",
    "macro-store-not-sfpstore":
        "the Store sub-unit is given something other than SFPSTORE",
    "store-not-all-lanes":
        "SFPLOADMACRO schedules a store in some lanes but not in others",
    "macro-config-not-uniform":
        "LoadMacroConfig differs between lanes where SFPLOADMACRO reads it (the model schedules from lane 0)",
    "config-backdoor-next":
        "the instruction after an SFPCONFIG that changed DISABLE_BACKDOOR_LOAD has VD >= 12",
    "macro-left-pending":
        "the program ended with macro-scheduled instructions waiting for instructions that never come",
    "undefined":
        "an instruction's functional model reaches undefined behaviour",
}


@dataclass(frozen=True)
class Hazard:
    rule: str
    cycle: int
    unit: str | None
    message: str
    allowed: bool = False
    source: str = ""          # the program line involved: the thread's instruction or the SFPLOADMACRO

    def __post_init__(self):
        assert self.rule in RULES, self.rule

    def __str__(self) -> str:
        where = f"cycle {self.cycle}" + (f", {self.unit}" if self.unit else "")
        text = f"{where}: {self.rule}: {self.message}"
        return f"{self.source}: {text}" if self.source else text

    def to_json(self) -> dict:
        return {"rule": self.rule, "cycle": self.cycle, "unit": self.unit, "message": self.message,
                "allowed": self.allowed, "source": self.source}


class HazardError(UndefinedBehaviour):
    """Strict mode stopped at a hazard."""

    def __init__(self, hazard: Hazard):
        self.hazard = hazard
        super().__init__(str(hazard))
