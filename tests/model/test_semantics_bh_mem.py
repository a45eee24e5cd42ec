"""Blackhole A0 SFPLOAD / SFPSTORE: the changed formats, the SFPU stack
pointer of MOD0_FMT_INT32_ALL, and Dst's row remaps.

Expected values are worked out by hand from tt-isa-documentation's
BlackholeA0/TensixTile/TensixCoprocessor/SFPLOAD.md, SFPSTORE.md and Dst.md
(the Wormhole side from the WormholeB0 pages); the working is in the comments.
"""

from __future__ import annotations

import numpy as np
import pytest

from tensix_sfpu.model.asm import AsmError, assemble
from tensix_sfpu.model.isa import Arch, encode
from tensix_sfpu.model.machine import Machine
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState

BH, WH = Arch.BLACKHOLE, Arch.WORMHOLE
LANES = 32
LANE = np.arange(LANES)
U32 = np.uint32

SRCB, FP16, BF16, FP32, INT32, INT8, UINT16, HI16, INT16, LO16, INT32_ALL, ZERO, INT32_SM, INT8_COMP, \
    LO16_ONLY, HI16_ONLY = range(16)


def machine(arch: Arch = BH) -> Machine:
    return Machine(SfpuState(arch=arch), strict=True)


def ex(m: Machine, mnemonic: str, **fields):
    return m.execute(encode(mnemonic, m.state.arch, **fields))


def setreg(m: Machine, r: int, values) -> None:
    m.state.lregs[r] = np.broadcast_to(np.asarray(values, dtype=np.int64) & 0xFFFFFFFF, (LANES,)).astype(U32)


def reg(m: Machine, r: int) -> list[int]:
    return [int(v) for v in m.state.lregs[r]]


def phys32(r: int) -> tuple[int, int]:
    """Dst.md without remaps: Dst32b[r] lives in DstBits rows A and A + 8, A = ((r & 0x1f8) << 1) | (r & 0x207)."""
    a = ((r & 0x1F8) << 1) | (r & 0x207)
    return a, a + 8


def shuffle32(x: int) -> int:
    """FP32Shuffle (SFPSTORE.md): Sign,Exp,Man -> Sign,ManHi(7),Exp(8),ManLo(16)."""
    hi = x >> 16
    hi = (hi & 0x8000) | ((hi & 0x7F) << 8) | ((hi & 0x7F80) >> 7)
    return (hi << 16) | (x & 0xFFFF)


def put32(m: Machine, r: int, c: int, value: int) -> None:
    a, b = phys32(r)
    m.state.dst[a, c], m.state.dst[b, c] = value >> 16, value & 0xFFFF


def get32(m: Machine, r: int, c: int) -> int:
    a, b = phys32(r)
    return (int(m.state.dst[a, c]) << 16) | int(m.state.dst[b, c])


# ---------------------------------------------------------------------------
# Formats
# ---------------------------------------------------------------------------

# (Mod0, Dst16b datum at row 0 column 0, Wormhole LReg, Blackhole LReg)
LOAD16 = [
    # INT8: Sign,Ignored(2 on BH / 3 on WH),Mag,Ignored(5). Mag 0xFF at bits 12:5:
    # Blackhole reads 8 bits (255), Wormhole 7 (0x7F).
    (INT8, 0x8000 | (0xFF << 5), 0x8000007F, 0x800000FF),
    (INT8, 0xC8 << 5, 0x48, 0xC8),                         # 200 on Blackhole, 200 & 0x7F = 72 on Wormhole
    # INT8_COMP: 10-bit magnitude; Wormhole converts sign-magnitude -5 to two's complement.
    (INT8_COMP, 0x8000 | (5 << 5), 0xFFFFFFFB, 0x80000005),
    (INT8_COMP, 5 << 5, 5, 5),
]


@pytest.mark.parametrize("mod0,raw,wh_value,bh_value", LOAD16)
def test_load_16_bit_formats(mod0, raw, wh_value, bh_value):
    for arch, expect in ((WH, wh_value), (BH, bh_value)):
        m = machine(arch)
        m.state.dst[0, 0] = raw
        ex(m, "SFPLOAD", vd=1, mod0=mod0, imm10=0)
        assert reg(m, 1)[0] == expect, arch


def test_load_int32_sm_is_plain_on_blackhole():
    # Dst32b[0][0] holds sign-magnitude -5 (integers are not shuffled by
    # UnshuffleFP32 beyond the top half: 0x80000005 -> shuffle -> load -> 0x80000005).
    for arch, expect in ((WH, 0xFFFFFFFB), (BH, 0x80000005)):
        m = machine(arch)
        put32(m, 0, 0, shuffle32(0x80000005))
        ex(m, "SFPLOAD", vd=1, mod0=INT32_SM, imm10=0)
        assert reg(m, 1)[0] == expect, arch


# (Mod0, LReg value, Wormhole Dst datum, Blackhole Dst datum); 32-bit modes give the Dst32b datum.
STORES = [
    # FP32: Blackhole flushes denormals to signed zero (ToFP32); INT32 never does.
    (FP32, 0x00000123, shuffle32(0x00000123), shuffle32(0x00000000)),
    (FP32, 0x80400000, shuffle32(0x80400000), shuffle32(0x80000000)),
    (FP32, 0x3F800001, shuffle32(0x3F800001), shuffle32(0x3F800001)),
    (INT32, 0x00000123, shuffle32(0x00000123), shuffle32(0x00000123)),
    # INT32_SM: Wormhole converts two's complement -5 to sign-magnitude 0x80000005; Blackhole stores the bits.
    (INT32_SM, 0xFFFFFFFB, shuffle32(0x80000005), shuffle32(0xFFFFFFFB)),
    # INT8_COMP: SignMag11ToFP16 then FP16Shuffle = Sign | Man << 5 | Exp >> 10 with Exp = 16 << 10.
    # Blackhole: sign-magnitude -5 -> 0x8000 | 5 << 5 | 16 = 0x80B0. Wormhole first takes
    # ToSignMag(0x80000005) = 0xFFFFFFFB, magnitude bits 0x3FB -> 0x8000 | 0x7F60 | 16 = 0xFF70.
    (INT8_COMP, 0x80000005, 0xFF70, 0x80B0),
    # INT8 is unchanged: 10-bit magnitude 0xFF -> 0x8000 | 0x1FE0 | 0x10.
    (INT8, 0x800000FF, 0x9FF0, 0x9FF0),
]


@pytest.mark.parametrize("mod0,value,wh_datum,bh_datum", STORES)
def test_store_formats(mod0, value, wh_datum, bh_datum):
    for arch, expect in ((WH, wh_datum), (BH, bh_datum)):
        m = machine(arch)
        setreg(m, 1, value)
        ex(m, "SFPSTORE", vd=1, mod0=mod0, imm10=0)
        got = get32(m, 0, 0) if mod0 in (FP32, INT32, INT32_SM) else int(m.state.dst[0, 0])
        assert got == expect, arch


def test_store_srcb_resolving_to_fp32_flushes_too():
    # MOD0_FMT_SRCB with Fp32_enabled resolves to FP32, which now flushes.
    m = machine()
    m.state.tensix.fp32_dest = True
    setreg(m, 1, 0x80000001)
    ex(m, "SFPSTORE", vd=1, mod0=SRCB, imm10=0)
    assert get32(m, 0, 0) == shuffle32(0x80000000)


def test_int8_round_trip_keeps_255_on_blackhole():
    m = machine()
    setreg(m, 1, [0x800000FF if i & 1 else 0xC8 for i in range(LANES)])
    ex(m, "SFPSTORE", vd=1, mod0=INT8, imm10=0)
    ex(m, "SFPLOAD", vd=2, mod0=INT8, imm10=0)
    assert reg(m, 2) == reg(m, 1)


# ---------------------------------------------------------------------------
# Addressing: the stack pointer
# ---------------------------------------------------------------------------

def test_non_int32_all_adds_the_low_bits_of_sp():
    # Addr = Imm10 + DstOffset + ((Sp + DEST_SP_BASE) & 3) = 8 + 4 + 2 = 14:
    # rows 12-15, odd columns (bit 1 set). Wormhole ignores Sp: Addr 12, even columns.
    for arch, col0 in ((WH, 0), (BH, 1)):
        m = machine(arch)
        m.state.dst[:] = (np.arange(1024)[:, None] * 16 + np.arange(16)[None, :]).astype(np.uint16)
        m.state.tensix.rwc_dst = 4
        m.state.tensix.rwc_sp = 2
        ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=8)
        assert reg(m, 1) == [(12 + i // 8) * 16 + (i & 7) * 2 + col0 for i in range(LANES)], arch
        assert m.state.tensix.rwc_sp == 2                       # not moved


def test_int32_all_load_pre_decrements_sp():
    # Sp = 8, SFPU_STACK_Incr = 4, DEST_SP_BASE = 16, RWC Dst = 5: Sp != 0 so
    # Sp = 4 first; Addr = 0 + (4 + 16) + (5 & 3) = 21: rows 20-23, even
    # columns (bit 1 of 21 is 0); every lane, enabled or not.
    m = machine()
    t = m.state.tensix
    t.rwc_sp, t.sfpu_stack_incr, t.dest_sp_base, t.rwc_dst = 8, 4, 16, 5
    for r in range(20, 24):
        for c in range(16):
            put32(m, r, c, (r << 8) | c)
    m.state.use_flags[:] = True                                 # every lane disabled
    ex(m, "SFPLOAD", vd=1, mod0=INT32_ALL, imm10=0)
    assert reg(m, 1) == [((20 + i // 8) << 8) | ((i & 7) * 2) for i in range(LANES)]
    assert t.rwc_sp == 4


def test_int32_all_load_with_sp_zero_does_not_move_it():
    m = machine()
    t = m.state.tensix
    t.sfpu_stack_incr, t.dest_sp_base = 4, 8                    # Addr = 0 + 8 + 0
    put32(m, 8, 0, 0x1234)
    ex(m, "SFPLOAD", vd=1, mod0=INT32_ALL, imm10=0)
    assert reg(m, 1)[0] == 0x1234 and t.rwc_sp == 0


def test_int32_all_store_post_increments_and_the_stack_round_trips():
    # Two stores push (Sp 0 -> 4 -> 8), two loads pop in reverse (8 -> 4 -> 0).
    m = machine()
    m.state.tensix.sfpu_stack_incr = 4
    setreg(m, 1, 111 + LANE)
    setreg(m, 2, 222 + LANE)
    ex(m, "SFPSTORE", vd=1, mod0=INT32_ALL, imm10=0)            # at Addr 0, then Sp = 4
    assert m.state.tensix.rwc_sp == 4
    ex(m, "SFPSTORE", vd=2, mod0=INT32_ALL, imm10=0)            # at Addr 4, then Sp = 8
    assert m.state.tensix.rwc_sp == 8
    assert get32(m, 0, 0) == 111 and get32(m, 4, 0) == 222 and get32(m, 5, 2) == 222 + 9
    ex(m, "SFPLOAD", vd=3, mod0=INT32_ALL, imm10=0)             # Sp = 4, Addr 4
    ex(m, "SFPLOAD", vd=4, mod0=INT32_ALL, imm10=0)             # Sp = 0, Addr 0
    assert reg(m, 3) == reg(m, 2) and reg(m, 4) == reg(m, 1)
    assert m.state.tensix.rwc_sp == 0


def test_int32_all_on_wormhole_is_unchanged():
    # Wormhole: Addr = Imm10 + ((RWC Dst + base) & 3); no stack pointer.
    m = machine(WH)
    m.state.tensix.rwc_dst = 6                                  # & 3 = 2: odd columns
    m.state.tensix.sfpu_stack_incr = 4                          # not a Wormhole register: ignored
    setreg(m, 1, 7)
    ex(m, "SFPSTORE", vd=1, mod0=INT32_ALL, imm10=16)
    assert get32(m, 16, 1) == 7 and m.state.tensix.rwc_sp == 0


def test_directives_set_the_stack_registers():
    program = assemble(".arch blackhole\n.rwc_sp 8\n.sfpu_stack_incr 4\n.dest_sp_base 16\n"
                       "sfpload vd=1 mod0=10 imm10=0\n")
    state = SfpuState(arch=BH)
    put32_m = Machine(state)
    put32(put32_m, 20, 0, 0xABCD)                               # Sp 8 - 4 = 4, + 16 = 20
    result = run_program(program, state=state)
    assert int(result.state.lregs[1][0]) == 0xABCD
    assert result.state.tensix.rwc_sp == 4
    with pytest.raises(AsmError, match="Blackhole"):
        assemble(".sfpu_stack_incr 4\n")


# ---------------------------------------------------------------------------
# Dst row remaps (Dst.md: Adj16, Adj32)
# ---------------------------------------------------------------------------

def ref_adj16(r: int, remap: bool) -> int:
    if remap:
        r = (r & 0x3C7) ^ ((r & 0x030) >> 1) ^ ((r & 0x008) << 2)
    return r


def ref_adj32(r: int, remap: bool, swizzle: bool) -> int:
    r = ref_adj16(r, remap)
    if swizzle:
        r = (r & 0x3F3) ^ ((r & 0x018) >> 1) ^ ((r & 0x004) << 1)
    return ((r & 0x1F8) << 1) | (r & 0x207)


def test_reference_remaps_by_hand():
    # remap_addrs: bits 5:4 move down one place, bit 3 moves to bit 5.
    assert [ref_adj16(r, True) for r in (16, 17, 8, 32, 4)] == [8, 9, 32, 16, 4]
    # swizzle_32b: bits 4:3 move down one place, bit 2 moves to bit 3; then the Dst32b split.
    assert ref_adj32(4, False, True) == 16 and ref_adj32(4, False, False) == 4
    assert ref_adj32(8, False, True) == 4


def test_remap_addrs_on_16_bit_loads_and_stores():
    m = machine()
    m.state.tensix.dest_remap_addrs = True
    m.state.dst[:] = (np.arange(1024)[:, None] * 16 + np.arange(16)[None, :]).astype(np.uint16)
    ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=16)               # rows 16-19 -> DstBits 8-11
    assert reg(m, 1) == [ref_adj16(16 + i // 8, True) * 16 + (i & 7) * 2 for i in range(LANES)]
    setreg(m, 2, 0xBEEF)
    ex(m, "SFPSTORE", vd=2, mod0=UINT16, imm10=8)               # rows 8-11 -> DstBits 32, 33, 34, 35
    assert [int(m.state.dst[r, 0]) for r in (32, 33, 34, 35)] == [0xBEEF] * 4
    assert int(m.state.dst[8, 0]) == 8 * 16


@pytest.mark.parametrize("remap,swizzle", [(False, True), (True, False), (True, True)])
def test_remaps_on_32_bit_loads(remap, swizzle):
    m = machine()
    m.state.tensix.dest_remap_addrs = remap
    m.state.tensix.dest_swizzle_32b = swizzle
    m.state.dst[:] = (np.arange(1024)[:, None] * 16 + np.arange(16)[None, :]).astype(np.uint16)
    ex(m, "SFPLOAD", vd=1, mod0=INT32, imm10=4)                 # Dst32b rows 4-7
    expect = []
    for i in range(LANES):
        a = ref_adj32(4 + i // 8, remap, swizzle)
        c = (i & 7) * 2
        hi, lo = a * 16 + c, (a + 8) * 16 + c
        hi = (hi & 0x8000) | ((hi & 0xFF) << 7) | ((hi >> 8) & 0x7F)   # UnshuffleBF16 of the high half
        expect.append((hi << 16) | lo)
    assert reg(m, 1) == expect


def test_remap_flags_mean_nothing_on_wormhole():
    m = machine(WH)
    m.state.tensix.dest_remap_addrs = True
    m.state.dst[16, 0] = 0x77
    ex(m, "SFPLOAD", vd=1, mod0=UINT16, imm10=16)
    assert reg(m, 1)[0] == 0x77
