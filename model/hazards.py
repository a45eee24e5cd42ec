"""The scheduling rules the cycle model checks, each with a stable name, and
Blackhole's interlocks as data.

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
from dataclasses import dataclass

from .isa import ISA, VD_INDEX, Arch, Instruction, Read, Unit, decode
from .machine import UndefinedBehaviour, regular_operands
from .reads import EVERY_LREG, word_reads
from .silent import SILENT_RULES
from .spelling import did_you_mean

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
    # Blackhole: reads of a MAD-class result in flight that the stall logic
    # does not see (SFPMAD.md's list of hardware bugs, SFPLUTFP32.md).
    "stall-gap-use-vb":
        "Blackhole: SFPAND/SFPOR with USE_VB reads, at T+1, a VB an SFPMAD-class instruction of T writes "
        "(the stall logic looks at VD)",
    "stall-gap-iadd":
        "Blackhole: SFPIADD reads, at T+1, a VD an SFPMAD-class instruction of T writes (the stall logic "
        "does not see that read)",
    "stall-gap-shft":
        "Blackhole: SFPSHFT reads, at T+1, a VD an SFPMAD-class instruction of T writes (the stall logic "
        "does not see that read)",
    "stall-gap-config":
        "Blackhole: SFPCONFIG reads, at T+1, an L0 an SFPMAD-class instruction of T writes (the stall logic "
        "does not see that read)",
    "stall-gap-swap":
        "Blackhole: SFPSWAP (a comparing mode) compares, at T+1, VC or VD an SFPMAD-class instruction of T "
        "writes (the stall logic does not see first-cycle reads)",
    "stall-gap-shft2":
        "Blackhole: SFPSHFT2 modes 2-6 read, at T+1, an LReg an SFPMAD-class instruction of T writes "
        "(the stall logic sees no read in modes 2-4, and VD instead of VB in modes 5-6)",
    "stall-gap-lutfp32-mirror":
        "Blackhole: the stall logic takes SFPLUTFP32's INDIRECT_VD from Mod1Mirror, which disagrees with "
        "Mod1, and misses a register really written (or, as the reader, L7 really read)",
}




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


DST_READ_SPACING = 4       # Dst.md: a written aligned 8x16 block cannot be read for the next 4 cycles

FIELD_RULES: dict[str, FieldRule] = {
    "armed-macro-config": FieldRule(
        "tt-metal PR#47675 (issue #46751); tt-llk#340",
        "Wormhole: LoadMacroConfig.Misc has a UnitDelayKind bit set (WaitForElapsedInstructions) while an SFPU "
        "instruction other than SFPLOADMACRO, SFPNOP or SFPCONFIG is accepted and no SFPLOADMACRO has been "
        "issued since Misc was last written (the init armed it, the plain path never uses it); or a thread's "
        "code ends with it set",
        "that the hang needs no SFPLOADMACRO in between is inferred from the fix (the fast path, which issues "
        "SFPLOADMACROs under the same Misc, works); the reports give no cycle count; Blackhole tolerates it"),
    "dst-read-after-macro-store": FieldRule(
        "tt-metal#45731, PR#45660, PR#45659",
        f"an SFPLOAD or SFPLOADMACRO reads a Dst row that a macro-scheduled SFPSTORE wrote {DST_READ_SPACING} "
        "or fewer cycles before",
        f"the distance is Dst.md's general rule ({DST_READ_SPACING} cycles after a write, auto-stalled only for "
        "Matrix Unit and packer readers), which speaks of aligned 8x16 blocks; the rule looks only at the rows "
        "written, as the report describes, since blocks would flag every macro pipeline. That a macro store "
        "escapes the scoreboard while a plain SFPSTORE does not is PR#45659's statement; no report gives a "
        "number (the cycle model's `dst_read_spacing`, `sfpu race --dst-spacing`)"),
    "shared-macro-config": FieldRule(
        "tt-metal PR#50399 (follow-up PR#50661)",
        "an SFPLOADMACRO uses a Sequence, InstructionTemplate or Misc that another thread's code wrote last: "
        "LoadMacroConfig is one per SFPU, shared by every thread (SFPLOADMACRO.md, SFPCONFIG.md)",
        "nothing: the sharing is documented, the failure (SDPA results corrupted) is the report's"),
    "ten-2932": FieldRule(
        "erratum TEN-2932, as tenstorrent/ttsim src/tensix.cpp refuses it (Wormhole and Blackhole)",
        "an SFPU instruction writes its result to L4-L7 while LaneConfig's ENABLE_DEST_INDEX is set; exempt: "
        "SFPLOAD, SFPLOADI, SFPSTORE, SFPLOADMACRO, SFPCONFIG, SFPSWAP, and the instructions whose VD must be "
        "0 (SFPTRANSP, SFPNOP, SFPSETCC, SFPENCC, SFPPUSHC, SFPPOPC, SFPCOMPC)",
        "ttsim checks LaneConfig as one value; here the bit counts if it is set in any lane. What the "
        "hardware writes is 'architecturally undefined' (ttsim), so the model's result there is not trusted"),
}
TEN_2932_EXEMPT = frozenset({"SFPLOAD", "SFPLOADI", "SFPSTORE", "SFPLOADMACRO", "SFPCONFIG", "SFPSWAP",
                             "SFPTRANSP", "SFPNOP", "SFPSETCC", "SFPENCC", "SFPPUSHC", "SFPPOPC", "SFPCOMPC"})
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
GAP_RULES: dict[str, str] = {op.mnemonic: op.stall_gap for arch in Arch for op in ISA[arch].table if op.stall_gap}
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
