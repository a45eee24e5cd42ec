# A fixture for tests/tb/test_sweep.py: op names and their C++ enumerators.
class MathOperation(Enum):
    FixtureScale = OpSpec("fixture_scale", MathOpType.SFPU_UNARY)
    FixtureHalf = OpSpec("fixture_half", MathOpType.SFPU_UNARY)
    FixtureWrapped = OpSpec("fixture_wrapped", MathOpType.SFPU_UNARY)
    FixtureBinary = OpSpec("fixture_binary", MathOpType.SFPU_BINARY)
