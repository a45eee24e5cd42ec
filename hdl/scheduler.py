"""The SFPLOADMACRO scheduler: per sub-unit delay slots.

Each sub-unit (Simple, MAD, Round, Store) has eight slots; slot k holds the
instruction that runs after k more counts, so slot 0 is what runs this cycle.
At the end of a cycle that counts, every slot moves down by one; a cycle
counts unless some waiting instruction has the instruction delay kind and
the thread issued nothing. An SFPLOADMACRO then writes its instruction for a
sub-unit into slot Delay, which is the documented forget rule: whatever
would have run at the same time is replaced (and slot 7 is always free by
then, so Delay 7's exemption changes nothing). A byte that selects nothing
writes no slot: tt-llk's kernels rely on the instruction there surviving.

The scheduled instruction is the template with SFPLOADMACRO's overrides
applied (docs/timing.md): VD, VB and VC per bits 6 and 7 of the sequence
byte, and for the store its VD, Mod0, Imm10 and the address the load used.
The words are the architecture's (`table(arch)`, `field_layout`): a template's
own VB and VC are its `Opcode.sources` (on Blackhole an SFPAND/SFPOR template
gives its VB field only under Mod1 USE_VB, docs/blackhole.md), and the store's
word has Blackhole's layout.
"""

from amaranth import Const, Module, Mux, Signal
from amaranth.lib import data
from amaranth.lib.wiring import In, Out

from .arith import field, holds, operand

from tensix_sfpu.model import isa

from .isa import ArchComponent, field_layout, opcode, opcode_bits, table

MACRO_UNITS = isa.MACRO_UNITS      # sequence byte i drives MACRO_UNITS[i]
SLOTS = 8
STORE = MACRO_UNITS.index(isa.Unit.STORE)

Scheduled = data.StructLayout({
    "valid": 1,
    "word": 32,               # the template (SFPNOP if the sub-unit cannot run it), or the store's word
    "vd": 5,                  # 16 = L16
    "vb": 4,
    "vc": 4,
    "store_addr": 10,         # the SFPLOADMACRO's address, for the store
    "macro_cycle": 32,        # the SFPLOADMACRO's cycle, for the trace
    "by_instructions": 1,     # UnitDelayKind: counts issued instructions
})


class MacroScheduler(ArchComponent):
    # The SFPLOADMACRO accepted this cycle.
    issue: In(1)
    macro: In(2)
    vd: In(3)
    mod0: In(4)
    imm10: In(10)
    address: In(10)           # the Dst address its load computed
    accepted: In(1)           # the thread's instruction was accepted this cycle
    cycle: In(32)
    # LoadMacroConfig at the start of the cycle (lane 0's copy).
    sequence: In(data.ArrayLayout(32, 4))
    templates: In(data.ArrayLayout(32, 4))
    misc: In(isa.MACRO_MISC.size)                     # viewed as isa.MACRO_MISC (a plain port: no extra wires)

    due: Out(data.ArrayLayout(Scheduled, 4))          # Simple, MAD, Round, Store, this cycle
    select_reserved: Out(4)                           # a sequence byte selects 1
    template_invalid: Out(4)                          # the selected template is no SFPU instruction
    store_not_sfpstore: Out(1)                        # the Store byte selects something else
    pending: Out(1)                                   # some instruction waits in a slot

    def elaborate(self, platform):
        m = Module()
        slots = [[Signal(Scheduled, name=f"slot_{u.value}_{k}") for k in range(SLOTS)] for u in MACRO_UNITS]
        for i in range(len(MACRO_UNITS)):
            m.d.comb += self.due[i].eq(slots[i][0])
        m.d.comb += self.pending.eq(_any(s.valid for unit_slots in slots for s in unit_slots))

        # -- counting ---------------------------------------------------------------
        waiting_for_instructions = Signal()
        m.d.comb += waiting_for_instructions.eq(
            _any(s.valid & s.by_instructions for unit_slots in slots for s in unit_slots[1:]))
        count = Signal()
        m.d.comb += count.eq(self.accepted | ~waiting_for_instructions)
        for unit_slots in slots:
            with m.If(count):
                for k in range(SLOTS - 1):
                    m.d.sync += unit_slots[k].eq(unit_slots[k + 1])
                m.d.sync += unit_slots[SLOTS - 1].valid.eq(0)
            with m.Else():
                m.d.sync += unit_slots[0].valid.eq(0)       # it ran this cycle

        # -- scheduling -------------------------------------------------------------
        sequence = Signal(32)
        m.d.comb += sequence.eq(self.sequence[self.macro])
        for i, unit in enumerate(MACRO_UNITS):
            byte = data.View(isa.MACRO_SEQUENCE_BYTE, sequence[8 * i:8 * i + 8])
            delay = byte.delay
            new = Signal(Scheduled, name=f"new_{unit.value}")
            m.d.comb += [new.store_addr.eq(self.address), new.macro_cycle.eq(self.cycle),
                         new.by_instructions.eq(data.View(isa.MACRO_MISC, self.misc).unit_delay_kind[i])]
            if unit == isa.Unit.STORE:
                self._store(m, new, byte)
            else:
                self._override(m, new, byte, i, unit)
            with m.If(self.issue & (byte.select != 0)):      # select 0 leaves the slot alone (docs/timing.md)
                with m.Switch(delay):              # the count is shifted first, so slot `delay` is free
                    for d in range(SLOTS):
                        with m.Case(d):
                            m.d.sync += slots[i][d].eq(new)
        return m

    def _template(self, m: Module, select, i: int):
        """The 32-bit word select 4-7 picks; flags select 1 and unknown opcodes."""
        word = Signal(32, name=f"template_{i}")
        m.d.comb += word.eq(self.templates[select[0:2]])
        known = _any(opcode_bits(word) == op.opcode for op in table(self.arch).values())
        with m.If(self.issue & (select == 1)):
            m.d.comb += self.select_reserved[i].eq(1)
        with m.If(self.issue & select[2] & ~known):
            m.d.comb += self.template_invalid[i].eq(1)
        return word, known

    def _override(self, m: Module, new, byte, i: int, unit: isa.Unit) -> None:
        select = byte.select
        word, known = self._template(m, select, i)
        runnable = _any(opcode_bits(word) == op.opcode for op in table(self.arch).values() if unit in op.macro_units)
        # What the sub-unit runs: the template, or SFPNOP in its place (whose
        # missing fields then feed the overrides, as in the model).
        effective = Signal(32, name=f"effective_{i}")
        m.d.comb += effective.eq(Mux(select[2] & runnable, word, isa.encode("SFPNOP", self.arch)))
        t_vd, t_vb, t_vc = Signal(4, name=f"t_vd_{i}"), Signal(4, name=f"t_vb_{i}"), Signal(4, name=f"t_vc_{i}")
        has_vb, has_vc = Signal(name=f"has_vb_{i}"), Signal(name=f"has_vc_{i}")
        word = effective
        with m.Switch(opcode_bits(word)):
            for op in table(self.arch).values():
                with m.Case(op.opcode):
                    if op.has("vd"):
                        m.d.comb += t_vd.eq(field(word, op, "vd"))
                    for name, t_reg, has_reg in (("vb", t_vb, has_vb), ("vc", t_vc, has_vc)):
                        source = op.sources[name]       # a template's own field, under its condition
                        if source.field is not None:
                            m.d.comb += [t_reg.eq(operand(word, op, source.field)),
                                         has_reg.eq(holds(word, op, source.when) if source.when else 1)]
        to_vb, to_l16 = byte.vd_to_vb, byte.to_l16
        m.d.comb += [
            # Select 3 (SFPSTORE) is one more instruction these sub-units cannot run: SFPNOP.
            new.valid.eq((select == 2) | (select == 3) | (select[2] & known)),
            new.word.eq(effective),
            new.vd.eq(Mux(to_l16, 16, self.vd)),
            new.vb.eq(Mux(to_vb, self.vd, Mux(has_vb, t_vb, t_vd))),
            new.vc.eq(Mux(to_vb, Mux(has_vc, t_vc, t_vd), self.vd)),
        ]

    def _store(self, m: Module, new, byte) -> None:
        select = byte.select
        word, known = self._template(m, select, STORE)
        store_op = table(self.arch)["SFPSTORE"]
        is_store = opcode_bits(word) == store_op.opcode
        with m.If(self.issue & ((select == 2) | (select[2] & known & ~is_store))):
            m.d.comb += self.store_not_sfpstore.eq(1)
        template_vd = Mux(select == 3, 0, field(word, store_op, "vd"))
        vd = Mux(byte.to_l16, 16, Mux(byte.vd_to_vb, template_vd, self.vd))
        misc = data.View(isa.MACRO_MISC, self.misc)
        mod0 = Mux(misc.uses_load_mod0_for_store.bit_select(self.macro, 1), self.mod0, misc.store_mod0)
        store_word = Signal(field_layout("SFPSTORE", self.arch), name="store_word")
        m.d.comb += [store_word.opcode.eq(opcode("SFPSTORE")), store_word.vd.eq(vd[0:4]),
                     store_word.mod0.eq(mod0), store_word.imm10.eq(self.imm10)]
        m.d.comb += [
            new.valid.eq((select == 3) | (select[2] & is_store)),
            new.word.eq(store_word),
            new.vd.eq(vd),
        ]


def _any(conditions) -> Const:
    result = Const(0, 1)
    for c in conditions:
        result = result | c
    return result
