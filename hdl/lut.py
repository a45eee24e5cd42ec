"""Per-lane operand selection of SFPLUT and SFPLUTFP32 (spec sections 4.4 and 4.5).

Both instructions compute ``d = A * b + C`` on the MAD unit with
``b = |L3|``.  These components pick and decode ``A`` and ``C`` from the
coefficient registers and pass ``b`` on; the multiply-add, SGN_RETAIN and
INDIRECT_VD belong to the MAD datapath.

The range tests of the documentation (``b < 1.0``, ``b < 1.5`` and so on) are
float compares of a non-negative value.  Every threshold is a power of two or
1.5 times one, so they reduce to the exponent field and the top mantissa bit
of ``b``; a NaN has exponent 255 and lands in the last range, as the
documentation's failing compares send it there.
"""

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import enum, wiring
from amaranth.lib.wiring import In, Out

from .arith import Fp32

__all__ = [
    "Lut8ToFp32", "Lut16ToFp32", "LutRange", "LutSelect",
    "LutFp32Table", "LutFp32Select",
]


class Lut8ToFp32(wiring.Component):
    """SFPLUT's 8-bit coefficient ``s:1 e:3 m:4`` to FP32 bits.

    The value is ``(-1)^s * 2^-e * (1 + m/16)``; ``0xFF`` (which would be
    -2^-7 * 1.9375) is the only zero.
    """

    byte: In(8)
    value: Out(32)

    def elaborate(self, platform):
        m = Module()
        e = self.byte[4:7]
        value = Signal(Fp32)
        m.d.comb += [
            value.mantissa.eq(Cat(Const(0, 19), self.byte[:4])),
            # 127 - e for e in 0..7 is 0b01111 followed by ~e: no subtractor.
            value.exponent.eq(Cat(~e, Const(0b01111, 5))),
            value.sign.eq(self.byte[7]),
        ]
        m.d.comb += self.value.eq(Mux(self.byte == 0xFF, 0, value))
        return m


class Lut16ToFp32(wiring.Component):
    """SFPLUTFP32's 16-bit coefficient ``s:1 e:5 m:10`` to FP32 bits.

    Like FP16 rebiased to FP32 (exponent ``e + 112``), except that ``e == 0``
    is not a denormal but ``(1 + m/1024) * 2^-15``, and ``e == 31`` is not
    Inf/NaN but exponent 0: a signed zero or FP32 denormal, which the MAD
    reads as zero.
    """

    half: In(16)
    value: Out(32)

    def elaborate(self, platform):
        m = Module()
        e = self.half[10:15]
        rebiased = Signal(8)
        # e + 112 = 0b0111_eeee for e < 16 and 0b1000_eeee for e >= 16.
        m.d.comb += rebiased.eq(Cat(e[:4], (~e[4]).replicate(3), e[4]))
        value = Signal(Fp32)
        m.d.comb += [
            value.mantissa.eq(Cat(Const(0, 13), self.half[:10])),
            value.exponent.eq(Mux(e == 31, 0, rebiased)),
            value.sign.eq(self.half[15]),
        ]
        m.d.comb += self.value.eq(value)
        return m


class LutRange(enum.Enum, shape=2):
    """Base range of ``b = |L3|``: selects L0/L1/L2 (and L4/L5/L6)."""

    BELOW_1 = 0     # b < 1.0
    BELOW_2 = 1     # 1.0 <= b < 2.0
    FROM_2 = 2      # 2.0 <= b, and NaN


def _abs_and_range(m, l3):
    """``(b, b as Fp32 view, base range)`` of L3."""
    b = Signal(32, name="abs_l3")
    m.d.comb += b.eq(l3[:31])       # |L3|: the sign bit cleared
    bf = Fp32(b)
    rng = Signal(LutRange, name="l3_range")
    with m.If(bf.exponent < 127):
        m.d.comb += rng.eq(LutRange.BELOW_1)
    with m.Elif(bf.exponent == 127):
        m.d.comb += rng.eq(LutRange.BELOW_2)
    with m.Else():
        m.d.comb += rng.eq(LutRange.FROM_2)
    return b, bf, rng


def _pick3(m, rng, name, r0, r1, r2):
    """The register of the three that the base range selects."""
    picked = Signal(32, name=name)
    with m.Switch(rng):
        with m.Case(LutRange.BELOW_1):
            m.d.comb += picked.eq(r0)
        with m.Case(LutRange.BELOW_2):
            m.d.comb += picked.eq(r1)
        with m.Default():
            m.d.comb += picked.eq(r2)
    return picked


class LutSelect(wiring.Component):
    """SFPLUT operands for one lane: ``A``, ``C`` and ``b = |L3|``.

    The coefficient register is L0 for ``b < 1.0``, L1 for ``b < 2.0`` and
    L2 otherwise (including NaN); ``A`` is the 8-bit coefficient in its bits
    15..8 and ``C`` the one in bits 7..0.
    """

    l3: In(32)
    l0: In(32)
    l1: In(32)
    l2: In(32)
    a: Out(32)
    c: Out(32)
    b: Out(32)

    def elaborate(self, platform):
        m = Module()
        b, _, rng = _abs_and_range(m, self.l3)
        coeffs = _pick3(m, rng, "coeffs", self.l0, self.l1, self.l2)

        m.submodules.decode_a = decode_a = Lut8ToFp32()
        m.submodules.decode_c = decode_c = Lut8ToFp32()
        m.d.comb += [
            decode_a.byte.eq(coeffs[8:16]),
            decode_c.byte.eq(coeffs[:8]),
            self.a.eq(decode_a.value),
            self.c.eq(decode_c.value),
            self.b.eq(b),
        ]
        return m


class LutFp32Table(enum.Enum, shape=2):
    """SFPLUTFP32 table layout, decoded from Mod1."""

    FP32_3ENTRY = 0         # A = L[i], C = L[4+i]
    FP16_6ENTRY_CUT3 = 1    # A, C = 16-bit halves of L[i], L[4+i]; last split 3.0
    FP16_6ENTRY_CUT4 = 2    # the same with the last split at 4.0
    FP16_3ENTRY = 3         # A = high half of L[i], C = its low half


class LutFp32Select(wiring.Component):
    """SFPLUTFP32 operands for one lane: ``A``, ``C`` and ``b = |L3|``.

    ``mod1`` is the instruction's whole Mod1; only the table layout is
    decoded here (Sept-2025 documentation):

    * bit 1 clear: FP32_3ENTRY;
    * bits 1 and 3 set: FP16_3ENTRY (bit 3 doubles as INDIRECT_VD, so this
      layout always writes ``L[L7 & 15]``: the MAD datapath's concern);
    * bit 1 set, bit 3 clear: the 6-entry layouts, bit 0 choosing the last
      split (clear: 3.0, set: 4.0).

    The 6-entry layouts use the high halves in the upper half of each base
    range: ``[0.5, 1)``, ``[1.5, 2)`` and ``[cut, inf)`` (and NaN).
    """

    mod1: In(4)
    l3: In(32)
    l0: In(32)
    l1: In(32)
    l2: In(32)
    l4: In(32)
    l5: In(32)
    l6: In(32)
    a: Out(32)
    c: Out(32)
    b: Out(32)

    def elaborate(self, platform):
        m = Module()
        T = LutFp32Table

        # --- Mod1 decode ----------------------------------------------------
        table = Signal(LutFp32Table)
        with m.If(~self.mod1[1]):
            m.d.comb += table.eq(T.FP32_3ENTRY)
        with m.Elif(self.mod1[3]):
            m.d.comb += table.eq(T.FP16_3ENTRY)
        with m.Elif(self.mod1[0]):
            m.d.comb += table.eq(T.FP16_6ENTRY_CUT4)
        with m.Else():
            m.d.comb += table.eq(T.FP16_6ENTRY_CUT3)

        # --- Ranges of |L3| -------------------------------------------------
        b, bf, rng = _abs_and_range(m, self.l3)
        # Upper half of the base range, for the 6-entry layouts.
        upper = Signal()
        with m.Switch(rng):
            with m.Case(LutRange.BELOW_1):                     # [0.5, 1)
                m.d.comb += upper.eq(bf.exponent == 126)
            with m.Case(LutRange.BELOW_2):                     # [1.5, 2)
                m.d.comb += upper.eq(bf.mantissa[22])
            with m.Default():
                with m.If(table == T.FP16_6ENTRY_CUT4):        # [4, inf)
                    m.d.comb += upper.eq(bf.exponent >= 129)
                with m.Else():                                 # [3, inf)
                    m.d.comb += upper.eq((bf.exponent >= 129) | bf.mantissa[22])

        # --- Coefficient registers ------------------------------------------
        reg_a = _pick3(m, rng, "reg_a", self.l0, self.l1, self.l2)
        reg_c = _pick3(m, rng, "reg_c", self.l4, self.l5, self.l6)

        # --- 16-bit halves and their decoders ---------------------------------
        half_a = Signal(16)
        half_c = Signal(16)
        with m.If(table == T.FP16_3ENTRY):
            m.d.comb += [half_a.eq(reg_a[16:]), half_c.eq(reg_a[:16])]
        with m.Elif(upper):
            m.d.comb += [half_a.eq(reg_a[16:]), half_c.eq(reg_c[16:])]
        with m.Else():
            m.d.comb += [half_a.eq(reg_a[:16]), half_c.eq(reg_c[:16])]

        m.submodules.decode_a = decode_a = Lut16ToFp32()
        m.submodules.decode_c = decode_c = Lut16ToFp32()
        m.d.comb += [decode_a.half.eq(half_a), decode_c.half.eq(half_c)]

        # --- Outputs ----------------------------------------------------------
        with m.If(table == T.FP32_3ENTRY):
            m.d.comb += [self.a.eq(reg_a), self.c.eq(reg_c)]
        with m.Else():
            m.d.comb += [self.a.eq(decode_a.value), self.c.eq(decode_c.value)]
        m.d.comb += self.b.eq(b)
        return m
