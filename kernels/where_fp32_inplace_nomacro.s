# where(c, a, b) on FP32 tiles without SFPLOADMACRO: tt-llk's
# _calculate_where_<APPROX, DataFormat::Float32, 8> built with
# DISABLE_SFPLOADMACRO (ckernel_sfpu_where.h), over four faces
# (_llk_math_eltwise_ternary_sfpu_params_, VectorMode::RC). The result overwrites the condition, tile 0: the twin of where_fp32_inplace.
#
# Dst tiles (64 address units each): c at tile 0, a at tile 1, b at tile 2.
# Raw 32-bit moves (Mod0 INT32); the condition is "the word is zero".
#
# Six instructions per row group, one per cycle:
#   SFPLOAD L0 <- c; SFPLOAD L1 <- a; SFPSETCC flags = (L0 == 0);
#   SFPLOAD L1 <- b (only in flagged lanes); SFPENCC (every flag set again);
#   SFPSTORE L1 -> result, ADDR_MOD_6 moving the counter one row group on.
# Recorded (without running) and replayed eight times per face.

.fp32_dest 1

# The firmware enables lane predication at boot (SFPENCC Imm2=3, Mod1=EI|RI:
# UseLaneFlagsForLaneEnable on, every lane flag set); SFPSETCC only changes
# the flags while it is on, and SFPU kernels take it as given.
TTI_SFPENCC(3, 0, 0, 10);

# ADDR_MOD_7 (ADDR_MOD_3 with the base set) leaves the Dst counter alone;
# ADDR_MOD_6 (ADDR_MOD_2) moves it one row group on, as the ternary-SFPU
# init configures it for where.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, 2);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
TTI_REPLAY(0, 6, 0, 1);
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::INT32, ADDR_MOD_3, 64);
TTI_SFPSETCC(0, p_sfpu::LREG0, 0, sfpi::SFPSETCC_MOD1_LREG_EQ0);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::INT32, ADDR_MOD_3, 128);
TTI_SFPENCC(0, 0, 0, sfpi::SFPENCC_MOD1_EU_R1);
TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
# Face 0: eight row groups, then the params wrapper's move to the next face.
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1: eight row groups, then the params wrapper's move to the next face.
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2: eight row groups, then the params wrapper's move to the next face.
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3: eight row groups, then the params wrapper's move to the next face.
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_REPLAY(0, 6, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
