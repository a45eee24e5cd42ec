"""What a document's blocks run with: the ttnn wheel's kernel tree and a shell in a scratch folder."""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

import pytest

from tests.docs.markdown import Shell

# The Makefile's LLK_CACHE: `make llk-corpus` and the doc tests share one download.
LLK_CACHE = Path.home() / ".cache" / "sfpu-llk"


@pytest.fixture(scope="session")
def llk_src() -> str:
    """SFPU_LLK_SRC when set (an unpacked tree), else the wheel fetched from PyPI once into
    LLK_CACHE as the README fetches it. Without either the tests fail, saying so: a doc
    that was not run has not passed."""
    given = os.environ.get("SFPU_LLK_SRC")
    if given:
        if not (Path(given) / "hw" / "ckernels").is_dir():
            pytest.fail(f"SFPU_LLK_SRC={given}: not the ttnn/tt_metal folder of an unpacked ttnn wheel")
        return given
    from tensix_sfpu.tb.llk.fetch import fetch
    LLK_CACHE.mkdir(parents=True, exist_ok=True)
    with open(LLK_CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)            # pytest-xdist's workers: one downloads, the other waits
        try:
            return str(fetch(LLK_CACHE))
        except SystemExit as e:
            pytest.fail(f"{e}: the doc tests need PyPI for the ttnn wheel, or SFPU_LLK_SRC naming "
                        "an unpacked wheel's ttnn/tt_metal folder")


@pytest.fixture(scope="module")                     # for Sybil, a module is one document
def doc_shell(llk_src, tmp_path_factory) -> Shell:
    """A reader's terminal: an empty folder, the kernel tree in SFPU_LLK_SRC, and this
    interpreter's `python` and `sfpu` first on PATH (the README's `.venv/bin`)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}   # not this run's pytest's
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return Shell(tmp_path_factory.mktemp("doc"), dict(env, SFPU_LLK_SRC=llk_src))
