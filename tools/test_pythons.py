"""`make test-pythons`: the built wheel installed into a fresh virtual
environment of each Python (3.10 and 3.13 by default), and a smoke set run
from that install, outside the checkout:

- only the namespace is installed (`import model` fails, `import tensix_sfpu` works);
- `sfpu llk` compiles the wheel's example header (`example:NAME`), `sfpu run` runs the listing;
- examples/test_my_kernel.py (the Python API) passes from the installed package, and copied
  into an empty folder, as docs/api.md invites;
- `sfpu sim` runs an example on the RTL on Amaranth's simulator.

    python tools/test_pythons.py [--python python3.10 --python python3.13] [--keep]

Each environment installs the wheel's dependency ranges (not requirements.lock),
as a user's pip would. Exit status 1 if any step fails, naming it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "pythons"


def step(name: str, argv: list[str], cwd: Path, env: dict, expect_failure: bool = False) -> bool:
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    ok = (proc.returncode != 0) if expect_failure else (proc.returncode == 0)
    print(f"  {'ok  ' if ok else 'FAIL'} {name}", flush=True)
    if not ok:
        print("    " + "\n    ".join((proc.stdout + proc.stderr).strip().splitlines()[-15:]))
    return ok


def build_wheel() -> Path:
    out = BUILD / "wheel"
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(ROOT)],
                   check=True)
    (wheel,) = out.glob("tensix_sfpu-*.whl")
    return wheel


def interpreter(python: str) -> str | None:
    """`python` if it runs (a pyenv shim of an inactive version does not), else pyenv's own copy."""
    version = python.removeprefix("python")
    candidates = [shutil.which(python), *sorted(str(p) for p in Path.home().glob(f".pyenv/versions/{version}*/bin/{python}"))]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return None


def smoke(python: str, wheel: Path, keep: bool) -> bool:
    found = interpreter(python)
    if found is None:
        print(f"{python}: not found (pyenv install it, or give --python PATH)")
        return False
    venv = BUILD / Path(python).name
    shutil.rmtree(venv, ignore_errors=True)
    if subprocess.run([found, "-m", "venv", str(venv)]).returncode != 0:
        print(f"{python}: cannot make a virtual environment with {found}")
        return False
    bin_dir = venv / "bin"
    version = subprocess.run([bin_dir / "python", "-c", "import sys; print(sys.version.split()[0])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    print(f"Python {version} ({venv})", flush=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    ok = step("pip install the wheel with its test extra", [str(bin_dir / "pip"), "install", "--quiet",
                                                            f"{wheel}[test]"], ROOT, env)
    if not ok:
        return False
    work = Path(tempfile.mkdtemp(prefix="sfpu-pythons-"))
    env["SFPU_BUILD"] = str(work / "build")
    py = str(bin_dir / "python")
    example = "import tensix_sfpu.examples as e, pathlib; print(pathlib.Path(e.__file__).parent)"
    examples = subprocess.run([py, "-c", example], cwd=work, env=env, capture_output=True, text=True).stdout.strip()
    mine = work / "mine"
    mine.mkdir()
    shutil.copy(Path(examples) / "test_my_kernel.py", mine)
    results = [
        step("only the namespace is installed: `import model` fails", [py, "-c", "import model"], work, env,
             expect_failure=True),
        step("import tensix_sfpu.model, .hdl, .tb, .kernels, .api",
             [py, "-c", "import tensix_sfpu.model, tensix_sfpu.hdl, tensix_sfpu.tb, tensix_sfpu.kernels\n"
                        "from tensix_sfpu import api"], work, env),
        step("sfpu llk on the example header", [str(bin_dir / "sfpu"), "llk", "example:ckernel_sfpu_affine.h",
                                                 "--call", "calculate_affine<false>()", "--init", "affine_init<false>()",
                                                 "--fp32-dest", "1", "-o", "affine.s"], work, env),
        step("sfpu run on its listing", [str(bin_dir / "sfpu"), "run", "affine.s"], work, env),
        step("examples/test_my_kernel.py (the Python API)",
             [py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--pyargs", "tensix_sfpu.examples.test_my_kernel"],
             work, env),
        step("test_my_kernel.py copied into an empty folder",
             [py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_my_kernel.py"], mine, env),
        step("sfpu sim on Amaranth's simulator", [str(bin_dir / "sfpu"), "sim", "example:macro_example_a.s",
                                                  "--backend", "amaranth"], work, env),
    ]
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return all(results)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--python", action="append", help="an interpreter (repeatable; default python3.10 and python3.13)")
    p.add_argument("--keep", action="store_true", help="keep each run's working folder")
    p.add_argument("--check", action="store_true",
                   help="only say whether every interpreter is here (exit 0) or which are missing (exit 1)")
    args = p.parse_args()
    pythons = args.python or ["python3.10", "python3.13"]
    if args.check:
        missing = [python for python in pythons if not interpreter(python)]
        if missing:
            print(f"missing: {', '.join(missing)} (pyenv install {' '.join(m.removeprefix('python') for m in missing)})")
        return 1 if missing else 0
    wheel = build_wheel()
    print(f"built {wheel.name}")
    failed = [python for python in pythons if not smoke(python, wheel, args.keep)]
    if failed:
        print(f"failed on {', '.join(failed)}")
        return 1
    print("every Python passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
