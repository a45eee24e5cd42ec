"""Evaluating Amaranth components in Amaranth's simulator from tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from amaranth.sim import Simulator


def run_clocked(dut, bench, period: float = 1e-6) -> None:
    """Run the async testbench `bench(ctx)` on `dut` with its sync clock running."""
    sim = Simulator(dut)
    sim.add_clock(period)
    sim.add_testbench(bench)
    sim.run()


def evaluate(dut, vectors: Iterable[dict[str, int]], outputs: Sequence[str]) -> list[dict[str, int]]:
    """Drive each dict of input values into a combinational `dut` and read
    `outputs` once the logic has settled. Port names may be dotted paths."""
    results: list[dict[str, int]] = []

    def port(name: str):
        obj = dut
        for part in name.split("."):
            obj = getattr(obj, part)
        return obj

    async def bench(ctx):
        for vector in vectors:
            for name, value in vector.items():
                ctx.set(port(name), value)
            results.append({name: ctx.get(port(name)) for name in outputs})

    sim = Simulator(dut)
    sim.add_testbench(bench)
    sim.run()
    return results


# -- packing values for `ctx.set` / unpacking `ctx.get` of whole structs and arrays --------

def pack(values, width: int = 32) -> int:
    """Element 0 in the low bits, as Amaranth lays out an ArrayLayout."""
    return sum(int(v) << (width * i) for i, v in enumerate(values))


def unpack(value: int, width: int, count: int) -> list[int]:
    return [(value >> (width * i)) & ((1 << width) - 1) for i in range(count)]


def pack_fields(layout, **fields) -> int:
    """A StructLayout's bits with the named fields set (the others 0)."""
    return sum(int(v) << layout[name].offset for name, v in fields.items())


def lane_mask(bools) -> int:
    return sum(1 << i for i, b in enumerate(bools) if b)


# -- LReg writes, as {(register, lane): value} ------------------------------------------------

def model_lane_writes(lreg_writes) -> dict:
    """The model's `Effects.lreg_writes` in order, later writes winning."""
    out = {}
    for w in lreg_writes:
        for lane in np.flatnonzero(w.mask):
            out[(w.reg, int(lane))] = int(w.values[lane])
    return out


def port_raw(ctx, port, per_lane: bool = False) -> int:
    """A write-back port's members (`hdl.lregs.WriteBackPort`) as the raw bits
    of its layout, for `port_lane_writes`."""
    from tensix_sfpu.hdl.lregs import LRegLaneWrite, LRegWrite
    layout = LRegLaneWrite if per_lane else LRegWrite
    reg = ctx.get(port.reg.as_value() if per_lane else port.reg)
    return (ctx.get(port.en) << layout["en"].offset | reg << layout["reg"].offset
            | ctx.get(port.data.as_value()) << layout["data"].offset)


def port_lane_writes(raws, per_lane: bool = False) -> dict:
    """The raw bits of write-back ports (`hdl.lregs.LRegWrite`, or `LRegLaneWrite`
    with a register per lane), in port order, later ports winning."""
    from tensix_sfpu.hdl.lregs import LANES, LRegLaneWrite, LRegWrite
    layout = LRegLaneWrite if per_lane else LRegWrite
    en_at, reg_at, data_at = (layout[f].offset for f in ("en", "reg", "data"))
    out = {}
    for raw in raws:
        en = raw >> en_at & 0xFFFFFFFF
        for lane in range(LANES):
            if en >> lane & 1:
                reg = raw >> (reg_at + (5 * lane if per_lane else 0)) & 31
                out[(reg, lane)] = raw >> (data_at + 32 * lane) & 0xFFFFFFFF
    return out
