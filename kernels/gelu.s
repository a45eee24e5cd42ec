# GELU x * Phi(x) on one 32 x 32 tile of FP32 in Dst: four faces of eight
# 32-lane row groups. Reproduces tt-llk's Wormhole _calculate_gelu_ with
# APPROXIMATION_MODE = true (_calculate_gelu_appx_) and _init_gelu_
# (ckernel_sfpu_gelu.h): the path tt-metal's gelu_tile takes by default
# (fast_and_approx = true).
#
# GELU(x) = x/2 + x*(Phi(x) - 1/2), and the second term is an even function
# of x, |x|*(Phi(|x|) - 1/2). SFPLUTFP32 evaluates a six-piece linear fit of
# it on |x|, leaving the result's sign as computed: SFPI's lut2_sign with its
# default mode selects the table whose last piece starts at 3.0
# (FP16_6ENTRY_TABLE1 = 2) without copying the input's sign (SGN_UPDATE = 0),
# so Mod1 = 2. The pieces, A*|x| + B, with A and B as the LReg halves hold
# them (FP16-like, decoded by SFPLUTFP32):
#   [0, 0.5)    0.19275 |x| - 0.00010443     A = L0 low,  B = L4 low
#   [0.5, 1)    0.49390 |x| - 0.16040        A = L0 high, B = L4 high
#   [1, 1.5)    0.61865 |x| - 0.27954        A = L1 low,  B = L5 low
#   [1.5, 2)    0.60986 |x| - 0.26343        A = L1 high, B = L5 high
#   [2, 3)      0.54004 |x| - 0.11938        A = L2 low,  B = L6 low
#   [3, inf)    0.5     |x|                  A = L2 high, B = L6 high (0x7C00 reads as 0)
# (the source's comment gives L4's low half as 0xA3AE = -0.0150, but the
# value it loads is 0x86D8; the loaded value is used here.) The last piece
# makes GELU(x) = relu(x) for |x| >= 3, so GELU(+Inf) = +Inf and
# GELU(-Inf) = -Inf + Inf = NaN.
#
# tt-llk writes the loop in SFPI, so below is the code a careful compiler
# emits for it: the table's registers are pinned, the input must be in L3
# (SFPLUTFP32 reads it there), and L7 is the only other free register, so
# x/2 goes to L7 first and the table's result overwrites x in L3. The cycle
# after SFPLUTFP32 and after SFPADD may not read their result:
#   1 SFPLOAD    L3 = x
#   2 SFPMUL     L7 = L3 * L12 + 0       (L12 = 0.5, vConstFloatPrgm0)
#   3 SFPLUTFP32 L3 = A*|L3| + B
#   4 SFPNOP
#   5 SFPADD     L3 = 1.0 * L7 + L3
#   6 SFPNOP
#   7 SFPSTORE   L3
#   8 INCRWC     Dst counter += 2 (dst_reg++)
# 8 cycles a row group, 8 per face, then two SETRWCs to the next face.

.fp32_dest 1

# _init_gelu_: vConstFloatPrgm0 = 0.5 (a BF16 immediate, copied into L12 by
# SFPCONFIG from L0), then the table, each register's low half, then high.
TTI_SFPLOADI(0, 0, 0x3F00);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, 10, 0x322B);
TTI_SFPLOADI(0, 8, 0x37E7);
TTI_SFPLOADI(4, 10, 0x86D8);
TTI_SFPLOADI(4, 8, 0xB122);
TTI_SFPLOADI(1, 10, 0x38F3);
TTI_SFPLOADI(1, 8, 0x38E1);
TTI_SFPLOADI(5, 10, 0xB479);
TTI_SFPLOADI(5, 8, 0xB437);
TTI_SFPLOADI(2, 10, 0x3852);
TTI_SFPLOADI(2, 8, 0x3800);
TTI_SFPLOADI(6, 10, 0xAFA4);
TTI_SFPLOADI(6, 8, 0x7C00);

# SFPLOAD/SFPSTORE use ADDR_MOD_3 with the base set, i.e. slot 7, which the
# SFPU init leaves with no increment: the Dst counter moves only by INCRWC.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
# One row group, recorded into the replay buffer as it runs; tt-llk's loop
# is unrolled eight times, so every row group issues the same 8 words.
TTI_REPLAY(0, 8, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG3, 0, ADDR_MOD_3, 0);
TTI_SFPMUL(p_sfpu::LREG3, p_sfpu::LREG12, p_sfpu::LCONST_0, p_sfpu::LREG7, 0);
TTI_SFPLUTFP32(p_sfpu::LREG3, 2);
TTI_SFPNOP;
TTI_SFPADD(p_sfpu::LCONST_1, p_sfpu::LREG7, p_sfpu::LREG3, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPSTORE(p_sfpu::LREG3, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# The rest of face 0.
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
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
