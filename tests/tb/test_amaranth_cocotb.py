"""The Amaranth adapter behaves as cocotb does for what the tests use:
edges, ReadOnly, Timer, tasks, and clear errors for what no simulator allows."""

import pytest
from amaranth import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.tb.env.amaranth_cocotb import (Clock, ClockCycles, FallingEdge, ReadOnly, RisingEdge, Timer,
                                get_sim_time, simulate, start_soon)


class Counter(wiring.Component):
    """count += step on each rising edge; `double` is combinational."""
    step: In(4)
    count: Out(8)
    double: Out(9)

    def elaborate(self, platform):
        m = Module()
        m.d.sync += self.count.eq(self.count + self.step)
        m.d.comb += self.double.eq(self.count * 2)
        return m


def run(*tests):
    return simulate([(f.__name__, f) for f in tests], make_top=Counter)


def passed(*tests):
    outcomes = run(*tests)
    assert [o.passed for o in outcomes] == [True] * len(tests), [o.message for o in outcomes]
    return outcomes


def test_ports_by_verilog_name_and_clocked_logic():
    async def counts(dut):
        Clock(dut.clk, 10, unit="ns").start()
        dut.step.value = 3
        await ClockCycles(dut.clk, 4)
        await ReadOnly()
        # Four rising edges at 0, 10, 20, 30 ns with step 3 from the first.
        assert dut.count.value == 12
        assert dut.double.value == 24
        assert get_sim_time("ns") == 30
    passed(counts)


def test_drive_at_falling_edge_sample_after_rising_edge():
    async def lockstep(dut):
        Clock(dut.clk, 10, unit="ns").start()
        seen = []
        for step in (1, 2, 3):
            await FallingEdge(dut.clk)
            dut.step.value = step
            await RisingEdge(dut.clk)
            await ReadOnly()
            seen.append(dut.count.value)
        # The first rising edge (t=0) counts with step 0; then 1, 2, 3 are added.
        assert seen == [1, 3, 6]
    passed(lockstep)


def test_tasks_run_concurrently_and_join_returns_their_result():
    async def worker(dut, n):
        await ClockCycles(dut.clk, n)
        return n * 10

    async def joins(dut):
        Clock(dut.clk, 2, unit="ns").start()
        a, b = start_soon(worker(dut, 3)), start_soon(worker(dut, 5))
        assert await b == 50
        assert a.done() and await a == 30
    passed(joins)


def test_timer_moves_time_exactly():
    async def waits(dut):
        await Timer(7, unit="ns")
        await Timer(500, unit="ps")
        assert get_sim_time("ps") == 7500
    passed(waits)


def test_failures_are_reported_per_test_and_the_next_test_runs():
    async def fails(dut):
        await Timer(1, unit="ns")
        assert dut.count.value == 99, "count is not 99"

    async def background_fails(dut):
        async def boom():
            await Timer(1, unit="ns")
            raise ValueError("from a background task")
        start_soon(boom())
        await Timer(5, unit="ns")

    async def fine(dut):
        await Timer(1, unit="ns")

    first, second, third = run(fails, background_fails, fine)
    assert not first.passed and "count is not 99" in first.message
    assert not second.passed and "from a background task" in second.message
    assert third.passed


def test_what_no_simulator_allows_is_a_clear_error():
    async def writes_in_readonly(dut):
        await Timer(1, unit="ns")
        await ReadOnly()
        dut.step.value = 1

    async def waits_forever(dut):
        await RisingEdge(dut.clk)           # no clock was started

    async def unknown_port(dut):
        dut.no_such_port.value = 1

    readonly, forever, unknown = run(writes_in_readonly, waits_forever, unknown_port)
    assert "write to step in the ReadOnly phase" in readonly.message
    assert "no time can pass" in forever.message and "RisingEdge(clk)" in forever.message
    assert "has no port 'no_such_port'" in unknown.message
    with pytest.raises(ValueError, match="positive time"):
        Timer(0, unit="ns")
    with pytest.raises(ValueError, match="unknown time unit"):
        Timer(1, unit="parsec")


class Remembers(wiring.Component):
    """A register and a one-word memory with non-zero initial values, written when `we` is high."""
    we: In(1)
    reg: Out(8, init=5)
    word: Out(8)

    def elaborate(self, platform):
        from amaranth.lib.memory import Memory
        m = Module()
        m.submodules.mem = mem = Memory(shape=8, depth=1, init=[7])
        write, read = mem.write_port(), mem.read_port(domain="comb")
        m.d.comb += [write.data.eq(0xAA), write.en.eq(self.we), self.word.eq(read.data)]
        with m.If(self.we):
            m.d.sync += self.reg.eq(0x55)
        return m


def test_a_reused_simulation_starts_each_run_from_the_initial_state():
    """`simulate(reuse=KEY)` compiles the design once: the second run with the
    key builds nothing (make_top is not called again) and sees the register
    and the memory at their initial values, though the first run wrote both."""
    built = []

    def make_top():
        built.append(1)
        return Remembers()

    async def writes(dut):
        Clock(dut.clk, 10, unit="ns").start()
        assert (dut.reg.value, dut.word.value) == (5, 7)
        dut.we.value = 1
        await ClockCycles(dut.clk, 2)
        await ReadOnly()
        assert (dut.reg.value, dut.word.value) == (0x55, 0xAA)

    async def reads(dut):
        await Timer(1, unit="ns")
        assert (dut.reg.value, dut.word.value, dut.we.value) == (5, 7, 0)
        assert get_sim_time("ns") == 1

    key = ("Remembers", "test")
    for test in (writes, reads, writes):
        [outcome] = simulate([(test.__name__, test)], make_top=make_top, reuse=key)
        assert outcome.passed, outcome.message
    assert built == [1]
