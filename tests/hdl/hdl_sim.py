"""Evaluating Amaranth components in Amaranth's simulator from tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from amaranth.sim import Simulator


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
