"""SFPMAD arithmetic: ``d = a * b + c`` on FP32 bit patterns, Wormhole B0's
or Blackhole's (the architecture given at elaboration).

A two-stage pipeline, one instance per lane.  The Wormhole behaviour is that
of the MAD unit as described in spec section 5 (bit-perfect reference:
``model.fma.fma_wh``), which is not an IEEE fma:

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

Blackhole (``model.fma.fma_bh``) shares the datapath and differs in: every
NaN is 0x7FC00000; an overflowed finite product against an opposite Inf is
that Inf; zero results are signed (negative only if both addends are); the
right renormalisation keeps both lost bits as sticky; a result below 2**-126
is shifted one place further and rounded at exponent 0, and survives only if
it rounds up to 2**-126, else it is flushed to a zero that keeps its sign.
Blackhole's FMA also runs SFPMUL24 (``mul24``): its multiplier takes the two
23-bit mantissas without hidden bits, and the low or (``upper``) high 23 bits
of their product go through the shift-add with ``c`` of
``model.bh_arith.mul24_shift_add``.

Stage 1: classify, special cases, product, alignment (and SFPMUL24's result).
Pipeline register (``STAGE1``, or ``STAGE1_MUL24`` with SFPMUL24).  Stage 2 (`_Stage2`,
with the register): add, normalise, round, pack.
"""

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model.isa import Arch, Features

from .arith import Fp32, leading_zeros
from .isa import ArchComponent

__all__ = ["STAGE1", "STAGE1_MUL24", "Fma"]


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
MUL24_BITS = 23
# With SFPMUL24 (`Features.mul24`), its finished result rides beside the FMA's.
STAGE1_MUL24 = data.StructLayout({**{name: f.shape for name, f in STAGE1}, "mul24": 1, "mul24_result": MUL24_BITS})
CANONICAL_NAN = 0x7FC00000     # every NaN result under `Features.canonical_nan`


def _stage1(features: Features) -> data.StructLayout:
    return STAGE1_MUL24 if features.mul24 else STAGE1


class Fma(ArchComponent):
    """``d`` is the MAD result of the ``a``, ``b``, ``c`` presented one clock
    earlier.  ``a * b + c``, FP32 bit patterns.  Blackhole's has two more
    inputs: ``mul24`` (SFPMUL24: ``d`` is its result on ``a``, ``b``, ``c``)
    and ``upper`` (its Mod1 UPPER)."""

    def __init__(self, arch: Arch, *, features: Features | None = None):
        feat = arch.features if features is None else features
        members = {"a": In(32), "b": In(32), "c": In(32), "d": Out(32)}
        if feat.mul24:
            members.update(mul24=In(1), upper=In(1))
        super().__init__(arch, wiring.Signature(members), features=feat)

    def elaborate(self, platform):
        m = Module()
        feat = self.features

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

        def multiplicand(f):
            # SFPMUL24 multiplies the bare 23-bit mantissas on the same multiplier.
            if not feat.mul24:
                return significand(f)
            return Mux(self.mul24, f.mantissa, significand(f))
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
        product = (multiplicand(x) * multiplicand(y))[:48]
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
        # the Inf of z if z is Inf, else the product's Inf.  On Blackhole an
        # overflowed finite product is no Inf against an Inf z: z wins.
        p_inf_like = x_max | y_max | p_ovf
        inf_product = p_inf_like if feat.product_overflow_inf else x_max | y_max
        invalid = ((x_max & ((x.mantissa != 0) | (y.exponent == 0)))
                   | (y_max & ((y.mantissa != 0) | (x.exponent == 0)))
                   | (z_inf & inf_product & (p_sign != z.sign)))
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

        stage1 = Signal(_stage1(feat))
        if feat.mul24:
            m.d.comb += [stage1.mul24.eq(self.mul24),
                         stage1.mul24_result.eq(_mul24_shift_add(
                             Mux(self.upper, product[MUL24_BITS:2 * MUL24_BITS], product[:MUL24_BITS]), self.c))]
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
        m.submodules.finish = finish = _Stage2(self.arch, feat)
        m.d.comb += [finish.stage1.eq(stage1), self.d.eq(finish.d)]
        return m


def _mul24_shift_add(p, z):
    """What the FP adder does to SFPMUL24's 23-bit product ``p`` with ``z``
    (``model.bh_arith.mul24_shift_add``): nothing when z's exponent is 0;
    otherwise, with the larger exponent max(129, e), ``p`` is shifted right by
    its excess over 129 and z's significand (hidden and three guard bits) by
    its shortfall, both counts mod 32, and the two are added with 1 << 16 more
    when the shift dropped a bit from 16 up; mod 2**23.  A significand shifted
    out entirely leaves ``p`` shifted alone."""
    z = Fp32(z)
    above = z.exponent > 129
    z_shift = Mux(above, 0, (129 - z.exponent)[:5])
    p_shift = Mux(above, (z.exponent - 129)[:5], 0)
    z_grs = Cat(Const(0, 3), z.mantissa, Const(1, 1))
    z_kept = z_grs >> z_shift
    lost = z_grs & ~(Const((1 << len(z_grs)) - 1, len(z_grs)) << z_shift)[:len(z_grs)]
    p_kept = p >> p_shift
    summed = (p_kept + z_kept + Cat(Const(0, 16), lost[16:].any()))[:MUL24_BITS]
    return Mux(z.exponent == 0, p, Mux(z_kept.any(), summed, p_kept))


class _Stage2(ArchComponent):
    """`Fma`'s pipeline register and stage 2: add, normalise, round, pack."""

    def __init__(self, arch: Arch, features: Features):
        super().__init__(arch, wiring.Signature({"stage1": In(_stage1(features)), "d": Out(32)}), features=features)

    def elaborate(self, platform):
        m = Module()
        feat = self.features
        stage2 = Signal(self.stage1.shape())     # stage 2's side of the register
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
        # 2-place shift Wormhole loses bit 1 (a hardware bug that must be
        # kept); Blackhole ORs it in too.
        r_zero = Signal()
        lead_zeros = Signal(5)
        lz_zero, lz_count = leading_zeros(Cat(Const(0, 32 - SUM_BITS), r_mag))
        m.d.comb += [r_zero.eq(lz_zero), lead_zeros.eq(lz_count)]
        shifted = (r_mag << lead_zeros)[:SUM_BITS]
        sticky = shifted[2] | (r_mag[0] & (lead_zeros < 2))
        if feat.sticky_keeps_bit1:
            sticky = sticky | (r_mag[1] & (lead_zeros == 0))
        r_sig = Cat(sticky, shifted[3:])                                       # 1.f, guard, round, sticky
        r_exp = (stage2.exp + 2 - lead_zeros).as_signed()[:10].as_signed()     # -27 .. 257
        exp_field = r_exp[:8]
        if feat.flush_after_round:
            # A result below 2**-126 goes one place further right
            # (its lowest bit into the sticky) and is rounded at exponent 0.
            # Such a result was never shifted right, so nothing else is lost.
            tiny = r_exp <= 0
            r_sig = Mux(tiny, Cat(r_sig[0] | r_sig[1], r_sig[2:]), r_sig)
            exp_field = Mux(tiny, 0, exp_field)

        # ---- round (RNE) ------------------------------------------------
        # Exponent field and 23 fraction bits, plus one on round-up; the
        # carry may ripple into the exponent, up to Inf.  With exponent 0
        # the hidden bit is dropped, so only a value that rounds up to
        # 2**-126 survives the flush below (the denormal-rounding quirk).
        round_up = r_sig[2] & (r_sig[3] | r_sig[1] | r_sig[0])
        rounded = (Cat(r_sig[3:26], exp_field) + round_up)[:31]

        # ---- pack ---------------------------------------------------------
        ovf = r_exp >= 255
        # Below 2**-126 after rounding (Blackhole rounded every such result at exponent 0).
        flush = (rounded[23:] == 0) if feat.flush_after_round else (r_exp < 0) | (rounded[23:] == 0)
        inf_word = Cat(Const(0x7F800000, 31), Mux(stage2.is_inf, stage2.special_sign, r_sign))
        first = m.If
        if feat.mul24:
            with m.If(stage2.mul24):
                m.d.comb += self.d.eq(stage2.mul24_result)
            first = m.Elif
        if feat.canonical_nan:
            # One NaN; a zero sum is negative only if both addends are; a
            # flushed result keeps its sign.
            with first(stage2.is_inf):
                m.d.comb += self.d.eq(inf_word)
            with m.Elif(stage2.is_nan):
                m.d.comb += self.d.eq(CANONICAL_NAN)
            with m.Elif(r_zero):
                m.d.comb += self.d.eq(Cat(Const(0, 31), stage2.big_sign & stage2.small_sign))
            with m.Elif(ovf):
                m.d.comb += self.d.eq(inf_word)
            with m.Else():
                m.d.comb += self.d.eq(Cat(Mux(flush, 0, rounded), r_sign))
            return m

        # Without a canonical NaN (Wormhole): zero, flushed and overflowed
        # results are the bare NaN on NaN lanes; otherwise NaN lanes OR the
        # finished bits into the NaN pattern.  Every zero is +0.
        nan_word = Cat(Const(0x7F800001, 31), stage2.special_sign)
        with first(stage2.is_inf):
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
