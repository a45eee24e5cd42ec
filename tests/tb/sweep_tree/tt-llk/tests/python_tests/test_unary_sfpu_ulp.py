# A fixture for tests/tb/test_sweep.py: the flags the sweep's TestConfig compiles in.
templates = [FAST_MODE(FastMode.No), CLAMP_NEGATIVE(True)]
