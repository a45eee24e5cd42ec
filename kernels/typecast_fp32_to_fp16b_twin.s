# FP32 -> BF16 one instruction at a time, leaving Dst exactly as
# typecast_fp32_to_fp16b.s does. It is tt-llk's DISABLE_SFPLOADMACRO path of
# _calculate_typecast_fp32_to_fp16b_ (load twice; L0 = (x >> 16) & 1; L1 =
# x + 0x7FFF + L0; BF16 store of L1) with one instruction added: the macro
# version also stores the (x >> 16) & 1 word as FP32 at the same address
# before the BF16 store, which changes Dst rows outside the results, so the
# twin does that store too (the source's non-macro path does not).

.fp32_dest 1
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# L12 = 1, L13 = 0x7FFF, as the init sets them.
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_USHORT, 1);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_USHORT, 0x7FFF);
TTI_SFPCONFIG(0, 13, 0);

.mark body
# One row group, recorded once and replayed for the other 31.
TTI_REPLAY(0, 8, 1, 1);
TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPSHFT((-16) & 0xFFF, 0, p_sfpu::LREG0, 1);
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);
TTI_SFPIADD(0, p_sfpu::LREG13, p_sfpu::LREG1, sfpi::SFPIADD_MOD1_CC_NONE);
TTI_SFPIADD(0, p_sfpu::LREG0, p_sfpu::LREG1, sfpi::SFPIADD_MOD1_CC_NONE);
TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::FP16B, ADDR_MOD_2, 0);
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
