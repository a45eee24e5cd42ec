# gap_race.s with the macro and the instructions after it played back to
# back, as a REPLAY plays them: no idle cycle can fall between them, so the
# store always reads L2 before the increment lands. Deterministic.
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
.issue back_to_back
sfploadmacro macro=0 vd=2 mod0=4 addr_mod=0 offset=0
sfpnop
sfpnop
sfpstore vd=2 mod0=4 addr_mod=0 imm10=4
