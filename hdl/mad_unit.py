"""The MAD sub-unit: SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI, SFPLUT and
SFPLUTFP32 (and Blackhole's SFPMUL24), as `hdl.unit_io` describes a sub-unit
(one `Issue` a cycle, the LRegs as the cycle reads them, writes on a per-lane
`WriteBackPort`).

Every one of them is ``d = A * B + C`` on one `hdl.fma.Fma` per lane, with a
latency of two: an instruction issued at cycle T writes at the end of T+1.
SFPMUL24 runs on the same FMAs, in their integer mode, with SFPMAD's operands.
On Blackhole, SFPMAD/SFPADD/SFPMUL's NEGATE_VB and NEGATE_VC flip the sign
bit of B and C, and SFPADDI/SFPMULI's NEGATE_VC that of VD's value.

Issue cycle T (stage 1): pick A, B and C per lane (VA or ``L[L7 & 15]``
under INDIRECT_VA, the BF16 immediate, the LUT coefficients of ``|L3|``),
feed the FMAs' first stage, and work out, from the state of cycle T, every
other thing the write needs: the lanes (backdoor guard & LaneEnabled), each
lane's destination (VD, or ``L7 & 15`` under INDIRECT_VD unless VD is L16)
and, for SGN_RETAIN, L3's sign bits. These go into pipeline registers next to
the FMAs' own.

Landing cycle T+1 (stage 2): the FMAs finish; `landing` presents their
results with the registered lanes and destinations, the sign replaced by
L3's under SGN_RETAIN.
"""

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, enum
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model.isa import LutMod, MadMod1, Mul24Mod1

from .fma import Fma
from .isa import ArchComponent, Opcode, field_layout
from .lregs import L16, VD_TARGETS
from .lut import LutFp32Select, LutSelect
from .unit_io import (LANES, backdoor_guard, LaneValues, read_lreg, read_lreg_per_lane, spread_lane_bits,
                      SubUnitInputs, WriteBack, WriteBackPort)

__all__ = ["MadUnit"]

ONE = 0x3F800000            # L10
SIGNS = Const(0x80000000, 32).replicate(LANES)     # bit 31 of every lane
ALL_ONES = Const(-1, 32 * LANES)



def _bit(flag: int) -> int:
    """The position of a one-bit modifier flag of the table."""
    return flag.bit_length() - 1


# Mod bits (Mod1 of the MAD/immediate/LUTFP32 forms, Mod0 of SFPLUT), as bit positions.
NEGATE_VB = _bit(MadMod1.NEGATE_VB)         # Blackhole: SFPMAD/SFPADD/SFPMUL
NEGATE_VC = _bit(MadMod1.NEGATE_VC)         # Blackhole: SFPMAD/SFPADD/SFPMUL/SFPADDI/SFPMULI
MUL24_UPPER = _bit(Mul24Mod1.UPPER)
INDIRECT_VA = _bit(MadMod1.INDIRECT_VA)     # SFPMAD/SFPADD/SFPMUL/SFPMUL24
SGN_RETAIN = _bit(LutMod.SGN_RETAIN)        # SFPLUT's Mod0 and SFPLUTFP32's Mod1
INDIRECT_VD = _bit(MadMod1.INDIRECT_VD)     # every form's Mod (SFPLUT: Mod0)


class Form(enum.Enum, shape=3):
    """Where A, B and C come from."""

    NONE = 0                # no MAD-class instruction: nothing lands
    MAD = 1                 # A = VA (or L[L7 & 15]), B = VB, C = VC
    ADDI = 2                # A = bf16(Imm16), B = 1.0, C = VC
    MULI = 3                # A = bf16(Imm16), B = VC, C = 0
    LUT = 4                 # A, B = |L3|, C from LutSelect
    LUTFP32 = 5             # A, B = |L3|, C from LutFp32Select
    MUL24 = 6               # Blackhole: SFPMAD's operands, the FMAs' integer mode


class MadUnit(ArchComponent):
    inputs: In(SubUnitInputs())

    landing: Out(WriteBackPort(per_lane=True))  # last cycle's instruction, written at the end of this cycle
    LANDING_TARGETS = WriteBack(VD_TARGETS, per_lane=True)    # INDIRECT_VD: a target per lane

    def elaborate(self, platform):
        m = Module()
        f = self.features
        issue, lregs = self.inputs.issue, self.inputs.lregs
        mad = data.View(field_layout("SFPMAD", self.arch), issue.word)
        imm = data.View(field_layout("SFPADDI", self.arch), issue.word)
        lut = data.View(field_layout("SFPLUT", self.arch), issue.word)

        # -- decode ------------------------------------------------------------------
        form = Signal(Form)
        with m.If(issue.valid):
            with m.Switch(issue.opcode):
                with m.Case(Opcode.MAD, Opcode.ADD, Opcode.MUL):
                    m.d.comb += form.eq(Form.MAD)
                with m.Case(Opcode.ADDI):
                    m.d.comb += form.eq(Form.ADDI)
                with m.Case(Opcode.MULI):
                    m.d.comb += form.eq(Form.MULI)
                with m.Case(Opcode.LUT):
                    m.d.comb += form.eq(Form.LUT)
                with m.Case(Opcode.LUTFP32):
                    m.d.comb += form.eq(Form.LUTFP32)
                if f.mul24:
                    with m.Case(Opcode.MUL24):
                        m.d.comb += form.eq(Form.MUL24)

        # SFPLUT keeps its modifiers in Mod0; the others in Mod1 (bits 3:0).
        mod = Signal(4)
        m.d.comb += mod.eq(Mux(form == Form.LUT, lut.mod0, mad.mod1))
        indirect_va = Signal()
        indirect_vd = Signal()
        sgn_retain = Signal()
        mad_operands = (form == Form.MAD) | (form == Form.MUL24) if f.mul24 else form == Form.MAD
        m.d.comb += [
            indirect_va.eq(mad_operands & mod[INDIRECT_VA]),
            # L16 is only reachable through a macro and is never redirected.
            indirect_vd.eq(mod[INDIRECT_VD] & (issue.vd != L16)),
            sgn_retain.eq(((form == Form.LUT) | (form == Form.LUTFP32)) & mod[SGN_RETAIN]),
        ]

        # -- operands shared by all lanes ------------------------------------------
        # One wide mux each rather than a register-indexed read per lane.
        vb = read_lreg(m, lregs, issue.vb, "vb")
        vc = read_lreg(m, lregs, issue.vc, "vc")
        if f.mad_negate:
            # NEGATE_VB / NEGATE_VC: a float negation, the sign bit flipped
            # whatever the value (NaNs included). SFPADDI/SFPMULI's VC is VD.
            negate_vb = (form == Form.MAD) & mod[NEGATE_VB]
            negate_vc = ((form == Form.MAD) | (form == Form.ADDI) | (form == Form.MULI)) & mod[NEGATE_VC]
            vb = vb.as_value() ^ Mux(negate_vb, SIGNS, 0)
            vc = vc.as_value() ^ Mux(negate_vc, SIGNS, 0)
        bf16 = Signal(32)
        m.d.comb += bf16.eq(Cat(Const(0, 16), imm.imm16))

        l7 = lregs[7]
        l3 = lregs[3]
        lanes = Signal(LANES)           # the lanes that execute and may write
        guard = backdoor_guard(m, issue, self.inputs.lane_config)
        m.d.comb += lanes.eq(Mux(form == Form.NONE, 0, guard & self.inputs.enabled))

        # -- operands: whole 32-lane words, so an event-driven simulator evaluates a
        # few wide selections rather than 32 per-lane ones. The LUT selectors see
        # L0-L6 only under their own form (operand isolation), and an idle unit
        # feeds its FMAs zeros.
        a, b, c = Signal(LaneValues), Signal(LaneValues), Signal(LaneValues)
        # VA: one per-lane read, each lane's index VA or, under INDIRECT_VA, its L7's
        # low bits (any of L0-L15). The index bits are spread over each lane's 32
        # bits so the read stays a few whole-word selects.
        va_bits = []
        for k in range(4):
            indirect = spread_lane_bits(Cat(*[l7[lane][k] for lane in range(LANES)]))
            va_bits.append(Mux(indirect_va, indirect, Mux(mad.va[k], ALL_ONES, 0)))
        va = read_lreg_per_lane(m, lregs, va_bits, "va")

        lut_a, lut_b, lut_c = Signal(LaneValues), Signal(LaneValues), Signal(LaneValues)
        for lane in range(LANES):
            sel = m.submodules[f"lut_{lane}"] = LutSelect()
            sel32 = m.submodules[f"lutfp32_{lane}"] = LutFp32Select()
            with m.If(form == Form.LUT):
                m.d.comb += [sel.l3.eq(l3[lane]), sel.l0.eq(lregs[0][lane]),
                             sel.l1.eq(lregs[1][lane]), sel.l2.eq(lregs[2][lane]),
                             lut_a[lane].eq(sel.a), lut_b[lane].eq(sel.b), lut_c[lane].eq(sel.c)]
            with m.If(form == Form.LUTFP32):
                m.d.comb += [sel32.mod1.eq(mad.mod1), sel32.l3.eq(l3[lane]),
                             sel32.l0.eq(lregs[0][lane]), sel32.l1.eq(lregs[1][lane]),
                             sel32.l2.eq(lregs[2][lane]), sel32.l4.eq(lregs[4][lane]),
                             sel32.l5.eq(lregs[5][lane]), sel32.l6.eq(lregs[6][lane]),
                             lut_a[lane].eq(sel32.a), lut_b[lane].eq(sel32.b), lut_c[lane].eq(sel32.c)]

        with m.Switch(form):
            with m.Case(Form.NONE):
                pass        # idle: zero operands, so LReg writes do not ripple through the FMAs
            with m.Case(Form.ADDI):
                m.d.comb += [a.eq(bf16.replicate(LANES)), b.eq(Const(ONE, 32).replicate(LANES)), c.eq(vc)]
            with m.Case(Form.MULI):
                m.d.comb += [a.eq(bf16.replicate(LANES)), b.eq(vc)]
            with m.Case(Form.LUT, Form.LUTFP32):
                m.d.comb += [a.eq(lut_a), b.eq(lut_b), c.eq(lut_c)]
            with m.Default():     # MAD (and MUL24)
                m.d.comb += [a.eq(va), b.eq(vb), c.eq(vc)]

        results = Signal(LaneValues)
        for lane in range(LANES):
            fma = m.submodules[f"fma_{lane}"] = Fma(self.arch, features=f)
            m.d.comb += [fma.a.eq(a[lane]), fma.b.eq(b[lane]), fma.c.eq(c[lane]), results[lane].eq(fma.d)]
            if f.mul24:
                m.d.comb += [fma.mul24.eq(form == Form.MUL24), fma.upper.eq(mod[MUL24_UPPER])]

        # -- destinations: VD in every lane, or L7's low bits per lane under INDIRECT_VD.
        # Only L0-L7 and L16 take a result; an indirect L8-L15 is dropped.
        en = Signal(LANES)
        dest = Signal(data.ArrayLayout(5, LANES))
        with m.If(indirect_vd):
            for lane in range(LANES):
                reg = l7[lane][:4]
                m.d.comb += [dest[lane].eq(reg), en[lane].eq(lanes[lane] & (reg < 8))]
        with m.Else():
            m.d.comb += [dest.eq(issue.vd.replicate(LANES)),
                         en.eq(Mux((issue.vd < 8) | (issue.vd == L16), lanes, 0))]

        # -- pipeline registers beside the FMAs' ---------------------------------------
        en_q = Signal(LANES)
        dest_q = Signal(data.ArrayLayout(5, LANES))
        sgn_retain_q = Signal()
        l3_sign_q = Signal(LaneValues)  # L3's sign bits at issue (the rest zero), for SGN_RETAIN
        m.d.sync += [
            en_q.eq(en),
            dest_q.eq(dest),
            sgn_retain_q.eq(sgn_retain),
            l3_sign_q.eq(l3.as_value() & SIGNS),
        ]

        # -- landing --------------------------------------------------------------------
        m.d.comb += [self.landing.en.eq(en_q), self.landing.reg.eq(dest_q),
                     self.landing.data.eq(Mux(sgn_retain_q, (results.as_value() & ~SIGNS) | l3_sign_q.as_value(), results))]
        return m
