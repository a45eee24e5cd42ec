# Integer addition of two tiles: tt-llk's _add_int_ (ckernel_sfpu_add_int.h)
# with INSTRUCTION_MODE = INT32 and SIGN_MAGNITUDE_FORMAT = false, run by
# _llk_math_eltwise_binary_sfpu_params_ over all four faces (VectorMode::RC).
#
# Dst holds two's complement int32 (FP32 Dst mode), so a plain INT32 load
# gives SFPIADD the operand it wants and the sum wraps modulo 2^32 like
# numpy's int32 addition. The operands are tile 0 (address 0) and tile 1
# (address 64, one tile is 64 address units); the sum overwrites tile 0, as
# a binary op that reuses its first input's Dst slot does.
#
# Each 32-lane row group takes five issue slots, with no stalls:
#   SFPLOAD a, SFPLOAD b, SFPIADD (one cycle: reads both loads, which landed
#   at the end of their cycles), SFPSTORE, and the INCRWC of `dst_reg++`.
# The source unrolls the eight row groups of a face; here one row group is
# recorded into the replay buffer and replayed, which gives the SFPU the same
# instruction stream.

.fp32_dest 1

# ADDR_MOD_7 (ADDR_MOD_3 with the base set) leaves the Dst counter alone:
# INCRWC moves it by one row group, SETRWC by a face.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
# Face 0, row group 0, recorded while it runs.
TTI_REPLAY(0, 5, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_3, 0);       # a, tile 0
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::INT32, ADDR_MOD_3, 64);      # b, tile 1
TTI_SFPIADD(0, p_sfpu::LREG1, p_sfpu::LREG0, 4);                           # L0 = L1 + L0, flags untouched
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_3, 0);      # into tile 0
TTI_INCRWC(0, 2, 0, 0);                                                    # next row group
# Row groups 1-7 of face 0.
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
# The params wrapper moves the counter to the next face (16 rows on).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1.
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2.
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3.
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_REPLAY(0, 5, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
