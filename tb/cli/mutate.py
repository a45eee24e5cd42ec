"""`sfpu mutate`: the mutation score, mutants of the RTL against the lock-step checks (tb.campaigns.mutate)."""

from __future__ import annotations

from tensix_sfpu.tb.campaigns import mutants, mutate
from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.tb.cli.options import add_arch_option


def cmd_mutate(args) -> int:
    try:
        return mutate.main(args)
    except (mutate.MutateError, mutants.MutantError, runner.RunnerError) as e:
        raise CliError(str(e)) from None


def add_arguments(p) -> None:
    """`sfpu mutate`'s options (tb.campaigns.mutate.main reads them)."""
    add_arch_option(p, "the mutated RTL's and the budget's", programs=False)
    p.add_argument("--seed", type=int, default=1, help="seed of the candidates and the draw (default 1)")
    p.add_argument("--per-component", type=int, default=16, help="mutants drawn per component (default 16)")
    p.add_argument("--mutants", default="", help="ids to run, e.g. 3,7-9 (default all)")
    p.add_argument("--shard", default="0/1", help="i/n: this machine's share of the mutants (default %(default)s: all)")
    p.add_argument("--jobs", type=int, default=1, help="parallel simulations (default 1)")
    p.add_argument("--chunk", type=int, default=10, help="mutants per simulation (default 10)")
    p.add_argument("--out", default=None, help="report folder (default build/mutate/<netlist>/<shard>)")
    p.add_argument("--list", action="store_true", help="print the catalogue of mutants and stop")
    p.add_argument("--merge", nargs="+", metavar="REPORT", help="add shard reports (report.json) and print them")


def register(sub) -> None:
    p = sub.add_parser("mutate", help="the mutation score: mutants of the RTL against the lock-step checks")
    add_arguments(p)
    p.set_defaults(func=cmd_mutate)
