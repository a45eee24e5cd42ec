"""Per-lane rounding arithmetic: SFPSTOCHRND (round sub-unit) and SFPCAST (simple sub-unit).

Spec sections 4.6 and 4.7; the functional models are the tt-isa-documentation
pages ``SFPSTOCHRND_FloatFloat.md``, ``SFPSTOCHRND_FloatInt.md``,
``SFPSTOCHRND_IntInt.md`` and ``SFPCAST.md``.

Both components are purely combinational and per lane.  Lane enables, the VD
write rules and advancing the PRNG belong to the instruction datapath, which
hands in the PRNG bits it obtained.
"""

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model import isa

from .arith import Fp32
from .isa import amaranth_enum

__all__ = ["StochRndMode", "StochRound", "CastToFp32"]


# SFPSTOCHRND Mod1 bits 2..0 (bit 3 is UseImm5, a separate port), as the table names them.
StochRndMode = amaranth_enum("StochRndMode", {m.name: m.value for m in isa.StochRndMode}, shape=3)


class StochRound(wiring.Component):
    """SFPSTOCHRND's value computation for one lane.

    Every mode is one operation on a 31-bit magnitude ``P`` with 23 fraction
    bits appended: ``F = (P << 23) >> shift``, then
    ``whole(F) + (frac(F) >= rand)``.  The modes differ only in ``P``, the
    shift, and what happens to the rounded value:

    * INT32 -> (U)INT8: ``P`` is the sign-magnitude input's magnitude and the
      shift comes from Imm5 or VB.
    * FP32 -> FP16A / FP16B: ``P`` is the raw bits without the sign, shifted
      by 13 / 16, so the whole part is exponent and kept mantissa and the
      carry of the round-up may run into the exponent (up to Inf).  The
      documentation compares ``discarded >= rand >> n``, which is the same as
      comparing ``discarded << n`` with ``rand`` whose low n bits are cleared.
    * FP32 -> (U)INT8/16: ``P`` is the significand ``1.m`` placed at bits
      30..7, i.e. ``2^7 * 1.m * 2^23``; a right shift of ``157 - exp`` leaves
      ``1.m * 2^E`` with 23 fraction bits for the exponents that round
      (E = exp - 127 in -1..15, so shifts 31..15).

    Ports:

    * ``mode``: Mod1 bits 2..0.
    * ``x``: the VC lane (FP32 or sign-magnitude int32, depending on the mode).
    * ``vb``, ``imm5``, ``use_imm5``: the right shift of the INT32 modes,
      ``imm5 if use_imm5 else vb & 31``.
    * ``rand``: the 23 PRNG bits; the instruction datapath feeds 0x400000
      instead when rounding to nearest (ties away from zero).
    * ``y``: the value written to VD.
    """

    mode: In(StochRndMode)
    x: In(32)
    vb: In(32)
    imm5: In(5)
    use_imm5: In(1)
    rand: In(23)
    y: Out(32)

    def elaborate(self, platform):
        m = Module()
        M = StochRndMode
        x = Fp32(self.x)

        # --- Operands of the shared rounder, per mode family -------------
        magnitude = Signal(31)    # P
        shift = Signal(5)
        rand_mask = Signal(23)    # which PRNG bits take part in the compare
        m.d.comb += [
            magnitude.eq(self.x[:31]),
            rand_mask.eq(0x7FFFFF),
        ]
        with m.Switch(self.mode):
            with m.Case(M.FP32_TO_FP16A):   # compare with rand >> 10, in place
                m.d.comb += [shift.eq(13), rand_mask.eq(0x7FFFFF & ~0x3FF)]
            with m.Case(M.FP32_TO_FP16B):   # compare with rand >> 7, in place
                m.d.comb += [shift.eq(16), rand_mask.eq(0x7FFFFF & ~0x7F)]
            with m.Case(M.INT32_TO_UINT8, M.INT32_TO_INT8):
                with m.If(self.use_imm5):
                    m.d.comb += shift.eq(self.imm5)
                with m.Else():
                    m.d.comb += shift.eq(self.vb[:5])
            with m.Default():  # FP32 -> integer
                m.d.comb += [
                    magnitude.eq(Cat(Const(0, 7), x.mantissa, Const(1, 1))),
                    shift.eq(157 - x.exponent),  # mod 32; only exponents 126..142 use it
                ]

        # --- Shared rounder ----------------------------------------------
        fixed = Signal(31 + 23)   # whole part above 23 fraction bits
        round_up = Signal()
        rounded = Signal(32)      # whole part + round_up; cannot overflow 32 bits
        m.d.comb += [
            fixed.eq(Cat(Const(0, 23), magnitude) >> shift),
            # ">=" is the documented hardware behaviour: with rand = 0 an
            # exact value still rounds up, and rand = 0x400000 gives ties away.
            round_up.eq(fixed[:23] >= (self.rand & rand_mask)),
            rounded.eq(fixed[23:] + round_up),
        ]

        # --- FP32 -> FP16A / FP16B ---------------------------------------
        # rounded is exponent:kept-mantissa of the result; put it back in place.
        reduced = Signal(Fp32)
        with m.If(x.exponent == 0):
            m.d.comb += reduced.eq(0)                           # zero, denormal -> +0
        with m.Elif(x.exponent == 0xFF):
            m.d.comb += reduced.eq(Cat(Const(0, 23), x.exponent, x.sign))  # NaN -> Inf
        with m.Elif(self.mode == M.FP32_TO_FP16A):
            m.d.comb += reduced.eq(Cat(Const(0, 13), rounded[:18], x.sign))
        with m.Else():
            m.d.comb += reduced.eq(Cat(Const(0, 16), rounded[:15], x.sign))

        # --- Integer results: saturate, then sign-magnitude ---------------
        # Every limit is 2^k - 1, so "rounded > limit" is "any bit >= k set".
        limit = Signal(16)
        too_big = Signal()
        with m.Switch(self.mode):
            with m.Case(M.FP32_TO_UINT8, M.INT32_TO_UINT8):
                m.d.comb += [limit.eq(255), too_big.eq(rounded[8:].any())]
            with m.Case(M.FP32_TO_INT8, M.INT32_TO_INT8):
                m.d.comb += [limit.eq(127), too_big.eq(rounded[7:].any())]
            with m.Case(M.FP32_TO_UINT16):
                m.d.comb += [limit.eq(65535), too_big.eq(rounded[16:].any())]
            with m.Case(M.FP32_TO_INT16):
                m.d.comb += [limit.eq(32767), too_big.eq(rounded[15:].any())]

        float_to_int = Signal()
        m.d.comb += float_to_int.eq(self.mode.as_value().matches(
            M.FP32_TO_UINT8, M.FP32_TO_INT8, M.FP32_TO_UINT16, M.FP32_TO_INT16))

        int_mag = Signal(16)
        with m.If(float_to_int & (x.exponent < 126)):
            # |x| < 0.5 is always 0, even when rounding stochastically
            # (documented hardware behaviour).
            m.d.comb += int_mag.eq(0)
        with m.Elif((float_to_int & (x.exponent >= 143)) | too_big):
            # |x| >= 2^16, Inf, NaN.  (The clamp alone would do up to the
            # exponents where the 5-bit shift wraps.)
            m.d.comb += int_mag.eq(limit)
        with m.Else():
            m.d.comb += int_mag.eq(rounded[:16])

        # The signed modes are the odd integer ones (3, 5, 7); a zero
        # magnitude never carries a sign.
        int_sign = Signal()
        m.d.comb += int_sign.eq(x.sign & self.mode.as_value()[0] & int_mag.any())

        # --- Result -------------------------------------------------------
        with m.If(self.mode.as_value().matches(M.FP32_TO_FP16A, M.FP32_TO_FP16B)):
            m.d.comb += self.y.eq(reduced)
        with m.Else():
            m.d.comb += self.y.eq(Cat(int_mag, Const(0, 15), int_sign))
        return m


class CastToFp32(wiring.Component):
    """SFPCAST's conversion of a sign-magnitude int32 to FP32, for one lane.

    The magnitude is normalised so its leading one sits at bit 31; the 23
    bits below it become the mantissa and the 8 below those are rounded
    away.  The result is exact for magnitudes up to 2^24.

    * ``stochastic`` clear: round to nearest, ties to even.
    * ``stochastic`` set: round up if the top 7 of the 8 discarded bits are
      strictly greater than PRNG bits 16..10, so an exact value is never
      bumped.  (The lowest discarded bit, which the compare leaves out, is
      always 0: the magnitude has 31 bits, so it is shifted left at least once.)

    ``prng`` is the whole 32-bit value the instruction's PRNG advance
    returned; it is only looked at when ``stochastic`` is set.  A zero
    magnitude keeps its sign (``0x80000000`` gives -0.0).
    """

    x: In(32)
    stochastic: In(1)
    prng: In(32)
    y: Out(32)

    def elaborate(self, platform):
        m = Module()
        sign = self.x[31]

        # --- Normalise: leading-zero count and shift in five stages --------
        # Stage k shifts left by 2^k when the top 2^k bits are all zero; the
        # stage decisions are the bits of the leading-zero count.
        lz = Signal(5)
        stage = Signal(32, name="norm_in")
        m.d.comb += stage.eq(self.x[:31])   # bit 31 (the sign) reads as 0
        for k in (4, 3, 2, 1, 0):
            width = 1 << k
            nxt = Signal(32, name=f"norm_{k}")
            top_clear = stage[32 - width:] == 0
            m.d.comb += [
                lz[k].eq(top_clear),
                nxt.eq(Mux(top_clear, stage << width, stage)),
            ]
            stage = nxt
        norm = stage                       # leading one at bit 31, unless zero
        nonzero = Signal()
        m.d.comb += nonzero.eq(norm[31])

        # --- Truncated result ------------------------------------------------
        # The magnitude's leading one was bit 31 - lz: biased exponent 127 + 31 - lz.
        truncated = Signal(Fp32)
        m.d.comb += [
            truncated.mantissa.eq(norm[8:31]),
            truncated.exponent.eq(Mux(nonzero, 158 - lz, 0)),
            truncated.sign.eq(sign),
        ]

        # --- Rounding of the 8 discarded bits --------------------------------
        discarded = norm[:8]
        round_up = Signal()
        with m.If(self.stochastic):
            m.d.comb += round_up.eq(discarded[1:8] > self.prng[10:17])
        with m.Else():
            # Guard bit set and (sticky bits or an odd result): nearest, ties even.
            m.d.comb += round_up.eq(discarded[7] & (discarded[:7].any() | norm[8]))

        # A mantissa carry runs into the exponent, as it should; the largest
        # magnitude rounds to 2^31, far from overflowing into the sign.
        m.d.comb += self.y.eq(truncated.as_value() + round_up)
        return m
