"""What every sub-unit wrapper receives and produces: the contract between
the sub-units (Load, Simple, MAD, Round, Store) and the `Sfpu` top.

Each cycle the top hands each sub-unit its `SubUnitInputs`: at most one
instruction as an `Issue` (the thread's accepted word, or an
SFPLOADMACRO-scheduled one with its overrides already applied) and the state
as it was at the start of the cycle (`lregs`, `enabled`, `lane_config`). A
sub-unit declares them as ``inputs: In(SubUnitInputs())``; the top joins
them with `wiring.connect`. Every sub-unit asks for its
writes through write-back ports (`hdl.lregs.WriteBackPort`), which the top joins to the LReg
file in the model's order: results landing from last cycle's two-cycle
instructions first, then Load, Simple, MAD and Round, so on a conflict the
younger write wins.

A sub-unit with two-cycle results keeps them in its own pipeline registers
and presents them on its `landing` ports in the next cycle; its `write`
ports carry what lands at the end of the current cycle.
"""

from amaranth import Cat, Const, Elaboratable, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import Out

from tensix_sfpu.model.isa import LaneConfigBit

from .isa import Opcode
# Re-exported for the sub-units.
from .lregs import (LANES, NUM_LREGS, LaneValues, LRegLaneWrite, LRegWrite, WriteBack,  # noqa: F401
                    WriteBackPort, write_back)

Issue = data.StructLayout({
    "valid": 1,             # an instruction starts on this sub-unit this cycle
    "macro": 1,             # scheduled by SFPLOADMACRO (the backdoor guard passes in every lane)
    "opcode": Opcode,
    "word": 32,             # the instruction word: the thread's, the macro's template, or the macro's SFPSTORE
    "vd": 5,                # 16 = L16 (macro only)
    "vb": 4,                # as `hdl.decoder.Decoded` resolves them for the thread, or the macro's overrides
    "vc": 4,
    "store_addr": 10,       # a macro SFPSTORE: the Dst address its SFPLOADMACRO computed
})

LRegValues = data.ArrayLayout(LaneValues, NUM_LREGS)     # every LReg as the cycle reads it
LaneConfig = data.ArrayLayout(18, LANES)                 # LaneConfig of each lane


class SubUnitInputs(wiring.Signature):
    """What every sub-unit receives each cycle, seen from the top that drives it."""

    def __init__(self):
        super().__init__({
            "issue": Out(Issue),
            "lregs": Out(LRegValues),
            "enabled": Out(LANES),            # LaneEnabled
            "lane_config": Out(LaneConfig),
        })

# LaneConfig bit positions, as the ISA table names them.
ENABLE_FP16A_INF = LaneConfigBit.ENABLE_FP16A_INF
DISABLE_BACKDOOR_LOAD = LaneConfigBit.DISABLE_BACKDOOR_LOAD
ENABLE_DEST_INDEX = LaneConfigBit.ENABLE_DEST_INDEX
CAPTURE_DEFAULT_DEST_INDEX = LaneConfigBit.CAPTURE_DEFAULT_DEST_INDEX
BLOCK_DEST_WR_FROM_SFPU = LaneConfigBit.BLOCK_DEST_WR_FROM_SFPU
BLOCK_SFPU_RD_FROM_DEST = LaneConfigBit.BLOCK_SFPU_RD_FROM_DEST
DEST_RD_COL_EXCHANGE = LaneConfigBit.DEST_RD_COL_EXCHANGE
DEST_WR_COL_EXCHANGE = LaneConfigBit.DEST_WR_COL_EXCHANGE
EXCHANGE_SRCB_SRCC = LaneConfigBit.EXCHANGE_SRCB_SRCC
ROW_MASK_LO = LaneConfigBit.ROW_MASK_LO


def read_lreg(m, lregs, index, name: str) -> Signal:
    """Every lane of the LReg `index` selects (L16 at 16; 17-31 read zeros):
    a binary tree of 2:1 multiplexers on the index bits, as hardware builds a
    register read port. A simulator evaluates only the path the index takes
    (a `Mux` compiles to if/else), not a shift of all 17 registers."""
    def tree(bits: int, base: int):
        if bits == 0:
            return lregs[base].as_value()
        half = 1 << (bits - 1)
        return Mux(index[bits - 1], tree(bits - 1, base + half), tree(bits - 1, base))

    value = Signal(LaneValues, name=name)
    low = tree(min(len(index), 4), 0)
    if len(index) > 4:
        m.d.comb += value.eq(Mux(index[4:] == 0, low, Mux(index == 16, lregs[16].as_value(), 0)))
    else:
        m.d.comb += value.eq(low)
    return value


class LaneRead(Elaboratable):
    """Each lane reads the LReg (L0-L15) its own 4-bit index names: one
    per-lane 16-way multiplexer. `sel[k]` holds bit k of every lane's index,
    spread over the lane's 32 bits. The tree is written as whole-word selects
    (a bitwise mux per level), so a simulator evaluates 15 wide operations
    rather than 32 per-lane switches, and only when `lregs` or `sel` change:
    being a submodule, it does not rerun with every pass of its parent."""

    def __init__(self, lregs, sel):
        self.lregs, self.sel = lregs, sel
        self.value = Signal(LaneValues)

    def elaborate(self, platform):
        m = Module()
        level = [self.lregs[r].as_value() for r in range(16)]
        for sel in self.sel:
            level = [(lo & ~sel) | (hi & sel) for lo, hi in zip(level[0::2], level[1::2])]
        m.d.comb += self.value.eq(level[0])
        return m


def read_lreg_per_lane(m, lregs, index_bits, name: str) -> Signal:
    """`LaneRead` as a submodule `name`; `index_bits[k]` is bit k of every
    lane's index spread over the lane's 32 bits (see `spread_lane_bits`)."""
    sel = [Signal(32 * LANES, name=f"{name}_sel{k}") for k in range(len(index_bits))]
    m.d.comb += [s.eq(bits) for s, bits in zip(sel, index_bits)]
    read = m.submodules[name] = LaneRead(lregs, sel)
    return read.value


def spread_lane_bits(bits):
    """A 32-bit lane mask (bit i = lane i) as 1024 bits, each lane's bit over its 32."""
    ones = Const(0xFFFFFFFF, 32)
    return Cat(*[Mux(bits[lane], ones, 0) for lane in range(LANES)])


def lane_config_bit(lane_config, bit: int):
    """One LaneConfig bit of every lane, as a 32-bit lane mask (bit i = lane i)."""
    return Cat(*[lane_config[lane][bit] for lane in range(LANES)])


def backdoor_guard(m, issue, lane_config, name: str = "guard") -> Signal:
    """Lanes passing `VD < 12 || DISABLE_BACKDOOR_LOAD` (all lanes under a macro):
    the lanes where an instruction with VD 12-15 executes rather than only
    loading a macro template."""
    guard = Signal(LANES, name=name)
    passes = issue.macro | (issue.vd < 12)
    m.d.comb += guard.eq(passes.replicate(LANES) | lane_config_bit(lane_config, DISABLE_BACKDOOR_LOAD))
    return guard
