"""`sfpu bench`: the speed of the model, the FMA and every RTL backend (tb.campaigns.bench)."""

from __future__ import annotations

from tensix_sfpu.tb.campaigns import bench


def register(sub) -> None:
    p = sub.add_parser("bench", help="measure the speed of the model, the FMA and every RTL backend")
    bench.add_arguments(p)
    p.set_defaults(func=bench.main)
