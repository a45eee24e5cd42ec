# exp, tt-llk's non-approximate path: _calculate_exponential_ with
# APPROXIMATION_MODE = false (SCALE_EN = false), i.e. for each 32-lane row group
# _calculate_exponential_piecewise_: _sfpu_exp_(|x|), then, where x < 0, the
# reciprocal _sfpu_reciprocal_<2>; init _init_exponential_ for that variant
# (_init_sfpu_reciprocal_). On one 32 x 32 tile of FP32 in Dst.
#
# The source is SFPI C++, so it has no TTI_ lines: this is the instruction
# sequence a careful compiler would emit for it, one row group per iteration
# (the source's loop is not unrolled) with INCRWC (`dst_reg++`) between
# iterations and two SETRWCs after each face of eight.
#
# The algorithm, with v = |x| and e its unbiased exponent:
#   if e >= 0: v = v / 2^(e+1)                  SFPSETEXP 126: v in [0.5, 1)
#   p = 1 + v (0.863281 + 0.8373 v)             two MADs; 0.8373 is the constant L8
#   if e >= 0: square p e+1 times (at most 8)   exp(v)^(2^(e+1)) = exp(|x|)
#   if x < 0: p = 1/p                           quadratic estimate + two Newton steps
# The reciprocal scales the mantissa m of p into [1, 2) (as -m), starts from
# y = k2 - k1 m + k0 m^2 (L12..L14, set by the init), refines it twice with
# t = 1 - m y, y = y + y t, and applies the scale 2^(127 - E(p)) built from ~p.
#
# Registers: L0 = x, L1 = v then the result, L2 = e, L3 = the Horner term and
# later t, L4 = -m, L5 = y, L6 = the scale. Constants: L8 = 0.8373, L9 = 0,
# L10 = 1, L11 = -1 (reset values), L12..L14 = k0, k1, k2.
#
# Predication: SFPENCC turns it on; SFPSETCC narrows the lanes; each SFPIADD of
# the squaring loop narrows them again to those with e still >= 0 (the
# source's v_and); SFPENCC with no flags argument re-enables every lane.
#
# Schedule: one instruction per cycle, with an SFPNOP wherever the next
# instruction would read a MAD result one cycle after the MAD (its result is
# written at the end of the second cycle); elsewhere independent work fills that
# slot. A row group takes 48 SFPU instructions (5 of them SFPNOPs) and its
# INCRWC: 49 cycles; a face 8 x 49 + 2 SETRWCs = 394; the tile 4 x 394 = 1576
# cycles, 49.25 per row group. Every lane runs every instruction, masked or not,
# so the time does not depend on the data.
#
# The loop body has 49 instructions and the replay buffer 32 entries: the
# first 32 are recorded while row group 0 runs and replayed for every other row
# group; the last 17 are written out each time.

.fp32_dest 1

# Init: the reciprocal's quadratic, k0 = 0.32323250 (L12), k1 = 1.4545460 (L13),
# k2 = 2.1212125 (L14), each built in L0 and copied to every lane by SFPCONFIG.
TTI_SFPLOADI(0, SFPLOADI_MOD0_LOWER, 0x7EBB);
TTI_SFPLOADI(0, SFPLOADI_MOD0_UPPER, 0x3EA5);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, SFPLOADI_MOD0_LOWER, 0x2E90);
TTI_SFPLOADI(0, SFPLOADI_MOD0_UPPER, 0x3FBA);
TTI_SFPCONFIG(0, 13, 0);
TTI_SFPLOADI(0, SFPLOADI_MOD0_LOWER, 0xC1F2);
TTI_SFPLOADI(0, SFPLOADI_MOD0_UPPER, 0x4007);
TTI_SFPCONFIG(0, 14, 0);

# ADDR_MOD_7 (ADDR_MOD_3 with the base set) leaves the Dst counter alone; INCRWC steps it.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
# Row group 0. Its first 32 instructions are recorded into the replay
# buffer as they run; the other 17 are written out for every row group.
TTI_REPLAY(0, 32, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);                                                       # L0 = x
TTI_SFPSETSGN(0, p_sfpu::LREG0, p_sfpu::LREG1, SFPSETSGN_MOD1_ARG_IMM);                             # L1 = v = |x|
TTI_SFPEXEXP(0, p_sfpu::LREG1, p_sfpu::LREG2, 0);                                                   # L2 = e, v's unbiased exponent
TTI_SFPLOADI(p_sfpu::LREG3, SFPLOADI_MOD0_FLOATB, 0x3F5D);                                          # L3 = 0.863281 (bf16)
TTI_SFPENCC(SFPENCC_IMM2_E, 0, 0, SFPENCC_MOD1_EI);                                                 # predication on, every lane enabled
TTI_SFPSETCC(0, p_sfpu::LREG2, 0, SFPSETCC_MOD1_LREG_GTE0);                                         # lanes with e >= 0 (v >= 1)
TTI_SFPSETEXP(126, p_sfpu::LREG1, p_sfpu::LREG1, SFPSETEXP_MOD1_ARG_IMM);                           #   v = v / 2^(e+1), in [0.5, 1)
TTI_SFPENCC(0, 0, 0, 0);                                                                            # every lane again
TTI_SFPMAD(p_sfpu::LREG1, p_sfpu::LCONST_0_8373, p_sfpu::LREG3, p_sfpu::LREG3, 0);                  # L3 = 0.8373 v + 0.863281
TTI_SFPNOP;                                                                                         # the MAD's result is not ready yet
TTI_SFPMAD(p_sfpu::LREG1, p_sfpu::LREG3, p_sfpu::LCONST_1, p_sfpu::LREG1, 0);                       # L1 = p = v L3 + 1 ~ exp(v)
TTI_SFPSETCC(0, p_sfpu::LREG2, 0, SFPSETCC_MOD1_LREG_GTE0);                                         # lanes with e >= 0 square e + 1 times
TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);                       #   p = p^2
TTI_SFPIADD(-1 & 0xFFF, p_sfpu::LREG2, p_sfpu::LREG2, SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_GTE0); #   e -= 1; keep lanes with e >= 0
TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);                       #   p = p^2
TTI_SFPIADD(-1 & 0xFFF, p_sfpu::LREG2, p_sfpu::LREG2, SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_GTE0); #   e -= 1; keep lanes with e >= 0
TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);                       #   p = p^2
TTI_SFPIADD(-1 & 0xFFF, p_sfpu::LREG2, p_sfpu::LREG2, SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_GTE0); #   e -= 1; keep lanes with e >= 0
TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);                       #   p = p^2
TTI_SFPIADD(-1 & 0xFFF, p_sfpu::LREG2, p_sfpu::LREG2, SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_GTE0); #   e -= 1; keep lanes with e >= 0
TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);                       #   p = p^2
TTI_SFPIADD(-1 & 0xFFF, p_sfpu::LREG2, p_sfpu::LREG2, SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_GTE0); #   e -= 1; keep lanes with e >= 0
TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);                       #   p = p^2
TTI_SFPIADD(-1 & 0xFFF, p_sfpu::LREG2, p_sfpu::LREG2, SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_GTE0); #   e -= 1; keep lanes with e >= 0
TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);                       #   p = p^2
TTI_SFPIADD(-1 & 0xFFF, p_sfpu::LREG2, p_sfpu::LREG2, SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_GTE0); #   e -= 1; keep lanes with e >= 0
TTI_SFPMUL(p_sfpu::LREG1, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG1, 0);                       #   p = p^2
TTI_SFPENCC(0, 0, 0, 0);                                                                            # every lane again
TTI_SFPSETCC(0, p_sfpu::LREG0, 0, SFPSETCC_MOD1_LREG_LT0);                                          # lanes with x < 0 take 1/p:
TTI_SFPMOV(0, p_sfpu::LREG1, p_sfpu::LREG4, 0);                                                     #   L4 = p
TTI_SFPSETMAN(0, p_sfpu::LCONST_neg1, p_sfpu::LREG4, 0);                                            #   L4 = -m: -1.0 with p's mantissa, in (-2, -1]
TTI_SFPMAD(p_sfpu::LREG12, p_sfpu::LREG4, p_sfpu::LREG13, p_sfpu::LREG5, 0);                        #   L5 = y = k1 + k0 (-m)
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);                                                     #   L6 = ~p: exponent field 255 - E(p), E = biased exponent
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);                         #   y = k2 + y (-m) ~ 1/m
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);                             #   L6 = s = 2^(128 - E(p)), mantissa cleared
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);                       #   L3 = t = 1 - m y
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);                                                              #   s = s / 2 = 2^(127 - E(p))
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);                          #   y = y + y t (Newton step 1)
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);                       #   t = 1 - m y
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);                          #   y = y + y t (Newton step 2)
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);                       #   y = y s = 1/p
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);                                                  #   L1 = y with p's sign (+)
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);                                                              # predication off
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);                                                      # x = L1
TTI_INCRWC(0, 2, 0, 0);                                                                             # dst_reg++: the next row group
# Row group 1.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 2.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 3.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 4.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 5.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 6.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 7.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1.
# Row group 8.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 9.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 10.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 11.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 12.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 13.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 14.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 15.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2.
# Row group 16.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 17.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 18.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 19.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 20.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 21.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 22.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 23.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3.
# Row group 24.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 25.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 26.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 27.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 28.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 29.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 30.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
# Row group 31.
TTI_REPLAY(0, 32, 0, 0);
TTI_SFPNOT(0, p_sfpu::LREG1, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG4, p_sfpu::LREG14, p_sfpu::LREG5, 0);
TTI_SFPSETMAN(0, p_sfpu::LREG6, p_sfpu::LREG6, SFPSETMAN_MOD1_ARG_IMM);
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPMULI(0x3F00, p_sfpu::LREG6, 0);
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG4, p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG3, 0);
TTI_SFPNOP;
TTI_SFPMAD(p_sfpu::LREG5, p_sfpu::LREG3, p_sfpu::LREG5, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPMUL(p_sfpu::LREG5, p_sfpu::LREG6, p_sfpu::LCONST_0, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPSETSGN(0, p_sfpu::LREG5, p_sfpu::LREG1, 0);
TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 0);
TTI_INCRWC(0, 2, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
