# Row sum of one 32 x 32 FP32 tile: tt-llk's Wormhole SFPU reduce,
# _calculate_reduce_<PoolType::SUM, REDUCE_ROW, DataFormat::Float32>(1, 1)
# with _init_reduce_<SUM, Float32> (ckernel_sfpu_reduce.h,
# perform_reduce_row_sum_tile and horizontal_reduce<false>, FP32 load mode).
# The 32 row sums land in tile column 0 (column 0 of faces 0 and 2); the
# other even columns of those faces are overwritten with partial sums.
#
# Eight tile rows per step. L0-L3 take four tile rows: left face even and odd
# columns, right face even and odd columns; L4-L7 the next four rows. Lane
# (j, c) of those four registers holds columns 2c, 2c+1, 16+2c and 17+2c of
# one row, so the recorded chain L2 += L3, L1 += L2, L0 += L1 (and the same
# for L4-L7) leaves in lane column c of L0 the sum of those four columns.
# The eight lane columns are then folded with SFPSHFT2 SHFLSHR1 (mode 4),
# which moves a register one lane column to the right (higher index) within
# each lane row: a copy shifted by 4 is added (lanes 4-7 now hold pair sums),
# then by 2 (lanes 6-7), then by 1 (lane 7 holds the row sum), and SHFLROR1
# (mode 3) rotates lane 7 into lane 0 for the store. The two register
# groups go through this in lock step, so each SFPSHFT2 (result two cycles
# later) is followed by the other group's, and each SFPADD by the other
# group's add, with no SFPNOP. The lanes that the right shifts fill from
# outside the row (and the Wormhole SHFLSHR1 bug fills with stale data) only
# reach lane columns whose partial sums are never used.
# For a row x, in FP32 with one rounding per add:
#   s[c] = x[2c] + (x[2c+1] + (x[16+2c] + x[17+2c]))
#   sum  = ((s7 + s3) + (s5 + s1)) + ((s6 + s2) + (s4 + s0))
# tt-llk issues the loads and stores with TT_ (run-time address) macros from a
# loop; here the loop is unrolled and the instructions issue back to back.

.fp32_dest 1

# _llk_math_eltwise_unary_sfpu_init_: reset LaneConfig; ADDR_MOD_7 (what
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
# Tile rows 0-7 (rows 0-7 of faces 0 and 1).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 2);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 16);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 18);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 4);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 6);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 20);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 22);
TTI_REPLAY(0, 12, 0, 0);
# Phase 1: shift by 4 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 2: shift by 2 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 3: shift by 1 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 4: rotate lane column 7 into lane column 0.
TTI_SFPSHFT2(0, p_sfpu::LREG0, p_sfpu::LREG0, 3);
TTI_SFPSHFT2(0, p_sfpu::LREG4, p_sfpu::LREG4, 3);
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
TTI_SFPSTORE(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 4);

# Tile rows 8-15 (rows 8-15 of faces 0 and 1).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 8);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 10);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 24);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 26);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 12);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 14);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 28);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 30);
TTI_REPLAY(0, 12, 0, 0);
# Phase 1: shift by 4 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 2: shift by 2 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 3: shift by 1 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 4: rotate lane column 7 into lane column 0.
TTI_SFPSHFT2(0, p_sfpu::LREG0, p_sfpu::LREG0, 3);
TTI_SFPSHFT2(0, p_sfpu::LREG4, p_sfpu::LREG4, 3);
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 8);
TTI_SFPSTORE(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 12);

# Tile rows 16-23 (rows 0-7 of faces 2 and 3).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 32);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 34);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 48);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 50);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 36);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 38);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 52);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 54);
TTI_REPLAY(0, 12, 0, 0);
# Phase 1: shift by 4 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 2: shift by 2 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 3: shift by 1 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 4: rotate lane column 7 into lane column 0.
TTI_SFPSHFT2(0, p_sfpu::LREG0, p_sfpu::LREG0, 3);
TTI_SFPSHFT2(0, p_sfpu::LREG4, p_sfpu::LREG4, 3);
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 32);
TTI_SFPSTORE(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 36);

# Tile rows 24-31 (rows 8-15 of faces 2 and 3).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 40);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 42);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 56);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 58);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 44);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 46);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 60);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 62);
TTI_REPLAY(0, 12, 0, 0);
# Phase 1: shift by 4 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 2: shift by 2 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 3: shift by 1 lane columns and add.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPADD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG1, p_sfpu::LREG0, 0);
TTI_SFPADD(p_sfpu::LREG4, p_sfpu::LCONST_1, p_sfpu::LREG5, p_sfpu::LREG4, 0);
# Phase 4: rotate lane column 7 into lane column 0.
TTI_SFPSHFT2(0, p_sfpu::LREG0, p_sfpu::LREG0, 3);
TTI_SFPSHFT2(0, p_sfpu::LREG4, p_sfpu::LREG4, 3);
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 40);
TTI_SFPSTORE(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 44);

