// A fixture for tests/tb/test_sweep.py: the test kernel's tile loop count.
const int iterations = 32;
