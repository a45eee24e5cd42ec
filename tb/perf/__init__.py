"""Kernel cycles as tt-llk's perf suite counts them (`sfpu perf`, docs/perf.md): the
perf harness's math thread compiled for the baby RISC-V, run on an instruction-set
simulator, its pushes timed through the issue path into the SFPU's cycle model."""
