# Fast exp with SFPLOADMACRO: the Wormhole FAST_APPROX + CLAMP_NEGATIVE
# schedule of tt-llk's exp kernel (ckernel_sfpu_exp.h, _calculate_exponential_
# and its init), on one 32 x 32 tile of FP32 in Dst: four faces of 16 rows.
#
# Phase 1, macro 1 (sanitise): load x, SFPSWAP keeps max(x, -88.5) in the
# loaded register, store it back. SFPSWAP holds the Simple sub-unit for two
# cycles, so each macro is followed by an SFPNOP.
# Phase 2, macro 0 (compute), one macro per cycle:
#   T    load   L <- x
#   T+1  MAD    L <- A*L + (B-C)           A = 256/ln 2, B-C = 32500.818
#   T+3  Round  L <- uint16(round(L))
#   T+4  Simple L16 <- L << 15             the bits land in FP32's exponent and mantissa
#   T+5  Store  Dst <- L16
# so in steady state all five sub-units are busy and one 32-lane row group
# completes every cycle.

.fp32_dest 1
# tt-llk's macro 1 schedules SFPSWAP without SFPNOP in the MAD slot, which the
# documentation asks for; the kernel is known to work without it.
.allow swap-mad-nop

# Constants: L14 = -88.5, L12 = A, L13 = B - C, each built in L0 and copied by SFPCONFIG.
TTI_SFPLOADI(0, 0xA, 0x0000);
TTI_SFPLOADI(0, 0x8, 0xC2B1);
TTI_SFPCONFIG(0, 14, 0);
TTI_SFPLOADI(0, 0xA, 0xAA3B);
TTI_SFPLOADI(0, 0x8, 0x43B8);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, 0xA, 0xE9A3);
TTI_SFPLOADI(0, 0x8, 0x46FD);
TTI_SFPCONFIG(0, 13, 0);

# Template 0 through SFPCONFIG: SFPSWAP VD=14 VC=0 Mod1=1 (VD gets the minimum).
TTI_SFPLOADI(0, 0xA, 0x00E1);
TTI_SFPLOADI(0, 0x8, 0x9200);
TTI_SFPCONFIG(0, 0, 0);
TTI_SFPNOP;
# Templates 1-3 through the backdoor (VD = 12 + template index):
TTI_SFPMAD(12, 0, 13, 13, 0);            # template 1: L = L12 * L + L13
TTI_SFP_STOCH_RND(0, 0, 0, 0, 14, 14);   # template 2: FP32 -> uint16, round to nearest
TTI_SFPSHFT(15, 0, 15, 1);               # template 3: shift left by 15

# Sequence[1] = 0x13000004: Simple = template 0 (SWAP) at delay 0;
# Store = SFPSTORE at delay 2 of the loaded register.
TTI_SFPLOADI(0, 0xA, 0x0004);
TTI_SFPLOADI(0, 0x8, 0x1300);
TTI_SFPCONFIG(0, 5, 0);
# Sequence[0] = 0x631685DF: Simple = template 3 at delay 3 into L16, VB := loaded;
# MAD = template 1 at delay 0, VB := loaded; Round = template 2 at delay 2;
# Store = SFPSTORE of L16 at delay 4.
TTI_SFPLOADI(0, 0xA, 0x85DF);
TTI_SFPLOADI(0, 0x8, 0x6316);
TTI_SFPCONFIG(0, 4, 0);
# Misc = 0: stores use StoreMod0 (SRCB), every delay counts cycles.
TTI_SFPCONFIG(0, 8, 1);

# ADDR_MOD_7 (ADDR_MOD_3 with the base set) leaves the Dst counter alone: the
# macros address rows by their offsets, SETRWC moves between faces.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
# One face, recorded into the replay buffer as it runs and replayed for the
# other three (tt-llk unrolls the same stream; the SFPU sees no difference).
TTI_REPLAY(0, 26, 1, 1);
# Phase 1: sanitise. TTI_SFPLOADMACRO((macro << 2) | vd, mod0, addr_mod, offset).
TTI_SFPLOADMACRO(4, 0, 3, 0);
TTI_SFPNOP;
TTI_SFPLOADMACRO(5, 0, 3, 2);
TTI_SFPNOP;
TTI_SFPLOADMACRO(6, 0, 3, 4);
TTI_SFPNOP;
TTI_SFPLOADMACRO(7, 0, 3, 6);
TTI_SFPNOP;
TTI_SFPLOADMACRO(4, 0, 3, 8);
TTI_SFPNOP;
TTI_SFPLOADMACRO(5, 0, 3, 10);
TTI_SFPNOP;
TTI_SFPLOADMACRO(6, 0, 3, 12);
TTI_SFPNOP;
TTI_SFPLOADMACRO(7, 0, 3, 14);
# Phase 2: compute, eight macros back to back.
TTI_SFPLOADMACRO(0, 0, 3, 0);
TTI_SFPLOADMACRO(1, 0, 3, 2);
TTI_SFPLOADMACRO(2, 0, 3, 4);
TTI_SFPLOADMACRO(3, 0, 3, 6);
TTI_SFPLOADMACRO(0, 0, 3, 8);
TTI_SFPLOADMACRO(1, 0, 3, 10);
TTI_SFPLOADMACRO(2, 0, 3, 12);
TTI_SFPLOADMACRO(3, 0, 3, 14);
# Lets the last compute macro finish before the next face's sanitising macros.
TTI_SFPNOP;
# The next face: 16 rows on (tt-llk's _llk_math_eltwise_unary_sfpu_params_).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 26, 0, 0);
TTI_REPLAY(0, 26, 0, 0);
TTI_REPLAY(0, 26, 0, 0);
