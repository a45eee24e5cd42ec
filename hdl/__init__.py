"""The Wormhole B0 SFPU in Amaranth HDL. Imports only `model.isa` from the model."""
