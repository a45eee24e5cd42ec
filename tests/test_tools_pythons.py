"""tools/test_pythons.py --check: what .ci/run asks before `make test-pythons`."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "tools" / "test_pythons.py"


def _check(*pythons: str) -> subprocess.CompletedProcess:
    args = [arg for python in pythons for arg in ("--python", python)]
    return subprocess.run([sys.executable, str(SCRIPT), "--check", *args], capture_output=True, text=True, timeout=60)


def test_a_missing_interpreter_is_named_and_fails():
    done = _check(sys.executable, "python3.99")
    assert done.returncode == 1
    assert "missing: python3.99 (pyenv install 3.99)" in done.stdout
    assert sys.executable not in done.stdout


def test_interpreters_that_run_pass_without_building_anything():
    done = _check(sys.executable)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "" and "built" not in done.stderr
