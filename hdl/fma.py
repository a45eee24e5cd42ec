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

from amaranth import Cat, Const, Module, Mux, Signal, signed
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

        # ---- classify ---------------------------------------------------
        # Exponent 0 (zero or denormal) reads as a zero significand: there
        # is no denormal support.  Signs stay as they are: a zero result is
        # +0 whatever they are, but Inf * -0 gives a NaN signed like -Inf*0.
        x_sig = Signal(24)
        y_sig = Signal(24)
        z_sig = Signal(24)
        x_max = Signal()        # exponent 255: Inf or NaN
        y_max = Signal()
        z_max = Signal()
        z_nan = Signal()
        z_inf = Signal()
        m.d.comb += [
            x_sig.eq(Mux(x.exponent == 0, 0, Cat(x.mantissa, Const(1, 1)))),
            y_sig.eq(Mux(y.exponent == 0, 0, Cat(y.mantissa, Const(1, 1)))),
            z_sig.eq(Mux(z.exponent == 0, 0, Cat(z.mantissa, Const(1, 1)))),
            x_max.eq(x.exponent == 0xFF),
            y_max.eq(y.exponent == 0xFF),
            z_max.eq(z.exponent == 0xFF),
            z_nan.eq(z_max & (z.mantissa != 0)),
            z_inf.eq(z_max & (z.mantissa == 0)),
        ]

        # ---- product ----------------------------------------------------
        # The full product is 48 bits with its binary point after bit 46;
        # keep the 28 bits from bit 20 up (the 27-bit grid plus a possible
        # carry bit) and OR the 20 bits below into the LSB.  The exponent
        # ignores that carry bit: it is normalised away in stage 2.
        p_sign = Signal()
        product = Signal(48)
        p_sig = Signal(SIG_BITS)
        p_exp = Signal(signed(10))      # -127 .. 383
        p_zero = Signal()
        p_ovf = Signal()                # the product alone overflows
        m.d.comb += [
            p_sign.eq(x.sign ^ y.sign),
            product.eq(x_sig * y_sig),
            p_sig.eq(Cat(product[20] | product[:20].any(), product[21:])),
            p_exp.eq(x.exponent + y.exponent - 127),
            p_zero.eq((x.exponent == 0) | (y.exponent == 0)),
            p_ovf.eq(p_exp >= 255),
        ]

        # ---- special cases ----------------------------------------------
        # An Inf/NaN operand or an overflowing product decides the result
        # here.  Invalid (Inf*0, NaN x or y, Inf - Inf with an overflowed
        # product counting as Inf) gives a NaN signed like the product; else
        # a NaN z gives a NaN signed like z.  NaN lanes still run through
        # stage 2, whose bits are ORed into the NaN.  Otherwise the result is
        # the Inf of z if z is Inf, else the product's Inf.
        p_inf_like = Signal()
        invalid = Signal()
        is_nan = Signal()
        is_inf = Signal()
        special_sign = Signal()
        m.d.comb += [
            p_inf_like.eq(x_max | y_max | p_ovf),
            invalid.eq((x_max & ((x.mantissa != 0) | (y.exponent == 0)))
                       | (y_max & ((y.mantissa != 0) | (x.exponent == 0)))
                       | (z_inf & p_inf_like & (p_sign != z.sign))),
            is_nan.eq(invalid | z_nan),
            is_inf.eq((p_inf_like | z_max) & ~is_nan),
            special_sign.eq(Mux(z_max & ~invalid, z.sign, p_sign)),
        ]

        # ---- product underflow ------------------------------------------
        # A zero product, or one with exponent below 0 (below 2**-126), is
        # dropped entirely: the sum is then z itself (or +0).  An overflowed
        # exponent saturates at 255; that only matters to NaN lanes.
        p_gone = Signal()
        p_sig_eff = Signal(SIG_BITS)
        p_exp_eff = Signal(8)
        m.d.comb += [
            p_gone.eq(p_zero | (p_exp < 0)),
            p_sig_eff.eq(Mux(p_gone, 0, p_sig)),
            p_exp_eff.eq(Mux(p_gone, 0, Mux(p_ovf, 0xFF, p_exp[:8]))),
        ]

        # ---- alignment --------------------------------------------------
        # Only the operand with the smaller exponent moves, so swap the two
        # onto one shifter.  The semi-sticky rule: lost bits set the LSB only
        # if something is left; an operand shifted out entirely becomes 0.
        z_sig_grid = Signal(27)
        exp_diff = Signal(signed(9))
        p_is_big = Signal()
        shift = Signal(5)               # saturates at 31: 28 or more empties it
        big_sig = Signal(SIG_BITS)
        small_sig = Signal(SIG_BITS)
        lost_mask = Signal(SIG_BITS)
        small_kept = Signal(SIG_BITS)
        small_aligned = Signal(SIG_BITS)
        abs_diff = Mux(p_is_big, exp_diff, -exp_diff)
        m.d.comb += [
            z_sig_grid.eq(Cat(Const(0, 3), z_sig)),
            exp_diff.eq(p_exp_eff - z.exponent),
            p_is_big.eq(exp_diff >= 0),
            shift.eq(Mux(abs_diff[5:].any(), 31, abs_diff[:5])),
            big_sig.eq(Mux(p_is_big, p_sig_eff, z_sig_grid)),
            small_sig.eq(Mux(p_is_big, z_sig_grid, p_sig_eff)),
            lost_mask.eq(~(Const((1 << SIG_BITS) - 1, SIG_BITS) << shift)),
            small_kept.eq(small_sig >> shift),
            small_aligned.eq(small_kept | (small_kept.any() & (small_sig & lost_mask).any())),
        ]

        stage1 = Signal(STAGE1)
        m.d.comb += [
            stage1.big_sig.eq(big_sig),
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
        eff_sub = Signal()
        addend = Signal(SUM_BITS)
        sum_raw = Signal(SUM_BITS)
        small_wins = Signal()
        r_mag = Signal(SUM_BITS)
        r_sign = Signal()
        small_wide = Cat(stage2.small_sig, Const(0, 1))
        m.d.comb += [
            eff_sub.eq(stage2.big_sign ^ stage2.small_sign),
            addend.eq(Mux(eff_sub, ~small_wide, small_wide)),
            sum_raw.eq(stage2.big_sig + addend + eff_sub),
            # |big - small| < 2**28, so bit 28 of a difference is its sign
            small_wins.eq(eff_sub & sum_raw[-1]),
            r_mag.eq(Mux(small_wins, -sum_raw, sum_raw)),
            r_sign.eq(Mux(small_wins, stage2.small_sign, stage2.big_sign)),
        ]

        # ---- normalise --------------------------------------------------
        # Bring the leading one to bit 28, i.e. to bit 26 of the 27-bit
        # grid.  Left shifts are exact.  A right shift (sum >= 2**27, by 1
        # or 2) ORs only the sum's bit 0 into the sticky position: on a
        # 2-place shift bit 1 is lost (a hardware bug that must be kept).
        r_zero = Signal()
        lead_zeros = Signal(5)
        shifted = Signal(SUM_BITS)
        r_sig = Signal(27)              # 1.f (23 bits) + guard, round, sticky
        r_exp = Signal(signed(10))      # -27 .. 257
        lz_zero, lz_count = leading_zeros(Cat(Const(0, 32 - SUM_BITS), r_mag))
        m.d.comb += [
            r_zero.eq(lz_zero),
            lead_zeros.eq(lz_count),
            shifted.eq(r_mag << lead_zeros),
            r_sig.eq(Cat(shifted[2] | (r_mag[0] & (lead_zeros < 2)), shifted[3:])),
            r_exp.eq(stage2.exp + 2 - lead_zeros),
        ]

        # ---- round (RNE) ------------------------------------------------
        # Exponent field and 23 fraction bits, plus one on round-up; the
        # carry may ripple into the exponent, up to Inf.  With exponent 0
        # the hidden bit is dropped, so only a value that rounds up to
        # 2**-126 survives the flush below (the denormal-rounding quirk).
        round_up = Signal()
        rounded = Signal(31)
        m.d.comb += [
            round_up.eq(r_sig[2] & (r_sig[3] | r_sig[1] | r_sig[0])),
            rounded.eq(Cat(r_sig[3:26], r_exp[:8]) + round_up),
        ]

        # ---- pack ---------------------------------------------------------
        # Zero, flushed and overflowed results are the bare NaN on NaN lanes;
        # otherwise NaN lanes OR the finished bits into the NaN pattern.
        ovf = Signal()
        flush = Signal()
        nan_word = Signal(32)
        inf_word = Signal(32)
        m.d.comb += [
            ovf.eq(r_exp >= 255),
            flush.eq((r_exp < 0) | (rounded[23:] == 0)),
            nan_word.eq(Cat(Const(0x7F800001, 31), stage2.special_sign)),
            inf_word.eq(Cat(Const(0x7F800000, 31), Mux(stage2.is_inf, stage2.special_sign, r_sign))),
        ]
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
