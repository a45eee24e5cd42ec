# A macro instruction with a cycle-kind delay racing the thread's store.
# SFPLOADMACRO at T loads Dst[0] into L2 and schedules "L2 = L2 + 1" on the
# Simple sub-unit at T+1+2 = T+3. The thread's SFPSTORE of L2, three
# instructions after the macro, also runs at T+3 when nothing delays the
# thread, and reads L2 before the increment lands: it stores the loaded value.
# One idle cycle anywhere before it moves it to T+4, after the increment:
# it stores the value plus 1. The result depends on the timing.
.arch wormhole
.fp32_dest 1
# InstructionTemplate[0] = sfpiadd vd=0 vc=0 imm12=1 mod1=5 (VD = VC + 1)
sfploadi vd=0 mod0=10 imm16=0x1005
sfploadi vd=0 mod0=8 imm16=0x7900
sfpconfig vd=0
# Sequence[0]: Simple = template 0 (select 4) at delay 2 -> byte 0x14
sfploadi vd=0 mod0=10 imm16=0x0014
sfploadi vd=0 mod0=8 imm16=0x0000
sfpconfig vd=4
# Misc = 0: every delay counts cycles
sfpconfig vd=8 imm16=0 mod1=1
sfploadmacro macro=0 vd=2 mod0=4 addr_mod=0 offset=0
sfpnop
sfpnop
sfpstore vd=2 mod0=4 addr_mod=0 imm10=4
