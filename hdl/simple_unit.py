"""The Simple sub-unit: everything an instruction on the Simple pipe does to
the SFPU state, around the per-lane `SimpleAlu` (32 copies) and `CastToFp32`.

It adds what is not lane arithmetic (see `model.semantics`):

- operand reads (VB, VC, and SFPSWAP's VD source) and the write rules: the
  lanes written (LaneEnabled, the backdoor guard, SFPMOV ALL_LANES_ENABLED)
  and `VD < 8 || VD == 16`;
- SFPMOV FROM_SPECIAL (LoadMacroConfig, the PRNG, LaneConfig) and the PRNG
  advance of SFPMOV and stochastic SFPCAST;
- the flag operations, as inputs of the `FlagUnit`, which holds the flags;
- SFPTRANSP, which the LReg file performs from `transpose`/`transpose_lanes`;
- SFPSWAP, whose writes are computed from the state of its issue cycle and
  held in registers to land at the end of the next cycle (`landing`). On
  Blackhole, SWAP mode (Mod1 0) reads its LRegs in its second cycle instead,
  so it sees the results landing then: its own last SFPSWAP's, and the MAD
  and Round sub-units' (`mad_landing`, `round_landing`);
- SFPCONFIG: writes of LoadMacroConfig and LaneConfig (`config_write`, to
  `ConfigRegs`) and of the constants L11-L14 (`write`), its lane mask and the
  flags taken from lanes 0-7 of each row.

The backdoor template load of a thread instruction with VD 12-15 is the
top's (`hdl.config_regs.backdoor_write`): it depends on the thread word, not
on what the sub-unit runs.
"""

from collections.abc import Callable

from amaranth import Cat, Const, Module, Mux, Signal, Value
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import Arch, CmpMod1, Features, MovMod1

from .arith import sign_magnitude_key
from .config_regs import LANE_CONFIG_BITS, MISC_BITS, ConfigRegWrite, ConfigTarget
from .flags import FlagOp, FlagRequest
from .isa import ArchComponent, Opcode, mnemonic, opcode, table
from .lregs import (L0_L7, L16, LANES, PROGRAMMABLE_RESET, ROW_LANES, VD_TARGETS, LaneValues,
                    LRegWrite, WriteBack, WriteBackPort, write_back)
from .mad_unit import MadUnit
from .round_unit import RoundUnit
from .rounding import CastToFp32
from .simple_alu import CAST_INT, SimpleAlu
from .unit_io import (ENABLE_DEST_INDEX, EXCHANGE_SRCB_SRCC, backdoor_guard, lane_config_bit, LaneConfig,
                      read_lreg, SubUnitInputs)

ALL_LANES = (1 << LANES) - 1

# The opcodes whose value comes from SimpleAlu and lands in VD's enabled lanes.
ALU_OPCODES = (Opcode.ABS, Opcode.AND, Opcode.OR, Opcode.XOR, Opcode.NOT, Opcode.LZ, Opcode.SHFT,
               Opcode.IADD, Opcode.EXEXP, Opcode.EXMAN, Opcode.SETEXP, Opcode.SETMAN, Opcode.SETSGN,
               Opcode.DIVP2)
REFINE_OPCODES = (Opcode.IADD, Opcode.LZ, Opcode.EXEXP)       # set flags from the result when VD < 8
# Blackhole: the comparisons (their VD write under SET_VD), SFPARECIP (no backdoor guard), and
# SFPCAST's integer modes (Mod1 bit 1; no backdoor guard, no PRNG), all from SimpleAlu.
COMPARE_OPCODES = (Opcode.LE, Opcode.GT)

# SFPMOV FROM_SPECIAL: VC 0-3 templates, 4-7 sequences, 8 Misc, 9 PRNG, 15 LaneConfig, else 0.
SPECIAL_MISC, SPECIAL_PRNG, SPECIAL_LANE_CONFIG = 8, 9, 15
# SFPCONFIG's VD: 0-3 templates, 4-7 sequences, 8 Misc, 11-14 constants, 15 LaneConfig.
CONFIG_MISC, CONFIG_LANE_CONFIG = 8, 15
# SFPSWAP Mod1 1-8: the lanes (bit i = lane i) where VD receives the minimum; elsewhere the maximum.
SWAP_VD_GETS_MIN = {1: 0xFFFFFFFF, 2: 0x0000FFFF, 3: 0x00FF00FF, 4: 0xFF0000FF,
                    5: 0x000000FF, 6: 0x0000FF00, 7: 0x00FF0000, 8: 0xFF000000}
SWAP_PORTS = 4                   # VD, VC, then the dest-index pair, in the model's write order

# The Simple-unit instructions this unit has RTL for; a further architecture's
# (`model.isa.declare`) new ones come as lane operations (`lane_operation`).
BUILT_IN = frozenset(mnemonic(o) for o in (*ALU_OPCODES, *COMPARE_OPCODES, Opcode.ARECIP, Opcode.MOV, Opcode.CAST,
                                           Opcode.CONFIG, Opcode.SETCC, Opcode.ENCC, Opcode.PUSHC, Opcode.POPC,
                                           Opcode.COMPC, Opcode.TRANSP, Opcode.SWAP))

# A lane operation: one lane's result from its VB and VC values and the word's Imm12 and Mod1,
# written to VD's enabled lanes (as the ALU's instructions are), by mnemonic.
LaneOperation = Callable[[Value, Value, Value, Value], Value]
LANE_OPERATIONS: dict[str, LaneOperation] = {}


def lane_operation(mnemonic: str):
    """Register the RTL of a Simple-unit instruction that a further
    architecture adds (the model's side is `model.semantics.semantics`)."""
    def register(fn: LaneOperation) -> LaneOperation:
        LANE_OPERATIONS[mnemonic] = fn
        return fn
    return register


def added_operations(arch: Arch) -> list[str]:
    """`arch`'s Simple-unit instructions beyond `BUILT_IN`, each of which must
    have a lane operation (ValueError naming those that do not)."""
    added = sorted(mn for mn, op in table(arch).items() if op.unit is isa.Unit.SIMPLE and mn not in BUILT_IN)
    missing = [mn for mn in added if mn not in LANE_OPERATIONS]
    if missing:
        raise ValueError(f"{arch.title}'s table has Simple-unit instructions with no RTL: {', '.join(missing)} "
                         f"(register each with hdl.simple_unit.lane_operation)")
    return added


class SimpleUnit(ArchComponent):
    # The registers each write-back port reaches: VD or SFPCONFIG's L11-L14; SFPSWAP's VD and VC, and
    # the dest-index pair in L4-L7.
    WRITE_TARGETS = WriteBack((*VD_TARGETS, *PROGRAMMABLE_RESET))
    LANDING_TARGETS = (WriteBack(L0_L7), WriteBack(L0_L7), WriteBack(L0_L7[4:]), WriteBack(L0_L7[4:]))

    def __init__(self, arch: Arch, *, features: Features | None = None):
        f = arch.features if features is None else features
        # With `swap_late_reads`: the other sub-units' results landing at the end of this cycle.
        landings = {"mad_landing": In(WriteBackPort(per_lane=True)),
                    "round_landing": In(WriteBackPort()).array(4)} if f.swap_late_reads else {}
        super().__init__(arch, wiring.Signature({
            "inputs": In(SubUnitInputs()),
            "lane_flags": In(LANES),
            "use_flags": In(LANES),
            "prng": In(data.ArrayLayout(32, LANES)),    # what an advance would hand out in each lane
            "templates": In(data.ArrayLayout(LaneValues, 4)),
            "sequences": In(data.ArrayLayout(LaneValues, 4)),
            "misc": In(data.ArrayLayout(MISC_BITS, LANES)),
            **landings,
            "write": Out(WriteBackPort()),              # lands at the end of this cycle
            "landing": Out(WriteBackPort()).array(SWAP_PORTS),  # last cycle's SFPSWAP, landing at the end of this one
            "transpose": Out(1),
            "transpose_lanes": Out(LANES),
            "flags": Out(FlagRequest()),
            "prng_used": Out(1),                        # the instruction advances the PRNG (in `prng_advance`)
            "prng_advance": Out(LANES),
            "config_write": Out(ConfigRegWrite),
        }), features=f)

    def elaborate(self, platform):
        m = Module()
        issue = self.inputs.issue
        op = Signal(Opcode)                  # NONE unless an instruction runs
        with m.If(issue.valid):
            m.d.comb += op.eq(issue.opcode)
        word = issue.word
        mod1, imm12, imm16 = word[0:4], word[12:24], word[8:24]

        guard = backdoor_guard(m, issue, self.inputs.lane_config)
        guarded = Signal(LANES)              # enabled lanes past the backdoor guard
        writes_vd = Signal()
        m.d.comb += [guarded.eq(guard & self.inputs.enabled),
                     writes_vd.eq((issue.vd < 8) | (issue.vd == L16))]

        vb = self._read(m, issue.vb, "vb_value")
        vc = self._read(m, issue.vc, "vc_value")

        # --- the lanes' arithmetic -------------------------------------------------
        # Operand isolation: the ALUs and casts see their operands only when the
        # instruction is theirs, so an event-driven simulator leaves them idle
        # otherwise (their outputs are read only then).
        f = self.features
        # The opcodes the ALUs take beyond the common ones: the comparisons, SFPARECIP, SFPCAST's integer modes.
        more_alu_opcodes = ((*COMPARE_OPCODES,) if f.compare else ()) + ((Opcode.ARECIP,) if f.arecip else ()) \
            + ((Opcode.CAST,) if f.cast_int_modes else ())
        cast_int = (mod1 & CAST_INT).any()     # SFPCAST's integer modes (`cast_int_modes`)
        uses_alu = Signal()
        m.d.comb += uses_alu.eq(op.as_value().matches(*ALU_OPCODES, Opcode.MOV, Opcode.SETCC, *more_alu_opcodes))
        alus, casts = [], []
        for lane in range(LANES):
            alu = m.submodules[f"alu_{lane}"] = SimpleAlu(self.arch, features=f)
            cast = m.submodules[f"cast_{lane}"] = CastToFp32()
            alus.append(alu)
            casts.append(cast)
            with m.If(uses_alu):
                m.d.comb += [alu.op.eq(op), alu.mod1.eq(mod1), alu.imm.eq(imm12),
                             alu.vb.eq(vb[lane]), alu.vc.eq(vc[lane])]
            with m.If(op == Opcode.CAST):
                m.d.comb += [cast.x.eq(vc[lane]), cast.stochastic.eq(mod1[0]), cast.prng.eq(self.prng[lane])]
        alu_result, cast_result = Signal(LaneValues), Signal(LaneValues)
        m.d.comb += [alu_result.eq(Cat(*[alu.result for alu in alus])),
                     cast_result.eq(Cat(*[cast.y for cast in casts]))]

        # --- LReg writes of this cycle ---------------------------------------------------
        # FROM_SPECIAL's and SFPCONFIG's values only where they are used (isolation, as above).
        with m.If((op == Opcode.MOV) & mod1[3]):
            special = self._special(m, issue.vc)
        with m.If(op == Opcode.CONFIG):
            config_lanes = self._config_lanes(m, mod1, imm16)
            config_l0, config_value = self._config_value(m, mod1, imm16)
            constant = self._config_constant(m, mod1, issue.vd, config_l0)
        w = self.write
        m.d.comb += w.reg.eq(issue.vd)
        with m.Switch(op):
            with m.Case(*ALU_OPCODES):
                m.d.comb += w.en.eq(Mux(writes_vd, self.inputs.enabled, 0))
                m.d.comb += w.data.eq(alu_result)
            with m.Case(Opcode.MOV):
                lanes = guard & Mux(mod1 == MovMod1.ALL_LANES_ENABLED, ALL_LANES, self.inputs.enabled)
                m.d.comb += w.en.eq(Mux(writes_vd, lanes, 0))
                m.d.comb += w.data.eq(Mux(mod1[3], special, alu_result))
            with m.Case(Opcode.CAST):
                if f.cast_int_modes:
                    m.d.comb += w.en.eq(Mux(writes_vd, Mux(cast_int, self.inputs.enabled, guarded), 0))
                    m.d.comb += w.data.eq(Mux(cast_int, alu_result, cast_result))
                else:
                    m.d.comb += w.en.eq(Mux(writes_vd, guarded, 0))
                    m.d.comb += w.data.eq(cast_result)
            with m.Case(Opcode.CONFIG):
                constant_target = (issue.vd >= 11) & (issue.vd <= 14)
                m.d.comb += w.en.eq(Mux(constant_target, config_lanes, 0))
                m.d.comb += w.data.eq(constant)
            if f.compare:
                with m.Case(*COMPARE_OPCODES):
                    m.d.comb += w.en.eq(Mux(writes_vd & (mod1 & CmpMod1.SET_VD).any(), guarded, 0))
                    m.d.comb += w.data.eq(alu_result)
            if f.arecip:
                with m.Case(Opcode.ARECIP):
                    m.d.comb += w.en.eq(Mux(writes_vd, self.inputs.enabled, 0))
                    m.d.comb += w.data.eq(alu_result)
            for name in added_operations(self.arch):
                with m.Case(opcode(name)):
                    lanes = [LANE_OPERATIONS[name](vb[lane], vc[lane], imm12, mod1) for lane in range(LANES)]
                    m.d.comb += w.en.eq(Mux(writes_vd, self.inputs.enabled, 0))
                    m.d.comb += w.data.eq(Cat(*lanes))

        # --- flags: the FlagUnit's request ------------------------------------------------
        flags = self.flags
        with m.Switch(op):
            with m.Case(Opcode.SETCC):
                m.d.comb += flags.op.eq(FlagOp.SETCC)
            with m.Case(*REFINE_OPCODES):
                with m.If(issue.vd < 8):
                    m.d.comb += flags.op.eq(FlagOp.REFINE)
            with m.Case(Opcode.ENCC):
                m.d.comb += flags.op.eq(FlagOp.ENCC)
            with m.Case(Opcode.PUSHC):
                m.d.comb += flags.op.eq(FlagOp.PUSHC)
            with m.Case(Opcode.POPC):
                m.d.comb += flags.op.eq(FlagOp.POPC)
            with m.Case(Opcode.COMPC):
                m.d.comb += flags.op.eq(FlagOp.COMPC)
            if f.compare:
                with m.Case(*COMPARE_OPCODES):
                    m.d.comb += flags.op.eq(FlagOp.COMPARE)
        m.d.comb += [
            flags.mod1.eq(mod1),
            flags.imm2.eq(word[12:14]),
            flags.cond.eq(Cat(*[alu.cond for alu in alus])),
            # Both depend on the opcode and Mod1 only, so every lane agrees.
            flags.cond_valid.eq(alus[0].cond_valid),
            flags.invert.eq(alus[0].invert),
            flags.guard.eq(guard),
        ]

        # --- SFPTRANSP (done inside the LReg file) and the PRNG ------------------------------
        cast_advances = (op == Opcode.CAST) & mod1[0]     # stochastic rounding
        if f.cast_int_modes:
            cast_advances = cast_advances & ~cast_int
        m.d.comb += [
            self.transpose.eq(op == Opcode.TRANSP),
            self.transpose_lanes.eq(guarded),
            self.prng_used.eq(((op == Opcode.MOV) & mod1[3] & (issue.vc == SPECIAL_PRNG))
                              | cast_advances),
            self.prng_advance.eq(Mux(self.prng_used, guarded, 0)),
        ]

        with m.If(op == Opcode.CONFIG):
            self._config_write(m, mod1, config_lanes, config_l0, config_value)
        self._swap(m, op, mod1, guarded, vc)
        return m

    # -- operand reads ----------------------------------------------------------------------

    def _read(self, m: Module, index, name: str) -> Signal:
        return read_lreg(m, self.inputs.lregs, index, name)

    def _special(self, m: Module, vc) -> Signal:
        """SFPMOV FROM_SPECIAL's source, selected by VC."""
        special = Signal(LaneValues, name="special")
        with m.Switch(vc):
            for i in range(4):
                with m.Case(i):
                    m.d.comb += special.eq(self.templates[i])
                with m.Case(4 + i):
                    m.d.comb += special.eq(self.sequences[i])
            with m.Case(SPECIAL_MISC):
                m.d.comb += special.eq(Cat(*[Cat(self.misc[lane], Const(0, 20)) for lane in range(LANES)]))
            with m.Case(SPECIAL_PRNG):
                m.d.comb += special.eq(self.prng)
            with m.Case(SPECIAL_LANE_CONFIG):
                m.d.comb += special.eq(Cat(*[Cat(self.inputs.lane_config[lane], Const(0, 14)) for lane in range(LANES)]))
        return special

    # -- SFPCONFIG ------------------------------------------------------------------------------

    # SFPCONFIG works on whole rows at once: every row of 8 lanes takes lane
    # k's L0 and flags from lanes 0-7, so those signals are replicated 4 times.

    def _config_lanes(self, m: Module, mod1, imm16) -> Signal:
        """SFPCONFIG's lanes: Imm16 bit 2k under LANE_MASK and the flags of
        lane k, for every lane k (0-7) of each row. No LaneEnabled, no ROW_MASK."""
        lanes = Signal(LANES, name="config_lanes")
        by_mask = (~mod1[3]).replicate(ROW_LANES) | Cat(*[imm16[2 * k] for k in range(ROW_LANES)])
        by_flags = ~self.use_flags[:ROW_LANES] | self.lane_flags[:ROW_LANES]
        m.d.comb += lanes.eq((by_mask & by_flags).replicate(LANES // ROW_LANES))
        return lanes

    def _config_value(self, m: Module, mod1, imm16):
        """Per lane: L0 of lane k of the row; and Imm16 with IMM16_IS_VALUE, else that L0."""
        l0 = Signal(LaneValues, name="config_l0")
        value = Signal(LaneValues, name="config_value")
        m.d.comb += [l0.eq(self.inputs.lregs[0].as_value()[:32 * ROW_LANES].replicate(LANES // ROW_LANES)),
                     value.eq(Mux(mod1[0], Cat(imm16, Const(0, 16)).replicate(LANES), l0))]
        return l0, value

    def _config_constant(self, m: Module, mod1, vd, l0) -> Signal:
        """SFPCONFIG's value for L11-L14: the reset value with IMM16_IS_VALUE, else L0."""
        reset = Signal(32, name="config_reset_value")
        with m.Switch(vd):
            for reg, value in PROGRAMMABLE_RESET.items():
                with m.Case(reg):
                    m.d.comb += reset.eq(value)
        constant = Signal(LaneValues, name="config_constant")
        m.d.comb += constant.eq(Mux(mod1[0], reset.replicate(LANES), l0))
        return constant

    def _combine(self, m: Module, mod1, old, value, name: str) -> Signal:
        """SFPCONFIG's Mod1 bits 2:1 on Misc and LaneConfig (all lanes side by
        side): replace, OR, AND, XOR."""
        result = Signal(len(old), name=name)
        with m.Switch(mod1[1:3]):
            with m.Case(0):
                m.d.comb += result.eq(value)
            with m.Case(1):
                m.d.comb += result.eq(old | value)
            with m.Case(2):
                m.d.comb += result.eq(old & value)
            with m.Case(3):
                m.d.comb += result.eq(old ^ value)
        return result

    def _config_write(self, m: Module, mod1, lanes, l0, value) -> None:
        """SFPCONFIG's write of the configuration registers (called under SFPCONFIG only)."""
        issue, cw = self.inputs.issue, self.config_write
        lane_bits = LANE_CONFIG_BITS
        misc_old, config_old = self.misc.as_value(), self.inputs.lane_config.as_value()
        misc = self._combine(m, mod1, misc_old, Cat(*[value[lane][:MISC_BITS] for lane in range(LANES)]),
                             "config_misc")
        combined = self._combine(m, mod1, config_old, Cat(*[value[lane][:lane_bits] for lane in range(LANES)]),
                                 "config_lane_config")
        # With IMM16_IS_VALUE the two bits above Imm16 keep their value.
        keep_high = Cat(*[Cat(combined[lane * lane_bits:lane * lane_bits + 16],
                              config_old[lane * lane_bits + 16:(lane + 1) * lane_bits]) for lane in range(LANES)])
        lane_config = Signal(LaneConfig, name="config_lane_config_new")
        m.d.comb += lane_config.eq(Mux(mod1[0], keep_high, combined))
        misc_lanes = [misc[lane * MISC_BITS:(lane + 1) * MISC_BITS] for lane in range(LANES)]

        m.d.comb += [cw.lanes.eq(lanes), cw.index.eq(issue.vd[0:2])]
        with m.Switch(issue.vd):
            with m.Case(0, 1, 2, 3):
                # The templates always take L0, even with IMM16_IS_VALUE.
                m.d.comb += [cw.target.eq(ConfigTarget.TEMPLATE), cw.values.eq(l0)]
            with m.Case(4, 5, 6, 7):
                m.d.comb += [cw.target.eq(ConfigTarget.SEQUENCE), cw.values.eq(value)]
            with m.Case(CONFIG_MISC):
                m.d.comb += cw.target.eq(ConfigTarget.MISC)
                m.d.comb += [cw.values[lane].eq(misc_lanes[lane]) for lane in range(LANES)]
            with m.Case(CONFIG_LANE_CONFIG):
                m.d.comb += cw.target.eq(ConfigTarget.LANE_CONFIG)
                m.d.comb += [cw.values[lane].eq(lane_config[lane]) for lane in range(LANES)]

    # -- SFPSWAP -----------------------------------------------------------------------------

    def _swap(self, m: Module, op, mod1, guarded, vc) -> None:
        """Compute SFPSWAP's writes now and present them next cycle on `landing`."""
        issue = self.inputs.issue
        # Under SFPLOADMACRO the VD operand arrives through the VB port.
        vd_source = Signal(5, name="swap_vd_source")
        m.d.comb += vd_source.eq(Mux(issue.macro, issue.vb, issue.vd))
        vd = self._read(m, vd_source, "swap_vd_value")

        gets_min = Signal(LANES, name="swap_vd_gets_min")
        with m.Switch(mod1):
            for mode, lanes in SWAP_VD_GETS_MIN.items():
                with m.Case(mode):
                    m.d.comb += gets_min.eq(lanes)
        exchange = lane_config_bit(self.inputs.lane_config, EXCHANGE_SRCB_SRCC)
        selected = Signal(LANES, name="swap_selected")      # before the lane mask
        with m.If(op == Opcode.SWAP):                         # the 32 comparisons only when used
            for lane in range(LANES):
                less = Signal(name=f"swap_c_less_{lane}")
                m.d.comb += less.eq(sign_magnitude_key(m, vc[lane], f"swap_key_c_{lane}")
                                    < sign_magnitude_key(m, vd[lane], f"swap_key_d_{lane}"))
                by_order = Mux(gets_min[lane], less, ~less) ^ exchange[lane]
                m.d.comb += selected[lane].eq((mod1 == 0) | by_order)

        swap = Signal(LANES, name="swap_lanes")
        dest_index = lane_config_bit(self.inputs.lane_config, ENABLE_DEST_INDEX)
        plain, indexed = Signal(LANES, name="swap_plain"), Signal(LANES, name="swap_indexed")
        m.d.comb += [swap.eq(Mux(op == Opcode.SWAP, selected & guarded, 0)),
                     plain.eq(swap & ~dest_index),
                     # With ENABLE_DEST_INDEX only L0-L3 take values; L4-L7 carry the index payload.
                     indexed.eq(swap & dest_index)]

        def lanes_for(reg):
            return Mux(reg < 8, plain, 0) | Mux(reg < 4, indexed, 0)

        index_c, index_d = Cat(issue.vc[0:2], Const(1, 3)), Cat(issue.vd[0:2], Const(1, 3))   # 4 + (V & 3)
        value_c, value_d = self._read(m, index_c, "swap_index_c"), self._read(m, index_d, "swap_index_d")
        if self.features.swap_late_reads:
            # SWAP mode compares nothing and reads in its second cycle (SFPSWAP.md): every
            # read sees what lands at the end of the first.
            late = Signal(name="swap_reads_late")
            m.d.comb += late.eq((op == Opcode.SWAP) & (mod1 == 0))
            vc, vd, value_c, value_d = (
                self._landed(m, late, index, value, name) for index, value, name in
                ((issue.vc, vc, "swap_vc_late"), (vd_source, vd, "swap_vd_late"),
                 (index_c, value_c, "swap_index_c_late"), (index_d, value_d, "swap_index_d_late")))
        writes = [(lanes_for(issue.vd), issue.vd, vc), (lanes_for(issue.vc), issue.vc, vd),
                  (indexed, index_c, value_d), (indexed, index_d, value_c)]
        for i, (en, reg, value) in enumerate(writes):
            port = Signal(LRegWrite, name=f"swap_write_{i}")
            held = Signal(LRegWrite, name=f"swap_landing_{i}_q")
            m.d.comb += [port.en.eq(en), port.data.eq(value)]
            m.d.comb += port.reg.eq(reg)
            m.d.sync += held.eq(port)
            m.d.comb += write_back(self.landing[i], held)

    def _landed(self, m: Module, late, index, value, name: str) -> Signal:
        """`value`, the LReg `index` at the start of the cycle, with the results
        landing at the end of this cycle applied while `late`, in the LReg
        file's order (the later wins): as the LReg file will hold it."""
        ports = [*zip(self.LANDING_TARGETS, self.landing), (MadUnit.LANDING_TARGETS, self.mad_landing),
                 *zip(RoundUnit.LANDING_TARGETS, self.round_landing)]
        part = Module()                        # its own module: rerun only when a late read happens
        m.submodules[name] = part
        result = Signal(LaneValues, name=name)
        part.d.comb += result.eq(value)
        with part.If(late):
            lanes = [value[lane] for lane in range(LANES)]
            for spec, port in ports:
                hit = spec.lanes_to(port, index)
                lanes = [Mux(hit[lane], port.data[lane], lanes[lane]) for lane in range(LANES)]
            part.d.comb += result.eq(Cat(*lanes))
        return result
