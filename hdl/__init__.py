"""The SFPU of Wormhole B0 and Blackhole A0 in Amaranth HDL. Every instruction
fact (encodings, modifiers, read sets, stall gaps) comes from the ISA table,
`model.isa`."""
