"""Run an assembled program on the cycle-exact model and report the result.

Directives in the program take effect at the start of the cycle in which the
next instruction is presented (`.allow` adds hazard rules to report without
stopping, `.mark` notes that cycle). After the last instruction the model runs idle cycles until every
macro-scheduled instruction has run and every result has been written.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from .asm import Directive, Instr, Program
from .contract import Contract
from .cycle import CycleModel
from .silent import LiveValues, wants_live_values
from .waits import WAIT_RELEASE_LAG, is_sync, sfpu_alone_hold
from .hazards import Hazard, HazardError, group_hazards
from .machine import UndefinedBehaviour
from .prng import prng_seed
from .state import LANES, SfpuState
from .trace import CycleRecord


@dataclass
class RunResult:
    state: SfpuState
    cycles: int                # until the last result is written
    issue_cycles: int          # until the last instruction is accepted
    instructions: int
    trace: list[CycleRecord] = field(default_factory=list)
    hazards: list[Hazard] = field(default_factory=list)
    issued_from: dict[int, Instr] = field(default_factory=dict)   # cycle -> source instruction (with the trace)
    marks: dict[str, int] = field(default_factory=dict)           # `.mark NAME` -> cycle
    dst_rows_written: set[int] = field(default_factory=set)       # 16-bit Dst rows, trace or not

    @property
    def warnings(self) -> list[str]:
        return [str(h) for h in self.hazards]


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
    elif d.name in ("rwc_sp", "sfpu_stack_incr", "dest_sp_base"):
        setattr(t, d.name, value)
    elif d.name in ("dest_remap_addrs", "dest_swizzle_32b"):
        setattr(t, d.name, bool(value))
    elif d.name == "lreg":
        values = d.args[1:]
        state.lregs[value] = np.array(values if len(values) == LANES else values * LANES, dtype=np.uint32)
    else:  # the assembler only produces known directives
        raise AssertionError(d.name)


def run_program(program: Program, state: SfpuState | None = None, strict: bool = True,
                allow: set[str] | frozenset[str] = frozenset(), keep_trace: bool = True,
                on_cycle: Callable[[CycleModel, CycleRecord], None] | None = None,
                max_cycles: int | None = None) -> RunResult:
    """Run `program` on the cycle model: directives between cycles, each word
    presented until it is accepted, then idle cycles until the pipelines are
    empty. `on_cycle(model, record)` sees every cycle as it ends (a coverage
    collector hooks in there); `max_cycles` stops a program that runs away.
    Without `keep_trace` nothing per cycle is kept (the trace, `issued_from`),
    so memory does not grow with the program's length.
    Without `state`, the run starts from reset on the program's architecture;
    a given state must be of that architecture."""
    if state is None:
        state = SfpuState(arch=program.arch)
    elif state.arch is not program.arch:
        raise ValueError(f"the program is for {program.arch.title} but the state is {state.arch.title}")
    model = CycleModel(state, strict=strict, allow=set(allow), full_records=keep_trace or on_cycle is not None)
    trace: list[CycleRecord] = []
    issued_from: dict[int, Instr] = {}
    issue_cycles = 0

    def keep(record: CycleRecord) -> None:
        if keep_trace:
            trace.append(record)
        if on_cycle is not None:
            on_cycle(model, record)
        if max_cycles is not None and model.cycle > max_cycles:
            raise RuntimeError(f"{model.context}: still running after {max_cycles} cycles")

    marks: dict[str, int] = {}
    for step in walk(program, model):
        if isinstance(step, Directive):
            if step.name == "mark":
                marks[step.args[0]] = model.cycle
            continue
        keep(step.record)
        if step.record.issued is not None:
            if keep_trace:
                issued_from[step.record.cycle] = step.instr
            issue_cycles = model.cycle
    return RunResult(model.state, model.cycle, issue_cycles, model.issued_instructions, trace,
                     model.hazards, issued_from, marks, model.dst_rows_written)


@dataclass(slots=True)
class Cycle:
    """One cycle of `walk`: the word presented (None: nothing), the model's
    record, and the instruction it came from (None while draining)."""
    word: int | None
    record: CycleRecord
    instr: Instr | None


def walk(program: Program, model: CycleModel) -> Iterator[Directive | Cycle]:
    """Step `model` through `program` as hardware takes it: each directive
    applied to the model's state between cycles and then yielded (a bench
    applies it to its own design then), each word presented until it is
    accepted, then idle cycles until the pipelines are empty; every cycle is
    yielded after the model has stepped it. Draining stops, with the
    macro-left-pending report, when only instruction-kind waits remain.

    Code with a marked body (`.mark body`) and an SFPTRANSP, SFPSWAP or
    SFPLOADMACRO has its LRegs followed for `clobbered-live` (model.silent),
    unless the caller set `model.live`; other code cannot break that rule.

    `.thread` sections run one after another, each thread with Tensix
    registers of its own (RWCs, ADDR_MODs, ...: `ThreadRegisters`); the SFPU
    state is shared. `sfpu race` explores other interleavings (model.race)."""
    threads = ThreadRegisters(model)
    if model.live is None and wants_live_values(program.words) and any(
            isinstance(i, Directive) and i.name == "mark" and i.args[0] == "body" for i in program.items):
        model.live = LiveValues()
    for item in program.items:
        if isinstance(item, Directive):
            if item.name == "thread":
                if threads.started:
                    model.end_of_code()        # the previous thread's code ends here
                threads.enter(item.args[0])
            else:
                take_directive(model, item)
            yield item
            continue
        assert isinstance(item, Instr)
        model.context = f"{item.loc}: {item.text.strip()}"
        if is_sync(item.word):
            yield from wait_cycles(model, item)
            continue
        while True:
            record = model.step(item.word)
            yield Cycle(item.word, record, item)
            if record.issued is not None:
                break
    model.context = "after the last instruction"
    while model.busy:
        if model.stuck:
            model.drain()          # reports macro-left-pending and gives up
            break
        yield Cycle(None, model.step(None), None)
    model.end_of_code()


def wait_cycles(model: CycleModel, item: Instr) -> Iterator[Cycle]:
    """A STALLWAIT/SEMWAIT (or semaphore instruction) of the listing: the
    cycles it holds the thread, each an idle cycle of the SFPU whose record
    names the wait (model.waits: no cycle of its own when nothing holds it)."""
    held = None
    while (reason := sfpu_alone_hold(item.word, model.state.arch, model.busy)) is not None:
        if model.stuck:                # a macro that never runs: the wait would never end
            return
        held = reason
        yield _waiting(model, item, reason)
    for _ in range(WAIT_RELEASE_LAG if held else 0):
        yield _waiting(model, item, f"{held}: the block lifts a cycle after the condition clears")


def _waiting(model: CycleModel, item: Instr, reason: str) -> Cycle:
    record = model.step(None)
    record.waiting, record.stall_reason = item.word, reason
    return Cycle(None, record, item)


def take_directive(model: CycleModel, d: Directive) -> None:
    """A directive as the model takes it between cycles: `.allow` widens the
    rules let through, `.mark` and `.thread` change no state (the caller keeps
    them), the others set Tensix registers or LRegs."""
    if d.name == "allow":
        model.allow.update(d.args)
    elif d.name == "mark":
        if d.args[0] == "body" and model.live is not None:
            model.live.body_begins()        # what is written from here on is the kernel's own
    elif d.name == "contract":
        if model.contract is None:
            model.contract = Contract()
        model.contract.add(*d.args)
    elif d.name == "op":
        model.op_boundary(*d.args, source=f"{d.loc}: {d.text.strip()}")
    elif d.name != "thread":
        apply_directive(model.state, d)
        if d.name == "addr_mod" and d.args[0] == 7 and model.contract is not None:
            model.contract.last_writer["addr_mod7_dst_incr"] = f"{d.loc}: {d.text.strip()}"


class ThreadRegisters:
    """The Tensix registers of each thread (TensixRegs: RWCs, ADDR_MODs, the
    configuration the SFPU reads), swapped into the shared state when a
    thread issues. A thread starts from the registers as they were when the
    first thread was entered (after the set-up directives)."""

    def __init__(self, model: CycleModel):
        self.model = model
        self.regs: dict[str, object] = {}       # the threads not issuing now
        self.initial = None                     # never changed: each new thread gets a copy

    @property
    def started(self) -> bool:
        return self.initial is not None

    def enter(self, name: str) -> None:
        model = self.model
        if self.initial is None:
            self.initial = copy.deepcopy(model.state.tensix)
        elif model.thread == name:
            return
        else:
            self.regs[model.thread] = model.state.tensix
        model.thread = name
        waiting = self.regs.pop(name, None)
        model.state.tensix = waiting if waiting is not None else copy.deepcopy(self.initial)

    def fork(self, model: CycleModel) -> "ThreadRegisters":
        """The same for `model`, a fork of this one's model."""
        twin = ThreadRegisters(model)
        twin.initial = self.initial
        twin.regs = {name: copy.deepcopy(regs) for name, regs in self.regs.items()}
        return twin


def state_to_json(state: SfpuState) -> dict:
    """The final-state record `sfpu run --json` writes (see README)."""
    return {
        "lregs": state.lregs.astype(int).tolist(),
        "lane_flags": state.lane_flags.astype(bool).tolist(),
        "flag_enable": state.use_flags.astype(bool).tolist(),
        "flag_stack": [{"lane_flags": e.lane_flags.astype(bool).tolist(),
                        "flag_enable": e.use_flags.astype(bool).tolist()} for e in state.flag_stack],
        "prng": state.prng.astype(int).tolist(),
        "dst": state.dst.astype(int).tolist(),
    }


def result_to_json(result: RunResult, trace: bool = False) -> dict:
    """The record `sfpu run --json` writes, from whichever backend ran the
    program: its architecture, the final state, the cycle counts, the hazards (one
    entry per rule, sub-unit and program line, with a count) and, with `trace`,
    one record per cycle (see README)."""
    record = {"arch": result.state.arch.value, **state_to_json(result.state)}
    record.update(cycles=result.cycles, issue_cycles=result.issue_cycles, instructions=result.instructions,
                  hazards=[g.to_json() for g in group_hazards(result.hazards)])
    if trace:
        record["trace"] = [r.to_json() for r in result.trace]
    return record


__all__ = ["RunResult", "run_program", "apply_directive", "state_to_json", "result_to_json", "UndefinedBehaviour", "HazardError"]
