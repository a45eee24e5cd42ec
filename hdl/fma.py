"""Wormhole B0 SFPMAD arithmetic: ``d = a * b + c`` on FP32 bit patterns.

A two-stage pipeline, one instance per lane.  The behaviour is that of the
MAD unit as described in spec section 5 (bit-perfect reference: fma.c,
``fma_model_wh``), which is not an IEEE fma:

* denormal inputs and -0 read as zero;
* the 48-bit significand product is cut to 27 bits plus a sticky bit before
  the add, and its exponent comes from the operand exponents alone;
* a product whose exponent reaches 255 is Inf by itself, and a product whose
  exponent is below 0 is dropped;
* the operand with the smaller exponent is aligned with a *semi-sticky*
  shift: the sticky bit is set only if some bit of it survives the shift;
* a right renormalisation by two places drops the upper of the two lost bits;
* one round-to-nearest-even; results below 2**-126 are flushed to +0 and every
  zero is +0;
* NaN results are ``sign | 0x7F800001`` with the bits of the finished
  computation ORed in.

Stage 1: classify, special cases, product, alignment.  Pipeline register
(``STAGE1``).  Stage 2 (`_Stage2`, with the register): add, normalise, round, pack.
"""

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from .arith import Fp32, leading_zeros

__all__ = ["STAGE1", "Fma"]


# Significands on the 27-bit grid: hidden bit at 26, 23 fraction bits, then 3
# guard bits.  The product may carry into bit 27, so the datapath is 28 bits.
SIG_BITS = 28
SUM_BITS = SIG_BITS + 1   # 2**28 + 2**27 > any sum of the two operands

# What stage 2 needs, and nothing more: the two aligned significands ("big" is
# the operand with the larger exponent, which is not necessarily the larger
# magnitude), their signs, the common exponent and the special-case verdict.
STAGE1 = data.StructLayout({
    "big_sig":      SIG_BITS,
    "small_sig":    SIG_BITS,   # already aligned to big_sig
    "big_sign":     1,
    "small_sign":   1,
    "exp":          8,          # biased exponent of big_sig's bit 26
    "is_nan":       1,          # result is sign | 0x7F800001 | (datapath bits)
    "is_inf":       1,          # result is sign | 0x7F800000, nothing else
    "special_sign": 1,          # sign of the NaN or Inf result
})


class Fma(wiring.Component):
    """``d`` is the Wormhole MAD result of the ``a``, ``b``, ``c`` presented
    one clock earlier.  ``a * b + c``, FP32 bit patterns."""

    a: In(32)
    b: In(32)
    c: In(32)
    d: Out(32)

    def elaborate(self, platform):
        m = Module()

        # ================================================================
        # Stage 1: classify, special cases, product, alignment
        # ================================================================
        x = Fp32(self.a)
        y = Fp32(self.b)
        z = Fp32(self.c)

        # Amaranth's simulator reruns a module's combinational logic once for
        # every level of named signals it reads back, so the intermediate
        # values are expressions and only `shift`/`small_sig` (each read
        # several times) are signals: two passes per operand change.

        # ---- classify ---------------------------------------------------
        # Exponent 0 (zero or denormal) reads as a zero significand: there
        # is no denormal support.  Signs stay as they are: a zero result is
        # +0 whatever they are, but Inf * -0 gives a NaN signed like -Inf*0.
        def significand(f):
            return Mux(f.exponent == 0, 0, Cat(f.mantissa, Const(1, 1)))
        x_max = x.exponent == 0xFF      # exponent 255: Inf or NaN
        y_max = y.exponent == 0xFF
        z_max = z.exponent == 0xFF
        z_nan = z_max & (z.mantissa != 0)
        z_inf = z_max & (z.mantissa == 0)

        # ---- product ----------------------------------------------------
        # The full product is 48 bits with its binary point after bit 46;
        # keep the 28 bits from bit 20 up (the 27-bit grid plus a possible
        # carry bit) and OR the 20 bits below into the LSB.  The exponent
        # ignores that carry bit: it is normalised away in stage 2.
        p_sign = x.sign ^ y.sign
        product = (significand(x) * significand(y))[:48]
        p_sig = Cat(product[20] | product[:20].any(), product[21:])
        p_exp = (x.exponent + y.exponent - 127).as_signed()[:10].as_signed()     # -127 .. 383
        p_zero = (x.exponent == 0) | (y.exponent == 0)
        p_ovf = p_exp >= 255            # the product alone overflows

        # ---- special cases ----------------------------------------------
        # An Inf/NaN operand or an overflowing product decides the result
        # here.  Invalid (Inf*0, NaN x or y, Inf - Inf with an overflowed
        # product counting as Inf) gives a NaN signed like the product; else
        # a NaN z gives a NaN signed like z.  NaN lanes still run through
        # stage 2, whose bits are ORed into the NaN.  Otherwise the result is
        # the Inf of z if z is Inf, else the product's Inf.
        p_inf_like = x_max | y_max | p_ovf
        invalid = ((x_max & ((x.mantissa != 0) | (y.exponent == 0)))
                   | (y_max & ((y.mantissa != 0) | (x.exponent == 0)))
                   | (z_inf & p_inf_like & (p_sign != z.sign)))
        is_nan = invalid | z_nan
        is_inf = (p_inf_like | z_max) & ~is_nan
        special_sign = Mux(z_max & ~invalid, z.sign, p_sign)

        # ---- product underflow ------------------------------------------
        # A zero product, or one with exponent below 0 (below 2**-126), is
        # dropped entirely: the sum is then z itself (or +0).  An overflowed
        # exponent saturates at 255; that only matters to NaN lanes.
        p_gone = p_zero | (p_exp < 0)
        p_sig_eff = Mux(p_gone, 0, p_sig)
        p_exp_eff = Mux(p_gone, 0, Mux(p_ovf, 0xFF, p_exp[:8]))[:8]

        # ---- alignment --------------------------------------------------
        # Only the operand with the smaller exponent moves, so swap the two
        # onto one shifter.  The semi-sticky rule: lost bits set the LSB only
        # if something is left; an operand shifted out entirely becomes 0.
        z_sig_grid = Cat(Const(0, 3), significand(z))
        exp_diff = (p_exp_eff - z.exponent).as_signed()[:9].as_signed()
        p_is_big = exp_diff >= 0
        abs_diff = Mux(p_is_big, exp_diff, -exp_diff)
        shift = Signal(5)               # saturates at 31: 28 or more empties it
        small_sig = Signal(SIG_BITS)
        m.d.comb += [
            shift.eq(Mux(abs_diff[5:].any(), 31, abs_diff[:5])),
            small_sig.eq(Mux(p_is_big, z_sig_grid, p_sig_eff)),
        ]
        lost_mask = ~(Const((1 << SIG_BITS) - 1, SIG_BITS) << shift)[:SIG_BITS]
        small_kept = (small_sig >> shift)[:SIG_BITS]
        small_aligned = small_kept | (small_kept.any() & (small_sig & lost_mask).any())

        stage1 = Signal(STAGE1)
        m.d.comb += [
            stage1.big_sig.eq(Mux(p_is_big, p_sig_eff, z_sig_grid)),
            stage1.small_sig.eq(small_aligned),
            stage1.big_sign.eq(Mux(p_is_big, p_sign, z.sign)),
            stage1.small_sign.eq(Mux(p_is_big, z.sign, p_sign)),
            stage1.exp.eq(Mux(p_is_big, p_exp_eff, z.exponent)),
            stage1.is_nan.eq(is_nan),
            stage1.is_inf.eq(is_inf),
            stage1.special_sign.eq(special_sign),
        ]

        # ================================================================
        # The pipeline register and stage 2, in a submodule of their own: an
        # event-driven simulator reruns a module's combinational logic as a
        # whole, so stage 2 then reruns once a cycle, not on every change of
        # the operands.
        # ================================================================
        m.submodules.finish = finish = _Stage2()
        m.d.comb += [finish.stage1.eq(stage1), self.d.eq(finish.d)]
        return m


class _Stage2(wiring.Component):
    """`Fma`'s pipeline register and stage 2: add, normalise, round, pack."""

    stage1: In(STAGE1)
    d: Out(32)

    def elaborate(self, platform):
        m = Module()
        stage2 = Signal(STAGE1)           # stage 2's side of the register
        m.d.sync += stage2.eq(self.stage1)

        # ================================================================
        # Stage 2: add, normalise, round, pack
        # ================================================================

        # ---- add --------------------------------------------------------
        # Sign-magnitude, one adder: an effective subtraction adds the one's
        # complement plus one, and a negative difference (the small-exponent
        # operand was the larger magnitude) is negated back.  The result
        # takes the sign of the larger magnitude; on a tie the sign does not
        # matter: equal signs agree, opposite signs cancel to zero (+0).
        # As in stage 1, only `r_mag` and the leading-zero count are signals.
        eff_sub = stage2.big_sign ^ stage2.small_sign
        small_wide = Cat(stage2.small_sig, Const(0, 1))
        sum_raw = (stage2.big_sig + Mux(eff_sub, ~small_wide, small_wide) + eff_sub)[:SUM_BITS]
        # |big - small| < 2**28, so bit 28 of a difference is its sign
        small_wins = eff_sub & sum_raw[-1]
        r_mag = Signal(SUM_BITS)
        m.d.comb += r_mag.eq(Mux(small_wins, -sum_raw, sum_raw))
        r_sign = Mux(small_wins, stage2.small_sign, stage2.big_sign)

        # ---- normalise --------------------------------------------------
        # Bring the leading one to bit 28, i.e. to bit 26 of the 27-bit
        # grid.  Left shifts are exact.  A right shift (sum >= 2**27, by 1
        # or 2) ORs only the sum's bit 0 into the sticky position: on a
        # 2-place shift bit 1 is lost (a hardware bug that must be kept).
        r_zero = Signal()
        lead_zeros = Signal(5)
        lz_zero, lz_count = leading_zeros(Cat(Const(0, 32 - SUM_BITS), r_mag))
        m.d.comb += [r_zero.eq(lz_zero), lead_zeros.eq(lz_count)]
        shifted = (r_mag << lead_zeros)[:SUM_BITS]
        r_sig = Cat(shifted[2] | (r_mag[0] & (lead_zeros < 2)), shifted[3:])    # 1.f, guard, round, sticky
        r_exp = (stage2.exp + 2 - lead_zeros).as_signed()[:10].as_signed()     # -27 .. 257

        # ---- round (RNE) ------------------------------------------------
        # Exponent field and 23 fraction bits, plus one on round-up; the
        # carry may ripple into the exponent, up to Inf.  With exponent 0
        # the hidden bit is dropped, so only a value that rounds up to
        # 2**-126 survives the flush below (the denormal-rounding quirk).
        round_up = r_sig[2] & (r_sig[3] | r_sig[1] | r_sig[0])
        rounded = (Cat(r_sig[3:26], r_exp[:8]) + round_up)[:31]

        # ---- pack ---------------------------------------------------------
        # Zero, flushed and overflowed results are the bare NaN on NaN lanes;
        # otherwise NaN lanes OR the finished bits into the NaN pattern.
        ovf = r_exp >= 255
        flush = (r_exp < 0) | (rounded[23:] == 0)
        nan_word = Cat(Const(0x7F800001, 31), stage2.special_sign)
        inf_word = Cat(Const(0x7F800000, 31), Mux(stage2.is_inf, stage2.special_sign, r_sign))
        with m.If(stage2.is_inf):
            m.d.comb += self.d.eq(inf_word)
        with m.Elif(stage2.is_nan):
            with m.If(r_zero | ovf | flush):
                m.d.comb += self.d.eq(nan_word)
            with m.Else():
                m.d.comb += self.d.eq(nan_word | rounded)
        with m.Elif(r_zero):
            m.d.comb += self.d.eq(0)
        with m.Elif(ovf):
            m.d.comb += self.d.eq(inf_word)
        with m.Elif(flush):
            m.d.comb += self.d.eq(0)
        with m.Else():
            m.d.comb += self.d.eq(Cat(rounded, r_sign))

        return m
