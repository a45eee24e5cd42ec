"""The Makefile's targets run the README's default architecture (Wormhole) unless ARCH is given: `make -n`
prints each target's command without running it."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def dry_run(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("ARCH", "MAKEFLAGS", "MFLAGS")}
    done = subprocess.run(["make", "-n", "--no-print-directory", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("target, command", [("demo", "sfpu demo"), ("lint", "tools/lint.py"),
                                             ("synth", "tools/synth.py")])
def test_without_arch_a_target_names_no_architecture(target, command):
    line = next(line for line in dry_run(target).splitlines() if command in line)
    assert "--arch" not in line           # the command's own default: Wormhole, as the README says


def test_arch_chooses_blackhole_where_given():
    assert "sfpu demo --arch blackhole" in dry_run("demo", "ARCH=blackhole")


def test_fma_diff_keeps_its_own_default():
    assert "--arch bh " in dry_run("fma-diff", "FMA_C=/nowhere/fma.c")
    assert "--arch wh " in dry_run("fma-diff", "FMA_C=/nowhere/fma.c", "ARCH=wh")
