"""Stimulus: the constrained-random program generator, the directed programs, and the program
specs that name them (and the kernels and files)."""
