"""Options and argument types that several subcommands share."""

from __future__ import annotations

import argparse
import re

from tensix_sfpu.model import isa
from tensix_sfpu.model.hazards import RULES, rule_class
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


def add_arch_option(p, what: str = "the program's", programs: bool = True) -> None:
    """`--arch`: None when not given, so that a program's `.arch` decides; a
    command that reads no program (`programs` False: it compiles C++, decodes
    words or makes its own programs) runs the default architecture then."""
    default = (f"the program's .arch directive, else {isa.DEFAULT_ARCH.value}" if programs
               else isa.DEFAULT_ARCH.value)
    contradiction = "; an .arch that contradicts it is an error" if programs else ""
    p.add_argument("--arch", type=arch_type, default=None, metavar="{" + ",".join(a.value for a in isa.Arch) + "}",
                   help=f"{what} architecture (default: {default}){contradiction}")


class _ListRules(argparse.Action):
    """`--list-rules`: every hazard rule with its class and meaning, then stop (as --version does)."""

    def __init__(self, option_strings, dest, help=None):
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        width = max(map(len, RULES))
        for rule, meaning in RULES.items():
            print(f"{rule:<{width}}  {rule_class(rule):<14}  {meaning}")
        parser.exit()


def add_hazard_options(p) -> None:
    """What a run does at a hazard: stop (the default), `--lenient`, `--allow RULE`; and `--list-rules`."""
    p.add_argument("--lenient", action="store_true",
                   help="report hazards and undefined behaviour instead of stopping (see docs/timing.md)")
    p.add_argument("--allow", action="append", default=[], metavar="RULE",
                   help=f"report this hazard rule without stopping (repeatable); RULE is one of the {len(RULES)} "
                        "rules --list-rules prints")
    p.add_argument("--list-rules", action=_ListRules,
                   help="print every hazard rule --allow takes, its class and what it means, then stop")


def one_arch(given: isa.Arch | None, programs: list[tuple[str, isa.Arch]]) -> isa.Arch:
    """The architecture of one simulation: `--arch` if given, which every
    program (name, its architecture) must then be of, else the programs' one
    architecture (the default, `isa.DEFAULT_ARCH`, when there are none). A CliError names the
    program that disagrees."""
    arch = given or (programs[0][1] if programs else isa.DEFAULT_ARCH)
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
