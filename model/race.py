"""Timing exploration: does a program's result depend on when its instructions arrive?

The front end decides when an SFPU instruction can be late (docs/timing.md
"Where instructions come from"): a REPLAY playback issues back to back, so no
idle cycle falls inside one (`Instr.back_to_back`); an instruction the RISC-V
thread pushes directly may follow the previous one after any number of idle
cycles (a scalar stall, a cache miss, a semaphore wait); several threads share
the one SFPU and take turns in an order the documentation leaves open.
SFPLOADMACRO's cycle-kind delays count cycles, not instructions, so a macro's
instructions land on different thread instructions when the timing moves.

`explore` runs the program once as fast as the front end allows (the
baseline: no gaps, the threads one after another), then:

1. every single gap where one is allowed, of each length 1..max_gap;
2. with several threads, every point of each thread's code at which a later
   thread's whole code may run instead;
3. `seeds` random schedules: gaps at random points (and, with several
   threads, a random interleaving), seeded and reproducible.

A schedule is deterministic when its final Dst and LRegs equal the
baseline's. The baseline is kept as a snapshot before every point where a
schedule may leave it, so a schedule runs only from its first change, and a
schedule that only adds gaps stops as soon as its state, pending macro
instructions and results in flight equal the baseline's before the same
instruction (`CycleModel.timing_key`): from there on nothing can differ.
A gap before an instruction at which nothing is pending or in flight cannot
change a result (only stalls and hazard reports move), so it is not run.

For a divergence the schedule is run once more, logging every execution's
effects, to find the first instruction (the thread's, or one a macro
scheduled) whose results differ from the baseline's.
"""

from __future__ import annotations

import bisect
import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .asm import Directive, Instr, Program
from .cycle import CycleModel, Execution
from .hazards import Hazard, group_hazards
from .run import ThreadRegisters, take_directive, wait_cycles
from .waits import is_sync
from .state import SfpuState

DEFAULT_MAX_GAP = 8          # at least the longest macro delay (7) plus one
MAX_GAP_LIMIT = 64
DEFAULT_SEEDS = 16
RANDOM_GAP_CHANCE = 0.25     # each gap point of a random schedule gets a gap with this chance
MAX_CYCLES_PER_OP = 200      # a schedule running longer than this per instruction has run away
MAX_SNAPSHOTS = 4096         # baseline snapshots kept where schedules start (each holds a Dst: 32 KB)
SNAPSHOT_STRIDE = 64         # ... and one every this many instructions, to start the others from
DETAILED = 5                 # divergences described in full (the smallest first)


class RaceInputError(ValueError):
    """Bad input to the exploration (a gap length out of range, ...)."""


@dataclass(frozen=True)
class Op:
    """One instruction of one thread, with the directives to apply just before it."""
    thread: str
    index: int                # among that thread's instructions
    instr: Instr
    before: tuple[Directive, ...]

    @property
    def where(self) -> str:
        return f"{self.instr.loc}: {self.instr.text.strip()}"


@dataclass(frozen=True)
class Schedule:
    """An issue order (a tuple of (thread, index), shared between schedules)
    and the idle cycles before some of its instructions."""
    kind: str                                  # single-gap, switch, random
    order: tuple[tuple[str, int], ...]
    gaps: tuple[tuple[int, int], ...] = ()     # (position in `order`, idle cycles), sorted
    switch: tuple[str, int, str] | None = None  # (thread, index, thread run there), for a switch schedule

    @property
    def size(self) -> tuple[int, int, int]:
        """Smaller is simpler: changes of thread in the issue order, gaps, then idle cycles in all."""
        changes = sum(1 for a, b in zip(self.order, self.order[1:]) if a[0] != b[0])
        return (changes, len(self.gaps), sum(g for _, g in self.gaps))

    def first_change(self, baseline_order) -> int:
        """The first position at which this schedule leaves the baseline."""
        first = len(self.order)
        if self.gaps:
            first = self.gaps[0][0]
        if self.order is not baseline_order:
            for pos, (a, b) in enumerate(zip(self.order, baseline_order)):
                if a != b:
                    first = min(first, pos)
                    break
        return first


@dataclass
class Divergence:
    schedule: Schedule
    dst_cells: int                     # Dst cells (16-bit) that differ from the baseline's final Dst
    lregs: list[int]                   # LRegs whose final value differs
    first: dict | None = None          # the first execution whose results differ (`_first_difference`)
    hazards: list[Hazard] = field(default_factory=list)    # reported in this schedule, not in the baseline


@dataclass
class RaceReport:
    program: str
    arch: str
    threads: list[str]
    max_gap: int
    seeds: int
    gap_points: int                    # instructions a gap may precede
    gaps_pruned: int                   # ... at which nothing was in flight (no schedule needed)
    schedules_run: int
    baseline_cycles: int
    baseline_hazards: list[Hazard]
    divergences: list[Divergence]
    ops: dict[tuple[str, int], Op]
    divergent_schedules: int = 0
    # Hazard rules reported in divergent schedules at lines where the baseline
    # reports none of them, with the number of such schedules.
    divergent_rules: dict[str, int] = field(default_factory=dict)

    @property
    def deterministic(self) -> bool:
        return not self.divergences

    @property
    def explored(self) -> bool:
        return self.schedules_run > 0 or self.gaps_pruned > 0


# -- the program as streams of instructions ------------------------------------

def streams(program: Program) -> tuple[list[Directive], dict[str, list[Op]]]:
    """The set-up directives and each thread's instructions."""
    out: dict[str, list[Op]] = {}
    for name, items in program.threads:
        ops, before = [], []
        for item in items:
            if isinstance(item, Directive):
                before.append(item)
            else:
                ops.append(Op(name, len(ops), item, tuple(before)))
                before = []
        out[name] = ops
    return program.set_up, out


# -- running a schedule ----------------------------------------------------------

@dataclass
class _Cursor:
    """A run in progress: the model, the threads' Tensix registers, and the
    next position in the issue order."""
    model: CycleModel
    threads: ThreadRegisters
    position: int = 0
    log: list | None = None            # (cycle, key, digest, label) of every execution, when asked

    def fork(self) -> "_Cursor":
        model = self.model.fork()
        return _Cursor(model, self.threads.fork(model), self.position)


class _Runner:
    def __init__(self, program: Program, state: SfpuState, allow: set[str], dst_read_spacing: int | None,
                 base_gaps: dict[tuple[str, int], int] | None = None):
        self.set_up, self.streams = streams(program)
        self.ops = {(op.thread, op.index): op for ops in self.streams.values() for op in ops}
        self.state, self.allow, self.spacing = state, allow, dst_read_spacing
        self.base_gaps = base_gaps or {}      # idle cycles before an instruction in every schedule
        self.max_cycles = MAX_CYCLES_PER_OP * (len(self.ops) + 1) + sum(self.base_gaps.values())

    def start(self) -> _Cursor:
        state = self.state.copy()
        model = CycleModel(state, strict=False, allow=set(self.allow), full_records=False)
        if self.spacing is not None:
            model.dst_read_spacing = self.spacing
        for d in self.set_up:
            take_directive(model, d)
        threads = ThreadRegisters(model)
        threads.enter(next(iter(self.streams)))
        return _Cursor(model, threads)

    def step(self, cursor: _Cursor, word: int | None):
        record = cursor.model.step(word)
        self._observe(cursor, record)
        return record

    def _observe(self, cursor: _Cursor, record) -> None:
        """Log the cycle's executions (when the cursor keeps a log) and stop a runaway."""
        model = cursor.model
        if cursor.log is not None:
            for e in model.executed:
                cursor.log.append((record.cycle, _execution_key(e), _effects_digest(e), _Seen.of(e)))
        if model.cycle > self.max_cycles:
            raise RuntimeError(f"{model.context}: still running after {self.max_cycles} cycles")

    def present(self, cursor: _Cursor, op: Op) -> None:
        """Apply the op's directives and present its word until it is accepted."""
        cursor.threads.enter(op.thread)
        model = cursor.model
        for d in op.before:
            take_directive(model, d)
        model.context = op.where
        model.tag = (op.thread, op.index)
        if is_sync(op.instr.word):         # a wait: the SFPU's idle cycles while it holds (model.waits)
            for cycle in wait_cycles(model, op.instr):
                self._observe(cursor, cycle.record)
            return
        while self.step(cursor, op.instr.word).issued is None:
            pass

    def idle(self, cursor: _Cursor, cycles: int) -> None:
        cursor.model.context = "an idle cycle"
        for _ in range(cycles):
            self.step(cursor, None)

    def finish(self, cursor: _Cursor) -> None:
        model = cursor.model
        model.context = "after the last instruction"
        model.drain(on_cycle=lambda _, record: self._observe(cursor, record))
        model.end_of_code()

    def run(self, cursor: _Cursor, schedule: Schedule, stop_keys: list[bytes] | None = None) -> bool:
        """Run `schedule` on from the cursor's position. With `stop_keys` (the
        baseline's timing keys, by position; only for a schedule in the
        baseline's order), stop as soon as the state joins the baseline's
        after the last gap. Returns whether it stopped early."""
        gaps = dict(schedule.gaps)
        last_gap = schedule.gaps[-1][0] if schedule.gaps else -1
        for pos in range(cursor.position, len(schedule.order)):
            if stop_keys is not None and pos > last_gap and cursor.model.timing_key() == stop_keys[pos]:
                return True
            gap = gaps.get(pos, 0) + self.base_gaps.get(schedule.order[pos], 0)
            if gap:
                self.idle(cursor, gap)
            self.present(cursor, self.ops[schedule.order[pos]])
            cursor.position = pos + 1
        self.finish(cursor)
        return False


@dataclass(frozen=True)
class _Seen:
    """What the report says of an execution (the log keeps no effects)."""
    unit: str
    mnemonic: str
    origin: str
    thread: str
    tag: object
    source: str

    @classmethod
    def of(cls, e: Execution) -> "_Seen":
        return cls(e.unit.value, e.mnemonic, e.origin, e.thread, e.tag, e.source)


def _execution_key(e: Execution) -> tuple:
    return (e.origin, e.tag, e.unit.value)


def _effects_digest(e: Execution) -> bytes:
    h = hashlib.blake2b(digest_size=12)
    fx = e.effects
    for w in fx.lreg_writes:
        h.update(bytes([w.reg]) + w.mask.tobytes() + np.where(w.mask, w.values, 0).astype(np.uint32).tobytes())
    for w in fx.dst_writes:
        h.update(w.row.to_bytes(2, "little") + w.col_mask.to_bytes(2, "little") + w.values.tobytes())
    for w in fx.config_writes:
        h.update(f"{w.name}{w.index}".encode() + w.lanes.tobytes() + w.values.tobytes())
    if fx.flags is not None:
        h.update(fx.flags[0].tobytes() + fx.flags[1].tobytes())
    return h.digest()


# -- exploring -------------------------------------------------------------------

def explore(program: Program, state: SfpuState | None = None, *, max_gap: int = DEFAULT_MAX_GAP,
            seeds: int = DEFAULT_SEEDS, allow: set[str] | frozenset[str] = frozenset(),
            dst_read_spacing: int | None = None, first_seed: int = 0,
            progress: Callable[[int], None] | None = None, shortcuts: bool = True,
            base_gaps: dict[tuple[str, int], int] | None = None) -> RaceReport:
    """Explore the timings of `program` from `state` (reset if None); see the
    module's docstring. Without `shortcuts` every schedule runs from the
    start to the end and no gap point is skipped (what the shortcuts save is
    measured in `make bench`; the verdicts are the same). `base_gaps` are
    idle cycles before some instructions ((thread, index) -> cycles) that the
    baseline and every schedule keep, the explored gaps coming on top: the
    spacing the issue path gives the pushes (`sfpu race --perf-spacing`)."""
    if not 1 <= max_gap <= MAX_GAP_LIMIT:
        raise RaceInputError(f"the longest gap must be 1..{MAX_GAP_LIMIT} idle cycles, not {max_gap} (the "
                             f"longest SFPLOADMACRO delay is 7 cycles; the default {DEFAULT_MAX_GAP} covers it)")
    if seeds < 0:
        raise RaceInputError(f"the number of random schedules must be 0 or more, not {seeds}")
    if state is None:
        state = SfpuState(arch=program.arch)
    runner = _Runner(program, state, set(allow), dst_read_spacing, base_gaps)
    order = tuple((op.thread, op.index) for ops in runner.streams.values() for op in ops)
    baseline = Schedule("baseline", order)

    # The baseline: a timing key before every position, a snapshot where a
    # schedule may start (and every SNAPSHOT_STRIDE), and the execution log.
    cursor = runner.start()
    cursor.log = []
    snapshots = _Snapshots()
    keys: list[bytes] = []
    in_flight: list[bool] = []
    last_thread = order[-1][0] if order else ""
    for pos, ref in enumerate(order):
        keys.append(cursor.model.timing_key())
        in_flight.append(cursor.model.busy)
        gap_here = not runner.ops[ref].instr.back_to_back and (in_flight[-1] or not shortcuts)
        snapshots.offer(cursor, pos, needed=gap_here or ref[0] != last_thread)
        if runner.base_gaps.get(ref):
            runner.idle(cursor, runner.base_gaps[ref])
        runner.present(cursor, runner.ops[ref])
        cursor.position = pos + 1
    runner.finish(cursor)
    base_model, base_log = cursor.model, cursor.log
    base_hazards = list(base_model.hazards)

    gap_points = [pos for pos, ref in enumerate(order) if pos > 0 and not runner.ops[ref].instr.back_to_back]
    live_points = [pos for pos in gap_points if in_flight[pos] or not shortcuts]
    threads = list(runner.streams)

    def candidates():
        for pos in live_points:                          # 1. single gaps
            for length in range(1, max_gap + 1):
                yield Schedule("single-gap", order, ((pos, length),))
        for i, first in enumerate(threads):              # 2. another thread's code at each point
            for later in threads[i + 1:]:
                for index in range(1, len(runner.streams[first])):
                    yield _switch(runner, order, first, index, later)
        for s in range(first_seed, first_seed + seeds):  # 3. random schedules
            yield _random_schedule(runner, order, gap_points, max_gap, s)

    divergent: list[tuple[Schedule, int]] = []      # with the number of Dst cells that differ
    divergent_rules: dict[str, int] = {}
    base_keys = {(h.rule, h.source) for h in base_hazards}
    run = 0
    for schedule in candidates():
        start = schedule.first_change(order)
        if start >= len(order):
            continue
        if shortcuts:
            trial = snapshots.before(start)
        else:
            trial = runner.start()
        stopped = runner.run(trial, schedule, keys if shortcuts and schedule.order is order else None)
        run += 1
        if progress is not None:
            progress(run)
        if not stopped and _final_differs(trial.model.state, base_model.state):
            divergent.append((schedule, int(np.count_nonzero(trial.model.state.dst != base_model.state.dst))))
            for rule in {h.rule for h in trial.model.hazards if (h.rule, h.source) not in base_keys}:
                divergent_rules[rule] = divergent_rules.get(rule, 0) + 1

    # Those that change Dst (the kernel's output) first, then the simplest.
    divergent.sort(key=lambda d: (d[1] == 0, d[0].size))
    ranked = [s for s, _ in divergent]
    if ranked and ranked[0].order is order and len(ranked[0].gaps) > 1:
        ranked.insert(0, _shrink(runner, ranked[0], snapshots, base_model.state))
    details = [_describe(runner, s, base_model, base_log, base_hazards) for s in ranked[:DETAILED]]
    return RaceReport(program.name, program.arch.value, threads, max_gap, seeds, len(gap_points),
                      len(gap_points) - len(live_points), run, base_model.cycle, base_hazards, details,
                      runner.ops, len(divergent), dict(sorted(divergent_rules.items(), key=lambda kv: -kv[1])))


class _Snapshots:
    """Forks of the baseline before chosen positions; a schedule starts from
    the last one at or before its first change and runs forward from there."""

    def __init__(self):
        self.positions: list[int] = []
        self.cursors: list[_Cursor] = []

    def offer(self, cursor: _Cursor, pos: int, needed: bool) -> None:
        if pos % SNAPSHOT_STRIDE == 0 or (needed and len(self.cursors) < MAX_SNAPSHOTS):
            snapshot = cursor.fork()
            snapshot.position = pos
            self.positions.append(pos)
            self.cursors.append(snapshot)

    def before(self, pos: int) -> _Cursor:
        i = bisect.bisect_right(self.positions, pos) - 1
        start = self.cursors[i].fork()
        start.position = self.positions[i]
        return start


def _switch(runner: _Runner, order, first: str, index: int, later: str) -> Schedule:
    """`first`'s code up to `index`, then all of `later`'s, then the rest."""
    rest = [ref for ref in order if ref[0] != later]
    cut = rest.index((first, index))
    mine = [ref for ref in order if ref[0] == later]
    return Schedule("switch", tuple(rest[:cut] + mine + rest[cut:]), switch=(first, index, later))


def _random_schedule(runner: _Runner, order, gap_points: list[int], max_gap: int, seed: int) -> Schedule:
    rng = random.Random(seed * 7919 + 17)
    if len(runner.streams) > 1:                           # a random interleaving of the threads
        queues = {t: [(t, op.index) for op in ops] for t, ops in runner.streams.items()}
        merged = []
        while any(queues.values()):
            t = rng.choice([t for t, q in queues.items() if q])
            merged.append(queues[t].pop(0))
        order = tuple(merged)
        gap_points = [pos for pos, ref in enumerate(order) if pos > 0 and not runner.ops[ref].instr.back_to_back]
    gaps = tuple((pos, rng.randint(1, max_gap)) for pos in gap_points if rng.random() < RANDOM_GAP_CHANCE)
    return Schedule("random", order, gaps)


def _final_differs(a: SfpuState, b: SfpuState) -> bool:
    return not (np.array_equal(a.dst, b.dst) and np.array_equal(a.lregs, b.lregs))


def _shrink(runner: _Runner, schedule: Schedule, snapshots, base_state: SfpuState) -> Schedule:
    """Drop gaps one at a time while the schedule still diverges (and shorten
    the ones left), so the report shows the fewest gaps that matter."""
    gaps = list(schedule.gaps)

    def diverges(candidate: list[tuple[int, int]]) -> bool:
        trial = Schedule(schedule.kind, schedule.order, tuple(candidate))
        start = trial.first_change(schedule.order) if candidate else len(schedule.order)
        if start >= len(schedule.order):
            return False
        cursor = snapshots.before(start)
        runner.run(cursor, trial)
        return _final_differs(cursor.model.state, base_state)

    i = 0
    while i < len(gaps) and len(gaps) > 1:
        candidate = gaps[:i] + gaps[i + 1:]
        if diverges(candidate):
            gaps = candidate
        else:
            i += 1
    for i, (pos, length) in enumerate(gaps):
        for shorter in range(1, length):
            candidate = gaps[:i] + [(pos, shorter)] + gaps[i + 1:]
            if diverges(candidate):
                gaps = candidate
                break
    return Schedule("random (shrunk)", schedule.order, tuple(gaps))


def _describe(runner: _Runner, schedule: Schedule, base_model: CycleModel, base_log, base_hazards) -> Divergence:
    cursor = runner.start()
    cursor.log = []
    runner.run(cursor, schedule)
    state, base = cursor.model.state, base_model.state
    dst_cells = int(np.count_nonzero(state.dst != base.dst))
    lregs = [r for r in range(state.lregs.shape[0]) if not np.array_equal(state.lregs[r], base.lregs[r])]
    seen = {(h.rule, h.source) for h in base_hazards}
    new_hazards = [h for h in cursor.model.hazards if (h.rule, h.source) not in seen]
    return Divergence(schedule, dst_cells, lregs, _first_difference(runner, cursor.log, base_log), new_hazards)


def _first_difference(runner: _Runner, log, base_log) -> dict | None:
    """The first execution of the schedule (in its cycle order) whose
    results differ from the same execution's in the baseline, or that the
    baseline never ran; else the first the schedule never ran."""
    base = {key: (cycle, digest) for cycle, key, digest, _ in base_log}
    ran = set()
    for cycle, key, digest, e in log:
        ran.add(key)
        known = base.get(key)
        if known is None or known[1] != digest:
            return _execution_record(runner, e, cycle, known[0] if known else None,
                                     "not run in the baseline" if known is None else "different results")
    for cycle, key, _, e in base_log:
        if key not in ran:
            return _execution_record(runner, e, None, cycle, "not run in this schedule (discarded)")
    return None


def _execution_record(runner: _Runner, e: "_Seen", cycle, base_cycle, what: str) -> dict:
    op = runner.ops.get(e.tag) if isinstance(e.tag, tuple) else None
    record = {"cycle": cycle, "baseline_cycle": base_cycle, "what": what, "unit": e.unit,
              "mnemonic": e.mnemonic, "origin": e.origin, "thread": e.thread,
              "instruction": op.where if op else e.source}
    if e.origin == "macro":
        record["scheduled_by"] = op.where if op else e.source
    return record


def schedule_to_json(schedule: Schedule, ops: dict) -> dict:
    out = {"kind": schedule.kind, "gaps": [
        {"before": ops[schedule.order[pos]].where, "thread": schedule.order[pos][0],
         "index": schedule.order[pos][1], "position": pos, "cycles": length} for pos, length in schedule.gaps]}
    if schedule.switch is not None:
        first, index, later = schedule.switch
        out["switch"] = {"thread": first, "before": ops[(first, index)].where, "runs": later}
    if schedule.kind != "single-gap" and schedule.switch is None and len({t for t, _ in schedule.order}) > 1:
        out["order"] = [f"{t}:{i}" for t, i in schedule.order]
    return out


def report_to_json(report: RaceReport) -> dict:
    return {
        "program": report.program, "arch": report.arch, "threads": report.threads,
        "deterministic": report.deterministic, "explored": report.explored,
        "schedules_run": report.schedules_run, "gap_points": report.gap_points,
        "gap_points_idle": report.gaps_pruned, "max_gap": report.max_gap, "seeds": report.seeds,
        "baseline": {"cycles": report.baseline_cycles,
                     "hazards": [g.to_json() for g in group_hazards(report.baseline_hazards)]},
        "divergent_schedules": report.divergent_schedules, "divergent_rules": report.divergent_rules,
        "divergences": [{"schedule": schedule_to_json(d.schedule, report.ops), "dst_cells_differ": d.dst_cells,
                         "lregs_differ": d.lregs, "first_difference": d.first,
                         "hazards": [g.to_json() for g in group_hazards(d.hazards)]}
                        for d in report.divergences],
    }
