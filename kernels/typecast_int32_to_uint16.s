# int32 -> uint16 with SFPLOADMACRO: tt-llk's _calculate_typecast_int32_to_uint16_
# and _init_typecast_int32_to_uint16_ (ckernel_sfpu_typecast.h, default build
# with SFPLOADMACRO), on a 32 x 32 tile of two's complement int32 in Dst32b
# (Fp32 Dst mode); each result is stored as 16 bits (tt-llk's LO16, the
# documentation's UINT16) at the same row and column of the 16-bit view.
#
# The value is clamped to 0..65535: SFPCAST reads the word as sign-magnitude,
# so every negative input becomes a negative float; SFPSWAP with 0.0 turns
# those into +0; SFPSTOCHRND to uint16 saturates above 65535 (its absolute
# value step no longer matters).
#
# Three issue slots per row group: the macro (VD = a, L0 and L1 alternate),
# the thread's SFPCAST and an SFPNOP:
#   0  load   a <- x                       (macro)
#   1  Simple a <- cast(a)                 thread SFPCAST
#   2  Simple a <- max(a, 0.0)             (macro, 1 instruction after the load)
#   3  Simple                              SFPSWAP's second cycle; the next
#                                          macro's load only
#   4  Round  L16 <- uint16(round(a))      (macro, 3 after)
#   5  Store  Dst16b <- L16                (macro, 4 after)
# with the next row group's macro at 3. Delays count issued instructions.

.fp32_dest 1
# The documentation asks for SFPNOP in the MAD slot whenever a macro runs
# SFPSWAP on Simple; tt-llk's sequence leaves MAD empty, so the rule is
# allowed here.
.allow swap-mad-nop
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# Template 0 (backdoor, VD=12): SFPSWAP VC=L9 (0.0), Mod1=0xF: VD gets the
# larger value; under the macro VB and VD are the loaded register.
TTI_SFPSWAP(0, p_sfpu::LCONST_0, 12, 0xF);
# Template 1 (backdoor, VD=13): SFPSTOCHRND FP32 -> uint16, round to nearest.
TTI_SFP_STOCH_RND(0, 0, 0, 0, 13, sfpi::SFPSTOCHRND_MOD1_FP32_TO_UINT16);

# Sequence[0] = 0x635D008C
#   Simple 0x8C: template 0, delay 1, VB := loaded register
#   MAD    0x00: nothing
#   Round  0x5D: template 1, delay 3, result to L16 (VC := loaded register)
#   Store  0x63: SFPSTORE of L16, delay 4
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x008C);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x635D);
TTI_SFPCONFIG(0, 4, 0);
# Misc = 0x106: StoreMod0 = 6 (16-bit store); Simple delays count instructions.
TTI_SFPCONFIG(0x100 | InstrModLoadStore::LO16, 8, 1);

.mark body
# Eight row groups, recorded on the first face and replayed on the others.
TTI_REPLAY(0, 24, 1, 1);
TTI_SFPLOADMACRO(0, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPCAST(p_sfpu::LREG0, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(1, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPCAST(p_sfpu::LREG1, p_sfpu::LREG1, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(0, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPCAST(p_sfpu::LREG0, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(1, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPCAST(p_sfpu::LREG1, p_sfpu::LREG1, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(0, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPCAST(p_sfpu::LREG0, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(1, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPCAST(p_sfpu::LREG1, p_sfpu::LREG1, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(0, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPCAST(p_sfpu::LREG0, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(1, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
TTI_SFPCAST(p_sfpu::LREG1, p_sfpu::LREG1, 0);
TTI_SFPNOP;
# Three SFPNOPs let the last macro's Round and Store run.
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
