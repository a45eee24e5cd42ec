"""The SFPU's configuration registers: LoadMacroConfig (four instruction
templates, four sequences, Misc) and LaneConfig, one copy per lane.

They change in two ways, both landing at the end of the cycle: SFPCONFIG
(computed by the Simple sub-unit, which reads the old values for its OR/AND/XOR
modes) and the backdoor, where a thread instruction with VD 12-15 stores its
own word in InstructionTemplate[VD-12]. Both arrive as `ConfigRegWrite`s on
the `write` ports, applied in port order so that the later write wins on a
lane, which lets the top put them in the model's execution order.
"""

from amaranth import Module, Signal
from amaranth.lib import data, enum, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model import isa

from .lregs import LANES, LaneValues
from .unit_io import DISABLE_BACKDOOR_LOAD, LaneConfig, lane_config_bit

LANE_CONFIG_BITS = 18
MISC_BITS = isa.MACRO_MISC.size
TEMPLATES = SEQUENCES = 4
WRITE_PORTS = 2


class ConfigTarget(enum.Enum, shape=3):
    NONE = 0
    TEMPLATE = 1         # InstructionTemplate[index]
    SEQUENCE = 2         # Sequence[index]
    MISC = 3
    LANE_CONFIG = 4


ConfigRegWrite = data.StructLayout({
    "target": ConfigTarget,
    "index": 2,                               # template or sequence number
    "lanes": LANES,                           # lanes written
    "values": data.ArrayLayout(32, LANES),    # per lane; the registers keep their own width
})


class ConfigRegs(wiring.Component):
    write: In(ConfigRegWrite).array(WRITE_PORTS)
    lane_config: Out(LaneConfig)
    templates: Out(data.ArrayLayout(LaneValues, TEMPLATES))
    sequences: Out(data.ArrayLayout(LaneValues, SEQUENCES))
    misc: Out(data.ArrayLayout(MISC_BITS, LANES))

    def elaborate(self, platform):
        m = Module()
        lane_config = Signal(LaneConfig, name="lane_config_q")
        templates = Signal(data.ArrayLayout(LaneValues, TEMPLATES), name="templates_q")
        sequences = Signal(data.ArrayLayout(LaneValues, SEQUENCES), name="sequences_q")
        misc = Signal(data.ArrayLayout(MISC_BITS, LANES), name="misc_q")
        m.d.comb += [self.lane_config.eq(lane_config), self.templates.eq(templates),
                     self.sequences.eq(sequences), self.misc.eq(misc)]

        # (target, index, register) for every register a write can select.
        registers = [(ConfigTarget.TEMPLATE, i, templates[i]) for i in range(TEMPLATES)]
        registers += [(ConfigTarget.SEQUENCE, i, sequences[i]) for i in range(SEQUENCES)]
        registers += [(ConfigTarget.MISC, None, misc), (ConfigTarget.LANE_CONFIG, None, lane_config)]

        # Later statements win in Amaranth, so applying the ports in order
        # makes the later port win on a lane.
        for p, port in enumerate(self.write):
            for target, index, register in registers:
                hit = Signal(name=f"hit_{p}_{target.name.lower()}{'' if index is None else index}")
                selects = port.target == target
                if index is not None:
                    selects = selects & (port.index == index)
                m.d.comb += hit.eq(selects)
                for lane in range(LANES):
                    with m.If(hit & port.lanes[lane]):
                        width = len(register[lane])
                        m.d.sync += register[lane].eq(port.values[lane][:width])
        return m


def backdoor_write(m: Module, valid, word, vd, lane_config, name: str = "backdoor") -> Signal:
    """The backdoor template load of a thread instruction: with VD 12-15 it
    stores its own `word` in InstructionTemplate[VD-12] in every lane where
    DISABLE_BACKDOOR_LOAD is clear. `valid`: the thread's instruction runs
    and has a VD field that is not SFPCONFIG's (whose VD selects a target)."""
    write = Signal(ConfigRegWrite, name=name)
    loads = Signal(name=f"{name}_loads")
    m.d.comb += [
        loads.eq(valid & (vd >= 12) & (vd < 16)),
        write.target.eq(ConfigTarget.TEMPLATE),
        write.index.eq(vd[0:2]),
        write.lanes.eq(loads.replicate(LANES) & ~lane_config_bit(lane_config, DISABLE_BACKDOOR_LOAD)),
    ]
    for lane in range(LANES):
        m.d.comb += write.values[lane].eq(word)
    return write
