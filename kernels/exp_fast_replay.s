# Fast exp with SFPLOADMACRO and the replay buffer: tt-llk's Wormhole
# FAST_APPROX path without CLAMP_NEGATIVE (ckernel_sfpu_exp.h,
# _init_exponential_<APPROX, FAST_APPROX, scale = 1.0, CLAMP_NEGATIVE = false>
# and _calculate_exponential_ with ITERATIONS == 32), on one 32 x 32 tile of
# FP32 in Dst. With 32 iterations one call covers the whole tile, the Dst
# counter stepping by 2 after every SFPLOADMACRO, so no SETRWC is needed.
#
# Schraudolph's exp: i = A*x + (B-C), A = 256/ln 2, rounded to a sign-magnitude
# 16-bit integer, shifted left by 15 and given back its sign; read as FP32 the
# result is about exp(x). Valid for x in [-88, 0.72]: above 0.72 the rounding
# clamps i to 32767 (about 2.0); below -88 i is negative and so is the result,
# which the caller is expected to clear with a ReLU.
#
# Each row group is one SFPLOADMACRO (macro 0, VD = L0..L3 in turn) and one
# SFPSHFT2 issued by the thread. The shift runs on the Round sub-unit, where
# the macro's SFPSTOCHRND also runs, so it cannot be part of the macro; it is
# interleaved so that the two never meet. Misc's UnitDelayKind bits are all set
# (SFPCONFIG 0xF00 to Misc), so a macro's delays count the instructions the
# thread issues after it, not cycles. For the macro issued at instruction n
# (cycle T = n in steady state, one instruction per cycle):
#   T    Load   L <- x                                   (the loaded register, L = L(n/2 mod 4))
#   T+1  MAD    L <- A*L + (B-C)                          delay 0
#   T+4  Round  L <- int16(round(L)), sign-magnitude      after 3 instructions
#   T+5  thread SFPSHFT2: L4 <- L << L14 (= 15)          the pair issued two row groups later
#   T+6  Simple L16 <- L4 with L's sign (SFPSETSGN)      after 5 instructions
#   T+7  Store  Dst <- L16                                after 6 instructions
# The SFPSHFT2 paired with macro k works on macro k-2's register, so the first
# two of a run shift registers nothing has loaded yet (their results are
# overwritten before anything reads them), and the last two row groups need
# two more SFPSHFT2s after the run: the drain. The macros and the thread's
# shifts alternate, so Round, Simple and Store each take one instruction every
# other cycle and never collide: 2 cycles per row group.
#
# Count: 64 instructions from two replays of 32, then the drain NOP, SHFT2,
# NOP, SHFT2, NOP, NOP; the last macro's store runs in the cycle after the
# sixth instruction following it, the drain's second-to-last NOP, which is the
# drain's last cycle: 64 + 6 = 70 cycles for 32 row groups.

.fp32_dest 1

# Constants: L12 = A = 256/ln 2 (times scale = 1.0), L13 = B - C = 32500.818,
# L14 = 15, the shift count, as an integer. Each built in L0, copied by SFPCONFIG.
TTI_SFPLOADI(0, SFPLOADI_MOD0_LOWER, 0xAA3B);
TTI_SFPLOADI(0, SFPLOADI_MOD0_UPPER, 0x43B8);
TTI_SFPCONFIG(0, 12, 0);
TTI_SFPLOADI(0, SFPLOADI_MOD0_LOWER, 0xE9A3);
TTI_SFPLOADI(0, SFPLOADI_MOD0_UPPER, 0x46FD);
TTI_SFPCONFIG(0, 13, 0);
TTI_SFPLOADI(0, SFPLOADI_MOD0_LOWER, 15);
TTI_SFPLOADI(0, SFPLOADI_MOD0_UPPER, 0);
TTI_SFPCONFIG(0, 14, 0);

# Templates through the backdoor (VD = 12 + template index):
TTI_SFPMAD(12, 0, 13, 13, 0);                 # template 1: L = L12 * L + L13 (VB becomes the loaded register)
TTI_SFP_STOCH_RND(0, 0, 0, 0, 14, 7);         # template 2: FP32 -> sign-magnitude INT16, round to nearest
TTI_SFPSETSGN(0, 4, 15, 0);                   # template 3: exponent and mantissa from L4, sign from VB

# Sequence[0] = 0x731E85EF:
#   Simple 0xEF: template 3 at delay 5, result to L16, VB := the loaded register;
#   MAD    0x85: template 1 at delay 0, VB := the loaded register;
#   Round  0x1E: template 2 at delay 3, VC and VD := the loaded register;
#   Store  0x73: SFPSTORE of L16 at delay 6.
TTI_SFPLOADI(0, SFPLOADI_MOD0_LOWER, 0x85EF);
TTI_SFPLOADI(0, SFPLOADI_MOD0_UPPER, 0x731E);
TTI_SFPCONFIG(0, 4, 0);
# Misc = 0xF00: stores use StoreMod0 (SRCB, so FP32 here); every sub-unit's
# delay counts issued instructions.
TTI_SFPCONFIG(0xF00, 8, 1);

# Record 16 row groups' worth of macro + shift pairs without running them.
TTI_REPLAY(0, 32, 0, 1);
TTI_SFPLOADMACRO(0, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(1, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(2, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG0, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(3, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG1, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(0, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(1, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(2, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG0, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(3, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG1, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(0, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(1, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(2, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG0, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(3, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG1, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(0, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(1, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(2, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG0, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPLOADMACRO(3, 0, ADDR_MOD_3, 0);
TTI_SFPSHFT2(p_sfpu::LREG1, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPNOP;

# The calculation: ADDR_MOD_7 (ADDR_MOD_3 with the base set) moves the Dst
# counter on by one row group (2) after each SFPLOADMACRO.
TTI_SETC16(ADDR_MOD_AB_SEC7_SrcAIncr_ADDR32, 0);
TTI_SETC16(ADDR_MOD_DST_SEC7_DestIncr_ADDR32, 2);
TTI_SETC16(ADDR_MOD_SET_Base_ADDR32, 1);

.mark body
TTI_REPLAY(0, 32, 0, 0);
TTI_REPLAY(0, 32, 0, 0);
# Drain: the shifts for row groups 30 and 31, NOPs keeping the instruction
# count that the pending delays wait for.
TTI_SFPNOP;
TTI_SFPSHFT2(p_sfpu::LREG2, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPNOP;
TTI_SFPSHFT2(p_sfpu::LREG3, p_sfpu::LREG14, p_sfpu::LREG4, 5);
TTI_SFPNOP;
TTI_SFPNOP;
