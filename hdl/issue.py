"""`IssueStage`: what each sub-unit starts this cycle.

The thread's word is accepted unless an interlock holds it: only SFPNOP
passes in the cycle after a thread SFPSWAP (and on Blackhole SFPSHFT2 modes
2-4), and on Blackhole a word the stall logic believes reads what the
thread's MAD-class instruction of the previous cycle writes waits a cycle
(`hdl.stall.MadStall`). It is discarded if a due
SFPLOADMACRO instruction claims its sub-unit; a due macro instruction waits
while the SFPU is frozen. Each sub-unit then gets one `Issue`: the due macro
slot's instruction, or the thread's word when the sub-unit runs it, or zeros
(operand isolation: a word for one sub-unit does not ripple through the
others' datapaths, so an event-driven simulator evaluates far less).

The values between the ports are expressions rather than named signals:
Amaranth's simulator reruns a module's combinational logic once more for
each level of signals the module both drives and reads.
"""

from amaranth import Cat, Module, Mux, Signal
from amaranth.lib import data
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model import isa

from .decoder import Decoded
from .isa import ArchComponent, opcode_bits, unit
from .scheduler import MACRO_UNITS, Scheduled
from .stall import MadStall
from .unit_io import Issue

SUB_UNITS = tuple(isa.Unit)                  # load, simple, mad, round, store: the model's order


class IssueStage(ArchComponent):
    valid: In(1)                         # the thread presents a word (the instruction stream's)
    ready: Out(1)                        # low while an interlock holds the word
    decoded: In(Decoded)                 # that word, decoded
    run: In(1, init=1)                   # low: the SFPU is frozen, nothing issues
    due: In(data.ArrayLayout(Scheduled, len(MACRO_UNITS)))    # the scheduler's slot 0

    issue: Out(Issue).array(len(SUB_UNITS))          # per sub-unit, in SUB_UNITS order
    macro_cycle: Out(32).array(len(SUB_UNITS))       # a macro instruction's SFPLOADMACRO cycle (trace)
    reserved: Out(len(SUB_UNITS))            # the thread's word on this sub-unit sets a must-be-zero bit
    accepted: Out(1)                     # the thread's word was accepted
    thread_runs: Out(1)                  # ... and not discarded

    def elaborate(self, platform):
        m = Module()
        valid, run, d = self.valid, self.run, self.decoded
        word = d.word
        interlock = Signal(name="interlock_q")      # the thread's SFPSWAP (BH: SFPSHFT2 2-4) started last cycle
        hold = interlock & (word != isa.encode("SFPNOP", self.arch))
        if self.features.mad_stall:
            m.submodules.mad_stall = mad_stall = MadStall(self.arch, features=self.features)
            hold = hold | mad_stall.hold
        accepted = valid & run & ~hold
        claimed = Cat(self.due[i].valid & (d.unit == unit(u)) for i, u in enumerate(MACRO_UNITS)).any()
        thread_runs = accepted & ~(d.known & claimed)
        m.d.comb += [self.ready.eq(run & ~hold), self.accepted.eq(accepted),
                     self.thread_runs.eq(thread_runs)]
        with m.If(run):
            m.d.sync += interlock.eq(thread_runs & d.interlock)
        if self.features.mad_stall:
            m.d.comb += [mad_stall.word.eq(word), mad_stall.known.eq(valid & d.known), mad_stall.run.eq(run),
                         mad_stall.started.eq(thread_runs & d.known)]

        for i, sub_unit in enumerate(SUB_UNITS):
            issue, on_unit = self.issue[i], d.unit == unit(sub_unit)
            here = thread_runs & d.known & on_unit
            m.d.comb += self.reserved[i].eq(thread_runs & on_unit & d.reserved_bits)
            thread = [issue.valid.eq(here), issue.opcode.eq(Mux(here, d.opcode, 0)),
                      issue.word.eq(Mux(here, word, 0)), issue.vd.eq(Mux(here, d.vd, 0)),
                      issue.vb.eq(Mux(here, d.vb, 0)), issue.vc.eq(Mux(here, d.vc, 0))]
            if sub_unit not in MACRO_UNITS:
                m.d.comb += thread
                continue
            slot = self.due[MACRO_UNITS.index(sub_unit)]
            with m.If(slot.valid & run):
                m.d.comb += [issue.valid.eq(1), issue.macro.eq(1), issue.opcode.eq(opcode_bits(slot.word)),
                             issue.word.eq(slot.word), issue.vd.eq(slot.vd), issue.vb.eq(slot.vb),
                             issue.vc.eq(slot.vc), issue.store_addr.eq(slot.store_addr),
                             self.macro_cycle[i].eq(slot.macro_cycle)]
            with m.Else():
                m.d.comb += thread
        return m
