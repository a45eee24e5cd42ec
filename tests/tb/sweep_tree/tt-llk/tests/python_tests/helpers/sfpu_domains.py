# A fixture for tests/tb/test_sweep.py: where ops make no claim.
_OP_SINGULARITIES = {
    MathOperation.FixtureScale: {Operand.A: ((0.0, _BOTH),)},
}
_NONPOSITIVE_INTEGER_POLES = frozenset({MathOperation.FixtureBinary})
