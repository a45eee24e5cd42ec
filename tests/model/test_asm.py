"""Tests for model.asm: assembler, disassembler, directives and error reporting.

Expected words are computed by hand from tt-llk's Wormhole ckernel_ops.h
layouts (TT_OP(opcode, params) = (opcode << 24) + sum(arg << shift)) and the
spec's §2.1 field table, never from the assembler's own output.
"""

import random

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import AsmError, Directive, Instr, Loc, assemble, assemble_line, disassemble

WH = isa.Arch.WORMHOLE

from tests.model.test_isa import SPEC, readable_from_raw, random_raw, spec_used_mask, word_from_raw

LOC = Loc("t.s", 1, 1)


def word_of(line: str) -> int:
    item = assemble_line(line, LOC, WH)
    assert isinstance(item, Instr), line
    return item.word


# ---------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_named_round_trip_random_fields(mnemonic):
    """encode -> decode -> disassemble -> assemble_line gives the same word."""
    rng = random.Random(f"asm-named-{mnemonic}")
    for _ in range(300):
        raw = random_raw(rng, mnemonic)
        word = word_from_raw(mnemonic, raw)
        assert isa.encode(mnemonic, WH, **readable_from_raw(mnemonic, raw)) == word
        ins = isa.decode(word, WH)
        text = disassemble(ins.word, arch=WH)
        assert not text.startswith(".word"), text
        assert text.split()[0] == mnemonic.lower()
        assert word_of(text) == word, text


@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_llk_round_trip_random_fields(mnemonic):
    rng = random.Random(f"asm-llk-{mnemonic}")
    for _ in range(300):
        word = word_from_raw(mnemonic, random_raw(rng, mnemonic))
        text = disassemble(word, "llk", arch=WH)
        assert word_of(text) == word, text


@pytest.mark.parametrize("mnemonic", sorted(SPEC))
def test_round_trip_random_words_including_ignored_bits(mnemonic):
    """Any 24 bits under a valid opcode: named and llk forms both reassemble;
    a word with bits no field uses disassembles to a `.word` line."""
    rng = random.Random(f"asm-any-{mnemonic}")
    opcode, _ = SPEC[mnemonic]
    unused = 0xFFFFFF & ~spec_used_mask(mnemonic)
    words = [(opcode << 24) | rng.getrandbits(24) for _ in range(200)]
    if unused:
        words += [(opcode << 24) | unused, (opcode << 24) | (unused & -unused)]   # all unused bits; the lowest one
    for word in words:
        text = disassemble(word, arch=WH)
        if word & unused:
            assert text.startswith(f".word 0x{word:08X}"), text
        else:
            assert not text.startswith(".word"), text
        assert word_of(text) == word, text
        assert word_of(disassemble(word, "llk", arch=WH)) == word, disassemble(word, "llk", arch=WH)


def test_sfpnop_llk_round_trip():
    # tt-llk writes the no-argument op as `TTI_SFPNOP;`; disassemble's llk form must reassemble.
    text = disassemble(0x8F000000, "llk", arch=WH)
    assert word_of(text) == 0x8F000000, text


def test_ignored_bit_examples():
    # SFPLOAD bits 13:10 are unused (§2.1 MEM: "bits 13:10 unused").
    assert disassemble(0x70003C00, arch=WH).startswith(".word 0x70003C00")
    # SFPPUSHC requires Mod1 = 0.
    assert disassemble(0x87000001, arch=WH).startswith(".word 0x87000001")
    # SFPNOP bit 7.
    assert disassemble(0x8F000080, arch=WH).startswith(".word 0x8F000080")
    # SFPLUT bits 15:0 are 0.
    assert disassemble(0x73000001, arch=WH).startswith(".word 0x73000001")


def test_llk_disassembly_text():
    assert disassemble(0x840C0DD0, "llk", arch=WH).replace(" ", "") == "TTI_SFPMAD(12,0,13,13,0);"
    assert disassemble(0x8E0000EE, "llk", arch=WH).replace(" ", "") == "TTI_SFP_STOCH_RND(0,0,0,0,14,14);"
    assert disassemble(0x9360C009, "llk", arch=WH).replace(" ", "") == "TTI_SFPLOADMACRO(6,0,3,9);"


def test_named_disassembly_fields():
    def pairs(text):
        mn, *rest = text.split()
        return mn, dict(p.split("=") for p in rest)

    mn, f = pairs(disassemble(0x840C0DD0, arch=WH))
    assert mn == "sfpmad"
    assert {k: int(v, 0) for k, v in f.items()} == {"vd": 13, "va": 12, "vb": 0, "vc": 13, "mod1": 0}
    mn, f = pairs(disassemble(0x9360C009, arch=WH))
    assert mn == "sfploadmacro"
    assert {k: int(v, 0) for k, v in f.items()} == {"macro": 1, "vd": 6, "offset": 8, "addr_mod": 3, "mod0": 0}
    mn, f = pairs(disassemble(0x79FFF000, arch=WH))
    assert int(f["imm12"]) == -1


# ---------------------------------------------------------------------------
# Known encodings
# ---------------------------------------------------------------------------

def test_sfpmad_known_encoding():
    # TTI_SFPMAD(12,0,13,13,0) = 0x84<<24 + 12<<16 + 0<<12 + 13<<8 + 13<<4 + 0
    assert (0x84 << 24) + (12 << 16) + (0 << 12) + (13 << 8) + (13 << 4) + 0 == 0x840C0DD0
    assert word_of("TTI_SFPMAD(12,0,13,13,0)") == 0x840C0DD0
    assert word_of("TTI_SFPMAD(12, 0, 13, 13, 0);") == 0x840C0DD0
    assert word_of("TT_OP_SFPMAD(12, 0, 13, 13, 0)") == 0x840C0DD0
    assert word_of("sfpmad va=12 vb=0 vc=13 vd=13 mod1=0") == 0x840C0DD0
    assert word_of("SFPMAD VD=13 VC=13 VA=12") == 0x840C0DD0
    assert word_of(".word 0x840C0DD0") == 0x840C0DD0


def test_sfpshft_known_encoding():
    # TTI_SFPSHFT(15,0,15,1) = 0x7A<<24 + 15<<12 + 0<<8 + 15<<4 + 1
    assert word_of("TTI_SFPSHFT(15,0,15,1)") == 0x7A00F0F1
    assert word_of("sfpshft imm12=15 vc=0 vd=15 mod1=1") == 0x7A00F0F1


def test_sfploadmacro_known_encoding():
    expected = 0x9360C009     # see test_isa.test_loadmacro_readable_fields
    assert word_of("TTI_SFPLOADMACRO((1<<2)|(6&3), 0, 3, 8|(6>>2))") == expected
    assert word_of("sfploadmacro macro=1 vd=6 addr_mod=3 offset=8") == expected


def test_exp_template_words():
    assert word_of("TTI_SFPSWAP(0, 0, 14, 1)") == 0x920000E1
    assert word_of("sfpswap mod1=1 vd=14 vc=0") == 0x920000E1
    assert word_of("TTI_SFP_STOCH_RND(0, 0, 0, 0, 14, 14)") == 0x8E0000EE
    assert word_of("sfpstochrnd mod1=6 use_imm5=1 vd=14") == 0x8E0000EE


# ---------------------------------------------------------------------------
# Lines pasted verbatim from tt-llk's Wormhole SFPU kernels
# (tt_llk_wormhole_b0/common/inc/sfpu/ckernel_sfpu_<name>.h at 36b092e8, line numbers)
# ---------------------------------------------------------------------------

KERNEL_LINES = [
    # exp.h:409  SFPLOAD: 3<<14
    ("TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);", 0x7000C000),
    # exp.h:411  SFPMAD: 12<<16 | 0<<12 | 13<<8 | 0<<4 | 0
    ("TTI_SFPMAD(p_sfpu::LREG12, p_sfpu::LREG0, p_sfpu::LREG13, p_sfpu::LREG0, 0);", 0x840C0D00),
    # exp.h:412  STOCH_RND: mod1 = 6
    ("TTI_SFP_STOCH_RND(0, 0, 0, p_sfpu::LREG0, p_sfpu::LREG0, sfpi::SFPSTOCHRND_MOD1_FP32_TO_UINT16);",
     0x8E000006),
    # exp.h:521  SFPSHFT2: 0<<12 | 14<<8 | 1<<4 | 5
    ("TTI_SFPSHFT2(p_sfpu::LREG0, p_sfpu::LREG14, p_sfpu::LREG1, 5); // lreg[1] = lreg[0] << 15", 0x94000E15),
    # exp.h:410  SFPSWAP: 14<<8 | 0<<4 | 9
    ("TTI_SFPSWAP(0, p_sfpu::LREG14, p_sfpu::LREG0, 9);", 0x92000E09),
    # exp.h:498  SFPLOADMACRO: 1<<20 | 0<<16 | 3<<14 | 10
    ("TTI_SFPLOADMACRO(1, 0, 3, 10); // MACRO Sequence Register 0: LD, MAD, ROUND, SHIFT and STORE - uses "
     "LREG[1] for loading and intermediate results - Dest", 0x9310C00A),
    # exp.h:438
    ("TTI_SFPNOP; // NOP is necessary because the SWAP operation takes 2 cycles and unfortunately is not pipelined",
     0x8F000000),
    # exp.h:652  SFPCONFIG: 0<<8 | 13<<4 | 0
    ("TTI_SFPCONFIG(0, 13, 0); // SFPCONFIG Dest 13 = LREG[13] = (B-C) =  32500.818359375       = 0x46fde9a3",
     0x910000D0),
    # typecast.h:499  SFPLOADMACRO: 0<<20 | LO16=6<<16 | 2<<14 | 0
    ("TTI_SFPLOADMACRO((0 << 2) | 0, InstrModLoadStore::LO16, ADDR_MOD_2, 0);", 0x93068000),
    # typecast.h:169  SFPIADD: (-31 & 0xfff)=0xFE1 <<12 | 2<<8 | 2<<4 | (1|0)
    ("TTI_SFPIADD(-31 & 0xfff, p_sfpu::LREG2, p_sfpu::LREG2, sfpi::SFPIADD_MOD1_ARG_IMM | sfpi::SFPIADD_MOD1_CC_LT0);",
     0x79FE1221),
    # typecast.h:165  SFPEXEXP: 0<<8 | 2<<4 | (2|8)
    ("TTI_SFPEXEXP(0, p_sfpu::LREG0, p_sfpu::LREG2, sfpi::SFPEXEXP_MOD1_SET_CC_SGN_EXP | "
     "sfpi::SFPEXEXP_MOD1_SET_CC_COMP_EXP);", 0x7700002A),
    # typecast.h:514  SFPSHFT: 0xFF0<<12 | 0 | 0 | 1
    ("TTI_SFPSHFT((-16) & 0xFFF, 0, p_sfpu::LREG0, 1);", 0x7AFF0001),
    # typecast.h:232  SFPSTORE: 1<<20 | FP16B=2<<16 | 2<<14 | 0
    ("TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::FP16B, ADDR_MOD_2, 0);", 0x72128000),
    # typecast.h:204  SFPLOADI: 1<<20 | SHORT=4<<16 | 0xFFFF
    ("TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_SHORT, 0xffff);", 0x7114FFFF),
    # typecast.h:662  SFPCONFIG: (0x310|2)<<8 | 8<<4 | 1
    ("TTI_SFPCONFIG(0x310 | InstrModLoadStore::FP16B, 8, 1);", 0x91031281),
    # typecast.h:181  SFPIADD: 0 | LCONST_0=9<<8 | 1<<4 | (2|4)
    ("TTI_SFPIADD(0, p_sfpu::LCONST_0, p_sfpu::LREG1, sfpi::SFPIADD_MOD1_ARG_2SCOMP_LREG_DST | "
     "sfpi::SFPIADD_MOD1_CC_NONE);", 0x79000916),
    # typecast.h:100  SFPABS: 0<<8 | 1<<4 | 0
    ("TTI_SFPABS(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);                  // lreg[1] = iabs(lreg[0])", 0x7D000010),
    # typecast.h:104  SFPADDI: 0xcf00<<8 | 0 | 0
    ("TTI_SFPADDI(0xcf00, p_sfpu::LREG0, 0);                           // lreg[0] += -2**31", 0x75CF0000),
    # reduce.h:526  SFPADD: 0<<16 | LCONST_1=10<<12 | 4<<8 | 0<<4 | 0
    ("TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG4, p_sfpu::LREG0, 0);", 0x8500A400),
    # reduce.h:703  SFPLOADI: 0<<20 | LOWER=10<<16 | 0x0100
    ("TTI_SFPLOADI(ckernel::p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_LOWER, 0x0100); // Load lower 16 bits (bit 8)",
     0x710A0100),
    # reduce.h:112  SFPIADD: 9<<8 | 0<<4 | 6
    ("TTI_SFPIADD(0, p_sfpu::LCONST_0, p_sfpu::LREG0, 6); // Negate LREG0 if condition is true", 0x79000906),
    # reduce.h:872
    ("TTI_SFPTRANSP(0, 0, 0, 0);", 0x8C000000),
    # reduce.h:111
    ("TTI_SFPCOMPC(0, 0, 0, 0);                           // Invert condition code (now true if original was "
     "negative)", 0x8B000000),
    # topk.h:222  SFPSWAP: 0<<8 | 1<<4 | ROWS_01_MAX=2
    ("TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_01_MAX);", 0x92000012),
    # topk.h:146  SFPCONFIG: 0x104<<8 | 0xF<<4 | 1
    ("TTI_SFPCONFIG(0x104, 0xF, 1); // Reverse the max/min behaviour of SWAP", 0x910104F1),
    # topk.h:79  SFPLOAD: 3<<20 | 0 | 3<<14 | 12
    ("TTI_SFPLOAD(p_sfpu::LREG3, 0, ADDR_MOD_3, 12);", 0x7030C00C),
    # rounding_ops.h:189  STOCH_RND: RND_STOCH=1<<21 | 0<<16 | 0<<12 | 0<<8 | 0<<4 | FP32_TO_FP16B=1
    ("TTI_SFP_STOCH_RND(sfpi::SFPSTOCHRND_RND_STOCH, 0, p_sfpu::LREG0, p_sfpu::LREG0, p_sfpu::LREG0, "
     "sfpi::SFPSTOCHRND_MOD1_FP32_TO_FP16B);", 0x8E200001),
]


@pytest.mark.parametrize("line,expected", KERNEL_LINES, ids=[f"k{i:02d}" for i in range(len(KERNEL_LINES))])
def test_kernel_line_assembles(line, expected):
    assert word_of("        " + line) == expected


def test_kernel_loop_body_as_a_program():
    # exp.h:409-414, the DISABLE_SFPLOADMACRO loop body, as one source.
    src = """
            TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
            TTI_SFPSWAP(0, p_sfpu::LREG14, p_sfpu::LREG0, 9);
            TTI_SFPMAD(p_sfpu::LREG12, p_sfpu::LREG0, p_sfpu::LREG13, p_sfpu::LREG0, 0);
            TTI_SFP_STOCH_RND(0, 0, 0, p_sfpu::LREG0, p_sfpu::LREG0, sfpi::SFPSTOCHRND_MOD1_FP32_TO_UINT16);
            TTI_SFPSHFT(15, p_sfpu::LREG0, p_sfpu::LREG0, 1);
            TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
"""
    prog = assemble(src, "exp.s")
    assert prog.words == [0x7000C000, 0x92000E09, 0x840C0D00, 0x8E000006, 0x7A00F001, 0x7200C000]
    assert [i.loc.line for i in prog.items] == [2, 3, 4, 5, 6, 7]
    assert all(i.loc.col == 13 for i in prog.items)


# ---------------------------------------------------------------------------
# Syntax details
# ---------------------------------------------------------------------------

def test_comments_blank_lines_and_locations():
    src = "# header\n\n  sfpnop   // trailing\n.word 0x8F000000 # raw\n\t\nTTI_SFPNOP();\n"
    prog = assemble(src, "c.s")
    assert prog.words == [0x8F000000] * 3
    assert [(i.loc.file, i.loc.line, i.loc.col) for i in prog.items] == [("c.s", 3, 3), ("c.s", 4, 1),
                                                                         ("c.s", 6, 1)]
    assert assemble_line("   # only a comment", LOC, WH) is None
    assert assemble_line("", LOC, WH) is None


@pytest.mark.parametrize("expr,value", [
    ("1 << 4 | 2", 0x12), ("~0 & 0xF", 0xF), ("0x10u", 0x10), ("16UL", 16), ("(-16) & 0xFFF", 0xFF0),
    ("3 * 4 - 2", 10), ("0xFF >> 4 ^ 1", 0xE), ("sfpi::SFPLOADI_MOD0_UPPER", 8), ("ckernel::p_sfpu::LREG7", 7),
    ("p_sfpu::LTILEID", 15), ("InstrModLoadStore::INT32_2S_COMP", 12), ("ADDR_MOD_7", 7),
])
def test_expressions(expr, value):
    assert word_of(f"TTI_SFPLOADI(0, 0, {expr})") == 0x71000000 | value


def test_named_form_separators_and_case():
    assert word_of("sfpmad vd=1, va=2") == 0x84020010
    assert word_of("SfPmAd Vd=1 VA=2") == 0x84020010
    assert word_of("sfpmad vd=1\tva=2") == 0x84020010


def test_tab_after_mnemonic():
    assert word_of("sfpmad\tvd=1 va=2") == 0x84020010


def test_tab_after_directive_name():
    item = assemble_line(".fp32_dest\t1", LOC, WH)
    assert isinstance(item, Directive) and item.name == "fp32_dest" and item.args == (1,)


def test_named_form_symbols():
    assert word_of("sfpload vd=p_sfpu::LREG3 mod0=InstrModLoadStore::FP32 addr_mod=ADDR_MOD_3 imm10=2") == \
        (0x70 << 24) | (3 << 20) | (3 << 16) | (3 << 14) | 2
    assert word_of("sfpiadd vd=1 vc=2 imm12=-5 mod1=SFPIADD_MOD1_ARG_IMM|SFPIADD_MOD1_CC_NONE") == \
        (0x79 << 24) | (0xFFB << 12) | (2 << 8) | (1 << 4) | 5


def test_directives_parse():
    d = assemble_line(".addr_mod 3 dst_incr=2 dst_cr=1", LOC, WH)
    assert isinstance(d, Directive)
    assert (d.name, d.args, dict(d.options)) == ("addr_mod", (3,), {"dst_incr": 2, "dst_cr": 1})
    d = assemble_line(".lreg 2 0xFFFFFFFF", LOC, WH)
    assert (d.name, d.args) == ("lreg", (2, 0xFFFFFFFF))
    d = assemble_line(".lreg 7 " + " ".join(str(i) for i in range(32)), LOC, WH)
    assert d.args == (7,) + tuple(range(32))
    for line, name, value in [(".fp32_dest 1", "fp32_dest", 1), (".srcb_format 15", "srcb_format", 15),
                              (".rwc_dst 1023", "rwc_dst", 1023), (".dest_offset 4", "dest_offset", 4),
                              (".dest_base 8", "dest_base", 8), (".addr_mod_base 1", "addr_mod_base", 1),
                              (".prng_seed 0xFFFFFFFF", "prng_seed", 0xFFFFFFFF)]:
        d = assemble_line(line, LOC, WH)
        assert (d.name, d.args) == (name, (value,)), line
    prog = assemble(".fp32_dest 1\nsfpnop\n")
    assert prog.words == [0x8F000000] and len(prog.items) == 2


# ---------------------------------------------------------------------------
# Errors: "file:line:col: message", column at the offending token
# ---------------------------------------------------------------------------

def col_of(line: str, token) -> int:
    if isinstance(token, int):
        return token
    assert token in line, (line, token)
    return line.index(token) + 1


# (id, source line, tokens (or columns) the column may point at, words the message must contain)
ERRORS = [
    ("unknown-mnemonic", "  sfpfoo vd=1", ["sfpfoo"], ["unknown mnemonic", "sfpfoo"]),
    ("unknown-tti", "TTI_SFPFOO(1, 2);", ["TTI_SFPFOO"], ["SFPFOO"]),
    ("tti-wrong-spelling", "TTI_SFPSTOCHRND(0, 0, 0, 0, 14, 14);", ["TTI_SFPSTOCHRND"], ["SFPSTOCHRND"]),
    ("unknown-field", "sfpmad vd=1 vx=2", ["vx=2"], ["vx"]),
    ("field-vd-16", "sfpmad va=1 vd=16", ["vd=16", "16"], ["vd", "16"]),
    ("field-imm16", "sfploadi vd=1 imm16=0x10000", ["imm16=0x10000", "0x10000"], ["imm16", "65536"]),
    ("field-imm12-2048", "sfpiadd vd=1 imm12=2048", ["imm12=2048", "2048"], ["imm12", "2048"]),
    ("field-imm12-minus-2049", "sfpshft vd=1 imm12=-2049", ["imm12=-2049", "-2049"], ["imm12", "-2049"]),
    ("field-loadmacro-vd-8", "sfploadmacro macro=1 vd=8", ["vd=8", "8"], ["vd"]),
    ("field-twice", "sfpmad va=1 va=2", ["va=2"], ["va", "twice"]),
    ("malformed-bare-name", "sfpmad vd=1 va", ["va"], ["name=value"]),
    ("malformed-no-name", "sfpmad vd=1 =3", ["=3"], ["name=value"]),
    ("malformed-no-value", "sfpmad vd=1 va=", ["va="], ["name=value"]),
    ("tti-count-few", "    TTI_SFPMAD(1, 2, 3);", ["TTI_SFPMAD"], ["5", "3"]),
    ("tti-count-many", "TTI_SFPCONFIG(0, 13, 0, 1);", ["TTI_SFPCONFIG"], ["3", "4"]),
    ("tti-arg-range", "TTI_SFPMAD(1, 2, 3, 16, 0);", ["16"], ["lreg_dest", "16"]),
    ("tti-arg-range-addr-mode", "TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_4, 0);", ["ADDR_MOD_4"],
     ["sfpu_addr_mode", "4"]),
    ("tti-arg-negative", "TTI_SFPIADD(-31, p_sfpu::LREG2, p_sfpu::LREG2, 1);", ["-31"], ["imm12_math", "-31"]),
    ("unknown-symbol-first-arg", "TTI_SFPMAD(p_sfpu::LREGX, 0, 0, 0, 0);", ["p_sfpu::LREGX", "LREGX"], ["LREGX"]),
    ("unknown-symbol-second-arg", "TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LREGX, 0, 0, 0);",
     ["p_sfpu::LREGX", "LREGX"], ["LREGX"]),
    ("unknown-symbol-named", "sfpmad vd=1 va=NOPE", ["NOPE"], ["NOPE"]),
    ("unknown-symbol-in-expression", "TTI_SFPLOADI(0, 0, 1 + nope);", ["nope"], ["nope"]),
    ("bad-expression-syntax", "TTI_SFPMAD(1 +, 0, 0, 0, 0);", ["1 +"], ["1 +"]),
    ("bad-expression-paren", "sfpmad vd=(1", ["(1"], ["(1"]),
    ("bad-expression-power", "TTI_SFPMAD(2 ** 3, 0, 0, 0, 0);", ["2 ** 3"], ["2 ** 3"]),
    ("bad-expression-float", "TTI_SFPMAD(1.5, 0, 0, 0, 0);", ["1.5"], ["1.5"]),
    ("bad-expression-div-zero", "TTI_SFPMAD(1 / 0, 0, 0, 0, 0);", ["1 / 0"], ["1 / 0"]),
    ("unknown-directive", ".foo 1", [".foo", "foo"], ["foo"]),
    ("directive-value-range", ".fp32_dest 2", [12], ["fp32_dest", "2"]),
    ("directive-missing-value", ".fp32_dest", [".fp32_dest"], ["fp32_dest"]),
    ("directive-extra-value", ".srcb_format 1 2", [".srcb_format", "2"], ["srcb_format"]),
    ("directive-addr-mod-slot", ".addr_mod 8 dst_incr=1", ["8"], ["addr_mod", "8"]),
    ("directive-unknown-option", ".addr_mod 0 foo=1", ["foo=1"], ["foo"]),
    ("directive-lreg-register", ".lreg 8 0", ["8"], ["lreg", "8"]),
    ("directive-lreg-value", ".lreg 0 0x100000000", ["0x100000000"], ["lreg", "4294967296"]),
    ("directive-lreg-count", ".lreg 0 1 2", [".lreg"], ["lreg", "33"]),
    ("directive-prng-seed-range", ".prng_seed 0x100000000", ["0x100000000"], ["prng_seed"]),
    ("directive-bad-value", ".rwc_dst bogus", ["bogus"], ["bogus"]),
    ("word-non-sfpu-opcode", ".word 0x12345678", ["0x12345678"], ["0x12"]),
    ("word-blackhole-opcode", ".word 0x96000000", ["0x96000000"], ["0x96"]),
    ("word-too-wide", ".word 0x100000000", ["0x100000000"], ["32-bit"]),
    ("word-missing", ".word", [".word", 6, 7], ["value"]),     # or just past the end of the line
]


@pytest.mark.parametrize("name,line,tokens,words", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_name_file_line_column(name, line, tokens, words):
    src = "sfpnop\n# a comment\n" + line + "\nsfpnop\n"
    with pytest.raises(AsmError) as info:
        assemble(src, "prog.s")
    err = info.value
    text = str(err)
    prefix, _, message = text.partition(": ")
    file, lineno, col = prefix.split(":")
    assert (file, int(lineno)) == ("prog.s", 3), text
    assert int(col) in {col_of(line, t) for t in tokens}, f"column {col} for {line!r}: {text}"
    for w in words:
        assert w.lower() in message.lower(), text
    assert (err.loc.file, err.loc.line, err.loc.col) == ("prog.s", 3, int(col))


def test_error_in_later_line_of_long_program():
    src = "\n".join(["sfpnop"] * 41 + ["sfpmad vd=1 bogus"])
    with pytest.raises(AsmError, match=r"^x\.s:42:13: "):
        assemble(src, "x.s")


def test_a_trailing_file_line_comment_names_the_instructions_origin():
    # `sfpu llk` ends each line with the C++ line it came from; other comments name nothing.
    program = assemble("TTI_SFPNOP;  # /k/ckernel_sfpu_x.h:12\nsfpnop  # a note\nsfpnop // x.h:3\n"
                       "TTI_REPLAY(0, 1, 1, 1);\nsfpnop  # y.h:7\nTTI_REPLAY(0, 1, 0, 0);\n", "p.s")
    origins = [i.origin for i in program.items if hasattr(i, "origin")]
    assert origins[:3] == ["/k/ckernel_sfpu_x.h:12", None, None]
    assert origins[3:] == ["y.h:7", "y.h:7"]        # recorded and issued, then replayed: both keep it
