"""Tests for model.isa: the instruction table, encode and decode.

The expected field positions are written out here from the spec's §2.1 table
(/work/shared/spec/wormhole-sfpu.md) and the expected TTI_ argument layouts
from tt-llk's Wormhole ckernel_ops.h, independently of model/isa.py.
"""

import random

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import DecodeError, Kind, decode, encode, readable_fields

WORMHOLE_ISA = isa.ISA[isa.Arch.WORMHOLE]

WH = isa.Arch.WORMHOLE     # the table these tests write out

# ---------------------------------------------------------------------------
# Spec §2.1, written out independently: mnemonic -> (opcode, {field: (hi, lo)})
# Field names map the spec's spelling to the assembler's: Imm10 -> imm10,
# AddrMod -> addr_mod, VDHi -> vd_hi, VDLo -> vd_lo, MacroIndex -> macro,
# UseImm5 -> use_imm5, StochasticRounding -> stochastic.
# ---------------------------------------------------------------------------

_MEM = {"imm10": (9, 0), "addr_mod": (15, 14), "mod0": (19, 16), "vd": (23, 20)}
_IMM16 = {"mod1": (3, 0), "vd": (7, 4), "imm16": (23, 8)}
_IMM12 = {"mod1": (3, 0), "vd": (7, 4), "vc": (11, 8), "imm12": (23, 12)}
_IMM8 = {"mod1": (3, 0), "vd": (7, 4), "vc": (11, 8), "imm8": (19, 12)}
_IMM1 = {"mod1": (3, 0), "vd": (7, 4), "vc": (11, 8), "imm1": (12, 12)}
_MAD = {"mod1": (3, 0), "vd": (7, 4), "vc": (11, 8), "vb": (15, 12), "va": (19, 16)}
_VCVD = {"mod1": (3, 0), "vd": (7, 4), "vc": (11, 8)}
_VCVD_NOMOD = {"vd": (7, 4), "vc": (11, 8)}
_VD = {"vd": (7, 4)}

SPEC = {
    "SFPLOAD": (0x70, _MEM),
    "SFPLOADI": (0x71, {"imm16": (15, 0), "mod0": (19, 16), "vd": (23, 20)}),
    "SFPSTORE": (0x72, _MEM),
    "SFPLUT": (0x73, {"mod0": (19, 16), "vd": (23, 20)}),
    "SFPMULI": (0x74, _IMM16),
    "SFPADDI": (0x75, _IMM16),
    "SFPDIVP2": (0x76, _IMM8),
    "SFPEXEXP": (0x77, _VCVD),
    "SFPEXMAN": (0x78, _VCVD),
    "SFPIADD": (0x79, _IMM12),
    "SFPSHFT": (0x7A, _IMM12),
    "SFPSETCC": (0x7B, _IMM1),
    "SFPMOV": (0x7C, _VCVD),
    "SFPABS": (0x7D, _VCVD),
    "SFPAND": (0x7E, _VCVD_NOMOD),
    "SFPOR": (0x7F, _VCVD_NOMOD),
    "SFPNOT": (0x80, _VCVD_NOMOD),
    "SFPLZ": (0x81, _VCVD),
    "SFPSETEXP": (0x82, _IMM8),
    "SFPSETMAN": (0x83, _IMM12),
    "SFPMAD": (0x84, _MAD),
    "SFPADD": (0x85, _MAD),
    "SFPMUL": (0x86, _MAD),
    "SFPPUSHC": (0x87, _VD),
    "SFPPOPC": (0x88, {"mod1": (3, 0), "vd": (7, 4)}),
    "SFPSETSGN": (0x89, _IMM1),
    "SFPENCC": (0x8A, {"mod1": (3, 0), "vd": (7, 4), "imm2": (13, 12)}),
    "SFPCOMPC": (0x8B, _VD),
    "SFPTRANSP": (0x8C, _VD),
    "SFPXOR": (0x8D, _VCVD_NOMOD),
    "SFPSTOCHRND": (0x8E, {"mod1": (2, 0), "use_imm5": (3, 3), "vd": (7, 4), "vc": (11, 8), "vb": (15, 12),
                           "imm5": (20, 16), "stochastic": (21, 21)}),
    "SFPNOP": (0x8F, {}),
    "SFPCAST": (0x90, _VCVD),
    "SFPCONFIG": (0x91, _IMM16),
    "SFPSWAP": (0x92, _VCVD),
    "SFPLOADMACRO": (0x93, {"vd_hi": (0, 0), "imm9": (9, 1), "addr_mod": (15, 14), "mod0": (19, 16),
                            "vd_lo": (21, 20), "macro": (23, 22)}),
    "SFPSHFT2": (0x94, _IMM12),
    "SFPLUTFP32": (0x95, {"mod1": (3, 0), "vd": (7, 4)}),
}
# Spec §2.1: "SFPIADD 0x79 (signed), SFPSHFT 0x7A (signed), SFPSETMAN 0x83 (unsigned), SFPSHFT2 (signed)".
SIGNED = {("SFPIADD", "imm12"), ("SFPSHFT", "imm12"), ("SFPSHFT2", "imm12")}
REG_NAMES = {"va", "vb", "vc", "vd"}

# tt-llk's TT_OP_x argument layouts (shift, width), in argument order (notes on ckernel_ops.h).
_L_IMM12 = [(12, 12), (8, 4), (4, 4), (0, 4)]
_L_MAD = [(16, 8), (12, 4), (8, 4), (4, 4), (0, 4)]
_L_IMM16 = [(8, 16), (4, 4), (0, 4)]
_L_MEM = [(20, 4), (16, 4), (14, 2), (0, 14)]
LLK = {
    "SFPLOAD": ("SFPLOAD", _L_MEM), "SFPSTORE": ("SFPSTORE", _L_MEM), "SFPLOADMACRO": ("SFPLOADMACRO", _L_MEM),
    "SFPLOADI": ("SFPLOADI", [(20, 4), (16, 4), (0, 16)]),
    "SFPLUT": ("SFPLUT", [(20, 4), (16, 4), (0, 16)]),
    "SFPLUTFP32": ("SFPLUTFP32", [(4, 20), (0, 4)]),
    "SFPCAST": ("SFPCAST", [(8, 16), (4, 4), (0, 4)]),
    "SFPSTOCHRND": ("SFP_STOCH_RND", [(21, 3), (16, 5), (12, 4), (8, 4), (4, 4), (0, 4)]),
    "SFPMAD": ("SFPMAD", _L_MAD), "SFPADD": ("SFPADD", _L_MAD), "SFPMUL": ("SFPMUL", _L_MAD),
    "SFPADDI": ("SFPADDI", _L_IMM16), "SFPMULI": ("SFPMULI", _L_IMM16), "SFPCONFIG": ("SFPCONFIG", _L_IMM16),
    "SFPNOP": ("SFPNOP", []),
}
for _mn in SPEC:
    LLK.setdefault(_mn, (_mn, _L_IMM12))


def spec_used_mask(mnemonic):
    m = 0
    for hi, lo in SPEC[mnemonic][1].values():
        m |= ((1 << (hi - lo + 1)) - 1) << lo
    return m


def random_raw(rng, mnemonic):
    """Random raw (unsigned) bit values for each spec field."""
    return {name: rng.getrandbits(hi - lo + 1) for name, (hi, lo) in SPEC[mnemonic][1].items()}


def word_from_raw(mnemonic, raw):
    opc, fields = SPEC[mnemonic]
    w = opc << 24
    for name, v in raw.items():
        w |= v << fields[name][1]
    return w


def signed_value(mnemonic, name, raw_value):
    hi, lo = SPEC[mnemonic][1][name]
    width = hi - lo + 1
    if (mnemonic, name) in SIGNED and raw_value >> (width - 1):
        return raw_value - (1 << width)
    return raw_value


def readable_from_raw(mnemonic, raw):
    """The named-form fields the assembler accepts for these raw bits."""
    if mnemonic == "SFPLOADMACRO":
        # §3.1: VD = (VDHi << 2) | VDLo, Imm10 = (Imm9 << 1) | VDHi; the readable offset is Imm9 << 1.
        return {"macro": raw["macro"], "vd": (raw["vd_hi"] << 2) | raw["vd_lo"], "offset": raw["imm9"] << 1,
                "addr_mod": raw["addr_mod"], "mod0": raw["mod0"]}
    return {name: signed_value(mnemonic, name, v) for name, v in raw.items()}


# ---------------------------------------------------------------------------
# The table itself
# ---------------------------------------------------------------------------

def test_every_opcode_0x70_to_0x95_present_exactly_once():
    opcodes = [op.opcode for op in WORMHOLE_ISA.opcodes.values()]
    assert sorted(opcodes) == list(range(0x70, 0x96))
    assert len(set(opcodes)) == len(opcodes) == 38
    assert set(WORMHOLE_ISA.by_opcode) == set(range(0x70, 0x96))


def test_mnemonics_match_spec():
    assert {op.opcode: mn for mn, op in WORMHOLE_ISA.opcodes.items()} == {opc: mn for mn, (opc, _) in SPEC.items()}
    for mn, op in WORMHOLE_ISA.opcodes.items():
        assert op.mnemonic == mn
        assert WORMHOLE_ISA.by_opcode[op.opcode] is op


@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_fields_do_not_overlap_and_lie_in_23_0(mnemonic):
    op = WORMHOLE_ISA.opcodes[mnemonic]
    seen = 0
    for f in op.fields:
        assert f.width >= 1
        assert 0 <= f.lo and f.lo + f.width <= 24, f"{mnemonic}.{f.name} leaves bits 23:0"
        assert f.mask & seen == 0, f"{mnemonic}.{f.name} overlaps another field"
        seen |= f.mask
    assert len({f.name for f in op.fields}) == len(op.fields)


@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_register_fields_are_4_bits(mnemonic):
    op = WORMHOLE_ISA.opcodes[mnemonic]
    for f in op.reg_fields:
        assert f.width == 4, f"{mnemonic}.{f.name}"
    for f in op.fields:
        if f.name in REG_NAMES:
            assert f.kind is Kind.REG and f.width == 4, f"{mnemonic}.{f.name}"


@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_field_positions_match_spec_2_1(mnemonic):
    op = WORMHOLE_ISA.opcodes[mnemonic]
    got = {f.name: (f.lo + f.width - 1, f.lo) for f in op.fields}
    assert got == SPEC[mnemonic][1]


@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_immediate_signedness_matches_spec(mnemonic):
    for f in WORMHOLE_ISA.opcodes[mnemonic].fields:
        assert f.signed == ((mnemonic, f.name) in SIGNED), f"{mnemonic}.{f.name}"


def test_handpicked_field_positions():
    """A few §2.1 rows checked through encode, bit by bit."""
    # SFPMAD: VA[19:16] VB[15:12] VC[11:8] VD[7:4] Mod1[3:0]
    assert encode("SFPMAD", WH, va=0xF) == 0x840F0000
    assert encode("SFPMAD", WH, vb=0xF) == 0x8400F000
    assert encode("SFPMAD", WH, vc=0xF) == 0x84000F00
    assert encode("SFPMAD", WH, vd=0xF) == 0x840000F0
    assert encode("SFPMAD", WH, mod1=0xF) == 0x8400000F
    # SFPLOADMACRO: VDHi[0] Imm9[9:1] AddrMod[15:14] Mod0[19:16] VDLo[21:20] MacroIndex[23:22]
    assert encode("SFPLOADMACRO", WH, vd_hi=1) == 0x93000001
    assert encode("SFPLOADMACRO", WH, imm9=0x1FF) == 0x930003FE
    assert encode("SFPLOADMACRO", WH, addr_mod=3) == 0x9300C000
    assert encode("SFPLOADMACRO", WH, mod0=0xF) == 0x930F0000
    assert encode("SFPLOADMACRO", WH, vd_lo=3) == 0x93300000
    assert encode("SFPLOADMACRO", WH, macro=3) == 0x93C00000
    # SFPSTOCHRND: Mod1[2:0] UseImm5[3] VD[7:4] VC[11:8] VB[15:12] Imm5[20:16] StochasticRounding[21]
    assert encode("SFPSTOCHRND", WH, mod1=7) == 0x8E000007
    assert encode("SFPSTOCHRND", WH, use_imm5=1) == 0x8E000008
    assert encode("SFPSTOCHRND", WH, vb=0xF) == 0x8E00F000
    assert encode("SFPSTOCHRND", WH, imm5=0x1F) == 0x8E1F0000
    assert encode("SFPSTOCHRND", WH, stochastic=1) == 0x8E200000
    # SFPENCC: Imm2[13:12]
    assert encode("SFPENCC", WH, imm2=3) == 0x8A003000
    assert encode("SFPENCC", WH, imm2=1, mod1=2, vd=0) == 0x8A001002
    # SFPDIVP2 / SFPSETEXP Imm8[19:12]; SFPSETCC Imm1[12]
    assert encode("SFPDIVP2", WH, imm8=0xFF) == 0x760FF000
    assert encode("SFPSETCC", WH, imm1=1) == 0x7B001000


def test_must_be_zero_bits():
    # §2.1: SFPPUSHC requires Mod1 (bits 3:0) = 0; SFPNOP bit 7 must be 0.
    assert WORMHOLE_ISA.opcodes["SFPPUSHC"].must_be_zero == 0xF
    assert WORMHOLE_ISA.opcodes["SFPNOP"].must_be_zero == 0x80


@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_llk_argument_layout_matches_ckernel_ops(mnemonic):
    op = WORMHOLE_ISA.opcodes[mnemonic]
    name, args = LLK[mnemonic]
    assert op.llk_name == name
    assert [(a.shift, a.width) for a in op.llk_args] == args
    assert WORMHOLE_ISA.by_llk_name[name] is op


# ---------------------------------------------------------------------------
# Decode
# ---------------------------------------------------------------------------

def test_every_opcode_byte_decodes_or_raises():
    rng = random.Random(7)
    for byte in range(256):
        for low in (0, 0xFFFFFF, rng.getrandbits(24), rng.getrandbits(24)):
            word = (byte << 24) | low
            if 0x70 <= byte <= 0x95:
                ins = decode(word, WH)
                assert ins.op.opcode == byte
                assert ins.word == word
            else:
                with pytest.raises(DecodeError):
                    decode(word, WH)


@pytest.mark.parametrize("word", [-1, 1 << 32, 0x1_8400_0000])
def test_decode_rejects_values_that_are_not_32_bit_words(word):
    with pytest.raises(DecodeError):
        decode(word, WH)


def test_decode_error_names_the_opcode():
    with pytest.raises(DecodeError, match="0x96"):
        decode(0x96000000, WH)      # Blackhole's SFPLE, not Wormhole


def test_exp_kernel_template_words():
    # Spec §3.6: template 0 = 0x920000E1 is SFPSWAP Mod1=1 (VEC_MIN_MAX), VD=14, VC=0.
    ins = decode(0x920000E1, WH)
    assert ins.mnemonic == "SFPSWAP"
    assert ins.fields == {"mod1": 1, "vd": 14, "vc": 0}
    # Template 2 = 0x8E0000EE: SFPSTOCHRND Mod1=6 (FP32->UINT16), UseImm5=1, VD=14, round-nearest.
    ins = decode(0x8E0000EE, WH)
    assert ins.mnemonic == "SFPSTOCHRND"
    assert ins.fields == {"mod1": 6, "use_imm5": 1, "vd": 14, "vc": 0, "vb": 0, "imm5": 0, "stochastic": 0}


def test_known_words_decode():
    # TTI_SFPMAD(12, 0, 13, 13, 0): 0x84<<24 | 12<<16 | 0<<12 | 13<<8 | 13<<4 | 0
    assert decode(0x840C0DD0, WH).fields == {"mod1": 0, "vd": 13, "vc": 13, "vb": 0, "va": 12}
    # TTI_SFPSHFT(15, 0, 15, 1): imm12=15 at [23:12], vc=0, vd=15, mod1=1
    assert decode(0x7A00F0F1, WH).fields == {"mod1": 1, "vd": 15, "vc": 0, "imm12": 15}
    # Signed imm12: all ones is -1; 0x800 is -2048.
    assert decode(0x79FFF000, WH)["imm12"] == -1
    assert decode(0x79800000, WH)["imm12"] == -2048
    # SFPSETMAN's imm12 is unsigned.
    assert decode(0x83FFF000, WH)["imm12"] == 0xFFF


def test_loadmacro_readable_fields():
    # §3.1: macro 1, vd 6, addr_mod 3, offset 8 -> TTI_SFPLOADMACRO((1<<2)|(6&3), 0, 3, 8|(6>>2))
    word = (0x93 << 24) + (((1 << 2) | (6 & 3)) << 20) + (0 << 16) + (3 << 14) + ((8 | (6 >> 2)) << 0)
    assert word == 0x9360C009
    assert dict(readable_fields(decode(word, WH))) == {"macro": 1, "vd": 6, "offset": 8, "addr_mod": 3, "mod0": 0}
    assert encode("SFPLOADMACRO", WH, macro=1, vd=6, addr_mod=3, offset=8) == word


def test_instruction_accessors():
    ins = decode(0x840C0DD0, WH)
    assert ins["va"] == 12
    assert ins.get("imm16") is None
    with pytest.raises(KeyError):
        ins["imm16"]
    assert ins.ignored_bits == 0
    assert decode(0x70003C00, WH).ignored_bits == 0x3C00    # SFPLOAD bits 13:10 are unused


# ---------------------------------------------------------------------------
# Encode
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_encode_decode_random_fields(mnemonic):
    rng = random.Random(f"isa-{mnemonic}")
    for _ in range(300):
        raw = random_raw(rng, mnemonic)
        word = word_from_raw(mnemonic, raw)
        readable = readable_from_raw(mnemonic, raw)
        assert encode(mnemonic, WH, **readable) == word
        assert encode(mnemonic.lower(), WH, **readable) == word
        ins = decode(word, WH)
        assert ins.mnemonic == mnemonic
        assert ins.fields == {n: signed_value(mnemonic, n, v) for n, v in raw.items()}
        assert dict(readable_fields(ins)) == readable
        assert ins.ignored_bits == 0


def test_encode_missing_fields_are_zero():
    assert encode("SFPMAD", WH) == 0x84000000
    assert encode("SFPNOP", WH) == 0x8F000000


@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_encode_rejects_out_of_range(mnemonic):
    for name, (hi, lo) in SPEC[mnemonic][1].items():
        width = hi - lo + 1
        if (mnemonic, name) in SIGNED:
            bad = [1 << (width - 1), -(1 << (width - 1)) - 1]
        else:
            bad = [1 << width, -1]
        for v in bad:
            with pytest.raises(ValueError, match=name):
                encode(mnemonic, WH, **{name: v})


def test_encode_rejects_unknown_field_and_mnemonic():
    with pytest.raises(ValueError, match="imm16"):
        encode("SFPMAD", WH, imm16=1)
    with pytest.raises(ValueError, match="SFPFOO"):
        encode("SFPFOO", WH)
    with pytest.raises(ValueError, match="mod1"):
        encode("SFPPUSHC", WH, mod1=1)     # the Mod1 bits must be 0: no field to set them


def test_sfpshft2_vb_is_low_four_bits_of_imm12():
    # §2.1 SHFT2: VB [15:12] doubles as the low 4 bits of Imm12 [23:12].
    assert encode("SFPSHFT2", WH, vb=5, mod1=5) == 0x94005005
    assert encode("SFPSHFT2", WH, vb=5, imm12=0x15) == 0x94015000
    with pytest.raises(ValueError):
        encode("SFPSHFT2", WH, vb=5, imm12=0x16)
    with pytest.raises(ValueError):
        encode("SFPSHFT2", WH, vb=16)


def test_sfploadmacro_composites():
    assert encode("SFPLOADMACRO", WH, vd=7) == 0x93300001       # VDLo=3 [21:20], VDHi=1 [0]
    assert encode("SFPLOADMACRO", WH, vd=3) == 0x93300000
    assert encode("SFPLOADMACRO", WH, offset=1022) == 0x930003FE
    with pytest.raises(ValueError, match="vd"):
        encode("SFPLOADMACRO", WH, vd=8)                         # VD is 0..7 (§3.1)
    with pytest.raises(ValueError, match="offset"):
        encode("SFPLOADMACRO", WH, offset=3)                     # bit 0 belongs to VDHi
    with pytest.raises(ValueError, match="offset"):
        encode("SFPLOADMACRO", WH, offset=1024)
    with pytest.raises(ValueError):
        encode("SFPLOADMACRO", WH, vd=4, vd_hi=1)                # both the composite and its part


@pytest.mark.parametrize("arch", list(isa.Arch), ids=lambda a: a.value)
def test_modifier_enums_name_a_modifier_field_and_fit_it(arch):
    # The ISA reference (`sfpu isa`) lists each modifier's defined values from these.
    for op in isa.ISA[arch].table:
        for name, values in op.modifiers:
            field = op.field_map.get(name)
            assert field is not None and field.kind is Kind.MOD, f"{arch.value} {op.mnemonic}: {name} is no modifier"
            assert any(0 <= int(v) <= field.max for v in values), f"{op.mnemonic}: no value of {values} fits {name}"


# Where VB and VC come from, as the functional models on the ISA pages write it: the field, SFPSHFT2's
# VB from Imm12's low bits, "VB = VD" / "VC = VD", and Blackhole's SFPAND/SFPOR VB field only under USE_VB.
SOURCES = [
    (isa.Arch.WORMHOLE, "SFPMAD", "vb", isa.OperandSource("vb")),
    (isa.Arch.WORMHOLE, "SFPSHFT2", "vb", isa.OperandSource("vb")),
    (isa.Arch.WORMHOLE, "SFPAND", "vb", isa.OperandSource(None, (), True)),
    (isa.Arch.BLACKHOLE, "SFPAND", "vb", isa.OperandSource("vb", (("mod1", 1, 1),), True)),
    (isa.Arch.BLACKHOLE, "SFPOR", "vb", isa.OperandSource("vb", (("mod1", 1, 1),), True)),
    (isa.Arch.BLACKHOLE, "SFPXOR", "vb", isa.OperandSource(None, (), True)),
    (isa.Arch.WORMHOLE, "SFPADDI", "vc", isa.OperandSource(None, (), True)),
    (isa.Arch.WORMHOLE, "SFPADDI", "vb", isa.OperandSource()),
    (isa.Arch.WORMHOLE, "SFPLOAD", "vc", isa.OperandSource()),
]


@pytest.mark.parametrize("arch, mnemonic, name, source", SOURCES,
                         ids=[f"{a.value}-{m}-{n}" for a, m, n, _ in SOURCES])
def test_operand_sources(arch, mnemonic, name, source):
    assert isa.ISA[arch].opcodes[mnemonic].sources[name] == source


@pytest.mark.parametrize("mod1, vb", [(0, 1), (1, 2)])
def test_register_resolves_the_source(mod1, vb):
    ins = isa.decode(isa.encode("SFPAND", isa.Arch.BLACKHOLE, vd=1, vb=2, vc=3, mod1=mod1), isa.Arch.BLACKHOLE)
    assert (ins.register("vb"), ins.register("vc")) == (vb, 3)
    assert ins.field_register("vb") == (None if mod1 == 0 else 2)
    shft2 = isa.decode(isa.encode("SFPSHFT2", isa.Arch.WORMHOLE, vd=1, vc=3, imm12=0x7A5, mod1=5), isa.Arch.WORMHOLE)
    assert shft2.register("vb") == 5
