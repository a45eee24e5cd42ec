"""Blackhole A0 timing: the interlocks, their documented gaps, and SFPLOADMACRO.

Every expected cycle below is reasoned from the BlackholeA0 pages
(tt-isa-documentation), never taken from a run of the model:

- SFPMAD.md "Instruction scheduling" (to which SFPADD, SFPMUL, SFPADDI,
  SFPMULI, SFPLUT, SFPLUTFP32 and SFPMUL24 refer): a MAD-class result is
  written at the end of T+1; if the thread presents at T+1 an instruction that
  reads it (as the stall logic sees reads), the thread stalls one cycle, so the
  reader is accepted at T+2 and sees the result. The page lists the reads the
  stall logic misses (the gaps); a program that relies on them is a hazard.
- SFPLUTFP32.md: the stall logic reads INDIRECT_VD from Mod1Mirror.
- SFPSTOCHRND_*.md: the stall logic believes SFPSTOCHRND reads VB (a false
  dependency: a stall with nothing to wait for).
- SFPSHFT2.md: after modes 2-4 only SFPNOP is accepted (the thread stalls a
  cycle otherwise); after a macro's, the next cycle must be idle.
- SFPSWAP.md: the interlock as on Wormhole; the compare reads VC and VD in the
  first cycle, the swap in the second.
- SFPLOADMACRO.md: none of the stalls applies inside sequences; 3-bit AddrMod;
  SFPARECIP, SFPGT, SFPLE (Simple) and SFPMUL24 (MAD) are macro-eligible.

The same programs on Wormhole (SFPMAD.md there: "software must ensure") give
hazards instead of stalls. Cycle count conventions (model/run.py): `cycles`
runs until the last result is written, `issue_cycles` until the last
instruction is accepted.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import AsmError, assemble
from tensix_sfpu.model.hazards import GAP_RULES, RULES, HazardError, stall_reads, stall_writes
from tensix_sfpu.model.isa import Arch, decode
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.tb.cli import timeline
from tensix_sfpu.model.dst_io import get_bits32, put_bits32

LANES = 32
U32 = np.uint32
BH_HEADER = ".arch blackhole\n"
INT32 = 4


def fp(x: float) -> int:
    return int(np.float32(x).view(U32))


# Initial registers: L0-L2 sources, L3 the MAD destination's old value, L7 an
# index for the indirect modes.
OLD_L3 = fp(7.0)
REGS = (f".lreg 0 {fp(0.375):#x}\n.lreg 1 {fp(1.5):#x}\n.lreg 2 {fp(-2.25):#x}\n"
        f".lreg 3 {OLD_L3:#x}\n.lreg 4 {fp(3.0):#x}\n.lreg 7 5\n")
MAD_L3 = "sfpmad vd=3 va=1 vb=2 vc=0"


def bh(text: str, state: SfpuState | None = None, strict: bool = True, allow=frozenset()):
    return run_program(assemble(BH_HEADER + text), state, strict=strict, allow=set(allow))


def wh(text: str, state: SfpuState | None = None, strict: bool = True, allow=frozenset()):
    return run_program(assemble(text), state, strict=strict, allow=set(allow))


def word(text: str, arch: Arch = Arch.BLACKHOLE) -> int:
    return assemble(text, arch=arch).words[0]


def stalls(result) -> list[int]:
    return [r.cycle for r in result.trace if r.stalled is not None]


def issued(result) -> dict[int, str]:
    return {c: item.text.split()[0] for c, item in sorted(result.issued_from.items())}


def hazards(result) -> list[tuple[str, int]]:
    return [(h.rule, h.cycle) for h in result.hazards]


# ---------------------------------------------------------------------------
# 1. The stall after a MAD-class instruction
# ---------------------------------------------------------------------------

PRODUCERS = ["sfpmad vd=3 va=1 vb=2 vc=0", "sfpadd vd=3 va=10 vb=2 vc=0", "sfpmul vd=3 va=1 vb=2 vc=9",
             "sfpaddi vd=3 imm16=0x4040", "sfpmuli vd=3 imm16=0x4040", "sfplut vd=3 mod0=0",
             "sfplutfp32 vd=3 mod1=0", "sfpmul24 vd=3 va=1 vb=2 vc=9 mod1=0"]


@pytest.mark.parametrize("producer", PRODUCERS)
def test_mad_class_then_dependent_read_stalls_one_cycle(producer):
    # T=0 the producer; T+1=1 SFPMOV reads L3, which lands only at the end of
    # cycle 1: the thread stalls; cycle 2 SFPMOV is accepted and sees the
    # result. 3 cycles, no hazard.
    text = REGS + f"{producer}\nsfpmov vd=6 vc=3\n"
    mov = word("sfpmov vd=6 vc=3")
    result = bh(text)
    rec = result.trace[1]
    assert (rec.issued, rec.stalled, rec.units) == (None, mov, {})
    mnemonic = producer.split()[0].upper()
    assert rec.stall_reason == f"SFPMOV reads L3, written by {mnemonic} in flight"
    assert result.trace[2].issued == mov
    assert issued(result) == {0: producer.split()[0], 2: "sfpmov"}
    assert (result.cycles, result.issue_cycles, result.instructions) == (3, 3, 2)
    assert 3 in {w.reg for w in result.trace[1].lreg_writes}        # landed at the end of T+1
    assert not (result.state.lregs[3] == OLD_L3).all()
    np.testing.assert_array_equal(result.state.lregs[6], result.state.lregs[3])
    assert not result.hazards


@pytest.mark.parametrize("producer", ["sfpmad vd=3 va=1 vb=2 vc=0", "sfpmuli vd=3 imm16=0x4040"])
def test_the_same_program_on_wormhole_is_a_hazard(producer):
    text = REGS + f"{producer}\nsfpmov vd=6 vc=3\n"
    with pytest.raises(HazardError) as err:
        wh(text)
    assert (err.value.hazard.rule, err.value.hazard.cycle) == ("read-in-flight", 1)
    # Lenient: no stall, two cycles, and SFPMOV saw the old L3.
    result = wh(text, strict=False)
    assert stalls(result) == [] and result.cycles == 2
    assert (result.state.lregs[6] == OLD_L3).all()


def test_sfpmad_then_dependent_sfpadd():
    # The brief's example. Blackhole: SFPMAD 0, stall 1, SFPADD 2 (lands at
    # the end of 3): 4 cycles. Wormhole: a hazard at cycle 1.
    text = REGS + f"{MAD_L3}\nsfpadd vd=4 va=10 vb=3 vc=9\n"
    result = bh(text)
    assert stalls(result) == [1] and issued(result) == {0: "sfpmad", 2: "sfpadd"}
    assert (result.cycles, result.issue_cycles) == (4, 3)
    assert result.trace[1].stall_reason == "SFPADD reads L3, written by SFPMAD in flight"
    with pytest.raises(HazardError) as err:
        wh(text)
    assert (err.value.hazard.rule, err.value.hazard.cycle) == ("read-in-flight", 1)


def test_sfpnop_after_sfpmad_costs_the_same_as_the_stall():
    # Wormhole's fix (an SFPNOP) is still correct on Blackhole: no stall, since
    # SFPNOP reads nothing, and the SFPADD at 2 is where the stall put it.
    text = REGS + f"{MAD_L3}\nsfpnop\nsfpadd vd=4 va=10 vb=3 vc=9\n"
    for result in (bh(text), wh(text)):
        assert stalls(result) == [] and not result.hazards
        assert (result.cycles, result.issue_cycles) == (4, 3)


def test_a_chain_of_dependent_mads_stalls_once_per_link():
    # Each SFPMAD reads the previous one's result: accepted at 0, 2, 4; stalls
    # at 1 and 3; the last lands at the end of 5.
    text = REGS + f"{MAD_L3}\nsfpmad vd=4 va=3 vb=1 vc=0\nsfpmad vd=5 va=4 vb=1 vc=0\n"
    result = bh(text)
    assert stalls(result) == [1, 3]
    assert sorted(issued(result)) == [0, 2, 4]
    assert result.cycles == 6 and not result.hazards


def test_no_stall_for_an_unrelated_read():
    # SFPMOV reads L1, which SFPMAD does not write: accepted at 1, 2 cycles.
    result = bh(REGS + f"{MAD_L3}\nsfpmov vd=6 vc=1\n")
    assert stalls(result) == [] and result.cycles == 2 and not result.hazards


def test_a_write_of_the_register_in_flight_does_not_stall():
    # The stall logic looks at reads only; SFPLOADI writes L3 without reading
    # it, so both writes land at the end of cycle 1 (write-conflict, as on
    # Wormhole; the younger SFPLOADI's value is kept).
    result = bh(REGS + f"{MAD_L3}\nsfploadi vd=3 mod0=2 imm16=9\n", strict=False)
    assert stalls(result) == []
    assert hazards(result) == [("write-conflict", 1)]
    assert (result.state.lregs[3] == 9).all()


def test_indirect_vd_stalls_any_reader():
    # INDIRECT_VD: the stall logic assumes every LReg is written (SFPMAD.md);
    # SFPMOV reads L1, which the MAD does not really write (it writes L[L7] = L5).
    result = bh(REGS + "sfpmad vd=3 va=1 vb=2 vc=0 mod1=8\nsfpmov vd=6 vc=1\n")
    assert stalls(result) == [1] and result.cycles == 3 and not result.hazards
    assert result.trace[1].stall_reason == "SFPMOV reads L1, written by SFPMAD in flight"


def test_indirect_va_reader_stalls_on_anything_in_flight():
    # INDIRECT_VA: the stall logic assumes the reader reads every LReg. The
    # second SFPMAD takes VA from L[L7] = L5, not from L3, but still waits.
    result = bh(REGS + f"{MAD_L3}\nsfpmad vd=4 va=0 vb=1 vc=2 mod1=4\n")
    assert stalls(result) == [1] and not result.hazards
    assert result.trace[1].stall_reason == "SFPMAD reads L3, written by SFPMAD in flight"
    # Both indirect: the reason counts the registers instead of naming them.
    result = bh(REGS + "sfpmad vd=3 va=1 vb=2 vc=0 mod1=8\nsfpmad vd=4 va=0 vb=1 vc=2 mod1=4\n")
    assert result.trace[1].stall_reason == "SFPMAD reads 17 LRegs, written by SFPMAD in flight"


def test_stochrnd_false_dependency_on_vb():
    # FP32_TO_FP16B (Mod1 1) reads only VC, but the stall logic believes VB is
    # read: with VB = L3 in flight the thread stalls for nothing.
    result = bh(REGS + f"{MAD_L3}\nsfpstochrnd vd=6 vb=3 vc=1 mod1=1\n")
    assert stalls(result) == [1] and result.cycles == 3
    # The documented mitigation, VB = VC, removes the stall.
    result = bh(REGS + f"{MAD_L3}\nsfpstochrnd vd=6 vb=1 vc=1 mod1=1\n")
    assert stalls(result) == [] and result.cycles == 2 and not result.hazards


def test_shft2_shift_modes_false_dependency_on_vd():
    # SHFT_LREG (mode 5): the stall logic believes VD is read instead of VB.
    # VD = L3 (in flight) but VB = L1, VC = L2: a stall with nothing to wait for.
    result = bh(REGS + f"{MAD_L3}\nsfpshft2 vd=3 vb=1 vc=2 mod1=5\n")
    assert stalls(result) == [1] and not result.hazards


def test_lutfp32_reader_ignores_l7_unless_its_mirror_says_indirect():
    # SFPLUTFP32 as the reader: every LReg but L7 (Mod1Mirror without
    # INDIRECT_VD). A MAD writing L7 does not stall it; one writing L6 does,
    # though the FP32 3-entry table reads L4-L6 only through its row choice.
    result = bh(REGS + "sfpmad vd=7 va=1 vb=2 vc=0\nsfplutfp32 vd=2 mod1=0\n")
    assert stalls(result) == [] and not result.hazards
    result = bh(REGS + "sfpmad vd=6 va=1 vb=2 vc=0\nsfplutfp32 vd=2 mod1=0\n")
    assert stalls(result) == [1]


def test_lutfp32_mirror_indirect_vd_stalls_any_reader():
    # Mod1Mirror has INDIRECT_VD: believed to write every LReg, though Mod1
    # writes VD = L2 only.
    result = bh(REGS + "sfplutfp32 vd=2 mod1=0 mod1_mirror=8\nsfpmov vd=6 vc=1\n")
    assert stalls(result) == [1] and not result.hazards


def test_macro_instructions_run_during_a_stall():
    # Cycle-kind Delay 1: the macro's Simple instruction runs at T+2 whatever
    # the thread does, here in the cycle in which SFPMOV is held.
    setup = macro_setup({0: sequence(simple=byte(4, 1))}, {0: IADD_PLUS_1})
    result = bh(setup + REGS.replace(".lreg 0", "# ") + lm(vd=2) + f"\n{MAD_L3}\nsfpmov vd=6 vc=3\n",
                dst_state((0, rand(1))))
    t = issue_cycle(result, "sfploadmacro")
    assert stalls(result) == [t + 2]
    assert result.trace[t + 2].units["simple"].origin == "macro"
    assert not result.hazards


def test_instruction_kind_delay_does_not_count_the_stall_cycle():
    # Instruction-kind Delay 2: counts the SFPMAD (T+1) and the SFPMOV (T+3,
    # after the stall at T+2), so the Simple instruction runs at T+4.
    setup = macro_setup({0: sequence(simple=byte(4, 2))}, {0: IADD_PLUS_1}, misc(by_instructions=("simple",)))
    result = bh(setup + lm(vd=2) + f"\n{MAD_L3}\nsfpmov vd=6 vc=3\nsfpnop\n", dst_state((0, rand(2))))
    t = issue_cycle(result, "sfploadmacro")
    assert stalls(result) == [t + 2]
    assert unit_cycles(result.trace, "simple") == [t + 4]


# ---------------------------------------------------------------------------
# 2. The documented gaps: hazards, not stalls
# ---------------------------------------------------------------------------

# (producer, reader, rule, other rules the pair also breaks). The reader
# really reads the producer's result at T+1, and the stall logic misses it.
GAPS = [
    (MAD_L3, "sfpand vd=5 vb=3 vc=1 mod1=1", "stall-gap-use-vb", ()),       # believed: VD=5, VC=1
    (MAD_L3, "sfpor vd=5 vb=3 vc=1 mod1=1", "stall-gap-use-vb", ()),
    # SFPIADD's and SFPSHFT's VD is both read and written: the write lands
    # together with the MAD's (write-conflict).
    (MAD_L3, "sfpiadd vd=3 vc=1 mod1=4", "stall-gap-iadd", ("write-conflict",)),
    (MAD_L3, "sfpshft vd=3 vc=1 mod1=0", "stall-gap-shft", ("write-conflict",)),
    ("sfpmad vd=0 va=1 vb=2 vc=4", "sfpconfig vd=0", "stall-gap-config", ()),   # template 0 from L0
    (MAD_L3, "sfpswap vd=4 vc=3 mod1=1", "stall-gap-swap", ()),              # compares VC=L3 at T+1
    (MAD_L3, "sfpshft2 vd=5 vc=3 mod1=3", "stall-gap-shft2", ()),            # SHFLROR1 reads VC
    (MAD_L3, "sfpshft2 vd=5 vb=3 vc=1 mod1=5", "stall-gap-shft2", ()),       # believed VD=5 for VB=3
    # Mod1 INDIRECT_VD writes L[L7] = L5; the stall logic (Mod1Mirror) believes VD = L2.
    ("sfplutfp32 vd=2 mod1=8 mod1_mirror=0", "sfpmov vd=6 vc=5", "stall-gap-lutfp32-mirror", ()),
    # As the reader: Mod1 INDIRECT_VD reads L7; Mod1Mirror makes the stall logic skip L7.
    ("sfpmad vd=7 va=1 vb=2 vc=0", "sfplutfp32 vd=2 mod1=8 mod1_mirror=0", "stall-gap-lutfp32-mirror", ()),
]


@pytest.mark.parametrize("producer, reader, rule, also", GAPS)
def test_gap_is_a_hazard_in_strict_mode(producer, reader, rule, also):
    with pytest.raises(HazardError) as err:
        bh(REGS + f"{producer}\n{reader}\nsfpnop\n")
    assert (err.value.hazard.rule, err.value.hazard.cycle) == (rule, 1)
    assert "stall logic" in err.value.hazard.message


@pytest.mark.parametrize("producer, reader, rule, also", GAPS)
def test_gap_allowed_is_reported_and_the_run_goes_on(producer, reader, rule, also):
    # No stall: the reader is accepted at T+1 = 1, the SFPNOP at 2.
    result = bh(REGS + f".allow {rule}\n{producer}\n{reader}\nsfpnop\n", allow=set(also))
    assert stalls(result) == []
    assert issued(result) == {0: producer.split()[0], 1: reader.split()[0], 2: "sfpnop"}
    assert (rule, 1) in hazards(result)
    assert {h.rule for h in result.hazards} == {rule, *also}
    assert all(h.allowed for h in result.hazards)


def test_gap_read_sees_the_old_value():
    # Lenient: SFPAND USE_VB reads VB = L3 a cycle early and sees the old L3
    # (the model's choice for every too-early read, docs/timing.md).
    result = bh(REGS + f"{MAD_L3}\nsfpand vd=5 vb=3 vc=1 mod1=1\n", strict=False)
    assert hazards(result) == [("stall-gap-use-vb", 1)]
    assert (result.state.lregs[5] == OLD_L3 & fp(1.5)).all()


@pytest.mark.parametrize("reader", ["sfpand vd=3 vc=1", "sfpand vd=5 vb=1 vc=3 mod1=1", "sfpiadd vd=5 vc=3 mod1=5",
                                    "sfpshft vd=5 vc=3 mod1=0", "sfpshft2 vd=3 vb=1 vc=2 mod1=5",
                                    "sfpshft2 vd=3 imm12=1 mod1=6"])
def test_where_the_stall_logic_sees_the_read_it_stalls(reader):
    # The same instructions stall when the register in flight is one the
    # stall logic does look at: SFPAND's VD, SFPAND USE_VB's VC, SFPIADD's
    # and SFPSHFT's VC, SFPSHFT2 modes 5 and 6's (wrongly believed) VD.
    result = bh(REGS + f"{MAD_L3}\n{reader}\n")
    assert stalls(result) == [1] and not result.hazards


# ---------------------------------------------------------------------------
# 3. SFPSWAP and SFPSHFT2 on Blackhole
# ---------------------------------------------------------------------------

def test_swap_interlock_as_on_wormhole_with_a_reason():
    text = ".lreg 1 111\n.lreg 2 222\nsfpswap vd=1 vc=2 mod1=0\nsfpmov vd=3 vc=1\n"
    for result in (bh(text), wh(text)):
        assert stalls(result) == [1] and result.cycles == 3
        assert result.trace[1].stall_reason == "only SFPNOP may follow SFPSWAP"
        assert (result.state.lregs[3] == 222).all()


def test_swap_mode_swap_after_mad_reads_in_its_second_cycle():
    # SWAP (Mod1 0) compares nothing: it reads VC and VD in its second cycle
    # (T+2), after the MAD's L3 lands at the end of T+1, so it needs no stall
    # and swaps the new value. SFPMAD 0, SFPSWAP 1 (lands at the end of 2),
    # SFPNOP 2: 3 cycles.
    result = bh(REGS + f"{MAD_L3}\nsfpswap vd=4 vc=3 mod1=0\nsfpnop\n")
    assert stalls(result) == [] and not result.hazards and result.cycles == 3
    landed = np.array(next(w for w in result.trace[1].lreg_writes if w.reg == 3).values, dtype=U32)
    np.testing.assert_array_equal(result.state.lregs[4], landed)
    assert (result.state.lregs[3] == fp(3.0)).all()
    # Wormhole: a read of a result in flight.
    with pytest.raises(HazardError) as err:
        wh(REGS + f"{MAD_L3}\nsfpswap vd=4 vc=3 mod1=0\nsfpnop\n")
    assert err.value.hazard.rule == "read-in-flight"


@pytest.mark.parametrize("mode", [2, 3, 4])
def test_shft2_modes_2_to_4_interlock(mode):
    # Only SFPNOP is accepted at T+1: SFPMOV waits a cycle (3 cycles in all).
    # Wormhole has no interlock: the same program is a shft2-next-cycle hazard.
    text = f"sfpshft2 vd=5 vc=6 mod1={mode}\nsfpmov vd=7 vc=1\n"
    result = bh(text)
    assert stalls(result) == [1] and result.cycles == 3 and not result.hazards
    assert result.trace[1].stall_reason == "only SFPNOP may follow SFPSHFT2"
    with pytest.raises(HazardError) as err:
        wh(text)
    assert err.value.hazard.rule == "shft2-next-cycle"
    # With the SFPNOP the pair takes two cycles and nothing stalls.
    result = bh(f"sfpshft2 vd=5 vc=6 mod1={mode}\nsfpnop\n")
    assert stalls(result) == [] and result.cycles == 2


@pytest.mark.parametrize("mode", [0, 1, 5, 6])
def test_other_shft2_modes_do_not_interlock(mode):
    result = bh(f"sfpshft2 vd=5 vb=1 vc=2 mod1={mode}\nsfpmov vd=7 vc=4\n")
    assert stalls(result) == [] and result.cycles == 2


# ---------------------------------------------------------------------------
# 4. SFPLOADMACRO on Blackhole
# ---------------------------------------------------------------------------

UNIT_INDEX = {"simple": 0, "mad": 1, "round": 2, "store": 3}
IADD_PLUS_1 = "sfpiadd vd=0 vc=0 imm12=1 mod1=5"        # VD = VC + 1
MAD_PLUS_1 = "sfpmad va=10 vb=10 vc=0 vd=0"             # VD = 1.0 * 1.0 + VC
SHFLROR1 = "sfpshft2 vd=0 vc=0 mod1=3"


def byte(select: int, delay: int = 0, *, l16: bool = False, vb: bool = False) -> int:
    return select | delay << 3 | (0x40 if l16 else 0) | (0x80 if vb else 0)


def sequence(simple: int = 0, mad: int = 0, round_: int = 0, store: int = 0) -> int:
    return simple | mad << 8 | round_ << 16 | store << 24


def misc(store_mod0: int = 0, load_mod0_for: tuple[int, ...] = (), by_instructions: tuple[str, ...] = ()) -> int:
    value = store_mod0
    for m in load_mod0_for:
        value |= 1 << (4 + m)
    for unit in by_instructions:
        value |= 1 << (8 + UNIT_INDEX[unit])
    return value


def load_l0(value: int) -> list[str]:
    return [f"sfploadi vd=0 mod0=10 imm16={value & 0xFFFF:#x}", f"sfploadi vd=0 mod0=8 imm16={value >> 16:#x}"]


def macro_setup(sequences: dict[int, int], templates: dict[int, str], misc_value: int = 0) -> str:
    """LoadMacroConfig through L0 and SFPCONFIG (templates assembled for Blackhole); leaves L0 changed."""
    lines = []
    for i, t in templates.items():
        lines += load_l0(word(t)) + [f"sfpconfig vd={i}"]
    for m, value in sequences.items():
        lines += load_l0(value) + [f"sfpconfig vd={4 + m}"]
    lines.append(f"sfpconfig vd=8 imm16={misc_value:#x} mod1=1")
    return "\n".join(lines) + "\n"


def lm(macro: int = 0, vd: int = 2, mod0: int = INT32, addr_mod: int = 0, offset: int = 0) -> str:
    return f"sfploadmacro macro={macro} vd={vd} mod0={mod0} addr_mod={addr_mod} offset={offset}"


def rand(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 30, LANES, dtype=np.uint64).astype(U32)


def dst_state(*blocks: tuple[int, np.ndarray]) -> SfpuState:
    state = SfpuState(arch=Arch.BLACKHOLE)
    for address, values in blocks:
        put_bits32(state, address, values)
    return state


def issue_cycle(result, prefix: str, k: int = 0) -> int:
    return [c for c, item in sorted(result.issued_from.items()) if item.text.startswith(prefix)][k]


def unit_cycles(trace, unit: str, mnemonic: str | None = None) -> list[int]:
    return [r.cycle for r in trace if unit in r.units and r.units[unit].origin == "macro"
            and (mnemonic is None or r.units[unit].mnemonic == mnemonic)]


def test_no_stall_after_a_macro_mad():
    # The macro's SFPMAD (MAD byte, Delay 0) runs at T+1 and writes the loaded
    # L2 at the end of T+2. The thread's SFPMOV at T+2 reads L2: a thread
    # SFPMAD would stall it, a macro's does not (SFPMAD.md), so it is accepted
    # and reads the old value: read-in-flight, as on Wormhole.
    setup = macro_setup({0: sequence(mad=byte(5))}, {1: MAD_PLUS_1})
    text = setup + lm(vd=2) + "\nsfpnop\nsfpmov vd=6 vc=2\n"
    result = bh(text, dst_state((0, rand(3))), strict=False)
    t = issue_cycle(result, "sfploadmacro")
    assert unit_cycles(result.trace, "mad", "SFPMAD") == [t + 1]
    assert stalls(result) == []
    assert hazards(result) == [("read-in-flight", t + 2)]
    assert "SFPLOADMACRO" in result.hazards[0].message
    with pytest.raises(HazardError) as err:
        bh(text, dst_state((0, rand(3))))
    assert err.value.hazard.rule == "read-in-flight"


def test_no_stall_for_a_macro_reader_of_a_thread_mad():
    # The macro's SFPIADD (Simple, Delay 1, VB := loaded L2, VC = template's
    # L3) runs at T+2 and reads L3, which the thread's SFPMAD of T+1 writes
    # only at the end of T+2. Scheduled instructions cannot be held back.
    setup = macro_setup({0: sequence(simple=byte(4, 1, vb=True))}, {0: "sfpiadd vd=0 vc=3 mod1=4"})
    result = bh(setup + REGS.replace(".lreg 0", "# ") + lm(vd=2) + f"\n{MAD_L3}\nsfpnop\n",
                dst_state((0, rand(4))), strict=False)
    t = issue_cycle(result, "sfploadmacro")
    assert unit_cycles(result.trace, "simple", "SFPIADD") == [t + 2]
    assert stalls(result) == []
    assert hazards(result) == [("read-in-flight", t + 2)]


def test_macro_shft2_next_cycle_must_be_idle():
    # A macro SFPSHFT2 mode 3 (Round, Delay 0) runs at T+1; the thread is not
    # interlocked by it, and SFPSHFT2.md asks for an idle cycle at T+2. An
    # SFPLOADI there is a hazard on Blackhole, although Wormhole's narrower
    # rule (no read of VD, none of the listed instructions) allows it.
    setup = macro_setup({0: sequence(round_=byte(4))}, {0: SHFLROR1})
    body = lm(vd=2) + "\nsfpnop\nsfploadi vd=6 mod0=2 imm16=1\n"
    result = bh(setup + body, dst_state((0, rand(5))), strict=False)
    t = issue_cycle(result, "sfploadmacro")
    assert unit_cycles(result.trace, "round", "SFPSHFT2") == [t + 1]
    assert stalls(result) == []
    assert hazards(result) == [("shft2-next-cycle", t + 2)]
    state = SfpuState(Arch.WORMHOLE)                       # SFPSHFT2's encoding is the same on Wormhole
    put_bits32(state, 0, rand(5))
    assert not wh(setup + body, state).hazards
    # With an SFPNOP in the idle cycle, it is clean.
    result = bh(setup + lm(vd=2) + "\nsfpnop\nsfpnop\nsfploadi vd=6 mod0=2 imm16=1\n", dst_state((0, rand(5))))
    assert not result.hazards


@pytest.mark.parametrize("addr_mod", [4, 5, 6, 7])
def test_sfploadmacro_addr_mod_4_to_7(addr_mod):
    # Blackhole's AddrMod is 3 bits: slots 4-7 are reachable without
    # ADDR_MOD_SET_Base. Two macros with AddrMod n (dst_incr 4): loads from
    # rows 0 and 4, RWC_Dst ends at 8. Each macro adds 1 on Simple (Delay 0,
    # T+1) and stores (Delay 1, T+2) at the address its SFPLOADMACRO computed.
    x, y = rand(6), rand(7)
    setup = macro_setup({0: sequence(simple=byte(4), store=byte(3, 1))}, {0: IADD_PLUS_1}, misc(load_mod0_for=(0,)))
    body = f".addr_mod {addr_mod} dst_incr=4\n" + lm(vd=2, addr_mod=addr_mod) + "\n" + lm(vd=3, addr_mod=addr_mod) + "\n"
    program = assemble(BH_HEADER + setup + body)
    macros = [decode(w, Arch.BLACKHOLE) for w in program.words if w >> 24 == 0x93]
    assert [m["addr_mod"] for m in macros] == [addr_mod, addr_mod]
    result = run_program(program, dst_state((0, x), (4, y)))
    t = issue_cycle(result, "sfploadmacro")
    assert unit_cycles(result.trace, "store") == [t + 2, t + 3]
    np.testing.assert_array_equal(get_bits32(result.state, 0), x + U32(1))
    np.testing.assert_array_equal(get_bits32(result.state, 4), y + U32(1))
    assert result.state.tensix.rwc_dst == 8 and not result.hazards


def test_wormhole_addr_mod_is_two_bits():
    with pytest.raises(AsmError):
        assemble(lm(addr_mod=4))


@pytest.mark.parametrize("unit, template, runs", [
    ("simple", "sfparecip vd=0 vc=0 mod1=0", "SFPARECIP"),
    ("simple", "sfpgt vd=0 vc=0 mod1=8", "SFPGT"),
    ("simple", "sfple vd=0 vc=0 mod1=8", "SFPLE"),
    ("mad", "sfpmul24 vd=0 va=0 vb=0 vc=9 mod1=0", "SFPMUL24"),
    ("mad", "sfpgt vd=0 vc=0 mod1=8", "SFPNOP"),        # not in the MAD column: becomes SFPNOP
    ("simple", "sfpmul24 vd=0 va=0 vb=0 vc=9", "SFPNOP"),
])
def test_blackhole_macro_columns(unit, template, runs):
    sel = byte(4)
    seq = sequence(simple=sel) if unit == "simple" else sequence(mad=sel)
    result = bh(macro_setup({0: seq}, {0: template}) + lm(vd=2) + "\n", dst_state((0, rand(8))))
    t = issue_cycle(result, "sfploadmacro")
    assert unit_cycles(result.trace, unit, runs) == [t + 1]
    assert not result.hazards


def test_blackhole_only_templates_are_invalid_on_wormhole():
    # SFPGT's opcode 0x97 is not a Wormhole SFPU instruction.
    setup = macro_setup({0: sequence(simple=byte(4))}, {0: "sfpgt vd=0 vc=0 mod1=8"})
    state = SfpuState(Arch.WORMHOLE)
    put_bits32(state, 0, rand(9))
    result = wh(setup + lm(vd=2) + "\n", state, strict=False)
    assert [h.rule for h in result.hazards] == ["macro-template-invalid"]


# ---------------------------------------------------------------------------
# 5. The trace and the timeline
# ---------------------------------------------------------------------------

def test_stall_reason_in_the_json_trace_and_the_timeline():
    result = bh(REGS + f"{MAD_L3}\nsfpadd vd=4 va=10 vb=3 vc=9\n")
    record = json.loads(json.dumps(result.trace[1].to_json()))
    assert record["issued"] is None and record["stalled"] == word("sfpadd vd=4 va=10 vb=3 vc=9")
    assert record["stall_reason"] == "SFPADD reads L3, written by SFPMAD in flight"
    assert "stall_reason" not in result.trace[0].to_json()
    text = timeline.format_table(result.trace, width=None, arch=Arch.BLACKHOLE)
    assert "stall: sfpadd vd=4 va=10 vb=3 vc=9 (SFPADD reads L3, written by SFPMAD in flight)" in text
    # The reason is for people: the scoreboard compares only the stalled word.
    assert result.trace[1].compared() == dataclasses.replace(result.trace[1], stall_reason="other").compared()


# ---------------------------------------------------------------------------
# 6. The tables
# ---------------------------------------------------------------------------

def test_the_stall_view_is_the_declared_reads_with_the_gaps_as_data():
    """What the stall logic misses is a subset of the declared reads; an
    instruction whose misses can be a register in flight names its gap rule
    (SFPADDI's constant L10 cannot be); Wormhole, without the stall, has none."""
    for op in isa.ISA[Arch.BLACKHOLE].table:
        assert set(op.stall_unseen) <= set(op.reads), op.mnemonic
        assert bool(op.stall_gap) == any(r.reg != 10 for r in op.stall_unseen), op.mnemonic
    for op in isa.ISA[Arch.WORMHOLE].table:
        assert op.stall_view == op.reads and not op.stall_gap, op.mnemonic


def test_gap_rules_are_hazard_rules():
    assert set(GAP_RULES.values()) | {"stall-gap-lutfp32-mirror"} <= set(RULES)
    assert {r for r in RULES if r.startswith("stall-gap-")} == set(GAP_RULES.values()) | {"stall-gap-lutfp32-mirror"}


@pytest.mark.parametrize("text, reads", [
    ("sfpand vd=5 vb=3 vc=1 mod1=1", {5, 1}),        # USE_VB ignored
    ("sfpiadd vd=3 vc=1 mod1=4", {1}),               # VD not seen
    ("sfpshft vd=3 vc=1", {1}),
    ("sfpconfig vd=0", set()),
    ("sfpswap vd=4 vc=3 mod1=1", set()),
    ("sfpshft2 vd=5 vc=3 mod1=2", set()),
    ("sfpshft2 vd=5 vb=3 vc=1 mod1=5", {5, 1}),      # VD instead of VB
    ("sfpstochrnd vd=6 vb=3 vc=1 mod1=1", {3, 1}),   # the false dependency
    ("sfpmad vd=4 va=0 vb=1 vc=2 mod1=4", set(range(17))),
    ("sfplutfp32 vd=2 mod1=0", set(range(17)) - {7}),
    ("sfplutfp32 vd=2 mod1=0 mod1_mirror=8", set(range(17))),
])
def test_stall_reads(text, reads):
    assert stall_reads(decode(word(text), Arch.BLACKHOLE)) == reads


@pytest.mark.parametrize("text, writes", [
    ("sfpmad vd=3 va=1 vb=2 vc=0", {3}), ("sfpmad vd=3 va=1 vb=2 vc=0 mod1=8", set(range(17))),
    ("sfplut vd=3 mod0=8", set(range(17))), ("sfplutfp32 vd=2 mod1=8", {2}),
    ("sfplutfp32 vd=2 mod1=0 mod1_mirror=8", set(range(17))),
])
def test_stall_writes(text, writes):
    assert stall_writes(decode(word(text), Arch.BLACKHOLE)) == writes


def test_run_program_takes_the_programs_architecture():
    assert bh("sfpnop\n").state.arch is Arch.BLACKHOLE
    with pytest.raises(ValueError, match="Blackhole"):
        run_program(assemble(BH_HEADER + "sfpnop\n"), SfpuState(Arch.WORMHOLE))


def test_macro_instruction_after_the_threads_shft2_must_be_sfpnop():
    # The macro's SFPMAD (MAD byte, Delay 1) starts at T+2, the cycle after the
    # thread's SFPSHFT2 mode 3 of T+1. The thread is interlocked, but a
    # scheduled instruction cannot be: Blackhole reports it (the model's
    # reading, docs/timing.md); Wormhole's rule forbids only reads of VD = L5
    # and a list of Simple/Round instructions, so there it is clean.
    setup = macro_setup({0: sequence(mad=byte(5, 1))}, {1: MAD_PLUS_1})
    body = lm(vd=2) + "\nsfpshft2 vd=5 vc=6 mod1=3\nsfpnop\n"
    result = bh(setup + body, dst_state((0, rand(10))), strict=False)
    t = issue_cycle(result, "sfploadmacro")
    assert unit_cycles(result.trace, "mad", "SFPMAD") == [t + 2]
    assert hazards(result) == [("shft2-next-cycle", t + 2)] and result.hazards[0].unit == "mad"
    state = SfpuState(Arch.WORMHOLE)
    put_bits32(state, 0, rand(10))
    assert not wh(setup + body, state).hazards


def test_macro_sfpand_without_use_vb_reads_the_templates_vd_not_its_vb_field():
    # SFPLOADMACRO.md: with byte bit 7 clear, VC is the loaded VD and VB is the
    # template's VD (SFPAND's "VB = VD"). Blackhole's SFPAND also has a VB
    # field, used only with USE_VB; here Mod1 is 0, so the field (6) is
    # ignored and L2 = x & L3, not x & L6.
    x = rand(11)
    regs = ".lreg 3 0x0F0F0F0F\n.lreg 6 0xFFFF0000\n"
    setup = macro_setup({0: sequence(simple=byte(4))}, {0: "sfpand vd=3 vc=5 vb=6 mod1=0"})
    result = bh(regs + setup + lm(vd=2) + "\n", dst_state((0, x)))
    np.testing.assert_array_equal(result.state.lregs[2], x & U32(0x0F0F0F0F))
    # With USE_VB the field is the operand: L2 = x & L6 (the documented override of VC only).
    setup = macro_setup({0: sequence(simple=byte(4))}, {0: "sfpand vd=3 vc=5 vb=6 mod1=1"})
    result = bh(regs + setup + lm(vd=2) + "\n", dst_state((0, x)))
    np.testing.assert_array_equal(result.state.lregs[2], x & U32(0xFFFF0000))


def test_macro_sfpand_on_wormhole_reads_the_templates_vd():
    # Wormhole's SFPAND has no Mod1: as a template its VB is its VD, as Blackhole's without USE_VB. (The model
    # asked the template for its Mod1 and stopped; the mutant program macro_wide found it.)
    x = rand(11)
    lines = [*load_l0(word("sfpand vd=3 vc=5", Arch.WORMHOLE)), "sfpconfig vd=0",
             *load_l0(sequence(simple=byte(4))), "sfpconfig vd=4", "sfpconfig vd=8 imm16=0 mod1=1"]
    state = SfpuState(Arch.WORMHOLE)
    put_bits32(state, 0, x)
    result = wh(".lreg 3 0x0F0F0F0F\n" + "\n".join(lines) + "\n" + lm(vd=2) + "\n", state)
    np.testing.assert_array_equal(result.state.lregs[2], x & U32(0x0F0F0F0F))


@pytest.mark.parametrize("directive", [".addr_mod_base 1\n"])
def test_blackhole_addr_mod_with_the_base_set_is_undefined(directive):
    # The Blackhole pages give AddrMod 3 bits and no rule for ADDR_MOD_SET_Base;
    # strict mode stops, lenient mode uses the slot AddrMod names.
    from tensix_sfpu.model.machine import UndefinedBehaviour
    program = directive + ".addr_mod 5 dst_incr=4\nsfpload vd=1 mod0=4 addr_mod=5 imm10=0\n"
    with pytest.raises(UndefinedBehaviour, match="ADDR_MOD_SET_Base"):
        bh(program)
    result = bh(program, strict=False)
    assert result.state.tensix.rwc_dst == 4
