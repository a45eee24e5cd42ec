"""Dst: 1024 rows x 16 columns x 16 bits, as the SFPU's Load and Store see it.

An SFPLOAD/SFPSTORE touches, at address `addr`, the four rows from
`base = addr & ~3`: lane L uses row `base + L // 8` and column
`2 * (L & 7) + odd`, with `odd = addr[1] | col_exchange[L]`
(`model.semantics._dst_lanes`). A 32-bit access instead joins rows A and A + 8
of each of those four rows (`model.dst_format.dst32_rows`): high half in A.

Dst is built from 16 banks of 64 rows: bank = row & 15, bank row = row >> 4.
The 4 rows of a 16-bit access are consecutive and the 8 rows of a 32-bit one
are A_k = A_0 + k and A_k + 8 with A_0 & 7 in {0, 4}, so in both cases every
row sits in a different bank and, because `base` is a multiple of 4 and A has
bit 3 clear, every bank is accessed at the *same* bank row. One read port and
one write port per bank therefore serve a whole access, and which bank feeds
which lane depends on only two address bits.

The side port lets the outside world read and write one 16-bit row (loading
inputs, reading results); it has its own read and write port in every bank,
and where it writes the same row and column as the store, the store's write is
dropped so the side write wins. `writes` still reports what the store wrote
(the model knows nothing of the side port).

Reads are combinational; writes land at the clock edge.
"""

import numpy as np
from amaranth import Cat, Const, Module, Mux, Signal, unsigned
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

__all__ = ["Dst", "DstAccess", "DstRowWrite", "RawLanes", "ROWS", "COLS", "BANKS"]

ROWS = 1024
COLS = 16
BANKS = 16
BANK_ROWS = ROWS // BANKS
LANES = 32
LANES_PER_ROW = 8

RowValues = data.ArrayLayout(16, COLS)
RawLanes = data.ArrayLayout(32, LANES)          # each lane's datum: 16 bits in [15:0], or 32
DstRowWrite = data.StructLayout({"valid": 1, "row": 10, "cols": COLS, "values": RowValues})


def _bank_init(init: np.ndarray | None, bank: int) -> list[int]:
    if init is None:
        return [0] * BANK_ROWS
    rows = np.asarray(init, dtype=np.uint16)[bank::BANKS]
    return [sum(int(v) << (16 * c) for c, v in enumerate(row)) for row in rows]


class _Geometry:
    """The banks and bank row of one SFPLOAD/SFPSTORE access, as signals.

    `bank_row`: the bank row every bank is accessed at. `a_bank[k]`: the bank
    holding row k of the access (16-bit) or its high half A_k (32-bit);
    `lo_bank[k]`: the bank of A_k + 8. `odd[L]`: lane L uses the odd column."""

    def __init__(self, m: Module, addr, width32, col_exchange, name: str):
        base = addr & ~3
        self.bank_row = Signal(6, name=f"{name}_bank_row")
        # A = ((r & 0x1F8) << 1) | (r & 0x207): A >> 4 is r[3:9] with r[9] ORed into its top bit.
        row32 = Cat(base[3:8], base[8] | base[9])
        m.d.comb += self.bank_row.eq(Mux(width32, row32, base[4:10]))
        # 16-bit: bank (addr & 12) + k.  32-bit: A_k & 15 = (addr & 4) + k, A_k + 8 sits 8 banks above.
        self.a_group = Signal(2, name=f"{name}_a_group")
        m.d.comb += self.a_group.eq(Cat(addr[2], addr[3] & ~width32))
        self.odd = Signal(LANES, name=f"{name}_odd")
        m.d.comb += self.odd.eq(addr[1].replicate(LANES) | col_exchange)
        self.a_bank = [Cat(Const(k, 2), self.a_group) for k in range(4)]
        self.lo_bank = [Cat(Const(k, 2), addr[2], Const(1, 1)) for k in range(4)]

    def row(self, bank):
        """The 10-bit Dst row of `bank` in this access."""
        return Cat(bank, self.bank_row)


class DstAccess(wiring.Signature):
    """One SFPLOAD's (`write=False`) or SFPSTORE's access to Dst, seen from the
    sub-unit: the address, whether it is 32-bit, the lanes whose column is
    exchanged, and each lane's raw datum (read back, or written in `lanes`)."""

    def __init__(self, write: bool):
        members = {"addr": Out(10), "width32": Out(1), "col_exchange": Out(LANES)}
        if write:
            members.update(lanes=Out(LANES), raw=Out(RawLanes))
        else:
            members.update(raw=In(RawLanes))
        super().__init__(members)


class Dst(wiring.Component):
    """Dst with the Load unit's read port, the Store unit's write port, the
    side port and the trace of the store's writes (`writes`, merged per row)."""

    load: In(DstAccess(write=False))
    store: In(DstAccess(write=True))

    side_row: In(10)
    side_rdata: Out(RowValues)
    side_we: In(1)
    side_cols: In(COLS)
    side_wdata: In(RowValues)

    writes: Out(data.ArrayLayout(DstRowWrite, 8))

    def __init__(self, init: np.ndarray | None = None):
        self._init = init
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        banks = []
        for b in range(BANKS):
            bank = Memory(shape=unsigned(16 * COLS), depth=BANK_ROWS, init=_bank_init(self._init, b))
            m.submodules[f"bank{b}"] = bank
            banks.append(bank)

        self._side(m, banks)
        self._load(m, banks)
        self._store(m, banks)
        return m

    def _side(self, m: Module, banks) -> None:
        side_bank, side_bank_row = self.side_row[:4], self.side_row[4:]
        rdata = []
        for b, bank in enumerate(banks):
            read = bank.read_port(domain="comb")
            m.d.comb += read.addr.eq(side_bank_row)
            rdata.append(read.data)
            write = bank.write_port(granularity=16)
            m.d.comb += [write.addr.eq(side_bank_row), write.data.eq(self.side_wdata),
                         write.en.eq(Mux(self.side_we & (side_bank == b), self.side_cols, 0))]
        with m.Switch(side_bank):
            for b in range(BANKS):
                with m.Case(b):
                    m.d.comb += self.side_rdata.eq(rdata[b])

    def _load(self, m: Module, banks) -> None:
        g = _Geometry(m, self.load.addr, self.load.width32, self.load.col_exchange, "load")
        rows = []
        for b, bank in enumerate(banks):
            read = bank.read_port(domain="comb")
            m.d.comb += read.addr.eq(g.bank_row)
            row = Signal(RowValues, name=f"load_bank{b}")
            m.d.comb += row.eq(read.data)
            rows.append(row)

        for k in range(4):
            # The row (16-bit) or high half (32-bit) and the low half of access row k.
            a_row, lo_row = Signal(RowValues, name=f"load_a{k}"), Signal(RowValues, name=f"load_lo{k}")
            with m.Switch(g.a_group):
                for group in range(4):
                    with m.Case(group):
                        m.d.comb += a_row.eq(rows[4 * group + k])
            m.d.comb += lo_row.eq(Mux(self.load.addr[2], rows[12 + k].as_value(), rows[8 + k].as_value()))
            for j in range(LANES_PER_ROW):
                lane = LANES_PER_ROW * k + j
                odd = g.odd[lane]
                a_datum = Mux(odd, a_row[2 * j + 1], a_row[2 * j])
                lo_datum = Mux(odd, lo_row[2 * j + 1], lo_row[2 * j])
                m.d.comb += self.load.raw[lane].eq(Mux(self.load.width32, Cat(lo_datum, a_datum), a_datum))

    def _store(self, m: Module, banks) -> None:
        g = _Geometry(m, self.store.addr, self.store.width32, self.store.col_exchange, "store")
        side_hits_row = Signal(name="side_hits_store_row")
        m.d.comb += side_hits_row.eq(self.side_we & (self.side_row[4:] == g.bank_row))

        # Column c of access row k is written by lane 8k + c // 2 when that lane's `odd` matches c & 1.
        col_lanes = [Signal(COLS, name=f"store_cols{k}") for k in range(4)]
        hi_values = [Signal(RowValues, name=f"store_hi{k}") for k in range(4)]
        lo_values = [Signal(RowValues, name=f"store_lo{k}") for k in range(4)]
        for k in range(4):
            for c in range(COLS):
                lane = LANES_PER_ROW * k + c // 2
                odd = g.odd[lane] if c & 1 else ~g.odd[lane]
                m.d.comb += [col_lanes[k][c].eq(self.store.lanes[lane] & odd),
                             hi_values[k][c].eq(self.store.raw[lane][16:]),
                             lo_values[k][c].eq(self.store.raw[lane][:16])]

        for b, bank in enumerate(banks):
            k, group = b & 3, b >> 2
            # 16-bit: the bank holds access row k when its group matches; 32-bit:
            # banks 0-7 take the high halves, banks 8-15 the low halves.
            is_a = Signal(name=f"store_a_bank{b}")
            is_lo = Signal(name=f"store_lo_bank{b}")
            m.d.comb += [is_a.eq(g.a_group == group),
                         is_lo.eq(self.store.width32 & (group >= 2) & (self.store.addr[2] == (group & 1)))]
            write = bank.write_port(granularity=16)
            en = Signal(COLS, name=f"store_en{b}")
            side = Mux(side_hits_row & (self.side_row[:4] == b), self.side_cols, 0)
            m.d.comb += [en.eq(Mux(is_a | is_lo, col_lanes[k], 0) & ~side),
                         write.addr.eq(g.bank_row), write.en.eq(en)]
            if group >= 2:   # banks 8-15 hold a 16-bit access's rows or a 32-bit access's low halves
                m.d.comb += write.data.eq(lo_values[k])
            else:
                m.d.comb += write.data.eq(Mux(self.store.width32, hi_values[k].as_value(), lo_values[k].as_value()))

        # -- trace: entry k = access row k (or A_k), entry 4 + k = A_k + 8 ------------------
        for k in range(4):
            a, lo = self.writes[k], self.writes[4 + k]
            a_values = Signal(RowValues, name=f"trace_a_values{k}")
            lo_cols = Signal(COLS, name=f"trace_lo_cols{k}")
            m.d.comb += [
                a_values.eq(Mux(self.store.width32, hi_values[k].as_value(), lo_values[k].as_value())),
                lo_cols.eq(Mux(self.store.width32, col_lanes[k], 0)),
                a.valid.eq(col_lanes[k].any()), a.row.eq(g.row(g.a_bank[k])), a.cols.eq(col_lanes[k]),
                lo.valid.eq(lo_cols.any()), lo.row.eq(g.row(g.lo_bank[k])), lo.cols.eq(lo_cols),
            ]
            for c in range(COLS):
                m.d.comb += [a.values[c].eq(Mux(col_lanes[k][c], a_values[c], 0)),
                             lo.values[c].eq(Mux(lo_cols[c], lo_values[k][c], 0))]
