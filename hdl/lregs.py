"""The LReg file: L0-L7, the constants L8-L15, and the macro-only L16.

Writes arrive on write-back ports, one per sub-unit result plus the few extra
writes instructions make (SFPSWAP's second register and its dest-index pair,
SFPSHFT2's copies, Load's dest-index capture, the bench's `lreg_load`). A
port (`WriteBackPort`) names one target register for all its lanes; only the
MAD unit's indirect VD needs a target per lane (`per_lane`). Each port is
declared with the registers it can reach (`WriteBack`), and only those
registers get a multiplexer input from it. Writes land at the end of the
cycle; a later port overrides an earlier one on the same lane (the younger
instruction wins), which is the golden model's order of writes.

SFPTRANSP transposes L0-L3 and L4-L7 as 4 x 4 blocks of rows of 8 lanes
(new L[b+r] row k = old L[b+k] row r). It is one more write source at its
place in the order: a fixed wiring of the old values, under its lane mask.
A mapping bit per group that flips instead of moving data was measured and
dropped: docs/synthesis.md.

`value` shows every register as the instructions of this cycle read it;
`written` the lanes of each register written at the end of the cycle (the
trace's record).
"""

from typing import NamedTuple

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

LANES = 32
ROW_LANES = 8
NUM_LREGS = 17
L16 = 16
ALL_LANES = (1 << LANES) - 1

# Fixed constants and the reset values of the programmable ones (L11-L14).
CONST_0_8373, CONST_ONE = 0x3F56594B, 0x3F800000
PROGRAMMABLE_RESET = {11: 0xBF800000, 12: 0x37800000, 13: 0xBF2CC4C7, 14: 0xBEB08FF9}

# Which registers a write can reach.
L0_L7 = tuple(range(8))
VD_TARGETS = (*L0_L7, L16)                                   # an instruction's VD: L8-L15 are not written
WRITABLE = (*L0_L7, *PROGRAMMABLE_RESET, L16)                 # every register with storage

LaneValues = data.ArrayLayout(32, LANES)

# A write: the lanes written, one target register, the values (what a
# write-back port carries, and what a sub-unit holds in its pipeline registers).
LRegWrite = data.StructLayout({"en": LANES, "reg": 5, "data": LaneValues})
# The same with a target register per lane (SFPMAD's INDIRECT_VD).
LRegLaneWrite = data.StructLayout({"en": LANES, "reg": data.ArrayLayout(5, LANES), "data": LaneValues})


class WriteBackPort(wiring.Signature):
    """A write-back port, seen from the sub-unit that writes: the members of
    `LRegWrite` (or `LRegLaneWrite` with `per_lane`)."""

    def __init__(self, per_lane: bool = False):
        layout = LRegLaneWrite if per_lane else LRegWrite
        super().__init__({name: Out(field.shape) for name, field in layout})


def write_back(port, write) -> list:
    """Drive the write-back port `port` from `write`, a value of its layout."""
    return [port.en.eq(write.en), port.reg.eq(write.reg), port.data.eq(write.data)]


class WriteBack(NamedTuple):
    """One write-back port of the LReg file: the registers it can reach,
    whether it names its target per lane, and whether it still writes while
    the SFPU is frozen (the bench's port). A port that reaches one register
    does not look at its `reg`."""
    targets: tuple
    per_lane: bool = False
    while_frozen: bool = False

    @property
    def signature(self) -> WriteBackPort:
        return WriteBackPort(self.per_lane)

    def lanes_to(self, port, reg, en=None):
        """The lanes of register `reg` (a number, or a signal) that `port`
        writes, with `en` in place of the port's own lanes if given."""
        en = port.en if en is None else en
        if len(self.targets) == 1:
            return en if isinstance(reg, int) else Mux(reg == self.targets[0], en, 0)
        if self.per_lane:
            return en & Cat(*[port.reg[lane] == reg for lane in range(LANES)])
        return Mux(port.reg == reg, en, 0)


def transpose_source(reg: int, lane: int) -> tuple[int, int]:
    """SFPTRANSP: the (register, lane) whose old value lands in `reg`, `lane` (L0-L7)."""
    base, r = reg & ~3, reg & 3
    k, c = divmod(lane, ROW_LANES)
    return base + k, r * ROW_LANES + c


class LRegFile(wiring.Component):
    """`ports` in priority order (later wins); SFPTRANSP's move takes effect
    after the first `transpose_position` of them and before the rest (the
    Simple sub-unit's place in the order of writes). Port i is `write[i]`.
    While `run` is low only the ports declared `while_frozen` write."""

    def __init__(self, ports, transpose_position: int = 0):
        self.ports = tuple(ports)
        self.transpose_position = transpose_position
        super().__init__({
            **{f"write_{i}": In(port.signature) for i, port in enumerate(self.ports)},
            "run": In(1, init=1),                # low: the SFPU is frozen
            "transpose": In(1),                  # SFPTRANSP this cycle
            "transpose_lanes": In(LANES),        # the lanes it writes
            "value": Out(LaneValues).array(NUM_LREGS),
            "written": Out(LANES).array(NUM_LREGS),  # lanes of each register written at the end of this cycle
        })

    @property
    def write(self):
        return [getattr(self, f"write_{i}") for i in range(len(self.ports))]

    def elaborate(self, platform):
        m = Module()
        storage = {r: Signal(LaneValues, init=[PROGRAMMABLE_RESET.get(r, 0)] * LANES, name=f"l{r}_q")
                   for r in WRITABLE}
        m.d.comb += [
            self.value[8].eq(Cat(*[Const(CONST_0_8373, 32)] * LANES)),
            self.value[9].eq(0),
            self.value[10].eq(Cat(*[Const(CONST_ONE, 32)] * LANES)),
            self.value[15].eq(Cat(*[Const(2 * lane, 32) for lane in range(LANES)])),
            *[self.value[r].eq(storage[r]) for r in WRITABLE],
        ]

        # The write sources of each register, in priority order: (lanes hit, values).
        sources = {r: [] for r in WRITABLE}

        def add_port(i, spec, port):
            en = port.en if spec.while_frozen else Mux(self.run, port.en, 0)
            for r in spec.targets:
                hit = Signal(LANES, name=f"hit_l{r}_w{i}")
                m.d.comb += hit.eq(spec.lanes_to(port, r, en))
                sources[r].append((hit, port.data))

        def add_transpose():
            # The moved values are wiring into the registers' next-value logic, not
            # signals: a simulator then evaluates them only where a register takes them.
            hit = Signal(LANES, name="hit_transpose")
            m.d.comb += hit.eq(Mux(self.transpose & self.run, self.transpose_lanes, 0))
            for r in L0_L7:
                moved = [storage[src][src_lane] for lane in range(LANES)
                         for src, src_lane in [transpose_source(r, lane)]]
                sources[r].append((hit, moved))

        for i, (spec, port) in enumerate(zip(self.ports, self.write)):
            if i == self.transpose_position:
                add_transpose()
            add_port(i, spec, port)
        if self.transpose_position >= len(self.ports):
            add_transpose()

        for r, reg_sources in sources.items():
            m.d.comb += self.written[r].eq(_any_of(hit for hit, _ in reg_sources))
            for lane in range(LANES):
                value = storage[r][lane]
                for hit, values in reg_sources:
                    value = Mux(hit[lane], values[lane], value)
                m.d.sync += storage[r][lane].eq(value)
        return m


def _any_of(masks):
    """The OR of lane masks (0 if none)."""
    result = Const(0, LANES)
    for mask in masks:
        result = result | mask
    return result
