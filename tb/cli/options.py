"""Options and argument types that several subcommands share."""

from __future__ import annotations

import argparse
import re

from model import isa
from tb.cli.errors import CliError
from tb.cli.table import WIDTH

WIDE_HELP = f"print tables in full, however wide (default: fit {WIDTH} columns)"


def arch_type(text: str) -> isa.Arch:
    """`--arch NAME` (wormhole, blackhole, or their short names)."""
    try:
        return isa.Arch.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_arch_option(p, what: str = "the program's") -> None:
    """`--arch`: None when not given, so that a program's `.arch` decides."""
    p.add_argument("--arch", type=arch_type, default=None, metavar="{wormhole,blackhole}",
                   help=f"{what} architecture (default: the program's .arch directive, else wormhole); "
                        "an .arch that contradicts it is an error")


RTL_WORMHOLE_ONLY = "the RTL elaborates for Wormhole only; Blackhole runs on the model"


def refuse_rtl(arch: isa.Arch | None, how: str = "drop --backend") -> None:
    """The RTL backends model Wormhole only: a Blackhole run on one is a CliError."""
    if arch is isa.Arch.BLACKHOLE:
        raise CliError(f"{RTL_WORMHOLE_ONLY}: {how}")


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
