# Local sort of top-k: tt-llk's _bitonic_topk_phases_steps<APPROX,
# is_fp32_dest_acc_en = true, STABLE_SORT = false>(idir = ArgMax,
# i_end_phase = 3, i_start_phase = 0) from ckernel_sfpu_topk.h, the first
# step of top-k for k = 16, with the init of topk_local_sort.
#
# Layout (fixed by the source): 64 x 32 FP32 values in two tiles, tile 0 on
# top of tile 1 (Dst addresses 0-127), and a 32-bit integer index for each
# value at the same place two tiles on (addresses 128-255). Every column is
# one sequence of 64. The kernel walks the four quarters of the columns
# (columns 0-15 then 16-31, even then odd ones) by moving the Dst base
# (SETC16 of DEST_TARGET_REG_CFG_MATH_Offset: 0, 2, 16, 18). In each walk a
# "group" is one face, 16 rows x 8 columns, held in L0-L3 (values) and L4-L7
# (indices): L[k] lane 8j + c is row 4k + j of column c. ADDR_MOD_6 on the
# last store moves the counter 32 on, to the next face down the column, so
# four groups cover the 64 rows.
#
# The sort is a bitonic network built from SFPSWAP with index tracking on
# (LaneConfig ENABLE_DEST_INDEX): each swap of values in L0-L3 swaps the
# matching L4-L7 too. Rows 4 apart are compared between registers directly;
# rows 1 or 2 apart after SFPTRANSP has turned grid rows into registers.
# Which direction a comparison sorts in comes from the swap mode (ALL_ROWS,
# ROWS_01, ROWS_02: which grid rows keep the maximum in VC), or, for phase 3,
# from LaneConfig EXCHANGE_SRCB_SRCC, which reverses every swap.
#   phase 0: pairs, alternating up and down      (4 instructions)
#   phase 1: runs of 4, alternating             (6)
#   phase 2: runs of 8, alternating             (9; the unconditional swap
#            turns the second half's descending result into ascending)
#   phase 3: runs of 16: steps 4 and 3, SFPTRANSP, then the same five
#            instructions again for steps 2 and 1; descending in groups 0
#            and 2, ascending in groups 1 and 3.
# After phase 3 rows 0-15 and 32-47 of every column are in descending order,
# rows 16-31 and 48-63 ascending, each value still beside its index.
#
# Replay buffer, as the source lays it out: entries 0-7 the group's loads,
# 8-15 its stores, 16 on the current phase's network, recorded the first
# time each is issued and replayed after that.
#
# Timing: SFPSWAP interlocks (the next instruction waits one cycle), so every
# swap costs two cycles, every other instruction one.

.fp32_dest 1

# _llk_math_eltwise_unary_sfpu_init_<topk_local_sort>: LaneConfig cleared,
# ADDR_MOD_7 (ADDR_MOD_3 with the base set) without increment, ADDR_MOD_6
# (ADDR_MOD_2) moving the Dst counter 32 on.
TTI_SFPCONFIG(0, 0xF, 1);
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, 32);
# _init_topk: LaneConfig = 0x4 in every lane (ENABLE_DEST_INDEX), through L0.
TTI_SFPLOADI(0, 10, 0x0004);
TTI_SFPLOADI(0, 8, 0x0000);
TTI_SFPCONFIG(0, 0xF, 0);
# _llk_math_eltwise_unary_sfpu_start_(0): Dst base 0, ADDR_MOD slots 4-7.
TTI_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
# ---- Columns 0-15, even ones (Dst offset 0) ----
# Phase 0: sorted pairs.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
TTI_SFPLOAD(p_sfpu::LREG1, 0, ADDR_MOD_3, 4);
TTI_SFPLOAD(p_sfpu::LREG2, 0, ADDR_MOD_3, 8);
TTI_SFPLOAD(p_sfpu::LREG3, 0, ADDR_MOD_3, 12);
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::INT32, ADDR_MOD_3, 128);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::INT32, ADDR_MOD_3, 132);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::INT32, ADDR_MOD_3, 136);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::INT32, ADDR_MOD_3, 140);
TTI_REPLAY(16, 4, 1, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG3, p_sfpu::LREG2, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 1, 1);
TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_3, 0);
TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_3, 4);
TTI_SFPSTORE(p_sfpu::LREG2, 0, ADDR_MOD_3, 8);
TTI_SFPSTORE(p_sfpu::LREG3, 0, ADDR_MOD_3, 12);
TTI_SFPSTORE(p_sfpu::LREG4, InstrModLoadStore::INT32, ADDR_MOD_3, 128);
TTI_SFPSTORE(p_sfpu::LREG5, InstrModLoadStore::INT32, ADDR_MOD_3, 132);
TTI_SFPSTORE(p_sfpu::LREG6, InstrModLoadStore::INT32, ADDR_MOD_3, 136);
TTI_SFPSTORE(p_sfpu::LREG7, InstrModLoadStore::INT32, ADDR_MOD_2, 140);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 1: sorted runs of 4.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 1, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ROWS_02_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 2: sorted runs of 8.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::UNCONDITIONALLY);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ROWS_01_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 3: sorted runs of 16.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 5, 1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPCONFIG(0x104, 0xF, 1);     # ascending: swap keeps the minimum in VC
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_SFPCONFIG(0x004, 0xF, 1);     # back to descending
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPCONFIG(0x104, 0xF, 1);     # ascending: swap keeps the minimum in VC
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_SFPCONFIG(0x004, 0xF, 1);     # back to descending
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(8, 8, 0, 0);
TTI_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 2);
# ---- Columns 0-15, odd ones (Dst offset 2) ----
# Phase 0: sorted pairs.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 1, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG3, p_sfpu::LREG2, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 1: sorted runs of 4.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 1, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ROWS_02_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 2: sorted runs of 8.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::UNCONDITIONALLY);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ROWS_01_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 3: sorted runs of 16.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 5, 1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPCONFIG(0x104, 0xF, 1);     # ascending: swap keeps the minimum in VC
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_SFPCONFIG(0x004, 0xF, 1);     # back to descending
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPCONFIG(0x104, 0xF, 1);     # ascending: swap keeps the minimum in VC
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_SFPCONFIG(0x004, 0xF, 1);     # back to descending
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(8, 8, 0, 0);
TTI_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 4);
TTI_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 16);
# ---- Columns 16-31, even ones (Dst offset 16) ----
# Phase 0: sorted pairs.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 1, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG3, p_sfpu::LREG2, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 1: sorted runs of 4.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 1, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ROWS_02_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 2: sorted runs of 8.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::UNCONDITIONALLY);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ROWS_01_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 3: sorted runs of 16.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 5, 1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPCONFIG(0x104, 0xF, 1);     # ascending: swap keeps the minimum in VC
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_SFPCONFIG(0x004, 0xF, 1);     # back to descending
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPCONFIG(0x104, 0xF, 1);     # ascending: swap keeps the minimum in VC
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_SFPCONFIG(0x004, 0xF, 1);     # back to descending
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(8, 8, 0, 0);
TTI_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 18);
# ---- Columns 16-31, odd ones (Dst offset 18) ----
# Phase 0: sorted pairs.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 1, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG3, p_sfpu::LREG2, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 4, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 1: sorted runs of 4.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 1, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_02_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ROWS_02_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 6, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 2: sorted runs of 8.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::UNCONDITIONALLY);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ROWS_01_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ROWS_01_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 9, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
# Phase 3: sorted runs of 16.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 5, 1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG2, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG3, p_sfpswap::ALL_ROWS_MAX);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPCONFIG(0x104, 0xF, 1);     # ascending: swap keeps the minimum in VC
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_SFPCONFIG(0x004, 0xF, 1);     # back to descending
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPCONFIG(0x104, 0xF, 1);     # ascending: swap keeps the minimum in VC
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(16, 5, 0, 0);
TTI_REPLAY(16, 5, 0, 0);
TTI_SFPCONFIG(0x004, 0xF, 1);     # back to descending
TTI_SFPNOP;
TTI_SFPNOP;
TTI_REPLAY(8, 8, 0, 0);
TTI_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 20);
TTI_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 16);
