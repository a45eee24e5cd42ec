# A fixture for tests/tb/test_sweep.py: the in-run phase step of the Float32 walk.
_CELL_PHASE_STEP = (math.sqrt(5) - 1) / 2
