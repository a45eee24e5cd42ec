"""`python -m tensix_sfpu.tb.cli.llk_corpus DIR` (`make llk-corpus`): the corpus run of
tb/llk/corpus.py from the command line, sharded as the regressions are."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tensix_sfpu.tb.campaigns.regress import RegressError, shard_from_environment
from tensix_sfpu.tb.llk import corpus
from tensix_sfpu.tb.llk.sources import SourceError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tensix_sfpu.tb.cli.llk_corpus", description=corpus.__doc__.splitlines()[0])
    p.add_argument("src", nargs="?", help="the unpacked wheel's ttnn/tt_metal folder, or a tt-metal checkout")
    p.add_argument("--out", default=str(corpus.OUT))
    p.add_argument("--only", metavar="TEXT", help="only the entry points whose name contains TEXT")
    p.add_argument("--rtl", metavar="BACKEND", choices=("amaranth", "icarus", "verilator"),
                   help="also run each Wormhole SFPI entry point that ran in lock-step on the RTL")
    p.add_argument("--rtl-limit", metavar="N", type=int, help="at most N of them")
    p.add_argument("--shard", metavar="i/n", help="run every n-th entry point from the i-th (default: a Slurm job "
                                                  "array, GitLab's parallel or SFPU_SHARD, else 0/1)")
    p.add_argument("--merge", nargs="+", metavar="REPORT", help="merge shards' report.json files into --out")
    p.add_argument("--no-race", action="store_true", help="do not explore the SFPLOADMACRO kernels' timing")
    args = p.parse_args(argv)
    start = time.time()
    try:
        if args.merge:
            records = corpus.merge(args.merge, Path(args.out))
        else:
            if not args.src:
                raise SourceError("give the tree (SRC), or --merge REPORT...")
            shard, _ = shard_from_environment(args.shard)
            records = corpus.run_corpus(args.src, Path(args.out), args.only, args.rtl, args.rtl_limit, shard,
                                        not args.no_race)
    except (SourceError, RegressError) as e:
        print(f"llk-corpus: error: {e}", file=sys.stderr)
        return 2
    print(corpus.summary(records))
    print(f"report: {args.out}/report.json, report.md ({time.time() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
