# 16-bit unsigned multiply without SFPLOADMACRO: tt-llk's _mul_int_<APPROX, 8>
# built with DISABLE_SFPLOADMACRO (ckernel_sfpu_mul_int.h), over four faces
# (_llk_math_eltwise_binary_sfpu_params_, VectorMode::RC): the low 16 bits of
# a * b. The twin of mul_int.s: a at tile 0, b at tile 1, product over tile 0,
# 16-bit Dst mode, UINT16 loads and stores.
#
# Method (from the source): bytes a = a1*256 + a0, b = b1*256 + b0 converted
# to FP32; lo = a0*b0, hi0 = a0*b1, hi1 = a1*b0 (each below 2^16, exact),
# rounded back to integers by SFP_STOCH_RND (FP32 -> uint16, Mod1 6), then
# lo + ((hi0 + hi1) << 8) in integer arithmetic.
# L12 = 0xFF, L13 = -8 (the shift count for the high bytes).
#
# Twenty instructions per row group; the MADs are two-cycle, but each result
# is first read at least two cycles later, so there are no stalls.

.fp32_dest 0

# ADDR_MOD_7 (ADDR_MOD_3 with the base set) leaves the Dst counter alone;
# ADDR_MOD_6 (ADDR_MOD_2) moves it one row group on, as the binary-SFPU init
# configures it for mul_uint16.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, 2);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

# sfpi's vConstIntPrgm0 = 0xff and vConstIntPrgm1 = -8.
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x00FF);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x0000);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0xFFF8);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0xFFFF);
TTI_SFPCONFIG(0, 13, 0);

.mark body
# Face 0.
# One row group, recorded as it runs, then replayed (the source unrolls it).
TTI_REPLAY(0, 20, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::LO16, ADDR_MOD_3, 0);               # a
TTI_SFPSHFT2(p_sfpu::LREG0, p_sfpu::LREG13, p_sfpu::LREG2, 5);                    # a1 = a >> 8
TTI_SFPCAST(p_sfpu::LREG2, p_sfpu::LREG2, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);                                  # a0 = a & 0xFF
TTI_SFPCAST(p_sfpu::LREG0, p_sfpu::LREG0, 0);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::LO16, ADDR_MOD_3, 64);              # b
TTI_SFPSHFT2(p_sfpu::LREG1, p_sfpu::LREG13, p_sfpu::LREG3, 5);                    # b1 = b >> 8
TTI_SFPCAST(p_sfpu::LREG3, p_sfpu::LREG3, 0);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG1, 0);                                  # b0 = b & 0xFF
TTI_SFPCAST(p_sfpu::LREG1, p_sfpu::LREG1, 0);
TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LREG3, p_sfpu::LCONST_0, p_sfpu::LREG3, 0);     # hi0 = a0*b1
TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);     # lo = a0*b0
TTI_SFPMAD(p_sfpu::LREG2, p_sfpu::LREG1, p_sfpu::LCONST_0, p_sfpu::LREG2, 0);     # hi1 = a1*b0
TTI_SFP_STOCH_RND(0, 0, 0, p_sfpu::LREG0, p_sfpu::LREG0, 6);                      # to integers
TTI_SFP_STOCH_RND(0, 0, 0, p_sfpu::LREG2, p_sfpu::LREG2, 6);
TTI_SFP_STOCH_RND(0, 0, 0, p_sfpu::LREG3, p_sfpu::LREG3, 6);
TTI_SFPIADD(0, p_sfpu::LREG3, p_sfpu::LREG2, sfpi::SFPIADD_MOD1_CC_NONE);          # hi = hi0 + hi1
TTI_SFPSHFT(8, 0, p_sfpu::LREG2, 1);                                               # hi <<= 8
TTI_SFPIADD(0, p_sfpu::LREG2, p_sfpu::LREG0, sfpi::SFPIADD_MOD1_CC_NONE);          # lo += hi
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::LO16, ADDR_MOD_2, 0);               # counter + 2
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1.
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2.
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3.
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_REPLAY(0, 20, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
