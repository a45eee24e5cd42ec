# Fast exp without SFPLOADMACRO: the twin of exp_fast.s. It reproduces the
# DISABLE_SFPLOADMACRO branch of tt-llk's FAST_APPROX + CLAMP_NEGATIVE exp
# (ckernel_sfpu_exp.h, _calculate_exponential_ and _init_exponential_ with
# APPROXIMATION_MODE, FAST_APPROX, CLAMP_NEGATIVE all true), on one 32 x 32
# tile of FP32 in Dst, and leaves Dst bit-identical to exp_fast.s.
#
# The source's loop handles one 32-lane row group per iteration, always at
# offset 0, and steps the Dst counter with `dst_reg++` (INCRWC by 2):
#   L0 = x                       SFPLOAD
#   L0 = max(L0, -88.5)          SFPSWAP Mod1 = 9
#   L0 = A*L0 + (B-C)            SFPMAD, A = 256/ln 2, B-C = 32500.818
#   L0 = uint16(round(L0))       SFPSTOCHRND FP32 -> UINT16, round to nearest
#   L0 = L0 << 15                SFPSHFT: the integer lands in FP32's exponent and top mantissa bits
#   x  = L0                      SFPSTORE
# These are the macro kernel's operations, so the results agree bit for bit.
#
# Two points differ from a literal reading of the source:
# - SFPSWAP Mod1 = 9 is outside the named modes; the documentation gives every
#   lane "VD gets the maximum" for 9..15, which is the clamp wanted (VC = L14
#   is read-only, so only L0 changes). SFPSWAP takes two cycles and holds the
#   thread for one more when the next instruction is not SFPNOP, so the MAD
#   that follows waits a cycle (the interlock, not a hazard).
# - The source issues SFPSTOCHRND right after SFPMAD, whose result is not
#   written until the end of the following cycle; nothing in Wormhole stalls
#   for it. We put one SFPNOP between them so that the rounding reads the MAD
#   result, as the macro version (MAD at T+1, round at T+3) does.
#
# Timing, per row group: load, swap, interlock stall, MAD, NOP, round, shift,
# store, INCRWC = 9 cycles; per face 8 x 9 + 2 SETRWCs = 74 cycles; 4 faces =
# 296 cycles for 32 row groups. The last store is followed by one INCRWC and
# two SETRWCs, which the body's cycle count includes.

.fp32_dest 1

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

# ADDR_MOD_7 (ADDR_MOD_3 with the base set) leaves the Dst counter alone; INCRWC steps it.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
# One iteration of the source's loop, recorded into the replay buffer as it
# runs; replaying it is the same instruction stream as the unrolled loop.
TTI_REPLAY(0, 8, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
TTI_SFPSWAP(0, p_sfpu::LREG14, p_sfpu::LREG0, 9);
TTI_SFPMAD(p_sfpu::LREG12, p_sfpu::LREG0, p_sfpu::LREG13, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFP_STOCH_RND(0, 0, 0, p_sfpu::LREG0, p_sfpu::LREG0, 6);
TTI_SFPSHFT(15, p_sfpu::LREG0, p_sfpu::LREG0, 1);
TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# The rest of face 0.
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
# The next face starts 16 rows on from the last face's start (the SETRWCs add
# to Dst_Cr, which the INCRWCs left alone).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1.
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2.
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3.
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
