"""The lock-step environment's own logic: the trace unpacker and the
difference report (the simulations are in test_backends.py and
tests/hdl/test_sfpu.py)."""

import random

from tensix_sfpu.hdl.isa import Opcode
from tensix_sfpu.hdl.sfpu import Trace, TraceUnit
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.trace import CycleRecord, DstWriteRecord, LRegWriteRecord
from tensix_sfpu.tb.env.monitor import TRACE
from tensix_sfpu.tb.env.scoreboard import first_difference


def test_unpacker_reads_every_field_as_amaranth_does():
    rng = random.Random(7)
    for _ in range(5):
        raw = rng.getrandbits(Trace.size)
        for i in range(5):      # an opcode field must hold an opcode for Amaranth's Const to read it
            at = Trace["units"].offset + i * TraceUnit.size + TraceUnit["opcode"].offset
            raw = raw & ~(0xFF << at) | rng.choice(list(Opcode)).value << at
        fast, const = TRACE(raw), Trace.from_bits(raw)
        assert (fast.valid, fast.cycle, fast.issued, fast.stalled, fast.word) == \
            (const.valid, const.cycle, const.issued, const.stalled, const.word)
        for i in range(5):
            for name in ("valid", "macro", "word", "vd", "vb", "vc", "macro_cycle", "store_addr", "undefined"):
                assert getattr(fast.units[i], name) == getattr(const.units[i], name), (i, name)
            assert fast.units[i].opcode == const.units[i].opcode.value
        assert fast.lreg_written == [const.lreg_written[r] for r in range(17)]
        for i in range(8):
            w, c = fast.dst_writes[i], const.dst_writes[i]
            assert (w.valid, w.row, w.cols) == (c.valid, c.row, c.cols)
            assert w.values == [c.values[k] for k in range(16)]


def record(**fields) -> CycleRecord:
    return CycleRecord(5, **fields)


def test_difference_names_the_register_lane_and_values():
    values = tuple(range(32))
    other = values[:9] + (99,) + values[10:]
    m = first_difference(record(lreg_writes=[LRegWriteRecord(3, 0xFFFFFFFF, values)]),
                         record(lreg_writes=[LRegWriteRecord(3, 0xFFFFFFFF, other)]), Arch.WORMHOLE)
    assert (m.cycle, m.lane, m.model, m.rtl) == (5, 9, "0x00000009", "0x00000063")
    assert "L3" in m.what


def test_difference_in_lanes_written_and_dst_columns():
    m = first_difference(record(lreg_writes=[LRegWriteRecord(1, 0b1111, (0,) * 32)]),
                         record(lreg_writes=[LRegWriteRecord(1, 0b1011, (0,) * 32)]), Arch.WORMHOLE)
    assert m.lane == 2 and "lanes of L1" in m.what
    row = tuple(range(16))
    m = first_difference(record(dst_writes=[DstWriteRecord(40, 0xFFFF, row)]),
                         record(dst_writes=[DstWriteRecord(40, 0xFFFF, row[:15] + (7,))]), Arch.WORMHOLE)
    assert "Dst row 40 column 15" in m.what and (m.model, m.rtl) == ("0x000F", "0x0007")


def test_equal_records_have_no_difference():
    assert first_difference(record(issued=0x8A000000), record(issued=0x8A000000), Arch.WORMHOLE) is None
    m = first_difference(record(issued=0x8A000000), record(stalled=0x8A000000), Arch.WORMHOLE)
    assert m.what == "the issued word" and "sfp" in m.model
