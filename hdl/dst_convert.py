"""Per-lane Dst <-> LReg format conversions of SFPLOAD and SFPSTORE.

Written from SFPLOAD.md, SFPSTORE.md and Dst.md (tt-isa-documentation, jasondavies
fork e739ac0). Both components are purely combinational; the SFPU has one of each
per lane. Blackhole (`model.dst_format`'s `arch`): INT8 loads an 8-bit magnitude,
the deprecated INT32_SM and INT8_COMP lose their two's complement conversions, and
an FP32 store flushes denormals to a signed zero.

A 32-bit Dst datum is the value of ``Dst32b[r][c]`` (high half in row A, low half in
row A + 8); a 16-bit one is ``Dst16b[r][c]`` in the low 16 bits of ``raw``. Dst
keeps floating-point data with the mantissa ahead of the exponent, so most
conversions are a fixed permutation of fields, described below as `data` layouts
(fields listed from the least significant bit).

``mod0`` must already be resolved: the top turns MOD0_FMT_SRCB into FP16, BF16 or
FP32. Every other 4-bit value is a defined format. An unresolved SRCB that still
reaches these components loads 0, stores 0 and counts as a 16-bit access.
"""

from amaranth.hdl import Cat, Const, Module, Mux, Value
from amaranth.lib import data
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model.isa import Mod0Fmt

from .isa import ArchComponent, amaranth_enum

__all__ = ["Mod0", "DST32_LOAD", "DST32_STORE", "dst_width", "is_dst32", "LoadConvert", "StoreConvert"]


# SFPLOAD / SFPSTORE Mod0, the Dst data format (MOD0_FMT_*), as the model's table
# has it. SRCB (0) is resolved by the top and never seen here in normal use.
Mod0 = amaranth_enum("Mod0", {fmt.name: fmt.value for fmt in Mod0Fmt}, shape=4)


# ---------------------------------------------------------------------------
# Dst access width

# Formats that access Dst32b; all others use Dst16b (ZERO loads read nothing and
# count as 16-bit). LO16 and HI16 load one 16-bit datum but store a whole 32-bit one.
DST32_LOAD = frozenset({Mod0.FP32, Mod0.INT32, Mod0.INT32_ALL, Mod0.INT32_SM})
DST32_STORE = DST32_LOAD | {Mod0.LO16, Mod0.HI16}


def _dst32_set(op: str) -> frozenset:
    if op == "load":
        return DST32_LOAD
    if op == "store":
        return DST32_STORE
    raise ValueError(f"op must be 'load' or 'store', not {op!r}")


def dst_width(mod0, op: str) -> int:
    """16 or 32: the Dst view that ``op`` ("load" or "store") uses for ``mod0`` (an int or Mod0)."""
    return 32 if Mod0(mod0) in _dst32_set(op) else 16


def is_dst32(mod0, op: str) -> Value:
    """1-bit signal: ``mod0`` (a 4-bit value or Mod0 view) selects a Dst32b access for ``op``."""
    return Value.cast(mod0).matches(*sorted(fmt.value for fmt in _dst32_set(op)))


# ---------------------------------------------------------------------------
# Bit layouts

# LReg view of an FP32 value, with the mantissa split where Dst splits it.
LREG_FP32 = data.StructLayout({"man_lo": 16, "man_hi": 7, "exp": 8, "sign": 1})
# Dst32b FP32 (Integer "32" uses the same positions for its magnitude bits).
DST_FP32 = data.StructLayout({"man_lo": 16, "exp": 8, "man_hi": 7, "sign": 1})
DST_BF16 = data.StructLayout({"exp": 8, "man": 7, "sign": 1})
DST_FP16 = data.StructLayout({"exp": 5, "man": 10, "sign": 1})
# Integer "8" overlays FP16: 10-bit magnitude in the mantissa, exponent 16 (or 0).
DST_INT8 = data.StructLayout({"exp": 5, "mag": 10, "sign": 1})
DST_INT16 = data.StructLayout({"mag": 15, "sign": 1})


def _unshuffle_fp32(raw) -> Value:
    d = DST_FP32(raw)
    return Cat(d.man_lo, d.man_hi, d.exp, d.sign)


def _shuffle_fp32(x) -> Value:
    f = LREG_FP32(x)
    return Cat(f.man_lo, f.exp, f.man_hi, f.sign)


def _signmag_to_twos(x) -> Value:
    """Sign + 31-bit magnitude -> two's complement (so -0 becomes 0)."""
    mag = x[:31]
    return Mux(x[31], -mag, mag)[:32]


def _twos_to_signmag(x) -> Value:
    """Two's complement -> sign + 31-bit magnitude. -2**31 has no magnitude and gives -0."""
    return Cat(Mux(x[31], -x, x)[:31], x[31])


# ---------------------------------------------------------------------------
# SFPLOAD: Dst -> LReg

def _load_fp16(raw, inf_enable) -> Value:
    d = DST_FP16(raw[:16])
    # With ENABLE_FP16A_INF the all-ones pattern (what the FPU emits on overflow)
    # means +-Inf.
    inf = inf_enable & (d.exp == 0x1F) & (d.man == 0x3FF)
    # Rebias 15 -> 127. E = 0 stays 0, so a denormal becomes an FP32 denormal that
    # arithmetic then reads as zero.
    exp = Mux(inf, 0xFF, Mux(d.exp == 0, 0, d.exp + 112))
    man = Mux(inf, 0, d.man)
    return Cat(Const(0, 13), man, exp[:8], d.sign)


def _load_bf16(raw) -> Value:
    d = DST_BF16(raw[:16])
    return Cat(Const(0, 16), d.man, d.exp, d.sign)


def _load_int8(raw, bits: int) -> Value:
    # Wormhole's INT8 expects |x| <= 127 and takes magnitude bits 6:0; Blackhole's bits 7:0.
    d = DST_INT8(raw[:16])
    return Cat(d.mag[:bits], Const(0, 31 - bits), d.sign)


def _load_int8_signmag(raw) -> Value:
    """The full 10-bit Integer "8" magnitude as a 32-bit sign-magnitude integer."""
    d = DST_INT8(raw[:16])
    return Cat(d.mag, Const(0, 21), d.sign)


def _load_int16(raw) -> Value:
    d = DST_INT16(raw[:16])
    return Cat(d.mag, Const(0, 16), d.sign)


class LoadConvert(ArchComponent):
    """SFPLOAD's conversion of one lane's Dst datum to its new LReg value.

    ``raw`` holds the Dst32b datum, or the Dst16b datum in its low 16 bits (the
    high 16 bits are then ignored; see `is_dst32`). ``old`` is the LReg's current
    value, half of which LO16_ONLY / HI16_ONLY keep. ``fp16a_inf`` is the lane's
    LaneConfig.ENABLE_FP16A_INF, used only by FP16.
    """

    mod0: In(Mod0)
    raw: In(32)
    old: In(32)
    fp16a_inf: In(1)
    value: Out(32)

    def elaborate(self, platform):
        m = Module()
        raw, value = self.raw, self.value
        f = self.features
        fp32 = _unshuffle_fp32(raw)

        with m.Switch(self.mod0):
            with m.Case(Mod0.FP16):
                m.d.comb += value.eq(_load_fp16(raw, self.fp16a_inf))
            with m.Case(Mod0.BF16):
                m.d.comb += value.eq(_load_bf16(raw))
            if not f.dst_signmag_convert:
                # The deprecated INT32_SM loads as INT32, INT8_COMP as its sign-magnitude value.
                with m.Case(Mod0.FP32, Mod0.INT32, Mod0.INT32_ALL, Mod0.INT32_SM):
                    m.d.comb += value.eq(fp32)
                with m.Case(Mod0.INT8_COMP):
                    m.d.comb += value.eq(_load_int8_signmag(raw))
            else:
                with m.Case(Mod0.FP32, Mod0.INT32, Mod0.INT32_ALL):
                    # Bit-exact: FP32 or a sign-magnitude Integer "32" alike.
                    m.d.comb += value.eq(fp32)
                with m.Case(Mod0.INT32_SM, Mod0.INT8_COMP):
                    # One sign-magnitude -> two's complement negator for both.
                    signmag = Mux(self.mod0 == Mod0.INT8_COMP, _load_int8_signmag(raw), fp32)
                    m.d.comb += value.eq(_signmag_to_twos(signmag))
            with m.Case(Mod0.INT8):
                m.d.comb += value.eq(_load_int8(raw, f.dst_int8_bits))
            with m.Case(Mod0.INT16):
                m.d.comb += value.eq(_load_int16(raw))
            with m.Case(Mod0.UINT16, Mod0.LO16):
                m.d.comb += value.eq(raw[:16])
            with m.Case(Mod0.HI16):
                m.d.comb += value.eq(Cat(Const(0, 16), raw[:16]))
            with m.Case(Mod0.LO16_ONLY):
                m.d.comb += value.eq(Cat(raw[:16], self.old[16:]))
            with m.Case(Mod0.HI16_ONLY):
                m.d.comb += value.eq(Cat(self.old[:16], raw[:16]))
            with m.Case(Mod0.ZERO, Mod0.SRCB):
                # SRCB is resolved before it gets here; an unresolved one loads 0.
                m.d.comb += value.eq(0)
        return m


# ---------------------------------------------------------------------------
# SFPSTORE: LReg -> Dst

def _store_fp16(x) -> Value:
    f = LREG_FP32(x)
    man10 = Cat(f.man_lo[13:], f.man_hi)     # the top 10 mantissa bits
    # Rebias 127 -> 15 and truncate. Dst FP16 has no denormals, Inf or NaN:
    # anything below the smallest normal flushes to a signed zero, and anything
    # above the largest (Inf and NaN included) saturates to the all-ones pattern.
    under = f.exp <= 112
    over = f.exp > 112 + 31
    exp = Mux(under, 0, Mux(over, 0x1F, (f.exp - 112)[:5]))
    man = Mux(under, 0, Mux(over, 0x3FF, man10))
    return Cat(exp, man, f.sign)


def _store_bf16(x) -> Value:
    # Truncate to the high half; a zero exponent (denormal) keeps only the sign.
    # A NaN whose payload is all in the low half turns into Inf.
    f = LREG_FP32(x)
    return Cat(f.exp, Mux(f.exp == 0, 0, f.man_hi), f.sign)


def _store_int8(x) -> Value:
    # Sign + magnitude bits 9:0 (higher ones are dropped), with the fixed exponent 16.
    return Cat(Const(16, 5), x[:10], x[31])


def _flush_fp32(x) -> Value:
    # Blackhole's ToFP32: a zero exponent (a denormal) keeps only the sign.
    f = LREG_FP32(x)
    return Mux(f.exp == 0, Cat(Const(0, 31), f.sign), x)


def _store_int16(x) -> Value:
    return Cat(x[:15], x[31])


class StoreConvert(ArchComponent):
    """SFPSTORE's conversion of one lane's LReg value to its Dst datum.

    ``raw`` is the Dst32b datum, or the Dst16b datum in its low 16 bits with the
    high 16 bits zero; `is_dst32` says which. Every format writes its whole datum.
    """

    mod0: In(Mod0)
    value: In(32)
    raw: Out(32)

    def elaborate(self, platform):
        m = Module()
        f = self.features
        x, raw = self.value, self.raw

        with m.Switch(self.mod0):
            with m.Case(Mod0.FP16):
                m.d.comb += raw.eq(_store_fp16(x))
            with m.Case(Mod0.BF16):
                m.d.comb += raw.eq(_store_bf16(x))
            words = (Mod0.INT32, Mod0.INT32_ALL)      # the 32 bits as they are
            if f.store_fp32_flush:
                with m.Case(Mod0.FP32):
                    m.d.comb += raw.eq(_shuffle_fp32(_flush_fp32(x)))
            else:
                words = (Mod0.FP32, *words)   # FP32 and Integer "32" round-trip bit-exactly
            if not f.dst_signmag_convert:
                # The deprecated INT32_SM stores as INT32, INT8_COMP as INT8.
                with m.Case(*words, Mod0.INT32_SM):
                    m.d.comb += raw.eq(_shuffle_fp32(x))
                with m.Case(Mod0.INT8, Mod0.INT8_COMP):
                    m.d.comb += raw.eq(_store_int8(x))
            else:
                with m.Case(*words):
                    m.d.comb += raw.eq(_shuffle_fp32(x))
                # INT32_SM and INT8_COMP both start from the same sign-magnitude conversion.
                signmag = _twos_to_signmag(x)
                with m.Case(Mod0.INT32_SM):
                    m.d.comb += raw.eq(_shuffle_fp32(signmag))
                with m.Case(Mod0.INT8):
                    m.d.comb += raw.eq(_store_int8(x))
                with m.Case(Mod0.INT8_COMP):
                    m.d.comb += raw.eq(_store_int8(signmag))
            with m.Case(Mod0.INT16):
                m.d.comb += raw.eq(_store_int16(x))
            with m.Case(Mod0.UINT16, Mod0.LO16_ONLY):
                m.d.comb += raw.eq(x[:16])
            with m.Case(Mod0.HI16_ONLY):
                m.d.comb += raw.eq(x[16:])
            with m.Case(Mod0.LO16):
                # Rotated by 16: the LReg's low half lands in the high Dst row (A).
                m.d.comb += raw.eq(Cat(x[16:], x[:16]))
            with m.Case(Mod0.HI16):
                # Opaque 32 bits, no shuffle.
                m.d.comb += raw.eq(x)
            with m.Case(Mod0.ZERO, Mod0.SRCB):
                # SRCB is resolved before it gets here; an unresolved one stores 0.
                m.d.comb += raw.eq(0)
        return m
