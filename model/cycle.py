"""The cycle-exact golden model: the timing contract of docs/timing.md.

`CycleModel.step(word)` advances one cycle with `word` presented by the thread
(or None) and returns that cycle's `CycleRecord`. Within a cycle:

1. SFPLOADMACRO-scheduled instructions whose counter has reached 0 are due on
   their sub-units (Simple, MAD, Round, Store).
2. The thread's word is accepted unless an interlock holds it: the SFPSWAP
   interlock, and on Blackhole also SFPSHFT2 modes 2-4 and the stall after a
   MAD-class instruction whose result it reads (as the stall logic sees it,
   the table's `Opcode.stall_view`, `model.hazards.stall_reads`). A held word is recorded with its reason. An
   accepted word is discarded if a due macro instruction claims its sub-unit.
3. Every executing instruction runs against the state at the start of the
   cycle (each on its own fork) and its effects are replayed at the end of the
   cycle: LReg results of two-cycle instructions (MAD class, SFPSWAP, SFPSHFT2
   modes 2-4) one cycle later, everything else at the end of this cycle.
4. Pending counters count down (per cycle, or per accepted instruction when
   any pending instruction has the instruction delay kind), then an accepted
   SFPLOADMACRO schedules its instructions.
5. The hazard rules of `model.hazards` are checked on what ran, the
   documented ones and those learned from field reports (`FIELD_RULES`):
   each rule's condition is a function there, beside its name and text, and
   this model calls it on the decoded instructions and keeps only the
   bookkeeping a condition needs across cycles.

Several threads may issue to the one SFPU (`thread` names the one presenting
a word); LoadMacroConfig, the pending macro instructions and the LRegs are
shared by all of them, as the ISA documentation has it.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
from dataclasses import dataclass, field

import numpy as np

from . import hazards, isa, tensix
from .hazards import (DST_READ_SPACING, RULES, WARNING_RULES, Finding, Hazard, HazardError, interlocks_next,
                      stall_reads, stall_writes, stalls_after_mad, unknown_rule)
from .isa import Arch, Instruction, LaneConfigBit, Unit, decode
from .machine import Effects, LRegWrite, Machine, apply_effects, word_operands, word_plan
from .reads import lreg_reads
from .contract import Contract, show
from .semantics import Operands
from .silent import CLOBBERING, LiveValues, clobbered_by, declared_reads_of
from .state import LANES, SfpuState
from .trace import CycleRecord, FlagsRecord, LRegWriteRecord, activity, lane_mask, merge_dst_writes

SFPNOP_WORDS = {arch: isa.encode("SFPNOP", arch) for arch in isa.architectures()}
CONFIG_ARRAYS = ("lane_config", "macro_templates", "macro_sequences", "macro_misc")
MACRO_UNITS = isa.MACRO_UNITS       # sequence byte i drives MACRO_UNITS[i]
EXECUTION_ORDER = (Unit.LOAD, Unit.SIMPLE, Unit.MAD, Unit.ROUND, Unit.STORE)
NO_DELAY_FORGET = 7          # a Delay of 7 does not forget a pending instruction
MACRO_CONFIG = ("macro_sequences", "macro_templates", "macro_misc")
# LoadMacroConfig's fields, (offset, mask), from the table's layouts.
SELECT, DELAY, TO_L16, VD_TO_VB = (isa.layout_field(isa.MACRO_SEQUENCE_BYTE, name)
                                   for name in ("select", "delay", "to_l16", "vd_to_vb"))
STORE_MOD0, LOAD_MOD0_FOR_STORE, UNIT_DELAY_KIND = (isa.layout_field(isa.MACRO_MISC, name) for name in (
    "store_mod0", "uses_load_mod0_for_store", "unit_delay_kind"))


def _bits(value, field: tuple[int, int]):
    """Field (offset, mask) of `value`: an int, or a numpy array of them."""
    offset, mask = field
    if isinstance(value, np.ndarray):
        return (value >> value.dtype.type(offset)) & value.dtype.type(mask)
    return (value >> offset) & mask

@dataclass(frozen=True, slots=True)
class _ThreadWord:
    """What `CycleModel.step` needs of a word the thread presents, worked out
    once per word (`_thread_word`): programs repeat their words, so a cycle
    costs one cache look-up instead of a decode and a look-up per question."""
    counters_only: bool              # SETRWC/INCRWC: an issue slot, no sub-unit (model.tensix)
    ins: Instruction | None          # None for counters_only
    x: Operands | None               # its operands as the thread issues it
    unit: Unit | None
    loadmacro: bool                  # SFPLOADMACRO: schedules from LoadMacroConfig
    interlocks: bool                 # only SFPNOP may follow (`interlocks_next`)
    stalls_after_mad: bool           # arms Blackhole's stall after a MAD-class instruction
    backdoor: bool                   # also writes its word into a macro template (VD 12-15)
    machine: tuple | None            # `Machine.execute`'s own plan of the word (model.machine.word_plan)


@functools.lru_cache(maxsize=65536)
def _thread_word(word: int, arch: Arch) -> _ThreadWord:
    """Raises DecodeError, as `decode` does, for a word that is no instruction of `arch`."""
    if tensix.is_issued(word):
        return _ThreadWord(True, None, None, None, False, False, False, False, None)
    ins = decode(word, arch)
    return _ThreadWord(False, ins, word_operands(word, arch), ins.op.unit, ins.mnemonic == "SFPLOADMACRO",
                       interlocks_next(ins), stalls_after_mad(ins), ins.backdoor_index is not None,
                       word_plan(word, arch))


# Sub-units in the order their instructions run within a cycle (`EXECUTION_ORDER`).
_EXECUTION_RANK = {unit: rank for rank, unit in enumerate(EXECUTION_ORDER)}


def _execution_rank(e: "Execution") -> int:
    return _EXECUTION_RANK[e.unit]


@dataclass(slots=True)
class Execution:
    """An instruction executing on a sub-unit in the current cycle."""
    unit: Unit
    x: Operands
    origin: str                       # "thread" or "macro"
    macro_cycle: int | None = None
    source: str = ""                  # the program line of the instruction or of its SFPLOADMACRO
    thread: str = ""                  # the thread that issued it or its SFPLOADMACRO
    tag: object = None                # the caller's name for that issue (CycleModel.tag)
    effects: Effects | None = None
    reads: frozenset[int] | None = None   # worked out only when a hazard check needs it (`_reads`)
    mnemonic: str = field(init=False)

    def __post_init__(self):
        self.mnemonic = self.x.ins.mnemonic

    @property
    def is_nop(self) -> bool:
        return self.mnemonic == "SFPNOP"

    def label(self) -> str:
        return f"{self.origin} {self.mnemonic} on {self.unit.value}"


@dataclass
class Pending:
    """An instruction SFPLOADMACRO scheduled for a sub-unit."""
    unit: Unit
    x: Operands
    counter: int
    by_instructions: bool             # UnitDelayKind: WaitForElapsedInstructions
    macro_cycle: int
    source: str = ""
    thread: str = ""
    tag: object = None


@dataclass
class Landing:
    """LReg writes of a two-cycle instruction, landing at the end of the next cycle."""
    execution: Execution
    writes: list[LRegWrite]


@dataclass
class CycleModel:
    state: SfpuState = field(default_factory=SfpuState)
    strict: bool = True
    allow: set[str] = field(default_factory=set)
    cycle: int = 0
    issued_instructions: int = 0
    pending: list[Pending] = field(default_factory=list)
    hazards: list[Hazard] = field(default_factory=list)
    context: str = ""                 # where the presented word comes from, for error messages
    # False: a cycle's record holds only what the run itself needs (issue,
    # stall, hazards), not the sub-units' work, the LReg and Dst writes or the
    # flags. For runs that keep no trace and look at no record.
    full_records: bool = True
    dst_rows_written: set[int] = field(default_factory=set)     # 16-bit Dst rows, records or not
    thread: str = ""                  # the thread presenting the word (several may share the SFPU)
    tag: object = None                # the caller's name for the word presented, kept on what it schedules
    dst_read_spacing: int = DST_READ_SPACING   # cycles after a macro store in which a read is flagged
    # What the LRegs hold, for the `clobbered-live` rule (model.silent); None: not followed. `walk`
    # sets it for code with a marked body and an SFPTRANSP, SFPSWAP or SFPLOADMACRO (`wants_live_values`).
    live: LiveValues | None = None
    # The state contract between ops (model.contract), from the listing's `.contract` directives.
    contract: Contract | None = None

    def __post_init__(self):
        # The machine only reports undefined behaviour; whether it stops the run
        # is decided here, like every other hazard (so `.allow undefined` works).
        self.machine = Machine(self.state, strict=False)
        self._landing: list[Landing] = []
        self._previous: list[Execution] = []        # what started in the previous cycle
        self._interlock: str | None = None          # the thread's SFPSWAP (or BH SFPSHFT2 2-4) of last cycle
        self._mad: Instruction | None = None        # Blackhole: the thread's MAD-class instruction of last cycle
        self._backdoor_changed = False              # the previous cycle changed DISABLE_BACKDOOR_LOAD
        self._last_record: CycleRecord | None = None
        self.features = self.state.arch.features    # the state's architecture never changes
        # For the rules from field reports:
        self._config_writer: dict[tuple[str, int | None], tuple[str, str]] = {}   # -> (thread, source)
        self._misc_used = True            # an SFPLOADMACRO was issued since Misc was last written
        self._armed_reported = False
        self._macro_store_rows: dict[int, int] = {}      # 16-bit Dst row -> cycle a macro SFPSTORE last wrote it
        for rule in self.allow:
            if rule not in RULES:
                raise ValueError(f"{rule!r}: {unknown_rule(rule)}")

    # -- public ---------------------------------------------------------------

    def fork(self) -> CycleModel:
        """An independent copy to try a what-if on (the stimulus generator's
        repair loop runs one per candidate instruction): the state and every
        list or counter a step changes are copied; instructions, operands,
        executions and the records of past cycles are shared, as no step
        changes them once made. Several times faster than a deep copy."""
        twin = copy.copy(self)
        twin.state = self.state.fork()          # LRegs, Dst and the Tensix counters duplicated
        for name in CONFIG_ARRAYS:              # `apply_effects` writes these in place
            setattr(twin.state, name, getattr(self.state, name).copy())
        # A directive (model.run.apply_directive) changes an AddrMod slot in place.
        twin.state.tensix.addr_mods = [copy.copy(slot) for slot in self.state.tensix.addr_mods]
        twin.machine = Machine(twin.state, strict=False)
        twin.allow = set(self.allow)
        twin.pending = [dataclasses.replace(p) for p in self.pending]     # their counters count down
        twin.hazards = list(self.hazards)
        twin.dst_rows_written = set(self.dst_rows_written)
        twin._config_writer = dict(self._config_writer)
        twin._macro_store_rows = dict(self._macro_store_rows)
        twin._landing = list(self._landing)
        twin.live = copy.deepcopy(self.live)
        twin.contract = copy.deepcopy(self.contract)
        twin._previous = list(self._previous)
        if self._last_record is not None:      # draining reports a stuck macro into it
            twin._last_record = dataclasses.replace(self._last_record, hazards=list(self._last_record.hazards))
        return twin

    @property
    def executed(self) -> list[Execution]:
        """What ran in the cycle just stepped, with its effects."""
        return self._previous

    def timing_key(self) -> bytes:
        """A digest of everything that decides what happens from here on: the
        architectural state, the pending macro instructions with their
        counters, the results in flight and the interlocks. Two runs of one
        program with equal keys before the same instruction go on identically
        (`model.race` stops exploring a schedule there)."""
        st = self.state
        h = hashlib.blake2b(digest_size=16)
        for array in (st.lregs, st.lane_flags, st.use_flags, st.prng, st.lane_config, st.macro_templates,
                      st.macro_sequences, st.macro_misc, st.shft2_captured_vc, st.dst):
            h.update(array.tobytes())
        for entry in st.flag_stack:
            h.update(repr(entry.masks()).encode())
        h.update(repr(dataclasses.astuple(st.tensix)).encode())
        h.update(repr([(p.unit.value, p.x.ins.word, p.x.vd, p.x.vb, p.x.vc, p.x.store_addr, p.counter,
                        p.by_instructions, p.thread) for p in self.pending]).encode())
        for land in self._landing:
            for w in land.writes:
                h.update(bytes([w.reg]) + w.mask.tobytes() + w.values.tobytes())
        h.update(repr((self._interlock, self._mad.word if self._mad else None, self._backdoor_changed,
                       [(e.unit.value, e.x.ins.word) for e in self._previous], self._misc_used,
                       sorted(self._macro_store_rows.items()), sorted(self._config_writer.items()))).encode())
        return h.digest()

    @property
    def busy(self) -> bool:
        """Work remains: macro instructions pending or results in flight."""
        return bool(self.pending or self._landing)

    def step(self, word: int | None) -> CycleRecord:
        """Advance one cycle with `word` presented by the thread (None: nothing)."""
        c = self.cycle
        rec = CycleRecord(c)
        self._record = rec
        start = self.state

        due = self._take_due()
        plan = _thread_word(word, start.arch) if word is not None else None
        # SETRWC/INCRWC take the issue slot but no sub-unit (model.tensix).
        counters_only = plan is not None and plan.counters_only
        ins = plan.ins if plan is not None else None
        reason = self._stall_reason(word, ins) if word is not None else None
        accepted = word is not None and reason is None
        if word is not None and not accepted:
            rec.stalled = word
            rec.stall_reason = reason
        executions = [self._macro_execution(p) for p in due.values()] if due else []
        thread = None
        if accepted:
            rec.issued = word
            self.issued_instructions += 1
        if accepted and ins is not None:
            unit = plan.unit
            # Positional: a third cheaper than by keyword, on every cycle.
            thread = Execution(unit, plan.x, "thread", None, self.context, self.thread, self.tag)
            if unit in due:
                self._hazard("discarded", unit, f"{ins.mnemonic} from the thread was discarded: "
                             f"{due[unit].x.ins.mnemonic} from the SFPLOADMACRO of cycle "
                             f"{due[unit].macro_cycle} runs on {unit.value}")
                thread = None
            else:
                executions.append(thread)
        if len(executions) > 1:
            executions.sort(key=_execution_rank)
        if self.full_records:
            for e in executions:
                rec.units[e.unit.value] = activity(e.unit.value, e.x, e.origin, e.macro_cycle)

        # SFPLOADMACRO schedules from LoadMacroConfig as it is at the start of the cycle.
        config = _MacroConfig.of(start) if thread is not None and plan.loadmacro else None
        # Every rule is about an instruction that runs: a cycle running none only lands results.
        if executions:
            self._check_before(executions, thread)
            self._check_field_rules_before(executions, thread)
        # Only the Simple sub-unit changes the flags, the stack and LaneConfig.
        before = _Observed(start) if Unit.SIMPLE in [e.unit for e in executions] else None
        direct = self._execute(executions, thread, plan)
        self._commit(executions, direct, before)
        if executions:
            self._check_after(executions)
            self._check_field_rules_after(executions)
            self._report_silent(executions)
        self._count_down(accepted and not counters_only)    # only SFPU instructions count
        if config is not None:
            self._check_shared_config(thread, config)
            self._misc_used = True
            self._schedule(thread, config)
        if accepted and counters_only:
            tensix.apply(self.state.tensix, word)

        self._previous = executions
        self._interlock = ins.mnemonic if thread is not None and plan.interlocks else None
        self._mad = ins if thread is not None and plan.stalls_after_mad else None
        self.cycle += 1
        self._last_record = rec
        return rec

    @property
    def stuck(self) -> bool:
        """Only instruction-kind waits remain and nothing is in flight: no idle
        cycle can make progress, so draining ends here."""
        return (all(p.counter > 0 for p in self.pending) and self._instruction_kind_pending()
                and not self._landing)

    def drain(self, on_cycle=None) -> list[CycleRecord]:
        """Run idle cycles until nothing is pending or in flight; `on_cycle(self,
        record)` sees each one as it ends."""
        records = []
        while self.busy:
            if self.stuck:
                # Reported in the last cycle that ran.
                self._record = self._last_record or CycleRecord(self.cycle)
                names = ", ".join(f"{p.x.ins.mnemonic} on {p.unit.value}" for p in self.pending)
                self._hazard("macro-left-pending", None, f"{names} still wait for SFPU instructions")
                self.pending.clear()
                break
            records.append(self.step(None))
            if on_cycle is not None:
                on_cycle(self, records[-1])
        return records

    # -- the steps of a cycle -------------------------------------------------

    def _stall_reason(self, word: int, ins: Instruction | None) -> str | None:
        """Why the thread's word is held this cycle, or None if it is accepted."""
        if self._interlock is not None and word != SFPNOP_WORDS[self.state.arch]:
            return f"only SFPNOP may follow {self._interlock}"
        if self._mad is not None and ins is not None:
            regs = stall_reads(ins) & stall_writes(self._mad)
            if regs:
                named = _regs(regs) if len(regs) <= 4 else f"{len(regs)} LRegs"
                return f"{ins.mnemonic} reads {named}, written by {self._mad.mnemonic} in flight"
        return None

    def _take_due(self) -> dict[Unit, Pending]:
        due: dict[Unit, Pending] = {}
        if not self.pending:
            return due
        ready = [p for p in self.pending if p.counter == 0]
        if ready:
            self.pending = [p for p in self.pending if p.counter != 0]
        for p in ready:
            # The forget rule keeps this from happening: all counters count
            # together, so two instructions due together had equal counts when
            # the later was scheduled, and the earlier was forgotten (a Delay of
            # 7 forgets nothing, but every pending count is below 7 by then).
            assert p.unit not in due, "two macro instructions due on one sub-unit"
            due[p.unit] = p
        return due

    def _macro_execution(self, p: Pending) -> Execution:
        return Execution(p.unit, p.x, "macro", p.macro_cycle, p.source, p.thread, p.tag)

    def _execute(self, executions: list[Execution], thread: Execution | None, plan: _ThreadWord | None) -> bool:
        """Run each instruction against the start-of-cycle state. The last
        instruction of the cycle writes the state directly (a two-cycle one has
        its LRegs put back, as its results land a cycle later): nothing after
        it reads the start-of-cycle state. Each one before it runs on its own
        fork, as the last would otherwise see its writes, and `_commit`
        replays the effects of all of them in order (the last's again, so on
        a conflict the younger still wins). Returns whether the lone
        instruction of the cycle wrote the state directly (then there is
        nothing to replay)."""
        if not executions:
            return False
        m = self.machine
        start = self.state
        last = executions[-1]
        late = self._landing and self._reads_in_second_cycle(last)
        for e in executions if late else executions[:-1]:
            if self._writes_nothing(e, thread, plan):
                m.state = start
                self._run(e, thread, plan)
            else:
                self._run_on_fork(e, thread, plan)
        m.state = start
        if late:
            return False
        saved = start.lregs.copy() if last.x.ins.latency > 1 else None
        self._run(last, thread, plan)
        if saved is not None:
            start.lregs[...] = saved
        return len(executions) == 1

    @staticmethod
    def _writes_nothing(e: Execution, thread: Execution | None, plan: _ThreadWord | None) -> bool:
        """An SFPNOP changes no state, so it needs no fork (macro sequences
        schedule many): from a macro, or from the thread unless its word also
        writes a macro template by the backdoor."""
        return e.is_nop and (e is not thread or not plan.backdoor)

    def _run_on_fork(self, e: Execution, thread: Execution | None, plan: _ThreadWord | None) -> None:
        """Run `e` on a fork of the state (`_commit` replays its effects)."""
        m = self.machine
        start = self.state
        m.state = start.fork(writes_dst=False)
        if e.unit is Unit.STORE:
            # The Store sub-unit, the only one that writes Dst, runs last in
            # the cycle: nothing after it reads Dst, so it writes in place.
            m.state.dst = start.dst
        if self._reads_in_second_cycle(e) and self._landing:
            # Its reads happen at T+1, after last cycle's MAD results land.
            for land in self._landing:
                for w in land.writes:
                    np.copyto(m.state.lregs[w.reg], w.values, where=w.mask)
        self._run(e, thread, plan)

    def _run(self, e: Execution, thread: Execution | None, plan: _ThreadWord | None) -> None:
        m = self.machine
        # The machine's `where` stays empty: the hazard names the cycle, unit and line.
        n_warnings = len(m.warnings)
        e.effects = m.execute_planned(thread.x.ins.word, plan.machine) if e is thread else m.execute_operands(e.x)
        for message in m.warnings[n_warnings:]:
            self._hazard("undefined", e.unit, message, e.source)

    def _reads_in_second_cycle(self, e: Execution) -> bool:
        """Blackhole SFPSWAP in SWAP mode (Mod1 0) compares nothing: it reads
        VC and VD only in its second cycle (SFPSWAP.md, SFPMAD.md)."""
        return self.features.swap_late_reads and e.mnemonic == "SFPSWAP" and e.x.ins["mod1"] == 0

    def _commit(self, executions: list[Execution], direct: bool, before: "_Observed | None") -> None:
        """Land this cycle's writes on the state, and queue the two-cycle results."""
        st = self.state

        # Results of last cycle's two-cycle instructions land first and this
        # cycle's writes follow, so on a conflict (a hazard) the younger wins.
        writes = [(l.execution, w) for l in self._landing for w in l.writes]
        landed = bool(writes)
        self._landing = []
        for e in executions:
            if e.x.ins.latency > 1:
                if e.effects.lreg_writes:
                    self._landing.append(Landing(e, e.effects.lreg_writes))
            else:
                writes += [(e, w) for w in e.effects.lreg_writes]
        # Directly, this cycle's writes are in place already; under landed
        # results they are made again after them, as the younger.
        self._land_lreg_writes(writes, apply=not direct or landed)
        if not direct:
            for e in executions:
                # The Store sub-unit wrote Dst in place (`_execute`).
                apply_effects(st, e.effects, lregs=False, dst=e.unit is not Unit.STORE)

        rec = self._record
        for e in executions:
            if e.effects.dst_writes:
                self.dst_rows_written.update(w.row for w in e.effects.dst_writes)
        if self.full_records:
            rec.dst_writes = merge_dst_writes((w.row, w.col_mask, w.values)
                                             for e in executions for w in e.effects.dst_writes)
        if before is None:
            self._backdoor_changed = False
            return
        after = _Observed(st)
        self._backdoor_changed = after.backdoor != before.backdoor
        if not self.full_records:
            return
        if after.flags_changed(before):
            rec.flags = FlagsRecord(*after.flags)
        if after.stack_changed(before):
            rec.stack = tuple(FlagsRecord(*entry) for entry in after.stack)

    def _land_lreg_writes(self, writes: list[tuple[Execution, LRegWrite]], apply: bool) -> None:
        """Apply LReg writes in order, flag two instructions writing one lane,
        and record the merged result per register."""
        lr = self.state.lregs
        if apply:
            for _, w in writes:
                np.copyto(lr[w.reg], w.values, where=w.mask)
        if len(writes) < 2 and not self.full_records:
            return                  # no conflict possible, no record to make
        lanes_by_reg: dict[int, np.ndarray] = {}
        writer: dict[int, tuple[np.ndarray, Execution]] = {}     # lanes written so far, last writer
        for e, w in writes:
            if w.reg in writer:
                lanes, other = writer[w.reg]
                self._report(hazards.write_conflict(w.reg, other, lanes, e, w.mask))
            lanes_by_reg[w.reg] = lanes_by_reg[w.reg] | w.mask if w.reg in lanes_by_reg else w.mask
            writer[w.reg] = (lanes_by_reg[w.reg], e)
        if self.full_records:
            self._record.lreg_writes = [
                LRegWriteRecord(reg, lane_mask(mask), tuple(np.where(mask, lr[reg], 0).tolist()))
                for reg, mask in sorted(lanes_by_reg.items())]

    def _count_down(self, accepted: bool) -> None:
        if accepted or not self._instruction_kind_pending():
            for p in self.pending:
                p.counter -= 1

    def _instruction_kind_pending(self) -> bool:
        return any(p.by_instructions for p in self.pending)

    # -- SFPLOADMACRO ---------------------------------------------------------

    def _schedule(self, thread: Execution, config: "_MacroConfig") -> None:
        """Schedule the macro's instructions from LoadMacroConfig as it was at
        the start of the cycle (lane 0's copy; the others must agree)."""
        ins = thread.x.ins
        macro, mod0 = ins["macro"], ins["mod0"]
        vd, imm10 = ins.operand("vd"), ins.operand("imm10")
        address = thread.effects.load_address
        for step in _macro_plan(config, macro):
            for rule, message in step.config_hazards:
                self._hazard(rule, step.unit.value, message)
            if step.select == 0:
                continue           # schedules nothing, and forgets nothing (docs/timing.md)
            if step.delay != NO_DELAY_FORGET:
                self.pending = [p for p in self.pending if not (p.unit == step.unit and p.counter == step.delay)]
            for rule, message in step.template_hazards:
                self._hazard(rule, step.unit.value, message)
            if step.template is None:
                continue
            if step.unit == Unit.STORE:
                x = _store_operands(step.template.word, step.byte, vd, mod0, imm10, macro, config.misc, address,
                                    config.arch)
            else:
                x = _override_operands(step.template.word, config.arch, step.byte, vd)
            self.pending.append(Pending(step.unit, x, step.delay, step.by_instructions, self.cycle, self.context,
                                        self.thread, self.tag))

    # -- hazards ----------------------------------------------------------------

    def _check_before(self, executions: list[Execution], thread: Execution | None) -> None:
        """The documented rules on what starts this cycle, before it runs."""
        if self._landing:
            self._report(*hazards.read_in_flight(executions, self._landing, self._reads, self._reads_in_second_cycle,
                                                 self.features.mad_stall))
        simple = rnd = mad = None          # at most one instruction runs on each sub-unit
        for e in executions:
            if e.unit is Unit.SIMPLE:
                simple = e
            elif e.unit is Unit.ROUND:
                rnd = e
            elif e.unit is Unit.MAD:
                mad = e
        if simple:
            self._report(hazards.simple_round_vd16(simple, rnd), hazards.swap_mad_nop(simple, mad))
        for prev in self._previous:
            self._report(*hazards.swap_next_cycle(prev, simple, rnd))
            if prev.mnemonic == "SFPSHFT2" and prev.x.ins.two_cycles:
                self._report(*hazards.shft2_next_cycle(prev, executions, self._reads))
        self._report(hazards.config_backdoor_next(thread, self._backdoor_changed))

    def _reads(self, e: Execution) -> frozenset[int]:
        """The LRegs `e` reads, from the state at the start of the cycle (the
        hazard checks run before anything executes)."""
        if e.reads is None:
            e.reads = lreg_reads(e.x, self.state)
        return e.reads

    def _check_after(self, executions: list[Execution]) -> None:
        """The documented rules on what this cycle wrote."""
        for prev in self._previous:
            if prev.mnemonic == "SFPSHFT2":
                self._report(*hazards.shft2_next_cycle_writes(prev, executions))

    # -- rules from field reports (model.hazards.FIELD_RULES) -------------------

    def _check_field_rules_before(self, executions: list[Execution], thread: Execution | None) -> None:
        self._report(*hazards.ten_2932(executions, self.state))
        if not self._armed_reported:            # once per write of Misc
            found = hazards.armed_macro_config(thread, self.features, self.state, self._misc_used,
                                               self._misc_writer)
            if found is not None:
                self._armed_reported = True
                self._report(found)

    def _check_field_rules_after(self, executions: list[Execution]) -> None:
        for e in executions:
            effects = e.effects
            if effects.config_writes:
                for w in effects.config_writes:
                    if w.name in MACRO_CONFIG:
                        self._config_writer[(w.name, w.index)] = (e.thread, e.source)
                        if w.name == "macro_misc":
                            self._misc_used, self._armed_reported = False, False
            if effects.dst_rows_read is not None and self._macro_store_rows:
                self._report(hazards.dst_read_after_macro_store(e, self._macro_store_rows, self.cycle,
                                                                self.dst_read_spacing))
            if e.origin == "macro" and effects.dst_writes:
                for w in effects.dst_writes:
                    self._macro_store_rows[w.row] = self.cycle

    def _check_shared_config(self, thread: Execution, config: "_MacroConfig") -> None:
        """An SFPLOADMACRO scheduling from LoadMacroConfig that another thread's code wrote last."""
        if all(writer == thread.thread for writer, _ in self._config_writer.values()):
            return          # one thread's code (the usual case): no part was written by another
        macro = thread.x.ins["macro"]
        used = [("macro_sequences", macro), ("macro_misc", None)]
        for step in _macro_plan(config, macro):
            if step.select >= 4:
                used.append(("macro_templates", step.select - 4))
        self._report(*hazards.shared_macro_config(thread, used, self._config_writer))

    # -- silent effects (model.silent) -------------------------------------------

    def _report_silent(self, executions: list[Execution]) -> None:
        contract_reads = self.contract is not None and bool(self.contract.at_entry)
        for e in executions:
            # What it reads, from its word when the thread issued it (cached), for the contract and `live`.
            reads = ((declared_reads_of(e.x.ins) if e.origin == "thread" else self._reads(e))
                     if contract_reads or self.live is not None else frozenset())
            if self.contract is not None:
                if contract_reads:
                    self.contract.read(reads)
                self.contract.wrote(e.effects, e.source)
            for rule, detail in e.effects.silent:
                self._hazard(rule, e.unit.value, f"{e.label()} {detail}", e.source)
            if self.live is not None:
                writes = clobbered_by(e.x) if e.mnemonic in CLOBBERING else {w.reg for w in e.effects.lreg_writes}
                for reg, label, source, cycle, writer in self.live.observe(e.mnemonic, e.label(), e.source,
                                                                          self.cycle, reads, writes):
                    self._hazard("clobbered-live", e.unit.value, f"{e.label()} reads L{reg}, which {label} at "
                                 f"{source or '?'} overwrote in cycle {cycle}; the value it held (from {writer}) "
                                 "was set before the kernel's body, so the code treats it as still there", e.source)

    def op_boundary(self, where: str, index: int, name: str, source: str) -> None:
        """`.op entry|return N NAME`: at an entry, what the call found; at a
        return, every part of the contract the op leaves otherwise, once its
        results in flight have landed (`state-left-changed`)."""
        if self.contract is None:
            return
        if where == "entry":
            self.contract.enter(self.state)
            return
        settled = self.fork()
        settled.contract, settled.live = None, None
        settled.drain()
        self._record = self._last_record or CycleRecord(self.cycle)
        broken = [f"{part} = {show(part, got)} where the op after it expects {show(part, want)} (last written at "
                  f"{writer})" for part, want, got, writer in self.contract.broken(settled.state)]
        if broken:
            self._hazard("state-left-changed", None, f"{name} returns with " + "; ".join(broken), source)

    def end_of_code(self) -> None:
        """A thread's code ends here (the kernel returns): report the macro
        configuration it leaves armed and never used."""
        found = hazards.armed_macro_config_at_end(self.thread, self.features, self.state, self._misc_used,
                                                  self._misc_writer)
        if found is not None:
            self._record = self._last_record or CycleRecord(self.cycle)
            self._report(found)

    def _misc_writer(self) -> str:
        """The program line that last wrote LoadMacroConfig.Misc."""
        return self._config_writer.get(("macro_misc", None), ("", "?"))[1]

    def _report(self, *found: Finding | None) -> None:
        """Report what a rule's condition (model.hazards) found, in order; None: nothing."""
        for f in found:
            if f is not None:
                self._hazard(f.rule, f.unit, f.message, f.source)

    def _hazard(self, rule: str, unit, message: str, source: str | None = None) -> None:
        unit_name = unit.value if isinstance(unit, Unit) else unit
        allowed = rule in self.allow
        hazard = Hazard(rule, self._record.cycle, unit_name, message, allowed,
                        self.context if source is None else source)
        self._record.hazards.append(hazard)
        self.hazards.append(hazard)
        if self.strict and not allowed and rule not in WARNING_RULES:
            raise HazardError(hazard)


class _Observed:
    """The parts of the state whose changes a cycle's record reports. The flag
    arrays and the stack list are replaced when they change, never written in
    place (SfpuState.fork), so references are kept and masks are computed
    only for what was replaced; LaneConfig is written in place, so its
    backdoor bit is kept as an integer."""

    def __init__(self, state: SfpuState):
        self.lane_flags, self.use_flags, self.stack_list = state.lane_flags, state.use_flags, state.flag_stack
        self.backdoor = state.lane_config_mask(LaneConfigBit.DISABLE_BACKDOOR_LOAD)

    @property
    def flags(self) -> tuple[int, int]:
        return lane_mask(self.lane_flags), lane_mask(self.use_flags)

    @property
    def stack(self) -> tuple[tuple[int, int], ...]:
        return tuple(e.masks() for e in self.stack_list)

    def flags_changed(self, before: "_Observed") -> bool:
        if self.lane_flags is before.lane_flags and self.use_flags is before.use_flags:
            return False
        return self.flags != before.flags

    def stack_changed(self, before: "_Observed") -> bool:
        return self.stack_list is not before.stack_list and self.stack != before.stack


@dataclass(frozen=True)
class _MacroConfig:
    """LoadMacroConfig as it was at the start of the SFPLOADMACRO's cycle, as
    bytes: a snapshot, and the key under which its plans are kept."""
    sequences: bytes
    templates: bytes
    misc_lanes: bytes
    arch: Arch

    @classmethod
    def of(cls, state: SfpuState) -> "_MacroConfig":
        return cls(state.macro_sequences.tobytes(), state.macro_templates.tobytes(), state.macro_misc.tobytes(),
                   state.arch)

    @property
    def misc(self) -> int:
        """Lane 0's LoadMacroConfig.Misc."""
        return int.from_bytes(self.misc_lanes[:4], "little")


@dataclass(frozen=True)
class _MacroStep:
    """What one sequence byte of an SFPLOADMACRO schedules on one sub-unit,
    and the hazards it reports, whatever the macro's own operands are."""
    unit: Unit
    byte: int
    delay: int
    select: int
    by_instructions: bool            # UnitDelayKind: WaitForElapsedInstructions
    config_hazards: tuple[tuple[str, str], ...] = ()     # (rule, message), before anything is forgotten
    template_hazards: tuple[tuple[str, str], ...] = ()   # after the forget rule
    template: Instruction | None = None                  # None: nothing is scheduled


@functools.lru_cache(maxsize=1024)
def _macro_plan(config: _MacroConfig, macro: int) -> tuple[_MacroStep, ...]:
    """The steps of Sequence[macro] under `config`, worked out once per configuration."""
    sequences = np.frombuffer(config.sequences, dtype=np.uint32).reshape(4, LANES)
    templates = np.frombuffer(config.templates, dtype=np.uint32).reshape(4, LANES)
    misc = np.frombuffer(config.misc_lanes, dtype=np.uint32)
    steps = []
    for i, unit in enumerate(MACRO_UNITS):
        lane_bytes = (sequences[macro] >> np.uint32(8 * i)) & np.uint32(0xFF)
        byte = int(lane_bytes[0])
        delay, select = _bits(byte, DELAY), _bits(byte, SELECT)
        kinds = (misc >> np.uint32(UNIT_DELAY_KIND[0] + i)) & np.uint32(1)
        config_hazards = _uniformity_hazards(unit, lane_bytes, kinds, templates, misc, select, macro)
        template_hazards, template = _macro_template(unit, byte, select, templates, macro, config.arch)
        steps.append(_MacroStep(unit, byte, delay, select, bool(kinds[0]), config_hazards, template_hazards,
                                template))
    return tuple(steps)


def _uniformity_hazards(unit: Unit, lane_bytes, kinds, templates, misc, select: int,
                        macro: int) -> tuple[tuple[str, str], ...]:
    if unit == Unit.STORE:
        stores = _bits(lane_bytes, SELECT) != 0
        if stores.any() and not stores.all():
            return (("store-not-all-lanes", f"Sequence[{macro}] schedules a store in lanes {_lanes(stores)} only"),)
    parts = [lane_bytes, kinds]
    if select >= 4:
        parts.append(templates[select - 4])
    if unit == Unit.STORE:
        parts.append(misc & np.uint32((STORE_MOD0[1] << STORE_MOD0[0]) | (1 << (LOAD_MOD0_FOR_STORE[0] + macro))))
    for values in parts:
        if not (values == values[0]).all():
            return (("macro-config-not-uniform",
                     f"Sequence[{macro}] byte, delay kind, template or store Mod0 differ between lanes"),)
    return ()


def _macro_template(unit: Unit, byte: int, select: int, templates, macro: int,
                    arch: Arch) -> tuple[tuple[tuple[str, str], ...], Instruction | None]:
    """The instruction a sequence byte selects for `unit` (before
    SFPLOADMACRO's overrides), or None with the hazard that says why not."""
    if select == 0:
        return (), None
    if select == 1:
        return (("macro-select-reserved", f"Sequence[{macro}] byte 0x{byte:02X} selects 1"),), None
    if select == 2:
        template = decode(SFPNOP_WORDS[arch], arch)
    elif select == 3:
        template = decode(isa.encode("SFPSTORE", arch, vd=0), arch)
    else:
        word = int(templates[select - 4][0])
        try:
            template = decode(word, arch)
        except isa.DecodeError as error:
            return (("macro-template-invalid", f"InstructionTemplate[{select - 4}] = 0x{word:08X}: {error}"),), None
    if unit not in template.op.macro_units:
        if unit == Unit.STORE:
            return (("macro-store-not-sfpstore",
                     f"Sequence[{macro}] gives the Store sub-unit {template.mnemonic}; nothing is scheduled"),), None
        template = decode(SFPNOP_WORDS[arch], arch)
    return (), template


@functools.lru_cache(maxsize=65536)
def _override_operands(template_word: int, arch: Arch, byte: int, vd: int) -> Operands:
    """Simple/MAD/Round: bit 7 routes the loaded VD to VB (else to VC), the
    other of VB/VC falls back to the template's VD if the instruction has no
    such field, and bit 6 sends the result to L16."""
    template = decode(template_word, arch)
    t_vd = template.get("vd", 0)
    vb, vc = template.field_register("vb"), template.field_register("vc")
    if _bits(byte, VD_TO_VB):
        vb = vd
        vc = t_vd if vc is None else vc
    else:
        vc = vd
        vb = t_vd if vb is None else vb
    return Operands(template, 16 if _bits(byte, TO_L16) else vd, vb, vc, macro=True)


@functools.lru_cache(maxsize=65536)
def _store_operands(template_word: int, byte: int, vd: int, mod0: int, imm10: int, macro: int, misc: int,
                    address: int, arch: Arch) -> Operands:
    """Store: bit 6 reads L16, bit 7 keeps the template's VD, else the loaded
    VD; Mod0 is the macro's or Misc.StoreMod0 (`misc`: lane 0's Misc); the
    address is the one the SFPLOADMACRO computed, and no ADDR_MOD applies."""
    store_mod0 = mod0 if misc >> (LOAD_MOD0_FOR_STORE[0] + macro) & 1 else _bits(misc, STORE_MOD0)
    store_vd = 16 if _bits(byte, TO_L16) else decode(template_word, arch)["vd"] if _bits(byte, VD_TO_VB) else vd
    word = isa.encode("SFPSTORE", arch, vd=store_vd & 15, mod0=store_mod0, imm10=imm10)
    return Operands(decode(word, arch), store_vd, macro=True, store_addr=address)


def _lanes(mask: np.ndarray) -> str:
    return ",".join(str(i) for i in np.flatnonzero(mask))


def _regs(regs) -> str:
    return ", ".join(f"L{r}" for r in sorted(regs))
