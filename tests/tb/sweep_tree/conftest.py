# A fixture kernel tree for tests/tb/test_sweep.py, laid out like tt-llk's: its Python files are
# data that `sfpu sweep` reads, not tests.
collect_ignore_glob = ["*"]
