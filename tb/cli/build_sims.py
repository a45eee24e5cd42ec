"""`python -m tensix_sfpu.tb.cli.build_sims build [--arch NAME] [BACKEND ...]` (the Makefile's
set-up): the simulators' builds of tb/sims/runner.py ahead of the tests."""

from __future__ import annotations

import sys

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.tb.cli.options import take_arch
from tensix_sfpu.tb.sims import runner


def main(argv: list[str]) -> int:
    """`python -m tensix_sfpu.tb.cli.build_sims build [--arch NAME] [BACKEND ...]`:
    build ahead of the tests, for one architecture or (without --arch) both."""
    try:
        arch, argv = take_arch(argv)
    except CliError as e:
        print(f"runner: error: {e}", file=sys.stderr)
        return 2
    archs = [arch] if arch else list(Arch)
    if not argv or argv[0] != "build" or not set(argv[1:]) <= set(runner.BACKENDS[1:]):
        print(f"usage: python -m tensix_sfpu.tb.cli.build_sims build [--arch wormhole|blackhole] [{' '.join(runner.BACKENDS[1:])}]",
              file=sys.stderr)
        return 2
    for arch in archs:
        for backend in argv[1:] or runner.BACKENDS[1:]:
            try:
                runner.build(backend, arch=arch)
            except runner.RunnerError as e:
                print(f"runner: error: {e}", file=sys.stderr)
                return 1
            print(f"{backend} ({arch.value}): built in {runner.build_dir(backend, arch=arch)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
