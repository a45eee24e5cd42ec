"""Names that tt-llk kernels use for SFPU operands, so that `TTI_` lines pasted
from real kernels assemble. Values are the encodings given by tt-isa-documentation
(modifier names) and tt-llk (register and mode names). Prefixes `sfpi::`, `ckernel::`
and `p_sfpu::`-style scopes are matched as written."""

import enum

from . import isa
from .isa import Arch
from .tensix import SETC16_SYMBOLS

def _named(prefixes: tuple[str, ...], members) -> dict[str, int]:
    """Each enum member (or (spelling, member) pair) under each prefix: the value is the table's."""
    pairs = [(m.name, m) if isinstance(m, enum.Enum) else m for m in members]
    return {prefix + name: member.value for prefix in prefixes for name, member in pairs}


# The table's modifier values under the names kernels spell them with: the instruction pages' names, sfpi's
# (sfpi_constants.h) and tt-llk's where they differ. The values are model/isa.py's enums.
TABLE_NAMES: dict[str, int] = {
    **_named(("MOD0_FMT_", "SFPLOAD_MOD0_FMT_", "SFPSTORE_MOD0_FMT_"), isa.Mod0Fmt),
    **_named(("SFPLOAD_MOD0_FMT_", "SFPSTORE_MOD0_FMT_"), [
        ("FP16A", isa.Mod0Fmt.FP16), ("FP16B", isa.Mod0Fmt.BF16), ("SM32", isa.Mod0Fmt.INT32_SM),
        ("INT32_TO_SM", isa.Mod0Fmt.INT32_SM)]),
    **_named(("SFPLOADI_MOD0_",), isa.LoadiMod0),
    **_named(("SFPSTOCHRND_MOD1_",), isa.StochRndMode),
    **_named(("SFPMOV_MOD1_",), isa.MovMod1),
    **_named(("SFPCAST_MOD1_",), [isa.CastMod1.RND_STOCH]),
    **_named(("SFPSHFT_MOD1_",), [isa.ShftMod1.ARG_IMM]),
    **_named(("SFPMAD_MOD1_",), [isa.MadMod1.INDIRECT_VA, isa.MadMod1.INDIRECT_VD]),
    **_named(("SFPLUT_MOD0_", "SFPLUTFP32_MOD0_", "SFPLUTFP32_MOD1_"), [isa.LutMod.SGN_RETAIN]),
    # SFPLUTFP32's tables: the documentation names them by their entries, sfpi adds _TABLE.
    **_named(("SFPLUTFP32_MOD0_", "SFPLUTFP32_MOD1_"), [
        ("FP32_3ENTRY_TABLE", isa.LutFp32Table.FP32_3ENTRY), ("FP16_6ENTRY_TABLE1", isa.LutFp32Table.FP16_6ENTRY_TABLE1),
        ("FP16_6ENTRY_TABLE2", isa.LutFp32Table.FP16_6ENTRY_TABLE2), ("FP16_3ENTRY_TABLE", isa.LutFp32Table.FP16_3ENTRY)]),
    # SFPSHFT2's sub-vector modes carry SUBVEC_ in sfpi's names.
    **_named(("SFPSHFT2_MOD1_",), [
        ("COPY4", isa.Shft2Mod1.COPY4), ("SUBVEC_CHAINED_COPY4", isa.Shft2Mod1.CHAINED_COPY4),
        ("SUBVEC_SHFLROR1_AND_COPY4", isa.Shft2Mod1.SHFLROR1_AND_COPY4), ("SUBVEC_SHFLROR1", isa.Shft2Mod1.SHFLROR1),
        ("SUBVEC_SHFLSHR1", isa.Shft2Mod1.SHFLSHR1), ("SHFT_LREG", isa.Shft2Mod1.SHFT_LREG),
        ("SHFT_IMM", isa.Shft2Mod1.SHFT_IMM)]),
    **_named(("SFPCONFIG_MOD1_",), [("IMM16_IS_VALUE", isa.ConfigMod1.IMM16_IS_VALUE),
                                    ("ARG_IMM", isa.ConfigMod1.IMM16_IS_VALUE),
                                    ("IMM16_IS_LANE_MASK", isa.ConfigMod1.LANE_MASK)]),
    # Wormhole's sfpi calls round-to-nearest-even EVEN.
    **_named(("SFPSTOCHRND_RND_",), [("EVEN", isa.RoundMode.NEAREST), ("STOCH", isa.RoundMode.STOCH),
                                     ("ZERO", isa.RoundMode.ZERO)]),
    # tt-llk's InstrModLoadStore: its LO16 is the documentation's UINT16, its 2S_COMP are INT32_SM and INT8_COMP.
    **_named(("InstrModLoadStore::",), [
        ("DEFAULT", isa.Mod0Fmt.SRCB), ("FP16A", isa.Mod0Fmt.FP16), ("FP16B", isa.Mod0Fmt.BF16),
        ("FP32", isa.Mod0Fmt.FP32), ("INT32", isa.Mod0Fmt.INT32), ("INT8", isa.Mod0Fmt.INT8),
        ("LO16", isa.Mod0Fmt.UINT16), ("HI16", isa.Mod0Fmt.HI16), ("INT32_2S_COMP", isa.Mod0Fmt.INT32_SM),
        ("INT8_2S_COMP", isa.Mod0Fmt.INT8_COMP), ("LO16_ONLY", isa.Mod0Fmt.LO16_ONLY),
        ("HI16_ONLY", isa.Mod0Fmt.HI16_ONLY)]),
}

SYMBOLS: dict[str, int] = {
    **TABLE_NAMES,
    # Modifiers the table keeps as plain numbers, by the instruction pages' names (also sfpi::NAME).
    "SFPABS_MOD1_FLOAT": 1,
    "SFPDIVP2_MOD1_ADD": 1,
    "SFPENCC_IMM2_E": 1,
    "SFPENCC_IMM2_R": 2,
    "SFPENCC_MOD1_EC": 1,
    "SFPENCC_MOD1_EI": 2,
    "SFPENCC_MOD1_RI": 8,
    "SFPEXEXP_MOD1_NODEBIAS": 1,
    "SFPEXEXP_MOD1_SET_CC_COMP_EXP": 8,
    "SFPEXEXP_MOD1_SET_CC_SGN_EXP": 2,
    "SFPEXMAN_MOD1_PAD9": 1,
    "SFPIADD_MOD1_ARG_2SCOMP_LREG_DST": 2,
    "SFPIADD_MOD1_ARG_IMM": 1,
    "SFPIADD_MOD1_ARG_LREG_DST": 0,
    "SFPIADD_MOD1_CC_GTE0": 8,
    "SFPIADD_MOD1_CC_LT0": 0,
    "SFPIADD_MOD1_CC_NONE": 4,
    "SFPLUTFP32_MOD1_INDIRECT_VD": 8,
    "SFPLUT_MOD0_INDIRECT_VD": 8,
    "SFPLZ_MOD1_CC_COMP": 8,
    "SFPLZ_MOD1_CC_NE0": 2,
    "SFPLZ_MOD1_NOSGN_MASK": 4,
    "SFPSETCC_MOD1_CLEAR": 8,
    "SFPSETCC_MOD1_IMM_BIT0": 1,
    "SFPSETCC_MOD1_LREG_EQ0": 6,
    "SFPSETCC_MOD1_LREG_GTE0": 4,
    "SFPSETCC_MOD1_LREG_LT0": 0,
    "SFPSETCC_MOD1_LREG_NE0": 2,
    "SFPSETEXP_MOD1_ARG_EXPONENT": 2,
    "SFPSETEXP_MOD1_ARG_IMM": 1,
    "SFPSETMAN_MOD1_ARG_IMM": 1,
    "SFPSETSGN_MOD1_ARG_IMM": 1,
    "SFPSWAP_MOD1_SUBVEC_MIN01_MAX23": 2,
    "SFPSWAP_MOD1_SUBVEC_MIN02_MAX13": 3,
    "SFPSWAP_MOD1_SUBVEC_MIN03_MAX12": 4,
    "SFPSWAP_MOD1_SUBVEC_MIN0_MAX123": 5,
    "SFPSWAP_MOD1_SUBVEC_MIN1_MAX023": 6,
    "SFPSWAP_MOD1_SUBVEC_MIN2_MAX013": 7,
    "SFPSWAP_MOD1_SUBVEC_MIN3_MAX012": 8,
    "SFPSWAP_MOD1_SWAP": 0,
    "SFPSWAP_MOD1_VEC_MIN_MAX": 1,
    "SFPENCC_MOD1_EU_R1": 0,
    "SFPCONFIG_MOD1_BITWISE_OR": 2,
    "SFPCONFIG_MOD1_BITWISE_AND": 4,
    "SFPCONFIG_MOD1_BITWISE_XOR": 6,
    # The rest of sfpi's Wormhole names for modifiers and configuration targets (sfpi_constants.h).
    "SFP_LREG_COUNT": 8,
    "SFP_DESTREG_STRIDE": 2,
    "SFP_DESTREG_COUNT": 512,
    "SFPLOAD_ADDR_MODE_NOINC": 3,
    "SFPSTORE_ADDR_MODE_NOINC": 3,
    "SFPMOV_MOD1_COMPSIGN": 1,
    "SFPMAD_MOD1_OFFSET_NONE": 0,
    "SFPEXMAN_MOD1_PAD8": 0,
    "SFPEXEXP_MOD1_DEBIAS": 0,
    "SFPEXEXP_MOD1_SET_CC_SGN_COMP_EXP": 10,
    "SFPSETEXP_MOD1_CPY": 2,
    "SFPABS_MOD1_INT": 0,
    "SFPXCMP_MOD1_CC_LT": 0,
    "SFPXCMP_MOD1_CC_GE": 1,
    "SFPXCMP_MOD1_CC_EQ": 2,
    "SFPXCMP_MOD1_CC_NE": 3,
    "SFPXCMP_MOD1_CC_GT": 4,
    "SFPXCMP_MOD1_CC_LE": 5,
    "SFPXCMP_MOD1_TYPE_UINT": 0,
    "SFPXCMP_MOD1_TYPE_INT": 1,
    "SFPXCMP_MOD1_TYPE_SMAG": 2,
    "SFPXCMP_MOD1_TYPE_FLOAT": 3,
    "SFPXCMP_MOD1_TYPE_SHIFT": 4,
    "SFPXCMP_MOD1_TYPE_MASK": 3,
    "SFPXBOOL_MOD1_AND": 0,
    "SFPXBOOL_MOD1_OR": 1,
    "SFPXBOOL_MOD1_NOT": 2,
    "SFPSETCC_MOD1_COMP": 8,
    "SFPENCC_IMM12_NEITHER": 0,
    "SFPENCC_IMM12_BOTH": 3,
    "SFPENCC_MOD1_EC_R1": 1,
    "SFPENCC_MOD1_EI_R1": 2,
    "SFPENCC_MOD1_EU_RI": 8,
    "SFPENCC_MOD1_EC_RI": 9,
    "SFPENCC_MOD1_EI_RI": 10,
    "SFPPUSHC_MOD1_PUSH": 0,
    "SFPPUSHC_MOD1_REPLACE": 1,
    "SFPPOPC_MOD1_POP": 0,
    "SFPCONFIG_MOD1_AND": 2,
    "SFPCONFIG_MOD1_OR": 4,
    "SFPCONFIG_MOD1_XOR": 6,
    "SFPLZ_MOD1_CC_NONE": 0,
    "SFPLZ_MOD1_CC_EQ0": 10,
    "SFPLZ_MOD1_NOSGN_CC_NONE": 4,
    "SFPLZ_MOD1_NOSGN_CC_NE0": 6,
    "SFPLZ_MOD1_NOSGN_CC_COMP": 12,
    "SFPLZ_MOD1_NOSGN_CC_EQ0": 14,
    "SFPSDIVP2_MOD1_ADD": 1,
    "SFPLUT_MOD0_SGN_UPDATE": 0,
    "SFPLUTFP32_MOD0_SGN_UPDATE": 0,
    "SFPCAST_MOD1_SM32_TO_FP32_RNE": 0,
    "SFPCAST_MOD1_SM32_TO_FP32_RNS": 1,
    "SFPCAST_MOD1_INT32_TO_FP32_RNE": 0,
    "SFPCAST_MOD1_INT32_TO_FP32_RNS": 1,
    "SFPSTOCHRND_MOD1_FP32_TO_SMAG8": 3,
    "SFPSTOCHRND_MOD1_SMAG32_TO_UINT8": 4,
    "SFPSTOCHRND_MOD1_SMAG32_TO_SMAG8": 5,
    "SFPSTOCHRND_MOD1_FP32_TO_SMAG16": 7,
    "SFPSTOCHRND_MOD1_CONV_MASK": 7,
    "SFPSTOCHRND_MOD1_IMM8": 8,
    "SFPSHFT_MOD1_LOGICAL": 0,
    "SFPSHFT_MOD1_SHIFT_IMM": 0,
    "SFPSHFT_MOD1_SHIFT_LREGC": 1,
    "SFPSWAP_MOD1_VEC_MAX_MIN": 9,
    "SFPCONFIG_DEST_MACRO_INST0": 0,
    "SFPCONFIG_DEST_MACRO_INST1": 1,
    "SFPCONFIG_DEST_MACRO_INST2": 2,
    "SFPCONFIG_DEST_MACRO_INST3": 3,
    "SFPCONFIG_DEST_MACRO_SEQ0": 4,
    "SFPCONFIG_DEST_MACRO_SEQ1": 5,
    "SFPCONFIG_DEST_MACRO_SEQ2": 6,
    "SFPCONFIG_DEST_MACRO_SEQ3": 7,
    "SFPCONFIG_DEST_MACRO_CTRL": 8,
    "SFPCONFIG_DEST_LREG11": 11,
    "SFPCONFIG_DEST_LREG12": 12,
    "SFPCONFIG_DEST_LREG13": 13,
    "SFPCONFIG_DEST_LREG14": 14,
    "SFPCONFIG_DEST_SFPU_CTRL": 15,
    "SFPCONFIG_MOD1_SRC_R0_LREG0": 0,
    "CREG_IDX_0P837300003": 8,
    "CREG_IDX_0": 9,
    "CREG_IDX_1": 10,
    "CREG_IDX_PRGM0": 11,
    "CREG_IDX_PRGM1": 12,
    "CREG_IDX_PRGM2": 13,
    "CREG_IDX_PRGM3": 14,
    "CREG_IDX_NEG_1": 11,
    "CREG_IDX_TILEID": 15,
    # tt-llk p_sfpu register names.
    "p_sfpu::LREG0": 0,
    "p_sfpu::LREG1": 1,
    "p_sfpu::LREG2": 2,
    "p_sfpu::LREG3": 3,
    "p_sfpu::LREG4": 4,
    "p_sfpu::LREG5": 5,
    "p_sfpu::LREG6": 6,
    "p_sfpu::LREG7": 7,
    "p_sfpu::LCONST_0_8373": 8,
    "p_sfpu::LCONST_0": 9,
    "p_sfpu::LCONST_1": 10,
    "p_sfpu::LREG11": 11,
    "p_sfpu::LREG12": 12,
    "p_sfpu::LREG13": 13,
    "p_sfpu::LREG14": 14,
    "p_sfpu::LCONST_neg1": 11,
    "p_sfpu::LTILEID": 15,
    "p_sfpu::kCONST_1_FP16B": 16256,
    "p_sfpu::kCONST_1_FP16A": 15360,
    "p_sfpu::kCONST_0": 0,
    "p_sfpu::kCONST_Exp_8Bit": 0,
    "p_sfpu::kCONST_Exp_5Bit": 1,
    # tt-llk p_sfpswap modes.
    "p_sfpswap::UNCONDITIONALLY": 0,
    "p_sfpswap::ALL_ROWS_MAX": 1,
    "p_sfpswap::ROWS_01_MAX": 2,
    "p_sfpswap::ROWS_02_MAX": 3,
    "p_sfpswap::ROWS_03_MAX": 4,
    "p_sfpswap::ROW_0_MAX": 5,
    "p_sfpswap::ROW_1_MAX": 6,
    "p_sfpswap::ROW_2_MAX": 5,
    "p_sfpswap::ROW_3_MAX": 6,
    # ADDR_MOD slots.
    "ADDR_MOD_0": 0,
    "ADDR_MOD_1": 1,
    "ADDR_MOD_2": 2,
    "ADDR_MOD_3": 3,
    "ADDR_MOD_4": 4,
    "ADDR_MOD_5": 5,
    "ADDR_MOD_6": 6,
    "ADDR_MOD_7": 7,
    # SETRWC / INCRWC arguments (p_setrwc).
    **{f"p_setrwc::{name}": value for name, value in (
        ("CLR_NONE", 0), ("CLR_A", 1), ("CLR_B", 2), ("CLR_AB", 3),
        ("SET_A", 1), ("SET_B", 2), ("SET_AB", 3), ("SET_D", 4), ("SET_AD", 5), ("SET_BD", 6), ("SET_ABD", 7),
        ("SET_F", 8), ("SET_A_F", 9), ("SET_B_F", 10), ("SET_AB_F", 11), ("SET_D_F", 12), ("SET_AD_F", 13),
        ("SET_BD_F", 14), ("SET_ABD_F", 15),
        ("CR_A", 1), ("CR_B", 2), ("CR_AB", 3), ("CR_D", 4), ("CR_AD", 5), ("CR_BD", 6), ("CR_ABD", 7),
        ("C_TO_CR_MODE", 8))},
    # Thread configuration registers SETC16 may write (model.tensix).
    **SETC16_SYMBOLS,
    # STALLWAIT's block and condition bits (p_stall, ckernel_instr_params.h; STALLWAIT.md).
    **{f"p_stall::{name}": value for name, value in (
        ("NONE", 0x0), ("THCON", 0x1), ("UNPACK0", 0x2), ("UNPACK1", 0x4), ("UNPACK", 0x6), ("PACK0", 0x8),
        ("PACK1", 0x10), ("PACK2", 0x20), ("PACK3", 0x40), ("PACK", 0x8 | 0x10 | 0x20 | 0x40), ("MATH", 0x80), ("SRCA_CLR", 0x100),
        ("SRCB_CLR", 0x200), ("SRCA_VLD", 0x400), ("SRCB_VLD", 0x800), ("XMOV", 0x1000), ("TRISC_CFG", 0x2000),
        ("SFPU1", 0x4000), ("WAIT_SFPU", 0x4000), ("STALL_TDMA", 0x1), ("STALL_SYNC", 0x2), ("STALL_PACK", 0x4),
        ("STALL_UNPACK", 0x8), ("STALL_XMOV", 0x10), ("STALL_THCON", 0x20), ("STALL_MATH", 0x40),
        ("STALL_CFG", 0x80), ("STALL_SFPU", 0x100), ("STALL_THREAD", 0x1FF), ("STALL_ON_ZERO", 0x1),
        ("STALL_ON_MAX", 0x2), *((f"SEMAPHORE_{n}", 1 << n) for n in range(8)))},
}

# Blackhole's names: the modifiers of its new and changed instructions (the
# BlackholeA0 pages), and the names whose value differs there.
BLACKHOLE_SYMBOLS: dict[str, int] = {
    **_named(("SFPAND_MOD1_", "SFPOR_MOD1_"), isa.AndOrMod1),
    **_named(("SFPARECIP_MOD1_",), isa.ArecipMod1),
    **_named(("SFPCAST_MOD1_",), isa.CastMod1),
    "SFPCAST_MOD1_SM32_TO_FP32_RNE": 0,
    "SFPCAST_MOD1_SM32_TO_FP32_RNS": 1,
    **_named(("SFPLE_MOD1_", "SFPGT_MOD1_"), isa.CmpMod1),
    **_named(("SFPMAD_MOD1_",), isa.MadMod1),
    # SFPMUL24 shares SFPMAD's indirect bits; LOWER is its Mod1 of 0.
    **_named(("SFPMUL24_MOD1_",), [isa.Mul24Mod1.UPPER, isa.MadMod1.INDIRECT_VA, isa.MadMod1.INDIRECT_VD]),
    "SFPMUL24_MOD1_LOWER": 0,
    **_named(("SFPSHFT_MOD1_",), isa.ShftMod1),
    **_named(("SFPSTOCHRND_RND_",), isa.RoundMode),
    # STALLWAIT's condition bits are renumbered (BlackholeA0 STALLWAIT.md).
    **{f"p_stall::{name}": value for name, value in (
        ("PACK", 0x8), ("MATH", 0x10), ("SRCA_CLR", 0x20), ("SRCB_CLR", 0x40), ("SRCA_VLD", 0x80),
        ("SRCB_VLD", 0x100), ("XMOV", 0x200), ("TRISC_CFG", 0x400), ("SFPU1", 0x800), ("WAIT_SFPU", 0x800),
        ("CFGEXU", 0x1000))},
    # The 3-bit AddrMod: "no increment" is slot 7.
    "SFPLOAD_ADDR_MODE_NOINC": 7,
    "SFPSTORE_ADDR_MODE_NOINC": 7,
}


# Each architecture's names: a table, as the ISA's.
_BY_ARCH: dict[Arch, dict[str, int]] = {Arch.WORMHOLE: SYMBOLS, Arch.BLACKHOLE: SYMBOLS | BLACKHOLE_SYMBOLS}


def declare_symbols(arch: Arch, names: dict[str, int]) -> None:
    """The names a kernel of a further architecture (`isa.declare`) may use."""
    _BY_ARCH[arch] = names


def symbols(arch: Arch) -> dict[str, int]:
    """The names a kernel of `arch` may use: none for an architecture that
    declared none (its programs then spell every value as a number)."""
    return _BY_ARCH.get(arch, {})
