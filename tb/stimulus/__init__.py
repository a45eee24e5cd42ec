"""Stimulus: the constrained-random program generator, the directed programs, the program
specs that name them (and the kernels and files), and the command-line fuzzer."""
