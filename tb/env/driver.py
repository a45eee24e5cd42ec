"""The driver of the lock-step environment (tb.env.sfpu_env.SfpuEnv):
`InstructionDriver` presents one word per cycle on the instruction port, and
applies the assembler's directives in frozen cycles (`run` low), as the
golden model applies them between two cycles.

It drives at the falling edge, so that every simulator shows the same values
when the monitor samples after the rising edge.
"""

from __future__ import annotations

from tensix_sfpu.hdl.lregs import LRegWrite
from tensix_sfpu.hdl.tensix import ConfigField, ConfigWrite, pack_addr_mod
from tensix_sfpu.model.asm import Directive
from tensix_sfpu.model.state import LANES, SfpuState
from tensix_sfpu.tb.env.cocotb_api import FallingEdge

ALL_LANES = (1 << LANES) - 1
DIRECTIVE_FIELDS = {
    "fp32_dest": ConfigField.FP32_DEST, "srcb_format": ConfigField.SRCB_FORMAT, "rwc_dst": ConfigField.RWC_DST,
    "dest_offset": ConfigField.DEST_OFFSET, "dest_base": ConfigField.DEST_BASE,
    "addr_mod_base": ConfigField.ADDR_MOD_SET_BASE, "prng_seed": ConfigField.PRNG_SEED,
    # Blackhole only: the assembler accepts them after `.arch blackhole`.
    "rwc_sp": ConfigField.RWC_SP, "sfpu_stack_incr": ConfigField.SFPU_STACK_INCR,
    "dest_sp_base": ConfigField.DEST_SP_BASE, "dest_remap_addrs": ConfigField.DEST_REMAP_ADDRS,
    "dest_swizzle_32b": ConfigField.DEST_SWIZZLE_32B,
}


class InstructionDriver:
    """The instruction, configuration and LReg-load ports, driven at falling edges."""

    def __init__(self, dut):
        self.dut = dut
        self.harness = hasattr(dut, "blk_start")     # tb.env.harness around the Sfpu

    async def present(self, word: int | None) -> None:
        await FallingEdge(self.dut.clk)
        self._idle_side_ports()
        self.dut.run.value = 1
        self.dut.instr__valid.value = int(word is not None)
        self.dut.instr__payload.value = word or 0

    async def directive(self, d: Directive, state: SfpuState) -> None:
        """One frozen cycle in which the RTL takes the directive `state` has
        already applied."""
        await FallingEdge(self.dut.clk)
        self.dut.run.value = 0
        self.dut.instr__valid.value = 0
        if d.name == "lreg":
            values = state.lregs[d.args[0]]
            port = LRegWrite.const({"en": ALL_LANES, "reg": d.args[0],
                                    "data": [int(v) for v in values]})
            self.dut.lreg_load.value = port.as_bits()
            return
        if d.name == "addr_mod":
            write = {"valid": 1, "field": ConfigField.ADDR_MOD, "index": d.args[0],
                     "value": pack_addr_mod(state.tensix.addr_mods[d.args[0]])}
        else:
            write = {"valid": 1, "field": DIRECTIVE_FIELDS[d.name], "value": d.args[0]}
        self.dut.config_write.value = ConfigWrite.const(write).as_bits()

    async def write_dst_rows(self, rows) -> None:
        """Frozen cycles, each writing one whole Dst row (`(row, 16 packed
        16-bit values)`) through the side port; frozen again after."""
        for row, packed in rows:
            await FallingEdge(self.dut.clk)
            self.dut.dst_cols.value = 0xFFFF
            self.dut.dst_row.value = row
            self.dut.dst_wdata.value = packed
            self.dut.dst_we.value = 1
        await self.freeze()

    async def freeze(self) -> None:
        await FallingEdge(self.dut.clk)
        self.freeze_now()

    def freeze_now(self) -> None:
        self._idle_side_ports()
        self.dut.instr__valid.value = 0
        self.dut.run.value = 0

    def _idle_side_ports(self) -> None:
        self.dut.config_write.value = 0
        self.dut.lreg_load.value = 0
        self.dut.dst_we.value = 0
        if self.harness:        # undriven, a Verilog simulator's X would reach every port
            self.dut.blk_start.value = 0

