"""`sfpu mutate`: how many bugs in the RTL the lock-step checks catch.

Every mutant of `tb.campaigns.mutants` (one netlist, one Verilator build, the mutant
chosen by the `mutsel` input) runs the budget of programs in lock-step with
the golden model, stopping at its first failure: a mismatch in any cycle or
in the final state, a value the monitor cannot read, or a program that does
not finish. A mutant that fails is killed; one that passes the whole budget
survived, unless `tb.campaigns.equivalent_mutants` explains why it cannot change
anything the SFPU does (equivalent).

The design itself (`mutsel` 0) runs the budget first and must pass, or no
kill would mean anything. Mutants are split into chunks, one simulation
each; `--shard i/n` keeps every n-th mutant as `sfpu regress` keeps seeds,
and `--merge` adds the shards' reports. Each run writes
build/mutate/<netlist>/<shard>/report.json and report.md.
"""

from __future__ import annotations

import argparse
import json
import pickle
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch
from tensix_sfpu.tb.campaigns import mutants as mutants_lib
from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.campaigns.equivalent_mutants import EQUIVALENT
from tensix_sfpu.tb.campaigns.regress import RegressError, _progress, parse_shard, shard_seeds
from tensix_sfpu.tb.stimulus.programs import arch_tail

# The budget, killing programs first: every directed program, the programs
# written for mutants (tb.stimulus.mutant_programs), the spec's example (a
# Wormhole listing), 24 random programs (6 of each kind), and one kernel of
# each family in its SFPLOADMACRO form (the twins and the long sorts repeat
# the same instructions); each architecture has its own kernels. Its size and
# what it kills are in docs/verification.md.
EXAMPLES = {Arch.WORMHOLE: ("macro_example_a.s",), Arch.BLACKHOLE: ()}
KERNELS = {
    Arch.WORMHOLE: ("exp_fast exp_fast_replay add_int32 mul_uint16 reciprocal_approx sigmoid gelu reduce_col_avg "
                    "reduce_row_max cumsum where_fp32 typecast_fp32_to_uint16 typecast_uint16_to_fp16b "
                    "typecast_int32_to_fp16b typecast_int32_to_fp32 typecast_uint32_to_fp16b typecast_uint32_to_fp32 "
                    "typecast_int32_to_uint16 typecast_fp32_to_fp16b").split(),
    Arch.BLACKHOLE: ("exp_fast exp_fast_replay mul_uint16 mul_uint16_square mul_uint16_3tiles reciprocal gelu "
                     "reduce_col_max reduce_row_sum reduce_row_max where_fp32 where_fp32_inplace "
                     "typecast_fp32_to_uint16 typecast_uint16_to_fp16b typecast_int32_to_fp16b typecast_int32_to_fp32 "
                     "typecast_uint32_to_fp16b").split(),
}


# More seeds of the random generators, each found by trial to kill a mutant the rest let through
# (docs/verification.md names them).
EXTRA_SEEDS = {Arch.WORMHOLE: ("macro:4", "random:legal:7:300", "random:flags:9:300"), Arch.BLACKHOLE: ()}


def budget(arch: Arch) -> str:
    """The budget's program specs for the RTL of `arch` (tb.stimulus.programs)."""
    tail = arch_tail(arch)
    return " ".join([f"directed:*{tail}", f"mutant:*{tail}", *(f"example:{name}" for name in EXAMPLES[arch]),
                     *(f"random:{kind}:1-6:200{tail}" for kind in ("legal", "macro", "flags", "break")),
                     *(f"{spec}{tail}" for spec in EXTRA_SEEDS[arch]),
                     *(f"kernel:{name}:0{tail}" for name in KERNELS[arch])])


DESIGN = 0                        # `mutsel` 0: no mutant
BACKEND = "verilator"             # docs/verification.md: the only backend fast enough for a budget per mutant


class MutateError(ValueError):
    """Bad options: the message names the option."""


@dataclass
class Outcome:
    """What became of one mutant in the budget."""
    id: int
    killed: bool
    by: str = ""                  # the program that killed it
    why: str = ""                 # the first line of the failure
    cycles: int = 0               # cycles run, up to the failure
    seconds: float = 0.0


# -- inside the simulation (the `mutants` cocotb test) ------------------------------------------

async def run_mutants(dut, ids: list[int], specs, results: Path) -> None:
    """Each mutant of `ids` runs `specs` until its first failure; the outcomes
    go to `results` (JSON) after every mutant, so a crash loses little."""
    from tensix_sfpu.model.state import DST_ROWS
    from tensix_sfpu.tb.env.cocotb_api import FallingEdge
    from tensix_sfpu.tb.env.scoreboard import Mismatch
    from tensix_sfpu.tb.env.sfpu_env import SfpuEnv
    env = SfpuEnv(dut)
    await env.start()
    outcomes: list[Outcome] = []
    for mutant in ids:
        await FallingEdge(dut.clk)       # out of the read-only phase a reset or a check ends in
        dut.mutsel.value = mutant
        outcome = Outcome(mutant, False)
        started = time.monotonic()
        for spec in specs:
            try:
                run = await env.run(spec.program, name=spec.name, seed=spec.seed, strict=spec.strict, dst=spec.dst)
                outcome.cycles += run.cycles
            except Exception as e:        # a mismatch, an unreadable value, a program that never ends
                outcome.killed, outcome.by = True, spec.name
                outcome.why = (str(e).splitlines() or [type(e).__name__])[0][:200]
                if isinstance(e, Mismatch):
                    outcome.cycles += e.cycle + 1
                break
        outcome.seconds = round(time.monotonic() - started, 2)
        outcomes.append(outcome)
        results.write_text(json.dumps([asdict(o) for o in outcomes]))
        # Back to the design before the next mutant: a reset, and every Dst row cleared through a
        # side port the mutant may have broken.
        await FallingEdge(dut.clk)
        dut.mutsel.value = DESIGN
        env.touched_rows.update(range(DST_ROWS))
        await env.reset()


# -- outside it -------------------------------------------------------------------------------

@dataclass
class Chunk:
    index: int
    ids: list[int]


def run_chunk(backend: str, netlist: Path, chunk: Chunk, budget: Path, work: Path, arch: Arch) -> list[Outcome]:
    """One simulation of the chunk's mutants (runs in a worker process).
    Mutants a crashed simulation did not reach are reported as errors."""
    folder = work / f"chunk-{chunk.index:04d}"
    folder.mkdir(parents=True, exist_ok=True)
    results = folder / "results.json"
    results.unlink(missing_ok=True)
    env = {"SFPU_MUTANTS": " ".join(map(str, chunk.ids)), "SFPU_BUDGET": str(budget.resolve()),
           "SFPU_RESULTS": str(results.resolve())}
    try:
        outcomes = runner.run(backend, ["mutants"], env, work=folder, netlist=netlist, arch=arch)
        message = "; ".join(o.message for o in outcomes if not o.passed)
    except runner.RunnerError as e:
        message = str(e)
    done = [Outcome(**o) for o in json.loads(results.read_text())] if results.is_file() else []
    reached = {o.id for o in done}
    return done + [Outcome(i, False, why=f"simulation ended early: {message or 'no results'}")
                   for i in chunk.ids if i not in reached]


def classify(outcome: Outcome, equivalent: dict[int, str]) -> str:
    if outcome.killed:
        return "killed"
    if outcome.why:
        return "error"
    return "equivalent" if outcome.id in equivalent else "survived"


def equivalent_mutants(netlist: mutants_lib.Netlist, outcomes: list[Outcome]) -> dict[int, str]:
    """The mutants that passed the budget and cannot change anything, by id,
    with the reason: proved within their cell (tb.campaigns.mutants), or explained in
    tb.campaigns.equivalent_mutants."""
    by_id = {m.id: m for m in netlist.mutants}
    passed = [by_id[o.id] for o in outcomes if not o.killed and not o.why]
    reasons = mutants_lib.locally_equivalent(netlist.folder, passed, arch=netlist.arch)
    table = EQUIVALENT[netlist.arch]
    reasons.update({m.id: table[m.key] for m in passed if m.key in table})
    return reasons


def _commit() -> str:
    done = subprocess.run(["git", "-C", str(runner.ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def mutate(netlist: mutants_lib.Netlist, ids: list[int], jobs: int, per_chunk: int, work: Path,
           out=sys.stdout) -> dict:
    from tensix_sfpu.tb.stimulus.programs import resolve_all
    work.mkdir(parents=True, exist_ok=True)
    started, commit = time.monotonic(), _commit()       # what the run starts from
    runner.build(BACKEND, netlist=netlist.verilog, arch=netlist.arch)
    budget_specs = budget(netlist.arch)
    specs = resolve_all(budget_specs)
    pickled = work / "budget.pickle"
    pickled.write_bytes(pickle.dumps(specs))
    # The design runs the whole budget alone first: if it fails, no kill means anything.
    [design] = run_chunk(BACKEND, netlist.verilog, Chunk(0, [DESIGN]), pickled, work, netlist.arch)
    if design.killed or design.why:
        raise runner.RunnerError(f"the design itself (mutsel 0) fails the budget at {design.by}: {design.why}")
    print(f"the design passes the budget: {design.cycles:,} cycles in {design.seconds:.0f} s", file=out, flush=True)
    todo = [Chunk(i + 1, ids[start:start + per_chunk]) for i, start in enumerate(range(0, len(ids), per_chunk))]
    by_id = {m.id: m for m in netlist.mutants}
    outcomes: list[Outcome] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_chunk, BACKEND, netlist.verilog, chunk, pickled, work, netlist.arch)
                   for chunk in todo]
        for done, future in enumerate(as_completed(futures), 1):
            outcomes += future.result()
            print(_progress(done, len(todo), sum(o.cycles for o in outcomes), time.monotonic() - started,
                            sum(not o.killed for o in outcomes)).replace("failing", "not killed"), file=out, flush=True)
    outcomes.sort(key=lambda o: o.id)
    equivalent = equivalent_mutants(netlist, outcomes)
    report = {"commit": commit, "arch": netlist.arch.value, "netlist": netlist.folder.name, "budget": budget_specs,
              "budget_cycles": design.cycles, "jobs": jobs, "seconds": round(time.monotonic() - started, 1),
              "mutants": [dict(asdict(by_id[o.id]), **asdict(o), status=classify(o, equivalent),
                               reason=equivalent.get(o.id, "")) for o in outcomes]}
    write(report, work)
    return report


def table(report: dict) -> str:
    """Mutants, killed, equivalent and survived per component, as Markdown."""
    rows: dict[str, dict[str, int]] = {}
    for m in report["mutants"]:
        row = rows.setdefault(m["component"], {"mutants": 0, "killed": 0, "equivalent": 0, "survived": 0})
        row["mutants"] += 1
        row["survived" if m["status"] == "error" else m["status"]] += 1
    total = {k: sum(r[k] for r in rows.values()) for k in ("mutants", "killed", "equivalent", "survived")}

    def score(r: dict) -> str:
        live = r["mutants"] - r["equivalent"]
        return f"{100 * r['killed'] / live:.1f} %" if live else "-"
    lines = ["| Component | Mutants | Killed | Equivalent | Survived | Killed of non-equivalent |",
             "|---|---:|---:|---:|---:|---:|"]
    for name in sorted(rows):
        r = rows[name]
        lines.append(f"| {name} | {r['mutants']} | {r['killed']} | {r['equivalent']} | {r['survived']} | {score(r)} |")
    lines.append(f"| **all** | **{total['mutants']}** | **{total['killed']}** | **{total['equivalent']}** | "
                 f"**{total['survived']}** | **{score(total)}** |")
    return "\n".join(lines)


def survivors(report: dict) -> str:
    lines = []
    for m in report["mutants"]:
        if m["status"] in ("survived", "error", "equivalent"):
            why = m.get("reason") or m["why"] or "passes the whole budget"
            lines.append(f"- {m['status']}: #{m['id']} {m['component']}: {m['mode']} of `{m['cell']}` port {m['port']} "
                         f"bit {m['bit']} ({', '.join(m['sources']) or '?'}): {why}")
    return "\n".join(lines) or "(none)"


def summary(report: dict) -> str:
    return (f"{len(report['mutants'])} mutants of {report['netlist']} ({report['arch']}, commit {report['commit']}), budget "
            f"{report['budget_cycles']:,} cycles, {report['seconds']:.0f} s\n\n{table(report)}\n\n"
            f"Not killed:\n{survivors(report)}")


def write(report: dict, work: Path) -> None:
    (work / "report.json").write_text(json.dumps(report, indent=1))
    (work / "report.md").write_text(summary(report) + "\n")


def merge(paths: list[Path]) -> dict:
    """Add the reports of several shards of one netlist into one. A mutant in
    more than one report (run again with `--mutants`) counts as in the last."""
    merged: dict = {}
    for path in paths:
        if not path.is_file():
            raise MutateError(f"--merge: {path}: no such report")
        try:
            r = json.loads(path.read_text(encoding="utf-8"))
            if not merged:
                merged = dict(r, mutants=[], seconds=0.0)
            elif r["netlist"] != merged["netlist"] or r["budget"] != merged["budget"]:
                raise MutateError(f"--merge: {path}: another netlist or budget ({r['netlist']}) than the first "
                                  f"report's ({merged['netlist']})")
            merged["mutants"] += r["mutants"]
            merged["seconds"] = max(merged["seconds"], r["seconds"])      # shards run side by side
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            if isinstance(e, MutateError):
                raise
            raise MutateError(f"--merge: {path}: not a report of sfpu mutate ({type(e).__name__}: "
                              f"{str(e)[:100]})") from None
    merged["mutants"] = sorted({m["id"]: m for m in merged["mutants"]}.values(), key=lambda m: m["id"])
    return reclassify(merged)


def reclassify(report: dict) -> dict:
    """The report with its equivalent mutants found again (after an entry was
    added to tb.campaigns.equivalent_mutants, no mutant needs to run again)."""
    folder = mutants_lib.MUTATE / report["netlist"]
    if not (folder / "mutants.json").is_file():
        raise MutateError(f"--merge: the netlist {report['netlist']} is not in {mutants_lib.MUTATE} any more")
    outcomes = [Outcome(**{k: m[k] for k in ("id", "killed", "by", "why", "cycles", "seconds")})
                for m in report["mutants"]]
    equivalent = equivalent_mutants(mutants_lib.load(folder), outcomes)
    for m, o in zip(report["mutants"], outcomes):
        m["status"], m["reason"] = classify(o, equivalent), equivalent.get(o.id, "")
    return report


def parse_ids(text: str, count: int) -> list[int]:
    """`--mutants 3,7-9`: ids of the catalogue (1..count)."""
    ids: list[int] = []
    for part in filter(None, text.split(",")):
        try:
            first, _, last = part.partition("-")
            ids += range(int(first), int(last or first) + 1)
        except ValueError:
            raise MutateError(f"--mutants {text!r}: {part!r} is not an id or a range A-B") from None
    wrong = [i for i in ids if not 1 <= i <= count]
    if wrong:
        raise MutateError(f"--mutants {text!r}: no mutant {wrong[0]} (there are 1..{count})")
    return ids


def main(args: argparse.Namespace) -> int:
    if args.merge:
        report = merge([Path(p) for p in args.merge])
        print(summary(report))
        return 1 if any(m["status"] in ("survived", "error") for m in report["mutants"]) else 0
    if args.per_component < 1 or args.jobs < 1 or args.chunk < 1:
        raise MutateError("--per-component, --jobs and --chunk must be at least 1")
    try:
        shard = parse_shard(args.shard)
    except RegressError as e:
        raise MutateError(str(e)) from None
    arch = args.arch or DEFAULT_ARCH
    netlist = mutants_lib.netlist(args.seed, args.per_component, arch=arch)
    if args.list:
        print("\n".join(m.describe() for m in netlist.mutants))
        return 0
    chosen = parse_ids(args.mutants, len(netlist.mutants)) if args.mutants else [m.id for m in netlist.mutants]
    ids = [chosen[i] for i in shard_seeds(0, len(chosen), shard)]
    if not ids:
        raise MutateError(f"--shard {args.shard}: no mutants left of {len(chosen)}")
    work = (Path(args.out) if args.out else netlist.folder / f"shard-{shard[0]}-of-{shard[1]}").resolve()
    print(f"mutate {arch.value}: {len(ids)} of {len(netlist.mutants)} mutants (shard {args.shard}) on Verilator, "
          f"{args.jobs} job(s), {args.chunk} mutants per simulation", flush=True)
    report = mutate(netlist, ids, args.jobs, args.chunk, work)
    print(summary(report))
    print(f"report: {work / 'report.json'} and report.md")
    return 1 if any(m["status"] in ("survived", "error") for m in report["mutants"]) else 0
