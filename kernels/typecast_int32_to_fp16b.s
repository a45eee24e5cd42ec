# int32 -> BF16 with SFPLOADMACRO: tt-llk's _calculate_typecast_int32_to_fp16b_
# and _init_typecast_int32_to_fp16b_ (ckernel_sfpu_typecast.h, default build
# with SFPLOADMACRO), on a 32 x 32 tile of two's complement int32 in Dst32b
# (Fp32 Dst mode). The result is an FP32 value with BF16 precision, written
# back over its input by the default store mode (FP32 in Fp32 Dst mode).
#
# SFPCAST converts sign-magnitude integers, so the kernel casts |v| and puts
# v's sign back. |-2**31| does not fit: SFPABS leaves 0x80000000, which casts
# to -0.0; for that lane the sign bit of |v| (moved to L7) makes the MAD add
# L1 = -2**31 instead of L0 = 0.0:
#   L7 = |v| >> 31, and v = L[L7] * 1.0 + setsgn(cast(|v|), v).
#
# Four issue slots per row group: the macro (VD = v, L2 and L3 alternate) and
# three instructions issued by the thread on the shared temporary t = L4:
#   0  load   v <- x                       (macro)
#   1  Simple t <- |v|                     SFPABS, integer
#   2  Round  L7 <- t >> 31                SFPSHFT2 by L12 = -31
#   3  Simple t <- cast(t)                 SFPCAST, ties to even
#   4  Simple v <- setsgn(t, v)            (macro, 3 instructions after the load)
#   5  MAD    v <- L[L7] * 1.0 + v         (macro, 4 after)
#   7  Round  L16 <- bf16(v)               (macro, 6 after) ties away from zero
#   8  Store  Dst32b <- L16                (macro, 7 after)
# where the next row group's macro issues at 4. All macro delays count issued
# instructions (Misc bit 8 makes the Simple entry instruction-counted, and
# while one is pending every pending entry counts instructions).

.fp32_dest 1
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# L12 = -31 (sfpi's vConstIntPrgm0 = -31: a sign-extended SFPLOADI into L0,
# then SFPCONFIG copies L0 to L12).
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_SHORT, 0xFFE1);
TTI_SFPCONFIG(0, 12, 0);
# Template 0 (backdoor, VD=12): SFPSETSGN VC=L4 (t); the macro makes VB and VD
# the loaded register, so v = sign(v) | exponent and mantissa of t.
TTI_SFPSETSGN(0, p_sfpu::LREG4, 12, 0);
# Template 1 (backdoor, VD=13): SFPMAD VB=L10 (1.0), Mod1 = indirect VA (L7);
# VC and VD become the loaded register.
TTI_SFPMAD(0, p_sfpu::LCONST_1, 0, 13, 4);
# Template 2 (backdoor, VD=14): SFPSTOCHRND FP32 -> BF16 precision, nearest.
TTI_SFP_STOCH_RND(0, 0, 0, 0, 14, sfpi::SFPSTOCHRND_MOD1_FP32_TO_FP16B);

# Sequence[0] = 0x7B76259C
#   Simple 0x9C: template 0, delay 3, VB := loaded register
#   MAD    0x25: template 1, delay 4 (VC := loaded register)
#   Round  0x76: template 2, delay 6, result to L16
#   Store  0x7B: SFPSTORE of L16, delay 7
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x259C);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x7B76);
TTI_SFPCONFIG(0, 4, 0);
# Misc = 0x100: StoreMod0 = 0 (FP32 in Fp32 Dst mode); Simple delays count
# instructions.
TTI_SFPCONFIG(0x100 | InstrModLoadStore::DEFAULT, 8, 1);

.mark body
# The kernel's own set-up, once per call (per face): L0 = 0.0, L1 = -2**31.
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0xCF00);
# Eight row groups, recorded on the first face and replayed on the others.
TTI_REPLAY(0, 32, 1, 1);
TTI_SFPLOADMACRO(2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPABS(0, p_sfpu::LREG2, p_sfpu::LREG4, 0);
TTI_SFPSHFT2(p_sfpu::LREG4, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPCAST(p_sfpu::LREG4, p_sfpu::LREG4, 0);
TTI_SFPLOADMACRO(3, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPABS(0, p_sfpu::LREG3, p_sfpu::LREG4, 0);
TTI_SFPSHFT2(p_sfpu::LREG4, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPCAST(p_sfpu::LREG4, p_sfpu::LREG4, 0);
TTI_SFPLOADMACRO(2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPABS(0, p_sfpu::LREG2, p_sfpu::LREG4, 0);
TTI_SFPSHFT2(p_sfpu::LREG4, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPCAST(p_sfpu::LREG4, p_sfpu::LREG4, 0);
TTI_SFPLOADMACRO(3, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPABS(0, p_sfpu::LREG3, p_sfpu::LREG4, 0);
TTI_SFPSHFT2(p_sfpu::LREG4, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPCAST(p_sfpu::LREG4, p_sfpu::LREG4, 0);
TTI_SFPLOADMACRO(2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPABS(0, p_sfpu::LREG2, p_sfpu::LREG4, 0);
TTI_SFPSHFT2(p_sfpu::LREG4, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPCAST(p_sfpu::LREG4, p_sfpu::LREG4, 0);
TTI_SFPLOADMACRO(3, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPABS(0, p_sfpu::LREG3, p_sfpu::LREG4, 0);
TTI_SFPSHFT2(p_sfpu::LREG4, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPCAST(p_sfpu::LREG4, p_sfpu::LREG4, 0);
TTI_SFPLOADMACRO(2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPABS(0, p_sfpu::LREG2, p_sfpu::LREG4, 0);
TTI_SFPSHFT2(p_sfpu::LREG4, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPCAST(p_sfpu::LREG4, p_sfpu::LREG4, 0);
TTI_SFPLOADMACRO(3, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPABS(0, p_sfpu::LREG3, p_sfpu::LREG4, 0);
TTI_SFPSHFT2(p_sfpu::LREG4, p_sfpu::LREG12, p_sfpu::LREG7, 5);
TTI_SFPCAST(p_sfpu::LREG4, p_sfpu::LREG4, 0);
# Five SFPNOPs let the last macro's Round and Store run.
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
# The next face (tt-llk's _llk_math_eltwise_unary_sfpu_params_).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0xCF00);
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0xCF00);
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0xCF00);
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
