"""Options and argument types that several subcommands share."""

from __future__ import annotations

import argparse
import re

from tensix_sfpu.model import isa
from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.tb.cli.table import WIDTH

WIDE_HELP = f"print tables in full, however wide (default: fit {WIDTH} columns)"


def arch_type(text: str) -> isa.Arch:
    """`--arch NAME` (wormhole, blackhole, or their short names)."""
    try:
        return isa.Arch.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def take_arch(argv: list[str]) -> tuple[isa.Arch | None, list[str]]:
    """`--arch NAME` out of hand-parsed arguments (the build and lint scripts):
    the architecture, None without the option, and the other arguments. A
    missing or unknown name is a CliError."""
    if "--arch" not in argv:
        return None, argv
    at = argv.index("--arch")
    if at + 1 >= len(argv):
        raise CliError("--arch needs a value: wormhole or blackhole")
    try:
        return arch_type(argv[at + 1]), argv[:at] + argv[at + 2:]
    except argparse.ArgumentTypeError as e:
        raise CliError(f"--arch: {e}") from None


def add_arch_option(p, what: str = "the program's") -> None:
    """`--arch`: None when not given, so that a program's `.arch` decides."""
    p.add_argument("--arch", type=arch_type, default=None, metavar="{wormhole,blackhole}",
                   help=f"{what} architecture (default: the program's .arch directive, else wormhole); "
                        "an .arch that contradicts it is an error")


def one_arch(given: isa.Arch | None, programs: list[tuple[str, isa.Arch]]) -> isa.Arch:
    """The architecture of one simulation: `--arch` if given, which every
    program (name, its architecture) must then be of, else the programs' one
    architecture (Wormhole when there are none). A CliError names the
    program that disagrees."""
    arch = given or (programs[0][1] if programs else isa.Arch.WORMHOLE)
    for name, theirs in programs:
        if theirs is not arch:
            why = f"--arch {arch.value}" if given else f"{programs[0][0]}, a {arch.value} program"
            raise CliError(f"{name} is a {theirs.value} program, but {why} sets the RTL's architecture: "
                           f"one simulation runs one architecture")
    return arch


def out_path(text: str) -> str:
    """An output path on the command line: not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path")
    return text


def name(text: str) -> str:
    """A name on the command line: not empty (which would otherwise mean the default)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name")
    return text


def cycle_range(text: str) -> tuple[int, int | None]:
    """`--cycles A:B` (either end may be left out) or `--cycles A`."""
    m = re.fullmatch(r"\s*([0-9]*)\s*(?::\s*([0-9]*)\s*)?", text, re.ASCII)
    if m is None or not (m.group(1) or m.group(2)):
        raise argparse.ArgumentTypeError(f"expected A:B, whole numbers of cycles (e.g. 38:50, 38: or :50), "
                                         f"got {text[:40]!r}")
    first, last = int(m.group(1) or 0), (int(m.group(2)) if m.group(2) else None)
    if last is not None and last < first:
        raise argparse.ArgumentTypeError(f"{text!r}: the range ends before it starts")
    return first, last
