"""The scheduling rules the cycle model checks, each with a stable name, its
text and its condition in one place, and Blackhole's interlocks as data.

A rule is declared with `documented` (or `field_rule`, for one learned from
field reports); where the cycle model checks it on what runs in a cycle, the
declaration decorates its condition: a function of the decoded instructions
executing (`Running`, the cycle model's `Execution`) and of the little the
model keeps across cycles, which returns the `Finding`s the model reports.

A `Hazard` is one violation: the rule's name, the cycle, the sub-unit and a
message. In strict mode the cycle model raises `HazardError` at the first one
that is not allowed; in lenient mode it records each in the cycle's trace
record and carries on as docs/timing.md describes. A program can allow a rule
with the `.allow RULE` directive (the fast-exp kernel needs `swap-mad-nop`).

Blackhole A0 stalls the thread where Wormhole B0 leaves the scheduling to
software (BlackholeA0 SFPMAD.md "Instruction scheduling", to which every
MAD-sub-unit instruction's page refers, and SFPSHFT2.md). The stall logic
decides from the instruction words alone, and its view of what an instruction
reads is wrong in a few documented places (the gaps). Both are data in the
ISA table (`Opcode.stall_view`, `stall_gap`); `stall_reads` and `stall_writes`
resolve them for a word, and `GAP_RULES` names the hazard rule reported when a
real read slips through a gap.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .contract import UNIT_DELAY_KIND_BITS
from .isa import ISA, VD_INDEX, Arch, Features, architectures, Instruction, LaneConfigBit, Read, Shft2Mod1, Unit, decode
from .machine import Effects, UndefinedBehaviour, regular_operands
from .reads import EVERY_LREG, word_reads
from .semantics import Operands
from .silent import SILENT_RULES
from .spelling import did_you_mean
from .state import SfpuState

# ---------------------------------------------------------------------------
# The rules: each one's name, text and (where the cycle model checks it on
# what runs in a cycle) its condition, in one place. `RULES` keeps their order,
# which `sfpu run --list-rules` prints and the generator's break recipes
# follow.
# ---------------------------------------------------------------------------

RULES: dict[str, str] = {}


@dataclass(frozen=True)
class Finding:
    """One breach a condition found: the rule (a condition may report a
    narrower one, e.g. a stall gap), the sub-unit, what happened, and the
    program line (None: the line the cycle model is at)."""
    rule: str
    unit: Unit | str | None
    message: str
    source: str | None = None


class Running(Protocol):
    """What a condition sees of an instruction executing this cycle (`model.cycle.Execution`)."""
    unit: Unit
    x: Operands
    origin: str                       # "thread" or "macro"
    mnemonic: str
    source: str                       # its program line, or its SFPLOADMACRO's
    thread: str                       # the thread that issued it or its SFPLOADMACRO
    effects: Effects | None           # once it ran

    @property
    def is_nop(self) -> bool: ...

    def label(self) -> str: ...


def documented(name: str, text: str):
    """Declare the rule `name` with its text; as a decorator, its condition,
    a function of what runs in a cycle that returns its `Finding`s. A rule
    with no condition here says in a comment where it is found."""
    RULES[name] = text

    def condition(check):
        check.rule = name
        return check
    return condition


@documented("read-in-flight",
            "an instruction reads an LReg at T+1 that a two-cycle instruction issued at T is still writing")
def read_in_flight(executions: list[Running], landings, reads: Callable[[Running], frozenset[int]],
                   reads_late: Callable[[Running], bool], mad_stall: bool) -> list[Finding]:
    """Each read, by an instruction starting now, of a register a two-cycle
    result of the previous cycle (`landings`: `model.cycle.Landing`) writes
    only at this cycle's end; with the MAD stall, a thread's read the stall
    logic let through is reported as its gap (`gap_rule`). SFPSHFT2's own
    next cycle is `shft2-next-cycle`'s, and a read in an instruction's second
    cycle (`reads_late`) sees the result."""
    producers = {w.reg: land.execution for land in landings for w in land.writes
                 if land.execution.mnemonic != "SFPSHFT2"}
    found = []
    if not producers:
        return found
    for e in executions:
        if reads_late(e):
            continue
        for reg in sorted(reads(e) & producers.keys()):
            producer = producers[reg]
            name, note = "read-in-flight", ""
            if mad_stall:
                if e.origin == producer.origin == "thread":
                    name = gap_rule(e.x.ins, producer.x.ins)
                    note = "; the stall logic does not see this read"
                else:
                    note = "; instructions of SFPLOADMACRO sequences do not stall"
            found.append(Finding(name, e.unit.value, f"{e.label()} reads L{reg}, which {producer.label()} of the "
                                 f"previous cycle writes only at the end of this cycle{note}", e.source))
    return found


@documented("write-conflict", "two instructions write the same LReg lane at the end of the same cycle")
def write_conflict(reg: int, earlier: Running, earlier_lanes: np.ndarray, later: Running,
                   later_lanes: np.ndarray) -> Finding | None:
    """Two instructions' writes of `reg` landing together in common lanes.
    SFPSHFT2 mode 2 forbids the next cycle to write L1-L3 but not L0: a write
    of L0 then simply replaces the shift's L0 result."""
    if earlier is later or not np.count_nonzero(earlier_lanes & later_lanes):
        return None
    if reg == 0 and earlier.mnemonic == "SFPSHFT2" and earlier.x.ins["mod1"] == 2:
        return None
    return Finding("write-conflict", later.unit, f"L{reg} is written by {earlier.label()} and {later.label()} at "
                   "the end of this cycle; the younger write is kept", later.source)


@documented("shft2-next-cycle", "the cycle after SFPSHFT2 mode 2, 3 or 4 runs an instruction that mode forbids")
def shft2_next_cycle(prev: Running, executions: list[Running],
                     reads: Callable[[Running], frozenset[int]]) -> list[Finding]:
    """What starts in the cycle after a two-cycle SFPSHFT2 (`prev`). Where it
    interlocks (Blackhole), the thread is held after its own and "at least
    one idle cycle" must follow a macro's (SFPSHFT2.md): nothing but SFPNOP
    may start. Elsewhere the forbidden instructions, and the registers mode 2
    (L0-L3) and modes 3-4 (a VD below 8) read."""
    mode = prev.x.ins["mod1"]
    if interlocks_next(prev.x.ins):
        return [Finding("shft2-next-cycle", e.unit.value, f"{e.label()} runs in the cycle after {prev.label()} "
                        f"mode {mode}, which must be idle", e.source) for e in executions if not e.is_nop]
    found = []
    for e in executions:
        if prev.x.ins.op.forbids_next(e.x.ins):       # the table's next_cycle_forbidden
            found.append(Finding("shft2-next-cycle", e.unit.value,
                                 f"{e.label()} runs in the cycle after SFPSHFT2 mode {mode}", e.source))
        elif mode == Shft2Mod1.SHFLROR1_AND_COPY4 and reads(e) & {0, 1, 2, 3}:
            found.append(Finding("shft2-next-cycle", e.unit.value, f"{e.label()} reads "
                                 f"{_regs(reads(e) & {0, 1, 2, 3})} in the cycle after SFPSHFT2 mode 2", e.source))
        elif mode in (Shft2Mod1.SHFLROR1, Shft2Mod1.SHFLSHR1) and prev.x.vd < 8 and prev.x.vd in reads(e):
            found.append(Finding("shft2-next-cycle", e.unit.value, f"{e.label()} reads "
                                 f"L{prev.x.vd} in the cycle after SFPSHFT2 mode {mode}", e.source))
    return found


def shft2_next_cycle_writes(prev: Running, executions: list[Running]) -> list[Finding]:
    """`shft2-next-cycle`'s write side, checked once the cycle ran: after a
    mode 2 that does not interlock, no instruction may write L1-L3."""
    if prev.x.ins["mod1"] != 2 or interlocks_next(prev.x.ins):
        return []        # after an interlocking one the next cycle is idle or reported already
    found = []
    for e in executions:
        regs = {w.reg for w in e.effects.lreg_writes} & {1, 2, 3}
        if regs:
            found.append(Finding("shft2-next-cycle", e.unit.value,
                                 f"{e.label()} writes {_regs(regs)} in the cycle after SFPSHFT2 mode 2", e.source))
    return found


@documented("simple-round-vd16", "Simple and Round both run in one cycle but not exactly one of them has VD = 16")
def simple_round_vd16(simple: Running | None, rnd: Running | None) -> Finding | None:
    if simple and rnd and not simple.is_nop and not rnd.is_nop and (simple.x.vd == 16) == (rnd.x.vd == 16):
        return Finding("simple-round-vd16", None, f"{simple.label()} (VD={simple.x.vd}) and "
                       f"{rnd.label()} (VD={rnd.x.vd}) run together")
    return None


@documented("swap-mad-nop",
            "a macro-scheduled SFPSWAP runs without SFPNOP scheduled in the MAD sub-unit for that cycle")
def swap_mad_nop(simple: Running | None, mad: Running | None) -> Finding | None:
    if simple and simple.mnemonic == "SFPSWAP" and simple.origin == "macro":
        if not (mad and mad.is_nop and mad.origin == "macro"):
            return Finding("swap-mad-nop", Unit.MAD.value, "SFPSWAP scheduled on Simple without SFPNOP "
                           "scheduled on MAD for the same cycle", simple.source)
    return None


@documented("swap-next-cycle",
            "the cycle after SFPSWAP runs something other than SFPNOP on the Simple or Round sub-unit")
def swap_next_cycle(prev: Running, simple: Running | None, rnd: Running | None) -> list[Finding]:
    if prev.mnemonic != "SFPSWAP":
        return []
    return [Finding("swap-next-cycle", e.unit.value, f"{e.label()} runs in the cycle after SFPSWAP", e.source)
            for e in (simple, rnd) if e and not e.is_nop]


# Found in model.cycle: CycleModel.step, where the thread's instruction is accepted.
documented("discarded", "a macro-scheduled instruction reached the sub-unit of the thread's instruction, which was "
           "discarded")
# SFPLOADMACRO's configuration: found as a sequence is planned (model.cycle's `_macro_plan`).
documented("macro-select-reserved", "a sequence byte selects 1, which is undefined")
documented("macro-template-invalid", "a sequence byte selects a template that is not an SFPU instruction")
documented("macro-store-not-sfpstore", "the Store sub-unit is given something other than SFPSTORE")
documented("store-not-all-lanes", "SFPLOADMACRO schedules a store in some lanes but not in others")
documented("macro-config-not-uniform", "LoadMacroConfig differs between lanes where SFPLOADMACRO reads it (the model "
           "schedules from lane 0)")


@documented("config-backdoor-next",
            "the instruction after an SFPCONFIG that changed DISABLE_BACKDOOR_LOAD has VD >= 12")
def config_backdoor_next(thread: Running | None, backdoor_changed: bool) -> Finding | None:
    if thread is None or not backdoor_changed:
        return None
    vd = thread.x.ins.get("vd")
    if vd is not None and vd >= 12:
        return Finding("config-backdoor-next", thread.unit.value, f"{thread.mnemonic} VD={vd} follows an "
                       "SFPCONFIG that changed DISABLE_BACKDOOR_LOAD; the new value is used")
    return None


# Found in model.cycle: CycleModel.drain.
documented("macro-left-pending", "the program ended with macro-scheduled instructions waiting for instructions that "
           "never come")
# Found in model.machine, each instruction's semantics.
documented("undefined", "an instruction's functional model reaches undefined behaviour")
# Blackhole: reads of a MAD-class result in flight that the stall logic does not see (SFPMAD.md's list of
# hardware bugs, SFPLUTFP32.md); `read_in_flight` reports them, as `gap_rule` names them.
documented("stall-gap-use-vb",
           "Blackhole: SFPAND/SFPOR with USE_VB reads, at T+1, a VB an SFPMAD-class instruction of T writes "
           "(the stall logic looks at VD)")
documented("stall-gap-iadd",
           "Blackhole: SFPIADD reads, at T+1, a VD an SFPMAD-class instruction of T writes (the stall logic "
           "does not see that read)")
documented("stall-gap-shft",
           "Blackhole: SFPSHFT reads, at T+1, a VD an SFPMAD-class instruction of T writes (the stall logic "
           "does not see that read)")
documented("stall-gap-config",
           "Blackhole: SFPCONFIG reads, at T+1, an L0 an SFPMAD-class instruction of T writes (the stall logic "
           "does not see that read)")
documented("stall-gap-swap",
           "Blackhole: SFPSWAP (a comparing mode) compares, at T+1, VC or VD an SFPMAD-class instruction of T "
           "writes (the stall logic does not see first-cycle reads)")
documented("stall-gap-shft2",
           "Blackhole: SFPSHFT2 modes 2-6 read, at T+1, an LReg an SFPMAD-class instruction of T writes "
           "(the stall logic sees no read in modes 2-4, and VD instead of VB in modes 5-6)")
documented("stall-gap-lutfp32-mirror",
           "Blackhole: the stall logic takes SFPLUTFP32's INDIRECT_VD from Mod1Mirror, which disagrees with "
           "Mod1, and misses a register really written (or, as the reader, L7 really read)")


# ---------------------------------------------------------------------------
# Rules learned from field reports
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class FieldRule:
    """A hazard known from a bug report rather than from the ISA pages. Each
    cites its reports, states its condition and numbers, and says what is
    inferred (docs/timing.md "Rules from field reports"). Unlike the
    documented rules these never stop a strict run: they are warnings, which
    `--allow` silences."""
    reports: str
    summary: str
    inferred: str


FIELD_RULES: dict[str, FieldRule] = {}


def field_rule(name: str, record: FieldRule):
    """Declare the field-report rule `name`; as a decorator, its condition (see `rule`)."""
    FIELD_RULES[name] = record

    def condition(check):
        check.rule = name
        return check
    return condition


# Instructions that neither use nor are hung by an armed UnitDelayKind.
ARMED_EXEMPT = frozenset({"SFPLOADMACRO", "SFPNOP", "SFPCONFIG"})


@field_rule("armed-macro-config", FieldRule(
    "tt-metal PR#47675 (issue #46751); tt-llk#340",
    "Wormhole: LoadMacroConfig.Misc has a UnitDelayKind bit set (WaitForElapsedInstructions) while an SFPU "
    "instruction other than SFPLOADMACRO, SFPNOP or SFPCONFIG is accepted and no SFPLOADMACRO has been "
    "issued since Misc was last written (the init armed it, the plain path never uses it); or a thread's "
    "code ends with it set",
    "that the hang needs no SFPLOADMACRO in between is inferred from the fix (the fast path, which issues "
    "SFPLOADMACROs under the same Misc, works); the reports give no cycle count; Blackhole tolerates it"))
def armed_macro_config(thread: Running | None, features: Features, state: SfpuState, misc_used: bool,
                       writer: Callable[[], str]) -> Finding | None:
    """The thread's instruction accepted under an armed Misc (lane 0's) that no
    SFPLOADMACRO used since it was written (`writer()`: the line that wrote it)."""
    if thread is None or not features.armed_macro_hazard or misc_used or thread.mnemonic in ARMED_EXEMPT:
        return None
    misc = int(state.macro_misc[0])
    if not misc & UNIT_DELAY_KIND_BITS:
        return None
    return Finding("armed-macro-config", thread.unit.value, f"{thread.mnemonic} runs while "
                   f"LoadMacroConfig.Misc = 0x{misc:03X} has UnitDelayKind armed and no "
                   f"SFPLOADMACRO has used it since it was written ({writer()})", thread.source)


def armed_macro_config_at_end(thread: str, features: Features, state: SfpuState, misc_used: bool,
                              writer: Callable[[], str]) -> Finding | None:
    """`armed-macro-config` where a thread's code ends (the kernel returns)."""
    misc = int(state.macro_misc[0])
    if not features.armed_macro_hazard or misc_used or not misc & UNIT_DELAY_KIND_BITS:
        return None
    return Finding("armed-macro-config", None, f"the code of thread {thread or '(unnamed)'} ends with "
                   f"LoadMacroConfig.Misc = 0x{misc:03X} (UnitDelayKind armed), "
                   f"written at {writer()} and never used by an SFPLOADMACRO")


DST_READ_SPACING = 4       # Dst.md: a written aligned 8x16 block cannot be read for the next 4 cycles


@field_rule("dst-read-after-macro-store", FieldRule(
    "tt-metal#45731, PR#45660, PR#45659",
    f"an SFPLOAD or SFPLOADMACRO reads a Dst row that a macro-scheduled SFPSTORE wrote {DST_READ_SPACING} "
    "or fewer cycles before",
    f"the distance is Dst.md's general rule ({DST_READ_SPACING} cycles after a write, auto-stalled only for "
    "Matrix Unit and packer readers), which speaks of aligned 8x16 blocks; the rule looks only at the rows "
    "written, as the report describes, since blocks would flag every macro pipeline. That a macro store "
    "escapes the scoreboard while a plain SFPSTORE does not is PR#45659's statement; no report gives a "
    "number (the cycle model's `dst_read_spacing`, `sfpu race --dst-spacing`)"))
def dst_read_after_macro_store(e: Running, written_at: dict[int, int], cycle: int,
                               spacing: int) -> Finding | None:
    """The first Dst row `e` reads that a macro SFPSTORE wrote (`written_at`:
    row -> cycle) at most `spacing` cycles before `cycle`."""
    # Each row once, in the order read (a 16-bit read covers 4 rows in 32 lanes, a 32-bit one 8 in 64).
    for row in dict.fromkeys(e.effects.dst_rows_read.tolist()):
        written = written_at.get(row)
        if written is not None and 0 < cycle - written <= spacing:
            return Finding("dst-read-after-macro-store", e.unit.value, f"{e.label()} reads Dst row {row}, "
                           f"which a macro-scheduled SFPSTORE wrote in cycle {written}, {cycle - written} "
                           f"cycle(s) before (at least {spacing + 1} apart)", e.source)
    return None


@field_rule("shared-macro-config", FieldRule(
    "tt-metal PR#50399 (follow-up PR#50661)",
    "an SFPLOADMACRO uses a Sequence, InstructionTemplate or Misc that another thread's code wrote last: "
    "LoadMacroConfig is one per SFPU, shared by every thread (SFPLOADMACRO.md, SFPCONFIG.md)",
    "nothing: the sharing is documented, the failure (SDPA results corrupted) is the report's"))
def shared_macro_config(thread: Running, used: list[tuple[str, int | None]],
                        writers: dict[tuple[str, int | None], tuple[str, str]]) -> list[Finding]:
    """Each part of LoadMacroConfig the SFPLOADMACRO `thread` uses (`used`:
    (array, index)) that another thread's code wrote last (`writers`: -> (thread, line))."""
    macro = thread.x.ins["macro"]
    found = []
    for key in used:
        writer = writers.get(key)
        if writer is not None and writer[0] != thread.thread:
            name = {"macro_sequences": f"Sequence[{macro}]", "macro_misc": "Misc"}.get(
                key[0], f"InstructionTemplate[{key[1]}]")
            found.append(Finding("shared-macro-config", thread.unit.value, f"SFPLOADMACRO of thread "
                                 f"{thread.thread or '(unnamed)'} uses {name}, last written by thread "
                                 f"{writer[0] or '(unnamed)'} at {writer[1]}", thread.source))
    return found


TEN_2932_EXEMPT = frozenset({"SFPLOAD", "SFPLOADI", "SFPSTORE", "SFPLOADMACRO", "SFPCONFIG", "SFPSWAP",
                             "SFPTRANSP", "SFPNOP", "SFPSETCC", "SFPENCC", "SFPPUSHC", "SFPPOPC", "SFPCOMPC"})


@field_rule("ten-2932", FieldRule(
    "erratum TEN-2932, as tenstorrent/ttsim src/tensix.cpp refuses it (Wormhole and Blackhole)",
    "an SFPU instruction writes its result to L4-L7 while LaneConfig's ENABLE_DEST_INDEX is set; exempt: "
    "SFPLOAD, SFPLOADI, SFPSTORE, SFPLOADMACRO, SFPCONFIG, SFPSWAP, and the instructions whose VD must be "
    "0 (SFPTRANSP, SFPNOP, SFPSETCC, SFPENCC, SFPPUSHC, SFPPOPC, SFPCOMPC)",
    "ttsim checks LaneConfig as one value; here the bit counts if it is set in any lane. What the "
    "hardware writes is 'architecturally undefined' (ttsim), so the model's result there is not trusted"))
def ten_2932(executions: list[Running], state: SfpuState) -> list[Finding]:
    # The instructions first: most cycles have none that could break it, and LaneConfig costs more to read.
    writers = [e for e in executions if e.mnemonic not in TEN_2932_EXEMPT and 4 <= e.x.vd <= 7]
    if not writers or not state.lane_config_mask(LaneConfigBit.ENABLE_DEST_INDEX):
        return []
    return [Finding("ten-2932", e.unit.value, f"{e.label()} writes L{e.x.vd} while LaneConfig's "
                    "ENABLE_DEST_INDEX is set: the result written is undefined", e.source) for e in writers]


RULES.update({name: f"{rule.summary} [field report: {rule.reports}]" for name, rule in FIELD_RULES.items()})
RULES.update({name: f"{rule.summary} [{rule.page}]" for name, rule in SILENT_RULES.items()})

# The state contract between ops (model.contract).
CONTRACT_RULES = {"state-left-changed": "an op returns with a part of the state contract (`.contract`) other than "
                                        "the op after it expects: a constant register, LaneConfig, the macro "
                                        "configuration, the lane predication or an ADDR_MOD"}
RULES.update(CONTRACT_RULES)

# Rules that warn and never stop a strict run: the field reports, the silent effects, the contract.
WARNING_RULES = frozenset({*FIELD_RULES, *SILENT_RULES, *CONTRACT_RULES})


def unknown_rule(rule: str) -> str:
    """What to say of a name that is not a rule's (after the name): the closest rule, and where they are."""
    return f"unknown hazard rule{did_you_mean(rule, RULES)}; `sfpu run --list-rules` lists all {len(RULES)}"


def rule_class(rule: str) -> str:
    """'field-report' for the rules learned from bug reports, 'silent-effect'
    for the hardware's silent no-ops and side writes (model.silent),
    'state-contract' for what an op leaves the next (model.contract), else
    'documented'."""
    if rule in FIELD_RULES:
        return "field-report"
    return "silent-effect" if rule in SILENT_RULES else "state-contract" if rule in CONTRACT_RULES else "documented"


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
        return {"rule": self.rule, "class": rule_class(self.rule), "cycle": self.cycle, "unit": self.unit,
                "message": self.message, "allowed": self.allowed, "source": self.source}


@dataclass(frozen=True)
class HazardGroup:
    """Every report of one rule at one program line: the first in full, how many, the last cycle."""
    first: Hazard
    count: int
    last_cycle: int

    def __str__(self) -> str:
        if self.count == 1:
            return str(self.first)
        return f"{self.first} (x{self.count} at this line, the last in cycle {self.last_cycle})"

    def to_json(self) -> dict:
        return {**self.first.to_json(), "count": self.count, "last_cycle": self.last_cycle}


def group_hazards(hazards: list[Hazard]) -> list[HazardGroup]:
    """The hazards grouped by rule, sub-unit and program line, in the order of
    their first report: a loop that breaks a rule on every pass is one line."""
    groups: dict[tuple, list] = {}
    for h in hazards:
        key = (h.rule, h.unit, h.source, h.allowed)
        if key in groups:
            groups[key][1] += 1
            groups[key][2] = h.cycle
        else:
            groups[key] = [h, 1, h.cycle]
    return [HazardGroup(*g) for g in groups.values()]


class HazardError(UndefinedBehaviour):
    """Strict mode stopped at a hazard."""

    def __init__(self, hazard: Hazard):
        self.hazard = hazard
        super().__init__(str(hazard))


# ---------------------------------------------------------------------------
# Blackhole interlocks
# ---------------------------------------------------------------------------

def _applying(ins: Instruction, reads: tuple[Read, ...]) -> tuple[Read, ...]:
    x = regular_operands(ins)
    return tuple(r for r in reads if r.applies(lambda name: x.vd if name == "vd" else ins.get(name, 0)))


def _indirect_vd(ins: Instruction, reads: tuple[Read, ...]) -> bool:
    return any(r.reg == VD_INDEX for r in _applying(ins, reads))


@functools.lru_cache(maxsize=65536)
def _stall_view(word: int, arch: Arch) -> tuple[frozenset[int], frozenset[int]]:
    ins = decode(word, arch)
    writes = EVERY_LREG if _indirect_vd(ins, ins.op.stall_view) else frozenset({ins.get("vd", 0)})
    return word_reads(ins, ins.op.stall_view), writes


def stall_reads(ins: Instruction) -> frozenset[int]:
    """The LRegs the Blackhole stall logic believes `ins` reads: the table's
    `Opcode.stall_view` of the word. Where the pages list no gap, it is taken
    to know exactly the registers the functional model names for that
    encoding, whatever they hold and whichever lanes are enabled
    (docs/timing.md, "Choices where the documentation is silent")."""
    return _stall_view(ins.word, ins.op.arch)[0]


def stall_writes(ins: Instruction) -> frozenset[int]:
    """The LRegs the stall logic believes a MAD-class instruction (issued by
    the thread) writes: VD, or every LReg when its stall view has INDIRECT_VD
    (SFPLUTFP32's takes it from Mod1Mirror, not from Mod1)."""
    return _stall_view(ins.word, ins.op.arch)[1]


def stalls_after_mad(ins: Instruction) -> bool:
    """A MAD-class instruction: its thread issue arms the stall logic for the
    next cycle (SFPMAD.md and every page that says "As per SFPMAD")."""
    return ins.op.unit is Unit.MAD and ins.op.arch.features.mad_stall


def interlocks_next(ins: Instruction) -> bool:
    """Only SFPNOP may be accepted in the next cycle: SFPSWAP (both
    architectures), and on Blackhole SFPSHFT2 modes 2-4 (SFPSHFT2.md)."""
    return ins.op.interlock or ins.get("mod1") in ins.op.interlock_mod1


# The rule for a read at T+1 of a thread MAD-class result that the stall
# logic let through, by the consumer's mnemonic (the table's `stall_gap`).
GAP_RULES: dict[str, str] = {op.mnemonic: op.stall_gap for arch in architectures() for op in ISA[arch].table
                             if op.stall_gap}
# The producer's gap: the stall logic and the instruction disagree on INDIRECT_VD (SFPLUTFP32's Mod1Mirror).
LUTFP32_MIRROR_GAP = GAP_RULES["SFPLUTFP32"]
# Rules about holes in Blackhole's stall logic: Wormhole has no stall to have holes in.
STALL_GAP_RULES = frozenset({*GAP_RULES.values(), LUTFP32_MIRROR_GAP})


def gap_rule(consumer: Instruction, producer: Instruction) -> str:
    """The hazard rule for `consumer` reading, unstalled, a result of
    `producer` (a thread MAD-class instruction of the previous cycle).
    `read-in-flight` if no documented gap explains it."""
    rule = consumer.op.stall_gap
    if rule:
        return rule
    if any(_indirect_vd(ins, ins.op.reads) != _indirect_vd(ins, ins.op.stall_view) for ins in (producer, consumer)):
        return LUTFP32_MIRROR_GAP
    return "read-in-flight"


def _regs(regs) -> str:
    return ", ".join(f"L{r}" for r in sorted(regs))
