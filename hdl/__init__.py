"""The SFPU of Wormhole B0 and Blackhole A0 in Amaranth HDL. Every instruction
fact (encodings, modifiers, read sets, stall gaps) comes from the ISA table,
`model.isa`, and its lookup data, `model.isa_tables`: nothing else of the model
is imported here (tests/test_layering.py)."""
