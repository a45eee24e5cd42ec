"""Mutants of `tb.campaigns.mutants` that pass the budget and cannot change anything
the SFPU does, each with the reason, found by reading the netlist around the
cell. They are keyed by the mutation (`Mutant.key`: mode, flattened cell,
port and bits), which is valid for the RTL version and the Yosys version it
was written for (these: Yosys 0.23): a change to hdl/ or another Yosys
renames cells, and the survivors of the next run are reviewed again. (Two
kinds need no entry, as tb.campaigns.mutants proves them: a cell that
computes the same for every input (SAT), and an output bit nothing reads.)
Each architecture's RTL is its own netlist, so each has its own table."""

from tensix_sfpu.model.isa import Arch

SIMPLE_STORE_ADDRESS = ("equivalent: a bit of the store address held in one of the Simple sub-unit's delay slots; "
                        "only a macro SFPSTORE uses that address, and it runs on the Store sub-unit alone (the "
                        "trace reports it for SFPSTORE only)")

WORMHOLE: dict[str, str] = {
    # hdl/decoder.py: VB's decode is a $pmux over the opcodes that have a VB; the SFPSETEXP case stuck
    # selected.
    "-mode const1 -cell $flatten\\decoder.$procmux$13913_CMP0 -port Y -portbit 0":
        "equivalent in this netlist: SFPSETEXP's case of VB's decode (word bits 7:4) always selected. For the "
        "opcodes whose VB is another field (SFPMAD, SFPADD, SFPMUL, SFPSTOCHRND, SFPSHFT2) the $pmux's Verilog "
        "takes the first selected case, theirs; SFPAND, SFPOR, ... have the same VB = bits 7:4; every other "
        "opcode has no VB, which no sub-unit reads and the trace leaves out",
    # hdl/round_unit.py:108: prng_advance = Mux(is_rnd, lanes, 0).
    "-mode inv -cell $flatten\\round.$350 -port A -portbit 13":
        "equivalent: the Round unit's PRNG advance when it runs no SFPSTOCHRND; the top reads it only "
        "through Mux(prng_used, prng_advance, ...), and prng_used is that same condition",
    # hdl/round_unit.py:142: the SFPSHFT2 shift amount of lane 19, Mux(SHFT_IMM, Imm12, VC).
    "-mode cnot0 -cell $flatten\\round.$466 -port A -portbit 17 -ctrlbit 12":
        "equivalent: bit 17 of lane 19's shift amount taken from VC; the shift reads only bits 4..0 (the "
        "amount mod 32, negated for a right shift) and bit 31 (the direction)",
    # hdl/rounding.py:116: SFPSTOCHRND's FP16A/FP16B result.
    "-mode cnot1 -cell $flatten\\round.\\stochrnd_9.$procmux$2770 -port Y -portbit 4 -ctrlbit 9":
        "equivalent: mantissa bits 4 and 9 of lane 9's FP16A/FP16B result are 0 in every case (zero, NaN to "
        "Inf, FP16A keeps mantissa bits 22..13, FP16B bits 22..16), so XORing one with the other changes "
        "nothing",
    # hdl/rounding.py:128: the saturation limit of SFPSTOCHRND's integer modes.
    "-mode const1 -cell $flatten\\round.\\stochrnd_24.$procmux$2145 -port Y -portbit 0":
        "equivalent: bit 0 of lane 24's saturation limit is 1 in every integer mode (255, 127, 65535, "
        "32767); in the FP16 modes, where it is 0, the integer result is not selected",
    # hdl/scheduler.py:127: has_vb of the Round sub-unit's macro slot.
    "-mode const1 -cell $flatten\\scheduler.$1559 -port S -portbit 0":
        "equivalent: 'the Round slot's template has a VB' stuck true; every instruction a macro can run on "
        "Round has one (SFPSTOCHRND's field, SFPSHFT2's Imm12 bits) except SFPNOP, whose VB and VD both "
        "decode as 0",
    # hdl/scheduler.py:68: the Simple sub-unit's delay slots (0: due now).
    "-mode const1 -cell $flatten\\scheduler.$1777 -port Q -portbit 48": SIMPLE_STORE_ADDRESS,
    "-mode cnot1 -cell $flatten\\scheduler.$1785 -port Q -portbit 49 -ctrlbit 13": SIMPLE_STORE_ADDRESS,
    # hdl/dst_convert.py:154: signmag = Mux(mod0 == INT8_COMP, Integer "8" as sign-magnitude, FP32 bits).
    "-mode const1 -cell $flatten\\load.\\convert27.$35 -port A -portbit 3":
        "equivalent: lane 27's 'Mod0 is INT8_COMP (13)' with Mod0 bit 3 forced to 1, so also true for INT8 "
        "(5); an INT8 load's value does not go through the multiplexer it selects",
    # hdl/scheduler.py:111 and 121: which opcodes a macro slot's template may hold ("known") and which its
    # sub-unit runs ("runnable"), each an OR of opcode compares.
    "-mode const0 -cell $flatten\\scheduler.$1162 -port A -portbit 2":
        "equivalent: the Simple slot's compare with SFPPOPC (0x88) also matches 0x8C, SFPTRANSP, itself an SFPU "
        "opcode, so 'known' (the OR over every opcode) is unchanged",
    "-mode const0 -cell $flatten\\scheduler.$1091 -port A -portbit 6":
        "equivalent: the Simple slot's compare with SFPSETSGN (0x89) in 'runnable' also matches 0xC9, which is "
        "no SFPU opcode; such a template is never valid (it is not 'known'), so what the slot would run is "
        "never started (template_edges offers it)",
}

EQUIVALENT: dict[Arch, dict[str, str]] = {Arch.WORMHOLE: WORMHOLE, Arch.BLACKHOLE: {}}
