"""Every `sfpu` subcommand's `--help` is complete: each argument says what it
is, and each option with a default says which (issue 41)."""

import argparse
import subprocess
import sys

import pytest

from tensix_sfpu.model.hazards import RULES
from tensix_sfpu.tb.cli.main import build_parser, main

# Defaults that mean "off" or "not given": nothing to state.
UNSTATED = (None, False, [], argparse.SUPPRESS)


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def label(name: str, action: argparse.Action) -> str:
    return f"sfpu {name} {'/'.join(action.option_strings) or action.dest}"


def stated(default) -> set[str]:
    """How a default may be written in the help: as printed, or with thousands separators."""
    return {str(default)} | ({f"{default:,}"} if isinstance(default, int) and not isinstance(default, bool) else set())


def problems(parsers: dict[str, argparse.ArgumentParser]) -> list[str]:
    """Every argument but -h without help, and every option with a default whose help (as printed,
    %(default)s filled in) does not say "default" and the value: a default changed with set_defaults
    (sfpu perf's --vector-mode) then shows as stale."""
    found = []
    for name, parser in parsers.items():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                found.append(f"{label(name, action)}: no help")
                continue
            if any(action.default is d or action.default == d for d in UNSTATED):
                continue
            text = parser._get_formatter()._expand_help(action)
            if "default" not in text or not any(form in text for form in stated(action.default)):
                found.append(f"{label(name, action)}: default {action.default!r} not stated in {text!r}")
    return found


def test_every_argument_has_help_and_states_its_default():
    assert problems(subparsers()) == []


def test_the_check_finds_a_missing_help_and_an_unstated_default():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--jobs", type=int, default=4, help="parallel simulations")
    p.add_argument("--cycles", type=int, default=2_000_000, help="stop after this many (default 2,000,000)")
    p.add_argument("--seeds", type=int, default=8, help="how many (default %(default)s)")
    p.add_argument("--wide", action="store_true", help="print everything")
    assert problems({"x": p}) == ["sfpu x file: no help",
                                  "sfpu x --jobs: default 4 not stated in 'parallel simulations'"]


def test_version_exists(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("sfpu (tensix-sfpu) ")


def test_the_entry_module_runs_as_a_script():
    # `python -m` of the module pyproject.toml's `sfpu` names ran nothing and exited 0.
    done = subprocess.run([sys.executable, "-m", "tensix_sfpu.tb.cli.main", "--version"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("sfpu (tensix-sfpu) ")


@pytest.mark.parametrize("command", ["llk", "disasm", "perf", "regress", "demo"])
def test_arch_of_a_command_without_a_program_defaults_to_wormhole(command):
    # These compile C++, decode raw words or make their own programs: no .arch directive decides.
    [arch] = [a for a in subparsers()[command]._actions if "--arch" in a.option_strings]
    assert ".arch" not in arch.help and "default: wormhole" in arch.help


def test_allow_points_to_the_list_of_rules(capsys):
    for command in ("run", "timeline", "race", "perf"):
        [allow] = [a for a in subparsers()[command]._actions if "--allow" in a.option_strings]
        assert "--list-rules" in allow.help and str(len(RULES)) in allow.help
    with pytest.raises(SystemExit) as stop:
        main(["run", "--list-rules"])
    lines = capsys.readouterr().out.splitlines()
    assert stop.value.code == 0 and [line.split()[0] for line in lines] == list(RULES)
    assert lines[list(RULES).index("swap-mad-nop")].split()[1] == "documented"
