"""The trace port (like RISC-V's RVFI): one record per cycle that ran.

`TraceRecorder` counts the cycles that ran and registers, at the end of
each, what the sub-units started, the lanes of each LReg written and the Dst
rows written, so the record is stable for the whole next cycle (the LReg
values themselves are then on the top's `lregs` ports). The record is
assembled only in the register's next-value logic: Amaranth's simulator
evaluates it once per clock edge instead of with every change of the
signals it is made of.
"""

from amaranth import Module
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model import isa

from .dst import DstRowWrite
from .isa import Opcode
from .lregs import LANES, NUM_LREGS
from .unit_io import Issue

NUM_UNITS = len(isa.Unit)

TraceUnit = data.StructLayout({
    "valid": 1,
    "macro": 1,
    "opcode": Opcode,
    "word": 32,
    "vd": 5,
    "vb": 4,
    "vc": 4,
    "macro_cycle": 32,
    "store_addr": 10,
    "undefined": 1,          # the instruction did something the documentation leaves undefined
})

Trace = data.StructLayout({
    "valid": 1,              # the record describes a cycle that ran
    "cycle": 32,
    "issued": 1,             # `word` was accepted from the thread
    "stalled": 1,            # `word` was presented and held by the interlock
    "word": 32,
    "units": data.ArrayLayout(TraceUnit, NUM_UNITS),
    "lreg_written": data.ArrayLayout(LANES, NUM_LREGS),
    "dst_writes": data.ArrayLayout(DstRowWrite, 8),
})


class TraceRecorder(wiring.Component):
    run: In(1, init=1)                   # low: the cycle did not run, no record
    issued: In(1)
    stalled: In(1)
    word: In(32)
    issue: In(Issue).array(NUM_UNITS)        # what each sub-unit started (isa.Unit order)
    macro_cycle: In(32).array(NUM_UNITS)
    undefined: In(NUM_UNITS)
    lreg_written: In(LANES).array(NUM_LREGS)
    dst_writes: In(data.ArrayLayout(DstRowWrite, 8))

    cycle: Out(32)                       # cycles run so far
    trace: Out(Trace)                    # the record of the previous cycle

    def elaborate(self, platform):
        m = Module()
        trace = self.trace
        with m.If(self.run):
            m.d.sync += [self.cycle.eq(self.cycle + 1), trace.cycle.eq(self.cycle), trace.issued.eq(self.issued),
                         trace.stalled.eq(self.stalled), trace.word.eq(self.word),
                         trace.dst_writes.eq(self.dst_writes)]
            for r in range(NUM_LREGS):
                m.d.sync += trace.lreg_written[r].eq(self.lreg_written[r])
            for i, issue in enumerate(self.issue):
                entry = trace.units[i]
                m.d.sync += [entry.valid.eq(issue.valid), entry.macro.eq(issue.macro),
                             entry.opcode.eq(issue.opcode), entry.word.eq(issue.word), entry.vd.eq(issue.vd),
                             entry.vb.eq(issue.vb), entry.vc.eq(issue.vc), entry.macro_cycle.eq(self.macro_cycle[i]),
                             entry.store_addr.eq(issue.store_addr), entry.undefined.eq(self.undefined[i])]
        m.d.sync += trace.valid.eq(self.run)
        return m
