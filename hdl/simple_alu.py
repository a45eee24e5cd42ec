"""Per-lane arithmetic of the Simple sub-unit: one copy per lane (32 in all).

Covers SFPABS, SFPAND, SFPOR, SFPXOR, SFPNOT, SFPLZ, SFPSHFT, SFPIADD,
SFPEXEXP, SFPEXMAN, SFPSETEXP, SFPSETMAN, SFPSETSGN, SFPDIVP2, the register
forms of SFPMOV, and SFPSETCC's test. Written from the "Functional model"
sections of the tt-isa-documentation WormholeB0 pages (spec section 2.3);
with the features Blackhole has (`Features.compare`, `arecip`,
`cast_int_modes`, `shft_arithmetic`; docs/blackhole.md) it also covers
SFPLE, SFPGT, SFPARECIP, SFPCAST's integer modes, and SFPSHFT's ARITHMETIC
and ARG_IMM_USE_VC, which an elaboration without them does not build.

Purely combinational. The caller owns everything that is not lane arithmetic:
resolving VB/VC (``vb`` already holds VD's value where the model says
``VB = VD``), LaneEnabled, the ``VD < 8 || VD == 16`` write rule, the
``VD < 8`` rule for flag updates, SFPSETCC's AND with
UseLaneFlagsForLaneEnable, and SFPMOV's FROM_SPECIAL sources.

Ports:

* ``op``, ``mod1``: the opcode and instruction bits [3:0]. Opcodes without a
  Mod1 field (SFPAND, SFPOR, SFPXOR, SFPNOT) ignore ``mod1``.
* ``imm``: instruction bits [23:12]; Imm12 is all of it, Imm8 its low 8 bits,
  Imm1 bit 0. Bits outside the opcode's immediate are ignored.
* ``vb``, ``vc``: the lane's VB and VC register values.
* ``result``: the value for VD; ``writes``: the instruction writes VD.
* ``cond``, ``cond_valid``, ``invert``: the LaneFlags update. For SFPIADD,
  SFPLZ and SFPEXEXP the new flag is ``cond if cond_valid else old``, then
  negated if ``invert``. For SFPSETCC ``cond`` is the test (``cond_valid`` = 1,
  ``invert`` = 0). Otherwise ``cond_valid`` = ``invert`` = 0 (flags unchanged).

Per instruction (``writes``; ``cond`` / ``cond_valid`` / ``invert``; the
flag outputs are 0 / 0 / 0 where not given):

* SFPAND, SFPOR, SFPXOR, SFPNOT: vb & vc, vb | vc, vb ^ vc, ~vc (writes 1).
* SFPMOV: vc ^ (Mod1[0] << 31); writes = !Mod1[3] (FROM_SPECIAL is not here).
* SFPABS: FLOAT (Mod1[0]) clears the sign unless -NaN; INT negates (two's
  complement) when bit 31 is set (writes 1).
* SFPIADD: vc + sext(Imm12) if Mod1[0], else vc - vb if Mod1[1], else vc + vb
  (writes 1); result < 0 / !Mod1[2] / Mod1[3].
* SFPLZ: c = vc with bit 31 cleared if Mod1[2]; clz(c), 32 for 0 (writes 1);
  c != 0 / Mod1[1] / Mod1[3].
* SFPSHFT: n = sext(Imm12) if Mod1[0] else vc; vb << (n & 31) for n >= 0, else
  vb >> (-n & 31) (writes 1).
* SFPEXEXP: exponent(vc) - (0 if Mod1[0] else 127) (writes 1);
  result < 0 / Mod1[1] / Mod1[3].
* SFPEXMAN: (0 if Mod1[0] else 1 << 23) + mantissa(vc) (writes 1).
* SFPSETEXP / SFPSETMAN / SFPSETSGN / SFPDIVP2: vc with one field replaced
  (writes 1; the first choice when Mod1[0], SFPSETEXP's second when Mod1[1]):
  exponent Imm8 / vb[30:23] / vb[7:0]; mantissa Imm12 << 11 /
  vb[22:0]; sign Imm1 / vb[31]; exponent Imm8, or + Imm8 mod 256 unless 255.
* SFPSETCC: writes 0; test / 1 / 0.
* Blackhole's SFPSHFT: with ARITHMETIC (Mod1[1]) a right shift copies the
  sign; with ARG_IMM and ARG_IMM_USE_VC (Mod1[2]) VC is shifted, not VB.
* Blackhole's SFPLE / SFPGT: vb <= vc / vb > vc in the sign-magnitude order,
  as -1 or 0 (writes = SET_VD, Mod1[3]); result / SET_CC (Mod1[0]) / 0. The
  flag unit reads MUTATE_STACK and MUTATE_OR from Mod1 itself.
* Blackhole's SFPCAST with Mod1[1]: INT32_ABS (|vc| as two's complement) or,
  with Mod1[0], INT32_SM32 (that with vc's sign bit); writes = Mod1[1] (the
  FP32 modes are `hdl.rounding.CastToFp32`'s).
* Blackhole's SFPARECIP: approx 1/|vc| with vc's sign (Mod1 0), 1/|vc| where
  vb < 0 and vc elsewhere (1), approx e**|vc| with vc's sign (2-15), from
  `model.bh_arith`'s two tables (writes 1).
* Anything else: result 0, writes 0.

SFPSETCC's test: 0 if Mod1[3] (CLEAR), else Imm1 if Mod1[0], else per Mod1
0/2/4/6: vc < 0, vc != 0, vc >= 0, vc == 0 (as int32, so -0.0 is < 0).

One 32-bit adder is shared by SFPIADD, SFPABS (integer negate), SFPEXEXP
(de-bias) and SFPDIVP2 (exponent add), and one left shifter serves both
directions of SFPSHFT, so each lane carries a single adder and shifter.
"""

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model.isa import ArecipMod1, CastMod1, CmpMod1, ShftMod1
from tensix_sfpu.model.isa_tables import EXP_TABLE, RECIP_TABLE

from .arith import Fp32, leading_zeros, sign_magnitude_key
from .isa import ArchComponent, Opcode

__all__ = ["SimpleAlu"]

EXP_BIAS = 127

CAST_INT = CastMod1.INT32_ABS   # SFPCAST Mod1 bit 1 on Blackhole: INT32_ABS (2) and INT32_SM32 (3)

# SFPARECIP's FP32 bounds on |VC| (model.bh_arith's approx_recip and approx_exp).
RECIP_ZERO_FROM = 0x7E800000        # 1/x is 0 from 2**126 up
EXP_TINY_BELOW = 0x3C800000         # e**x is 1 + 2**-7 (with x's low bits) below 2**-6
EXP_TABLE_FIRST = EXP_TINY_BELOW >> 16
EXP_LOW_BELOW = 0x3F320000          # below 0.6953125 the table is relative to 1.0, above to 2.0
EXP_HIGH_FROM = 0x40000000          # from 2.0 up, 4.0 with x's low bits


def _rom(table, width: int, entries: int):
    """A lookup table as one constant, read with `word_select` (a mux tree in
    hardware); indexes past the table read 0."""
    return Const(sum(int(v) << (width * i) for i, v in enumerate(table)), width * entries)


class SimpleAlu(ArchComponent):
    op: In(Opcode)
    mod1: In(4)
    imm: In(12)
    vb: In(32)
    vc: In(32)

    result: Out(32)
    writes: Out(1)
    cond: Out(1)
    cond_valid: Out(1)
    invert: Out(1)

    def elaborate(self, platform):
        m = Module()
        mod1, imm, vb, vc = self.mod1, self.imm, self.vb, self.vc
        c = Fp32(vc)
        imm8, imm1 = imm[:8], imm[0]

        # --- Shared adder: sum = add_a +/- add_b (mod 2^32) -------------------
        # `total` and the shifter's words are expressions, not signals: Amaranth's
        # simulator reruns this module once more for each level of signals it reads.
        add_a = Signal(32)
        add_b = Signal(32)
        subtract = Signal()
        operand_b = Mux(subtract, ~add_b, add_b)
        # a + b + cin as one 33-bit add: (2a + cin) + (2b + cin) = 2(a + b + cin).
        carry_in_sum = Cat(subtract, add_a) + Cat(subtract, operand_b)
        total = carry_in_sum[1:33]

        # --- Shared shifter: a right shift is a left shift of the bit-reversed word
        shift_right = Signal()
        shift_distance = Signal(5)
        f = self.features
        shift_source = vb
        if f.shft_arithmetic:       # ARG_IMM with ARG_IMM_USE_VC shifts VC instead of VD
            shift_source = Signal(32)
            m.d.comb += shift_source.eq(
                Mux((self.op == Opcode.SHFT) & mod1[0] & (mod1 & ShftMod1.ARG_IMM_USE_VC).any(), vc, vb))
        shift_in = Mux(shift_right, shift_source[::-1], shift_source)
        shifted = (shift_in << shift_distance)[:32]

        with m.Switch(self.op):
            # --- Bitwise: VB is VD for the two-operand forms -------------------
            with m.Case(Opcode.AND):
                m.d.comb += [self.result.eq(vb & vc), self.writes.eq(1)]
            with m.Case(Opcode.OR):
                m.d.comb += [self.result.eq(vb | vc), self.writes.eq(1)]
            with m.Case(Opcode.XOR):
                m.d.comb += [self.result.eq(vb ^ vc), self.writes.eq(1)]
            with m.Case(Opcode.NOT):
                m.d.comb += [self.result.eq(~vc), self.writes.eq(1)]

            # --- SFPMOV, register forms: copy, or flip the sign bit (NEGATE) ---
            with m.Case(Opcode.MOV):
                from_special = mod1[3]      # config/PRNG source: not lane arithmetic
                m.d.comb += [
                    self.result.eq(vc ^ Cat(Const(0, 31), mod1[0])),
                    self.writes.eq(~from_special),
                ]

            # --- SFPABS: FLOAT clears the sign unless -NaN; INT negates -------
            with m.Case(Opcode.ABS):
                negative = c.sign
                negative_nan = c.exponent.all() & c.mantissa.any()
                with m.If(mod1[0]):
                    m.d.comb += self.result.eq(Mux(negative & ~negative_nan, Cat(vc[:31], Const(0, 1)), vc))
                with m.Else():
                    # 0 - x wraps, so 0x80000000 stays 0x80000000.
                    m.d.comb += [add_b.eq(vc), subtract.eq(1),
                                 self.result.eq(Mux(negative, total, vc))]
                m.d.comb += self.writes.eq(1)

            # --- SFPIADD: VC + Imm12 / VC - VD / VC + VD; flags from the sign --
            with m.Case(Opcode.IADD):
                use_imm, minus_vd = mod1[0], mod1[1]
                cc_none, cc_gte0 = mod1[2], mod1[3]
                m.d.comb += [
                    add_a.eq(vc),
                    add_b.eq(Mux(use_imm, imm.as_signed(), vb)),
                    subtract.eq(~use_imm & minus_vd),
                    self.result.eq(total),
                    self.writes.eq(1),
                    self.cond.eq(total[31]),                  # result < 0 as int32
                    self.cond_valid.eq(~cc_none),
                    self.invert.eq(cc_gte0),                  # applies even with CC_NONE
                ]

            # --- SFPLZ: count leading zeros (32 for zero); flags from c != 0 ---
            with m.Case(Opcode.LZ):
                nosgn = mod1[2]
                counted = Signal(32)
                m.d.comb += counted.eq(Cat(vc[:31], vc[31] & ~nosgn))
                all_zero, zeros = leading_zeros(counted)
                m.d.comb += [
                    self.result.eq(Mux(all_zero, 32, zeros)),
                    self.writes.eq(1),
                    self.cond.eq(~all_zero),
                    self.cond_valid.eq(mod1[1]),              # CC_NE0
                    self.invert.eq(mod1[3]),                  # CC_COMP
                ]

            # --- SFPSHFT: logical shift of VD; amount >= 0 left, < 0 right ------
            with m.Case(Opcode.SHFT):
                use_imm = mod1[0]
                amount_negative = Mux(use_imm, imm[11], vc[31])
                amount_low = Mux(use_imm, imm[:5], vc[:5])
                right = shifted[::-1]
                if f.shft_arithmetic:   # ARITHMETIC: the vacated high bits copy the sign
                    sign_fill = ~(Const(0xFFFFFFFF, 32) >> shift_distance)
                    right = right | Mux((mod1 & ShftMod1.ARITHMETIC).any() & shift_source[31], sign_fill, 0)
                m.d.comb += [
                    shift_right.eq(amount_negative),
                    # Right by (-amount) & 31, which only needs the low 5 bits.
                    shift_distance.eq(Mux(amount_negative, -amount_low, amount_low)),
                    self.result.eq(Mux(amount_negative, right, shifted)),
                    self.writes.eq(1),
                ]

            # --- SFPEXEXP: exponent field minus 127 (or 0 with NODEBIAS) --------
            with m.Case(Opcode.EXEXP):
                m.d.comb += [
                    add_a.eq(c.exponent),
                    add_b.eq(Mux(mod1[0], 0, EXP_BIAS)),
                    subtract.eq(1),
                    self.result.eq(total),
                    self.writes.eq(1),
                    self.cond.eq(total[31]),                  # exponent < 0
                    self.cond_valid.eq(mod1[1]),              # SET_CC_SGN_EXP
                    self.invert.eq(mod1[3]),                  # SET_CC_COMP_EXP
                ]

            # --- SFPEXMAN: mantissa with the hidden bit, unless PAD9 -----------
            with m.Case(Opcode.EXMAN):
                m.d.comb += [self.result.eq(Cat(c.mantissa, ~mod1[0])), self.writes.eq(1)]

            # --- SFPSETEXP: VC's sign and mantissa, a new exponent ---------------
            with m.Case(Opcode.SETEXP):
                vd_exponent = vb[23:31]
                new_exponent = Mux(mod1[0], imm8, Mux(mod1[1], vd_exponent, vb[:8]))
                m.d.comb += [self.result.eq(Cat(c.mantissa, new_exponent, c.sign)), self.writes.eq(1)]

            # --- SFPSETMAN: VC's sign and exponent, a new mantissa ---------------
            with m.Case(Opcode.SETMAN):
                new_mantissa = Mux(mod1[0], Cat(Const(0, 11), imm), vb[:23])
                m.d.comb += [self.result.eq(Cat(new_mantissa, c.exponent, c.sign)), self.writes.eq(1)]

            # --- SFPSETSGN: VC's exponent and mantissa, a new sign ---------------
            with m.Case(Opcode.SETSGN):
                new_sign = Mux(mod1[0], imm1, vb[31])
                m.d.comb += [self.result.eq(Cat(vc[:31], new_sign)), self.writes.eq(1)]

            # --- SFPDIVP2: set the exponent, or add to it (wrapping; Inf/NaN kept)
            with m.Case(Opcode.DIVP2):
                add_mode = mod1[0]
                keep = c.exponent.all()
                m.d.comb += [add_a.eq(c.exponent), add_b.eq(imm8)]
                new_exponent = Mux(add_mode, Mux(keep, c.exponent, total[:8]), imm8)
                m.d.comb += [self.result.eq(Cat(c.mantissa, new_exponent, c.sign)), self.writes.eq(1)]

            # --- SFPSETCC: the test only; the caller ANDs it with UseLaneFlags ---
            with m.Case(Opcode.SETCC):
                # Mod1 0/2/4/6: bit 1 picks "!= 0" over "< 0", bit 2 negates
                # (giving >= 0 and == 0).
                register_test = mod1[2] ^ Mux(mod1[1], vc.any(), vc[31])
                m.d.comb += [
                    self.cond.eq(Mux(mod1[3], 0, Mux(mod1[0], imm1, register_test))),
                    self.cond_valid.eq(1),
                ]
            if f.compare:
                self._compare(m)
            if f.cast_int_modes:
                self._cast_int(m, add_b, subtract, total)
            if f.arecip:
                self._arecip(m, c)
        return m

    def _compare(self, m: Module) -> None:
        """SFPLE and SFPGT (`Features.compare`), inside the opcode switch."""
        mod1, vb, vc = self.mod1, self.vb, self.vc
        # --- SFPLE / SFPGT: VD (in VB) <= / > VC in the sign-magnitude order --
        with m.Case(Opcode.LE, Opcode.GT):
            vc_less = sign_magnitude_key(m, vc, "key_c") < sign_magnitude_key(m, vb, "key_d")
            holds = Mux(self.op == Opcode.GT, vc_less, ~vc_less)
            m.d.comb += [
                self.result.eq(holds.replicate(32)),          # -1 or 0
                self.writes.eq((mod1 & CmpMod1.SET_VD).any()),
                # The flag unit reads SET_CC and MUTATE_STACK from Mod1 itself.
                self.cond.eq(holds),
                self.cond_valid.eq((mod1 & CmpMod1.SET_CC).any()),
            ]

    def _cast_int(self, m: Module, add_b, subtract, total) -> None:
        """SFPCAST's INT32_ABS / INT32_SM32 (`Features.cast_int_modes`; the FP32
        modes are CastToFp32's), inside the opcode switch."""
        mod1, vc = self.mod1, self.vc
        with m.Case(Opcode.CAST):
            negative = vc[31]
            m.d.comb += [add_b.eq(vc), subtract.eq(1)]      # 0 - VC; 0x80000000 stays
            magnitude = Mux(negative, total, vc)
            # INT32_SM32 ORs the sign back in: a negative input keeps bit 31 set.
            m.d.comb += [self.result.eq(Mux(mod1[0], Cat(magnitude[:31], negative), magnitude)),
                         self.writes.eq((mod1 & CAST_INT).any())]

    def _arecip(self, m: Module, c) -> None:
        """SFPARECIP (`Features.arecip`): approximate 1/|VC| or e**|VC|, inside the opcode switch."""
        mod1, vb, vc = self.mod1, self.vb, self.vc
        with m.Case(Opcode.ARECIP):
            magnitude = vc[:31]
            exponent = c.exponent
            recip = Signal(32, name="approx_recip")
            entry = _rom(RECIP_TABLE, 7, 128).word_select(c.mantissa[16:23], 7)
            with m.If(exponent == 0):
                m.d.comb += recip.eq(0x7F800000)               # +Inf below 2**-126
            with m.Elif(magnitude < RECIP_ZERO_FROM):
                m.d.comb += recip.eq(Cat(Const(0, 16), entry, (253 - exponent)[:8]))
            # else 0

            expo = Signal(32, name="approx_exp")
            low = vc[:16]
            index = (vc[16:31] - EXP_TABLE_FIRST)[:10]
            exp_entry = Cat(Const(0, 16), _rom(EXP_TABLE, 8, 1024).word_select(index, 8))
            with m.If(exponent == 0):
                m.d.comb += expo.eq(0x3F800000)
            with m.Elif(magnitude < EXP_TINY_BELOW):
                m.d.comb += expo.eq(0x3F810000 | low)
            with m.Elif(magnitude < EXP_LOW_BELOW):
                m.d.comb += expo.eq(0x3F800000 | exp_entry | low)
            with m.Elif(magnitude < EXP_HIGH_FROM):
                # An entry above 127 carries into the exponent (the OR is an add here).
                m.d.comb += expo.eq(0x40000000 | exp_entry | low)
            with m.Else():
                m.d.comb += expo.eq(0x40800000 | low)

            with m.Switch(mod1):
                with m.Case(ArecipMod1.RECIP):
                    m.d.comb += self.result.eq(Cat(recip[:31], vc[31]))
                with m.Case(ArecipMod1.COND_RECIP):      # 1/|VC| where VB < 0, VC elsewhere
                    m.d.comb += self.result.eq(Mux(vb[31], recip, vc))
                with m.Default():
                    m.d.comb += self.result.eq(Cat(expo[:31], vc[31]))
            m.d.comb += self.writes.eq(1)
