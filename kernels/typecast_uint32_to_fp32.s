# uint32 -> FP32 with SFPLOADMACRO: tt-llk's _calculate_typecast_uint32_to_fp32_
# and _init_typecast_uint32_to_fp32_ (ckernel_sfpu_typecast.h, default build
# with SFPLOADMACRO), on a 32 x 32 tile of uint32 in Dst32b (Fp32 Dst mode),
# each result stored as FP32 over its input.
#
# Same arithmetic as typecast_uint32_to_fp16b.s (cast the low 31 bits, add
# 2**31 back through an indirect-VA MAD) without the BF16 rounding, but done
# by three macros per row group, all loading the same row group:
#   [a]  = L2: a <- setsgn(a, 0)           Simple, 0 after its load
#   [b]  = L3: b <- cast(a)                Simple, 0 after its load
#              L16 <- L[L7] * 1.0 + b      MAD, 2 after
#   [L7] = L7: L7 <- L7 >> 31              Round, 0 after (shift by L12 = -31)
#              Dst32b <- L16               Store, 3 after
# Only the last macro moves the Dst counter on. Three issue slots per row
# group; all delays count issued instructions.
#
# [b]'s MAD is due in the cycle after the next [a] macro, whose MAD byte
# selects nothing; it runs because such a byte forgets nothing
# (docs/timing.md), as the source's schedule table has it.

.fp32_dest 1
.addr_mod_base 1
.addr_mod 7 dst_incr=0
.addr_mod 6 dst_incr=2

# L12 = -31 (sfpi's vConstIntPrgm0 = -31: SFPLOADI into L0, SFPCONFIG).
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_SHORT, 0xFFE1);
TTI_SFPCONFIG(0, 12, 0);
# Template 0 (backdoor, VD=12): SFPSETSGN with immediate sign 0.
TTI_SFPSETSGN(0, 0, 12, 1);
# Template 1 (backdoor, VD=13): SFPCAST of L2 (a).
TTI_SFPCAST(p_sfpu::LREG2, 13, 0);
# Template 2 (backdoor, VD=14): SFPSHFT2 shift by L12 (VB := the loaded register).
TTI_SFPSHFT2(0, p_sfpu::LREG12, 14, 5);
# Template 3 (backdoor, VD=15): SFPMAD VB=L10 (1.0), indirect VA from L7.
TTI_SFPMAD(0, p_sfpu::LCONST_1, 0, 15, 4);

# Sequence[0] = 0x0004: Simple = template 0, delay 0 (VC := loaded register).
TTI_SFPCONFIG(0x0004, 4, 1);
# Sequence[1] = 0x5785: Simple = template 1, delay 0, VB := loaded register;
# MAD = template 3, delay 2, result to L16 (VC := loaded register).
TTI_SFPCONFIG(0x5785, 5, 1);
# Sequence[2] = 0x5B860000: Round = template 2, delay 0, VB := loaded
# register; Store = SFPSTORE of L16, delay 3.
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, 0x0000);
TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, 0x5B86);
TTI_SFPCONFIG(0, 6, 0);
# Misc = 0x703: StoreMod0 = FP32; Simple, MAD and Round delays count
# instructions.
TTI_SFPCONFIG(0x700 | InstrModLoadStore::FP32, 8, 1);

.mark body
# The kernel's own set-up, once per call (per face): L0 = 0.0, L1 = 2**31.
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0x4F00);
# Eight row groups, recorded on the first face and replayed on the others.
TTI_REPLAY(0, 24, 1, 1);
TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_2, 1);
TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_2, 1);
TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_2, 1);
TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_2, 1);
TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_2, 1);
TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_2, 1);
TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_2, 1);
TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((1 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
TTI_SFPLOADMACRO((2 << 2) | 3, InstrModLoadStore::INT32, ADDR_MOD_2, 1);
# Four SFPNOPs let the last macros' MAD, Round and Store run.
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
# The next face (tt-llk's _llk_math_eltwise_unary_sfpu_params_).
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0x4F00);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0x4F00);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SFPLOADI(p_sfpu::LREG0, sfpi::SFPLOADI_MOD0_USHORT, 0);
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_FLOATB, 0x4F00);
TTI_REPLAY(0, 24, 0, 0);
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SFPNOP;
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
TTI_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, 8, 0, 0, p_setrwc::SET_D);
