# The pack thread: another kernel's init, which writes InstructionTemplate[0]
# too (L2 = L2 + 2). The template is one per SFPU, not one per thread: if
# this runs between the math thread's init and its SFPLOADMACRO, the macro
# adds 2 instead of 1.
.arch wormhole
sfploadi vd=0 mod0=10 imm16=0x2005
sfploadi vd=0 mod0=8 imm16=0x7900
sfpconfig vd=0
