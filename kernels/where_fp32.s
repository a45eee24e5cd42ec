# where(c, a, b) on FP32 tiles with SFPLOADMACRO: tt-llk's _calculate_where_
# <APPROX, DataFormat::Float32, 8> (ckernel_sfpu_where.h) in its general form
# (output tile different from the condition tile), run over four faces by
# _llk_math_eltwise_ternary_sfpu_params_ (VectorMode::RC).
#
# Dst tiles (64 address units each): condition c at tile 0, a at tile 1,
# b at tile 2, result at tile 3. Values move as raw 32-bit words (Mod0 INT32),
# so the payloads are copied bit for bit; the condition is "the word is zero"
# (SFPSETCC compares the integer), so -0.0 counts as true. Software is
# expected to have flushed -0 before.
#
# One row group in four cycles (macros 1 and 2 from _init_where_):
#   T    SFPLOADMACRO 1: L0 <- c; schedules SFPSETCC (flags = L0 == 0)
#   T+1  SFPLOADMACRO 2: L0 <- a in every lane; SFPSETCC runs; schedules SFPENCC
#   T+2  SFPLOAD L0 <- b only where c was 0; SFPENCC sets every flag again
#   T+3  SFPSTORE L0 -> result, ADDR_MOD_6 moves the counter one row group on
# The four are recorded into the replay buffer (without running) and replayed
# eight times per face.

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

# _init_where_: template 0 is SFPSETCC Mod1=LREG_EQ0 (VC comes from the
# macro's loaded register), template 1 is SFPENCC Mod1=0 (flags all set again,
# predication left on). VD 12 and 13 write them through the backdoor.
TTI_SFPSETCC(0, 0, 12, 6);
TTI_SFPENCC(0, 0, 13, 0);
# Sequence[0] = 0x13000004: Simple = template 0 at delay 0; Store = SFPSTORE of
# the loaded register at delay 2 (used by the in-place variant).
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x0004);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x1300);
TTI_SFPCONFIG(0, 4, 0);
# Sequence[1] = 0x04: Simple = template 0 at delay 0, nothing else.
TTI_SFPCONFIG(0x0004, 5, 1);
# Sequence[2] = 0x05: Simple = template 1 at delay 0.
TTI_SFPCONFIG(0x0005, 6, 1);
# Misc = 0x770: macros 0-2 store with their own Mod0 (INT32); Simple, MAD and
# Round delays count elapsed thread instructions, Store delays count cycles.
TTI_SFPCONFIG(0x770, 8, 1);

.mark body
TTI_REPLAY(0, 4, 0, 1);
TTI_SFPLOADMACRO((1 << 2), InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2), InstrModLoadStore::INT32, ADDR_MOD_3, 64);
TTI_SFPLOAD(0, InstrModLoadStore::INT32, ADDR_MOD_3, 128);
TTI_SFPSTORE(0, InstrModLoadStore::INT32, ADDR_MOD_2, 192);
# Face 0: eight row groups, then the params wrapper's move to the next face.
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 1: eight row groups, then the params wrapper's move to the next face.
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 2: eight row groups, then the params wrapper's move to the next face.
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
# Face 3: eight row groups, then the params wrapper's move to the next face.
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_REPLAY(0, 4, 0, 0);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
