"""The instruction set for the RTL, derived from `model.isa` (the one table).

- `Opcode`: an Amaranth enum of the SFPU opcodes of every architecture (the
  38 of Wormhole and the 4 Blackhole adds), so waveforms show mnemonics;
  `Opcode.NONE` (0) stands for "no instruction". Which of them a design
  decodes is its architecture's table (`table(arch)`).
- `Unit`: the sub-unit an instruction issued by the thread runs on.
- `ArchComponent`: a component elaborated for one architecture (`self.arch`)
  and its feature record (`self.features`).
- `field_layout(mnemonic, arch)`: the instruction word as a
  `data.FlexibleLayout` with that opcode's named fields at their bit positions
  on that architecture.
"""

from __future__ import annotations

from amaranth.lib import data, enum, wiring

from tensix_sfpu.model import isa

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
                                        for arch in isa.architectures() for op in isa.ISA[arch].table}}, shape=8)

UNIT_NAMES = [u.value for u in isa.Unit]             # load, simple, mad, round, store
Unit = amaranth_enum("Unit", {name.upper(): i for i, name in enumerate(UNIT_NAMES)}, shape=3)


def opcode(mnemonic: str):
    try:
        return Opcode[mnemonic.removeprefix(_SFP_PREFIX)]
    except KeyError:
        raise KeyError(f"{mnemonic} is in no table declared before hdl/ was imported "
                       f"(model.isa.declare a further architecture first)") from None


def mnemonic(member) -> str:
    return _SFP_PREFIX + member.name


def unit(u: isa.Unit):
    return Unit[u.name]


def opcode_bits(word):
    """The opcode byte of an instruction word, where `model.isa.OPCODE` places it."""
    return word[isa.OPCODE.lo:isa.OPCODE.lo + isa.OPCODE.width]


def table(arch: isa.Arch) -> dict[str, isa.Opcode]:
    """The instructions `arch` decodes, by mnemonic."""
    return isa.ISA[arch].opcodes


def field_layout(mnemonic: str, arch: isa.Arch) -> data.FlexibleLayout:
    """The 32-bit word of `mnemonic` on `arch` with its fields named (signed fields as signed)."""
    op = table(arch)[mnemonic]
    fields = {"opcode": data.Field(Opcode, isa.OPCODE.lo)}
    for f in op.fields:
        shape = data.signed(f.width) if f.signed else data.unsigned(f.width)
        fields[f.name] = data.Field(shape, f.lo)
    return data.FlexibleLayout(32, fields)


class ArchComponent(wiring.Component):
    """A component elaborated for one architecture: its encodings come from
    `self.arch`'s ISA table, every other difference from `self.features`
    (`model.isa.Features`; the architecture's own unless `features` replaces
    it, as a test of a variant does). Code reads a feature, never the name."""

    def __init__(self, arch: isa.Arch, signature=None, *, features: isa.Features | None = None):
        self.arch = arch
        self.features = arch.features if features is None else features
        super().__init__(signature)
