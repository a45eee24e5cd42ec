"""Instruction decode, generated from the ISA table.

`Decoder` turns a 32-bit word into the `Decoded` record every sub-unit
consumes: the opcode, the sub-unit the thread's instruction runs on, the
register operands as thread issue resolves them (`VB = VD` and `VC = VD`
where the functional models say so, SFPSHFT2's VB from Imm12), and the timing
class (two-cycle result, two-cycle occupancy, interlock). SFPLOADMACRO's
overrides of VD/VB/VC are applied by the scheduler, not here.
"""

from amaranth import Module, Mux
from amaranth.lib import data
from amaranth.lib.wiring import In, Out

from .arith import field, holds, operand

from tensix_sfpu.model import isa

from .isa import ArchComponent, Opcode, Unit, opcode, opcode_bits, table, unit
from .stall import rule_condition

def _interlocks(ins: isa.Instruction) -> bool:
    """Only SFPNOP may follow: the table's `interlock` and `interlock_mod1`."""
    return ins.op.interlock or ins.get("mod1") in ins.op.interlock_mod1


Decoded = data.StructLayout({
    "word": 32,            # the word itself, so that a consumer sees it change together with its decode
    "opcode": Opcode,
    "known": 1,            # an SFPU opcode of the table
    "unit": Unit,
    "vd": 5,               # 0-15 from the word; 16 (L16) only through a macro
    "vb": 4,
    "vc": 4,
    "latency2": 1,         # the LReg result is written at the end of T+1
    "two_cycles": 1,       # holds its sub-unit at T+1 as well
    "interlock": 1,        # the thread may issue only SFPNOP at T+1 (the table's interlock, interlock_mod1)
    "reserved_bits": 1,    # a must-be-zero bit is set (undefined behaviour)
    "backdoor": 1,         # its VD 12-15 loads a macro template (every VD but SFPCONFIG's; ISA table)
    "counters": 1,         # SETRWC/INCRWC: issued, but for the Tensix counters, not a sub-unit
})


class Decoder(ArchComponent):
    """Decodes the instructions of `arch`'s table; any other opcode is unknown."""
    word: In(32)
    decoded: Out(Decoded)

    def elaborate(self, platform):
        m = Module()
        word, d = self.word, self.decoded
        m.d.comb += [d.word.eq(word), d.opcode.eq(opcode_bits(word))]
        with m.Switch(opcode_bits(word)):
            for op in table(self.arch).values():
                with m.Case(opcode(op.mnemonic)):
                    m.d.comb += [d.known.eq(1), d.unit.eq(unit(op.unit))]
                    if op.must_be_zero:
                        m.d.comb += d.reserved_bits.eq((word & op.must_be_zero) != 0)
                    self._operands(m, op)
                    self._timing(m, op)
            with m.Case(*isa.TENSIX_ISSUED):
                m.d.comb += d.counters.eq(1)
        return m

    def _operands(self, m: Module, op: isa.Opcode) -> None:
        word, d = self.word, self.decoded
        readable = isa.readable_field_names(op)
        vd = operand(word, op, "vd") if "vd" in readable else None    # SFPLOADMACRO's is VDHi:VDLo
        if vd is not None:
            m.d.comb += d.vd.eq(vd)
        if op.backdoor and op.has("vd"):
            m.d.comb += d.backdoor.eq(1)
        for name, target in (("vb", d.vb), ("vc", d.vc)):
            source = op.sources[name]       # the table's: a field (or alias), under a condition, or VD
            if source.field is not None:
                value = operand(word, op, source.field)
                m.d.comb += target.eq(Mux(holds(word, op, source.when), value, vd) if source.when else value)
            elif source.implicit_vd:
                m.d.comb += target.eq(vd)

    def _timing(self, m: Module, op: isa.Opcode) -> None:
        d = self.decoded
        m.d.comb += [d.latency2.eq(op.latency > 1), d.two_cycles.eq(op.two_cycles),
                     d.interlock.eq(rule_condition(self.word, op, _interlocks))]
        if op.two_cycle_mod1:
            mod1 = field(self.word, op, "mod1")
            slow = 0
            for value in sorted(op.two_cycle_mod1):
                slow = slow | (mod1 == value)
            m.d.comb += [d.latency2.eq(slow), d.two_cycles.eq(slow)]
