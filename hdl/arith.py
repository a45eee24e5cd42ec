"""Bit-level helpers shared by the arithmetic units: the FP32 fields, a
leading-zero count, and an instruction field by the ISA table's name."""

from amaranth import Cat, Mux
from amaranth.lib import data

from model import isa


class Fp32(data.Struct):
    """IEEE binary32 bit fields, least significant first."""

    mantissa: 23
    exponent: 8
    sign: 1


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

