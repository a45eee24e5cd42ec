"""The LReg file: L0-L7, the constants L8-L15, and the macro-only L16.

L0-L7 are built from 8-lane x 32-bit storage units, four per register (one
per row of 8 lanes), in two groups: L0-L3 and L4-L7. SFPTRANSP transposes
each group as 4 x 4 blocks of rows (new L[b+r] row k = old L[b+k] row r).
When every lane is enabled and nothing else writes the group that cycle, the
file only flips the group's `transposed` bit, which swaps how (register, row)
maps onto the units; otherwise it moves the data under the lane mask.

Writes arrive on `WritePort`s, one lane-indexed register per lane, and land at
the end of the cycle; a later port overrides an earlier one on the same lane
(the younger instruction wins). `value` shows every register as the
instructions of this cycle read it.
"""

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

LANES = 32
ROWS = 4                     # rows of 8 lanes
ROW_LANES = 8
NUM_LREGS = 17
L16 = 16

# Fixed constants and the reset values of the programmable ones (L11-L14).
CONST_0_8373, CONST_ONE = 0x3F56594B, 0x3F800000
PROGRAMMABLE_RESET = {11: 0xBF800000, 12: 0x37800000, 13: 0xBF2CC4C7, 14: 0xBEB08FF9}

LaneValues = data.ArrayLayout(32, LANES)

WritePort = data.StructLayout({
    "en": LANES,                              # lanes written
    "reg": data.ArrayLayout(5, LANES),        # target register per lane (L0-L7, L11-L14, L16)
    "data": LaneValues,
})


class LRegFile(wiring.Component):
    """`ports` write ports; SFPTRANSP's writes take effect after the first
    `transpose_position` of them and before the rest (the Simple sub-unit's
    place in the order of writes)."""

    def __init__(self, ports: int, transpose_position: int = 0):
        self.ports = ports
        self.transpose_position = transpose_position
        super().__init__({
            "write": In(WritePort).array(ports),
            "transpose": In(1),                  # SFPTRANSP this cycle
            "transpose_lanes": In(LANES),        # the lanes it may write
            "value": Out(LaneValues).array(NUM_LREGS),
            "transposed": Out(2),                # the mapping of L0-L3 (bit 0) and L4-L7 (bit 1)
            "written": Out(LANES).array(NUM_LREGS),  # lanes of each register written at the end of this cycle
        })

    def elaborate(self, platform):
        m = Module()
        # units[g][i][k]: group g, physical register slot i, row k: 8 lanes x 32 bits.
        units = [[[Signal(data.ArrayLayout(32, ROW_LANES), name=f"unit_g{g}_r{i}_row{k}")
                   for k in range(ROWS)] for i in range(4)] for g in range(2)]
        transposed = [Signal(name=f"transposed_g{g}") for g in range(2)]
        m.d.comb += self.transposed.eq(Cat(*transposed))
        l16 = Signal(LaneValues)
        programmable = {r: Signal(LaneValues, init=[v] * LANES, name=f"l{r}") for r, v in PROGRAMMABLE_RESET.items()}

        # -- read: map logical (register, row) onto the units --------------------
        logical = [[None] * ROWS for _ in range(8)]
        for g in range(2):
            for r in range(4):
                for k in range(ROWS):
                    logical[4 * g + r][k] = Mux(transposed[g], units[g][k][r].as_value(), units[g][r][k].as_value())
                m.d.comb += self.value[4 * g + r].eq(Cat(*logical[4 * g + r]))
        m.d.comb += [
            self.value[8].eq(Cat(*[Const(CONST_0_8373, 32)] * LANES)),
            self.value[9].eq(0),
            self.value[10].eq(Cat(*[Const(CONST_ONE, 32)] * LANES)),
            self.value[15].eq(Cat(*[Const(2 * lane, 32) for lane in range(LANES)])),
            self.value[L16].eq(l16),
        ]
        for r, sig in programmable.items():
            m.d.comb += self.value[r].eq(sig)

        # -- SFPTRANSP ------------------------------------------------------------
        # Another write to a group in the same cycle (a hazard) makes the
        # transpose a plain masked move, so the writes' order stays the model's.
        all_lanes = self.transpose_lanes.all()
        other_write = [Signal(name=f"other_write_g{g}") for g in range(2)]
        for g in range(2):
            hits = []
            for port in self.write:
                for lane in range(LANES):
                    hits.append(port.en[lane] & (port.reg[lane][2:5] == g))
            m.d.comb += other_write[g].eq(Cat(*hits).any())
        flip = [Signal(name=f"flip_g{g}") for g in range(2)]
        for g in range(2):
            m.d.comb += flip[g].eq(self.transpose & all_lanes & ~other_write[g])
            with m.If(flip[g]):
                m.d.sync += transposed[g].eq(~transposed[g])

        # -- writes, in port order (later ports win) -------------------------------
        def sinks(reg: int, lane: int):
            """The flip-flops of logical register `reg` in `lane`, as (signal, condition) pairs."""
            if reg >= 8:
                return [((l16 if reg == L16 else programmable[reg])[lane], None)]
            g, r, k, c = reg // 4, reg % 4, lane // ROW_LANES, lane % ROW_LANES
            return [(units[g][k][r][c], transposed[g]), (units[g][r][k][c], ~transposed[g])]

        def store(reg: int, lane: int, value, condition) -> None:
            for sink, mapped in sinks(reg, lane):
                with m.If(condition if mapped is None else condition & mapped):
                    m.d.sync += sink.eq(value)

        hits = {reg: [[] for _ in range(LANES)] for reg in range(NUM_LREGS)}

        def apply_port(port) -> None:
            for reg in (*range(8), *PROGRAMMABLE_RESET, L16):
                for lane in range(LANES):
                    hit = Signal(name=f"hit_{len(hits[reg][lane])}_l{reg}_lane{lane}")
                    m.d.comb += hit.eq(port.en[lane] & (port.reg[lane] == reg))
                    hits[reg][lane].append(hit)
                    store(reg, lane, port.data[lane], hit)

        def apply_transpose_move() -> None:
            for reg in range(8):
                g, r = reg // 4, reg % 4
                for lane in range(LANES):
                    k, c = lane // ROW_LANES, lane % ROW_LANES
                    moved = self.value[4 * g + k][r * ROW_LANES + c]          # old L[b+k] row r
                    store(reg, lane, moved, self.transpose & ~flip[g] & self.transpose_lanes[lane])

        for port in self.write[:self.transpose_position]:
            apply_port(port)
        apply_transpose_move()
        for port in self.write[self.transpose_position:]:
            apply_port(port)

        # SFPTRANSP writes all of L0-L7 in its lanes, whether it moves data or flips the mapping.
        for reg in range(8):
            for lane in range(LANES):
                hits[reg][lane].append(self.transpose & self.transpose_lanes[lane])
        for reg in range(NUM_LREGS):
            m.d.comb += self.written[reg].eq(Cat(*[Cat(*h).any() if h else Const(0, 1) for h in hits[reg]]))
        return m
