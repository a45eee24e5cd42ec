# The math thread: its init writes InstructionTemplate[0] (L2 = L2 + 1) and
# Sequence[0] (Simple runs template 0 at delay 0), then its calculation runs
# SFPLOADMACRO 0 and stores the result. Alone it stores the loaded value + 1.
.arch wormhole
.fp32_dest 1
sfploadi vd=0 mod0=10 imm16=0x1005
sfploadi vd=0 mod0=8 imm16=0x7900
sfpconfig vd=0
sfploadi vd=0 mod0=10 imm16=0x0004
sfploadi vd=0 mod0=8 imm16=0x0000
sfpconfig vd=4
sfpconfig vd=8 imm16=0 mod1=1
sfploadmacro macro=0 vd=2 mod0=4 addr_mod=0 offset=0
sfpnop
sfpnop
sfpstore vd=2 mod0=4 addr_mod=0 imm10=4
