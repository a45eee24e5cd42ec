# The synthetic SFPLOADMACRO example (docs/timing.md, example A): one macro
# loads L2, has the MAD sub-unit compute L2 = L12 * L0 + L2 in the next cycle,
# and stores L2 back to where it came from three cycles after the load.
#
#   cycle T    load   L2 <- Dst (rows 8-11, even columns), FP32
#   cycle T+1  MAD    L2 <- L12 * L0 + L2        (result written at the end of T+2)
#   cycle T+3  store  Dst <- L2, with the macro's Mod0 and the address of cycle T

.fp32_dest 1

# Template 1: SFPMAD VA=12 VB=0 VC=13 with VD=13, so the backdoor stores the
# word 0x840C0DD0 in InstructionTemplate[1] instead of executing it.
TTI_SFPMAD(12, 0, 13, 13, 0);

# Sequence[0] = 0x13000500: MAD byte 0x05 (template 1, delay 0, VC := loaded VD),
# Store byte 0x13 (SFPSTORE, delay 2, stores the loaded VD).
sfploadi vd=0 mod0=SFPLOADI_MOD0_LOWER imm16=0x0500
sfploadi vd=0 mod0=SFPLOADI_MOD0_UPPER imm16=0x1300
sfpconfig vd=4 imm16=0 mod1=0
# Misc = 0x010: UsesLoadMod0ForStore for macro 0; every delay counts cycles.
sfpconfig vd=8 imm16=0x010 mod1=1
# L0 = 2.0, the MAD's VB operand.
sfploadi vd=0 mod0=SFPLOADI_MOD0_FLOATB imm16=0x4000

# Macro 0, VD = L2, Mod0 = FP32, Imm10 = 8.
sfploadmacro macro=0 vd=2 mod0=MOD0_FMT_FP32 addr_mod=0 offset=8
