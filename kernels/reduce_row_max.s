# Row maximum of one 32 x 32 FP32 tile: tt-llk's Wormhole SFPU reduce,
# _calculate_reduce_<PoolType::MAX, REDUCE_ROW, DataFormat::Float32>(1, 1)
# with _init_reduce_<MAX, Float32>(1) (ckernel_sfpu_reduce.h,
# perform_reduce_row_max_tile, record_horizontal_reduce_max and
# horizontal_reduce_max, FP32 load mode). The 32 row maxima land in tile
# column 0 (column 0 of faces 0 and 2); the other even columns of those faces
# are overwritten with partial maxima.
#
# Eight tile rows per step, laid out as in the row sum: L0-L3 hold four rows
# (left face even / odd columns, right face even / odd columns), L4-L7 the
# next four. SFPSWAP with VEC_MIN_MAX leaves the maximum in its VC register:
# six of them reduce each group to L0 (L4), lane column c holding the maximum
# of columns 2c, 2c+1, 16+2c and 17+2c. The eight lane columns are then folded
# as in the row sum (SFPSHFT2 SHFLSHR1 by 4, 2 and 1 lane columns, an SFPSWAP
# keeping the maximum after each, SHFLROR1 to move lane 7 to lane 0); phase 1
# is issued inline and phases 2-4 (16 instructions) come from the replay
# buffer, recorded at the start of the call. Lanes that the right shifts fill
# from outside the row are never used.
# A thread-issued SFPSWAP takes two cycles and the thread may only issue
# SFPNOP in the second; tt-llk issues the next instruction anyway, so every
# SFPSWAP here costs a stall cycle (the model interlocks as the hardware does).
# tt-llk issues the loads and stores with TT_ (run-time address) macros from a
# loop; here the loop is unrolled and the instructions issue back to back.

.fp32_dest 1

# _llk_math_eltwise_unary_sfpu_init_: reset LaneConfig; ADDR_MOD_7 (what
# ADDR_MOD_3 selects once the base is set) without increments.
TTI_SFPCONFIG(0, 0xF, 1);
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

# init_reduce_max_min<FP32, MAX>(1) is the same init as for the column
# maximum; the row path uses none of it (its macros, address modes and
# recording are replaced or unused), but it is what _init_reduce_ runs.
TTI_SFPCONFIG(0, 0xF, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, (0xC | p_sfpu::LREG0), 1);
TTI_SFPLOADI(0, 0xA, 0x0084);
TTI_SFPLOADI(0, 0x8, 0x0000);
TTI_SFPCONFIG(0, 4, 0);
TTI_SFPSWAP(0, p_sfpu::LREG5, (0xD | p_sfpu::LREG4), 1);
TTI_SFPLOADI(0, 0xA, 0x0085);
TTI_SFPLOADI(0, 0x8, 0x0000);
TTI_SFPCONFIG(0, 5, 0);
TTI_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, 16);
TTI_SETC16(ADDR_MOD_AB_SEC5_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC5_DestIncr_ADDR32, 0);
TTI_REPLAY(0, 9, 0, 1);
TTI_INCRWC(0, 4, 0, 0);
TTI_SFPLOADMACRO(5, InstrModLoadStore::FP32, ADDR_MOD_3, 2);
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 16);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 18);
TTI_SFPSWAP(0, p_sfpu::LREG7, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG6, p_sfpu::LREG0, 1);
TTI_SFPLOADMACRO(0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
TTI_SFPLOAD(8, InstrModLoadStore::FP32, ADDR_MOD_6 & 3, 0);
TTI_SFPLOAD(8, InstrModLoadStore::FP32, ADDR_MOD_5 & 3, 0);

.mark body
# record_horizontal_reduce_max: phases 2-4 of the fold, recorded without
# running (no cycles).
TTI_REPLAY(0, 16, 0, 1);
# Phase 2: shift by 2 lane columns, keep the maximum.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phase 3: shift by 1 lane column, keep the maximum.
TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPMOV(0, p_sfpu::LREG4, p_sfpu::LREG5, 0);
TTI_SFPSHFT2(0, p_sfpu::LREG1, p_sfpu::LREG1, 4);
TTI_SFPSHFT2(0, p_sfpu::LREG5, p_sfpu::LREG5, 4);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phase 4: rotate lane column 7 into lane column 0.
TTI_SFPSHFT2(0, p_sfpu::LREG0, p_sfpu::LREG0, 3);
TTI_SFPSHFT2(0, p_sfpu::LREG4, p_sfpu::LREG4, 3);

# Tile rows 0-7 (rows 0-7 of faces 0 and 1).
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 2);
TTI_SFPLOAD(p_sfpu::LREG2, InstrModLoadStore::FP32, ADDR_MOD_3, 16);
TTI_SFPLOAD(p_sfpu::LREG3, InstrModLoadStore::FP32, ADDR_MOD_3, 18);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 4);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 6);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 20);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 22);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG6, 1);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, 1);
TTI_SFPSWAP(0, p_sfpu::LREG5, p_sfpu::LREG7, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phase 1 (inline): shift by 4 lane columns and keep the maximum.
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
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phases 2-4 from the replay buffer.
TTI_REPLAY(0, 16, 0, 0);
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
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG6, 1);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, 1);
TTI_SFPSWAP(0, p_sfpu::LREG5, p_sfpu::LREG7, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phase 1 (inline): shift by 4 lane columns and keep the maximum.
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
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phases 2-4 from the replay buffer.
TTI_REPLAY(0, 16, 0, 0);
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
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG6, 1);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, 1);
TTI_SFPSWAP(0, p_sfpu::LREG5, p_sfpu::LREG7, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phase 1 (inline): shift by 4 lane columns and keep the maximum.
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
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phases 2-4 from the replay buffer.
TTI_REPLAY(0, 16, 0, 0);
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
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG6, 1);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, 1);
TTI_SFPSWAP(0, p_sfpu::LREG5, p_sfpu::LREG7, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phase 1 (inline): shift by 4 lane columns and keep the maximum.
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
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
# Phases 2-4 from the replay buffer.
TTI_REPLAY(0, 16, 0, 0);
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 40);
TTI_SFPSTORE(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 44);

