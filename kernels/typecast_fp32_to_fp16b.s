# FP32 -> BF16 with SFPLOADMACRO: tt-llk's _calculate_typecast_fp32_to_fp16b_
# and _init_typecast_fp32_to_fp16b_ (ckernel_sfpu_typecast.h, default build
# with SFPLOADMACRO), on a 32 x 32 tile of FP32 in Dst32b (Fp32 Dst mode).
#
# Rounding to nearest even on the bit pattern: add 0x7FFF plus the lowest
# kept mantissa bit, then let a BF16 store drop the low 16 bits. Two macros
# load the same row group: [a] (L0 and L1 alternate) and [b] (L2):
#   0  load   a <- x                       [a], Dst counter unchanged
#   1  load   b <- x                       [b], Dst counter moved on
#      Round  a <- a >> 16                 [a], 0 after its load
#   2  Simple a <- a & 1                   thread SFPAND with L12 = 1
#   3  Simple b <- b + 0x7FFF              [b], 1 after (L13 = 0x7FFF)
#   4  Simple L16 <- a + b                 [a], 3 after
#      Store  Dst32b <- a (FP32)           [a], 3 after: all zeros but bit 0
#   5  Store  Dst16b <- L16 (BF16)         [b], 3 after
# with the next row group's [a] at 3. Simple and MAD delays count issued
# instructions; [a]'s store uses the load's Mod0 (the FP32 default), [b]'s
# the configured BF16.
#
# [a]'s 32-bit store writes Dst rows that the 16-bit stores of later row
# groups may overwrite or leave alone; the BF16 result of each row group is
# read from the 16-bit view at the row and column of its input.

.fp32_dest 1
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# L12 = 1 and L13 = 0x7FFF (sfpi's vConstIntPrgm0 = 1 and vConstIntPrgm1 =
# 0x7FFF: SFPLOADI into L0, SFPCONFIG copies it).
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_USHORT, 1);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_USHORT, 0x7FFF);
TTI_SFPCONFIG(0, 13, 0);
# Template 0 (backdoor, VD=12): SFPSHFT2 by the immediate -16 (VB := the
# loaded register under the macro).
TTI_SFPSHFT2(-16 & 0xFFF, 0, 12, 6);
# Template 1 (backdoor, VD=13): SFPIADD VC=L13, no condition code.
TTI_SFPIADD(0, p_sfpu::LREG13, 13, sfpi::SFPIADD_MOD1_CC_NONE);
# Template 2 (backdoor, VD=14): SFPIADD VC=L2 (b), no condition code.
TTI_SFPIADD(0, p_sfpu::LREG2, 14, sfpi::SFPIADD_MOD1_CC_NONE);

# Sequence[0] = 0x1B8400DE ([a])
#   Simple 0xDE: template 2, delay 3, VB := loaded register, result to L16
#   MAD    0x00: nothing
#   Round  0x84: template 0, delay 0, VB := loaded register
#   Store  0x1B: SFPSTORE of the loaded register, delay 3
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x00DE);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x1B84);
TTI_SFPCONFIG(0, 4, 0);
# Sequence[1] = 0x5B00008D ([b])
#   Simple 0x8D: template 1, delay 1, VB := loaded register
#   Store  0x5B: SFPSTORE of L16, delay 3
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x008D);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x5B00);
TTI_SFPCONFIG(0, 5, 0);
# Misc = 0x312: StoreMod0 = BF16, macro 0 stores with its load's Mod0, Simple
# and MAD delays count instructions.
TTI_SFPCONFIG(0x310 | InstrModLoadStore::FP16B, 8, 1);

.mark body
# Eight row groups, recorded on the first face and replayed on the others.
TTI_REPLAY(0, 24, 1, 1);
TTI_SFPLOADMACRO(0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 2, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);
TTI_SFPLOADMACRO(1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 2, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG1, 0);
TTI_SFPLOADMACRO(0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 2, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);
TTI_SFPLOADMACRO(1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 2, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG1, 0);
TTI_SFPLOADMACRO(0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 2, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);
TTI_SFPLOADMACRO(1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 2, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG1, 0);
TTI_SFPLOADMACRO(0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 2, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);
TTI_SFPLOADMACRO(1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 2, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG1, 0);
# Three SFPNOPs let the last macros' Simple and Store run.
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
# The next face (tt-llk's _llk_math_eltwise_unary_sfpu_params_).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
