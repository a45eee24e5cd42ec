"""cocotb's test API on Amaranth's built-in simulator.

The project's cocotb test modules run unchanged on Icarus, on Verilator and
here, where nothing needs installing. This adapter gives a test what it uses
of cocotb: a `dut` whose top-level ports have `.value` (read an int, assign an
int), the triggers `RisingEdge`, `FallingEdge`, `ReadOnly`, `Timer` and
`ClockCycles`, `start_soon` with awaitable tasks, and `Clock`.

It runs every coroutine of a test from one Amaranth testbench with its own
small scheduler: writes go straight to the simulator, and a write that makes
a clock rise or fall wakes the coroutines waiting for that edge. Values read
after an edge are already the ones after it (Amaranth settles at once); a
test that samples after `ReadOnly()` and drives after an edge, as every test
here does, sees the same thing on every backend.

`run_tests(module, ...)` runs the `@cocotb.test()` functions of a module on
`hdl.sfpu.Sfpu` (or another top) and returns one `Outcome` per test. A
caller may keep the compiled simulation for its next run (`simulate(reuse=)`),
which starts it again from reset, memories included.
"""

from __future__ import annotations

import contextlib

import heapq
import importlib
import itertools
import time
import traceback
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path

from amaranth import ClockDomain, Module, Value
from amaranth.sim import Simulator

STEP = 1e-12                     # the time resolution, as the Verilog builds' 1 ps precision
UNITS = {"step": 1, "fs": 1e-3, "ps": 1, "ns": 1e3, "us": 1e6, "ms": 1e9, "sec": 1e12}


def _steps(time_: float, unit: str) -> int:
    if unit not in UNITS:
        raise ValueError(f"unknown time unit {unit!r} (one of {', '.join(UNITS)})")
    steps = round(time_ * UNITS[unit])
    if steps <= 0:
        raise ValueError(f"a Timer must wait a positive time, not {time_} {unit}")
    return steps


class SimError(RuntimeError):
    """A test used the adapter in a way no simulator allows (a write while
    read-only, a wait that can never end)."""


# -- the dut -----------------------------------------------------------------------------

class Port:
    """One top-level port: `.value` reads an int and takes an int."""

    def __init__(self, loop_ref: "_LoopRef", name: str, value: Value):
        self._loop_ref, self._name, self._value = loop_ref, name, value

    def __len__(self) -> int:
        return len(self._value)

    def __repr__(self) -> str:
        return f"Port({self._name}, {len(self)} bits)"

    @property
    def value(self) -> int:
        return self._loop_ref.loop.ctx.get(self._value)

    @value.setter
    def value(self, value) -> None:
        self._loop_ref.loop.write(self, int(value))


class Dut:
    """The design's top-level ports by their Verilog names."""

    def __init__(self, name: str, ports: dict[str, Port]):
        self._name, self._ports = name, ports

    def __getattr__(self, name: str) -> Port:
        try:
            return self.__dict__["_ports"][name]
        except KeyError:
            raise AttributeError(f"{self.__dict__['_name']} has no port {name!r}") from None


class _LoopRef:
    """Where ports find the running scheduler (there is one per simulation)."""
    loop: "_Loop"


# -- triggers ---------------------------------------------------------------------------------

class Trigger:
    def __await__(self):
        yield self
        return self


class Timer(Trigger):
    def __init__(self, time: float, unit: str = "step"):
        self.steps = _steps(time, unit)

    def __repr__(self) -> str:
        return f"Timer({self.steps} ps)"


class _Edge(Trigger):
    rising: bool

    def __init__(self, signal: Port):
        if not isinstance(signal, Port) or len(signal) != 1:
            raise SimError(f"{type(self).__name__} needs a one-bit port, not {signal!r}")
        self.signal = signal

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.signal._name})"


class RisingEdge(_Edge):
    rising = True


class FallingEdge(_Edge):
    rising = False


class ReadOnly(Trigger):
    """The end of the current time step: every value has settled; no writes."""

    def __repr__(self) -> str:
        return "ReadOnly()"


class ClockCycles:
    def __init__(self, signal: Port, num_cycles: int, rising: bool = True):
        self.edge = (RisingEdge if rising else FallingEdge)(signal)
        self.num_cycles = num_cycles

    def __await__(self):
        for _ in range(self.num_cycles):
            yield self.edge
        return self


class _Join(Trigger):
    def __init__(self, task: "Task"):
        self.task = task


# -- tasks and the scheduler -------------------------------------------------------------------

class Task:
    def __init__(self, coro: Coroutine, name: str):
        self._coro, self.name = coro, name
        self._done, self._result, self._exception, self._cancelled = False, None, None, False
        self._waiters: list[Task] = []

    def done(self) -> bool:
        return self._done

    def result(self):
        if self._exception is not None:
            raise self._exception
        return self._result

    def cancel(self) -> None:
        if not self._done:
            self._coro.close()
            self._done = self._cancelled = True
            _LoopRef.loop.forget(self)

    def __await__(self):
        if not self._done:
            yield _Join(self)
        return self.result()

    def __repr__(self) -> str:
        return f"Task({self.name})"


class _Loop:
    def __init__(self, ctx):
        self.ctx = ctx
        self.now = 0                                   # in steps
        self.ready: deque[Task] = deque()
        self.edges: dict[int, list[tuple[Task, _Edge]]] = {}
        self.readonly: list[Task] = []
        self.timers: list[tuple[int, int, Task]] = []
        self.waiting: dict[Task, object] = {}          # what each blocked task waits for (for errors)
        self.in_readonly = False
        self.failure: BaseException | None = None
        self._order = itertools.count()

    def spawn(self, coro: Coroutine) -> Task:
        if not isinstance(coro, Coroutine):
            raise TypeError(f"start_soon needs a coroutine, not {coro!r}")
        task = Task(coro, getattr(coro, "__qualname__", repr(coro)))
        self.ready.append(task)
        return task

    def write(self, port: Port, value: int) -> None:
        if self.in_readonly:
            raise SimError(f"write to {port._name} in the ReadOnly phase (at {self.now} ps)")
        waiters = self.edges.get(id(port))
        before = self.ctx.get(port._value) if waiters else None
        self.ctx.set(port._value, value)
        if waiters and (value & 1) != (before & 1):
            woken = [(t, e) for t, e in waiters if e.rising == bool(value & 1)]
            self.edges[id(port)] = [(t, e) for t, e in waiters if e.rising != bool(value & 1)]
            for task, _ in woken:
                self._wake(task)

    def _wake(self, task: Task) -> None:
        self.waiting.pop(task, None)
        self.ready.append(task)

    def _block(self, task: Task, trigger) -> None:
        self.waiting[task] = trigger
        if isinstance(trigger, Timer):
            heapq.heappush(self.timers, (self.now + trigger.steps, next(self._order), task))
        elif isinstance(trigger, _Edge):
            self.edges.setdefault(id(trigger.signal), []).append((task, trigger))
        elif isinstance(trigger, ReadOnly):
            if self.in_readonly:
                raise SimError("awaited ReadOnly() while already in the ReadOnly phase")
            self.readonly.append(task)
        elif isinstance(trigger, _Join):
            trigger.task._waiters.append(task)
        else:
            raise SimError(f"{task.name} awaited {trigger!r}, which the Amaranth backend does not provide")

    def forget(self, task: Task) -> None:
        self.waiting.pop(task, None)
        for key, waiters in self.edges.items():
            self.edges[key] = [(t, e) for t, e in waiters if t is not task]
        self.readonly = [t for t in self.readonly if t is not task]
        self.timers = [entry for entry in self.timers if entry[2] is not task]
        heapq.heapify(self.timers)

    def _run(self, task: Task) -> None:
        if task._done:
            return
        try:
            trigger = task._coro.send(None)
        except StopIteration as stop:
            self._finish(task, stop.value, None)
        except BaseException as e:  # the test's own failure, reported as cocotb would
            self._finish(task, None, e)
        else:
            try:
                self._block(task, trigger)
            except SimError as e:
                task._coro.close()
                self._finish(task, None, e)

    def _finish(self, task: Task, result, exception) -> None:
        task._done, task._result, task._exception = True, result, exception
        for waiter in task._waiters:
            self._wake(waiter)
        if exception is not None and not task._waiters and self.failure is None:
            self.failure = exception

    def _run_ready(self) -> None:
        while self.ready:
            self._run(self.ready.popleft())

    async def run(self, main: Task) -> None:
        """Run until `main` ends; time moves only when every task waits."""
        while not main._done and self.failure is None:
            self._run_ready()
            if main._done or self.failure is not None:
                break
            if self.readonly:
                ready, self.readonly = self.readonly, []
                self.in_readonly = True
                try:
                    for task in ready:
                        self.waiting.pop(task, None)
                        self._run(task)
                finally:
                    self.in_readonly = False
                continue
            if not self.timers:
                waits = ", ".join(f"{t.name} on {w!r}" for t, w in self.waiting.items()) or "nothing"
                raise SimError(f"no time can pass at {self.now} ps: no clock or Timer is running "
                               f"(waiting: {waits})")
            when = self.timers[0][0]
            await self.ctx.delay((when - self.now) * STEP)
            self.now = when
            while self.timers and self.timers[0][0] == when:
                self._wake(heapq.heappop(self.timers)[2])
        for task in list(self.waiting):
            task.cancel()
        if main._exception is not None:
            raise main._exception
        if self.failure is not None:
            raise self.failure


def start_soon(coro: Coroutine) -> Task:
    return _LoopRef.loop.spawn(coro)


class Clock:
    """A clock driven by a task, as cocotb's `Clock` is."""

    def __init__(self, signal: Port, period: float, unit: str = "step"):
        steps = _steps(period, unit)
        if steps % 2:
            raise ValueError(f"a clock period of {steps} ps cannot be split into two equal halves")
        self.signal, self.half = signal, steps // 2
        self._task: Task | None = None

    def start(self, start_high: bool = True) -> Task:
        self._task = start_soon(self._toggle(start_high))
        return self._task

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _toggle(self, high: bool) -> None:
        while True:
            self.signal.value = int(high)
            await Timer(self.half)
            high = not high


def get_sim_time(unit: str = "ns") -> float:
    return _LoopRef.loop.now / UNITS[unit]


# -- running a test module -----------------------------------------------------------------------

@dataclass
class Outcome:
    name: str
    passed: bool
    message: str = ""
    sim_time_ns: float = 0.0
    seconds: float = 0.0


def verilog_ports(component) -> dict[str, Value]:
    """A component's ports by the names its Verilog gives them (`a__0`, ...)."""
    return {"__".join(str(p) for p in path): Value.cast(value)
            for path, _member, value in component.signature.flatten(component)}


def module_tests(module) -> list:
    """The module's `@cocotb.test()` functions, in the order they are defined."""
    from cocotb._decorators import TestGenerator
    return [obj for obj in vars(module).values() if isinstance(obj, TestGenerator)]


def run_tests(module_name: str, testcase: list[str] | None = None,
              make_top: Callable | None = None, vcd: Path | None = None, reuse: object = None) -> list[Outcome]:
    """Run a cocotb test module's tests, in order, on one simulation of
    `make_top()` (default `hdl.sfpu.Sfpu`); `vcd` writes a waveform; `reuse` as `simulate`'s."""
    module = importlib.import_module(module_name)
    tests = module_tests(module)
    if testcase:
        unknown = set(testcase) - {t.name for t in tests}
        if unknown:
            raise SimError(f"{module_name} has no test {', '.join(sorted(unknown))} "
                           f"(it has {', '.join(t.name for t in tests)})")
        tests = [t for t in tests if t.name in testcase]
    return simulate([(t.name, t.func) for t in tests], make_top, vcd, reuse=reuse)


class _ShallowDesign:
    """The simulator's design as the VCD writer sees it: only the fragments at
    most `depth` deep (1: the bench, 2: the top's own signals), so that a
    waveform of the top's ports and its glue is written without the cost of
    every datapath signal inside the sub-units."""

    def __init__(self, design, depth: int):
        self._design = design
        self.fragments = {f: info for f, info in design.fragments.items() if len(info.name) <= depth}

    def __getattr__(self, name):
        return getattr(self._design, name)


@contextlib.contextmanager
def _write_vcd(sim: Simulator, vcd: Path, traces, depth: int | None):
    if depth is None:
        with sim.write_vcd(str(vcd), traces=traces):
            yield
        return
    # Amaranth 0.5 traces every fragment; its engine builds the VCD writer from
    # `_design` when the context is entered, so the shallow view is shown only then.
    engine = sim._engine
    design = engine._design
    writer = sim.write_vcd(str(vcd), traces=traces)
    engine._design = _ShallowDesign(design, depth)
    try:
        writer.__enter__()
    finally:
        engine._design = design
    try:
        yield
    finally:
        writer.__exit__(None, None, None)


class _Simulation:
    """One compiled simulation of `make_top()` with a bench that runs
    whichever tests `run` is given: Amaranth compiles a design into Python
    once (about 15 s for the whole `Sfpu`), and `Simulator.reset()` brings
    every signal, memory and the bench back to their start for the next run."""

    def __init__(self, make_top: Callable):
        design = make_top()
        top = Module()
        top.domains.sync = domain = ClockDomain("sync")
        top.submodules.dut = design
        ref = _LoopRef()
        self.ports = {"clk": domain.clk, "rst": domain.rst, **verilog_ports(design)}
        dut = Dut(type(design).__name__, {name: Port(ref, name, value) for name, value in self.ports.items()})
        self.tests: list[tuple[str, Callable]] = []
        self.outcomes: list[Outcome] = []

        async def bench(ctx):
            for name, func in self.tests:
                loop = _LoopRef.loop = ref.loop = _Loop(ctx)
                started = time.monotonic()
                try:
                    await loop.run(loop.spawn(func(dut)))
                    outcome = Outcome(name, True)
                except AssertionError as e:
                    outcome = Outcome(name, False, str(e) or traceback.format_exc(limit=-3))
                except Exception:  # any other failure of the test is its result, as in cocotb
                    outcome = Outcome(name, False, traceback.format_exc(limit=-6))
                outcome.seconds = time.monotonic() - started
                outcome.sim_time_ns = loop.now / UNITS["ns"]
                self.outcomes.append(outcome)

        self.sim = Simulator(top)
        self.sim.add_testbench(bench)
        self.used = False

    def run(self, tests: list[tuple[str, Callable]], vcd: Path | None = None,
            vcd_depth: int | None = None) -> list[Outcome]:
        if self.used:       # not before the first run: the bench's first coroutine would go unawaited
            self.sim.reset()
        self.used = True
        self.tests, self.outcomes = tests, []
        if vcd is None:
            self.sim.run()
        else:
            with _write_vcd(self.sim, vcd, list(self.ports.values()), vcd_depth):
                self.sim.run()
        return self.outcomes


# Compiled simulations kept for the process by the key their callers give (`simulate(reuse=...)`).
_KEPT: dict[object, _Simulation] = {}


def simulate(tests: list[tuple[str, Callable]], make_top: Callable | None = None,
             vcd: Path | None = None, vcd_depth: int | None = None, reuse: object = None) -> list[Outcome]:
    """Run each `(name, async func(dut))` in turn on one simulation; with `vcd`,
    write a waveform of every signal, or only of the top's (`vcd_depth=2`).
    `reuse`: a key naming the design `make_top()` builds (the same key, the same
    design): its compiled simulation is kept and reset for the next call with
    that key, rather than compiled again. A waveform is written from a fresh one."""
    if make_top is None:
        from tensix_sfpu.hdl.sfpu import Sfpu as make_top
    if reuse is None or vcd is not None:
        return _Simulation(make_top).run(tests, vcd, vcd_depth)
    simulation = _KEPT.pop(reuse, None) or _Simulation(make_top)
    outcomes = simulation.run(tests)        # kept again only once a run has ended normally
    _KEPT[reuse] = simulation
    return outcomes
