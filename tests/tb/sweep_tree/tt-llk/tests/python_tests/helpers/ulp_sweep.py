# A fixture for tests/tb/test_sweep.py: the Float32 walk's stride and the trig claim limit.
_FP32_STRIDE = 2**16
_TRIG_CLAIM_LIMIT = 65504.0
_CLAIM_LIMIT = {}


def _claim_limits():
    if not _CLAIM_LIMIT:
        _CLAIM_LIMIT.update({MathOperation.FixtureBinary: wide_formats})
    return _CLAIM_LIMIT
