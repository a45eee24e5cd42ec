"""Run an assembled program on the functional model and report the final state.

Directives in the program set the Tensix registers at the point where they
appear. Cycles follow the issue rules of the timing contract: one instruction
per cycle, plus one stall cycle when SFPSWAP is followed by anything other
than SFPNOP (the hardware interlock).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .asm import Directive, Instr, Program
from .isa import decode
from .machine import Machine, UndefinedBehaviour
from .prng import prng_seed
from .state import LANES, SfpuState

SFPNOP_WORD = 0x8F000000


@dataclass
class RunResult:
    state: SfpuState
    cycles: int
    instructions: int
    warnings: list[str] = field(default_factory=list)


def apply_directive(state: SfpuState, d: Directive) -> None:
    t = state.tensix
    value = d.args[0]
    if d.name == "fp32_dest":
        t.fp32_dest = bool(value)
    elif d.name == "srcb_format":
        t.srcb_format = value
    elif d.name == "rwc_dst":
        t.rwc_dst = t.rwc_dst_cr = value
    elif d.name == "dest_offset":
        t.dest_offset = value
    elif d.name == "dest_base":
        t.dest_base = value
    elif d.name == "addr_mod_base":
        t.addr_mod_set_base = bool(value)
    elif d.name == "addr_mod":
        slot = t.addr_mods[value]
        for key, v in d.options:
            current = getattr(slot, key)
            setattr(slot, key, bool(v) if isinstance(current, bool) else v)
    elif d.name == "prng_seed":
        state.prng = prng_seed(value)
    elif d.name == "lreg":
        values = d.args[1:]
        state.lregs[value] = np.array(values if len(values) == LANES else values * LANES, dtype=np.uint32)
    else:  # the assembler only produces known directives
        raise AssertionError(d.name)


def macro_schedules_anything(state: SfpuState, word: int) -> bool:
    macro = decode(word)["macro"]
    return bool((state.macro_sequences[macro] & np.uint32(0x07070707)).any())


def run_program(program: Program, state: SfpuState | None = None, strict: bool = True) -> RunResult:
    machine = Machine(state, strict=strict)
    cycles = instructions = 0
    previous_was_swap = False
    for item in program.items:
        if isinstance(item, Directive):
            apply_directive(machine.state, item)
            continue
        assert isinstance(item, Instr)
        mnemonic = decode(item.word).mnemonic
        if previous_was_swap and item.word != SFPNOP_WORD:
            cycles += 1          # SFPSWAP interlock: only SFPNOP is accepted right after it
        machine.where = f"{item.loc} (cycle {cycles}, {item.text})"
        machine.execute(item.word)
        if mnemonic == "SFPLOADMACRO" and macro_schedules_anything(machine.state, item.word):
            machine.undefined("SFPLOADMACRO schedules instructions; their timing is modelled by the cycle "
                              "model, not the functional run (only the load was performed)")
        cycles += 1
        instructions += 1
        previous_was_swap = mnemonic == "SFPSWAP"
    return RunResult(machine.state, cycles, instructions, machine.warnings)


def state_to_json(state: SfpuState, cycles: int | None = None) -> dict:
    """The final-state record `sfpu run --json` writes (see README)."""
    out = {
        "lregs": state.lregs.astype(int).tolist(),
        "lane_flags": state.lane_flags.astype(bool).tolist(),
        "flag_enable": state.use_flags.astype(bool).tolist(),
        "flag_stack": [{"lane_flags": e.lane_flags.astype(bool).tolist(),
                        "flag_enable": e.use_flags.astype(bool).tolist()} for e in state.flag_stack],
        "prng": state.prng.astype(int).tolist(),
        "dst": state.dst.astype(int).tolist(),
    }
    if cycles is not None:
        out["cycles"] = cycles
    return out


__all__ = ["RunResult", "run_program", "apply_directive", "state_to_json", "UndefinedBehaviour"]
