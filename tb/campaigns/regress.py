"""`sfpu regress`: lock-step regressions of random programs on one backend.

Every seed gives one program of each kind asked for (tb.stimulus.generator: `legal`,
`macro`, `flags`, `break`), of about `--cycles` cycles each. Seeds are split
into chunks; each chunk is one simulation (tb.sims.runner, the cocotb test
`lockstep`), and chunks run in parallel, one per core. `--backend model` runs
the programs on the golden model alone: the strict model must run the legal
kinds clean and report the rule each `break` program breaks. `--arch
blackhole` runs Blackhole's programs, on the RTL elaborated for Blackhole (or
the model alone), with Blackhole's coverage bins.

A shard keeps the seeds whose index is i modulo n, so a CI matrix or a
cluster's job array spreads one regression over machines and `--merge` adds
their reports. The shard is `--shard i/n`, else it comes from the environment
of the engine that started the run (`shard_from_environment`): a Slurm job
array, GitLab's `parallel:`, or SFPU_SHARD=i/n set by a CI matrix
(tools/regress.sbatch, tools/regress-matrix.yml).

Each run writes build/regress/<name>/report.json (seeds, cycles, time,
failures with their mismatch reports, coverage) and coverage.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch
from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.campaigns.coverage import Coverage
from tensix_sfpu.tb.stimulus.generator import KINDS

REGRESS = runner.BUILD.parent / "regress"
BACKENDS = ("model",) + runner.BACKENDS


class RegressError(ValueError):
    """Bad options: the message names the option."""


@dataclass
class Chunk:
    index: int
    seeds: list[int]
    kinds: tuple[str, ...]
    cycles: int
    arch: Arch

    def specs(self) -> str:
        tail = self.arch.tagged(":{}")
        return " ".join(f"random:{kind}:{seed}:{self.cycles}{tail}" for seed in self.seeds for kind in self.kinds)


@dataclass
class ChunkResult:
    index: int
    seeds: list[int]
    passed: bool
    cycles: int = 0
    programs: int = 0
    seconds: float = 0.0
    failure: str = ""
    coverage: dict = field(default_factory=dict)


def parse_shard(text: str, where: str = "--shard") -> tuple[int, int]:
    try:
        index, count = (int(x) for x in text.split("/"))
    except ValueError:
        raise RegressError(f"{where} {text!r}: expected i/n, e.g. 0/4") from None
    if not 0 <= index < count:
        raise RegressError(f"{where} {text!r}: i must be in 0..n-1")
    return index, count


def _env_int(environ, name: str) -> int | None:
    text = environ.get(name)
    if text is None or text == "":
        return None
    try:
        return int(text)
    except ValueError:
        raise RegressError(f"environment variable {name}={text!r}: not a whole number") from None


def _slurm_shard(environ) -> tuple[int, int] | None:
    """A Slurm job array (`sbatch --array=MIN-MAX[:STEP]`): the task's place
    in the array and the array's size. An array with holes (`--array=1,3,7`)
    cannot be told from a step, so it is refused."""
    task = _env_int(environ, "SLURM_ARRAY_TASK_ID")
    if task is None:
        return None
    low, high = _env_int(environ, "SLURM_ARRAY_TASK_MIN"), _env_int(environ, "SLURM_ARRAY_TASK_MAX")
    step = _env_int(environ, "SLURM_ARRAY_TASK_STEP") or 1
    count = _env_int(environ, "SLURM_ARRAY_TASK_COUNT")
    where = f"Slurm array task {task}"
    if low is None or high is None:
        if count is None:
            raise RegressError(f"{where}: SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/_MAX is needed "
                               "to know the array's size")
        low, high, step = 0, count - 1, 1          # an array numbered from 0
    if step < 1 or not low <= task <= high or (task - low) % step or (high - low) % step:
        raise RegressError(f"{where}: not in the array {low}-{high}:{step} (SLURM_ARRAY_TASK_MIN/_MAX/_STEP)")
    size = (high - low) // step + 1
    if count is not None and count != size:
        raise RegressError(f"{where}: SLURM_ARRAY_TASK_COUNT={count}, but the array {low}-{high}:{step} has "
                           f"{size} tasks (an array with holes: give --shard instead)")
    return (task - low) // step, size


def _gitlab_shard(environ) -> tuple[int, int] | None:
    """GitLab CI's `parallel: N`: CI_NODE_INDEX counts from 1."""
    index, total = _env_int(environ, "CI_NODE_INDEX"), _env_int(environ, "CI_NODE_TOTAL")
    if index is None and total is None:
        return None
    if index is None or total is None or not 1 <= index <= total:
        raise RegressError(f"GitLab CI: CI_NODE_INDEX={environ.get('CI_NODE_INDEX')!r} and "
                           f"CI_NODE_TOTAL={environ.get('CI_NODE_TOTAL')!r} must both be set, 1 <= index <= total")
    return index - 1, total


def shard_from_environment(option: str | None, environ=None) -> tuple[tuple[int, int], str]:
    """This run's shard and where it came from: `--shard i/n` if given (it
    wins over the environment), else the environment of a Slurm job array,
    GitLab's `parallel:` or SFPU_SHARD=i/n (a CI matrix sets it), else 0/1.
    Sources in the environment that disagree are an error."""
    if option is not None:
        return parse_shard(option), "--shard"
    environ = os.environ if environ is None else environ
    found: dict[str, tuple[int, int]] = {}
    if environ.get("SFPU_SHARD"):
        found["SFPU_SHARD"] = parse_shard(environ["SFPU_SHARD"], "environment variable SFPU_SHARD")
    for name, read in (("a Slurm job array", _slurm_shard), ("GitLab CI's parallel", _gitlab_shard)):
        shard = read(environ)
        if shard is not None:
            found[name] = shard
    if len(set(found.values())) > 1:
        said = ", ".join(f"{name} says {i}/{n}" for name, (i, n) in found.items())
        raise RegressError(f"the environment names two shards ({said}); give --shard to choose")
    if found:
        name, shard = next(iter(found.items()))
        return shard, " and ".join(found)
    return (0, 1), "no shard"


def shard_seeds(first: int, count: int, shard: tuple[int, int]) -> list[int]:
    index, shards = shard
    return [seed for position, seed in enumerate(range(first, first + count)) if position % shards == index]


def chunks(seeds: list[int], kinds: tuple[str, ...], cycles: int, per_chunk: int,
           arch: Arch) -> list[Chunk]:
    return [Chunk(i, seeds[start:start + per_chunk], kinds, cycles, arch)
            for i, start in enumerate(range(0, len(seeds), per_chunk))]


def run_chunk_on_model(chunk: Chunk) -> ChunkResult:
    """The chunk's programs on the strict golden model alone: each legal
    program runs clean, each `break` program is stopped by the rule it breaks."""
    from tensix_sfpu.model.machine import UndefinedBehaviour
    from tensix_sfpu.model.run import run_program
    from tensix_sfpu.model.state import SfpuState
    from tensix_sfpu.tb.stimulus.programs import resolve_all
    coverage = Coverage(chunk.arch)
    cycles = programs = 0
    started = time.monotonic()
    failure = ""
    try:
        for spec in resolve_all(chunk.specs()):       # generation runs each legal program strictly too
            state = SfpuState(arch=spec.program.arch)
            if spec.dst is not None:
                state.dst = spec.dst.copy()
            result = run_program(spec.program, state, strict=spec.strict, keep_trace=False,
                                 on_cycle=coverage.sample)
            coverage.finish(result)
            rules = {h.rule for h in result.hazards}
            if spec.expect_rule is not None and spec.expect_rule not in rules:
                failure = (f"{spec.name}: the hazard checker did not report {spec.expect_rule} "
                           f"(it reported {', '.join(sorted(rules)) or 'nothing'})")
                break
            cycles += result.cycles
            programs += 1
    except UndefinedBehaviour as e:                   # a hazard stopped a legal program
        failure = str(e)
    return ChunkResult(chunk.index, chunk.seeds, not failure, cycles, programs, time.monotonic() - started,
                       failure, coverage.to_json())


def run_chunk(backend: str, chunk: Chunk, work: Path) -> ChunkResult:
    """One simulation of the chunk's programs (runs in a worker process)."""
    if backend == "model":
        return run_chunk_on_model(chunk)
    folder = work / f"chunk-{chunk.index:04d}"
    folder.mkdir(parents=True, exist_ok=True)
    results = folder / "results.json"
    started = time.monotonic()
    try:
        [outcome] = runner.run(backend, ["lockstep"], {"SFPU_PROGRAMS": chunk.specs(),
                                                       "SFPU_RESULTS": str(results.resolve())}, work=folder,
                                  arch=chunk.arch)
    except runner.RunnerError as e:
        return ChunkResult(chunk.index, chunk.seeds, False, seconds=time.monotonic() - started, failure=str(e))
    report = json.loads(results.read_text()) if results.is_file() else {}
    return ChunkResult(chunk.index, chunk.seeds, outcome.passed, report.get("cycles", 0),
                       len(report.get("programs", [])), time.monotonic() - started, outcome.message,
                       report.get("coverage", {}))


def _progress(done: int, total: int, cycles: int, elapsed: float, failures: int) -> str:
    rate = cycles / elapsed if elapsed else 0.0
    eta = elapsed / done * (total - done) if done else 0.0
    return (f"[{done}/{total} chunks] {cycles:,} cycles checked, {rate:,.0f} cycles/s, "
            f"{failures} failing, {elapsed:.0f} s elapsed, about {eta:.0f} s to go")


def regress(backend: str, seeds: list[int], kinds: tuple[str, ...], cycles: int, jobs: int, per_chunk: int,
            work: Path, out=sys.stdout, *, arch: Arch) -> dict:
    work.mkdir(parents=True, exist_ok=True)
    if backend not in ("amaranth", "model"):
        runner.build(backend, arch=arch)          # once, before the workers share it
    todo = chunks(seeds, kinds, cycles, per_chunk, arch)
    coverage = Coverage(arch)
    results: list[ChunkResult] = []
    started = time.monotonic()
    tty = out.isatty()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_chunk, backend, chunk, work) for chunk in todo]
        for future in as_completed(futures):
            result = future.result()
            results.append(result)
            if result.coverage:
                coverage.merge(Coverage.from_json(result.coverage))
            if not result.passed:
                print(f"\nchunk {result.index} (seeds {result.seeds[0]}-{result.seeds[-1]}) FAILED:\n"
                      f"{result.failure}", file=out)
            line = _progress(len(results), len(todo), sum(r.cycles for r in results), time.monotonic() - started,
                             sum(not r.passed for r in results))
            print(("\r" + line) if tty else line, end="" if tty else "\n", file=out, flush=True)
    if tty:
        print(file=out)
    elapsed = time.monotonic() - started
    results.sort(key=lambda r: r.index)
    total_cycles = sum(r.cycles for r in results)
    report = {
        "backend": backend, **({} if arch is DEFAULT_ARCH else {"arch": arch.value}), "kinds": list(kinds), "cycles_per_program": cycles, "seeds": seeds,
        "chunks": len(results), "programs": sum(r.programs for r in results), "cycles": total_cycles,
        "seconds": round(elapsed, 1), "cycles_per_second": round(total_cycles / elapsed, 1) if elapsed else 0,
        "jobs": jobs, "failures": [{"seeds": r.seeds, "message": r.failure} for r in results if not r.passed],
        "coverage": coverage.to_json(),
    }
    write_report(report, work)
    return report


def write_report(report: dict, folder: Path) -> Path:
    """report.json and coverage.md in `folder`; returns the folder."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "report.json").write_text(json.dumps(report, indent=1))
        (folder / "coverage.md").write_text(Coverage.from_json(report["coverage"]).report_markdown())
    except OSError as e:
        raise RegressError(f"--out {folder}: cannot write the report ({e.strerror or e})") from None
    return folder


def merge(reports: list[Path]) -> dict:
    """Add the reports of several shards (of one architecture) into one."""
    merged: dict = {}
    coverage = None
    for path in reports:
        if not path.is_file():
            raise RegressError(f"--merge: {path}: no such report")
        try:
            r = json.loads(path.read_text(encoding="utf-8"))
            shard = Coverage.from_json(r["coverage"])
            if coverage is None:
                coverage = shard
            elif shard.arch is coverage.arch:
                coverage.merge(shard)
            if not merged:
                merged = dict(r, seeds=[], failures=[], cycles=0, programs=0, chunks=0, seconds=0.0)
            for key in ("seeds", "failures"):
                merged[key] += r[key]
            for key in ("cycles", "programs", "chunks"):
                merged[key] += r[key]
            merged["seconds"] = max(merged["seconds"], r["seconds"])     # shards run side by side
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise RegressError(f"--merge: {path}: not a report of sfpu regress ({type(e).__name__}: "
                               f"{str(e)[:100]})") from None
        if shard.arch is not coverage.arch:
            raise RegressError(f"--merge: {path}: a {shard.arch.value} report among {coverage.arch.value} ones")
    merged["coverage"] = coverage.to_json()
    return merged


def summary(report: dict) -> str:
    coverage = Coverage.from_json(report["coverage"])
    rate = report["cycles"] / report["seconds"] if report["seconds"] else 0
    lines = [f"{report['backend']}: {report['programs']} programs, {report['cycles']:,} cycles in "
             f"{report['seconds']:.0f} s ({rate:,.0f} cycles/s), {len(report['failures'])} failing chunk(s)",
             "", coverage.summary()]
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=BACKENDS, default="verilator",
                   help="an RTL simulator with the model in lock-step, or the model alone (default %(default)s)")
    p.add_argument("--seeds", type=int, default=8, help="how many seeds (default 8)")
    p.add_argument("--first-seed", type=int, default=1,
                   help="the first seed; --seeds N runs it and the N-1 after it (default %(default)s)")
    p.add_argument("--cycles", type=int, default=200, help="cycles per program, about (default 200)")
    p.add_argument("--kinds", default=",".join(KINDS), help=f"program kinds (default {','.join(KINDS)})")
    p.add_argument("--shard", default=None,
                   help="i/n: this machine's share of the seeds (default: from a Slurm job array, GitLab's "
                        "CI_NODE_INDEX/CI_NODE_TOTAL or SFPU_SHARD=i/n in the environment, else 0/1)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="parallel simulations (default: the cores, %(default)s here)")
    p.add_argument("--chunk", type=int, default=None, help="seeds per simulation (default: spread over the jobs)")
    p.add_argument("--out", default=None, help="report folder (default build/regress/<backend>-<shard>)")
    p.add_argument("--merge", nargs="+", metavar="REPORT",
                   help="add shard reports (report.json) and print them; with --out, also write the sum there")


def main(args: argparse.Namespace) -> int:
    if args.merge:
        report = merge([Path(p) for p in args.merge])
        print(summary(report))
        if args.out:
            written = write_report(report, Path(args.out))
            print(f"report: {written / 'report.json'}, coverage: {written / 'coverage.md'}")
        return 1 if report["failures"] else 0
    kinds = tuple(k for k in args.kinds.split(",") if k)
    unknown = set(kinds) - set(KINDS)
    if unknown or not kinds:
        raise RegressError(f"--kinds: unknown kind(s) {', '.join(sorted(unknown)) or '(none)'} "
                           f"(known: {', '.join(KINDS)})")
    if args.seeds < 1 or args.cycles < 10 or args.jobs < 1:
        raise RegressError("--seeds and --jobs must be at least 1 and --cycles at least 10")
    shard, source = shard_from_environment(args.shard)
    seeds = shard_seeds(args.first_seed, args.seeds, shard)
    if not seeds:
        raise RegressError(f"shard {shard[0]}/{shard[1]} (from {source}): no seeds left of {args.seeds}")
    per_chunk = args.chunk or max(1, min(25, -(-len(seeds) // (args.jobs * 4))))
    work = (Path(args.out) if args.out else REGRESS / f"{args.backend}-{shard[0]}-of-{shard[1]}").resolve()
    arch = (args.arch or DEFAULT_ARCH).tagged("{} ")
    print(f"regress {arch}on {args.backend}: seeds {seeds[0]}..{seeds[-1]} ({len(seeds)} of shard {shard[0]}/{shard[1]}, "
          f"from {source}), "
          f"kinds {','.join(kinds)}, {args.cycles} cycles each, {args.jobs} jobs, {per_chunk} seeds per simulation",
          flush=True)
    report = regress(args.backend, seeds, kinds, args.cycles, args.jobs, per_chunk, work,
                     arch=args.arch or DEFAULT_ARCH)
    print(summary(report))
    print(f"report: {work / 'report.json'}, coverage: {work / 'coverage.md'}")
    return 1 if report["failures"] else 0
