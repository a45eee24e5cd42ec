# int32 -> FP32 with SFPLOADMACRO: tt-llk's _calculate_typecast_int32_to_fp32_
# and _init_typecast_int32_to_fp32_ (ckernel_sfpu_typecast.h, default build
# with SFPLOADMACRO), on a 32 x 32 tile of two's complement int32 in Dst32b
# (Fp32 Dst mode), each result stored as FP32 over its input.
#
# As in typecast_int32_to_fp16b.s: SFPCAST takes sign-magnitude integers, so
# the kernel casts |v| and restores v's sign; for v = -2**31 (|v| does not
# fit, and casts to -0.0) the sign bit of |v|, moved to L7, makes the MAD add
# L1 = -2**31 instead of L0 = 0.0. Here the MAD writes L16 and the store takes
# it from there, with no rounding step.
#
# Four issue slots per row group: the macro (VD = v, L2 and L3 alternate) and
# three thread instructions on the temporary t = L4:
#   0  load   v <- x                       (macro)
#   1  Simple t <- |v|                     SFPABS, integer
#   2  Round  L7 <- t >> 31                SFPSHFT2 by L12 = -31
#   3  Simple t <- cast(t)                 SFPCAST, ties to even
#   4  Simple v <- setsgn(t, v)            (macro, 3 instructions after the load)
#   5  MAD    L16 <- L[L7] * 1.0 + v       (macro, 4 after)
#   7  Store  Dst32b <- L16                (macro, 6 after)
# with the next row group's macro at 4. Delays count issued instructions.

.fp32_dest 1
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# L12 = -31 (sfpi's vConstIntPrgm0 = -31: sign-extended SFPLOADI into L0,
# SFPCONFIG copies it to L12).
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_SHORT, 0xFFE1);
TTI_SFPCONFIG(0, 12, 0);
# Template 0 (backdoor, VD=12): SFPSETSGN VC=L4 (t); VB and VD := v.
TTI_SFPSETSGN(0, p_sfpu::LREG4, 12, 0);
# Template 1 (backdoor, VD=13): SFPMAD VB=L10 (1.0), indirect VA from L7.
TTI_SFPMAD(0, p_sfpu::LCONST_1, 0, 13, 4);

# Sequence[0] = 0x7300659C
#   Simple 0x9C: template 0, delay 3, VB := loaded register
#   MAD    0x65: template 1, delay 4, result to L16 (VC := loaded register)
#   Round  0x00: nothing
#   Store  0x73: SFPSTORE of L16, delay 6
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x659C);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x7300);
TTI_SFPCONFIG(0, 4, 0);
# Misc = 0x103: StoreMod0 = FP32; Simple delays count instructions.
TTI_SFPCONFIG(0x100 | InstrModLoadStore::FP32, 8, 1);

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
# Four SFPNOPs let the last macro's MAD and Store run.
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
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0xCF00);
TTI_REPLAY(0, 32, 0, 0);
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
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
