"""Seeded constrained-random programs for lock-step RTL-vs-model regressions.

`generate(kind, seed, cycles)` returns an assembled program of roughly
`cycles` cycles whose source name (`random-legal-seed7`) makes every assembler
location and every hazard message point back at the seed that reproduces it.
The numpy generator is seeded from (kind, seed) alone, so a seed means the same
program on every machine.

Kinds:
- "legal": every opcode except SFPLOADMACRO with every defined modifier value,
  random registers and immediates, lane values from `.lreg`, predication on and
  off, Dst loads and stores in every format under changing configuration
  directives;
- "macro": random LoadMacroConfig (templates by the backdoor and by SFPCONFIG,
  random sequences, both delay kinds), then SFPLOADMACRO streams mixed with
  thread instructions;
- "flags": predication and the flag stack, from empty to full, with nested
  conditionals and every flag-setting instruction;
- "break": a legal program that then breaks exactly one scheduling rule
  (`generate_break` also names the rule).

`arch` (the caller's to give) picks the ISA table the draws come from and the
model that checks them; a Blackhole program starts with `.arch blackhole`,
and its random stream is seeded from the architecture too, so a Wormhole
seed's program does not change.

The legal kinds obey every rule of `model.hazards` and never reach undefined
behaviour. Constraints keep most draws legal; the rest is enforced by a repair
loop that runs each candidate instruction on the cycle model, followed by
SFPNOPs until nothing is pending or in flight, and replaces a candidate that
reports anything by a fresh draw or an SFPNOP. Because every accepted prefix
is known to run clean when followed by SFPNOPs, an SFPNOP is always a valid
repair, and the loop cannot get stuck. `generate` then runs the finished
program on the strict model and raises if anything is reported.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import Directive, Program, assemble, assemble_line, Loc
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model.hazards import CONTRACT_RULES, FIELD_RULES, RULES, SILENT_RULES
from tensix_sfpu.model.run import apply_directive, run_program
from tensix_sfpu.model.state import FLAG_STACK_DEPTH, SfpuState
from tensix_sfpu.tb.stimulus.directed import (LOAD_STORE_SETUP, MACRO_TEMPLATES, MODIFIERS, PREDICATE_OFF, PREDICATE_ON, instruction,
                         lane_values, load_l0, lreg_prelude, random_sequence)

KINDS = ("legal", "macro", "flags", "break")

SFPNOP = "sfpnop"



def in_table(arch: isa.Arch, mnemonics: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `mnemonics` that `arch`'s ISA table has, in the order given."""
    return tuple(m for m in mnemonics if m in isa.ISA[arch].opcodes)


def undefined_modifiers(arch: isa.Arch) -> dict[str, dict[int, str]]:
    """Modifier values the pages leave undefined, from `arch`'s ISA table, with
    the reason a bin excludes them."""
    return {op.mnemonic: {v: f"{op.mnemonic} {name.capitalize()}={v} is undefined (defined: "
                             f"{', '.join(map(str, op.defined_values(name)))})" for v in sorted(values)}
            for op in isa.ISA[arch].table for name, values in op.undefined_values}


UNDEFINED_MODIFIERS = undefined_modifiers(isa.DEFAULT_ARCH)


def modifier_values(mnemonic: str, arch: isa.Arch) -> list[int]:
    """The defined values of the opcode's modifier field (MODIFIERS in tb.stimulus.directed)."""
    field = MODIFIERS[arch][mnemonic]
    if field is None:
        return []
    return isa.ISA[arch].opcodes[mnemonic].defined_values(field)


def legal_opcodes(arch: isa.Arch) -> tuple[str, ...]:
    """Every opcode of `arch` but SFPLOADMACRO (the macro kind's), in table order."""
    return tuple(m for m in isa.ISA[arch].opcodes if m != "SFPLOADMACRO")


LEGAL_OPCODES = legal_opcodes(isa.DEFAULT_ARCH)
FLAG_SETTERS = ("SFPSETCC", "SFPENCC", "SFPPUSHC", "SFPPOPC", "SFPCOMPC", "SFPIADD", "SFPLZ", "SFPEXEXP")
# The comparisons set flags (or change the stack top) too, where the table has them (Features.compare).
_COMPARISONS = ("SFPGT", "SFPLE")
# Valid SrcB data-format codes (12 and 13 are unassigned).
SRCB_FORMATS = tuple(int(f) for f in isa.DataFormat)
LANE_CONFIG_RESET = "sfpconfig vd=15 mod1=1 imm16=0"

# Rules no program of an architecture can break, with the reason.
FIELD_REPORT_REASON = ("a rule from field reports (a warning, never a stop): broken by the directed programs of "
                       "tests/model/test_race.py, not by the random generator")
SILENT_EFFECT_REASON = ("a silent-effect rule (a warning, never a stop): broken by the directed programs of "
                        "tests/model/test_silent.py; the generator does not aim at it")
CONTRACT_REASON = ("the state contract between ops (a warning): needs the .contract and .op directives of a "
                   "chain, which tests/tb/test_chain.py writes")
WARNINGS = {**{rule: FIELD_REPORT_REASON for rule in FIELD_RULES}, **{rule: SILENT_EFFECT_REASON for rule in SILENT_RULES},
            **{rule: CONTRACT_REASON for rule in CONTRACT_RULES}}
# Warnings about what a program does besides timing: a legal program is free to break them.
NOT_AVOIDED = frozenset({*SILENT_RULES, *CONTRACT_RULES})
STALL_GAP_REASON = "a rule of the MAD stall logic (Features.mad_stall): this architecture has no stall logic to slip past"
UNBREAKABLES: dict[isa.Arch, dict[str, str]] = {
    arch: {**{rule: STALL_GAP_REASON for rule in RULES if rule.startswith("stall-gap-") and not arch.features.mad_stall},
           **WARNINGS}
    for arch in isa.architectures()}
UNBREAKABLE = UNBREAKABLES[isa.DEFAULT_ARCH]


# Rules a recipe cannot break alone, with the one it breaks too: SFPIADD and
# SFPSHFT read the VD they write, so the read through the gap at T+1 comes
# with a write landing together with the MAD's.
ALSO_BROKEN: dict[str, str] = {"stall-gap-iadd": "write-conflict", "stall-gap-shft": "write-conflict"}


def breakable(arch: isa.Arch) -> tuple[str, ...]:
    return tuple(r for r in RULES if r not in UNBREAKABLES[arch])


BREAKABLE: tuple[str, ...] = breakable(isa.DEFAULT_ARCH)


# ---------------------------------------------------------------------------
# Running a program on the model, cycle by cycle
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# The builder: a program grown one checked instruction at a time
# ---------------------------------------------------------------------------

_HERE = Loc("<generator>", 0, 1)


class _Builder:
    """Keeps the program text and a lenient model that has run it so far."""

    def __init__(self, rng: np.random.Generator, arch: isa.Arch):
        self.rng = rng
        self.arch = arch
        self.lines: list[str] = []
        self.model = CycleModel(SfpuState(arch=arch), strict=False)
        self.nop_word = isa.encode("SFPNOP", arch)

    def assemble(self, text: str):
        return assemble_line(text, _HERE, arch=self.arch)

    @property
    def cycle(self) -> int:
        return self.model.cycle

    def directive(self, text: str) -> None:
        """A directive takes effect between two cycles; it is placed only when
        nothing is in flight, so it cannot change an instruction half-way."""
        self.settle()
        d = self.assemble(text)
        assert isinstance(d, Directive)
        apply_directive(self.model.state, d)
        self.lines.append(text)

    def raw(self, text: str) -> None:
        """Append without checking (break programs, after the legal part)."""
        self.lines.append(text)

    def emit(self, text: str) -> bool:
        """Append `text` if it and SFPNOPs after it run clean; else leave
        everything as it was and return False."""
        word = self.assemble(text).word
        trial = self.model.fork()
        if not self._clean(trial, word):
            return False
        self._step(self.model, word)
        self.lines.append(text)
        return True

    def emit_or_repair(self, draw: Callable[[], str], tries: int = 3) -> None:
        for _ in range(tries):
            if self.emit(draw()):
                return
        ok = self.emit(SFPNOP)
        assert ok, "an SFPNOP after a checked prefix must run clean"

    def emit_all(self, lines: list[str]) -> bool:
        """A group of instructions that only make sense together: all or none."""
        saved_model, saved_lines = self.model.fork(), list(self.lines)
        for text in lines:
            if isinstance(self.assemble(text), Directive):
                self.directive(text)
            elif not self.emit(text):
                self.model, self.lines = saved_model, saved_lines
                return False
        return True

    def settle(self) -> None:
        """SFPNOPs until nothing is pending or in flight."""
        while self.model.busy:
            self.emit_or_repair(lambda: SFPNOP, tries=0)

    # -- internals --

    @staticmethod
    def _step(model: CycleModel, word: int) -> None:
        while model.step(word).issued is None:
            pass

    def _clean(self, model: CycleModel, word: int) -> bool:
        """Whether `word` runs out breaking no rule the programs keep to (the silent effects and
        the state contract are not among them: a random program may drop a write, as before)."""
        before = len(model.hazards)

        def broke() -> bool:
            return any(h.rule not in NOT_AVOIDED for h in model.hazards[before:])
        self._step(model, word)
        for _ in range(64):
            if broke() or not model.busy:
                break
            model.step(self.nop_word)
        return not broke() and not model.busy


# ---------------------------------------------------------------------------
# Random draws
# ---------------------------------------------------------------------------

def _pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def _random_instruction(rng, mnemonic: str, low_vd: bool = False, *, arch: isa.Arch) -> str:
    """One instruction with a defined modifier value and random other fields."""
    op = isa.ISA[arch].opcodes[mnemonic]
    fixed: dict[str, int] = {}
    values = modifier_values(mnemonic, arch)
    if values:
        fixed[MODIFIERS[arch][mnemonic]] = _pick(rng, values)
    if mnemonic == "SFPNOP":
        return SFPNOP
    if mnemonic == "SFPCONFIG" and fixed["mod1"] & 1 and rng.random() < 0.7:
        # LaneConfig and Misc from Imm16: keep most lanes enabled and Dst reachable.
        fixed["imm16"] = int(rng.integers(0, 1 << 16)) & 0x0FCF
    if low_vd and op.has("vd"):
        fixed["vd"] = int(rng.integers(0, 8))
    if op.has("mod1_mirror") and rng.random() < 0.8:
        # Blackhole's stall logic reads the mirror: mostly equal, sometimes not (stall-gap-lutfp32-mirror).
        fixed["mod1_mirror"] = fixed["mod1"]
    return instruction(rng, mnemonic, arch, **fixed)


# Directives of the Tensix registers a feature adds, with their value ranges:
# the SFPU stack pointer that INT32_ALL addresses, and the Dst remaps.
# (ADDR_MOD_SET_Base is left at 0: Blackhole's accesses with it set are
# undefined, docs/blackhole.md.)
_FEATURE_DIRECTIVES = {"stack_pointer": (("rwc_sp", 1024), ("sfpu_stack_incr", 16), ("dest_sp_base", 64)),
                       "dst_remap": (("dest_remap_addrs", 2), ("dest_swizzle_32b", 2))}
# Each architecture's, in the order above (the draws of a seed depend on it).
_DIRECTIVES_OF = {arch: tuple(d for feature, ds in _FEATURE_DIRECTIVES.items() if getattr(arch.features, feature)
                              for d in ds) for arch in isa.architectures()}


def _directive_line(rng, arch: isa.Arch) -> str:
    """A configuration directive with a valid value."""
    kind = int(rng.integers(0, 8))
    if kind == 5 and _DIRECTIVES_OF[arch]:
        name, limit = _pick(rng, _DIRECTIVES_OF[arch])
        return f".{name} {int(rng.integers(0, limit))}"
    if kind == 0:
        return f".fp32_dest {int(rng.integers(0, 2))}"
    if kind == 1:
        return f".srcb_format {_pick(rng, SRCB_FORMATS)}"
    if kind == 2:
        slot = int(rng.integers(0, 8))
        opts = [f"dst_incr={int(rng.integers(0, 16))}"]
        for flag in ("dst_cr", "dst_c_to_cr", "dst_clear"):
            if rng.random() < 0.2:
                opts.append(f"{flag}=1")
        return f".addr_mod {slot} " + " ".join(opts)
    if kind == 3:
        return f".rwc_dst {int(rng.integers(0, 1024))}"
    if kind == 4:
        return f".dest_offset {int(rng.integers(0, 64))}"
    if kind == 5:
        return f".addr_mod_base {int(rng.integers(0, 2))}"
    if kind == 6:
        return f".prng_seed {int(rng.integers(0, 1 << 32)):#x}"
    r = int(rng.integers(0, 8))
    return f".lreg {r} " + " ".join(f"0x{v:08X}" for v in lane_values(rng))


def _prelude(b: _Builder) -> None:
    for line in lreg_prelude(b.rng):
        b.directive(line)
    for line in LOAD_STORE_SETUP:
        b.directive(line)
    b.directive(f".prng_seed {int(b.rng.integers(0, 1 << 32)):#x}")
    b.directive(f".fp32_dest {int(b.rng.integers(0, 2))}")
    b.directive(f".srcb_format {_pick(b.rng, SRCB_FORMATS)}")
    # Some Dst rows with data, 32-bit and 16-bit, so that loads read something.
    for r in range(8):
        b.emit_or_repair(lambda r=r: f"sfpstore vd={r} mod0={_pick(b.rng, [3, 1, 2, 6])} imm10={8 * r}")


# ---------------------------------------------------------------------------
# The kinds
# ---------------------------------------------------------------------------

def _legal_body(b: _Builder, cycles: int, opcodes: tuple[str, ...] | None = None, low_vd: bool = False,
                directives: bool = True) -> None:
    rng = b.rng
    opcodes = opcodes or legal_opcodes(b.arch)
    while b.cycle < cycles:
        x = rng.random()
        if directives and x < 0.05:
            b.directive(_directive_line(rng, b.arch))
        elif x < 0.08:
            b.emit_all(list(_pick(rng, [PREDICATE_ON, PREDICATE_OFF])))
        elif x < 0.09:
            b.emit_or_repair(lambda: LANE_CONFIG_RESET)
        else:
            b.emit_or_repair(lambda: _random_instruction(rng, _pick(rng, opcodes), low_vd, arch=b.arch))


def _flags_body(b: _Builder, cycles: int) -> None:
    """Nested conditionals and a random walk over the stack depth. Each
    conditional pushes, narrows the enabled lanes with a flag-setting
    instruction, runs a body, maybe takes the else branch (SFPCOMPC) and pops."""
    rng = b.rng
    b.emit_all(list(PREDICATE_ON))
    work = ("SFPIADD", "SFPMOV", "SFPXOR", "SFPABS", "SFPSETSGN", "SFPLOADI", "SFPMAD", "SFPSTORE", "SFPLZ",
            "SFPEXEXP", "SFPSETCC")
    conditions = ("SFPSETCC", "SFPIADD", "SFPLZ", "SFPEXEXP") + in_table(b.arch, _COMPARISONS)
    setters = FLAG_SETTERS + in_table(b.arch, _COMPARISONS)

    def depth() -> int:
        return len(b.model.state.flag_stack)

    def body(n: int) -> None:
        for _ in range(n):
            b.emit_or_repair(lambda: _random_instruction(rng, _pick(rng, work), low_vd=True, arch=b.arch))

    def conditional(level: int) -> None:
        if b.cycle >= cycles or depth() >= FLAG_STACK_DEPTH:
            return
        b.emit_or_repair(lambda: "sfppushc vd=0")
        b.emit_or_repair(lambda: _random_instruction(rng, _pick(rng, conditions), low_vd=True, arch=b.arch))
        body(int(rng.integers(0, 3)))
        if rng.random() < 0.7 and level < FLAG_STACK_DEPTH:
            conditional(level + 1)
        if rng.random() < 0.5:
            b.emit_or_repair(lambda: "sfpcompc vd=0")
            body(int(rng.integers(0, 3)))
        if rng.random() < 0.3:
            b.emit_or_repair(lambda: f"sfppopc vd=0 mod1={int(rng.integers(1, 16))}")
        if depth() > 0:
            b.emit_or_repair(lambda: "sfppopc vd=0 mod1=0")

    # Once all the way to a full stack, then random.
    for _ in range(FLAG_STACK_DEPTH):
        b.emit_or_repair(lambda: "sfppushc vd=0")
        b.emit_or_repair(lambda: _random_instruction(rng, _pick(rng, conditions), low_vd=True, arch=b.arch))
    b.emit_or_repair(lambda: f"sfppopc vd=0 mod1={int(rng.integers(1, 16))}")   # the full-stack flaw
    while depth() > 0:
        b.emit_or_repair(lambda: "sfppopc vd=0 mod1=0")
    while b.cycle < cycles:
        x = rng.random()
        if x < 0.35:
            conditional(0)
        elif x < 0.55:
            b.emit_or_repair(lambda: _random_instruction(rng, _pick(rng, setters), low_vd=True, arch=b.arch))
        elif x < 0.6:
            b.emit_all(list(_pick(rng, [PREDICATE_ON, PREDICATE_OFF])))
        else:
            body(1)


# Templates of instructions and modes not every architecture has (SFPARECIP, SFPGT and
# SFPLE on Simple; SFPMUL24 on MAD; SFPAND's USE_VB, SFPSTOCHRND's rnd_mode), each
# offered where the table encodes it, and, where the same word means something
# else elsewhere, where the feature it exercises is on (the feature, else None).
_OPTIONAL_TEMPLATES = {
    "simple": [("sfparecip vd=0 vc=0 mod1=0", None), ("sfparecip vd=0 vc=0 mod1=2", None),
               ("sfpgt vd=0 vc=0 mod1=8", None), ("sfple vd=0 vc=0 mod1=1", None),
               ("sfpand vd=0 vc=0 vb=0 mod1=1", None), ("sfpcast vd=0 vc=0 mod1=3", "cast_int_modes"),
               ("sfpshft vd=0 vc=0 imm12=-3 mod1=3", "shft_arithmetic")],
    "mad": [("sfpmul24 va=0 vb=0 vc=9 vd=0 mod1=0", None), ("sfpmul24 va=0 vb=0 vc=9 vd=0 mod1=1", None),
            ("sfpmad va=0 vb=0 vc=0 vd=0 mod1=3", "mad_negate")],
    "round": [("sfpstochrnd vd=0 vc=0 mod1=1 rnd_mode=2", None)],
}


def _encodes(text: str, arch: isa.Arch) -> bool:
    try:
        assemble_line(text, _HERE, arch)
    except ValueError:
        return False
    return True


def optional_templates(arch: isa.Arch) -> dict[str, list[str]]:
    """`_OPTIONAL_TEMPLATES` that `arch` runs, by sub-unit, in their order (a seed's draws depend on it)."""
    return {unit: [text for text, feature in texts
                   if (feature is None or getattr(arch.features, feature)) and _encodes(text, arch)]
            for unit, texts in _OPTIONAL_TEMPLATES.items()}


def _macro_templates(rng, arch: isa.Arch) -> list[str]:
    """Four templates, each runnable by some sub-unit, including every
    template of tb.stimulus.directed and a few more simple and MAD ones."""
    pool = {unit: list(texts) for unit, texts in MACRO_TEMPLATES.items()}
    pool["simple"] += ["sfpabs vd=0 vc=0 mod1=1", "sfpxor vd=0 vc=0", "sfplz vd=0 vc=0 mod1=0",
                       "sfpsetsgn vd=0 vc=0 imm1=1 mod1=1", "sfpcast vd=0 vc=0 mod1=0"]
    pool["mad"] += ["sfpadd va=10 vb=0 vc=11 vd=0", "sfplutfp32 vd=0 mod1=0"]
    for unit, texts in optional_templates(arch).items():
        pool[unit] += texts
    return [_pick(rng, pool[_pick(rng, ("simple", "mad", "round", "store", "simple", "mad", "round"))])
            for _ in range(4)]


def _with_vd(text: str, vd: int, arch: isa.Arch) -> str:
    ins = isa.decode(assemble(text, arch=arch).words[0], arch)
    field = ins.op.field_map["vd"]
    return f".word {(ins.word & ~field.mask) | field.insert(vd):#010x}"


def _fix_sequence(seq: int, templates: list[str]) -> int:
    """Rules a single SFPLOADMACRO would break by itself are designed out:
    a scheduled SFPSWAP gets SFPNOP on MAD for the same cycle, and Simple and
    Round scheduled for one cycle get exactly one L16 result."""
    b = [(seq >> (8 * i)) & 0xFF for i in range(4)]
    sel = [x & 7 for x in b]
    delay = [(x >> 3) & 7 for x in b]
    simple_t = templates[sel[0] - 4] if sel[0] >= 4 else ""
    if simple_t.startswith("sfpswap"):
        b[1] = 2 | delay[0] << 3
    if sel[0] and sel[2] and delay[0] == delay[2]:
        b[0] &= ~0x40
        b[2] |= 0x40
    return b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24


def _macro_config(b: _Builder) -> None:
    """Templates by the backdoor or by SFPCONFIG, sequences and Misc."""
    rng = b.rng
    b.emit_all(list(PREDICATE_OFF) + [LANE_CONFIG_RESET, SFPNOP])
    templates = _macro_templates(rng, b.arch)
    for i, text in enumerate(templates):
        if rng.random() < 0.5:
            # Backdoor: the template instruction itself, with VD = 12 + i.
            b.emit_all([_with_vd(text, 12 + i, b.arch), SFPNOP])
        else:
            b.emit_all(load_l0(assemble(text, arch=b.arch).words[0]) + [f"sfpconfig vd={i}"])
    for m in range(4):
        seq = _fix_sequence(random_sequence(rng, templates, b.arch), templates)
        if seq >> 16 == 0 and rng.random() < 0.5:
            b.emit_all([f"sfpconfig vd={4 + m} mod1=1 imm16={seq:#x}"])
        else:
            b.emit_all(load_l0(seq) + [f"sfpconfig vd={4 + m}"])
    misc = int(rng.integers(0, 16)) | int(rng.integers(0, 16)) << 4 | int(rng.integers(0, 16)) << 8
    b.emit_all([f"sfpconfig vd=8 imm16={misc:#x} mod1=1"])


_MACRO_THREAD = ("SFPIADD", "SFPMAD", "SFPXOR", "SFPLOAD", "SFPSTORE", "SFPLOADI", "SFPMOV", "SFPSTOCHRND",
                 "SFPSHFT2", "SFPSWAP", "SFPMULI", "SFPSETCC", "SFPENCC", "SFPNOP",
                 "SFPMUL24", "SFPARECIP", "SFPGT", "SFPLE")        # these four where the table has them


def _macro_body(b: _Builder, cycles: int) -> None:
    rng = b.rng
    addr_mods = 1 << isa.ISA[b.arch].opcodes["SFPLOADMACRO"].field_map["addr_mod"].width
    for line in lreg_prelude(rng):
        b.directive(line)
    b.directive(".fp32_dest 1")
    phase_end = b.cycle
    while b.cycle < cycles:
        if b.cycle >= phase_end:
            b.settle()
            _macro_config(b)
            phase_end = b.cycle + max(40, (cycles - b.cycle) // 2)
        if rng.random() < 0.5:
            def lm():
                return (f"sfploadmacro macro={int(rng.integers(4))} vd={int(rng.integers(8))} "
                        f"mod0={_pick(rng, [3, 3, 3, *range(16)])} addr_mod={int(rng.integers(addr_mods))} "
                        f"offset={4 * int(rng.integers(16))}")
            b.emit_or_repair(lm)
        else:
            b.emit_or_repair(lambda: _random_instruction(rng, _pick(rng, in_table(b.arch, _MACRO_THREAD)),
                                                          low_vd=True, arch=b.arch))


# -- break programs -------------------------------------------------------------------

def _macro_setup(templates: dict[int, int], sequences: dict[int, int], misc: int = 0) -> list[str]:
    lines = []
    for i, w in templates.items():
        lines += load_l0(w) + [f"sfpconfig vd={i}"]
    for m, s in sequences.items():
        lines += load_l0(s) + [f"sfpconfig vd={4 + m}"]
    return lines + [f"sfpconfig vd=8 imm16={misc:#x} mod1=1"]


def _w(text: str) -> int:
    return assemble(text).words[0]


def _lm(macro: int, vd: int, offset: int = 0) -> str:
    return f"sfploadmacro macro={macro} vd={vd} mod0=3 addr_mod=0 offset={offset}"


def _mad_stall_break_lines(rule: str, a: int, b_: int, c: int, d: int, m: int) -> list[str] | None:
    """The recipes of an architecture with the MAD stall (Features.mad_stall): a thread MAD-class result read at T+1 through
    each documented gap of the stall logic (a read it sees would stall, not
    break), and the rules the thread's interlocks now keep, broken from a
    macro sequence, where nothing stalls. None where the recipe without the stall serves."""
    mad = f"sfpmad vd={a} va={b_} vb={c} vc={d} mod1=0"
    lines = {
        # VB is read (USE_VB); the stall logic looks at VD.
        "stall-gap-use-vb": [mad, f"sfpand vd={c} vb={a} vc={d} mod1=1"],
        # The register forms read VD as their VB; the stall logic sees only VC.
        "stall-gap-iadd": [mad, f"sfpiadd vd={a} vc={c} mod1=0"],
        "stall-gap-shft": [mad, f"sfpshft vd={a} vc={c} mod1=0"],
        # A template write reads L0.
        "stall-gap-config": ["sfpmad vd=0 va=1 vb=2 vc=3 mod1=0", "sfpconfig vd=0"],
        # A comparing swap reads VC and VD in its first cycle.
        "stall-gap-swap": [mad, f"sfpswap vd={c} vc={a} mod1=1", SFPNOP],
        # SHFT_LREG shifts by VB (Imm12's low bits); the stall logic takes VD.
        "stall-gap-shft2": [mad, f"sfpshft2 vd={c} vc={d} imm12={a} mod1=5"],
        # INDIRECT_VD in Mod1 but not in the mirror the stall logic reads: L7 is read unseen.
        "stall-gap-lutfp32-mirror": [f"sfpmad vd=7 va={b_} vb={c} vc={d} mod1=0",
                                     "sfplutfp32 vd=0 mod1=8 mod1_mirror=0"],
        # The thread is interlocked after its own SFPSHFT2 mode 2-4, not after a macro's.
        "shft2-next-cycle": _macro_setup({2: _w("sfpshft2 vd=0 vc=0 mod1=3")}, {m: 0x06 << 16}) + [
            _lm(m, a), SFPNOP, f"sfpabs vd={c} vc={d} mod1=1"],
        # A macro-scheduled MAD of the cycle after the SFPLOADMACRO, read by the thread at T+1.
        "read-in-flight": _macro_setup({0: _w("sfpmuli vd=0 imm16=0x4000")}, {m: 0x04 << 8}) + [
            _lm(m, a), SFPNOP, f"sfpmov vd={b_} vc={a} mod1=0"],
    }
    return lines.get(rule)


def _break_lines(rule: str, rng, arch: isa.Arch) -> list[str]:
    """Instructions (after a reset of flags and LaneConfig) that break `rule`
    and nothing else."""
    a, b_, c, d = (int(v) for v in rng.permutation(8)[:4])
    m = int(rng.integers(4))
    if arch.features.mad_stall:
        lines = _mad_stall_break_lines(rule, a, b_, c, d, m)
        if lines is not None:
            return lines
    if rule == "read-in-flight":          # a MAD result read at T+1
        return [f"sfpmad vd={a} va={b_} vb={c} vc={d} mod1=0", f"sfpmov vd={b_} vc={a} mod1=0"]
    if rule == "write-conflict":          # a MAD landing and a load writing one register at the end of T+1
        return [f"sfpmad vd={a} va={b_} vb={c} vc={d} mod1=0", f"sfploadi vd={a} mod0=2 imm16=5"]
    if rule == "shft2-next-cycle":        # SFPABS right after a two-cycle SFPSHFT2
        return [f"sfpshft2 vd={a} vc={b_} mod1=3", f"sfpabs vd={c} vc={d} mod1=1"]
    if rule == "simple-round-vd16":       # macro Round (VD != 16) with a thread Simple (VD != 16)
        return _macro_setup({1: _w("sfpshft2 vd=0 imm12=1 mod1=6")}, {m: 0x05 << 16}) + [
            _lm(m, a), f"sfpiadd vd={b_} vc={c} imm12=1 mod1=5"]
    if rule == "swap-mad-nop":            # macro SFPSWAP without SFPNOP on MAD
        return _macro_setup({0: _w("sfpswap vd=5 vc=0 mod1=1")}, {m: 0x04}) + [_lm(m, a), SFPNOP, SFPNOP]
    if rule == "swap-next-cycle":         # a macro SFPSTOCHRND in the cycle after a thread SFPSWAP
        return _macro_setup({2: _w("sfpstochrnd vd=0 vc=0 mod1=1")}, {m: (0x06 | 1 << 3) << 16}) + [
            _lm(m, a), f"sfpswap vd={b_} vc={c} mod1=1", SFPNOP, SFPNOP]
    if rule == "discarded":               # a thread instruction in the cycle a macro one runs on its sub-unit
        unit = int(rng.integers(4))
        template = ["sfpiadd vd=0 vc=0 imm12=1 mod1=5", "sfpmuli vd=0 imm16=0x4000",
                    "sfpstochrnd vd=0 vc=0 mod1=1", None][unit]
        thread = [f"sfpxor vd={b_} vc={c}", f"sfpmad vd={b_} va={c} vb={d} vc={c} mod1=0",
                  f"sfpstochrnd vd={b_} vc={c} mod1=1", f"sfpstore vd={b_} mod0=3 imm10=40"][unit]
        select = 3 if template is None else 4
        return _macro_setup({} if template is None else {0: _w(template)}, {m: select << (8 * unit)}) + [
            _lm(m, a), thread, SFPNOP, SFPNOP]
    if rule == "macro-select-reserved":
        return _macro_setup({}, {m: 0x01}) + [_lm(m, a)]
    if rule == "macro-template-invalid":  # InstructionTemplate[3] = 0 is no SFPU instruction
        return _macro_setup({3: 0}, {m: 0x07}) + [_lm(m, a), SFPNOP]
    if rule == "macro-store-not-sfpstore":
        return _macro_setup({}, {m: isa.OPCODE.insert(0x02)}) + [_lm(m, a), SFPNOP]
    if rule == "store-not-all-lanes":     # lanes 0-3 of L0 schedule a store, lanes 4-7 do not
        values = [0x03000000 if lane & 7 < 4 else 0 for lane in range(32)]
        return _macro_setup({}, {}) + [".lreg 0 " + " ".join(f"{v:#x}" for v in values),
                                       f"sfpconfig vd={4 + m}", _lm(m, a), SFPNOP, SFPNOP]
    if rule == "macro-config-not-uniform":
        values = [0x02 if lane & 7 < 4 else 0 for lane in range(32)]
        return _macro_setup({}, {}) + [".lreg 0 " + " ".join(f"{v:#x}" for v in values),
                                       f"sfpconfig vd={4 + m}", _lm(m, a), SFPNOP]
    if rule == "config-backdoor-next":    # set DISABLE_BACKDOOR_LOAD, then VD >= 12 at once
        return ["sfpconfig vd=15 mod1=1 imm16=2", f"sfpnot vd={12 + int(rng.integers(4))} vc={a}",
                SFPNOP, LANE_CONFIG_RESET]
    if rule == "macro-left-pending":      # an instruction-kind wait with no instruction after it
        return _macro_setup({0: _w("sfpiadd vd=0 vc=0 imm12=1 mod1=5")}, {m: 0x04 | 3 << 3}, misc=1 << 8) + [
            _lm(m, a)]
    if rule == "undefined":               # SFPLOADI with a reserved Mod0
        return [f"sfploadi vd={a} mod0={_pick(rng, sorted(undefined_modifiers(arch)['SFPLOADI']))} imm16=7"]
    raise ValueError(f"no recipe breaks {rule!r}")


BREAK_RESET = ["sfpencc mod1=2 imm2=0", LANE_CONFIG_RESET, SFPNOP]


def _break_program(seed: int, cycles: int, arch: isa.Arch) -> tuple[str, str]:
    rules = breakable(arch)
    rule = rules[seed % len(rules)]
    b = _Builder(_rng("break", seed, arch), arch)
    _prelude(b)
    _legal_body(b, max(cycles // 2, b.cycle + 10))
    b.settle()
    for line in BREAK_RESET:
        b.emit_or_repair(lambda line=line: line)
    b.raw(f"# break: {rule}")
    for line in _break_lines(rule, b.rng, arch):
        b.raw(line)
    return _head(arch) + "\n".join(b.lines) + "\n", rule


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------

def _source_name(kind: str, seed: int, arch: isa.Arch) -> str:
    return f"random-{kind}-seed{seed}" + arch.tagged("-{}")


def _rng(kind: str, seed: int, arch: isa.Arch) -> np.random.Generator:
    """Seeded from (kind, seed) alone on the default architecture, and from the architecture too on the others."""
    key = [KINDS.index(kind), seed] + ([] if arch is isa.DEFAULT_ARCH else [isa.architectures().index(arch)])
    return np.random.default_rng(key)


def _head(arch: isa.Arch) -> str:
    return arch.tagged(".arch {}\n")


def program_text(kind: str, seed: int, cycles: int = 200, *, arch: isa.Arch) -> str:
    """The assembly source of `generate(kind, seed, cycles, arch)`."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (kinds: {', '.join(KINDS)})")
    if kind == "break":
        return _break_program(seed, cycles, arch)[0]
    b = _Builder(_rng(kind, seed, arch), arch)
    if kind == "legal":
        _prelude(b)
        _legal_body(b, cycles)
    elif kind == "flags":
        _prelude(b)
        _flags_body(b, cycles)
    else:
        _macro_body(b, cycles)
    b.settle()
    return (_head(arch) + f"# {_source_name(kind, seed, arch)}: {cycles} cycles\n" + "\n".join(b.lines)
            + "\n")


def generate(kind: str, seed: int, cycles: int = 200, *, arch: isa.Arch) -> Program:
    """A random `arch` program of about `cycles` cycles. Legal kinds are
    checked on the strict model before they are returned."""
    text = program_text(kind, seed, cycles, arch=arch)
    program = assemble(text, _source_name(kind, seed, arch))
    if kind != "break":
        run_program(program, strict=True)      # raises HazardError naming the line
    return program


def generate_break(seed: int, cycles: int = 200, *, arch: isa.Arch) -> tuple[Program, str]:
    """A program that is legal until it breaks exactly one rule; returns it
    and the rule's name. The rule cycles through `breakable(arch)` with the seed."""
    text, rule = _break_program(seed, cycles, arch)
    return assemble(text, _source_name("break", seed, arch)), rule


__all__ = ["KINDS", "ALSO_BROKEN", "BREAKABLE", "UNBREAKABLE", "UNBREAKABLES", "UNDEFINED_MODIFIERS", "breakable", "generate",
           "generate_break", "legal_opcodes", "program_text", "modifier_values", "undefined_modifiers"]
