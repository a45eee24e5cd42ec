# int32 -> FP32 one instruction at a time: tt-llk's DISABLE_SFPLOADMACRO path
# of _calculate_typecast_int32_to_fp32_, which leaves Dst exactly as
# typecast_int32_to_fp32.s does. Per row group: load v; L1 = |v|; L2 =
# cast(L1); L0 = v's sign with L2's exponent and mantissa; where L1 is still
# negative (v = -2**31) add -2**31 to the -0.0 the cast gave; store as FP32.

.fp32_dest 1
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# Lane predication is switched on once at boot by the firmware (SFPENCC
# Imm2=3, Mod1=EI|RI: flags used for lane enable, every flag set); SFPSETCC
# only masks lanes while that is so.
TTI_SFPENCC(3, 0, 0, 10);

.mark body
# One row group, recorded once and replayed for the other 31.
TTI_REPLAY(0, 8, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPABS(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
TTI_SFPCAST(p_sfpu::LREG1, p_sfpu::LREG2, 0);
TTI_SFPSETSGN(0, p_sfpu::LREG2, p_sfpu::LREG0, 0);
TTI_SFPSETCC(0, p_sfpu::LREG1, 0, sfpi::SFPSETCC_MOD1_LREG_LT0);
TTI_SFPADDI(0xCF00, p_sfpu::LREG0, 0);
TTI_SFPENCC(0, 0, 0, 0);
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
# The next face (tt-llk's _llk_math_eltwise_unary_sfpu_params_).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_REPLAY(0, 8, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
