"""The Round sub-unit: SFPSTOCHRND and SFPSHFT2, as `hdl.unit_io` describes a
sub-unit (one `Issue` a cycle, the LRegs as the cycle reads them, writes on
`WriteBackPort`s).

Everything is computed in the issue cycle from the state at its start; what
differs is when it lands:

* SFPSTOCHRND and SFPSHFT2 modes 0, 1 (COPY4, CHAINED_COPY4), 5, 6 (shifts)
  land at the end of the cycle, on `write`.
* SFPSHFT2 modes 2-4 (the shuffles) land one cycle later: their writes go
  into pipeline registers and come out on `landing` in the next cycle. Mode 2
  (SHFLROR1_AND_COPY4) writes L0-L3, so the registers hold four full ports;
  holding the values rather than recomputing them later keeps them immune to
  whatever the next cycle writes into L1-L3 or VC.

On Wormhole, modes 2 and 3 also capture their VC into `captured_vc`, at the
end of the issue cycle, and mode 4 (SHFLSHR1) feeds lanes 0, 8, 16 and 24
from it rather than zeros (a flaw the model reproduces). Blackhole has no such
flaw: zeros enter those lanes and nothing is captured (`captured_vc` stays 0).
Lane 0 of each row of 8 is where the shuffles wrap, so all three are fixed
lane-to-lane wiring.

SFPSTOCHRND reuses `hdl.rounding.StochRound`, one per lane; it consumes the
PRNG of the lanes it executes in on every issue, even when rounding to
nearest, which the top passes on to `hdl.prng.Prng`. The rounding mode is
Wormhole's `stochastic` bit, or Blackhole's 2-bit `rnd_mode`: nearest,
stochastic, toward zero (the PRNG bits replaced by all ones, which keeps the
`>=` compare's documented round-up of all-ones discarded bits), and 3 as
stochastic.
"""

from amaranth import Const, Module, Mux, Signal
from amaranth.lib import data
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model.isa import RoundMode, Shft2Mod1

from .isa import ArchComponent, Opcode, field_layout
from .rounding import StochRound
from .lregs import VD_TARGETS
from .unit_io import (LANES, backdoor_guard, LaneValues, LRegWrite, read_lreg, SubUnitInputs, WriteBack,
                      WriteBackPort, write_back)

__all__ = ["RoundUnit"]

ROW_LANES = 8
ROUND_NEAREST = 0x400000     # the PRNG bits SFPSTOCHRND uses when not stochastic
ROUND_TOWARD_ZERO = 0x7FFFFF  # ... and Blackhole's toward zero

# SFPSHFT2 Mod1


def _ror1_source(lane: int) -> int:
    """The lane a rotate right by one within each row of 8 reads."""
    return lane - 1 if lane % ROW_LANES else lane + ROW_LANES - 1


class RoundUnit(ArchComponent):
    inputs: In(SubUnitInputs())
    prng: In(data.ArrayLayout(32, LANES))           # what an advance hands out in each lane

    write: Out(WriteBackPort()).array(4)            # lands at the end of this cycle
    landing: Out(WriteBackPort()).array(4)          # the two-cycle writes issued last cycle
    # Port 0 writes VD or, in the COPY4 modes, L0; ports 1-3 only L1-L3.
    WRITE_TARGETS = (WriteBack(VD_TARGETS), WriteBack((1,)), WriteBack((2,)), WriteBack((3,)))
    LANDING_TARGETS = WRITE_TARGETS
    prng_used: Out(1)
    prng_advance: Out(LANES)
    captured_vc: Out(LaneValues)                    # the VC the last mode 2/3 captured (Wormhole)
    undefined: Out(1)                               # SFPSHFT2 Mod1 7-15

    def elaborate(self, platform):
        m = Module()
        issue = self.inputs.issue
        f = self.features
        rnd = data.View(field_layout("SFPSTOCHRND", self.arch), issue.word)
        shft2 = data.View(field_layout("SFPSHFT2", self.arch), issue.word)
        mod1 = shft2.mod1

        is_rnd = Signal()
        is_shft2 = Signal()
        writes_vd = Signal()        # L0-L7 or L16; L8-L15 are not written
        m.d.comb += [
            is_rnd.eq(issue.valid & (issue.opcode == Opcode.STOCHRND)),
            is_shft2.eq(issue.valid & (issue.opcode == Opcode.SHFT2)),
            writes_vd.eq((issue.vd < 8) | (issue.vd == 16)),
        ]

        # Lanes where an instruction with VD 12-15 executes (not only loads a
        # template), and of those the enabled ones.
        guard = backdoor_guard(m, issue, self.inputs.lane_config)
        lanes = Signal(LANES)
        m.d.comb += lanes.eq(guard & self.inputs.enabled)

        vb = read_lreg(m, self.inputs.lregs, issue.vb, "vb")
        vc = read_lreg(m, self.inputs.lregs, issue.vc, "vc")
        old = self.inputs.lregs                # L0-L3 for the COPY4 modes

        # -- SFPSTOCHRND --------------------------------------------------------
        rounded = Signal(LaneValues)
        for lane in range(LANES):
            prng = self.prng[lane][:23]
            if f.round_mode_field:
                rand = Mux(rnd.rnd_mode == RoundMode.NEAREST, ROUND_NEAREST,
                           Mux(rnd.rnd_mode == RoundMode.ZERO, ROUND_TOWARD_ZERO, prng))
            else:
                rand = Mux(rnd.stochastic, prng, ROUND_NEAREST)
            sr = m.submodules[f"stochrnd_{lane}"] = StochRound()
            m.d.comb += [
                sr.mode.as_value().eq(rnd.mod1),
                sr.x.eq(vc[lane]),
                sr.vb.eq(vb[lane]),
                sr.imm5.eq(rnd.imm5),
                sr.use_imm5.eq(rnd.use_imm5),
                sr.rand.eq(rand),
                rounded[lane].eq(sr.y),
            ]
        m.d.comb += [
            self.prng_used.eq(is_rnd),
            self.prng_advance.eq(Mux(is_rnd, lanes, 0)),
        ]

        # -- SFPSHFT2: lane shuffles (fixed wiring) ------------------------------
        ror1 = Signal(LaneValues)       # VC rotated right by one lane within each row
        shr1 = Signal(LaneValues)       # VC shifted right by one lane; each row's start: Wormhole's flaw, or 0
        chained = Signal(LaneValues)    # L0 moved down one row, zeros into the last
        for lane in range(LANES):
            src = _ror1_source(lane)
            m.d.comb += ror1[lane].eq(vc[src])
            if lane % ROW_LANES:
                m.d.comb += shr1[lane].eq(vc[src])
            elif f.shft2_captured_vc:
                m.d.comb += shr1[lane].eq(self.captured_vc[src])
            if lane + ROW_LANES < LANES:
                m.d.comb += chained[lane].eq(old[0][lane + ROW_LANES])

        # The new L3 of the COPY4 family.
        new_l3 = Signal(LaneValues)
        with m.Switch(mod1):
            with m.Case(Shft2Mod1.CHAINED_COPY4):
                m.d.comb += new_l3.eq(chained)
            with m.Case(Shft2Mod1.SHFLROR1_AND_COPY4):
                m.d.comb += new_l3.eq(ror1)
            # COPY4: zeros
        copy4 = [old[1], old[2], old[3], new_l3]

        # -- SFPSHFT2: bit shifts of VB, per lane --------------------------------
        # A negative amount shifts right by its magnitude; both directions by
        # the amount mod 32. SHFT_IMM's Imm12 is sign-extended.
        shifted = Signal(LaneValues)
        imm_amount = Signal(32)
        m.d.comb += imm_amount.eq(shft2.imm12)
        for lane in range(LANES):
            amount = Signal(32, name=f"shift_amount_{lane}")
            right_by = Signal(5, name=f"shift_right_by_{lane}")
            m.d.comb += [
                amount.eq(Mux(mod1 == Shft2Mod1.SHFT_IMM, imm_amount, vc[lane])),
                right_by.eq(-amount),
                shifted[lane].eq(Mux(amount[31], vb[lane] >> right_by, (vb[lane] << amount[:5])[:32])),
            ]

        # -- writes --------------------------------------------------------------
        def drive(port, en, reg, value):
            reg = Const(reg, 5) if isinstance(reg, int) else reg
            return [port.en.eq(en), port.reg.eq(reg), port.data.eq(value)]

        # Two-cycle writes, registered into `landing` (all clear otherwise).
        pending = [Signal(LRegWrite, name=f"shuffle_write_{i}") for i in range(4)]
        with m.If(is_rnd):
            m.d.comb += drive(self.write[0], Mux(writes_vd, lanes, 0), issue.vd, rounded)
        with m.Elif(is_shft2):
            with m.Switch(mod1):
                with m.Case(Shft2Mod1.COPY4, Shft2Mod1.CHAINED_COPY4):
                    for i in range(4):
                        m.d.comb += drive(self.write[i], lanes, i, copy4[i])
                with m.Case(Shft2Mod1.SHFLROR1_AND_COPY4):
                    for i in range(4):
                        m.d.comb += drive(pending[i], lanes, i, copy4[i])
                with m.Case(Shft2Mod1.SHFLROR1):
                    m.d.comb += drive(pending[0], Mux(writes_vd, lanes, 0), issue.vd, ror1)
                with m.Case(Shft2Mod1.SHFLSHR1):
                    # The model writes every enabled lane here, without the backdoor guard
                    # (which only matters for VD 12-15, never written).
                    m.d.comb += drive(pending[0], Mux(writes_vd, self.inputs.enabled, 0), issue.vd, shr1)
                with m.Case(Shft2Mod1.SHFT_LREG, Shft2Mod1.SHFT_IMM):
                    m.d.comb += drive(self.write[0], Mux(writes_vd, self.inputs.enabled, 0), issue.vd, shifted)
                with m.Default():
                    m.d.comb += self.undefined.eq(1)
        for i in range(4):
            m.d.sync += write_back(self.landing[i], pending[i])

        if f.shft2_captured_vc:
            # The capture ignores lane enables; a thread's VD 12-15 only loads a template.
            with m.If(is_shft2 & mod1.matches(Shft2Mod1.SHFLROR1_AND_COPY4, Shft2Mod1.SHFLROR1)
                      & (issue.macro | (issue.vd < 12))):
                m.d.sync += self.captured_vc.eq(vc)
        return m
