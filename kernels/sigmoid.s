# Sigmoid 1/(1 + e^-x) on one 32 x 32 tile of FP32 in Dst: four faces of
# eight 32-lane row groups. Reproduces tt-llk's Wormhole _calculate_sigmoid_
# and _init_sigmoid_ (ckernel_sfpu_sigmoid.h); the kernel has one path,
# whatever APPROXIMATION_MODE is.
#
# SFPLUTFP32 evaluates a six-piece linear fit of sigmoid(|x|) - 1/2 on |x|
# and puts x's sign on the result, which by sigmoid(-x) = 1 - sigmoid(x) is
# sigmoid(x) - 1/2 for either sign; adding 1/2 gives sigmoid(x). The source
# calls SFPI's lut2 with mode 0, which selects the table whose last piece
# starts at 4.0 (FP16_6ENTRY_TABLE2 = 3) with the sign copied from the input
# (SGN_RETAIN = 4): Mod1 = 7. The pieces, A*|x| + B with A and B as the
# LReg halves hold them (FP16-like, decoded by SFPLUTFP32):
#   [0, 0.5)    0.24524 |x| - 0.00049973     A = L0 low,  B = L4 low
#   [0.5, 1)    0.21729 |x| + 0.015198       A = L0 high, B = L4 high
#   [1, 1.5)    0.17310 |x| + 0.059875       A = L1 low,  B = L5 low
#   [1.5, 2)    0.12622 |x| + 0.12976        A = L1 high, B = L5 high
#   [2, 4)      0.048492|x| + 0.29980        A = L2 low,  B = L6 low
#   [4, inf)    0       |x| + 0.49976        A = L2 high (0x7C00 reads as 0)
# So sigmoid(+-Inf) is NaN (0 * Inf in the MAD).
#
# tt-llk writes the loop in SFPI, so below is the code a careful compiler
# emits for it: the table's registers are pinned, the input must be in L3
# (SFPLUTFP32 reads it there), and L7 is the only other free register. The
# cycle after SFPLUTFP32 and after SFPADDI may not read their result, and
# nothing else is left to do in it, so each is followed by an SFPNOP:
#   1 SFPLOAD    L3 = x
#   2 SFPLUTFP32 L7 = +-(A*|L3| + B)
#   3 SFPNOP
#   4 SFPADDI    L7 = L7 + 0.5
#   5 SFPNOP
#   6 SFPSTORE   L7
#   7 INCRWC     Dst counter += 2 (dst_reg++)
# 7 cycles a row group, 8 per face, then two SETRWCs to the next face.

.fp32_dest 1

# _init_sigmoid_: the table, each register's low half then its high half.
TTI_SFPLOADI(0, 10, 0x33D9);
TTI_SFPLOADI(0, 8, 0x32F4);
TTI_SFPLOADI(4, 10, 0x9018);
TTI_SFPLOADI(4, 8, 0x23C8);
TTI_SFPLOADI(1, 10, 0x318A);
TTI_SFPLOADI(1, 8, 0x300A);
TTI_SFPLOADI(5, 10, 0x2BAA);
TTI_SFPLOADI(5, 8, 0x3027);
TTI_SFPLOADI(2, 10, 0x2A35);
TTI_SFPLOADI(2, 8, 0x7C00);
TTI_SFPLOADI(6, 10, 0x34CC);
TTI_SFPLOADI(6, 8, 0x37FF);

# SFPLOAD/SFPSTORE use ADDR_MOD_3 with the base set, i.e. slot 7, which the
# SFPU init leaves with no increment: the Dst counter moves only by INCRWC.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
# One row group, recorded into the replay buffer as it runs; tt-llk's loop
# is unrolled eight times, so every row group issues the same 7 words.
TTI_REPLAY(0, 7, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG3, 0, ADDR_MOD_3, 0);
TTI_SFPLUTFP32(p_sfpu::LREG7, 7);
TTI_SFPNOP;
TTI_SFPADDI(0x3F00, p_sfpu::LREG7, 0);
TTI_SFPNOP;
TTI_SFPSTORE(p_sfpu::LREG7, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# The rest of face 0.
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1.
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2.
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3.
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
