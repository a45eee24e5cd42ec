# Column mean of one 32 x 32 FP32 tile: tt-llk's Wormhole SFPU reduce,
# _calculate_reduce_<PoolType::AVG, REDUCE_COL, DataFormat::Float32> with
# _init_reduce_<AVG, Float32> (ckernel_sfpu_reduce.h, float path, FP32 load mode).
# The 32 column means land in tile row 0 (Dst row 0 of faces 0 and 1); the other
# three rows of those row groups are overwritten with partial sums.
#
# Four passes, each covering one quarter of the columns (eight lane columns)
# for all 32 rows: L0-L3 take rows 0-15 of the upper face, L4-L7 rows 16-31
# of the face below it, four Dst rows per register.
#   1. SFPTRANSP turns each group of four registers so that register k holds
#      Dst rows 4j+k in its lane row j; the recorded adds
#      (L2 += L3, L1 += L2, L0 += L1, the same for L4-L7) then leave in lane
#      row j of L0 the sum of rows 4j..4j+3.
#   2. SFPTRANSP back moves those four partial sums into lane row 0 of
#      L0-L3 (and L4-L7); the same recorded adds fold them into lane row 0 of
#      L0 (rows 0-15) and L4 (rows 16-31).
#   3. L0 += L4; L0 *= 1/32 (built in L1 by two SFPLOADIs on every pass,
#      since the adds have overwritten L1); L0 is stored over rows 0-3 of
#      the upper face.
# tt-llk puts an SFPNOP after every SFPADD: within a chain the next add reads
# the result, which an SFPMAD-class instruction has not yet written in the
# following cycle.
# So a column's sum is, in FP32 with one rounding per add:
#   S(a..a+3) = x[a] + (x[a+1] + (x[a+2] + x[a+3]))
#   half(b)   = S(b) + (S(b+4) + (S(b+8) + S(b+12)))
#   sum       = half(0) + half(16)
#   mean      = sum * 2^-5, exact unless it falls below FP32's normal range.
# tt-llk follows the SFPMUL with a Tensix NOP (one idle issue slot, done by
# the Miscellaneous Unit); SFPNOP stands in for it here, with the same timing.
# tt-llk issues the loads and stores with TT_ (run-time address) macros from a
# loop; here the loop is unrolled and the instructions issue back to back.

.fp32_dest 1

# _llk_math_eltwise_unary_sfpu_init_: reset LaneConfig, ADDR_MOD_7 (what
# ADDR_MOD_3 selects once the base is set) without increments.
TTI_SFPCONFIG(0, 0xF, 1);
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

# init_reduce_sum_avg (float): record twelve instructions into the replay
# buffer without running them: three dependent adds down each group of four
# registers, each followed by an SFPNOP.
TTI_SFPCONFIG(0, 0xF, 1);
TTI_REPLAY(0, 12, 0, 1);
TTI_SFPADD(p_sfpu::LREG2, p_sfpu::LCONST_1, p_sfpu::LREG3, p_sfpu::LREG2, 0);
TTI_SFPNOP;
TTI_SFPADD(p_sfpu::LREG1, p_sfpu::LCONST_1, p_sfpu::LREG2, p_sfpu::LREG1, 0);
TTI_SFPNOP;
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPADD(p_sfpu::LREG6, p_sfpu::LCONST_1, p_sfpu::LREG7, p_sfpu::LREG6, 0);
TTI_SFPNOP;
TTI_SFPADD(p_sfpu::LREG5, p_sfpu::LCONST_1, p_sfpu::LREG6, p_sfpu::LREG5, 0);
TTI_SFPNOP;
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
TTI_SFPNOP;

.mark body
# Pass 0: left half, even columns (faces 0 and 2).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 4);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 8);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 12);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 32);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 36);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 40);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 44);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG4, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPLOADI(p_sfpu::LREG1, 8, 0x3D00);
TTI_SFPLOADI(p_sfpu::LREG1, 10, 0x0000);
TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);

# Pass 1: left half, odd columns (faces 0 and 2).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 2);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 6);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 10);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 14);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 34);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 38);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 42);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 46);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG4, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPLOADI(p_sfpu::LREG1, 8, 0x3D00);
TTI_SFPLOADI(p_sfpu::LREG1, 10, 0x0000);
TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 2);

# Pass 2: right half, even columns (faces 1 and 3).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 16);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 20);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 24);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 28);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 48);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 52);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 56);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 60);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG4, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPLOADI(p_sfpu::LREG1, 8, 0x3D00);
TTI_SFPLOADI(p_sfpu::LREG1, 10, 0x0000);
TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 16);

# Pass 3: right half, odd columns (faces 1 and 3).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 18);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 22);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 26);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 30);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 50);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 54);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 58);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 62);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG4, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPLOADI(p_sfpu::LREG1, 8, 0x3D00);
TTI_SFPLOADI(p_sfpu::LREG1, 10, 0x0000);
TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
TTI_SFPNOP;
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 18);

