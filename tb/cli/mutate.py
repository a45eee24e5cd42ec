"""`sfpu mutate`: the mutation score, mutants of the RTL against the lock-step checks (tb.campaigns.mutate)."""

from __future__ import annotations

from tensix_sfpu.tb.campaigns import mutants, mutate
from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.cli.errors import CliError


def cmd_mutate(args) -> int:
    try:
        return mutate.main(args)
    except (mutate.MutateError, mutants.MutantError, runner.RunnerError) as e:
        raise CliError(str(e)) from None


def register(sub) -> None:
    p = sub.add_parser("mutate", help="the mutation score: mutants of the RTL against the lock-step checks")
    mutate.add_arguments(p)
    p.set_defaults(func=cmd_mutate)
