# Column maximum of one 32 x 32 FP32 tile: tt-llk's Wormhole SFPU reduce,
# _calculate_reduce_<PoolType::MAX, REDUCE_COL, DataFormat::Float32>(1, 1)
# with _init_reduce_<MAX, Float32>(1) (ckernel_sfpu_reduce.h,
# calculate_reduce_max_min and init_reduce_max_min, FP32 load mode).
# The 32 column maxima land in tile row 0 (Dst row 0 of faces 0 and 1); the
# other three rows of those row groups receive partial maxima.
#
# L4-L7 are running maxima for the four row groups of Dst rows 0-3: left
# face even / odd columns (L4 / L5) and right face even / odd (L6 / L7), so
# lane row j of each holds the maximum so far over tile rows = j (mod 4).
# Each step moves the Dst counter 4 rows down (INCRWC) and folds the next four
# rows of all 32 columns into them with four compare-and-swaps (SFPSWAP with
# VEC_MIN_MAX: VD gets the minimum, VC the maximum):
#   SFPLOADMACRO 1: L1 <- left odd,  its macro runs SWAP(VD=L1, VC=L5) next cycle
#   SFPLOAD L0 <- right even, SFPLOAD L1 <- right odd
#   SFPSWAP(VD=L1, VC=L7), SFPSWAP(VD=L0, VC=L6)
#   SFPLOADMACRO 0: L0 <- left even, its macro runs SWAP(VD=L0, VC=L4) next cycle
# These seven are recorded once (without running) with two dummy SFPLOADs
# after them: into L8 (a write that is dropped) with ADDR_MOD_6, which moves
# the counter 16 rows on from face 0/1 to face 2/3, and with ADDR_MOD_5,
# which skips the other tiles of a wider block (0 rows for one tile).
# Replaying 7, 7, 8 then 7, 7, 7, 9 entries covers rows 4-15 of faces 0/1 and
# rows 0-15 of faces 2/3. The Dst counter is then reset, and the four partial
# maxima of each column are combined: SFPTRANSP brings them into L4-L7 of one
# lane row, three SWAPs leave the maximum in L4, SFPTRANSP takes it back to
# lane row 0 of L4-L7, and four SFPSTOREs write them over Dst rows 0-3.
#
# A thread-issued SFPSWAP takes two cycles and the thread may only issue
# SFPNOP in the second: anything else stalls a cycle (the model interlocks).
# The macro-scheduled SWAPs have no SFPNOP in the MAD slot, which the
# documentation asks for; tt-llk's sequences (0x84, 0x85) schedule only the
# Simple sub-unit.

.fp32_dest 1
# tt-llk's macro sequences schedule the SWAP without an SFPNOP in the MAD slot.
.allow swap-mad-nop
# The SFPLOAD of L1 right after macro 1 lands in the cycle in which the
# macro's SWAP writes its minimum back into L1 (in the lanes where it swaps).
# Only the SWAP's maximum (into L5) is wanted; the kernel needs the freshly
# loaded L1 for the SWAP with L7 two cycles later, and is correct only if the
# load's write survives, which is what the model keeps (the younger write).
.allow write-conflict

# _llk_math_eltwise_unary_sfpu_init_: reset LaneConfig; ADDR_MOD_7 (what
# ADDR_MOD_3 selects once the base is set) without increments.
TTI_SFPCONFIG(0, 0xF, 1);
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

# init_reduce_max_min<FP32, MAX>(1)
TTI_SFPCONFIG(0, 0xF, 1);
# Template 0 by the backdoor (VD = 12): SFPSWAP VC=L4, Mod1=1.
TTI_SFPSWAP(0, p_sfpu::LREG4, (0xC | p_sfpu::LREG0), 1);
# Sequence[0] = 0x84: Simple runs template 0 at delay 0 with VD := the
# loaded register, read through VB (bit 7).
TTI_SFPLOADI(0, 0xA, 0x0084);
TTI_SFPLOADI(0, 0x8, 0x0000);
TTI_SFPCONFIG(0, 4, 0);
# Template 1 (VD = 13): SFPSWAP VC=L5, Mod1=1; Sequence[1] = 0x85 the same way.
TTI_SFPSWAP(0, p_sfpu::LREG5, (0xD | p_sfpu::LREG4), 1);
TTI_SFPLOADI(0, 0xA, 0x0085);
TTI_SFPLOADI(0, 0x8, 0x0000);
TTI_SFPCONFIG(0, 5, 0);
# configure_addrmod_max_min(1): ADDR_MOD_6 moves Dst 16 rows, ADDR_MOD_5 by
# (tiles across - 1) * 64 = 0.
TTI_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, 16);
TTI_SETC16(ADDR_MOD_AB_SEC5_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC5_DestIncr_ADDR32, 0);
# The nine-entry recording (not run now).
TTI_REPLAY(0, 9, 0, 1);
TTI_INCRWC(0, 4, 0, 0);
TTI_SFPLOADMACRO(5, InstrModLoadStore::FP32, ADDR_MOD_3, 2);
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 16);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_3, 18);
TTI_SFPSWAP(0, p_sfpu::LREG7, p_sfpu::LREG1, 1);
TTI_SFPSWAP(0, p_sfpu::LREG6, p_sfpu::LREG0, 1);
TTI_SFPLOADMACRO(0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
# tt-llk passes ADDR_MOD_6 and ADDR_MOD_5 to the two-bit field; the bit above
# it lands in Mod0, which FP32 (3) already has set, so the words are the same.
TTI_SFPLOAD(8, InstrModLoadStore::FP32, ADDR_MOD_6 & 3, 0);
TTI_SFPLOAD(8, InstrModLoadStore::FP32, ADDR_MOD_5 & 3, 0);

.mark body
# Rows 0-3 of faces 0 and 1 start the running maxima.
TTI_SFPLOAD(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
TTI_SFPLOAD(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 2);
TTI_SFPLOAD(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 16);
TTI_SFPLOAD(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 18);
# Rows 4-15 of faces 0 and 1, then on to faces 2 and 3.
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
# Rows 0-15 of faces 2 and 3.
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 7, 0, 0);
TTI_REPLAY(0, 9, 0, 0);
# Back to the tile's first row.
TTI_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D);
# Combine the four partial maxima of each column and store them in row 0.
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSWAP(0, p_sfpu::LREG6, p_sfpu::LREG7, 1);
TTI_SFPSWAP(0, p_sfpu::LREG5, p_sfpu::LREG6, 1);
TTI_SFPSWAP(0, p_sfpu::LREG4, p_sfpu::LREG5, 1);
TTI_SFPTRANSP(0, 0, 0, 0);
TTI_SFPSTORE(p_sfpu::LREG4, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
TTI_SFPSTORE(p_sfpu::LREG5, InstrModLoadStore::FP32, ADDR_MOD_3, 2);
TTI_SFPSTORE(p_sfpu::LREG6, InstrModLoadStore::FP32, ADDR_MOD_3, 16);
TTI_SFPSTORE(p_sfpu::LREG7, InstrModLoadStore::FP32, ADDR_MOD_3, 18);
