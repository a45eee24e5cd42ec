# Cumulative sum down the columns of one 32 x 32 FP32 tile: tt-llk's Wormhole
# _calculate_cumsum_<APPROX, ITERATIONS>(first = true) with _cumsum_init_
# (ckernel_sfpu_cumsum.h). Every value is replaced by the sum of itself and
# all values above it in its column.
#
# The tile is walked four tile rows at a time. The four SFPLOADs of a block
# take Dst rows r..r+3 of the even and odd columns of the left face and of the
# right face (all 32 columns of four tile rows); SFPTRANSP then leaves in
# register k of the group the whole of tile row r+k (lane row j = column set
# j). The recorded chain of dependent adds
#     L0 += L7, L1 += L0, L2 += L1, L3 += L2     (entries 0-7)
#     L4 += L3, L5 += L4, L6 += L5, L7 += L6     (entries 8-15)
# adds the running total of the row above to each row in turn; a second
# SFPTRANSP restores Dst order and the block is stored back.
# Blocks alternate between L0-L3 and L4-L7. Because SFPTRANSP turns both
# groups at once, the group not being loaded is turned into row order at the
# same moment, so its last register holds the previous block's last row of
# running totals exactly where the chain reads it (L7 for a block in L0-L3,
# L3 for one in L4-L7). With `first`, L4-L7 start at zero, so the first row
# is 0 + x. Each add is followed by SFPNOP because the next one reads its
# result. In FP32, one rounding per add:
#     out[0] = 0 + x[0],   out[r] = out[r-1] + x[r].
# The kernel is called once for the whole tile (no SETRWC between faces); its
# loads and stores use the default load format, which is FP32 with FP32 Dst.

.fp32_dest 1

# _llk_math_eltwise_unary_sfpu_init_: reset LaneConfig; ADDR_MOD_7 (what
# ADDR_MOD_3 selects once the base is set) without increments.
TTI_SFPCONFIG(0, 0xF, 1);
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

# _cumsum_init_: record the sixteen-entry chain without running it.
# SFPADD(VA, VB, VC, VD): VD = VA * VB + VC, with VA = L10 = 1.0.
TTI_REPLAY(0, 16, 0, 1);
TTI_SFPADD(10, 7, 0, 0, 0);
TTI_SFPNOP;
TTI_SFPADD(10, 0, 1, 1, 0);
TTI_SFPNOP;
TTI_SFPADD(10, 1, 2, 2, 0);
TTI_SFPNOP;
TTI_SFPADD(10, 2, 3, 3, 0);
TTI_SFPNOP;
TTI_SFPADD(10, 3, 4, 4, 0);
TTI_SFPNOP;
TTI_SFPADD(10, 4, 5, 5, 0);
TTI_SFPNOP;
TTI_SFPADD(10, 5, 6, 6, 0);
TTI_SFPNOP;
TTI_SFPADD(10, 6, 7, 7, 0);
TTI_SFPNOP;

.mark body
# first = true: the running totals start at zero (L9 is the constant 0).
TTI_SFPMOV(0, 9, 4, 0);
TTI_SFPMOV(0, 9, 5, 0);
TTI_SFPMOV(0, 9, 6, 0);
TTI_SFPMOV(0, 9, 7, 0);

# Tile rows 0-3 (rows 0-3 of faces 0 and 1), in L0-L3.
TTI_SFPLOAD(0, 0, ADDR_MOD_3, 0);
TTI_SFPLOAD(1, 0, ADDR_MOD_3, 2);
TTI_SFPLOAD(2, 0, ADDR_MOD_3, 16);
TTI_SFPLOAD(3, 0, ADDR_MOD_3, 18);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(0, 0, ADDR_MOD_3, 0);
TTI_SFPSTORE(1, 0, ADDR_MOD_3, 2);
TTI_SFPSTORE(2, 0, ADDR_MOD_3, 16);
TTI_SFPSTORE(3, 0, ADDR_MOD_3, 18);

# Tile rows 4-7 (rows 4-7 of faces 0 and 1), in L4-L7.
TTI_SFPLOAD(4, 0, ADDR_MOD_3, 4);
TTI_SFPLOAD(5, 0, ADDR_MOD_3, 6);
TTI_SFPLOAD(6, 0, ADDR_MOD_3, 20);
TTI_SFPLOAD(7, 0, ADDR_MOD_3, 22);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(4, 0, ADDR_MOD_3, 4);
TTI_SFPSTORE(5, 0, ADDR_MOD_3, 6);
TTI_SFPSTORE(6, 0, ADDR_MOD_3, 20);
TTI_SFPSTORE(7, 0, ADDR_MOD_3, 22);

# Tile rows 8-11 (rows 8-11 of faces 0 and 1), in L0-L3.
TTI_SFPLOAD(0, 0, ADDR_MOD_3, 8);
TTI_SFPLOAD(1, 0, ADDR_MOD_3, 10);
TTI_SFPLOAD(2, 0, ADDR_MOD_3, 24);
TTI_SFPLOAD(3, 0, ADDR_MOD_3, 26);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(0, 0, ADDR_MOD_3, 8);
TTI_SFPSTORE(1, 0, ADDR_MOD_3, 10);
TTI_SFPSTORE(2, 0, ADDR_MOD_3, 24);
TTI_SFPSTORE(3, 0, ADDR_MOD_3, 26);

# Tile rows 12-15 (rows 12-15 of faces 0 and 1), in L4-L7.
TTI_SFPLOAD(4, 0, ADDR_MOD_3, 12);
TTI_SFPLOAD(5, 0, ADDR_MOD_3, 14);
TTI_SFPLOAD(6, 0, ADDR_MOD_3, 28);
TTI_SFPLOAD(7, 0, ADDR_MOD_3, 30);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(4, 0, ADDR_MOD_3, 12);
TTI_SFPSTORE(5, 0, ADDR_MOD_3, 14);
TTI_SFPSTORE(6, 0, ADDR_MOD_3, 28);
TTI_SFPSTORE(7, 0, ADDR_MOD_3, 30);

# Tile rows 16-19 (rows 0-3 of faces 2 and 3), in L0-L3.
TTI_SFPLOAD(0, 0, ADDR_MOD_3, 32);
TTI_SFPLOAD(1, 0, ADDR_MOD_3, 34);
TTI_SFPLOAD(2, 0, ADDR_MOD_3, 48);
TTI_SFPLOAD(3, 0, ADDR_MOD_3, 50);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(0, 0, ADDR_MOD_3, 32);
TTI_SFPSTORE(1, 0, ADDR_MOD_3, 34);
TTI_SFPSTORE(2, 0, ADDR_MOD_3, 48);
TTI_SFPSTORE(3, 0, ADDR_MOD_3, 50);

# Tile rows 20-23 (rows 4-7 of faces 2 and 3), in L4-L7.
TTI_SFPLOAD(4, 0, ADDR_MOD_3, 36);
TTI_SFPLOAD(5, 0, ADDR_MOD_3, 38);
TTI_SFPLOAD(6, 0, ADDR_MOD_3, 52);
TTI_SFPLOAD(7, 0, ADDR_MOD_3, 54);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(4, 0, ADDR_MOD_3, 36);
TTI_SFPSTORE(5, 0, ADDR_MOD_3, 38);
TTI_SFPSTORE(6, 0, ADDR_MOD_3, 52);
TTI_SFPSTORE(7, 0, ADDR_MOD_3, 54);

# Tile rows 24-27 (rows 8-11 of faces 2 and 3), in L0-L3.
TTI_SFPLOAD(0, 0, ADDR_MOD_3, 40);
TTI_SFPLOAD(1, 0, ADDR_MOD_3, 42);
TTI_SFPLOAD(2, 0, ADDR_MOD_3, 56);
TTI_SFPLOAD(3, 0, ADDR_MOD_3, 58);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(0, 0, ADDR_MOD_3, 40);
TTI_SFPSTORE(1, 0, ADDR_MOD_3, 42);
TTI_SFPSTORE(2, 0, ADDR_MOD_3, 56);
TTI_SFPSTORE(3, 0, ADDR_MOD_3, 58);

# Tile rows 28-31 (rows 12-15 of faces 2 and 3), in L4-L7.
TTI_SFPLOAD(4, 0, ADDR_MOD_3, 44);
TTI_SFPLOAD(5, 0, ADDR_MOD_3, 46);
TTI_SFPLOAD(6, 0, ADDR_MOD_3, 60);
TTI_SFPLOAD(7, 0, ADDR_MOD_3, 62);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_REPLAY(8, 8, 0, 0);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(4, 0, ADDR_MOD_3, 44);
TTI_SFPSTORE(5, 0, ADDR_MOD_3, 46);
TTI_SFPSTORE(6, 0, ADDR_MOD_3, 60);
TTI_SFPSTORE(7, 0, ADDR_MOD_3, 62);

