# Approximate reciprocal 1/x on one 32 x 32 tile of FP32 in Dst: four faces
# of eight 32-lane row groups. Reproduces tt-llk's Wormhole
# _calculate_reciprocal_ (ckernel_sfpu_recip.h) with APPROXIMATION_MODE =
# true, which calls _sfpu_reciprocal_<0>: the same algorithm as
# kernels/reciprocal.s with one Newton-Raphson step instead of two (the
# source says max_iter = 0 behaves as 1 for now). See that file for the
# algorithm; the special values come out the same way.
#
# tt-llk writes this in SFPI, so below is the code a careful compiler emits
# for it. One row group:
#    1 SFPLOAD   L0 = x
#    2 SFPMOV    L1 = L0             x is needed again, SFPSETMAN overwrites VD
#    3 SFPSETMAN L1 = -1.0 with L1's mantissa       (nx)
#    4 SFPMAD    L2 = L12*L1 + L13                  (P0*nx + P1)
#    5 SFPNOT    L3 = ~L0
#    6 SFPMAD    L2 = L2*L1 + L14                   (y)
#    7 SFPSETMAN L3 = L3 with mantissa 0
#    8 SFPMAD    L4 = L1*L2 + 1.0                   (t)
#    9 SFPMULI   L3 = 0.5 * L3                      (scale)
#   10 SFPMAD    L2 = L2*L4 + L2                    (y)
#   11 SFPNOP
#   12 SFPMUL    L2 = L2*L3 + 0                     (y * scale)
#   13 SFPNOP
#   14 SFPSETSGN L0 = L2 with L0's sign
#   15 SFPSTORE  L0
#   16 INCRWC    Dst counter += 2 (dst_reg++)
# 16 cycles a row group, 8 per face, then two SETRWCs to the next face.

.fp32_dest 1

# _init_reciprocal_: the quadratic's coefficients (a minimax fit of 1/x on
# [1, 2)) into the programmable constants L12-L14, each built in L0 and
# copied by SFPCONFIG. L11 keeps its reset value -1.0, which SFPI assumes.
TTI_SFPLOADI(0, 0xA, 0x7EBB);            # P0 = 0.3232325017... = 0x3EA57EBB
TTI_SFPLOADI(0, 0x8, 0x3EA5);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, 0xA, 0x2E90);            # P1 = 1.4545459747... = 0x3FBA2E90
TTI_SFPLOADI(0, 0x8, 0x3FBA);
TTI_SFPCONFIG(0, 13, 0);
TTI_SFPLOADI(0, 0xA, 0xC1F2);            # P2 = 2.1212124824... = 0x4007C1F2
TTI_SFPLOADI(0, 0x8, 0x4007);
TTI_SFPCONFIG(0, 14, 0);

# SFPLOAD/SFPSTORE use ADDR_MOD_3 with the base set, i.e. slot 7, which the
# SFPU init leaves with no increment: the Dst counter moves only by INCRWC.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
# One row group, recorded into the replay buffer as it runs; tt-llk's loop
# is unrolled eight times, so every row group issues the same 16 words.
TTI_REPLAY(0, 16, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPSETMAN(0, p_sfpu::LCONST_neg1, p_sfpu::LREG1, 0);
TTI_SFPMAD(p_sfpu::LREG12, p_sfpu::LREG1, p_sfpu::LREG13, p_sfpu::LREG2, 0);
TTI_SFPNOT(0, p_sfpu::LREG0, p_sfpu::LREG3, 0);
TTI_SFPMAD(p_sfpu::LREG2, p_sfpu::LREG1, p_sfpu::LREG14, p_sfpu::LREG2, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG3, p_sfpu::LREG3, 1);
TTI_SFPMAD(p_sfpu::LREG1, p_sfpu::LREG2, p_sfpu::LCONST_1, p_sfpu::LREG4, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG3, 0);
TTI_SFPMAD(p_sfpu::LREG2, p_sfpu::LREG4, p_sfpu::LREG2, p_sfpu::LREG2, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG2, p_sfpu::LREG3, p_sfpu::LCONST_0, p_sfpu::LREG2, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG2, p_sfpu::LREG0, 0);
TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# The rest of face 0.
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1.
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2.
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3.
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_REPLAY(0, 16, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
