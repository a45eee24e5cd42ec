"""`Sfpu`: the Vector Unit of Wormhole B0 or Blackhole A0, the top of the RTL.

`Sfpu(arch)` elaborates the one design for either architecture: every block
that differs takes the architecture (`hdl.isa.ArchComponent`) and reads what
differs from `model.isa`: the ISA table and the feature record.

One cycle of the timing contract (docs/timing.md) in hardware:

1. The scheduler's slot 0 holds the SFPLOADMACRO instructions due this cycle
   on Simple, MAD, Round and Store.
2. The thread's word is accepted unless an interlock holds it (SFPSWAP's;
   on Blackhole also SFPSHFT2 modes 2-4 and the stall after a MAD-class
   instruction whose result it reads, `hdl.stall`), and discarded if a due
   macro instruction claims its sub-unit.
3. Each sub-unit computes from the state at the start of the cycle (register
   outputs) and requests its writes; the LReg file takes them in the model's
   order: results landing from last cycle's two-cycle instructions, then Load,
   Simple (SFPTRANSP among them), Round; the younger write wins.
4. The scheduler counts down and takes the new SFPLOADMACRO's instructions.

Blocks: the decoder and the issue stage (`hdl.issue`: step 2 and each
sub-unit's `Issue`), the five sub-units, the LReg file with its write-back
ports, the flag unit, the configuration registers, the scheduler, the PRNG,
Dst, the Tensix registers and the trace recorder (`hdl.trace`). The wires
between them are grouped into small modules of their own (`wires`), because
Amaranth's simulator reruns a module's combinational statements whenever one
of their inputs changes: glue that changes at different moments of a cycle
then reruns only when its own inputs do (docs/performance.md).

Ports
- Instruction: `instr`, an Amaranth stream of the 32-bit word (`payload`,
  `valid`, `ready`; Verilog `instr__payload`, `instr__valid`, `instr__ready`);
  `ready` is low while an interlock holds a word (step 2).
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
  and the Dst rows written. `tb.env.monitor.TraceMonitor` turns it into the golden model's
  `CycleRecord`.
"""

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.hdl import EnableInserter
from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model import isa

from .arith import operand
from .config_regs import MISC_BITS, ConfigRegs, backdoor_write
from .decoder import Decoder
from .dst import Dst
from .flags import DEPTH, FlagUnit, StackEntry
from .isa import ArchComponent, Unit, field_layout, opcode, table
from .issue import IssueStage
from .load_store import LoadUnit, StoreUnit
from .lregs import LANES, NUM_LREGS, WRITABLE, LRegFile, LRegWrite, LaneValues, WriteBack, write_back
from .mad_unit import MadUnit
from .prng import Prng
from .round_unit import RoundUnit
from .scheduler import MacroScheduler
from .simple_unit import SimpleUnit
from .tensix import ConfigField, ConfigWrite, TensixRegs, TensixView
from .trace import Trace, TraceRecorder, TraceUnit  # noqa: F401 (TraceUnit: re-exported for tb)
from .unit_io import ROW_MASK_LO, LaneConfig, LRegValues, SubUnitInputs

UNITS = [u.value for u in isa.Unit]                  # load, simple, mad, round, store: the model's order
MACRO_UNITS = tuple(u.value for u in isa.MACRO_UNITS)    # the scheduler's order

# The LReg file's write-back ports in the model's order of writes (the later wins): results
# landing from last cycle's two-cycle instructions, Load, (SFPTRANSP), Simple, Round, and the
# bench's `lreg_load`. Each entry names a sub-unit and its ports: `landing` (the class's
# LANDING_TARGETS) or `write` (WRITE_TARGETS).
WRITE_ORDER = (("simple", "landing"), ("mad", "landing"), ("round", "landing"), ("load", "write"),
               ("simple", "write"), ("round", "write"))
TRANSPOSE_AFTER = ("load", "write")         # SFPTRANSP writes after Load, before Simple
_UNIT_CLASSES = {"load": LoadUnit, "simple": SimpleUnit, "mad": MadUnit, "round": RoundUnit}
_TARGETS = {"landing": "LANDING_TARGETS", "write": "WRITE_TARGETS"}


def _write_targets(order) -> tuple:
    """The targets of the ports `order` names, one per port."""
    out = []
    for unit, port in order:
        targets = getattr(_UNIT_CLASSES[unit], _TARGETS[port])
        out += [targets] if isinstance(targets, WriteBack) else list(targets)
    return tuple(out)


def _unit_writes(units: dict) -> list:
    """The sub-units' write-back ports in WRITE_ORDER."""
    out = []
    for unit, port in WRITE_ORDER:
        ports = getattr(units[unit], port)
        out += list(ports) if isinstance(ports, (list, tuple)) else [ports]
    return out


WRITE_BACKS = (*_write_targets(WRITE_ORDER), WriteBack(WRITABLE, while_frozen=True))
TRANSPOSE_POSITION = len(_write_targets(WRITE_ORDER[:WRITE_ORDER.index(TRANSPOSE_AFTER) + 1]))


def lreg_file() -> LRegFile:
    """The LReg file as the top builds it."""
    return LRegFile(WRITE_BACKS, TRANSPOSE_POSITION)


class Sfpu(ArchComponent):
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
    misc: Out(data.ArrayLayout(MISC_BITS, LANES))
    tensix: Out(TensixView)
    captured_vc: Out(data.ArrayLayout(32, LANES))
    busy: Out(1)

    cycle_trace: Out(Trace)     # not `trace`: Verilator's C++ model has a method of that name

    def __init__(self, arch: isa.Arch, *, features: isa.Features | None = None):
        super().__init__(arch, features=features)

    def elaborate(self, platform):
        m = Module()
        arch, f = self.arch, self.features
        run = self.run
        frozen = EnableInserter(run)      # pipelines and SFPU-only state hold while frozen

        def add(name, component, holds=True):
            m.submodules[name] = frozen(component) if holds else component
            return component

        def wires(name):
            """A module for one group of the connections below. Amaranth's simulator
            reruns all of a module's combinational statements whenever one of their
            inputs changes, so connections that change at different times in a cycle
            live in different modules."""
            part = Module()
            m.submodules[name] = part
            return part

        decoder = add("decoder", Decoder(arch, features=f), holds=False)
        issue = add("issue", IssueStage(arch, features=f), holds=False)
        flag_unit = add("flags", FlagUnit(arch, features=f))
        config_regs = add("config_regs", ConfigRegs())
        scheduler = add("scheduler", MacroScheduler(arch, features=f))
        units = {
            "load": add("load", LoadUnit(arch, features=f)),
            "simple": add("simple", SimpleUnit(arch, features=f)),
            "mad": add("mad", MadUnit(arch, features=f)),
            "round": add("round", RoundUnit(arch, features=f)),
            "store": add("store", StoreUnit(arch, features=f)),
        }
        # These also take writes from outside while frozen, so their SFPU writes are
        # gated by `run` instead: nothing issues while frozen, and the LReg file and
        # the PRNG take `run` for what lands from earlier cycles.
        prng = add("prng", Prng(), holds=False)
        dst = add("dst", Dst(), holds=False)
        tensix = add("tensix", TensixRegs(arch, features=f), holds=False)
        recorder = add("recorder", TraceRecorder(), holds=False)

        load, simple, mad, rnd, store = (units[u] for u in UNITS)
        lregs = add("lregs", lreg_file(), holds=False)
        unit_writes = _unit_writes(units)

        # -- the thread's instruction and what each sub-unit runs -----------------------------------
        d = decoder.decoded
        word = d.word          # the thread's word, in step with its decode
        m.d.comb += [decoder.word.eq(self.instr.payload), issue.valid.eq(self.instr.valid),
                     self.instr.ready.eq(issue.ready), issue.run.eq(run), issue.decoded.eq(d),
                     issue.due.eq(scheduler.due)]

        # -- each sub-unit's inputs: its issue and the state at the start of the cycle ---------------
        lreg_values = Signal(LRegValues)          # one bus of every LReg, assembled once for all five
        wires("lreg_bus").d.comb += lreg_values.eq(Cat(*lregs.value))
        feeds = {name: SubUnitInputs().create(path=(f"{name}_inputs",)) for name in UNITS}
        feed = wires("feed")
        for i, (name, unit) in enumerate(units.items()):
            feed.d.comb += [feeds[name].issue.eq(issue.issue[i]), feeds[name].lregs.eq(lreg_values),
                            feeds[name].enabled.eq(flag_unit.enabled),
                            feeds[name].lane_config.eq(config_regs.lane_config)]
            wiring.connect(m, top=feeds[name], unit=unit.inputs)
        wires("unit_state").d.comb += [
            load.tensix.eq(tensix.view), store.tensix.eq(tensix.view),
            simple.lane_flags.eq(flag_unit.lane_flags), simple.use_flags.eq(flag_unit.use_flags),
            simple.prng.eq(prng.value), rnd.prng.eq(prng.value), simple.templates.eq(config_regs.templates),
            simple.sequences.eq(config_regs.sequences), simple.misc.eq(config_regs.misc)]

        # -- LRegs ------------------------------------------------------------------------------------
        write_backs = wires("write_back")
        assert len(lregs.write) == len(unit_writes) + 1
        for port, request in zip(lregs.write, unit_writes):
            wiring.connect(write_backs, unit=request, lregs=port)
        if f.swap_late_reads:      # SFPSWAP's SWAP mode reads what lands this cycle
            wiring.connect(write_backs, mad=mad.landing, simple=simple.mad_landing)
            for i, port in enumerate(rnd.landing):
                wiring.connect(write_backs, round=port, simple=simple.round_landing[i])
        write_backs.d.comb += [*write_back(lregs.write[-1], self.lreg_load), lregs.run.eq(run),
                               lregs.transpose.eq(simple.transpose), lregs.transpose_lanes.eq(simple.transpose_lanes)]

        # -- flags (only the Simple sub-unit changes them) ---------------------------------------------
        flags = wires("flag_request")
        wiring.connect(flags, simple.flags, flag_unit.request)
        # ROW_MASK: LaneConfig[lane & 7] holds one bit per row of 8 lanes.
        flags.d.comb += flag_unit.row_masked.eq(Cat(*[config_regs.lane_config[lane % 8][ROW_MASK_LO + lane // 8]
                                                      for lane in range(LANES)]))

        # -- PRNG: the model replays each sub-unit's whole PRNG state, Round's last ----------------------
        advance = Mux(rnd.prng_used, rnd.prng_advance, Mux(simple.prng_used, simple.prng_advance, 0))
        wires("prng_advance").d.comb += [
            prng.advance.eq(advance & run.replicate(LANES)),
            prng.seed_write.eq(self.config_write.valid & (self.config_write.field == ConfigField.PRNG_SEED)),
            prng.seed.eq(self.config_write.value)]

        # -- Dst and the Tensix counters -----------------------------------------------------------------
        dst_access = wires("dst_access")
        wiring.connect(dst_access, load=load.dst, dst=dst.load)
        wiring.connect(dst_access, store=store.dst, dst=dst.store)
        dst_access.d.comb += [
            dst.side_row.eq(self.dst_row), self.dst_rdata.eq(dst.side_rdata), dst.side_we.eq(self.dst_we),
            dst.side_cols.eq(self.dst_cols), dst.side_wdata.eq(self.dst_wdata),
            tensix.config.eq(self.config_write),
            tensix.apply_addr_mod.eq((load.apply_addr_mod | store.apply_addr_mod) & run),
            tensix.addr_mod.eq(Mux(load.apply_addr_mod, load.addr_mod, store.addr_mod))]
        if f.stack_pointer:        # Sp: a load's INT32_ALL and a thread store's never meet
            dst_access.d.comb += tensix.stack.eq(Mux(load.stack.move, load.stack.as_value(), store.stack.as_value()))
        counters = issue.accepted & d.counters         # the word reaches the counters only when it is theirs
        wires("counters").d.comb += [tensix.counters_valid.eq(counters),
                                     tensix.counters_word.eq(Mux(counters, word, 0))]

        # -- configuration registers: SFPCONFIG and the backdoor, in execution order ---------------------
        config = wires("config_write")
        # Operand isolation: the backdoor sees the word only when it loads a template.
        loads = issue.thread_runs & d.backdoor & (d.vd >= 12)
        backdoor = backdoor_write(config, loads, Mux(loads, word, 0), Mux(loads, d.vd, 0), config_regs.lane_config)
        # An empty backdoor write changes nothing in either place.
        backdoor_first = loads & ((d.unit == Unit.LOAD) | (d.unit == Unit.SIMPLE))
        config.d.comb += [config_regs.write[0].eq(Mux(backdoor_first, backdoor, simple.config_write)),
                          config_regs.write[1].eq(Mux(backdoor_first, simple.config_write, backdoor))]

        # -- SFPLOADMACRO -----------------------------------------------------------------------------------
        # Operand isolation: the scheduler sees an SFPLOADMACRO's fields only when one issues.
        loadmacro = issue.thread_runs & (d.opcode == opcode("SFPLOADMACRO"))
        macro_word = Mux(loadmacro, word, 0)
        fields = field_layout("SFPLOADMACRO", arch)(macro_word)
        schedule = wires("schedule")
        schedule.d.comb += [
            scheduler.issue.eq(loadmacro),
            scheduler.macro.eq(fields.macro), scheduler.vd.eq(Mux(loadmacro, d.vd[0:3], 0)),
            scheduler.mod0.eq(fields.mod0),
            scheduler.imm10.eq(operand(macro_word, table(arch)["SFPLOADMACRO"], "imm10")),
            scheduler.address.eq(Mux(loadmacro, load.address, 0)),
            scheduler.accepted.eq(issue.accepted & ~d.counters),     # only SFPU instructions count
            scheduler.cycle.eq(Mux(loadmacro, recorder.cycle, 0)),
            scheduler.misc.eq(config_regs.misc[0]),
        ]
        for j in range(4):     # LoadMacroConfig as lane 0 holds it
            schedule.d.comb += [scheduler.sequence[j].eq(config_regs.sequences[j][0]),
                                scheduler.templates[j].eq(config_regs.templates[j][0])]

        # -- state views ------------------------------------------------------------------------------------
        landing_en = Cat(*[p.en for p in (*simple.landing, mad.landing, *rnd.landing)])
        wires("lreg_views").d.comb += [self.lregs[r].eq(lregs.value[r]) for r in range(NUM_LREGS)]
        wires("views").d.comb += [
            self.lane_flags.eq(flag_unit.lane_flags),
            self.use_flags.eq(flag_unit.use_flags), self.flag_depth.eq(flag_unit.depth),
            self.flag_stack.eq(flag_unit.stack), self.prng.eq(prng.value),
            self.lane_config.eq(config_regs.lane_config), self.templates.eq(config_regs.templates),
            self.sequences.eq(config_regs.sequences), self.misc.eq(config_regs.misc),
            self.tensix.eq(tensix.view), self.captured_vc.eq(rnd.captured_vc),
            self.busy.eq(scheduler.pending | landing_en.any()),
        ]

        # -- trace ------------------------------------------------------------------------------------------
        undefined = Cat(load.undefined, flag_unit.undefined, Const(0), rnd.undefined, store.undefined)   # in UNITS order
        record = wires("record")
        record.d.comb += [
            recorder.run.eq(run), recorder.issued.eq(issue.accepted),
            # from the port itself, so the trace shows the `ready` the thread saw
            recorder.stalled.eq(self.instr.valid & run & ~self.instr.ready), recorder.word.eq(word),
            recorder.undefined.eq(undefined | issue.reserved), recorder.dst_writes.eq(dst.writes),
            *[recorder.issue[i].eq(issue.issue[i]) for i in range(len(UNITS))],
            *[recorder.macro_cycle[i].eq(issue.macro_cycle[i]) for i in range(len(UNITS))],
            *[recorder.lreg_written[r].eq(lregs.written[r]) for r in range(NUM_LREGS)],
        ]
        m.d.comb += self.cycle_trace.eq(recorder.trace)
        return m
