"""Blackhole A0's MAD-class instructions: SFPMAD/SFPADD/SFPMUL with NEGATE_VB
and NEGATE_VC, SFPADDI/SFPMULI with NEGATE_VC, SFPLUT and SFPLUTFP32 (whose
Mod1Mirror only informs the stall logic), all through the Blackhole FMA (`model.fma.fma_bh`).

Expected values are exact results worked out by hand from the BlackholeA0
SFPMAD.md / SFPADDI.md / SFPMULI.md / SFPLUTFP32.md functional models (small
integers and powers of two, where any correct FMA gives the same bits), plus
the page's statements on negative zero and the canonical NaN.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from tensix_sfpu.model.isa import Arch, encode
from tensix_sfpu.model.machine import Machine
from tensix_sfpu.model.state import SfpuState

BH, WH = Arch.BLACKHOLE, Arch.WORMHOLE
LANES = 32
U32 = np.uint32


def bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def machine(arch: Arch = BH) -> Machine:
    return Machine(SfpuState(arch=arch), strict=True)


def setreg(m: Machine, r: int, values) -> None:
    m.state.lregs[r] = np.broadcast_to(np.asarray(values, dtype=np.int64) & 0xFFFFFFFF, (LANES,)).astype(U32)


def reg(m: Machine, r: int) -> list[int]:
    return [int(v) for v in m.state.lregs[r]]


def run(m: Machine, mnemonic: str, **fields) -> None:
    m.execute(encode(mnemonic, m.state.arch, **fields))


# VA = 2, VB = 3, VC = 1: (Mod1, d = ±(2 * 3) ± 1)
NEGATE_CASES = [(0, 7.0), (1, -5.0), (2, 5.0), (3, -7.0)]


@pytest.mark.parametrize("mnemonic", ["SFPMAD", "SFPADD", "SFPMUL"])
@pytest.mark.parametrize("mod1,result", NEGATE_CASES)
def test_negate_vb_and_vc(mnemonic, mod1, result):
    m = machine()
    setreg(m, 1, bits(2.0))
    setreg(m, 2, bits(3.0))
    setreg(m, 3, bits(1.0))
    run(m, mnemonic, vd=0, va=1, vb=2, vc=3, mod1=mod1)
    assert reg(m, 0) == [bits(result)] * LANES


def test_negate_bits_mean_nothing_on_wormhole():
    # Wormhole's SFPMAD has no NEGATE modifiers: Mod1 = 3 computes 2 * 3 + 1.
    m = machine(WH)
    setreg(m, 1, bits(2.0))
    setreg(m, 2, bits(3.0))
    setreg(m, 3, bits(1.0))
    m.execute(encode("SFPMAD", WH, vd=0, va=1, vb=2, vc=3, mod1=3))
    assert reg(m, 0) == [bits(7.0)] * LANES


def test_negate_with_indirect_va_and_vd():
    # Mod1 = 4 | 8 | 1: VA from L[L7 & 15] (L1 = 2.0), result to L[L7 & 15]... L7
    # names L1 in every lane, so L1 = -(2 * 3) + 1 = -5.
    m = machine()
    setreg(m, 7, 1)
    setreg(m, 1, bits(2.0))
    setreg(m, 2, bits(3.0))
    setreg(m, 3, bits(1.0))
    run(m, "SFPMAD", vd=0, va=5, vb=2, vc=3, mod1=13)
    assert reg(m, 1) == [bits(-5.0)] * LANES
    assert reg(m, 0) == [0] * LANES


def test_sfpmul_keeps_negative_zero_with_negate_vc():
    # The page: use SFPMUL with VC = L9 (+0) and NEGATE_VC to keep -0, since -0
    # is the identity of addition: -2 * +0 = -0, -0 + -0 = -0. Without
    # NEGATE_VC, -0 + +0 = +0.
    m = machine()
    setreg(m, 1, bits(-2.0))
    setreg(m, 2, 0)
    run(m, "SFPMUL", vd=0, va=1, vb=2, vc=9, mod1=2)
    run(m, "SFPMUL", vd=3, va=1, vb=2, vc=9, mod1=0)
    assert reg(m, 0) == [0x80000000] * LANES
    assert reg(m, 3) == [0x00000000] * LANES


def test_nan_results_are_canonical():
    # The page: a NaN result is always 0x7FC00000. Inf * 0 is NaN.
    m = machine()
    setreg(m, 1, 0xFF800000)
    setreg(m, 2, bits(1.5))
    run(m, "SFPMAD", vd=0, va=1, vb=9, vc=2)
    assert reg(m, 0) == [0x7FC00000] * LANES


def test_sfpaddi_and_sfpmuli_negate_vc():
    m = machine()
    setreg(m, 1, bits(3.0))
    run(m, "SFPADDI", vd=1, imm16=0x3F80, mod1=2)               # 1.0 + -(3.0) = -2.0
    assert reg(m, 1) == [bits(-2.0)] * LANES
    setreg(m, 2, bits(3.0))
    run(m, "SFPMULI", vd=2, imm16=0x4000, mod1=2)               # 2.0 * -(3.0) + 0 = -6.0
    assert reg(m, 2) == [bits(-6.0)] * LANES
    setreg(m, 3, bits(3.0))
    run(m, "SFPADDI", vd=3, imm16=0x3F80, mod1=0)               # 1.0 + 3.0
    assert reg(m, 3) == [bits(4.0)] * LANES


def test_sfplutfp32_result_ignores_mod1_mirror():
    # FP32_3ENTRY (Mod1 0), |L3| = 0.5 < 1.0: VD = L0 * 0.5 + L4 = 2 * 0.5 + 1 = 2.0,
    # whatever Mod1Mirror says (it only informs the stall logic).
    for mirror in (0, 8, 15):
        m = machine()
        setreg(m, 0, bits(2.0))
        setreg(m, 4, bits(1.0))
        setreg(m, 3, bits(-0.5))
        run(m, "SFPLUTFP32", vd=6, mod1=0, mod1_mirror=mirror)
        assert reg(m, 6) == [bits(2.0)] * LANES
    # SGN_RETAIN (4): the sign of L3 replaces the result's: -2.0.
    m = machine()
    setreg(m, 0, bits(2.0))
    setreg(m, 4, bits(1.0))
    setreg(m, 3, bits(-0.5))
    run(m, "SFPLUTFP32", vd=6, mod1=4)
    assert reg(m, 6) == [bits(-2.0)] * LANES


def test_sfplut_on_blackhole():
    # SFPLUT, |L3| = 1.5 (1.0 <= |L3| < 2.0) selects L1: bits 15:8 are the FP8
    # multiplier, bits 7:0 the addend (SFPLUT.md, Lut8ToFp32: sign, 3-bit
    # exponent 127 - Exp, 4-bit mantissa). 0x10 -> 2^-1 = 0.5, 0x20 -> 2^-2 =
    # 0.25: 0.5 * 1.5 + 0.25 = 1.0; with SGN_RETAIN and L3 = -1.5, -1.0.
    m = machine()
    setreg(m, 3, bits(1.5))
    setreg(m, 1, 0x1020)
    run(m, "SFPLUT", vd=5, mod0=0)
    assert reg(m, 5) == [bits(1.0)] * LANES
    setreg(m, 3, bits(-1.5))
    run(m, "SFPLUT", vd=5, mod0=4)
    assert reg(m, 5) == [bits(-1.0)] * LANES
