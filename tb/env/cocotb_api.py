"""The cocotb names the project's test modules use, from cocotb itself when a
Verilog simulator runs them, or from the Amaranth adapter (tb.env.amaranth_cocotb)
otherwise. `tb.sims.runner` sets SFPU_BACKEND for the simulators it launches."""

import os

__all__ = ["Clock", "ClockCycles", "FallingEdge", "ReadOnly", "RisingEdge", "Timer", "get_sim_time", "start_soon"]

BACKEND = os.environ.get("SFPU_BACKEND", "amaranth")

if BACKEND == "amaranth":
    from tensix_sfpu.tb.env.amaranth_cocotb import (Clock, ClockCycles, FallingEdge, ReadOnly, RisingEdge, Timer,
                                    get_sim_time, start_soon)
else:
    from cocotb import start_soon
    from cocotb.clock import Clock
    from cocotb.simtime import get_sim_time
    from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge, Timer
