# uint16 -> BF16 with SFPLOADMACRO: tt-llk's _calculate_typecast_uint16_to_fp16b_
# and _init_typecast_uint16_to_fp16b_ (ckernel_sfpu_typecast.h, default build
# with SFPLOADMACRO), on a 32 x 32 tile of uint16 in Dst16b. The result goes
# out through the store's default mode, which with Fp32 Dst mode off and a
# BF16 SrcB format is a BF16 store to the same Dst16b row and column.
#
# Per row group one macro does, on the loaded register v (L0 and L1 alternate):
#   T    load   v <- x                     zero-extended 16 bits (LO16)
#   T+1  Simple v <- float(v)              SFPCAST, exact below 2**24
#   T+2  Round  L16 <- bf16(v)             SFPSTOCHRND FP32 -> FP16B: round to
#                                          nearest, ties away from zero
#   T+3  Store  Dst16b <- L16              BF16
# Simple and Round can share a cycle because exactly one of them writes L16.
# One macro per cycle, so one row group per cycle in steady state.

.fp32_dest 0
.srcb_format 5
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# Template 0 (backdoor, VD=12): SFPCAST; under the macro VC and VD are the
# loaded register.
TTI_SFPCAST(0, 12, 0);
# Template 1 (backdoor, VD=13): SFPSTOCHRND FP32 -> BF16 precision, nearest.
TTI_SFP_STOCH_RND(0, 0, 0, 0, 13, sfpi::SFPSTOCHRND_MOD1_FP32_TO_FP16B);

# Sequence[0] = 0x534D0004
#   Simple 0x04: template 0, delay 0 (VC := loaded register)
#   MAD    0x00: nothing
#   Round  0x4D: template 1, delay 1, result to L16 (VC := loaded register)
#   Store  0x53: SFPSTORE of L16, delay 2
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x0004);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x534D);
TTI_SFPCONFIG(0, 4, 0);
# Misc = 0x100: StoreMod0 = 0 (the SrcB-resolved default, BF16 here); the
# Simple delay counts issued instructions.
TTI_SFPCONFIG(0x100 | InstrModLoadStore::DEFAULT, 8, 1);

.mark body
# One face: eight macros back to back, three SFPNOPs so the last one's Round
# and Store are reached.
TTI_REPLAY(0, 13, 1, 1);
TTI_SFPLOADMACRO(0, InstrModLoadStore::LO16, ADDR_MOD_2, 0);
TTI_SFPLOADMACRO(1, InstrModLoadStore::LO16, ADDR_MOD_2, 0);
TTI_SFPLOADMACRO(0, InstrModLoadStore::LO16, ADDR_MOD_2, 0);
TTI_SFPLOADMACRO(1, InstrModLoadStore::LO16, ADDR_MOD_2, 0);
TTI_SFPLOADMACRO(0, InstrModLoadStore::LO16, ADDR_MOD_2, 0);
TTI_SFPLOADMACRO(1, InstrModLoadStore::LO16, ADDR_MOD_2, 0);
TTI_SFPLOADMACRO(0, InstrModLoadStore::LO16, ADDR_MOD_2, 0);
TTI_SFPLOADMACRO(1, InstrModLoadStore::LO16, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
# The next face (tt-llk's _llk_math_eltwise_unary_sfpu_params_).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 13, 0, 0);
TTI_REPLAY(0, 13, 0, 0);
TTI_REPLAY(0, 13, 0, 0);
