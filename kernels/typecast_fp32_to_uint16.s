# FP32 -> uint16 with SFPLOADMACRO: tt-llk's _calculate_typecast_fp32_to_uint16_
# and _init_typecast_fp32_to_uint16_ (ckernel_sfpu_typecast.h, the default
# build, i.e. without DISABLE_SFPLOADMACRO), on a 32 x 32 tile of FP32 in Dst
# (Fp32 Dst mode). Each result is stored as 16 bits (tt-llk's LO16, the
# documentation's UINT16 store mode), so the outputs sit in Dst16b at the same
# row and column as each input's Dst32b datum.
#
# Per row group one macro does, on the loaded register v (L0 and L1 alternate):
#   load   v <- x                          FP32
#   Simple v <- max(v, 0.0)                SFPSWAP against L9 (0.0): negatives,
#                                          -0, -Inf and -NaN become +0
#   Round  L16 <- uint16(round(v))         SFPSTOCHRND, ties away from zero,
#                                          saturating at 65535 (also +Inf, +NaN)
#   Store  Dst16b <- L16
# The Simple delay counts issued instructions (Misc bit 8), so the SWAP runs
# the cycle after the SFPNOP that follows each macro, which also gives SFPSWAP
# its second cycle. Round and Store follow two and three instructions later,
# when the next macro's load and SFPNOP have been issued. Two issue slots per
# row group: 2 cycles per row.

.fp32_dest 1
# The documentation asks for SFPNOP in the MAD slot whenever a macro runs
# SFPSWAP on Simple; tt-llk's sequence leaves MAD empty (as in its exp kernel)
# and the kernel is in production use, so the rule is allowed here.
.allow swap-mad-nop
# tt-llk's typecast init: ADDR_MOD_7 (ADDR_MOD_3 with the base set) leaves the
# Dst counter alone; ADDR_MOD_6 (ADDR_MOD_2 with the base set) moves it on by
# one row group (2) after each load or store that names it.
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# Template 0 (backdoor, VD=12): SFPSWAP VC=L9 (0.0), Mod1=0xF: VD gets the
# larger of the two in sign-magnitude order. Under the macro VB and VD become
# the loaded register, so it computes max(v, 0.0) in place.
TTI_SFPSWAP(0, p_sfpu::LCONST_0, 12, 0xF);
# Template 1 (backdoor, VD=13): SFPSTOCHRND FP32 -> uint16, round to nearest.
TTI_SFP_STOCH_RND(0, 0, 0, 0, 13, sfpi::SFPSTOCHRND_MOD1_FP32_TO_UINT16);

# Sequence[0] = 0x5B550084
#   Simple 0x84: template 0, delay 0, VB := loaded register
#   MAD    0x00: nothing
#   Round  0x55: template 1, delay 2, result to L16 (VC := loaded register)
#   Store  0x5B: SFPSTORE of L16, delay 3
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x0084);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x5B55);
TTI_SFPCONFIG(0, 4, 0);
# Misc = 0x106: StoreMod0 = 6 (16-bit store), macro 0 stores with StoreMod0,
# the Simple sub-unit's delays count issued instructions; while such an entry
# is pending, every pending entry counts instructions.
TTI_SFPCONFIG(0x100 | InstrModLoadStore::LO16, 8, 1);

.mark body
# One face: eight macros, each followed by an SFPNOP; three SFPNOPs let the
# last macro finish; two SETRWCs move to the next face (tt-llk's
# _llk_math_eltwise_unary_sfpu_params_). Recorded once, replayed three times.
TTI_REPLAY(0, 21, 1, 1);
TTI_SFPLOADMACRO(0, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(1, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(0, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(1, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(0, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(1, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(0, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(1, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 21, 0, 0);
TTI_REPLAY(0, 21, 0, 0);
TTI_REPLAY(0, 21, 0, 0);
