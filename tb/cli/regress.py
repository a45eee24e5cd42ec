"""`sfpu regress`: the lock-step regression of random programs (tb.campaigns.regress)."""

from __future__ import annotations

from tensix_sfpu.tb.campaigns import regress
from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.tb.cli.options import add_arch_option


def cmd_regress(args) -> int:
    try:
        return regress.main(args)
    except (regress.RegressError, runner.RunnerError) as e:
        raise CliError(str(e)) from None


def register(sub) -> None:
    p = sub.add_parser("regress", help="lock-step regression of random programs on an RTL backend (or the model alone)")
    regress.add_arguments(p)
    add_arch_option(p, "the programs' and the RTL's", programs=False)
    p.set_defaults(func=cmd_regress)
