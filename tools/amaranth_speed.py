"""Amaranth's simulator on the whole `Sfpu`, raw: the words of a program
presented one per cycle from an Amaranth testbench (no cocotb adapter, no
model), timed in CPU seconds of the simulation loop (`time.process_time`,
steadier than wall time on a shared machine).

    python tools/amaranth_speed.py [--program SPEC] [--tree PATH ...] [--rounds N]
                                   [--profile] [--wakes MODULE]

The words come from this tree's `tb.stimulus.programs` (default `random:legal:1:300`),
and the same words go to every `--tree` (another checkout, for example the
baseline commit), each simulated in a fresh process, the trees alternating
round by round. `--profile` times each module's compiled processes (folding
the per-lane instances of a component into one row) and counts how often
each reruns per cycle; `--wakes MODULE` (a hierarchy path such as
`top.simple`) lists the inputs of that module's combinational process by how
often each changes per cycle: what makes it rerun.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def simulate(tree: str, words: list[int], arch: str, profile: bool, wakes: str | None) -> dict:
    """Run in a fresh process whose sys.path starts at `tree`."""
    sys.set_int_max_str_digits(0)          # Amaranth's generated code writes wide constants in decimal
    sys.path.insert(0, tree)
    from amaranth.sim import Simulator, _pyrtl, pysim

    from tensix_sfpu.hdl.sfpu import Sfpu
    from tensix_sfpu.model.isa import Arch
    owner = {}
    if profile or wakes:
        compile_fragment = _pyrtl._FragmentCompiler.__call__

        def recording(self, fragment):
            processes = compile_fragment(self, fragment)
            for p in processes:
                owner.setdefault(p, fragment)      # a submodule's processes are recorded first
            return processes
        _pyrtl._FragmentCompiler.__call__ = recording
    changes = collections.Counter()
    if wakes:
        commit = pysim._PySignalState.commit

        def counting(self):
            changed = self.curr != self.next
            result = commit(self)
            if changed:
                changes[id(self.signal)] += 1
            return result
        pysim._PySignalState.commit = counting

    dut = Sfpu(Arch(arch))             # the program's architecture (by value: older trees parse it too)
    sim = Simulator(dut)
    design = sim._engine._design
    paths = {fragment: ".".join(info.name) for fragment, info in design.fragments.items()}
    stats = collections.defaultdict(lambda: [0, 0.0])
    if profile:
        for process, fragment in owner.items():
            key = (paths.get(fragment, "?"), "comb" if process.is_comb else "sync")

            def timed(run=process.run, s=stats[key], clock=time.perf_counter):
                start = clock()
                run()
                s[1] += clock() - start
                s[0] += 1
            process.run = timed
    inputs = []
    if wakes:
        # Amaranth appends `$N` to a module name that another name in its parent already uses.
        matches = [f for f, path in paths.items() if re.fullmatch(re.escape(wakes) + r"(\$\d+)?", path)]
        if not matches:
            raise SystemExit(f"no module {wakes!r} (modules: {', '.join(sorted(paths.values())[:20])}, ...)")
        fragment = matches[0]
        process = next(p for p, f in owner.items() if f is fragment and p.is_comb)
        for slot in sim._engine._state.slots:
            for waker in getattr(slot, "wakers", []):
                if any(c.cell_contents is process for c in (getattr(waker, "__closure__", None) or ())):
                    inputs.append(slot.signal)

    stream = hasattr(dut, "instr") and hasattr(dut.instr, "payload")      # older tops had instr_word
    valid = dut.instr.valid if stream else dut.instr_valid
    payload = dut.instr.payload if stream else dut.instr_word
    elapsed = []

    async def bench(ctx):
        await ctx.tick()
        start = time.process_time()
        for word in words:
            ctx.set(valid, 1)
            ctx.set(payload, word)
            await ctx.tick()
        elapsed.append(time.process_time() - start)

    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    cycles = len(words)
    out = {"tree": tree, "cycles": cycles, "cpu_s": elapsed[0], "cycles_per_s": cycles / elapsed[0]}
    if profile:
        rows = collections.defaultdict(lambda: [0, 0.0, 0])
        for (path, domain), (runs, seconds) in stats.items():
            folded = ".".join(part.rstrip("0123456789").rstrip("_$") or part for part in path.split("."))
            row = rows[(folded, domain)]
            row[0] += runs
            row[1] += seconds
            row[2] += 1
        total = sum(r[1] for r in rows.values())
        out["profile"] = [{"module": path, "domain": domain, "instances": n, "share": seconds / total,
                           "runs_per_cycle_per_instance": runs / cycles / n}
                          for (path, domain), (runs, seconds, n) in sorted(rows.items(), key=lambda kv: -kv[1][1])]
    if wakes:
        names = {}
        for fragment, info in design.fragments.items():
            for signal, name in info.signal_names.items():
                names.setdefault(id(signal), f"{'.'.join(info.name)}.{name}")
        out["wakes"] = [{"signal": names.get(id(s), s.name), "bits": len(s), "changes_per_cycle": changes[id(s)] / cycles}
                        for s in sorted(inputs, key=lambda s: -changes[id(s)])]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--program", default="random:legal:1:300", help="a program spec (tb.stimulus.programs)")
    p.add_argument("--tree", action="append", help="a checkout whose Sfpu to simulate (default: this one)")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--profile", action="store_true", help="time each module's processes")
    p.add_argument("--wakes", metavar="MODULE", help="what wakes MODULE's combinational process")
    p.add_argument("--run", nargs=3, metavar=("TREE", "WORDS", "ARCH"), help=argparse.SUPPRESS)   # the child process
    args = p.parse_args()
    if args.run:
        tree, words, arch = args.run
        print(json.dumps(simulate(tree, json.loads(Path(words).read_text()), arch, args.profile, args.wakes)))
        return 0

    from tensix_sfpu.tb.stimulus.programs import resolve_all
    specs = resolve_all(args.program)
    words = [w for spec in specs for w in spec.program.words]
    archs = {spec.program.arch.value for spec in specs}
    if len(archs) != 1:
        print(f"--program {args.program}: give programs of one architecture", file=sys.stderr)
        return 2
    arch, = archs
    trees = args.tree or [str(ROOT)]
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(words, f)
        f.flush()
        for round_ in range(1, args.rounds + 1):
            for tree in trees:
                extra = (["--profile"] if args.profile else []) + (["--wakes", args.wakes] if args.wakes else [])
                child = subprocess.run([sys.executable, __file__, "--run", str(Path(tree).resolve()), f.name, arch, *extra],
                                       capture_output=True, text=True, cwd=tree)
                if child.returncode:
                    print(child.stderr, file=sys.stderr)
                    return 1
                r = json.loads(child.stdout)
                print(f"round {round_}  {tree}: {r['cycles']} cycles, {r['cpu_s']:.2f} s of CPU, "
                      f"{r['cycles_per_s']:.1f} cycles/s", flush=True)
                for row in r.get("profile", [])[:30]:
                    print(f"  {row['share']:6.1%}  {row['runs_per_cycle_per_instance']:5.2f} runs/cycle "
                          f"x{row['instances']:<3} {row['domain']:4} {row['module']}")
                for row in r.get("wakes", [])[:30]:
                    print(f"  {row['changes_per_cycle']:5.2f}/cycle {row['bits']:6} bits  {row['signal']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
