"""The kernel sources of the corpus run when no tree is given: the `ttnn`
wheel from PyPI, downloaded into a cache folder outside the repository, and
only the folders the front end reads unpacked from it (the wheel is a zip of
some 8,000 files).

    python -m tb.llk.fetch CACHE      prints the unpacked ttnn/tt_metal folder
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

VERSION = "0.81.1"
WHEEL = f"ttnn-{VERSION}-cp310-cp310-manylinux_2_34_x86_64.whl"
FOLDERS = tuple(f"ttnn/tt_metal/{p}/" for p in (
    "tt-llk/tt_llk_wormhole_b0/common/inc", "tt-llk/tt_llk_blackhole/common/inc",
    "tt-llk/tt_llk_wormhole_b0/llk_lib", "tt-llk/tt_llk_blackhole/llk_lib",
    "hw/ckernels/wormhole_b0/metal/llk_api", "hw/ckernels/blackhole/metal/llk_api",
    "tt-llk/tests"))                # the sweep reads its kernel, driver, helpers and budget there


def fetch(cache: Path) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    wheel = cache / WHEEL
    if not wheel.is_file():
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version",
                   "3.10", "--platform", "manylinux_2_34_x86_64", f"ttnn=={VERSION}", "-d", str(cache)]
        done = subprocess.run(command, stdout=sys.stderr)
        if done.returncode != 0 or not wheel.is_file():
            raise SystemExit(f"llk-corpus: could not download ttnn {VERSION} into {cache}")
    root = cache / "src"
    marker = root / ".unpacked"
    unpacked = "\n".join((VERSION, *FOLDERS))     # a cache unpacked with fewer folders is unpacked again
    if not marker.is_file() or marker.read_text() != unpacked:
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                if name.startswith(FOLDERS) and not name.endswith("/"):
                    z.extract(name, root)
        marker.write_text(unpacked)
    return root / "ttnn" / "tt_metal"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m tb.llk.fetch CACHE_DIR")
    print(fetch(Path(sys.argv[1]).expanduser()))
