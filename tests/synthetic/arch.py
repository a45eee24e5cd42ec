"""A synthetic third architecture, declared as data the way a new chip would be:
Blackhole's table with one new instruction and one changed field, a feature
record of its own, the new instruction's semantics (model) and its RTL (the
Simple unit's lane operation). Nothing outside this file knows it.

Importing this module declares it, so import it before hdl/ (whose `Opcode`
enum takes every declared table's opcodes): tests/synthetic/consumers.py
runs in a process of its own for that reason.

- **SFPROTH** (opcode 0x9A, free on both chips): VD = VC with its two 16-bit
  halves exchanged, on the Simple sub-unit, in VD's enabled lanes.
- **SFPMAD's VC field** moves from bits 11:8 to bits 23:20 (unused on the
  chips), so every consumer must take it from the table.
- **The feature record** is Blackhole's with SFPSTORE's FP32 denormal flush
  off (`store_fp32_flush`).
"""

import dataclasses

from tensix_sfpu.model import isa
from tensix_sfpu.model.semantics import Operands, _simple_write, semantics

NAME = "synthetic"
ROTH_OPCODE = 0x9A
MAD_VC = isa.Field("vc", 20, 4, isa.Kind.REG)


def rotate_halves(value: int) -> int:
    """SFPROTH of one lane's value: the reference the tests compute with."""
    return ((value << 16) | (value >> 16)) & 0xFFFFFFFF


def _table() -> list[isa.Opcode]:
    blackhole = isa.ISA[isa.Arch.BLACKHOLE].table
    moved = [dataclasses.replace(o, fields=tuple(MAD_VC if f.name == "vc" else f for f in o.fields))
             if o.mnemonic == "SFPMAD" else o for o in blackhole]
    roth = isa.Opcode("SFPROTH", ROTH_OPCODE, (isa.MOD1, isa.VD, isa.VC), isa.Unit.SIMPLE,
                      macro_units=frozenset({isa.Unit.SIMPLE}), reads=(isa.Read("vc"),), reads_for_vd=True,
                      doc="VD = VC with its 16-bit halves exchanged")
    return moved + [roth]


SYNTHETIC = isa.declare(NAME, "Synthetic (a test's)", _table(),
                        dataclasses.replace(isa.FEATURES[isa.Arch.BLACKHOLE], store_fp32_flush=False),
                        aliases=("syn",))


@semantics("SFPROTH")
def sfproth(m, x: Operands) -> None:
    v = m.state.lregs[x.vc]
    _simple_write(m, x, (v << 16) | (v >> 16))


def _register_rtl() -> None:
    # Imported here, after `declare`: hdl/'s Opcode enum is made at its import from the declared tables.
    from amaranth import Cat

    from tensix_sfpu.hdl.simple_unit import lane_operation

    @lane_operation("SFPROTH")
    def roth(vb, vc, imm12, mod1):
        return Cat(vc[16:32], vc[0:16])


_register_rtl()
