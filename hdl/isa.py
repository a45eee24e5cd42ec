"""The instruction set for the RTL, derived from `model.isa` (the one table).

- `Opcode`: an Amaranth enum of the 38 SFPU opcodes, so waveforms show
  mnemonics; `Opcode.NONE` (0) stands for "no instruction".
- `Unit`: the sub-unit an instruction issued by the thread runs on.
- `field_layout(mnemonic)`: the instruction word as a `data.FlexibleLayout`
  with that opcode's named fields at their bit positions.
"""

from __future__ import annotations

from amaranth.lib import data, enum

from model import isa

_SFP_PREFIX = "SFP"


def amaranth_enum(name: str, members: dict[str, int], shape: int) -> enum.EnumType:
    """An Amaranth enum with the given members, for tables the model already defines."""
    namespace = enum.EnumType.__prepare__(name, (enum.Enum,), shape=shape)
    for member, value in members.items():
        namespace[member] = value
    return enum.EnumType(name, (enum.Enum,), namespace, shape=shape)


# Member names drop the SFP prefix (Opcode.MAD, Opcode.LOADMACRO) to keep
# waveform traces short; `mnemonic()` gives the full name back.
Opcode = amaranth_enum("Opcode", {"NONE": 0, **{op.mnemonic.removeprefix(_SFP_PREFIX): op.opcode
                                        for op in isa.OPCODES.values()}}, shape=8)

UNIT_NAMES = [u.value for u in isa.Unit]             # load, simple, mad, round, store
Unit = amaranth_enum("Unit", {name.upper(): i for i, name in enumerate(UNIT_NAMES)}, shape=3)


def opcode(mnemonic: str):
    return Opcode[mnemonic.removeprefix(_SFP_PREFIX)]


def mnemonic(member) -> str:
    return _SFP_PREFIX + member.name


def unit(u: isa.Unit):
    return Unit[u.name]


def field_layout(mnemonic: str) -> data.FlexibleLayout:
    """The 32-bit word of `mnemonic` with its fields named (signed fields as signed)."""
    op = isa.OPCODES[mnemonic]
    fields = {"opcode": data.Field(Opcode, 24)}
    for f in op.fields:
        shape = data.signed(f.width) if f.signed else data.unsigned(f.width)
        fields[f.name] = data.Field(shape, f.lo)
    return data.FlexibleLayout(32, fields)
