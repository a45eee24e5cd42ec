# uint32 -> BF16 with SFPLOADMACRO: tt-llk's _calculate_typecast_uint32_to_fp16b_
# and _init_typecast_uint32_to_fp16b_ (ckernel_sfpu_typecast.h, default build
# with SFPLOADMACRO), on a 32 x 32 tile of uint32 in Dst32b (Fp32 Dst mode);
# each result, an FP32 value of BF16 precision, is stored over its input.
#
# SFPCAST reads bit 31 as a sign, so the kernel clears it, casts the low 31
# bits, and adds 2**31 back where it was set: the top bit, moved to L7, picks
# L1 = 2**31 or L0 = 0.0 as the MAD's VA:
#   L7 = v >> 31, v = L[L7] * 1.0 + cast(v & 0x7FFFFFFF), then BF16 rounding.
#
# Three issue slots per row group: the macro (VD = v, L2 and L3 alternate) and
# two thread instructions:
#   0  load   v <- x                       (macro)
#   1  Round  L7 <- v >> 31                SFPSHFT2 by L12 = -31
#   2  Simple v <- setsgn(v, 0)            SFPSETSGN, immediate sign 0
#   3  Simple v <- cast(v)                 (macro, 2 instructions after the load)
#   4  MAD    v <- L[L7] * 1.0 + v         (macro, 3 after)
#   6  Round  L16 <- bf16(v)               (macro, 5 after) ties away from zero
#   7  Store  Dst32b <- L16                (macro, 6 after)
# with the next row group's macro at 3. Delays count issued instructions.
#
# tt-llk's init for this variant does not set L12, though the kernel shifts by
# it; L12 = -31 is what the kernel needs (the other variants that use the same
# shift set it in their init), so it is set here the same way.

.fp32_dest 1
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# L12 = -31 (as sfpi's vConstIntPrgm0 = -31 would: SFPLOADI into L0, SFPCONFIG).
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_SHORT, 0xFFE1);
TTI_SFPCONFIG(0, 12, 0);
# Template 0 (backdoor, VD=12): SFPCAST; VC and VD := the loaded register.
TTI_SFPCAST(0, 12, 0);
# Template 1 (backdoor, VD=13): SFPMAD VB=L10 (1.0), indirect VA from L7.
TTI_SFPMAD(0, p_sfpu::LCONST_1, 0, 13, 4);
# Template 2 (backdoor, VD=14): SFPSTOCHRND FP32 -> BF16 precision, nearest.
TTI_SFP_STOCH_RND(0, 0, 0, 0, 14, sfpi::SFPSTOCHRND_MOD1_FP32_TO_FP16B);

# Sequence[0] = 0x736E1D14
#   Simple 0x14: template 0, delay 2 (VC := loaded register)
#   MAD    0x1D: template 1, delay 3 (VC := loaded register)
#   Round  0x6E: template 2, delay 5, result to L16
#   Store  0x73: SFPSTORE of L16, delay 6
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x1D14);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x736E);
TTI_SFPCONFIG(0, 4, 0);
# Misc = 0x100: StoreMod0 = 0 (FP32 in Fp32 Dst mode); Simple delays count
# instructions.
TTI_SFPCONFIG(0x100 | InstrModLoadStore::DEFAULT, 8, 1);

.mark body
# The kernel's own set-up, once per call (per face): L0 = 0.0, L1 = 2**31.
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0x4F00);
# Eight row groups, recorded on the first face and replayed on the others.
TTI_REPLAY(0, 24, 1, 1);
TTI_SFPLOADMACRO(2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPSETSGN(0, p_sfpu::LREG2, p_sfpu::LREG2, 1);
TTI_SFPLOADMACRO(3, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPSETSGN(0, p_sfpu::LREG3, p_sfpu::LREG3, 1);
TTI_SFPLOADMACRO(2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPSETSGN(0, p_sfpu::LREG2, p_sfpu::LREG2, 1);
TTI_SFPLOADMACRO(3, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPSETSGN(0, p_sfpu::LREG3, p_sfpu::LREG3, 1);
TTI_SFPLOADMACRO(2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPSETSGN(0, p_sfpu::LREG2, p_sfpu::LREG2, 1);
TTI_SFPLOADMACRO(3, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPSETSGN(0, p_sfpu::LREG3, p_sfpu::LREG3, 1);
TTI_SFPLOADMACRO(2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPSETSGN(0, p_sfpu::LREG2, p_sfpu::LREG2, 1);
TTI_SFPLOADMACRO(3, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPSETSGN(0, p_sfpu::LREG3, p_sfpu::LREG3, 1);
# Five SFPNOPs let the last macro's MAD, Round and Store run.
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
# The next face (tt-llk's _llk_math_eltwise_unary_sfpu_params_).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0x4F00);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0x4F00);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0x4F00);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
