# 16-bit unsigned multiply with SFPLOADMACRO: tt-llk's _mul_int_<APPROX, 8>
# (ckernel_sfpu_mul_int.h) and _init_mul_int_, run over four faces by
# _llk_math_eltwise_binary_sfpu_params_ (VectorMode::RC). The result is the
# low 16 bits of a * b (uint16 wrapping).
#
# 16-bit Dst mode; a at tile 0, b at tile 1 (64 address units each), the
# product written over tile 0. Loads and stores are UINT16 (tt-llk's LO16).
#
# Method (from the source): split a = a1 * 256 + a0 and b = b1 * 256 + b0
# into bytes, convert them to FP32 (exact) and form with the FMA
#   hi = a0*b1 + 2^23 + a1*b0,   lo = a0*b0 + 2^23.
# Every partial product is below 2^16 and their sums below 2^18, so both are
# exact, and adding 2^23 puts the integer straight into the mantissa field,
# where SFPEXMAN (PAD9: mantissa bits only) reads it out. The product mod 2^16
# is then lo + (hi << 8); a1*b1 only affects bits 16 and up.
#
# Registers: a0 = L0, b0 = L1, a1 = L2, b1 = L3, out = L4, tmp = L5;
# L12 = 0xFF (byte mask), L13 = 2^23 as FP32.
# Templates (written through VD 12-15):
#   0: SFPSHFT2 SHFT_IMM by -8 (a logical right shift by 8: the high byte)
#   1: SFPCAST int32 -> FP32
#   2: SFPSHFT2 SHFT_IMM by 8
#   3: SFPIADD VD = tmp + VD, flags untouched
# Every delay counts thread instructions (Misc UnitDelayKind all 1), and
# every macro stores with its own Mod0 (UINT16).
#
# One row group is twelve instructions, each one cycle:
#   t0  macro 0 loads b into b1: Round shifts it right 8 (t1), Simple casts (t2)
#   t1  macro 1 loads a into a0: Simple casts at t5, after the AND below
#   t2  macro 1 loads b into b0: Simple casts at t6
#   t3  SFPAND a0 &= 0xFF        t4  SFPAND b0 &= 0xFF
#   t5  macro 2 loads a into a1: Round shifts right 8 (t7), Simple casts (t8)
#   t6  macro 3 loads (the out row) into out: Round shifts out left 8, Simple
#       forms L16 = tmp + out and Store writes L16, in the next row group's
#       cycles 0, 1 and 2, once the EXMANs below have filled tmp and out
#   t7  b1 = a0*b1 + 2^23        t8  a0 = a0*b0 + 2^23      t9  b1 += a1*b0
#   t10 tmp = mantissa(a0)       t11 out = mantissa(b1)
# The three SFPNOPs after each face's eight row groups let the last macro's
# instructions count down and run.

.fp32_dest 0

# ADDR_MOD_7 (ADDR_MOD_3 with the base set) leaves the Dst counter alone;
# ADDR_MOD_6 (ADDR_MOD_2) moves it one row group on, as the binary-SFPU init
# configures it for mul_uint16.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_AB_SEC6_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC6_DestIncr_ADDR32, 2);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

# Constants as sfpi's vConstIntPrgm0 = 0xff and vConstFloatPrgm1 = 8388608.0f
# compile: the 32-bit value built in L0, copied by SFPCONFIG.
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x00FF);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x0000);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x0000);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x4B00);
TTI_SFPCONFIG(0, 13, 0);

# Templates 0-3.
TTI_SFPSHFT2(-8 & 0xfff, 0, 12, 6);
TTI_SFPCAST(0, 13, 0);
TTI_SFPSHFT2(8, 0, 14, 6);
TTI_SFPIADD(0, p_sfpu::LREG5, 15, sfpi::SFPIADD_MOD1_CC_NONE);

# Sequence[0] = 0x0084000D: Simple = template 1 at delay 1; Round = template 0
# at delay 0 with VB := the loaded register.
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x000D);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x0084);
TTI_SFPCONFIG(0, 4, 0);
# Sequence[1] = 0x1D: Simple = template 1 at delay 3.
TTI_SFPCONFIG(0x001D, 5, 1);
# Sequence[2] = 0x008C0015: Simple = template 1 at delay 2; Round = template 0
# at delay 1, VB := loaded.
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x0015);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x008C);
TTI_SFPCONFIG(0, 6, 0);
# Sequence[3] = 0x7BAE00F7: Simple = template 3 at delay 6, VB := loaded, into
# L16; Round = template 2 at delay 5, VB := loaded; Store = SFPSTORE of L16 at
# delay 7.
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x00F7);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x7BAE);
TTI_SFPCONFIG(0, 7, 0);
# Misc = 0xFF0: every macro stores with its own Mod0; all delays count
# thread instructions.
TTI_SFPCONFIG(0xFF0, 8, 1);

.mark body
# Face 0.
# One row group, recorded into the replay buffer as it runs (the source
# unrolls the same twelve instructions eight times).
TTI_REPLAY(0, 12, 1, 1);
TTI_SFPLOADMACRO((0 << 2) | 3, InstrModLoadStore::LO16, ADDR_MOD_3, 64 | 0);     # b1 <- b
TTI_SFPLOADMACRO((1 << 2) | 0, InstrModLoadStore::LO16, ADDR_MOD_3, 0 | 0);      # a0 <- a
TTI_SFPLOADMACRO((1 << 2) | 1, InstrModLoadStore::LO16, ADDR_MOD_3, 64 | 0);     # b0 <- b
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);                                  # a0 &= 0xFF
TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG1, 0);                                  # b0 &= 0xFF
TTI_SFPLOADMACRO((2 << 2) | 2, InstrModLoadStore::LO16, ADDR_MOD_3, 0 | 0);      # a1 <- a
# out = L4: VD's high bit rides in the address's low bit.
TTI_SFPLOADMACRO((3 << 2) | 0, InstrModLoadStore::LO16, ADDR_MOD_2, 0 | 1);      # out, counter + 2
TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LREG3, p_sfpu::LREG13, p_sfpu::LREG3, 0);       # b1 = a0*b1 + 2^23
TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LREG1, p_sfpu::LREG13, p_sfpu::LREG0, 0);       # a0 = a0*b0 + 2^23
TTI_SFPMAD(p_sfpu::LREG2, p_sfpu::LREG1, p_sfpu::LREG3, p_sfpu::LREG3, 0);        # b1 += a1*b0
TTI_SFPEXMAN(0, p_sfpu::LREG0, p_sfpu::LREG5, sfpi::SFPEXMAN_MOD1_PAD9);          # tmp = lo
TTI_SFPEXMAN(0, p_sfpu::LREG3, p_sfpu::LREG4, sfpi::SFPEXMAN_MOD1_PAD9);          # out = hi
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1.
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2.
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3.
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_REPLAY(0, 12, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
