"""`Sfpu`: the Wormhole Vector Unit, the top of the RTL.

One cycle of the timing contract (docs/timing.md) in hardware:

1. The scheduler's slot 0 holds the SFPLOADMACRO instructions due this cycle
   on Simple, MAD, Round and Store.
2. The thread's word is accepted unless the SFPSWAP interlock holds it, and
   discarded if a due macro instruction claims its sub-unit.
3. Each sub-unit computes from the state at the start of the cycle (register
   outputs) and requests its writes; the LReg file takes them in the model's
   order: results landing from last cycle's two-cycle instructions, then Load,
   Simple (SFPTRANSP among them), Round; the younger write wins.
4. The scheduler counts down and takes the new SFPLOADMACRO's instructions.

Ports
- Instruction: `instr`, an Amaranth stream of the 32-bit word (`payload`,
  `valid`, `ready`; Verilog `instr__payload`, `instr__valid`, `instr__ready`);
  `ready` is low while the SFPSWAP interlock holds a word other than SFPNOP.
- `run`: low freezes the SFPU for the cycle: nothing is issued or counted,
  every pipeline holds, and no cycle is recorded. The configuration and
  `lreg_load` writes of such a cycle land at its end, which is how a test
  bench applies the assembler's directives between two instructions.
- `config_write`: writes of the Tensix registers the SFPU reads (`hdl.tensix`) and
  of the PRNG seed.
- `lreg_load`: writes LRegs directly (the `.lreg` directive).
- Dst side port: `dst_row`, `dst_rdata`, `dst_we`, `dst_cols`, `dst_wdata`.
- State views: `lregs`, flags and stack, `prng`, the configuration registers,
  `tensix`, `captured_vc`; `busy` while macro instructions wait or results
  are in flight.
- `cycle_trace`: the record of the previous cycle (`Trace`), registered so that it
  is stable for a whole cycle: what each sub-unit started, the lanes of each
  LReg written (their values are in `lregs` while the record is presented)
  and the Dst rows written. `tb.rtl_bench` turns it into the golden model's
  `CycleRecord`.
"""

from amaranth import Cat, Module, Mux, Signal
from amaranth.hdl import EnableInserter
from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import In, Out

from model import isa

from .arith import operand
from .config_regs import ConfigRegs, backdoor_write
from .decoder import Decoder
from .dst import Dst, DstRowWrite
from .flags import DEPTH, FlagUnit, StackEntry
from .isa import Opcode, Unit, field_layout, opcode
from .load_store import LoadUnit, StoreUnit
from .lregs import LANES, NUM_LREGS, WRITABLE, LRegFile, LRegWrite, LaneValues, WriteBack, write_back
from .mad_unit import MadUnit
from .prng import Prng
from .round_unit import RoundUnit
from .scheduler import MacroScheduler
from .simple_unit import SimpleUnit
from .tensix import ConfigField, ConfigWrite, TensixRegs, TensixView
from .unit_io import ROW_MASK_LO, LaneConfig, SubUnitInputs

SFPNOP_WORD = isa.encode("SFPNOP")
UNITS = [u.value for u in isa.Unit]                  # load, simple, mad, round, store: the model's order
MACRO_UNITS = ("simple", "mad", "round", "store")    # the scheduler's order

# The LReg file's write-back ports in the model's order of writes (the later wins): results
# landing from last cycle's two-cycle instructions, Load, (SFPTRANSP), Simple, Round, and the
# bench's `lreg_load`.
_LANDING = (*SimpleUnit.LANDING_TARGETS, MadUnit.LANDING_TARGETS, *RoundUnit.LANDING_TARGETS)
WRITE_BACKS = (*_LANDING, *LoadUnit.WRITE_TARGETS, SimpleUnit.WRITE_TARGETS, *RoundUnit.WRITE_TARGETS,
               WriteBack(WRITABLE, while_frozen=True))
TRANSPOSE_POSITION = len(_LANDING) + len(LoadUnit.WRITE_TARGETS)


def lreg_file() -> LRegFile:
    """The LReg file as the top builds it."""
    return LRegFile(WRITE_BACKS, TRANSPOSE_POSITION)


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
    "units": data.ArrayLayout(TraceUnit, len(UNITS)),
    "lreg_written": data.ArrayLayout(LANES, NUM_LREGS),
    "dst_writes": data.ArrayLayout(DstRowWrite, 8),
})


class Sfpu(wiring.Component):
    instr: In(stream.Signature(32))
    run: In(1, init=1)

    config_write: In(ConfigWrite)
    lreg_load: In(LRegWrite)

    dst_row: In(10)
    dst_rdata: Out(data.ArrayLayout(16, 16))
    dst_we: In(1)
    dst_cols: In(16)
    dst_wdata: In(data.ArrayLayout(16, 16))

    lregs: Out(LaneValues).array(NUM_LREGS)     # one port per LReg, so a bench reads only those it needs
    lane_flags: Out(LANES)
    use_flags: Out(LANES)
    flag_depth: Out(4)
    flag_stack: Out(data.ArrayLayout(StackEntry, DEPTH))
    prng: Out(data.ArrayLayout(32, LANES))
    lane_config: Out(LaneConfig)
    templates: Out(data.ArrayLayout(LaneValues, 4))
    sequences: Out(data.ArrayLayout(LaneValues, 4))
    misc: Out(data.ArrayLayout(12, LANES))
    tensix: Out(TensixView)
    captured_vc: Out(data.ArrayLayout(32, LANES))
    busy: Out(1)

    cycle_trace: Out(Trace)     # not `trace`: Verilator's C++ model has a method of that name

    def elaborate(self, platform):
        m = Module()
        run = self.run
        frozen = EnableInserter(run)      # pipelines and SFPU-only state hold while frozen

        def add(name, component, holds=True):
            m.submodules[name] = frozen(component) if holds else component
            return component

        decoder = add("decoder", Decoder(), holds=False)
        flag_unit = add("flags", FlagUnit())
        config_regs = add("config_regs", ConfigRegs())
        scheduler = add("scheduler", MacroScheduler())
        units = {
            "load": add("load", LoadUnit()),
            "simple": add("simple", SimpleUnit()),
            "mad": add("mad", MadUnit()),
            "round": add("round", RoundUnit()),
            "store": add("store", StoreUnit()),
        }
        # These also take writes from outside while frozen, so their SFPU writes are
        # gated by `run` instead: nothing issues while frozen, and the LReg file and
        # the PRNG take `run` for what lands from earlier cycles.
        prng = add("prng", Prng(), holds=False)
        dst = add("dst", Dst(), holds=False)
        tensix = add("tensix", TensixRegs(), holds=False)

        load, simple, mad, rnd, store = (units[u] for u in UNITS)
        lregs = add("lregs", lreg_file(), holds=False)
        # In the order of WRITE_BACKS, before the bench's `lreg_load`.
        unit_writes = [*simple.landing, mad.landing, *rnd.landing, *load.write, simple.write, *rnd.write]

        cycle = Signal(32)
        with m.If(run):
            m.d.sync += cycle.eq(cycle + 1)

        # -- the thread's instruction -------------------------------------------------
        word, d = self.instr.payload, decoder.decoded
        m.d.comb += decoder.word.eq(word)
        interlock = Signal()          # the thread's SFPSWAP started last cycle
        hold = Signal()
        accepted = Signal()
        m.d.comb += [
            hold.eq(interlock & (word != SFPNOP_WORD)),
            self.instr.ready.eq(run & ~hold),
            accepted.eq(self.instr.valid & run & ~hold),
        ]
        due = scheduler.due
        discarded = Signal()
        for i, name in enumerate(MACRO_UNITS):
            with m.If(d.known & (d.unit == Unit[name.upper()])):
                m.d.comb += discarded.eq(due[i].valid)
        thread_runs = Signal()
        m.d.comb += thread_runs.eq(accepted & ~discarded)
        with m.If(run):
            m.d.sync += interlock.eq(thread_runs & d.interlock)

        # -- what each sub-unit runs ------------------------------------------------------
        # Each sub-unit's inputs, joined to it below; the issue logic drives `issue` directly.
        feeds = {name: SubUnitInputs().create(path=(f"{name}_inputs",)) for name in UNITS}
        issue = {name: feeds[name].issue for name in UNITS}
        macro_cycle = {name: Signal(32, name=f"macro_cycle_{name}") for name in UNITS}
        for name in UNITS:
            # Operand isolation: a sub-unit sees the thread's word only when it runs it
            # (zero otherwise), so a word for one sub-unit does not ripple through the
            # others' datapaths; an event-driven simulator then evaluates far less.
            here = Signal(name=f"thread_{name}")
            m.d.comb += here.eq(thread_runs & d.known & (d.unit == Unit[name.upper()]))
            thread = [issue[name].valid.eq(here),
                      issue[name].opcode.eq(Mux(here, d.opcode, 0)), issue[name].word.eq(Mux(here, word, 0)),
                      issue[name].vd.eq(Mux(here, d.vd, 0)), issue[name].vb.eq(Mux(here, d.vb, 0)),
                      issue[name].vc.eq(Mux(here, d.vc, 0))]
            if name not in MACRO_UNITS:
                m.d.comb += thread
                continue
            slot = due[MACRO_UNITS.index(name)]
            with m.If(slot.valid & run):    # while frozen a due instruction waits, and writes no Dst row
                m.d.comb += [issue[name].valid.eq(1), issue[name].macro.eq(1),
                             issue[name].opcode.eq(slot.word[24:32]), issue[name].word.eq(slot.word),
                             issue[name].vd.eq(slot.vd), issue[name].vb.eq(slot.vb), issue[name].vc.eq(slot.vc),
                             issue[name].store_addr.eq(slot.store_addr), macro_cycle[name].eq(slot.macro_cycle)]
            with m.Else():
                m.d.comb += thread

        for name, unit in units.items():
            feed = feeds[name]
            m.d.comb += [feed.enabled.eq(flag_unit.enabled), feed.lane_config.eq(config_regs.lane_config),
                         *[feed.lregs[r].eq(lregs.value[r]) for r in range(NUM_LREGS)]]
            wiring.connect(m, top=feed, unit=unit.inputs)
        for unit in (load, store):
            m.d.comb += unit.tensix.eq(tensix.view)
        m.d.comb += [simple.lane_flags.eq(flag_unit.lane_flags), simple.use_flags.eq(flag_unit.use_flags),
                     simple.prng.eq(prng.value), rnd.prng.eq(prng.value),
                     simple.templates.eq(config_regs.templates), simple.sequences.eq(config_regs.sequences),
                     simple.misc.eq(config_regs.misc)]

        # -- LRegs --------------------------------------------------------------------
        assert len(lregs.write) == len(unit_writes) + 1
        for port, request in zip(lregs.write, unit_writes):
            wiring.connect(m, unit=request, lregs=port)
        m.d.comb += [*write_back(lregs.write[-1], self.lreg_load), lregs.run.eq(run),
                     lregs.transpose.eq(simple.transpose), lregs.transpose_lanes.eq(simple.transpose_lanes)]

        # -- flags (only the Simple sub-unit changes them) ----------------------------------
        wiring.connect(m, simple.flags, flag_unit.request)
        # ROW_MASK: LaneConfig[lane & 7] holds one bit per row of 8 lanes.
        m.d.comb += flag_unit.row_masked.eq(Cat(*[config_regs.lane_config[lane % 8][ROW_MASK_LO + lane // 8]
                                                  for lane in range(LANES)]))

        # -- PRNG: the model replays each sub-unit's whole PRNG state, Round's last ------------
        advance = Signal(LANES)
        m.d.comb += advance.eq(Mux(rnd.prng_used, rnd.prng_advance, Mux(simple.prng_used, simple.prng_advance, 0)))
        m.d.comb += [prng.advance.eq(advance & run.replicate(LANES)),
                     prng.seed_write.eq(self.config_write.valid & (self.config_write.field == ConfigField.PRNG_SEED)),
                     prng.seed.eq(self.config_write.value)]

        # -- Dst and the Tensix counters -----------------------------------------------------
        wiring.connect(m, load=load.dst, dst=dst.load)
        wiring.connect(m, store=store.dst, dst=dst.store)
        m.d.comb += [dst.side_row.eq(self.dst_row), self.dst_rdata.eq(dst.side_rdata), dst.side_we.eq(self.dst_we),
                     dst.side_cols.eq(self.dst_cols), dst.side_wdata.eq(self.dst_wdata)]
        m.d.comb += [tensix.config.eq(self.config_write),
                     tensix.apply_addr_mod.eq((load.apply_addr_mod | store.apply_addr_mod) & run),
                     tensix.addr_mod.eq(Mux(load.apply_addr_mod, load.addr_mod, store.addr_mod)),
                     tensix.counters_valid.eq(accepted & d.counters), tensix.counters_word.eq(word)]

        # -- configuration registers: SFPCONFIG and the backdoor, in execution order -----------
        backdoor = backdoor_write(m, thread_runs & d.backdoor & (d.vd >= 12),
                                  word, d.vd, config_regs.lane_config)
        backdoor_first = (d.unit == Unit.LOAD) | (d.unit == Unit.SIMPLE)
        m.d.comb += [config_regs.write[0].eq(Mux(backdoor_first, backdoor, simple.config_write)),
                     config_regs.write[1].eq(Mux(backdoor_first, simple.config_write, backdoor))]

        # -- SFPLOADMACRO -------------------------------------------------------------------
        macro_word = Signal(field_layout("SFPLOADMACRO"))
        m.d.comb += macro_word.eq(word)
        m.d.comb += [
            scheduler.issue.eq(thread_runs & (d.opcode == opcode("SFPLOADMACRO"))),
            scheduler.macro.eq(macro_word.macro), scheduler.vd.eq(d.vd[0:3]), scheduler.mod0.eq(macro_word.mod0),
            scheduler.imm10.eq(operand(word, isa.OPCODES["SFPLOADMACRO"], "imm10")),
            scheduler.address.eq(load.address),
            scheduler.accepted.eq(accepted & ~d.counters),     # only SFPU instructions count
            scheduler.cycle.eq(cycle),
            scheduler.misc.eq(config_regs.misc[0]),
        ]
        for j in range(4):     # LoadMacroConfig as lane 0 holds it
            m.d.comb += [scheduler.sequence[j].eq(config_regs.sequences[j][0]),
                         scheduler.templates[j].eq(config_regs.templates[j][0])]

        # -- state views ----------------------------------------------------------------------
        landing_en = Cat(*[p.en for p in (*simple.landing, mad.landing, *rnd.landing)])
        m.d.comb += [
            *[self.lregs[r].eq(lregs.value[r]) for r in range(NUM_LREGS)], self.lane_flags.eq(flag_unit.lane_flags),
            self.use_flags.eq(flag_unit.use_flags), self.flag_depth.eq(flag_unit.depth),
            self.flag_stack.eq(flag_unit.stack), self.prng.eq(prng.value),
            self.lane_config.eq(config_regs.lane_config), self.templates.eq(config_regs.templates),
            self.sequences.eq(config_regs.sequences), self.misc.eq(config_regs.misc),
            self.tensix.eq(tensix.view), self.captured_vc.eq(rnd.captured_vc),
            self.busy.eq(scheduler.pending | landing_en.any()),
        ]

        # -- trace ----------------------------------------------------------------------------
        undefined = {
            "load": load.undefined, "simple": flag_unit.undefined, "mad": 0, "round": rnd.undefined, "store": 0,
        }
        record = Signal(Trace)
        m.d.comb += [record.valid.eq(1), record.cycle.eq(cycle), record.issued.eq(accepted),
                     # from the port itself, so the trace shows the `ready` the thread saw
                     record.stalled.eq(self.instr.valid & run & ~self.instr.ready), record.word.eq(word),
                     record.dst_writes.eq(dst.writes)]
        for r in range(NUM_LREGS):
            m.d.comb += record.lreg_written[r].eq(lregs.written[r])
        for i, name in enumerate(UNITS):
            entry = record.units[i]
            thread_here = thread_runs & ~issue[name].macro & (d.unit == Unit[name.upper()])
            m.d.comb += [entry.valid.eq(issue[name].valid), entry.macro.eq(issue[name].macro),
                         entry.opcode.eq(issue[name].opcode), entry.word.eq(issue[name].word),
                         entry.vd.eq(issue[name].vd), entry.vb.eq(issue[name].vb), entry.vc.eq(issue[name].vc),
                         entry.macro_cycle.eq(macro_cycle[name]), entry.store_addr.eq(issue[name].store_addr),
                         entry.undefined.eq(undefined[name] | (thread_here & d.reserved_bits))]
        trace = Signal(Trace)
        with m.If(run):
            m.d.sync += trace.eq(record)
        m.d.sync += trace.valid.eq(run)
        m.d.comb += self.cycle_trace.eq(trace)
        return m
