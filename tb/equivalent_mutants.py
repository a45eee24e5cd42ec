"""Mutants of `tb.mutants` that cannot change anything the SFPU does, each
with the reason: keyed by Yosys's `mutate` options, which name the cell, the
port and the bit (valid for the RTL version they were written for; a change
to hdl/ renames cells, and the survivors of the next run are reviewed again)."""

EQUIVALENT: dict[str, str] = {}
