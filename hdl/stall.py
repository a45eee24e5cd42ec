"""The thread's interlocks, generated from the ISA table.

Blackhole's stall logic holds the thread's word for a cycle when it reads an
LReg that the MAD-class instruction the thread issued last cycle writes
(`MadStall`); on both architectures only SFPNOP may follow an interlocking
instruction (SFPSWAP, and Blackhole's SFPSHFT2 modes 2-4: the decoder's
`interlock`, from `rule_condition`).

What the stall logic believes an instruction reads is the table's
`Opcode.stall_view` (its declared reads without the documented gaps, with its
false dependencies), and it believes a MAD-class instruction writes VD, or
every LReg when that view has INDIRECT_VD. This file reads those declarations
itself (`believed_reads`, `believed_writes`); the model's hazard checker reads
them separately, so that the lock-step comparison can catch a mistake in
either. Each rule is run on an instruction whose modifier fields hold every
value they can take and whose register fields are symbols (`_Symbolic`). The
answer for one modifier value is a set of fixed LRegs and register fields;
the hardware is, per opcode and modifier value, that set as a 17-bit mask.
"""

import itertools
from collections.abc import Callable

from amaranth import Const, Module, Mux, Signal
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model import isa

from .arith import field, operand
from .isa import ArchComponent, opcode, opcode_bits, table

MASK_BITS = 17            # L0-L16
EVERY_LREG = frozenset(range(MASK_BITS))
# Registers a declaration names that the word alone cannot pin down: any the state could choose.
_CHOSEN = {isa.VD_INDEX: {7}, "L[L7]": EVERY_LREG, "lut": {0, 1, 2}, "lut+4": {4, 5, 6}}


class _Register:
    """A register operand of the word, by its table name (symbolic)."""

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, _Register) and other.name == self.name

    def __hash__(self):
        return hash(("register", self.name))


class _Symbolic(isa.Instruction):
    """An instruction whose modifiers hold the values given and whose register
    operands are `_Register`s; anything else it is asked is an error, so that
    a stall rule that looks at an immediate cannot be silently mistranslated."""

    def __getitem__(self, name: str):
        value = super().__getitem__(name)
        if isinstance(value, str):
            raise TypeError(f"{self.op.mnemonic}: the stall logic asks for {name!r}, which is not a modifier")
        return value

    def get(self, name: str, default=None):
        return self[name] if name in self._by_name else default

    def operand(self, name: str):
        if name in _register_operands(self.op):
            return _Register(name)
        return super().operand(name)


def _register(ins: _Symbolic, name: str) -> _Register:
    """The register operand `name` of a thread word: VB and VC are VD where the
    functional model says so (Blackhole's SFPAND/SFPOR: VB unless USE_VB)."""
    source = ins.op.sources.get(name)
    if source is not None and source.implicit_vd and not source.names(ins.__getitem__):
        return _Register("vd")
    return ins.operand(name)


def _believed(ins: _Symbolic) -> tuple[isa.Read, ...]:
    return tuple(r for r in ins.op.stall_view if r.applies(lambda name: ins[name]))


def believed_reads(ins: _Symbolic) -> frozenset:
    """What the stall logic believes `ins` reads: fixed LRegs and `_Register`s."""
    regs = set()
    for read in _believed(ins):
        if isinstance(read.reg, int):
            regs.add(read.reg)
        elif read.reg in _CHOSEN:
            regs |= _CHOSEN[read.reg]
        else:
            regs.add(_register(ins, read.reg))
    return frozenset(regs)


def believed_writes(ins: _Symbolic) -> frozenset:
    """What the stall logic believes a MAD-class `ins` writes: VD, or every LReg under INDIRECT_VD."""
    return EVERY_LREG if any(r.reg == isa.VD_INDEX for r in _believed(ins)) else frozenset({ins["vd"]})


def _register_operands(op: isa.Opcode) -> set[str]:
    names = {f.name for f in op.fields if f.kind is isa.Kind.REG}
    names |= {c.name for c in op.composites if c.kind is isa.Kind.REG}
    return names | {a.name for a in op.aliases}


def _cases(op: isa.Opcode, rule: Callable, result: Callable = frozenset) -> dict:
    """The answers `rule` gives (made hashable by `result`) for each
    combination of the values of `op`'s modifier fields that matter to it,
    grouped: answer -> the combinations that give it."""
    mods = [f for f in op.fields if f.kind is isa.Kind.MOD]
    registers = _register_operands(op)
    results: dict[tuple[int, ...], frozenset] = {}
    for values in itertools.product(*(range(1 << f.width) for f in mods)):
        chosen = dict(zip((f.name for f in mods), values))
        fields = tuple((f.name, chosen[f.name] if f.name in chosen else _Register(f.name) if f.name in registers
                        else f.name) for f in op.fields)
        results[values] = result(rule(_Symbolic(op, fields, 0)))
    # A modifier that never changes the answer is left out of the hardware's comparisons.
    matter = [i for i in range(len(mods))
              if any(results[v] != results[v[:i] + (0,) + v[i + 1:]] for v in results)]
    out: dict[frozenset, list[dict[str, int]]] = {}
    for values, regs in results.items():
        if all(values[i] == 0 for i in range(len(mods)) if i not in matter):
            out.setdefault(regs, []).append({mods[i].name: values[i] for i in matter})
    return out


def _mask(word, op: isa.Opcode, regs: frozenset):
    """A set of fixed LRegs and register operands as a 17-bit mask."""
    mask = Const(sum(1 << r for r in regs if isinstance(r, int)), MASK_BITS)
    # By name, so that the netlist does not depend on the order of a set (PYTHONHASHSEED).
    for r in sorted((r for r in regs if isinstance(r, _Register)), key=lambda r: r.name):
        mask = mask | (Const(1, MASK_BITS) << operand(word, op, r.name))
    return mask


def _matches(word, op: isa.Opcode, combos: list[dict[str, int]]):
    condition = Const(0, 1)
    for chosen in combos:
        term = Const(1, 1)
        for name, value in chosen.items():
            term = term & (field(word, op, name) == value)
        condition = condition | term
    return condition


def rule_condition(word, op: isa.Opcode, rule: Callable[[isa.Instruction], bool]):
    """`rule` (a model predicate on an instruction) of a word of `op`, as a condition."""
    cases = _cases(op, rule, bool)
    if len(cases) == 1:
        return Const(next(iter(cases)), 1)
    return _matches(word, op, cases[True])


def rule_mask(m: Module, word, ops, rule: Callable, name: str) -> Signal:
    """`rule` (a model function from an instruction to LReg numbers) of the
    word, for each opcode of `ops`, as a mask; 0 for any other opcode."""
    mask = Signal(MASK_BITS, name=name)
    with m.Switch(opcode_bits(word)):
        for op in ops:
            cases = _cases(op, rule)
            with m.Case(opcode(op.mnemonic)):
                if len(cases) == 1:
                    [regs] = cases
                    m.d.comb += mask.eq(_mask(word, op, regs))
                    continue
                # The commonest set is the default; the others are picked by their modifier values.
                common = max(cases, key=lambda regs: len(cases[regs]))
                m.d.comb += mask.eq(_mask(word, op, common))
                for regs, combos in cases.items():
                    if regs is not common:
                        with m.If(_matches(word, op, combos)):
                            m.d.comb += mask.eq(_mask(word, op, regs))
    return mask


class MadStall(ArchComponent):
    """Holds the thread's word for a cycle when the stall logic believes it
    reads an LReg that the thread's MAD-class instruction of the previous
    cycle writes (Blackhole; SFPMAD.md and the pages that refer to it)."""

    word: In(32)              # the thread's word this cycle
    known: In(1)              # ... is an SFPU instruction
    started: In(1)            # ... started on its sub-unit (accepted, not discarded)
    run: In(1)                # low: frozen, the stall logic holds
    hold: Out(1)

    def elaborate(self, platform):
        m = Module()
        ops = table(self.arch).values()
        mad_ops = [op for op in ops if op.unit is isa.Unit.MAD]
        reads = rule_mask(m, self.word, ops, believed_reads, "stall_reads")
        writes = rule_mask(m, self.word, mad_ops, believed_writes, "stall_writes")
        in_flight = Signal(MASK_BITS, name="mad_writes_q")       # what the thread's MAD-class word of last cycle writes
        with m.If(self.run):
            m.d.sync += in_flight.eq(Mux(self.started, writes, 0))
        m.d.comb += self.hold.eq(self.known & (reads & in_flight).any())
        return m
