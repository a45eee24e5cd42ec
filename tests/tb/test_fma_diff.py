"""The FMA differential harness (tools/fma_diff.py) on small C files written here.

The real comparison needs the ISA documentation's fma.c, which is not in the
repository (`make fma-diff FMA_C=...`); these tests only show that the harness
reports mismatches, counts them right, and fails clearly on bad input.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import fma_diff  # noqa: E402

from tensix_sfpu.model.fma import fma_bh  # noqa: E402

pytestmark = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("gcc", "cc", "clang", "g++")),
    reason="no C compiler (gcc, cc, clang or g++) to build the C side")

HEADER = "#include <stdint.h>\n"


def write(tmp_path: Path, body: str, name: str = "fma.c") -> str:
    path = tmp_path / name
    path.write_text(HEADER + body)
    return str(path)


def test_a_wrong_model_is_reported(tmp_path):
    # The last bit of x: wrong nearly everywhere.
    src = write(tmp_path, "uint32_t fma_model_bh(uint32_t x, uint32_t y, uint32_t z) { return x ^ 1; }\n")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "fma_diff.py"), "--fma-c", src,
                           "--triples", "20000", "--jobs", "2"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.splitlines()
    shown = [s for s in lines if "MISMATCH" in s]
    assert len(shown) == fma_diff.SHOW
    assert all(" x=0x" in s and " y=0x" in s and " z=0x" in s and "fma.c 0x" in s and "model 0x" in s
               for s in shown)
    x, y, z, _ = fma_diff.block_triples(1, 0, 20000)                # the default seed's first block
    want = int((fma_bh(x, y, z) != (x ^ 1)).sum())
    assert "20,000 triples" in lines[-1] and f", {want:,} mismatches" in lines[-1]
    assert all(f"{name} " in lines[-1] for name in fma_diff.CLASSES)


def test_mismatches_are_counted_exactly(tmp_path, capsys):
    # A "model" that always answers the canonical NaN agrees exactly where
    # fma_bh gives one; the count of the others must be the harness's count.
    src = write(tmp_path, "uint32_t fma_model_bh(uint32_t x, uint32_t y, uint32_t z) { return 0x7fc00000u; }\n")
    n = 30_000
    assert fma_diff.main(["--fma-c", src, "--triples", str(n), "--jobs", "1", "--seed", "7"]) == 1
    x, y, z, _ = fma_diff.block_triples(7, 0, n)
    want = int((fma_bh(x, y, z) != 0x7FC00000).sum())
    assert 0 < want < n
    assert f"{want:,} mismatches" in capsys.readouterr().out.splitlines()[-1]


def test_wormhole_function_is_used_for_wh(tmp_path, capsys):
    src = write(tmp_path, "uint32_t fma_model_wh(uint32_t x, uint32_t y, uint32_t z) { return 0; }\n")
    assert fma_diff.main(["--fma-c", src, "--arch", "wh", "--triples", "1000", "--jobs", "1"]) == 1
    assert "fma-diff wh: 1,000 triples" in capsys.readouterr().out


@pytest.mark.parametrize("body,arch,message", [
    (None, "bh", "no such file"),
    ("uint32_t fma_model_bh(uint32_t x) { return x +; }\n", "bh", "does not compile"),
    ("uint32_t fma_model_wh(uint32_t x, uint32_t y, uint32_t z) { return x; }\n", "bh",
     "does not define fma_model_bh"),
    ("uint32_t fma_model_bh(uint32_t x, uint32_t y, uint32_t z) { return x; }\n", "wh",
     "does not define fma_model_wh"),
], ids=["missing", "syntax error", "no bh function", "no wh function"])
def test_setup_errors_are_one_clear_message(tmp_path, capsys, body, arch, message):
    src = str(tmp_path / "absent.c") if body is None else write(tmp_path, body)
    assert fma_diff.main(["--fma-c", src, "--arch", arch, "--triples", "10"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fma-diff: ") and message in err and "Traceback" not in err


def test_unset_fma_c_names_the_variable(capsys):
    assert fma_diff.main(["--fma-c", "", "--triples", "10"]) == 2
    assert "FMA_C is not set" in capsys.readouterr().err


def test_blocks_are_reproducible_and_distinct():
    a = fma_diff.block_triples(3, 5, 4096)
    b = fma_diff.block_triples(3, 5, 4096)
    c = fma_diff.block_triples(3, 6, 4096)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[0], c[0])
    # every class gets its share
    share = np.bincount(a[3], minlength=len(fma_diff.CLASSES))
    assert abs(share - 4096 / len(fma_diff.CLASSES)).max() < 1
