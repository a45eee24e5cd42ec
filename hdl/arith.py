"""Bit-level helpers shared by the arithmetic units: the FP32 fields, the
sign-magnitude order, a leading-zero count, and an instruction field by the
ISA table's name."""

from amaranth import Cat, Const, Mux, Signal
from amaranth.lib import data

from tensix_sfpu.model import isa


class Fp32(data.Struct):
    """IEEE binary32 bit fields, least significant first."""

    mantissa: 23
    exponent: 8
    sign: 1


def sign_magnitude_key(m, value, name: str):
    """A signed integer ordered as the sign-magnitude (FP32) `value`:
    -NaN < -Inf < ... < -0 < +0 < ... < +NaN (the model's `sign_mag_less`)."""
    key = Signal(32, name=name)
    m.d.comb += key.eq(Cat(value[:31] ^ value[31].replicate(31), value[31]))
    return key.as_signed()


def leading_zeros(bits):
    """Leading-zero count of `bits` (width a power of two, >= 2) as a tree.

    Returns ``(zero, count)``: ``zero`` says every bit is clear; otherwise
    ``count`` (log2(width) bits) is the number of leading zeros."""
    width = len(bits)
    if width == 2:
        return ~bits[0] & ~bits[1], ~bits[1]
    half = width // 2
    lo_zero, lo_count = leading_zeros(bits[:half])
    hi_zero, hi_count = leading_zeros(bits[half:])
    # An all-zero upper half adds `half` and lets the lower half decide.
    return lo_zero & hi_zero, Cat(Mux(hi_zero, lo_count, hi_count), hi_zero)


def field(word, op: isa.Opcode, name: str):
    """The bits of `op`'s field `name` in `word`, as the ISA table places them."""
    f = op.field_map[name]
    return word[f.lo:f.lo + f.width]


def holds(word, op: isa.Opcode, when: tuple[tuple[str, int, int], ...]):
    """Whether every (field, mask, value) of `when` has `field & mask == value` in `word`
    (model.isa's `OperandSource.when`); a single set bit is tested as that bit."""
    result = None
    for name, mask, value in when:
        bits = field(word, op, name) & mask
        term = bits.any() if value == mask and mask & (mask - 1) == 0 else bits == value
        result = term if result is None else result & term
    return result


def operand(word, op: isa.Opcode, name: str):
    """`op`'s operand `name` in `word` as the ISA table defines it (model.isa's
    `Instruction.operand`): a field, an alias of a field's low bits (SFPSHFT2's
    VB), or a value gathered from several fields (SFPLOADMACRO's VD and Imm10)."""
    for comp in op.composites + op.derived:
        if comp.name == name:
            value = Const(0, comp.width)
            for part, pos, width in comp.parts:
                value = value | (field(word, op, part)[0:width] << pos)
            return value[0:comp.width]
    for alias in op.aliases:
        if alias.name == name:
            return field(word, op, alias.of)[0:alias.width]
    return field(word, op, name)

