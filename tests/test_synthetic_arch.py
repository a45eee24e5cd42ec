"""A third architecture as data (tests/synthetic/arch.py: Blackhole's table with
one new instruction and one moved field, its own feature record, the new
instruction's semantics and RTL) through every consumer of the table: the
assembler, the model, the RTL in lock-step with the model on Amaranth's
simulator, the GTKWave filter, the coverage bins, the generator and the ISA
reference, with nothing else edited. It runs in a process of its own: the
architecture is declared before hdl/ is imported, and stays out of this one."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONSUMERS = ["assembler", "model", "rtl_lockstep", "waves_filter", "coverage_bins", "generator", "isa_reference",
             "missing_parts"]


def test_a_synthetic_architecture_runs_through_every_consumer():
    run = subprocess.run([sys.executable, "-m", "tests.synthetic.consumers"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    passed = [line.removeprefix("ok ") for line in run.stdout.splitlines() if line.startswith("ok ")]
    assert run.returncode == 0 and passed == CONSUMERS, run.stdout + run.stderr
