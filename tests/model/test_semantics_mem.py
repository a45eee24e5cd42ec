"""End-to-end tests of the Dst-facing, configuration and MAD-unit instructions.

Every expected value below was worked out by hand from the functional models in
tt-isa-documentation (jasondavies fork, e739ac0), WormholeB0/TensixTile/
TensixCoprocessor/{SFPLOAD,SFPSTORE,SFPLOADMACRO,SFPLOADI,SFPCONFIG,SFPMAD,
SFPADDI,SFPMULI,SFPLUT,SFPLUTFP32,SFPSTOCHRND_*,RWCs,Dst,VectorUnit}.md and
Miscellaneous/FMA/fma.c (fma_model_wh); the working is in the comments. Where the
expectation is a formula (lane -> row/column maps, round trips) the formula is
the documentation's own, transcribed here independently of model/.

Instructions are executed through `Machine.execute(encode(...))` or through
`run_program(assemble(...))`; state that no instruction can set directly in
one step (Dst contents, LaneConfig, flags, PRNG) is set on `SfpuState`.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.isa import encode
from tensix_sfpu.model.machine import Machine, UndefinedBehaviour
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import AddrMod, SfpuState
from tensix_sfpu.model.isa import Arch

LANES = 32
LANE = np.arange(LANES)
U32 = np.uint32

# LaneConfig bits (SFPCONFIG.md, "LaneConfig" table).
FP16A_INF = 1 << 0
DISABLE_BACKDOOR = 1 << 1
ENABLE_DEST_INDEX = 1 << 2
CAPTURE_DEFAULT_DEST_INDEX = 1 << 3
BLOCK_DEST_WR = 1 << 4
BLOCK_SFPU_RD = 1 << 5
RD_COL_EXCHANGE = 1 << 6
WR_COL_EXCHANGE = 1 << 7


def row_mask(*rows: int) -> int:
    return sum(1 << (12 + r) for r in rows)


# MOD0_FMT_* (SFPLOAD.md "Supporting definitions").
SRCB, FP16, BF16, FP32, INT32, INT8, UINT16, HI16, INT16, LO16, INT32_ALL, ZERO, INT32_SM, INT8_COMP, \
    LO16_ONLY, HI16_ONLY = range(16)

ONE, TWO, HALF, QUARTER, ONE_HALF = 0x3F800000, 0x40000000, 0x3F000000, 0x3E800000, 0x3FC00000
SENTINEL = 0xDEADBEEF


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def machine(strict: bool = True) -> Machine:
    return Machine(SfpuState(Arch.WORMHOLE), strict=strict)


def ex(m: Machine, mnemonic: str, **fields):
    return m.execute(encode(mnemonic, m.state.arch, **fields))


def setreg(m: Machine, reg: int, value) -> None:
    m.state.lregs[reg] = np.broadcast_to(np.asarray(value, dtype=np.uint64).astype(U32), (LANES,))


def reg(m: Machine, r: int) -> list[int]:
    return [int(v) for v in m.state.lregs[r]]


def phys32(r: int) -> tuple[int, int]:
    """Dst.md: Dst32b[r] = DstBits[A] << 16 | DstBits[A + 8], A = ((r & 0x1f8) << 1) | (r & 0x207)."""
    a = ((r & 0x1F8) << 1) | (r & 0x207)
    return a, a + 8


def lane_rows_cols(addr: int, odd_lanes=None):
    """SFPLOAD.md / SFPSTORE.md: Row = (Addr & ~3) + Lane / 8,
    Column = (Lane & 7) * 2 + ((Addr & 2) || COL_EXCHANGE[Lane & 7])."""
    rows, cols = [], []
    for lane in range(LANES):
        odd = bool(addr & 2) or (odd_lanes is not None and bool(odd_lanes[lane & 7]))
        rows.append((addr & ~3) + lane // 8)
        cols.append((lane & 7) * 2 + int(odd))
    return rows, cols


def fill16_pattern(m: Machine) -> None:
    """DstBits[row][col] = row * 16 + col (fits in 16 bits)."""
    m.state.dst[:] = (np.arange(1024)[:, None] * 16 + np.arange(16)[None, :]).astype(np.uint16)


def fill32_pattern(m: Machine) -> None:
    """Rows with bit 3 clear (always a high half A) hold 0, rows with bit 3 set
    (always a low half A + 8) hold row * 16 + col. UnshuffleFP32 of a zero high
    half is zero, so an FP32 load of Dst32b[r][c] gives (A + 8) * 16 + c."""
    pattern = (np.arange(1024)[:, None] * 16 + np.arange(16)[None, :]).astype(np.uint16)
    pattern[(np.arange(1024) & 8) == 0] = 0
    m.state.dst[:] = pattern


def disable_lanes(m: Machine, enabled) -> None:
    m.state.use_flags[:] = True
    m.state.lane_flags[:] = np.asarray(enabled, dtype=bool)


def ref_prng_step(s: int) -> int:
    """VectorUnit.md AdvancePRNG: State = (~popcount(s & 0x80200003) << 31) | (s >> 1)."""
    taps = bin(s & 0x80200003).count("1")
    return (((~taps) & 1) << 31) | (s >> 1)


def run(text: str, strict: bool = True, state: SfpuState | None = None):
    return run_program(assemble(text), state=state, strict=strict)


# ===========================================================================
# SFPLOAD / SFPSTORE: lane -> (row, column)
# ===========================================================================

@pytest.mark.parametrize("addr", [0, 1, 2, 3, 4, 5, 6, 7, 0x1FE, 0x200, 0x3FC, 0x3FE, 0x3FF])
def test_load_lane_mapping(addr):
    m = machine()
    fill16_pattern(m)
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=addr)
    rows, cols = lane_rows_cols(addr)
    assert reg(m, 0) == [r * 16 + c for r, c in zip(rows, cols)]


def test_load_lane_mapping_spot_values():
    m = machine()
    fill16_pattern(m)
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=6)   # rows 4..7, odd columns
    assert reg(m, 0)[0] == 4 * 16 + 1
    assert reg(m, 0)[9] == 5 * 16 + 3
    assert reg(m, 0)[31] == 7 * 16 + 15
    ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=0x3FE)  # rows 1020..1023, odd
    assert reg(m, 1)[31] == 1023 * 16 + 15
    assert reg(m, 1)[0] == 1020 * 16 + 1


@pytest.mark.parametrize("a, b", [(0, 1), (2, 3), (4, 5), (6, 7), (0x3FC, 0x3FD)])
def test_load_address_bit0_ignored(a, b):
    m = machine()
    fill16_pattern(m)
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=a)
    ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=b)
    assert reg(m, 0) == reg(m, 1)


def test_load_bit1_selects_odd_columns():
    m = machine()
    fill16_pattern(m)
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=8)
    ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=10)
    assert [v & 15 for v in reg(m, 0)] == [2 * (l & 7) for l in range(32)]
    assert [v & 15 for v in reg(m, 1)] == [2 * (l & 7) + 1 for l in range(32)]
    assert [v >> 4 for v in reg(m, 0)] == [8 + l // 8 for l in range(32)]


@pytest.mark.parametrize("addr", [0, 2, 12, 0x3FE])
def test_store_lane_mapping(addr):
    m = machine()
    setreg(m, 3, 0x1000 + LANE)
    ex(m, "SFPSTORE", vd=3, mod0=UINT16, imm10=addr)
    rows, cols = lane_rows_cols(addr)
    expected = np.zeros((1024, 16), dtype=np.uint16)
    for lane in range(LANES):
        expected[rows[lane], cols[lane]] = 0x1000 + lane
    assert np.array_equal(m.state.dst, expected)


def test_rd_col_exchange_reads_laneconfig_of_lane_and_7():
    # SFPLOAD.md: if ((Addr & 2) || LaneConfig[Lane & 7].DEST_RD_COL_EXCHANGE) Column += 1
    m = machine()
    fill16_pattern(m)
    m.state.lane_config[3] = RD_COL_EXCHANGE
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=0)
    odd = [lane for lane in range(32) if reg(m, 0)[lane] & 1]
    assert odd == [3, 11, 19, 27]
    # The bit in a lane other than 0..7 is never consulted for the column.
    m = machine()
    fill16_pattern(m)
    m.state.lane_config[11] = RD_COL_EXCHANGE
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=0)
    assert all(v & 1 == 0 for v in reg(m, 0))


def test_rd_col_exchange_set_through_sfpconfig():
    m = machine()
    fill16_pattern(m)
    setreg(m, 0, RD_COL_EXCHANGE)
    ex(m, "SFPCONFIG", vd=15, mod1=0, imm16=0)
    ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=4)   # even address, but exchange
    rows, cols = lane_rows_cols(4, odd_lanes=[True] * 8)
    assert reg(m, 1) == [r * 16 + c for r, c in zip(rows, cols)]


def test_wr_col_exchange_reads_laneconfig_of_lane_and_7():
    m = machine()
    setreg(m, 2, 0x100 + LANE)
    m.state.lane_config[5] = WR_COL_EXCHANGE
    ex(m, "SFPSTORE", vd=2, mod0=UINT16, imm10=0)
    odd = [False] * 8
    odd[5] = True
    rows, cols = lane_rows_cols(0, odd_lanes=odd)
    for lane in range(LANES):
        assert m.state.dst[rows[lane], cols[lane]] == 0x100 + lane
    assert m.state.dst[0, 11] == 5 + 0x100 and m.state.dst[0, 10] == 0
    assert m.state.dst[3, 11] == 29 + 0x100


# ===========================================================================
# Dst32b row mapping
# ===========================================================================

# (r, A): A = ((r & 0x1f8) << 1) | (r & 0x207), worked by hand.
DST32_ROWS = [(0, 0), (5, 5), (7, 7), (8, 16), (15, 23), (0x205, 0x205), (0x20C, 0x214), (0x3FF, 0x3F7)]


@pytest.mark.parametrize("r, a", DST32_ROWS)
def test_dst32_row_mapping_load(r, a):
    m = machine()
    lane = (r & 3) * 8           # column 0 of row r at address r & ~3
    m.state.dst[a, 0] = 0x3424   # FP32Shuffle(0x12345678) high half
    m.state.dst[a + 8, 0] = 0x5678
    ex(m, "SFPLOAD", vd=0, mod0=FP32, imm10=r & ~3)
    assert reg(m, 0)[lane] == 0x12345678


@pytest.mark.parametrize("r, a", DST32_ROWS)
def test_dst32_row_mapping_store(r, a):
    m = machine()
    setreg(m, 0, 0xAAAABBBB)
    ex(m, "SFPSTORE", vd=0, mod0=HI16, imm10=r & ~3)   # HI16: Dst32b = Datum, raw
    assert m.state.dst[a, 0] == 0xAAAA and m.state.dst[a + 8, 0] == 0xBBBB
    assert np.count_nonzero(m.state.dst) == 64            # 32 lanes x two halves


def test_dst32_spec_examples():
    # r = 5 -> rows 5 and 13; r = 8 -> rows 16 and 24.
    m = machine()
    setreg(m, 0, 0x11112222)
    ex(m, "SFPSTORE", vd=0, mod0=HI16, imm10=4)    # lanes 8..15 are row 5
    assert m.state.dst[5, 0] == 0x1111 and m.state.dst[13, 0] == 0x2222
    ex(m, "SFPSTORE", vd=0, mod0=HI16, imm10=8)    # lanes 0..7 are row 8
    assert m.state.dst[16, 0] == 0x1111 and m.state.dst[24, 0] == 0x2222
    assert m.state.dst[8, 0] == 0   # DstBits[8] itself is the low half of r = 0


def test_dst32_full_lane_mapping_load():
    m = machine()
    fill32_pattern(m)
    ex(m, "SFPLOAD", vd=0, mod0=FP32, imm10=0x20A)    # rows 0x208..0x20B, odd columns
    rows, cols = lane_rows_cols(0x20A)
    assert reg(m, 0) == [phys32(r)[1] * 16 + c for r, c in zip(rows, cols)]


# ===========================================================================
# Address composition
# ===========================================================================

# (imm10, dest_offset, rwc_dst, dest_base, Addr) with Addr = (sum) mod 1024.
ADDRESS_CASES = [
    (0, 0, 0, 0, 0),
    (4, 0, 0, 0, 4),
    (0, 8, 0, 0, 8),
    (0, 0, 12, 0, 12),
    (0, 0, 0, 16, 16),
    (0x3F0, 0x10, 0x8, 0x4, 0x00C),        # 0x40C wraps to 0x00C
    (2, 0, 1000, 100, 78),                  # 1102 - 1024
    (0x3FF, 0x3FF, 0x3FF, 0x3FF, 1020),    # 4092 mod 1024
    (0x100, 0x22, 0, 0, 0x122),
]


@pytest.mark.parametrize("imm10, off, rwc, base, addr", ADDRESS_CASES)
def test_load_address_composition(imm10, off, rwc, base, addr):
    m = machine()
    fill16_pattern(m)
    t = m.state.tensix
    t.dest_offset, t.rwc_dst, t.dest_base = off, rwc, base
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=imm10)
    rows, cols = lane_rows_cols(addr)
    assert reg(m, 0) == [r * 16 + c for r, c in zip(rows, cols)]


@pytest.mark.parametrize("imm10, off, rwc, base, addr", ADDRESS_CASES[4:])
def test_store_address_composition(imm10, off, rwc, base, addr):
    m = machine()
    t = m.state.tensix
    t.dest_offset, t.rwc_dst, t.dest_base = off, rwc, base
    setreg(m, 0, 0x100 + LANE)
    ex(m, "SFPSTORE", vd=0, mod0=UINT16, imm10=imm10)
    rows, cols = lane_rows_cols(addr)
    assert [int(m.state.dst[r, c]) for r, c in zip(rows, cols)] == [0x100 + l for l in range(32)]
    assert np.count_nonzero(m.state.dst) == 32


# (imm10, dest_offset, rwc_dst, dest_base, Addr): INT32_ALL adds only (rwc + base) & 3.
INT32_ALL_ADDRESS = [
    (8, 0, 6, 0, 10),
    (8, 0, 3, 1, 8),         # (3 + 1) & 3 = 0, not (3 & 3) + (1 & 3)
    (8, 4, 5, 2, 15),        # 8 + 4 + 3
    (0, 0, 0x3FF, 0, 3),
    (16, 0, 4, 0, 16),       # an ordinary FP32 load would use 20
    (0x3FE, 4, 2, 0, 4),     # 0x3FE + 4 + 2 wraps
]


@pytest.mark.parametrize("imm10, off, rwc, base, addr", INT32_ALL_ADDRESS)
def test_int32_all_address_uses_low_two_bits_of_rwc_plus_base(imm10, off, rwc, base, addr):
    m = machine()
    fill32_pattern(m)
    t = m.state.tensix
    t.dest_offset, t.rwc_dst, t.dest_base = off, rwc, base
    ex(m, "SFPLOAD", vd=0, mod0=INT32_ALL, imm10=imm10)
    rows, cols = lane_rows_cols(addr)
    assert reg(m, 0) == [phys32(r)[1] * 16 + c for r, c in zip(rows, cols)]


def test_int32_all_store_address():
    m = machine()
    m.state.tensix.rwc_dst = 6
    setreg(m, 0, 0x00000100 + LANE)    # FP32Shuffle keeps the low half; high half 0
    ex(m, "SFPSTORE", vd=0, mod0=INT32_ALL, imm10=8)   # Addr 10: rows 8..11, odd
    rows, cols = lane_rows_cols(10)
    for lane in range(LANES):
        hi, lo = phys32(rows[lane])
        assert m.state.dst[lo, cols[lane]] == 0x100 + lane and m.state.dst[hi, cols[lane]] == 0


def test_address_directives_through_run_program():
    res = run("""
        .lreg 0 0x1234
        .dest_offset 0x10
        .dest_base 0x20
        .rwc_dst 0x4
        sfpstore vd=0 mod0=6 imm10=2     # Addr = 2 + 0x10 + 0x4 + 0x20 = 0x36
    """)
    rows, cols = lane_rows_cols(0x36)
    assert rows[0] == 0x34 and cols[0] == 1
    assert all(res.state.dst[r, c] == 0x1234 for r, c in zip(rows, cols))
    assert np.count_nonzero(res.state.dst) == 32


# ===========================================================================
# AddrMod (RWCs.md ApplyAddrMod, without the fidelity update)
# ===========================================================================

def test_addrmod_applied_after_the_access():
    m = machine()
    fill16_pattern(m)
    m.state.tensix.addr_mods[1] = AddrMod(dst_incr=4)
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=0, addr_mod=1)
    assert [v >> 4 for v in reg(m, 0)[::8]] == [0, 1, 2, 3]     # rows 0..3: old RWC
    assert m.state.tensix.rwc_dst == 4
    ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=0, addr_mod=1)
    assert [v >> 4 for v in reg(m, 1)[::8]] == [4, 5, 6, 7]
    assert m.state.tensix.rwc_dst == 8


# (rwc_dst, rwc_dst_cr, AddrMod fields, expected (Dst, Dst_Cr))
ADDRMOD_RULES = [
    (10, 2, dict(dst_incr=4), (14, 2)),
    (10, 2, dict(dst_incr=4, dst_cr=True), (6, 6)),                      # Dst_Cr += 4; Dst = Dst_Cr
    (10, 2, dict(dst_incr=4, dst_c_to_cr=True), (14, 14)),               # Dst += 4; Dst_Cr = Dst
    (10, 2, dict(dst_incr=4, dst_clear=True), (0, 0)),
    (10, 2, dict(dst_incr=4, dst_clear=True, dst_cr=True, dst_c_to_cr=True), (0, 0)),   # clear first
    (10, 2, dict(dst_incr=4, dst_c_to_cr=True, dst_cr=True), (14, 14)),  # C_TO_CR before CR
    (1020, 0, dict(dst_incr=8), (4, 0)),                                 # 10-bit wrap
    (0, 1020, dict(dst_incr=8, dst_cr=True), (4, 4)),
    (5, 7, dict(), (5, 7)),
]


@pytest.mark.parametrize("mnemonic", ["SFPLOAD", "SFPSTORE", "SFPLOADMACRO"])
@pytest.mark.parametrize("rwc, cr, fields, expected", ADDRMOD_RULES)
def test_addrmod_dst_update_rules(mnemonic, rwc, cr, fields, expected):
    m = machine()
    t = m.state.tensix
    t.rwc_dst, t.rwc_dst_cr = rwc, cr
    t.addr_mods[2] = AddrMod(**fields)
    if mnemonic == "SFPLOADMACRO":
        ex(m, mnemonic, macro=0, vd=0, mod0=FP32, addr_mod=2, offset=0)
    else:
        ex(m, mnemonic, vd=0, mod0=FP32, addr_mod=2, imm10=0)
    assert (t.rwc_dst, t.rwc_dst_cr) == expected


def test_addrmod_set_base_selects_slots_4_to_7():
    for base, expected in ((False, 2), (True, 16)):
        m = machine()
        t = m.state.tensix
        t.addr_mods[1] = AddrMod(dst_incr=2)
        t.addr_mods[5] = AddrMod(dst_incr=16)
        t.addr_mod_set_base = base
        ex(m, "SFPSTORE", vd=0, mod0=FP32, addr_mod=1, imm10=0)
        assert t.rwc_dst == expected


def test_addrmod_extra_bit_from_bias_section():
    # Bias.BiasIncr & 3 -> ExtraAddrModBit += 1, which then selects slot AddrMod + 4.
    m = machine()
    t = m.state.tensix
    t.addr_mods[0] = AddrMod(dst_incr=1, bias_incr=1)
    t.addr_mods[4] = AddrMod(dst_incr=100)
    ex(m, "SFPLOAD", vd=0, mod0=FP32, addr_mod=0, imm10=0)
    assert t.rwc_dst == 1
    ex(m, "SFPLOAD", vd=0, mod0=FP32, addr_mod=0, imm10=0)
    assert t.rwc_dst == 101


def test_addrmod_srca_srcb_counters():
    m = machine()
    t = m.state.tensix
    t.rwc_srca = 62
    t.rwc_srcb, t.rwc_srcb_cr = 1, 10
    t.addr_mods[3] = AddrMod(srca_incr=5, srcb_incr=3, srcb_cr=True)
    ex(m, "SFPLOAD", vd=0, mod0=FP32, addr_mod=3, imm10=0)
    assert t.rwc_srca == 3                      # 67 mod 64
    assert (t.rwc_srcb, t.rwc_srcb_cr) == (13, 13)


def test_addrmod_directive_through_run_program():
    res = run("""
        .addr_mod 1 dst_incr=4
        .addr_mod 5 dst_incr=32
        .lreg 0 0x7
        sfpstore vd=0 mod0=6 addr_mod=1 imm10=0
        sfpstore vd=0 mod0=6 addr_mod=1 imm10=0
        .addr_mod_base 1
        sfpstore vd=0 mod0=6 addr_mod=1 imm10=0
    """)
    assert res.state.tensix.rwc_dst == 4 + 4 + 32
    assert res.state.dst[0, 0] == 7 and res.state.dst[4, 0] == 7 and res.state.dst[8, 0] == 7
    assert res.state.dst[12, 0] == 0


# ===========================================================================
# BLOCK bits, lane enables, INT32_ALL
# ===========================================================================

def test_block_sfpu_rd_from_dest_per_lane():
    # SFPLOAD.md: if (LaneConfig[Lane].BLOCK_SFPU_RD_FROM_DEST) continue;
    m = machine()
    fill16_pattern(m)
    blocked = LANE % 3 == 0
    m.state.lane_config[blocked] = BLOCK_SFPU_RD
    setreg(m, 0, SENTINEL)
    m.state.tensix.addr_mods[1] = AddrMod(dst_incr=4)
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=0, addr_mod=1)
    rows, cols = lane_rows_cols(0)
    for lane in range(LANES):
        assert reg(m, 0)[lane] == (SENTINEL if blocked[lane] else rows[lane] * 16 + cols[lane])
    assert m.state.tensix.rwc_dst == 4       # AddrMod still applies
    # INT32_ALL ignores LaneEnabled but not the block bit.
    setreg(m, 1, SENTINEL)
    ex(m, "SFPLOAD", vd=1, mod0=INT32_ALL, imm10=0)
    assert all((reg(m, 1)[l] == SENTINEL) == bool(blocked[l]) for l in range(32))


def test_block_dest_wr_from_sfpu_per_lane():
    m = machine()
    blocked = LANE % 4 == 1
    m.state.lane_config[blocked] = BLOCK_DEST_WR
    setreg(m, 0, 0x100 + LANE)
    m.state.dst[:] = 0x5555
    ex(m, "SFPSTORE", vd=0, mod0=UINT16, imm10=0)
    rows, cols = lane_rows_cols(0)
    for lane in range(LANES):
        expected = 0x5555 if blocked[lane] else 0x100 + lane
        assert m.state.dst[rows[lane], cols[lane]] == expected
    ex(m, "SFPSTORE", vd=0, mod0=INT32_ALL, imm10=8)
    rows, cols = lane_rows_cols(8)
    for lane in range(LANES):
        lo = phys32(rows[lane])[1]
        assert m.state.dst[lo, cols[lane]] == (0x5555 if blocked[lane] else 0x100 + lane)


ENABLED = np.array([(l * 7) % 5 != 0 for l in range(32)])


def test_load_disabled_lanes_untouched():
    m = machine()
    fill16_pattern(m)
    disable_lanes(m, ENABLED)
    setreg(m, 4, SENTINEL)
    ex(m, "SFPLOAD", vd=4, mod0=UINT16, imm10=0)
    rows, cols = lane_rows_cols(0)
    for lane in range(LANES):
        assert reg(m, 4)[lane] == (rows[lane] * 16 + cols[lane] if ENABLED[lane] else SENTINEL)


def test_store_disabled_lanes_untouched():
    m = machine()
    disable_lanes(m, ENABLED)
    m.state.dst[:] = 0x7777
    setreg(m, 4, 0x100 + LANE)
    ex(m, "SFPSTORE", vd=4, mod0=UINT16, imm10=0)
    rows, cols = lane_rows_cols(0)
    for lane in range(LANES):
        assert m.state.dst[rows[lane], cols[lane]] == (0x100 + lane if ENABLED[lane] else 0x7777)


def test_row_mask_comes_from_laneconfig_of_lane_and_7():
    # VectorUnit.md IsLaneEnabled: LaneConfig[Lane & 7].ROW_MASK.Bit[Lane / 8]
    m = machine()
    fill16_pattern(m)
    m.state.lane_config[16:24] = row_mask(0, 1, 2, 3)  # never consulted
    m.state.lane_config[2] = row_mask(1)               # masks lane 10 only
    setreg(m, 0, SENTINEL)
    ex(m, "SFPLOAD", vd=0, mod0=UINT16, imm10=0)
    assert [l for l in range(32) if reg(m, 0)[l] == SENTINEL] == [10]


def test_int32_all_ignores_lane_enable():
    m = machine()
    fill32_pattern(m)
    disable_lanes(m, ENABLED)
    m.state.lane_config[0:8] = row_mask(3)
    setreg(m, 0, SENTINEL)
    ex(m, "SFPLOAD", vd=0, mod0=INT32_ALL, imm10=0)
    rows, cols = lane_rows_cols(0)
    assert reg(m, 0) == [phys32(r)[1] * 16 + c for r, c in zip(rows, cols)]
    setreg(m, 1, SENTINEL)
    ex(m, "SFPLOAD", vd=1, mod0=INT32, imm10=0)
    assert [reg(m, 1)[l] == SENTINEL for l in range(32)] == [not ENABLED[l] or l >= 24 for l in range(32)]
    # Store side
    m.state.dst[:] = 0
    setreg(m, 2, 0x200 + LANE)
    ex(m, "SFPSTORE", vd=2, mod0=INT32_ALL, imm10=0)
    for lane in range(LANES):
        assert m.state.dst[phys32(rows[lane])[1], cols[lane]] == 0x200 + lane


# ===========================================================================
# MOD0_FMT_SRCB resolution
# ===========================================================================

# Tensix data-format codes of docs/decisions.md ("SrcB format codes").
SRCB_BF16_FAMILY = [0, 4, 5, 6, 7, 8, 9, 15]    # FP32 TF32 BF16 BFP8 BFP4 INT32 INT16 BFP2
SRCB_FP16_FAMILY = [1, 2, 3, 10, 11, 14]        # FP16 BFP8A BFP4A FP8 BFP2A INT8

# DstBits[0][0] = 0x800F, DstBits[8][0] = 0x1234, lane 0:
#   FP32: UnshuffleFP32(0x800F1234): hi S=1 E=0x0F M=0 -> 0x8780 -> 0x87801234
#   BF16: UnshuffleBF16(0x800F) << 16 = 0x87800000
#   FP16: S=1, M=(0x800F>>5)&0x3FF=0, E=15 -> 127: 0xBF800000 (-1.0)


@pytest.mark.parametrize("fp32_dest, srcb, expected",
                         [(1, f, 0x87801234) for f in (0, 1, 5, 14)]
                         + [(0, f, 0x87800000) for f in SRCB_BF16_FAMILY]
                         + [(0, f, 0xBF800000) for f in SRCB_FP16_FAMILY])
def test_srcb_resolution_load(fp32_dest, srcb, expected):
    m = machine()
    m.state.tensix.fp32_dest, m.state.tensix.srcb_format = bool(fp32_dest), srcb
    m.state.dst[0, 0], m.state.dst[8, 0] = 0x800F, 0x1234
    ex(m, "SFPLOAD", vd=0, mod0=SRCB, imm10=0)
    assert reg(m, 0)[0] == expected


# L = 0x3F812345, lane 0, DstBits[8][0] preset to 0xEEEE:
#   FP32: hi BF16Shuffle(0x3F81) = 0x017F, lo 0x2345
#   BF16: ToBF16 = 0x3F81 -> 0x017F (row 8 untouched)
#   FP16: E = 127-112 = 15, M = 0x12345 >> 13 = 9 -> 0x3C09 -> shuffle 0x012F
@pytest.mark.parametrize("fp32_dest, srcb, hi, lo",
                         [(1, f, 0x017F, 0x2345) for f in (0, 1, 5, 14)]
                         + [(0, f, 0x017F, 0xEEEE) for f in SRCB_BF16_FAMILY]
                         + [(0, f, 0x012F, 0xEEEE) for f in SRCB_FP16_FAMILY])
def test_srcb_resolution_store(fp32_dest, srcb, hi, lo):
    m = machine()
    m.state.tensix.fp32_dest, m.state.tensix.srcb_format = bool(fp32_dest), srcb
    m.state.dst[0, 0] = m.state.dst[8, 0] = 0xEEEE
    setreg(m, 0, 0x3F812345)
    ex(m, "SFPSTORE", vd=0, mod0=SRCB, imm10=0)
    assert (int(m.state.dst[0, 0]), int(m.state.dst[8, 0])) == (hi, lo)


def test_srcb_directives_through_run_program():
    text = """
        .word 0x70000000      # SFPLOAD vd=0 mod0=SRCB imm10=0
    """
    for directives, expected in ((".fp32_dest 1", 0x87801234), (".srcb_format 5", 0x87800000),
                                 (".srcb_format 1", 0xBF800000)):
        state = SfpuState(Arch.WORMHOLE)
        state.dst[0, 0], state.dst[8, 0] = 0x800F, 0x1234
        res = run(directives + "\n" + text, state=state)
        assert int(res.state.lregs[0][0]) == expected


# ===========================================================================
# Dest-index capture
# ===========================================================================

CAPTURE = ENABLE_DEST_INDEX | CAPTURE_DEFAULT_DEST_INDEX


@pytest.mark.parametrize("vd", [0, 1, 2, 3])
def test_dest_index_capture(vd):
    m = machine()
    fill16_pattern(m)
    m.state.lane_config[:] = CAPTURE
    ex(m, "SFPLOAD", vd=vd, mod0=UINT16, imm10=6)
    got = reg(m, vd + 4)
    assert got[0] == (4 << 4) | 1 and got[9] == (5 << 4) | 3 and got[31] == (7 << 4) | 15
    rows, cols = lane_rows_cols(6)
    assert got == [(r << 4) | c for r, c in zip(rows, cols)]
    assert reg(m, vd) == [r * 16 + c for r, c in zip(rows, cols)]


def test_dest_index_capture_high_rows_and_col_exchange():
    m = machine()
    m.state.lane_config[:] = CAPTURE | RD_COL_EXCHANGE
    ex(m, "SFPLOAD", vd=0, mod0=FP32, imm10=0x3FC)
    assert reg(m, 4)[31] == (1023 << 4) | 15 == 0x3FFF
    assert reg(m, 4)[0] == (1020 << 4) | 1


@pytest.mark.parametrize("vd", [4, 5, 6, 7])
def test_dest_index_no_capture_for_vd_4_to_7(vd):
    m = machine()
    m.state.lane_config[:] = CAPTURE
    for r in range(8):
        if r != vd:
            setreg(m, r, SENTINEL)
    ex(m, "SFPLOAD", vd=vd, mod0=UINT16, imm10=0)
    assert all(reg(m, r) == [SENTINEL] * 32 for r in range(8) if r != vd)


@pytest.mark.parametrize("cfg", [0, ENABLE_DEST_INDEX, CAPTURE_DEFAULT_DEST_INDEX])
def test_dest_index_needs_both_bits(cfg):
    m = machine()
    m.state.lane_config[:] = cfg
    setreg(m, 5, SENTINEL)
    ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=6)
    assert reg(m, 5) == [SENTINEL] * 32


def test_dest_index_per_lane_and_only_in_loaded_lanes():
    m = machine()
    m.state.lane_config[:] = CAPTURE
    m.state.lane_config[7] = ENABLE_DEST_INDEX       # lane 7 lacks CAPTURE
    m.state.lane_config[9] = CAPTURE | BLOCK_SFPU_RD  # lane 9 blocked entirely
    enabled = np.ones(32, dtype=bool)
    enabled[20] = False
    disable_lanes(m, enabled)
    setreg(m, 6, SENTINEL)
    ex(m, "SFPLOAD", vd=2, mod0=UINT16, imm10=0)
    rows, cols = lane_rows_cols(0)
    for lane in range(LANES):
        expected = SENTINEL if lane in (7, 9, 20) else (rows[lane] << 4) | cols[lane]
        assert reg(m, 6)[lane] == expected
    # INT32_ALL ignores the lane enable, so lane 20 is captured too.
    setreg(m, 6, SENTINEL)
    ex(m, "SFPLOAD", vd=2, mod0=INT32_ALL, imm10=0)
    assert reg(m, 6)[20] == (2 << 4) | 8
    assert reg(m, 6)[7] == SENTINEL and reg(m, 6)[9] == SENTINEL


# ===========================================================================
# Format conversions, end to end
# ===========================================================================

# (Mod0, DstBits[0][0], DstBits[8][0], old LReg, LaneConfig, expected LReg) for lane 0.
LOAD_CASES = [
    (FP16, 0x400F, 0x5A5A, 0, 0, 0x3FC00000),          # M=0x200, E=15 -> 1.5
    (FP16, 0x800F, 0x5A5A, 0, 0, 0xBF800000),          # -1.0
    (FP16, 0x0020, 0x5A5A, 0, 0, 0x00002000),          # E=0 stays 0: M=1 -> denormal bits
    (FP16, 0x7FFF, 0x5A5A, 0, 0, 0x47FFE000),          # E=31 -> 143, M=0x3FF
    (FP16, 0x7FFF, 0x5A5A, 0, FP16A_INF, 0x7F800000),  # largest value remapped to +Inf
    (FP16, 0xFFFF, 0x5A5A, 0, FP16A_INF, 0xFF800000),
    (FP16, 0x001F, 0x5A5A, 0, FP16A_INF, 0x47800000),  # E=31, M=0: not remapped
    (FP16, 0x7FFE, 0x5A5A, 0, FP16A_INF, 0x477FE000),  # E=30, M=0x3FF
    (BF16, 0x800F, 0x5A5A, 0, 0, 0x87800000),
    (BF16, 0x407F, 0x5A5A, 0, 0, 0x3FC00000),          # S=0 M=0x40 E=0x7F
    (FP32, 0x800F, 0x1234, 0, 0, 0x87801234),
    (INT32, 0x800F, 0x1234, 0, 0, 0x87801234),
    (INT32_ALL, 0x800F, 0x1234, 0, 0, 0x87801234),
    (FP32, 0x3424, 0x5678, 0, 0, 0x12345678),
    (INT32_SM, 0x8000, 0x0005, 0, 0, 0xFFFFFFFB),      # sign-magnitude -5
    (INT32_SM, 0x8000, 0x0000, 0, 0, 0x00000000),      # -0 -> 0
    (INT32_SM, 0x0000, 0x0007, 0, 0, 0x00000007),
    (INT32_SM, 0x3424, 0x5678, 0, 0, 0x12345678),
    (INT8, 0xD0B0, 0x5A5A, 0, 0, 0x80000005),          # (x>>5)&0x7F = 0x285&0x7F
    (INT8_COMP, 0xD0B0, 0x5A5A, 0, 0, 0xFFFFFD7B),     # -(0x285)
    (INT8_COMP, 0x50B0, 0x5A5A, 0, 0, 0x00000285),
    (INT16, 0xABCD, 0x5A5A, 0, 0, 0x80002BCD),
    (UINT16, 0xABCD, 0x5A5A, SENTINEL, 0, 0x0000ABCD),
    (LO16, 0xABCD, 0x5A5A, SENTINEL, 0, 0x0000ABCD),
    (HI16, 0xABCD, 0x5A5A, SENTINEL, 0, 0xABCD0000),
    (LO16_ONLY, 0xABCD, 0x5A5A, 0x11112222, 0, 0x1111ABCD),
    (HI16_ONLY, 0xABCD, 0x5A5A, 0x11112222, 0, 0xABCD2222),
    (ZERO, 0xABCD, 0x5A5A, 0x11112222, 0, 0x00000000),
]


@pytest.mark.parametrize("mod0, hi, lo, old, cfg, expected", LOAD_CASES)
def test_load_format_conversion(mod0, hi, lo, old, cfg, expected):
    m = machine()
    m.state.dst[0, 0], m.state.dst[8, 0] = hi, lo
    m.state.lane_config[:] = cfg
    setreg(m, 3, old)
    ex(m, "SFPLOAD", vd=3, mod0=mod0, imm10=0)
    assert hex(reg(m, 3)[0]) == hex(expected)


def test_load_fp16a_inf_is_per_lane():
    # SFPLOAD.md: ReadFP16(Dst16b[Row][Column], LaneConfig[Lane].ENABLE_FP16A_INF)
    m = machine()
    m.state.dst[0:4, :] = 0x7FFF
    m.state.lane_config[9] = FP16A_INF
    ex(m, "SFPLOAD", vd=0, mod0=FP16, imm10=0)
    assert reg(m, 0) == [0x7F800000 if l == 9 else 0x47FFE000 for l in range(32)]


# (Mod0, LReg value, expected DstBits[0][0], expected DstBits[8][0]); both preset to 0xEEEE.
STORE_CASES = [
    (FP16, 0x3FC00000, 0x400F, 0xEEEE),
    (FP16, 0xB3800000, 0x8000, 0xEEEE),      # E = 103-112 <= 0: signed zero
    (FP16, 0x38000000, 0x0000, 0xEEEE),      # E = 0: flushed
    (FP16, 0x38800000, 0x0001, 0xEEEE),      # E = 1
    (FP16, 0x47800000, 0x001F, 0xEEEE),      # E = 31, M = 0
    (FP16, 0x7F800000, 0x7FFF, 0xEEEE),      # E > 31: E=31, M all ones
    (FP16, 0xFFC00000, 0xFFFF, 0xEEEE),
    (FP16, 0x3F812345, 0x012F, 0xEEEE),      # truncation
    (BF16, 0x3F812345, 0x017F, 0xEEEE),
    (BF16, 0x807FFFFF, 0x8000, 0xEEEE),      # denormal flushed, sign kept
    (BF16, 0x7F800001, 0x00FF, 0xEEEE),      # NaN with low payload becomes Inf
    (BF16, 0xC0490FDB, 0xC980, 0xEEEE),      # -pi: S, M=0x49, E=0x80
    (FP32, 0x12345678, 0x3424, 0x5678),
    (INT32, 0x12345678, 0x3424, 0x5678),
    (INT32_ALL, 0x12345678, 0x3424, 0x5678),
    (FP32, 0x00000001, 0x0000, 0x0001),      # no denormal flush on WH
    (FP32, 0xC0490FDB, 0xC980, 0x0FDB),
    (INT32_SM, 0xFFFFFFFB, 0x8000, 0x0005),  # -5 -> sign-magnitude
    (INT32_SM, 0x00000007, 0x0000, 0x0007),
    (INT8, 0x80000285, 0xD0B0, 0xEEEE),      # S | 16<<10 | 0x285, FP16-shuffled
    (INT8, 0x00001234, 0x4690, 0xEEEE),      # magnitude keeps 10 bits: 0x234
    (INT8_COMP, 0xFFFFFD7B, 0xD0B0, 0xEEEE),
    (INT8_COMP, 0x00000285, 0x50B0, 0xEEEE),
    (INT16, 0x80012345, 0xA345, 0xEEEE),
    (UINT16, 0x1234ABCD, 0xABCD, 0xEEEE),
    (LO16_ONLY, 0x1234ABCD, 0xABCD, 0xEEEE),
    (HI16_ONLY, 0x1234ABCD, 0x1234, 0xEEEE),
    (LO16, 0x1234ABCD, 0xABCD, 0x1234),      # Dst32b = rotl(x, 16), raw
    (HI16, 0x1234ABCD, 0x1234, 0xABCD),      # Dst32b = x, raw
    (ZERO, 0x1234ABCD, 0x0000, 0xEEEE),
]


@pytest.mark.parametrize("mod0, value, hi, lo", STORE_CASES)
def test_store_format_conversion(mod0, value, hi, lo):
    m = machine()
    m.state.dst[0, 0] = m.state.dst[8, 0] = 0xEEEE
    setreg(m, 6, value)
    ex(m, "SFPSTORE", vd=6, mod0=mod0, imm10=0)
    assert (hex(m.state.dst[0, 0]), hex(m.state.dst[8, 0])) == (hex(hi), hex(lo))


# ===========================================================================
# Round trips (property)
# ===========================================================================

WORDS = st.lists(st.integers(0, 0xFFFFFFFF), min_size=32, max_size=32)


@settings(max_examples=60, deadline=None)
@given(data=WORDS, store_mode=st.sampled_from([FP32, INT32, INT32_ALL]),
       load_mode=st.sampled_from([FP32, INT32, INT32_ALL]), addr=st.integers(0, 1023),
       rwc=st.integers(0, 1023))
def test_round_trip_32bit_exact(data, store_mode, load_mode, addr, rwc):
    if (store_mode == INT32_ALL) != (load_mode == INT32_ALL):
        rwc = 0     # same address for both: INT32_ALL only adds (rwc + base) & 3
    m = machine()
    m.state.tensix.rwc_dst = rwc
    setreg(m, 0, data)
    ex(m, "SFPSTORE", vd=0, mod0=store_mode, imm10=addr)
    ex(m, "SFPLOAD", vd=1, mod0=load_mode, imm10=addr)
    assert reg(m, 1) == data


@settings(max_examples=40, deadline=None)
@given(data=WORDS, addr=st.integers(0, 1023))
def test_round_trip_int32_sm(data, addr):
    data = [0 if v == 0x80000000 else v for v in data]   # -2**31 has no sign-magnitude form
    m = machine()
    setreg(m, 2, data)
    ex(m, "SFPSTORE", vd=2, mod0=INT32_SM, imm10=addr)
    ex(m, "SFPLOAD", vd=3, mod0=INT32_SM, imm10=addr)
    assert reg(m, 3) == data


@settings(max_examples=40, deadline=None)
@given(data=WORDS, addr=st.integers(0, 1023))
def test_round_trip_16bit_halves(data, addr):
    m = machine()
    setreg(m, 0, data)
    setreg(m, 1, 0)
    ex(m, "SFPSTORE", vd=0, mod0=LO16_ONLY, imm10=addr)
    ex(m, "SFPLOAD", vd=1, mod0=LO16_ONLY, imm10=addr)
    ex(m, "SFPSTORE", vd=0, mod0=HI16_ONLY, imm10=addr)
    ex(m, "SFPLOAD", vd=1, mod0=HI16_ONLY, imm10=addr)
    assert reg(m, 1) == data


@settings(max_examples=30, deadline=None)
@given(data=WORDS)
def test_round_trip_fp32_via_run_program(data):
    lines = [f".lreg 5 {' '.join(hex(v) for v in data)}", ".rwc_dst 0x40",
             "sfpstore vd=5 mod0=3 imm10=0x12", "sfpload vd=6 mod0=3 imm10=0x12"]
    res = run("\n".join(lines))
    assert [int(v) for v in res.state.lregs[6]] == data


# ===========================================================================
# VD outside 0..7
# ===========================================================================

@pytest.mark.parametrize("vd", [12, 13, 14, 15])
def test_store_backdoor_writes_template_not_dst(vd):
    m = machine()
    m.state.tensix.addr_mods[1] = AddrMod(dst_incr=8)
    word = encode("SFPSTORE", Arch.WORMHOLE, vd=vd, mod0=FP32, addr_mod=1, imm10=4)
    m.execute(word)
    assert np.count_nonzero(m.state.dst) == 0
    assert [int(v) for v in m.state.macro_templates[vd - 12]] == [word] * 32
    assert all(not m.state.macro_templates[i].any() for i in range(4) if i != vd - 12)
    assert m.state.tensix.rwc_dst == 8


def test_store_vd12_with_backdoor_disabled_stores_the_constant():
    m = machine()
    m.state.lane_config[:] = DISABLE_BACKDOOR
    ex(m, "SFPSTORE", vd=12, mod0=FP32, imm10=0)
    # L12 = 0x37800000: BF16Shuffle(0x3780) = 0x006F, low half 0
    assert m.state.dst[0, 0] == 0x006F and m.state.dst[8, 0] == 0
    assert not m.state.macro_templates.any()


def test_store_constant_registers():
    m = machine()
    ex(m, "SFPSTORE", vd=10, mod0=FP32, imm10=0)      # 1.0 -> hi 0x007F
    assert m.state.dst[0, 0] == 0x007F
    m.state.lane_config[:] = DISABLE_BACKDOOR          # VD = 15 needs the backdoor off
    ex(m, "SFPSTORE", vd=15, mod0=UINT16, imm10=16)   # L15 lane i = 2i
    rows, cols = lane_rows_cols(16)
    assert [int(m.state.dst[r, c]) for r, c in zip(rows, cols)] == [2 * l for l in range(32)]
    ex(m, "SFPSTORE", vd=8, mod0=HI16, imm10=32)      # 0.8373 raw
    assert m.state.dst[phys32(32)[0], 0] == 0x3F56 and m.state.dst[phys32(32)[1], 0] == 0x594B


@pytest.mark.parametrize("vd", [8, 9, 10, 11])
def test_load_vd_8_to_11_writes_nothing_but_applies_addrmod(vd):
    m = machine()
    fill16_pattern(m)
    m.state.lane_config[:] = CAPTURE
    m.state.tensix.addr_mods[3] = AddrMod(dst_incr=12)
    before = m.state.lregs.copy()
    ex(m, "SFPLOAD", vd=vd, mod0=UINT16, addr_mod=3, imm10=0)
    assert np.array_equal(m.state.lregs, before)
    assert m.state.tensix.rwc_dst == 12


# ===========================================================================
# SFPLOADMACRO load part
# ===========================================================================

def test_loadmacro_encoding_by_hand():
    # MacroIndex [23:22], VDLo [21:20], Mod0 [19:16], AddrMod [15:14], Imm9 [9:1], VDHi [0]
    word = encode("SFPLOADMACRO", Arch.WORMHOLE, macro=2, vd=5, mod0=3, addr_mod=1, offset=8)
    assert word == (0x93 << 24) | (2 << 22) | (1 << 20) | (3 << 16) | (1 << 14) | (4 << 1) | 1


@pytest.mark.parametrize("vd_hi, vd_lo, imm9", [(0, 0, 0), (1, 1, 4), (1, 3, 5), (0, 2, 0x1FF), (1, 0, 0x105)])
def test_loadmacro_load_part(vd_hi, vd_lo, imm9):
    vd = (vd_hi << 2) | vd_lo
    imm10 = (imm9 << 1) | vd_hi          # VDHi lands in address bit 0, which is ignored
    word = (0x93 << 24) | (vd_lo << 20) | (FP32 << 16) | (imm9 << 1) | vd_hi
    m = machine()
    fill32_pattern(m)
    for r in range(8):
        setreg(m, r, SENTINEL)
    m.execute(word)
    rows, cols = lane_rows_cols(imm10 & ~1)
    assert reg(m, vd) == [phys32(r)[1] * 16 + c for r, c in zip(rows, cols)]
    assert all(reg(m, r) == [SENTINEL] * 32 for r in range(8) if r != vd)
    # Identical to the SFPLOAD it stands for.
    m2 = machine()
    fill32_pattern(m2)
    ex(m2, "SFPLOAD", vd=vd, mod0=FP32, imm10=imm10)
    assert reg(m2, vd) == reg(m, vd)


def test_loadmacro_zero_sequence_behaves_as_sfpload_in_strict_run():
    text = """
        .addr_mod 1 dst_incr=4
        .rwc_dst 8
        sfploadmacro macro=1 vd=6 mod0=6 addr_mod=1 offset=2
    """
    # VD = 6: VDHi = 1, so Imm10 = (1 << 1) | 1 = 3; Addr = 3 + 8 = 11: rows 8..11, odd columns.
    state = SfpuState(Arch.WORMHOLE)
    fill16_pattern(Machine(state))
    res = run(text, state=state)
    rows, cols = lane_rows_cols(11)
    assert [int(v) for v in res.state.lregs[6]] == [r * 16 + c for r, c in zip(rows, cols)]
    assert res.state.tensix.rwc_dst == 12 and not res.warnings


def test_loadmacro_vdhi_is_address_bit_0():
    # Imm10 = (Imm9 << 1) | VDHi. Bit 0 is ignored by the row/column selection,
    # but it takes part in the addition: with an odd DEST offset it carries.
    m = machine()
    fill16_pattern(m)
    m.state.tensix.dest_offset = 1
    ex(m, "SFPLOADMACRO", macro=0, vd=4, mod0=UINT16, offset=2)   # Imm10 = 3, Addr = 4
    rows, cols = lane_rows_cols(4)
    assert reg(m, 4) == [r * 16 + c for r, c in zip(rows, cols)]
    ex(m, "SFPLOADMACRO", macro=0, vd=3, mod0=UINT16, offset=2)   # Imm10 = 2, Addr = 3
    rows, cols = lane_rows_cols(3)
    assert reg(m, 3) == [r * 16 + c for r, c in zip(rows, cols)]


def test_loadmacro_select_zero_with_delay_bits_schedules_nothing():
    # Sequence bytes with select = 0 ("case 0: continue") but non-zero Delay.
    res = run("""
        sfploadi vd=0 mod0=8 imm16=0x3838
        sfploadi vd=0 mod0=10 imm16=0x3838
        sfpconfig vd=4 mod1=0 imm16=0
        sfploadmacro macro=0 vd=1 mod0=3 offset=0
    """)
    assert int(res.state.macro_sequences[0][0]) == 0x38383838 and not res.warnings


def test_loadmacro_capture_dest_index():
    m = machine()
    m.state.lane_config[:] = CAPTURE
    ex(m, "SFPLOADMACRO", macro=0, vd=3, mod0=FP32, offset=4)
    assert reg(m, 7)[0] == (4 << 4) | 0 and reg(m, 7)[31] == (7 << 4) | 14


SCHEDULING = """
    .lreg 0 0
    sfpconfig vd=4 mod1=1 imm16=0x0002      # Sequence[0]: Simple = SFPNOP, delay 0
    sfploadmacro macro=0 vd=2 mod0=6 offset=0
"""


def test_loadmacro_that_schedules_loads_and_runs_its_nop():
    state = SfpuState(Arch.WORMHOLE)
    fill16_pattern(Machine(state))
    res = run(SCHEDULING, state=state)
    assert not res.hazards
    rows, cols = lane_rows_cols(0)
    assert [int(v) for v in res.state.lregs[2]] == [r * 16 + c for r, c in zip(rows, cols)]
    macro_cycle = max(res.issued_from)
    nop = res.trace[macro_cycle + 1].units["simple"]
    assert (nop.mnemonic, nop.origin, nop.macro_cycle) == ("SFPNOP", "macro", macro_cycle)


def test_loadmacro_other_macro_index_scheduling_does_not_matter():
    res = run("""
        sfpconfig vd=5 mod1=1 imm16=0x0002      # Sequence[1] schedules
        sfploadmacro macro=0 vd=2 mod0=6 offset=0
    """)
    assert not res.warnings


# ===========================================================================
# SFPLOADI
# ===========================================================================

# (Mod0, Imm16, old, expected)
LOADI_CASES = [
    (0, 0x3FC0, SENTINEL, 0x3FC00000),   # FLOATB
    (0, 0xFFFF, SENTINEL, 0xFFFF0000),
    (1, 0x0000, SENTINEL, 0x38000000),   # FLOATA: E=0 rebiased to 112 (2**-15)
    (1, 0x7C00, SENTINEL, 0x47800000),   # E=31 -> 143: 65536.0, not Inf
    (1, 0x3C00, SENTINEL, 0x3F800000),
    (1, 0xBC00, SENTINEL, 0xBF800000),
    (1, 0x7FFF, SENTINEL, 0x47FFE000),
    (1, 0x8001, SENTINEL, 0xB8002000),
    (2, 0x8001, SENTINEL, 0x00008001),   # USHORT
    (4, 0x8001, SENTINEL, 0xFFFF8001),   # SHORT
    (4, 0x7FFF, SENTINEL, 0x00007FFF),
    (4, 0xFFFF, SENTINEL, 0xFFFFFFFF),
    (8, 0xABCD, 0x11112222, 0xABCD2222),  # UPPER
    (10, 0xABCD, 0x11112222, 0x1111ABCD),  # LOWER
]


@pytest.mark.parametrize("mod0, imm16, old, expected", LOADI_CASES)
def test_loadi_modes(mod0, imm16, old, expected):
    m = machine()
    setreg(m, 2, old)
    ex(m, "SFPLOADI", vd=2, mod0=mod0, imm16=imm16)
    assert reg(m, 2) == [expected] * 32


def test_loadi_upper_lower_build_a_word():
    res = run("""
        sfploadi vd=7 mod0=8 imm16=0x1234
        sfploadi vd=7 mod0=10 imm16=0x5678
    """)
    assert [int(v) for v in res.state.lregs[7]] == [0x12345678] * 32


@pytest.mark.parametrize("mod0", [3, 5, 6, 7, 9, 11, 12, 13, 14, 15])
def test_loadi_undefined_mod0(mod0):
    m = machine()
    with pytest.raises(UndefinedBehaviour):
        ex(m, "SFPLOADI", vd=1, mod0=mod0, imm16=0x1234)
    m = machine(strict=False)
    setreg(m, 1, SENTINEL)
    ex(m, "SFPLOADI", vd=1, mod0=mod0, imm16=0x1234)
    assert m.warnings and reg(m, 1) == [SENTINEL] * 32


def test_loadi_undefined_mod0_with_vd_8_is_not_reached():
    # SFPLOADI.md: the Mod0 switch (and its `default: UndefinedBehaviour()`) sits
    # inside `if (VD < 8) { lanewise { if (LaneEnabled) { ... } } }`; for VD >= 8
    # the functional model only executes the empty else branch.
    m = machine()
    before = m.state.lregs.copy()
    ex(m, "SFPLOADI", vd=8, mod0=3, imm16=0x1234)
    assert np.array_equal(m.state.lregs, before)


@pytest.mark.parametrize("vd", [8, 9, 10, 11])
def test_loadi_vd_8_and_up_writes_nothing(vd):
    m = machine()
    before = m.state.lregs.copy()
    ex(m, "SFPLOADI", vd=vd, mod0=0, imm16=0x4000)
    assert np.array_equal(m.state.lregs, before)


@pytest.mark.parametrize("vd", [12, 13, 14, 15])
def test_loadi_vd_12_and_up_with_backdoor_disabled_writes_no_lreg(vd):
    m = machine()
    m.state.lane_config[:] = DISABLE_BACKDOOR
    before = m.state.lregs.copy()
    ex(m, "SFPLOADI", vd=vd, mod0=0, imm16=0x4000)
    assert np.array_equal(m.state.lregs, before)


def test_loadi_disabled_lanes_untouched():
    m = machine()
    disable_lanes(m, ENABLED)
    m.state.lane_config[0] = row_mask(2)      # also masks lane 16
    setreg(m, 3, SENTINEL)
    ex(m, "SFPLOADI", vd=3, mod0=2, imm16=0x55)
    for lane in range(LANES):
        on = ENABLED[lane] and lane != 16
        assert reg(m, 3)[lane] == (0x55 if on else SENTINEL)


# ===========================================================================
# SFPCONFIG
# ===========================================================================

L0_PATTERN = [0x84000000 + 0x111 * l + (0x10000 if l >= 8 else 0) for l in range(32)]


def broadcast(values):
    return [values[l & 7] for l in range(32)]


@pytest.mark.parametrize("vd", [0, 1, 2, 3])
@pytest.mark.parametrize("mod1, imm16", [(0, 0), (1, 0xFFFF)])
def test_config_templates_from_l0_lanes_0_to_7(vd, mod1, imm16):
    m = machine()
    setreg(m, 0, L0_PATTERN)
    ex(m, "SFPCONFIG", vd=vd, mod1=mod1, imm16=imm16)   # Imm16 is never used
    assert [int(v) for v in m.state.macro_templates[vd]] == broadcast(L0_PATTERN)
    assert all(not m.state.macro_templates[i].any() for i in range(4) if i != vd)


@pytest.mark.parametrize("vd", [4, 5, 6, 7])
def test_config_sequences(vd):
    m = machine()
    setreg(m, 0, L0_PATTERN)
    ex(m, "SFPCONFIG", vd=vd, mod1=1, imm16=0xBEEF)
    assert [int(v) for v in m.state.macro_sequences[vd - 4]] == [0x0000BEEF] * 32
    ex(m, "SFPCONFIG", vd=vd, mod1=0, imm16=0xBEEF)
    assert [int(v) for v in m.state.macro_sequences[vd - 4]] == broadcast(L0_PATTERN)


# Misc starts at 0x0F0. Imm16 0xF3C5 -> 12 bits 0x3C5; L0 0x12345ABC -> 0xABC.
@pytest.mark.parametrize("mod1, expected", [
    (1, 0x3C5), (3, 0x0F0 | 0x3C5), (5, 0x0F0 & 0x3C5), (7, 0x0F0 ^ 0x3C5),
    (0, 0xABC), (2, 0x0F0 | 0xABC), (4, 0x0F0 & 0xABC), (6, 0x0F0 ^ 0xABC),
])
def test_config_misc(mod1, expected):
    m = machine()
    m.state.macro_misc[:] = 0x0F0
    setreg(m, 0, 0x12345ABC)
    ex(m, "SFPCONFIG", vd=8, mod1=mod1, imm16=0xF3C5)
    assert [int(v) for v in m.state.macro_misc] == [expected] * 32


@pytest.mark.parametrize("vd", [9, 10])
@pytest.mark.parametrize("mod1", [0, 1, 2, 6])
def test_config_vd_9_10_do_nothing(vd, mod1):
    m = machine()
    setreg(m, 0, L0_PATTERN)
    m.state.lane_config[:] = 0x0F0
    m.state.macro_misc[:] = 0x123
    before = m.state.copy()
    ex(m, "SFPCONFIG", vd=vd, mod1=mod1, imm16=0xFFFF)
    for name in ("lregs", "lane_config", "macro_misc", "macro_templates", "macro_sequences", "prng",
                 "lane_flags", "use_flags", "dst"):
        assert np.array_equal(getattr(m.state, name), getattr(before, name)), name


DEFAULTS = {11: 0xBF800000, 12: 0x37800000, 13: 0xBF2CC4C7, 14: 0xBEB08FF9}


@pytest.mark.parametrize("vd", [11, 12, 13, 14])
def test_config_constants(vd):
    m = machine()
    setreg(m, 0, L0_PATTERN)
    ex(m, "SFPCONFIG", vd=vd, mod1=0, imm16=0x4000)
    assert reg(m, vd) == broadcast(L0_PATTERN)
    ex(m, "SFPCONFIG", vd=vd, mod1=1, imm16=0x4000)   # IMM16_IS_VALUE: the fixed default
    assert reg(m, vd) == [DEFAULTS[vd]] * 32


def test_config_vd_12_writes_the_constant_not_a_template():
    # docs/decisions.md: SFPCONFIG's VD selects a target; no backdoor write.
    m = machine()
    setreg(m, 0, 0x43B8AA3B)
    ex(m, "SFPCONFIG", vd=12, mod1=0, imm16=0)
    assert reg(m, 12) == [0x43B8AA3B] * 32
    assert not m.state.macro_templates.any()


# LaneConfig starts at 0x300F0 (bits 16-17 set). Imm16 0x0F0F. L0 0xFFF12345 -> 18 bits 0x12345.
@pytest.mark.parametrize("mod1, expected", [
    (1, 0x30F0F),       # SET 0x0F0F, then |= original & ~0xFFFF
    (3, 0x30FFF),       # OR
    (5, 0x30000),       # AND gives 0x00000, high bits put back
    (7, 0x30FFF),       # XOR
    (0, 0x12345),       # from L0: all 18 bits
    (2, 0x323F5),
    (4, 0x10040),
    (6, 0x223B5),
])
def test_config_lane_config(mod1, expected):
    m = machine()
    m.state.lane_config[:] = 0x300F0
    setreg(m, 0, 0xFFF12345)
    ex(m, "SFPCONFIG", vd=15, mod1=mod1, imm16=0x0F0F)
    assert [int(v) for v in m.state.lane_config] == [expected] * 32
    assert not m.state.macro_templates.any()


def test_config_lane_mask():
    m = machine()
    setreg(m, 0, L0_PATTERN)
    ex(m, "SFPCONFIG", vd=11, mod1=8, imm16=0x1041)   # bits 0, 6, 12: lane groups 0, 3, 6
    for lane in range(LANES):
        expected = L0_PATTERN[lane & 7] if (lane & 7) in (0, 3, 6) else 0xBF800000
        assert reg(m, 11)[lane] == expected
    ex(m, "SFPCONFIG", vd=11, mod1=9, imm16=0x1000)   # group 6 only, default value
    for lane in range(LANES):
        expected = L0_PATTERN[lane & 7] if (lane & 7) in (0, 3) else 0xBF800000
        assert reg(m, 11)[lane] == expected


def test_config_lane_mask_odd_bits_select_nothing():
    m = machine()
    setreg(m, 0, L0_PATTERN)
    ex(m, "SFPCONFIG", vd=5, mod1=9, imm16=0xAAAA)
    assert not m.state.macro_sequences.any()


def test_config_predication_uses_flags_of_lane_and_7():
    m = machine()
    setreg(m, 0, L0_PATTERN)
    m.state.use_flags[:] = True
    m.state.lane_flags[:] = False
    m.state.lane_flags[[2, 5, 12, 30]] = True   # 12 and 30 are not consulted
    m.state.use_flags[7] = False                # group 7 unpredicated
    m.state.lane_config[:] = row_mask(0, 1, 2, 3)   # ROW_MASK plays no part
    ex(m, "SFPCONFIG", vd=11, mod1=0, imm16=0)
    for lane in range(LANES):
        expected = L0_PATTERN[lane & 7] if (lane & 7) in (2, 5, 7) else 0xBF800000
        assert reg(m, 11)[lane] == expected


# ===========================================================================
# SFPMAD / SFPADD / SFPMUL / SFPADDI / SFPMULI
# ===========================================================================

# (x, y, z, fma_model_wh(x, y, z)) traced by hand through fma.c.
MAD_CASES = [
    (0x3FC00000, 0x40000000, 0x3E800000, 0x40500000),  # 1.5*2+0.25 = 3.25
    (0x80000000, 0x3F800000, 0x80000000, 0x00000000),  # (-0)*1 + (-0) = +0
    (0x3F800000, 0x3F800000, 0xBF800000, 0x00000000),  # 1 - 1 = +0
    (0xBF800000, 0x3F800000, 0x3F800000, 0x00000000),
    (0x00000001, 0x40000000, 0x3E800000, 0x3E800000),  # denormal x read as 0
    (0x3F800000, 0x3F800000, 0x00000001, 0x3F800000),  # denormal z read as 0
    (0x00000000, 0x40A00000, 0xC0400000, 0xC0400000),  # p = 0: z returned
    (0x3F800001, 0x3F800001, 0xBF800002, 0x32800000),  # partial fusion: 2**-26
    (0x00800000, 0x3F7FFFFF, 0x00000000, 0x00000000),  # denormal-rounding flaw
    (0x00800000, 0x3F000000, 0x00000000, 0x00000000),  # denormal result -> +0
    (0x80800000, 0x3F000000, 0x00000000, 0x00000000),  # ... sign discarded
    (0x3F800000, 0x3F800000, 0x33800000, 0x3F800000),  # 1 + 2**-24: tie to even
    (0x3F800000, 0x3F800000, 0x33C00000, 0x3F800001),  # above the tie: up
    (0x7F800000, 0x00000000, 0x00000000, 0x7F800001),  # Inf*0
    (0xFF800000, 0x00000000, 0x00000000, 0xFF800001),
    (0x7FC00000, 0x3F000000, 0x00000000, 0x7FC00001),  # NaN*0.5+0
    (0x7FC00000, 0x3F800000, 0x00000000, 0x7F800001),  # NaN*1+0
    (0x3F800000, 0x3F800000, 0xFFC00001, 0xFF800001),  # NaN z: z's sign
    (0x7F000000, 0x40800000, 0x3F800000, 0x7F800000),  # product overflow -> Inf
    (0xFF000000, 0x40800000, 0x3F800000, 0xFF800000),
    (0x7F000000, 0x40800000, 0xFF800000, 0x7F800001),  # overflowing product vs -Inf: NaN
    (0x7F000000, 0x40800000, 0x7F800000, 0x7F800000),
    (0x40000000, 0x40400000, 0xFF800000, 0xFF800000),  # finite + -Inf = z
    (0x7F800000, 0x3F800000, 0xFF800000, 0x7F800001),  # Inf - Inf
    (0x7F800000, 0x40000000, 0x40A00000, 0x7F800000),
    (0x7F7FFFFF, 0x3F800000, 0x7F7FFFFF, 0x7F800000),  # sum overflows
]


@pytest.mark.parametrize("x, y, z, expected", MAD_CASES)
def test_sfpmad_arithmetic(x, y, z, expected):
    m = machine()
    setreg(m, 1, x)
    setreg(m, 2, y)
    setreg(m, 3, z)
    ex(m, "SFPMAD", va=1, vb=2, vc=3, vd=4, mod1=0)
    assert hex(reg(m, 4)[0]) == hex(expected) and len(set(reg(m, 4))) == 1


@pytest.mark.parametrize("mnemonic", ["SFPMAD", "SFPADD", "SFPMUL"])
def test_add_and_mul_are_sfpmad(mnemonic):
    m = machine()
    setreg(m, 1, ONE_HALF)
    setreg(m, 2, TWO)
    setreg(m, 3, QUARTER)
    ex(m, mnemonic, va=1, vb=2, vc=3, vd=4)
    assert reg(m, 4) == [0x40500000] * 32
    ex(m, mnemonic, va=10, vb=1, vc=2, vd=5)     # 1.0 * 1.5 + 2.0
    assert reg(m, 5) == [0x40600000] * 32
    ex(m, mnemonic, va=1, vb=2, vc=9, vd=6)      # 1.5 * 2.0 + 0
    assert reg(m, 6) == [0x40400000] * 32


# (L[VD] before, Imm16, expected) for SFPADDI: BF16(Imm16) * 1.0 + L[VD]
@pytest.mark.parametrize("c, imm16, expected", [
    (ONE_HALF, 0x3E80, 0x3FE00000),        # 1.5 + 0.25
    (0x00000001, 0x3F80, 0x3F800000),      # denormal read as 0
    (0xBF800000, 0x3F80, 0x00000000),      # +0
    (0xBF800000, 0x7FC0, 0x7F800001),      # NaN imm
    (0x3F800000, 0xFFC0, 0xFF800001),
    (0x7F7FFFFF, 0x7F7F, 0x7F800000),
    # Both NaN, opposite signs. Imm16 is fma's x (SFPADDI.md: BF16(Imm16) * 1.0 + c):
    # x NaN -> p_sign | 0x7F800001 with p_sign = +; r_m then cancels to 0.
    # (Computing c * 1.0 + imm instead would give 0xFF800001.)
    (0xFFC00000, 0x7FC0, 0x7F800001),
])
def test_sfpaddi(c, imm16, expected):
    m = machine()
    setreg(m, 2, c)
    ex(m, "SFPADDI", vd=2, imm16=imm16, mod1=0)
    assert reg(m, 2) == [expected] * 32


# (L[VD] before, Imm16, expected) for SFPMULI: BF16(Imm16) * L[VD] + 0.0
@pytest.mark.parametrize("c, imm16, expected", [
    (ONE_HALF, 0x4000, 0x40400000),        # 1.5 * 2
    (0x7F000000, 0x4000, 0x7F800000),      # saturates to Inf
    (0x7FC00000, 0x3F00, 0x7FC00001),      # 0.5 * NaN
    (0x80000000, 0x4000, 0x00000000),      # -0 * 2 = +0
    (0x3F800000, 0x8000, 0x00000000),
    (0x00800000, 0x3F00, 0x00000000),      # denormal result flushed
])
def test_sfpmuli(c, imm16, expected):
    m = machine()
    setreg(m, 3, c)
    ex(m, "SFPMULI", vd=3, imm16=imm16, mod1=0)
    assert reg(m, 3) == [expected] * 32


@pytest.mark.parametrize("mnemonic, imm16, expected", [("SFPADDI", 0x3E80, 0x3FE00000),
                                                       ("SFPMULI", 0x4000, 0x40400000)])
def test_addi_muli_indirect_vd(mnemonic, imm16, expected):
    m = machine()
    setreg(m, 1, ONE_HALF)
    setreg(m, 7, 3)
    ex(m, mnemonic, vd=1, imm16=imm16, mod1=8)
    assert reg(m, 3) == [expected] * 32 and reg(m, 1) == [ONE_HALF] * 32


def test_addi_indirect_vd_with_constant_source():
    # VC = VD = 10 (1.0); vd = L7 & 15 = 2: L2 = 1.0 * 1.0 + 1.0
    m = machine()
    setreg(m, 7, 2)
    ex(m, "SFPADDI", vd=10, imm16=0x3F80, mod1=8)
    assert reg(m, 2) == [TWO] * 32


# L[L7 & 15] * 2.0 + 0 per lane; L0..L6 preset as below.
INDIRECT_VA_EXPECTED = {
    0: 0x40000000,   # L0 = 1.0
    1: 0x40400000,   # L1 = 1.5
    2: 0x40C00000,   # L2 = 3.0
    3: 0xC1200000,   # L3 = -5.0
    4: 0x40800000,   # L4 = 2.0
    5: 0x3F000000,   # L5 = 0.25 (old value: the destination)
    6: 0x41800000,   # L6 = 8.0
    7: 0x00000000,   # L7 holds a small integer: a denormal, read as 0
    8: 0x3FD6594B,   # 0.8373 * 2
    9: 0x00000000,
    10: 0x40000000,
    11: 0xC0000000,  # -1.0 * 2
    12: 0x38000000,  # 2**-16 * 2
    13: 0xBFACC4C7,
    14: 0xBF308FF9,
    15: 0x00000000,  # 2*lane as FP32 is a denormal
}
L7_INDICES = list(range(16)) + [0x11, 0xFFFFFFF2] + list(range(14))


def test_sfpmad_indirect_va_per_lane():
    m = machine()
    for r, v in enumerate([0x3F800000, 0x3FC00000, 0x40400000, 0xC0A00000, 0x40000000, 0x3E800000,
                           0x41000000]):
        setreg(m, r, v)
    setreg(m, 7, L7_INDICES)
    ex(m, "SFPMAD", va=0, vb=4, vc=9, vd=5, mod1=4)
    assert reg(m, 5) == [INDIRECT_VA_EXPECTED[v & 15] for v in L7_INDICES]


def test_sfpmad_indirect_vd_per_lane():
    m = machine()
    setreg(m, 1, ONE_HALF)
    setreg(m, 2, TWO)
    setreg(m, 3, QUARTER)
    for r in (0, 4, 5, 6):
        setreg(m, r, 0xDEAD0000 + r)
    dests = [0, 4, 5, 6, 7, 8, 12, 15]
    l7 = [dests[l & 7] + (0x30 if l >= 16 else 0) for l in range(32)]
    setreg(m, 7, l7)
    ex(m, "SFPMAD", va=1, vb=2, vc=3, vd=0, mod1=8)
    for lane in range(LANES):
        dest = l7[lane] & 15
        for r in (0, 4, 5, 6, 7):
            before = l7[lane] if r == 7 else 0xDEAD0000 + r
            assert reg(m, r)[lane] == (0x40500000 if r == dest else before), (lane, r)
    assert reg(m, 1) == [ONE_HALF] * 32 and not m.state.macro_templates.any()


def test_sfpmad_indirect_va_and_vd_together():
    m = machine()
    setreg(m, 2, 0x40400000)   # 3.0
    setreg(m, 4, TWO)
    setreg(m, 7, 2)
    ex(m, "SFPMAD", va=0, vb=4, vc=9, vd=0, mod1=12)
    assert reg(m, 2) == [0x40C00000] * 32 and reg(m, 0) == [0] * 32


def test_sfpmad_backdoor():
    m = machine()
    setreg(m, 1, ONE_HALF)
    setreg(m, 7, 2)
    before = m.state.lregs.copy()
    word = encode("SFPMAD", Arch.WORMHOLE, va=1, vb=10, vc=9, vd=12, mod1=8)
    m.execute(word)
    assert np.array_equal(m.state.lregs, before)
    assert [int(v) for v in m.state.macro_templates[0]] == [word] * 32
    # With the backdoor disabled the guard passes and INDIRECT_VD writes L[L7 & 15].
    m = machine()
    m.state.lane_config[:] = DISABLE_BACKDOOR
    setreg(m, 1, ONE_HALF)
    setreg(m, 7, 2)
    m.execute(word)
    assert reg(m, 2) == [ONE_HALF] * 32 and not m.state.macro_templates.any()


@pytest.mark.parametrize("mnemonic, fields", [
    ("SFPMAD", dict(va=1, vb=2, vc=3, vd=4)),
    ("SFPADDI", dict(vd=4, imm16=0x3F80)),
    ("SFPMULI", dict(vd=4, imm16=0x4000)),
])
def test_mad_family_disabled_lanes_untouched(mnemonic, fields):
    m = machine()
    setreg(m, 1, ONE_HALF)
    setreg(m, 2, TWO)
    setreg(m, 3, QUARTER)
    setreg(m, 4, ONE)
    disable_lanes(m, ENABLED)
    ex(m, mnemonic, **fields)
    result = {"SFPMAD": 0x40500000, "SFPADDI": TWO, "SFPMULI": TWO}[mnemonic]
    assert reg(m, 4) == [result if e else ONE for e in ENABLED]


# ===========================================================================
# SFPLUT
# ===========================================================================

# L0 low bytes A=0x00 (1.0), C=0x20 (0.25); L1 A=0x18 (0.75), C=0x38 (0.1875);
# L2 A=0x90 (-0.5), C=0x08 (1.5). The upper 16 bits are ignored.
LUT_REGS = {0: 0xABCD0020, 1: 0x12341838, 2: 0xFFFF9008}

LUT_CASES = [
    (0x3F000000, 0, 0x3F400000),   # b=0.5 <1: 0.5+0.25
    (0xBF000000, 0, 0x3F400000),   # b = |L3|
    (0xBF000000, 4, 0xBF400000),   # SGN_RETAIN
    (0x3F7FFFFF, 0, 0x3FA00000),   # b just below 1: b+0.25 rounds (tie, even) to 1.25
    (0x3F800000, 0, 0x3F700000),   # b=1.0 -> L1: 0.75+0.1875
    (0x3FC00000, 0, 0x3FA80000),   # 1.125+0.1875
    (0xBFC00000, 4, 0xBFA80000),
    (0x3FFFFFFF, 0, 0x3FD7FFFF),   # b just below 2 -> L1
    (0x40000000, 0, 0x3F000000),   # b=2.0 -> L2: -1+1.5
    (0x40400000, 0, 0x00000000),   # -1.5+1.5 = +0
    (0xC0400000, 4, 0x80000000),   # copysign(+0, -3)
    (0x7FC00000, 0, 0xFFC00001),   # NaN fails both compares -> L2: -0.5*NaN+1.5
    (0x7F800000, 0, 0xFF800000),   # -0.5*Inf + 1.5
    (0x7F800000, 4, 0x7F800000),
]


@pytest.mark.parametrize("l3, mod0, expected", LUT_CASES)
def test_sfplut(l3, mod0, expected):
    m = machine()
    for r, v in LUT_REGS.items():
        setreg(m, r, v)
    setreg(m, 3, l3)
    ex(m, "SFPLUT", vd=4, mod0=mod0)
    assert hex(reg(m, 4)[0]) == hex(expected)


def test_sfplut_per_lane_selection():
    m = machine()
    for r, v in LUT_REGS.items():
        setreg(m, r, v)
    l3 = [0x3F000000, 0x3F800000, 0x40000000, 0xC0400000] * 8
    expected = [0x3F400000, 0x3F700000, 0x3F000000, 0x00000000] * 8
    setreg(m, 3, l3)
    ex(m, "SFPLUT", vd=5, mod0=0)
    assert reg(m, 5) == expected


def test_sfplut_lut8_edge_bytes():
    m = machine()
    setreg(m, 3, HALF)
    setreg(m, 0, 0x7F00)   # A = 0x7F = +0.0151367 (0x3C780000), C = 0x00 = 1.0
    ex(m, "SFPLUT", vd=4, mod0=0)
    assert reg(m, 4)[0] == 0x3F80F800       # 1 + 31 * 2**-12
    setreg(m, 0, 0xFF20)   # A = 0xFF = 0, C = 0.25
    ex(m, "SFPLUT", vd=4, mod0=0)
    assert reg(m, 4)[0] == QUARTER


@pytest.mark.parametrize("mod0, expected", [(8, 0x3FA80000), (12, 0xBFA80000)])
def test_sfplut_indirect_vd(mod0, expected):
    m = machine()
    for r, v in LUT_REGS.items():
        setreg(m, r, v)
    setreg(m, 3, 0xBFC00000)
    setreg(m, 4, SENTINEL)
    setreg(m, 7, 6)
    ex(m, "SFPLUT", vd=4, mod0=mod0)
    assert reg(m, 6) == [expected] * 32 and reg(m, 4) == [SENTINEL] * 32


def test_sfplut_backdoor_guard():
    m = machine()
    for r, v in LUT_REGS.items():
        setreg(m, r, v)
    setreg(m, 3, HALF)
    setreg(m, 7, 5)
    before = m.state.lregs.copy()
    word = encode("SFPLUT", Arch.WORMHOLE, vd=13, mod0=8)
    m.execute(word)
    assert np.array_equal(m.state.lregs, before)
    assert [int(v) for v in m.state.macro_templates[1]] == [word] * 32


# ===========================================================================
# SFPLUTFP32
# ===========================================================================

FP32_TABLE = {0: ONE, 4: QUARTER, 1: 0x3F400000, 5: 0x3E400000, 2: 0xBF000000, 6: ONE_HALF}


@pytest.mark.parametrize("l3, mod1, expected", [
    (HALF, 0, 0x3F400000),           # 1.0*0.5 + 0.25
    (0x3FC00000, 0, 0x3FA80000),     # 0.75*1.5 + 0.1875
    (0x40400000, 0, 0x00000000),     # -0.5*3 + 1.5
    (0xBFC00000, 0, 0x3FA80000),
    (0xBFC00000, 4, 0xBFA80000),     # SGN_RETAIN
    (0xBFC00000, 1, 0x3FA80000),     # bit 0 alone is still FP32_3ENTRY
])
def test_sfplutfp32_fp32_3entry(l3, mod1, expected):
    m = machine()
    for r, v in FP32_TABLE.items():
        setreg(m, r, v)
    setreg(m, 3, l3)
    ex(m, "SFPLUTFP32", vd=7, mod1=mod1)
    assert reg(m, 7) == [expected] * 32


# FP16 pairs: L0 = (1.0, 0.25), L1 = (0.75, 0.1875), L2 = (-0.5, 1.5) as (A << 16 | C).
FP16_3 = {0: 0x3C003400, 1: 0x3A003200, 2: 0xB8003E00}


@pytest.mark.parametrize("mod1", [10, 11, 14, 15])
@pytest.mark.parametrize("l3, magnitude", [(HALF, 0x3F400000), (0xBFC00000, 0x3FA80000), (0x40400000, 0)])
def test_sfplutfp32_fp16_3entry_always_indirect(mod1, l3, magnitude):
    m = machine()
    for r, v in FP16_3.items():
        setreg(m, r, v)
    setreg(m, 3, l3)
    setreg(m, 7, 5)
    setreg(m, 4, SENTINEL)
    ex(m, "SFPLUTFP32", vd=4, mod1=mod1)
    sign = (l3 & 0x80000000) if mod1 & 4 else 0
    assert reg(m, 5) == [magnitude | sign] * 32      # written through L7, not VD
    assert reg(m, 4) == [SENTINEL] * 32


def test_sfplutfp32_lut16_exponent_0_and_31():
    # Lut16(0x7C00) = 0 (E=31); Lut16(0x0000) = 2**-15 (E=0 is not a denormal)
    m = machine()
    setreg(m, 0, 0x7C000000)
    setreg(m, 3, HALF)
    setreg(m, 7, 1)
    ex(m, "SFPLUTFP32", vd=1, mod1=10)
    assert reg(m, 1) == [0x38000000] * 32


# Six-entry tables: A = 1.0 (low halves) / 2.0 (high halves) in L0..L2;
# C in L4 = (3.0, 0.5), L5 = (4.0, 3.0), L6 = (6.0, 0.5).
SIX = {0: 0x40003C00, 1: 0x40003C00, 2: 0x40003C00, 4: 0x42003800, 5: 0x44004200, 6: 0x46003800}


@pytest.mark.parametrize("b, t1, t2", [
    (0x3E800000, 0x3F400000, 0x3F400000),   # 0.25: i0 j0: 0.25+0.5
    (0x3F000000, 0x40800000, 0x40800000),   # 0.5: i0 j16: 1+3
    (0x3F400000, 0x40900000, 0x40900000),   # 0.75: 1.5+3
    (0x3F800000, 0x40800000, 0x40800000),   # 1.0: i1 j0: 1+3
    (0x3FA00000, 0x40880000, 0x40880000),   # 1.25: 4.25
    (0x3FC00000, 0x40E00000, 0x40E00000),   # 1.5: i1 j16: 3+4
    (0x3FE00000, 0x40F00000, 0x40F00000),   # 1.75: 3.5+4
    (0x40000000, 0x40200000, 0x40200000),   # 2.0: i2 j0: 2+0.5
    (0x40200000, 0x40400000, 0x40400000),   # 2.5: 3.0
    (0x40400000, 0x41400000, 0x40600000),   # 3.0: T1 j16 6+6; T2 j0 3+0.5
    (0x40600000, 0x41500000, 0x40800000),   # 3.5: T1 7+6; T2 3.5+0.5
    (0x40800000, 0x41600000, 0x41600000),   # 4.0: 8+6 in both
    (0x40900000, 0x41700000, 0x41700000),   # 4.5: 9+6
])
def test_sfplutfp32_six_entry_tables(b, t1, t2):
    for mod1, expected in ((2, t1), (3, t2), (6, t1 | 0x80000000), (7, t2 | 0x80000000)):
        m = machine()
        for r, v in SIX.items():
            setreg(m, r, v)
        setreg(m, 3, b | 0x80000000)       # negative L3: |L3| = b; sign only with SGN_RETAIN
        ex(m, "SFPLUTFP32", vd=7, mod1=mod1)
        assert hex(reg(m, 7)[0]) == hex(expected if mod1 & 4 else expected & 0x7FFFFFFF), mod1


# b = 3.5, i = 2, L2 = 0x40000000, L6 = 0x3F800000:
#   FP32_3ENTRY: 2.0*3.5 + 1.0 = 8.0
#   FP16_3ENTRY: A = Lut16(0x4000) = 2.0, C = Lut16(0x0000) = 2**-15 -> 7 + 2**-15
#   TABLE1 (cut 3, j=16): A = Lut16(0x4000) = 2.0, C = Lut16(0x3F80) = 1.875 -> 8.875
#   TABLE2 (cut 4, j=0): A = C = Lut16(0x0000) = 2**-15 -> 4.5 * 2**-15
MODE_RESULT = {"fp32": 0x41000000, "fp16_3": 0x40E00040, "t1": 0x410E0000, "t2": 0x39100000}
MOD1_MODE = {0: "fp32", 1: "fp32", 2: "t1", 3: "t2", 4: "fp32", 5: "fp32", 6: "t1", 7: "t2",
             8: "fp32", 9: "fp32", 10: "fp16_3", 11: "fp16_3", 12: "fp32", 13: "fp32",
             14: "fp16_3", 15: "fp16_3"}


@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("mod1", range(16))
def test_sfplutfp32_mod1_decode(mod1, negative):
    m = machine()
    for r in (0, 1, 4, 5):
        setreg(m, r, SENTINEL)
    setreg(m, 2, 0x40000000)
    setreg(m, 6, 0x3F800000)
    setreg(m, 3, 0xC0600000 if negative else 0x40600000)
    setreg(m, 7, 5)
    ex(m, "SFPLUTFP32", vd=1, mod1=mod1)
    expected = MODE_RESULT[MOD1_MODE[mod1]] | (0x80000000 if negative and mod1 & 4 else 0)
    dest, other = (5, 1) if mod1 & 8 else (1, 5)
    assert hex(reg(m, dest)[0]) == hex(expected)
    assert reg(m, other) == [SENTINEL] * 32


def test_sfplutfp32_backdoor_and_disabled_lanes():
    m = machine()
    for r, v in FP32_TABLE.items():
        setreg(m, r, v)
    setreg(m, 3, HALF)
    setreg(m, 7, 2)
    before = m.state.lregs.copy()
    m.execute(encode("SFPLUTFP32", Arch.WORMHOLE, vd=14, mod1=10))
    assert np.array_equal(m.state.lregs, before)
    m = machine()
    for r, v in FP32_TABLE.items():
        setreg(m, r, v)
    setreg(m, 3, HALF)
    setreg(m, 7, SENTINEL)
    disable_lanes(m, ENABLED)
    ex(m, "SFPLUTFP32", vd=7, mod1=0)
    assert reg(m, 7) == [0x3F400000 if e else SENTINEL for e in ENABLED]


# ===========================================================================
# SFPSTOCHRND
# ===========================================================================

def stochrnd(m, mod1, vc=1, vd=2, vb=0, imm5=0, use_imm5=0, stochastic=0):
    ex(m, "SFPSTOCHRND", mod1=mod1, vc=vc, vd=vd, vb=vb, imm5=imm5, use_imm5=use_imm5, stochastic=stochastic)


# Round to nearest: PRNGBits = 0x400000 (ties away from zero).
NEAREST_CASES = [
    (1, 0x3F808000, 0x3F810000),    # FP16B: D = 0x8000 >= 0x400000 >> 7
    (1, 0x3F807FFF, 0x3F800000),
    (1, 0xBF808000, 0xBF810000),
    (1, 0x3FFF8000, 0x40000000),    # carry into the exponent
    (1, 0x7F7F8000, 0x7F800000),    # ... up to Inf
    (1, 0x807FFFFF, 0x00000000),    # exponent 0 -> +0
    (1, 0x7FC00001, 0x7F800000),    # exponent 255 -> Inf, NaN included
    (1, 0xFFFFFFFF, 0xFF800000),
    (0, 0x3F801000, 0x3F802000),    # FP16A: D = 0x1000 >= 0x400000 >> 10
    (0, 0x3F800FFF, 0x3F800000),
    (0, 0xC0001FFF, 0xC0002000),
    (2, 0x40200000, 3),             # UINT8: 2.5 -> 3 (away)
    (2, 0xC0200000, 3),             # abs
    (2, 0x43960000, 255),           # 300 clamps
    (2, 0x437F8000, 255),           # 255.5 rounds to 256, clamps
    (3, 0xC0200000, 0x80000003),    # INT8: -2.5 -> -3
    (3, 0xC3960000, 0x8000007F),
    (3, 0xBECCCCCD, 0x00000000),    # -0.4: |x| < 0.5, sign cleared
    (3, 0xBF000000, 0x80000001),    # -0.5: E = -1, rounds away
    (3, 0xFFC00000, 0x8000007F),    # -NaN: E >= 16
    (6, 0x477FFF80, 65535),         # UINT16: 65535.5 -> 65536 -> clamp
    (6, 0x4788B800, 65535),         # 70000: E = 16
    (6, 0x7F800000, 65535),
    (6, 0x3F800000, 1),
    (7, 0xC71C4000, 0x80007FFF),    # INT16: -40000 clamps with sign
    (7, 0x80000000, 0x00000000),
    (7, 0x42C90000, 0x00000065),    # 100.5 -> 101
]


@pytest.mark.parametrize("mod1, x, expected", NEAREST_CASES)
def test_stochrnd_round_nearest(mod1, x, expected):
    m = machine()
    setreg(m, 1, x)
    stochrnd(m, mod1)
    assert hex(reg(m, 2)[0]) == hex(expected)


# INT32 -> INT8/UINT8: (mod1, sign-magnitude c, shift, use_imm5, expected)
@pytest.mark.parametrize("mod1, c, shift, expected", [
    (5, 0x80000038, 4, 0x80000004),   # -56/16 = -3.5 -> -4
    (4, 0x80000038, 4, 4),            # sign dropped
    (5, 0x7FFFFFFF, 0, 127),
    (4, 0x7FFFFFFF, 0, 255),
    (5, 0x80000001, 4, 0),            # -1/16 -> 0, sign cleared
    (5, 0x80000018, 4, 0x80000002),   # -1.5 -> -2
    (4, 0x000000FF, 0, 255),
    (4, 0x00000100, 1, 128),
    (5, 0x00000007, 1, 4),            # 3.5 -> 4
    (5, 0x7FFFFFFF, 31, 1),           # M>>23 = 0, fraction 0x7FFFFF
])
@pytest.mark.parametrize("use_imm5", [1, 0])
def test_stochrnd_int_to_int(mod1, c, shift, expected, use_imm5):
    m = machine()
    setreg(m, 1, c)
    setreg(m, 3, 0xFFFFFFE0 | shift)             # VB & 31 = shift
    if use_imm5:
        stochrnd(m, mod1, vb=9, imm5=shift, use_imm5=1)   # VB = L9 (0) is ignored
    else:
        stochrnd(m, mod1, vb=3, imm5=(shift + 7) & 31, use_imm5=0)   # Imm5 ignored
    assert hex(reg(m, 2)[0]) == hex(expected)


def test_stochrnd_round_nearest_still_advances_prng():
    m = machine()
    m.state.prng[:] = 0x12345678
    setreg(m, 1, 0x3F808000)
    stochrnd(m, 1)
    assert reg(m, 2) == [0x3F810000] * 32
    assert [int(v) for v in m.state.prng] == [0x091A2B3C] * 32
    stochrnd(m, 6)
    assert [int(v) for v in m.state.prng] == [0x848D159E] * 32


# Stochastic: PRNGBits = old state & 0x7FFFFF. (mod1, x, prng state, expected)
STOCHASTIC_CASES = [
    (1, 0x3F8068AC, 0x12345678, 0x3F810000),   # D = 0x68AC >= 0x345678 >> 7 = 0x68AC
    (1, 0x3F8068AB, 0x12345678, 0x3F800000),
    (1, 0x3F800000, 0xFF800000, 0x3F810000),   # PRNGBits 0: an exact value rounds up
    (0, 0x3F800D15, 0x12345678, 0x3F802000),   # 0x345678 >> 10 = 0xD15
    (0, 0x3F800D14, 0x12345678, 0x3F800000),
    (6, 0x40200000, 0x00400001, 2),            # fraction 0x400000 < 0x400001
    (6, 0x40200000, 0x80400000, 3),
    (6, 0x3E800000, 0x00000000, 0),            # |x| < 0.5 is always 0
    (6, 0x3EFFFFFF, 0x00000000, 0),
    (6, 0x3F000000, 0x003FFFFF, 1),            # 0.5: fraction 0x400000 >= 0x3FFFFF
    (7, 0xBFE00000, 0x00600000, 0x80000002),   # -1.75: fraction 0x600000 >= 0x600000
    (7, 0xBFE00000, 0x00600001, 0x80000001),
    (3, 0x42FE0000, 0x7FFFFFFF, 127),          # 127.0 exactly, fraction 0 < 0x7FFFFF
    (2, 0x437F0000, 0x00000000, 255),          # 255.0 rounds up to 256 with PRNGBits 0, clamps
]


@pytest.mark.parametrize("mod1, x, prng, expected", STOCHASTIC_CASES)
def test_stochrnd_stochastic(mod1, x, prng, expected):
    m = machine()
    m.state.prng[:] = prng
    setreg(m, 1, x)
    stochrnd(m, mod1, stochastic=1)
    assert hex(reg(m, 2)[0]) == hex(expected)
    assert int(m.state.prng[0]) == ref_prng_step(prng)


def test_stochrnd_stochastic_per_lane_prng():
    m = machine()
    states = [0x12345678 if l % 2 else 0x00400001 for l in range(32)]
    m.state.prng[:] = states
    setreg(m, 1, [0x3F8068AC if l % 2 else 0x40200000 for l in range(32)])
    # Odd lanes: BF16 of 0x3F8068AC with PRNGBits 0x345678 -> up.
    # Even lanes: the same instruction, x = 2.5, D = 0 < 0x400001 >> 7 -> 2.5 unchanged.
    stochrnd(m, 1, stochastic=1)
    assert reg(m, 2) == [0x3F810000 if l % 2 else 0x40200000 for l in range(32)]
    assert [int(v) for v in m.state.prng] == [ref_prng_step(s) for s in states]


def test_stochrnd_stochastic_int_to_int():
    m = machine()
    setreg(m, 1, 0x80000038)
    m.state.prng[:] = 0x12345678            # fraction 0x400000 >= 0x345678 -> -4
    stochrnd(m, 5, imm5=4, use_imm5=1, stochastic=1)
    assert reg(m, 2) == [0x80000004] * 32
    m.state.prng[:] = 0x00400001            # fraction 0x400000 < 0x400001 -> -3
    stochrnd(m, 5, imm5=4, use_imm5=1, stochastic=1)
    assert reg(m, 2) == [0x80000003] * 32


def test_stochrnd_disabled_lanes_neither_write_nor_advance():
    m = machine()
    m.state.prng[:] = 0x12345678
    setreg(m, 1, 0x3F808000)
    setreg(m, 2, SENTINEL)
    disable_lanes(m, ENABLED)
    stochrnd(m, 1)
    assert reg(m, 2) == [0x3F810000 if e else SENTINEL for e in ENABLED]
    assert [int(v) for v in m.state.prng] == [0x091A2B3C if e else 0x12345678 for e in ENABLED]


@pytest.mark.parametrize("vd", [8, 9, 10, 11])
def test_stochrnd_vd_8_to_11_advances_without_writing(vd):
    m = machine()
    m.state.prng[:] = 0x12345678
    before = m.state.lregs.copy()
    stochrnd(m, 1, vc=10, vd=vd)
    assert np.array_equal(m.state.lregs, before)
    assert [int(v) for v in m.state.prng] == [0x091A2B3C] * 32


def test_stochrnd_backdoor_does_not_advance():
    m = machine()
    m.state.prng[:] = 0x12345678
    word = encode("SFPSTOCHRND", Arch.WORMHOLE, mod1=1, vc=10, vd=12)
    m.execute(word)
    assert [int(v) for v in m.state.prng] == [0x12345678] * 32
    assert [int(v) for v in m.state.macro_templates[0]] == [word] * 32


def corsix_seed(seed: int) -> list[int]:
    """docs/decisions.md (corsix): step 32 times, then lanes 31..0 each get two more steps."""
    s = seed
    for _ in range(32):
        s = ref_prng_step(s)
    out = [0] * 32
    for lane in range(31, -1, -1):
        s = ref_prng_step(ref_prng_step(s))
        out[lane] = s
    return out


@pytest.mark.parametrize("seed", [0, 1, 0x12345678, 0xFFFFFFFF])
def test_prng_seed_directive(seed):
    res = run(f".prng_seed {seed:#x}")
    assert [int(v) for v in res.state.prng] == corsix_seed(seed)


def test_prng_seed_then_stochastic_rounding():
    seeded = corsix_seed(0xACE1)
    res = run("""
        .prng_seed 0xACE1
        .lreg 1 0x3F800000
        sfpstochrnd vd=2 vc=1 mod1=1 stochastic=1
    """)
    # x = 1.0 has D = 0: it rounds up only where PRNGBits >> 7 == 0.
    expected = [0x3F810000 if ((s & 0x7FFFFF) >> 7) == 0 else 0x3F800000 for s in seeded]
    assert [int(v) for v in res.state.lregs[2]] == expected
    assert [int(v) for v in res.state.prng] == [ref_prng_step(s) for s in seeded]
    assert seeded != [0] * 32
