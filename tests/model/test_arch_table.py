"""The Blackhole table differs from Wormhole's exactly where docs/blackhole.md says."""

import re
from pathlib import Path

import pytest

from tensix_sfpu.model import isa

DOC = Path(__file__).resolve().parents[2] / "docs" / "blackhole.md"
ASPECTS = ("fields", "llk_args", "must_be_zero", "unit", "latency", "two_cycles", "interlock", "macro_units",
           "aliases", "composites", "two_cycle_mod1")


def documented_differences() -> dict[str, set[str]]:
    """Rows of the 'Encoding differences' table: instruction -> what differs."""
    section = DOC.read_text().split("## Encoding differences", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\|\s*(SFP\w+)\s*\|\s*([\w, ]+?)\s*\|", line)
        if m:
            rows[m.group(1)] = {part.strip() for part in m.group(2).split(",")}
    return rows


def table_differences() -> dict[str, set[str]]:
    wh, bh = isa.ISA[isa.WORMHOLE].opcodes, isa.ISA[isa.BLACKHOLE].opcodes
    diffs = {}
    for name, op in bh.items():
        if name not in wh:
            diffs[name] = {"new"}
            continue
        differ = {a for a in ASPECTS if getattr(op, a) != getattr(wh[name], a)}
        if differ or op.opcode != wh[name].opcode:
            diffs[name] = differ or {"opcode"}
    return diffs


def test_every_difference_is_documented_and_every_documented_difference_exists():
    assert documented_differences() == table_differences()


def test_blackhole_keeps_every_wormhole_instruction():
    assert set(isa.ISA[isa.WORMHOLE].opcodes) <= set(isa.ISA[isa.BLACKHOLE].opcodes)


def test_each_entry_knows_its_architecture():
    for arch, table in isa.ISA.items():
        assert {op.arch for op in table.table} == {arch}


@pytest.mark.parametrize("mnemonic, opcode", [("SFPLE", 0x96), ("SFPGT", 0x97), ("SFPMUL24", 0x98),
                                              ("SFPARECIP", 0x99)])
def test_new_opcodes_decode_only_on_blackhole(mnemonic, opcode):
    word = opcode << 24
    assert isa.decode(word, isa.BLACKHOLE).mnemonic == mnemonic
    with pytest.raises(isa.DecodeError, match="not a Wormhole SFPU instruction"):
        isa.decode(word, isa.WORMHOLE)


def test_blackhole_addr_mod_is_three_bits_at_13():
    # AddrMod 5 at [15:13] is 0b101 << 13 = 0xA000 (BlackholeA0 SFPLOAD encoding).
    word = isa.encode("SFPLOAD", isa.BLACKHOLE, vd=3, mod0=0, addr_mod=5, imm10=0x12)
    assert word == 0x70300000 | 0xA000 | 0x12
    assert isa.decode(word, isa.BLACKHOLE)["addr_mod"] == 5
    # The same bits on Wormhole: AddrMod is [15:14] = 0b10, and bit 13 is ignored.
    assert isa.decode(word, isa.WORMHOLE)["addr_mod"] == 2
    with pytest.raises(ValueError, match="addr_mod=5 out of range 0..3"):
        isa.encode("SFPLOAD", isa.WORMHOLE, vd=3, addr_mod=5)


def test_stochrnd_rounding_mode_is_two_bits_on_blackhole():
    word = isa.encode("SFPSTOCHRND", isa.BLACKHOLE, rnd_mode=2, vd=1, vc=2)
    assert word == (0x8E << 24) | (2 << 21) | (2 << 8) | (1 << 4)
    assert isa.decode(word, isa.WORMHOLE)["stochastic"] == 0   # Wormhole reads only bit 21


def test_arch_names():
    assert isa.Arch.parse("Blackhole") is isa.BLACKHOLE
    assert isa.Arch.parse("wormhole_b0") is isa.WORMHOLE
    with pytest.raises(ValueError, match="unknown architecture 'grayskull'"):
        isa.Arch.parse("grayskull")


def test_arch_directive_selects_the_table_and_must_lead():
    from tensix_sfpu.model import asm
    program = asm.assemble(".arch blackhole\nsfple vd=1 vc=2 mod1=1\nTTI_SFPLOAD(1, 0, 7, 4);\n", "k.s")
    assert program.arch is isa.BLACKHOLE
    # SFPLE: 0x96 << 24 | VC 2 << 8 | VD 1 << 4 | Mod1 1; SFPLOAD: AddrMod 7 << 13.
    assert program.words == [0x96000211, 0x70100000 | 7 << 13 | 4]
    with pytest.raises(asm.AsmError, match=r"k.s:1:1: unknown mnemonic 'sfple' on Wormhole B0"):
        asm.assemble("sfple vd=1", "k.s")
    with pytest.raises(asm.AsmError, match=r"k.s:2:1: .arch must come before"):
        asm.assemble("sfpnop\n.arch blackhole", "k.s")
    with pytest.raises(asm.AsmError, match="contradicts the command line"):
        asm.assemble(".arch wormhole\nsfpnop", "k.s", arch=isa.BLACKHOLE)


@pytest.mark.parametrize("arch", list(isa.Arch))
def test_operands_spread_over_fields_come_from_the_table(arch):
    # SFPLOADMACRO: VD = VDHi:VDLo (bit 0 and bits [21:20]), Imm10 = Imm9:VDHi.
    word = (0x93 << 24) | (2 << 22) | (0b10 << 20) | (0x155 << 1) | 1
    ins = isa.decode(word, arch)
    assert ins.operand("vd") == 0b110
    assert ins.operand("imm10") == (0x155 << 1) | 1
    assert ins.operand("macro") == 2
    # SFPSHFT2: VB is Imm12's low four bits.
    ins = isa.decode(isa.encode("SFPSHFT2", arch, vd=1, vc=2, imm12=0x7A5, mod1=0), arch)
    assert ins.operand("vb") == 5
    with pytest.raises(KeyError):
        ins.operand("va")


@pytest.mark.parametrize("arch", list(isa.Arch))
def test_backdoor_applies_to_every_vd_but_sfpconfigs(arch):
    table = isa.ISA[arch]
    assert [op.mnemonic for op in table.table if not op.backdoor] == ["SFPCONFIG"]
    assert isa.decode(isa.encode("SFPMOV", arch, vd=13, vc=1), arch).backdoor_index == 1
    assert isa.decode(isa.encode("SFPCONFIG", arch, vd=13), arch).backdoor_index is None
    assert isa.decode(isa.encode("SFPMOV", arch, vd=11, vc=1), arch).backdoor_index is None


def test_undefined_modifier_values_are_table_data():
    # SFPLOADI.md defines Mod0 0, 1, 2, 4, 8 and 10; SFPSHFT2.md modes 0-6.
    for table in isa.ISA.values():
        assert table.opcodes["SFPLOADI"].defined_values("mod0") == [0, 1, 2, 4, 8, 10]
        assert table.opcodes["SFPSHFT2"].defined_values("mod1") == list(range(7))
        assert table.opcodes["SFPMAD"].defined_values("mod1") == list(range(16))
    from tensix_sfpu.tb.stimulus.generator import UNDEFINED_MODIFIERS
    assert set(UNDEFINED_MODIFIERS["SFPLOADI"]) == {3, 5, 6, 7, 9, 11, 12, 13, 14, 15}
