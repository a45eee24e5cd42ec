"""The `sfpu` command: the parser built from the subcommands' modules, and the
exit status each kind of error gives."""

from __future__ import annotations

import argparse
import os
import sys

from tensix_sfpu.model.asm import AsmError
from tensix_sfpu.model.machine import UndefinedBehaviour
from tensix_sfpu.tb.cli import (asm, bench, demo, disasm, isa, kernel_report, llk, mutate, perf, race, regress, run, sim,
                                sweep, timeline, verilog)
from tensix_sfpu.tb.cli.errors import CliError, NotModelled
from tensix_sfpu.tb.sims.rtl_run import RtlMismatch

# In the order `sfpu --help` lists them.
SUBCOMMANDS = (asm, disasm, run, timeline, race, perf, demo, verilog, kernel_report, sim, llk, sweep, regress, mutate,
               bench, isa)


def _version() -> str:
    from importlib import metadata
    try:
        return metadata.version("tensix-sfpu")
    except metadata.PackageNotFoundError:     # run from a checkout that was never installed
        return "not installed"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sfpu", description="Wormhole B0 and Blackhole A0 SFPU golden model and tools")
    p.add_argument("--version", action="version", version=f"sfpu (tensix-sfpu) {_version()}")
    sub = p.add_subparsers(dest="command", required=True)
    for module in SUBCOMMANDS:
        module.register(sub)
    return p


def how_to_go_on(error: UndefinedBehaviour, args) -> str | None:
    """What lets a run that stopped at a hazard go on, for the commands that
    have the options: `--allow` of the rule that stopped it, or `--lenient`."""
    if not (hasattr(args, "allow") and hasattr(args, "lenient")):
        return None
    hazard = getattr(error, "hazard", None)          # a HazardError's; always one from the cycle model
    if hazard is None:
        return "to go on past it, --lenient reports it without stopping"
    return f"to go on past it, --allow {hazard.rule} reports this rule without stopping; --lenient, every rule"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if hasattr(args, "format_given"):          # `--format` of run, timeline and race: given, or fp32
        args.format_given = args.format is not None
        args.format = args.format or "fp32"
    try:
        return args.func(args)
    except (CliError, AsmError) as e:
        print(f"sfpu: error: {e}", file=sys.stderr)
        return 2
    except RtlMismatch as e:
        from tensix_sfpu.tb.llk.frontend import with_cxx_locations
        print(f"sfpu: {with_cxx_locations(str(e))}", file=sys.stderr)
        return 1
    except UndefinedBehaviour as e:
        from tensix_sfpu.tb.llk.frontend import with_cxx_location
        print(f"sfpu: stopped: {with_cxx_location(str(e))}", file=sys.stderr)
        hint = how_to_go_on(e, args)
        if hint:
            print(f"sfpu: {hint}", file=sys.stderr)
        return 3
    except NotModelled as e:
        print(f"sfpu: stopped: {e}", file=sys.stderr)
        return 3
    except BrokenPipeError:          # output piped into a command that stopped reading
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":        # `python -m tensix_sfpu.tb.cli.main`, the module pyproject.toml names
    sys.exit(main())
