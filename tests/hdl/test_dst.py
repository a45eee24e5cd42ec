"""Dst against the golden model's Dst geometry: loads (`Machine.dst_read` on
the rows and columns of `_dst_lanes`), stores (`Machine.dst_write`, and its
write records merged per row), the side port and its priority over a store."""

import numpy as np
import pytest
from amaranth.back import verilog
from amaranth.sim import Simulator

from tensix_sfpu.hdl.dst import COLS, Dst
from tensix_sfpu.model.dst_format import dst32_rows
from tensix_sfpu.model.machine import Machine
from tensix_sfpu.model.semantics import _dst_lanes
from tensix_sfpu.model.state import DST_ROWS, LANES, SfpuState
from tensix_sfpu.model.isa import Arch
from tests.hdl.hdl_sim import lane_mask, pack, run_clocked, unpack


MASK32 = (1 << 32) - 1








def random_dst(rng) -> np.ndarray:
    return rng.integers(0, 1 << 16, (DST_ROWS, COLS), dtype=np.uint64).astype(np.uint16)


def model_load(dst: np.ndarray, addr: int, width: int, col_exchange: np.ndarray) -> list[int]:
    machine = Machine(SfpuState(Arch.WORMHOLE, dst=dst))
    rows, cols = _dst_lanes(addr, col_exchange)
    return [int(v) for v in machine.dst_read(width, rows, cols)]


def model_store(dst: np.ndarray, addr, width, col_exchange, raw, lanes) -> dict[int, tuple[int, list[int]]]:
    """Store into `dst` in place; return the write records merged per row: row -> (cols, values)."""
    machine = Machine(SfpuState(Arch.WORMHOLE, dst=dst))
    rows, cols = _dst_lanes(addr, col_exchange)
    machine.dst_write(width, rows, cols, np.asarray(raw, dtype=np.uint32), lanes)
    merged: dict[int, int] = {}
    for w in machine.effects.dst_writes:
        merged[w.row] = merged.get(w.row, 0) | w.col_mask
    return {row: (cols_, [int(dst[row, c]) if cols_ >> c & 1 else 0 for c in range(COLS)])
            for row, cols_ in merged.items()}


def trace_records(entries) -> dict[int, tuple[int, list[int]]]:
    records = {}
    for valid, row, cols, values in entries:
        if valid:
            assert row not in records, f"row {row} reported twice"
            records[row] = (cols, values)
    return records


def read_writes(ctx, dut) -> list:
    return [(ctx.get(e.valid), ctx.get(e.row), ctx.get(e.cols), unpack(ctx.get(e.values.as_value()), 16, COLS))
            for e in dut.writes]


def random_access(rng):
    addr = int(rng.integers(0, DST_ROWS))
    width = int(rng.choice([16, 32]))
    exchange = np.tile(rng.random(8) < 0.3, 4) if rng.random() < 0.5 else np.zeros(LANES, dtype=bool)
    return addr, width, exchange


@pytest.mark.parametrize("seed", [1, 2])
def test_random_loads_stores_and_side_port(seed):
    rng = np.random.default_rng(seed)
    init = random_dst(rng)
    dut = Dst(init=init)
    expected = init.copy()
    failures = []
    checked = {"loads": 0, "stores": 0, "side_wins": 0}

    async def bench(ctx):
        for cycle in range(150):
            # -- load port (combinational) --
            addr, width, exchange = random_access(rng)
            ctx.set(dut.load.addr, addr)
            ctx.set(dut.load.width32, width == 32)
            ctx.set(dut.load.col_exchange, lane_mask(exchange))
            got = unpack(ctx.get(dut.load.raw.as_value()), 32, LANES)
            want = model_load(expected, addr, width, exchange)
            if got != want:
                failures.append((cycle, "load", addr, width, got, want))
            checked["loads"] += 1

            # -- store and side write in the same cycle --
            s_addr, s_width, s_exchange = random_access(rng)
            lanes = rng.random(LANES) < rng.choice([0.0, 0.5, 1.0])
            raw = rng.integers(0, 1 << 32, LANES, dtype=np.uint64)
            ctx.set(dut.store.lanes, lane_mask(lanes))
            ctx.set(dut.store.addr, s_addr)
            ctx.set(dut.store.width32, s_width == 32)
            ctx.set(dut.store.col_exchange, lane_mask(s_exchange))
            ctx.set(dut.store.raw.as_value(), pack(raw, 32))
            stored_rows = sorted({int(r) for r in _dst_lanes(s_addr, s_exchange)[0]})
            side_we = rng.random() < 0.5
            if side_we and stored_rows and rng.random() < 0.6:
                side_row = int(rng.choice(stored_rows)) if s_width == 16 else None
                if side_row is None:       # one of the eight rows of a 32-bit store
                    hi, lo = dst32_rows(np.array(stored_rows))
                    side_row = int(rng.choice(np.concatenate([hi, lo])))
            else:
                side_row = int(rng.integers(0, DST_ROWS))
            side_cols = int(rng.integers(0, 1 << COLS))
            side_data = [int(v) for v in rng.integers(0, 1 << 16, COLS)]
            ctx.set(dut.side_row, side_row)
            ctx.set(dut.side_we, side_we)
            ctx.set(dut.side_cols, side_cols)
            ctx.set(dut.side_wdata.as_value(), pack(side_data, 16))

            side_before = unpack(ctx.get(dut.side_rdata.as_value()), 16, COLS)
            if side_before != [int(v) for v in expected[side_row]]:
                failures.append((cycle, "side read", side_row))
            records = trace_records(read_writes(ctx, dut))
            want_records = model_store(expected, s_addr, s_width, s_exchange, raw, lanes)
            if records != want_records:
                failures.append((cycle, "trace", records, want_records))
            if side_we:
                if side_row in want_records and want_records[side_row][0] & side_cols:
                    checked["side_wins"] += 1
                for c in range(COLS):
                    if side_cols >> c & 1:
                        expected[side_row, c] = side_data[c]
            checked["stores"] += bool(want_records)
            await ctx.tick()
            ctx.set(dut.side_we, 0)
            ctx.set(dut.store.lanes, 0)

            # -- the rows just written, through the side port --
            touched = set(want_records) | {side_row}
            for row in touched:
                ctx.set(dut.side_row, row)
                got_row = unpack(ctx.get(dut.side_rdata.as_value()), 16, COLS)
                if got_row != [int(v) for v in expected[row]]:
                    failures.append((cycle, "row after write", row, got_row, list(expected[row])))
        # The whole of Dst at the end.
        for row in range(DST_ROWS):
            ctx.set(dut.side_row, row)
            if unpack(ctx.get(dut.side_rdata.as_value()), 16, COLS) != [int(v) for v in expected[row]]:
                failures.append(("final", row))

    run_clocked(dut, bench)
    assert not failures, failures[:3]
    assert checked["stores"] > 50 and checked["side_wins"] > 5, checked


def test_load_reaches_every_row_in_both_widths():
    """Each Dst row through a 16-bit load, and each Dst32b datum through a 32-bit one."""
    rng = np.random.default_rng(7)
    init = random_dst(rng)
    dut = Dst(init=init)
    no_exchange = np.zeros(LANES, dtype=bool)
    failures = []

    async def bench(ctx):
        ctx.set(dut.load.col_exchange, 0)
        for width in (16, 32):
            ctx.set(dut.load.width32, width == 32)
            for addr in range(0, DST_ROWS, 2):       # addr bit 1 picks the odd columns
                ctx.set(dut.load.addr, addr)
                got = unpack(ctx.get(dut.load.raw.as_value()), 32, LANES)
                if got != model_load(init, addr, width, no_exchange):
                    failures.append((width, addr))

    sim = Simulator(dut)
    sim.add_testbench(bench)
    sim.run()
    assert not failures, failures[:5]


def test_verilog_converts():
    assert "module" in verilog.convert(Dst())
