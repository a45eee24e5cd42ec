"""`python -m tensix_sfpu.tb.cli.build_sims build [--arch NAME] [[ARCH:]BACKEND ...]` (the Makefile's
set-up): the simulators' builds of tb/sims/runner.py ahead of the tests.

Builds of different architectures run at the same time, each in a process of its
own, since most of a build is one Python process elaborating the design or one
Yosys run; each architecture's report is printed whole when it ends."""

from __future__ import annotations

import subprocess
import sys

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.tb.cli.options import arch_type, take_arch
from tensix_sfpu.tb.sims import runner

USAGE = ("usage: python -m tensix_sfpu.tb.cli.build_sims build [--arch wormhole|blackhole] "
         f"[[ARCH:]BACKEND ...] (BACKEND: {' '.join(runner.BACKENDS[1:])})")


def _builds(arch: Arch | None, items: list[str]) -> dict[Arch, list[str]]:
    """The backends to build per architecture: `ARCH:BACKEND` for one architecture,
    a bare BACKEND for --arch's (or both without it), none named: every backend."""
    plain = [item for item in items if ":" not in item]
    builds: dict[Arch, list[str]] = {}
    if plain or not items:
        for each in [arch] if arch else list(Arch):
            builds[each] = plain or list(runner.BACKENDS[1:])
    for item in items:
        if ":" in item:
            name, backend = item.split(":", 1)
            try:
                builds.setdefault(arch_type(name), []).append(backend)
            except Exception as e:
                raise CliError(f"{item}: {e}") from None
    for backends in builds.values():
        unknown = [b for b in backends if b not in runner.BACKENDS[1:]]
        if unknown:
            raise CliError(f"no simulator {', '.join(unknown)}")
    return builds


def _build_one(arch: Arch, backends: list[str]) -> int:
    for backend in backends:
        try:
            runner.build(backend, arch=arch)
        except runner.RunnerError as e:
            print(f"runner: error: {e}", file=sys.stderr)
            return 1
        print(f"{backend} ({arch.value}): built in {runner.build_dir(backend, arch=arch)}", flush=True)
    return 0


def main(argv: list[str]) -> int:
    """Build ahead of the tests: `build [--arch NAME] [[ARCH:]BACKEND ...]`."""
    try:
        arch, argv = take_arch(argv)
        if not argv or argv[0] != "build":
            raise CliError(USAGE)
        builds = _builds(arch, argv[1:])
    except CliError as e:
        print(f"runner: error: {e}" if not str(e).startswith("usage:") else e, file=sys.stderr)
        return 2
    if len(builds) == 1:
        [(arch, backends)] = builds.items()
        return _build_one(arch, backends)
    jobs = [(arch, subprocess.Popen([sys.executable, "-m", __name__, "build", "--arch", arch.value, *backends],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
            for arch, backends in builds.items()]
    status = 0
    for arch, job in jobs:
        out, _ = job.communicate()
        sys.stdout.write(out)
        sys.stdout.flush()
        status = status or job.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
