"""model.reads.lreg_reads, proved against the semantics rather than itself.

Soundness: for every mnemonic and every value of its modifier fields, with
random operands and random states (special values included), executing on a
state whose LRegs outside `lreg_reads` have been replaced must give exactly
the same effects. Precision: on states where every lane is enabled and no
value is a NaN or an infinity, replacing any one register inside the set must
change something. A few hand-picked cases spell out the interesting reads.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tensix_sfpu.model.isa import ISA, Arch, Kind, Narrowing, Unit, decode, encode
from tensix_sfpu.model.machine import Effects, Machine, regular_operands
from tensix_sfpu.model.reads import _NARROWING, _RESOLVE, declared_reads, lreg_reads
from tensix_sfpu.model.semantics import SEMANTICS, Operands
from tensix_sfpu.model.isa import LaneConfigBit
from tensix_sfpu.model.state import NUM_LREGS, FlagStackEntry, SfpuState

LANES = 32
U32 = np.uint32

SPECIALS = np.array([
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF,   # zeros, denormals
    0x3F800000, 0xBF800000, 0x3F7FFFFF, 0x3FFFFFFF,   # around the LUT thresholds 1.0 and 2.0
    0x40000000, 0x3F000000, 0x40400000, 0x40800000,
    0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,   # infinities, NaNs
    0x7F7FFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x0000FFFF,
    0xFFFF0000, 0x0000001F, 0xFFFFFFF0,
], dtype=U32)

# Modifier fields enumerated exhaustively; the others are drawn at random.
ENUMERATED = ("mod0", "mod1", "use_imm5", "stochastic", "rnd_mode")
THREAD_TRIALS = 6
MACRO_TRIALS = 3

ARCHES = list(Arch)


def macro_mnemonics(arch: Arch) -> list[str]:
    return sorted(mn for mn, op in ISA[arch].opcodes.items() if op.macro_units)


# ---------------------------------------------------------------------------
# Random states and operands
# ---------------------------------------------------------------------------

def ordinary_floats(rng: np.random.Generator, shape=LANES) -> np.ndarray:
    """Finite normal floats of magnitude 2^-8 .. 2^8, random sign and mantissa."""
    sign = rng.integers(0, 2, shape).astype(U32) << U32(31)
    exp = rng.integers(119, 135, shape).astype(U32) << U32(23)
    man = rng.integers(0, 1 << 23, shape).astype(U32)
    return sign | exp | man


def tame_values(rng: np.random.Generator, shape=LANES) -> np.ndarray:
    """Mostly ordinary floats, with some zeros and small integers so that
    comparisons with zero and saturating conversions depend on the value."""
    kind = rng.integers(0, 8, shape)
    small = rng.integers(1, 300, shape).astype(U32)
    return np.where(kind == 0, U32(0), np.where(kind == 1, small, ordinary_floats(rng, shape))).astype(U32)


def wild_values(rng: np.random.Generator, shape=LANES) -> np.ndarray:
    """Uniform bit patterns, special values, small integers and ordinary floats, mixed per lane."""
    kind = rng.integers(0, 4, shape)
    uniform = rng.integers(0, 1 << 32, shape, dtype=np.uint64).astype(U32)
    special = SPECIALS[rng.integers(0, len(SPECIALS), shape)]
    small = (rng.integers(-16, 17, shape) & 0xFFFFFFFF).astype(U32)
    values = np.where(kind == 0, uniform, np.where(kind == 1, special, small))
    return np.where(kind == 3, ordinary_floats(rng, shape), values).astype(U32)


def replaced(rng: np.random.Generator, old: np.ndarray, values=wild_values) -> np.ndarray:
    """New values differing from `old` in every lane (`old` may be several registers)."""
    new = values(rng, old.shape)
    return np.where(new == old, old ^ U32(1), new).astype(U32)


def bools(rng: np.random.Generator, how: str) -> np.ndarray:
    return {"none": np.zeros(LANES, dtype=bool), "all": np.ones(LANES, dtype=bool),
            "some": rng.integers(0, 2, LANES).astype(bool)}[how]


def random_state(rng: np.random.Generator, tame: bool = False, arch: Arch = Arch.WORMHOLE) -> SfpuState:
    """A random state. `tame`: every lane enabled (and passing the backdoor
    guard), no NaN or infinity in the LRegs, L7 selecting only L0-L7, so that
    each read register visibly matters."""
    st = SfpuState(arch=arch)
    st.lregs = (tame_values if tame else wild_values)(rng, (NUM_LREGS, LANES))
    # A few distinct L7 & 15 selections, so indirect reads are not "everything".
    choices = rng.choice(8 if tame else 16, size=rng.integers(1, 4), replace=False)
    st.lregs[7] = (st.lregs[7] & U32(0xFFFFFFF0)) | rng.choice(choices, LANES).astype(U32)
    if rng.random() < 0.5:   # |L3| in one LUT range in every lane
        lo, hi = [(0x00800000, 0x3F800000), (0x3F800000, 0x40000000), (0x40000000, 0x7F800000)][rng.integers(0, 3)]
        st.lregs[3] = (st.lregs[3] & U32(0x80000000)) | rng.integers(lo, hi, LANES).astype(U32)

    if tame:
        st.lane_flags = np.ones(LANES, dtype=bool)
        st.use_flags = np.ones(LANES, dtype=bool)
        st.flag_stack = []
    else:
        st.lane_flags = bools(rng, "some")
        st.use_flags = bools(rng, rng.choice(["none", "all", "some"]))
        st.flag_stack = [FlagStackEntry(bools(rng, "some"), bools(rng, "some"))
                         for _ in range(rng.integers(0, 9))]

    config = np.zeros(LANES, dtype=U32)
    for bit in (LaneConfigBit.ENABLE_FP16A_INF, LaneConfigBit.CAPTURE_DEFAULT_DEST_INDEX,
                LaneConfigBit.DEST_RD_COL_EXCHANGE, LaneConfigBit.DEST_WR_COL_EXCHANGE,
                LaneConfigBit.EXCHANGE_SRCB_SRCC):
        config |= bools(rng, "some").astype(U32) << U32(bit)
    config |= bools(rng, rng.choice(["none", "all", "some"])).astype(U32) << U32(LaneConfigBit.ENABLE_DEST_INDEX)
    if tame:
        config |= U32(1 << LaneConfigBit.DISABLE_BACKDOOR_LOAD)
    else:
        for bit in (LaneConfigBit.DISABLE_BACKDOOR_LOAD, LaneConfigBit.BLOCK_DEST_WR_FROM_SFPU,
                    LaneConfigBit.BLOCK_SFPU_RD_FROM_DEST):
            how = rng.choice(["none", "all", "some"], p=[0.25, 0.25, 0.5])
            config |= bools(rng, how).astype(U32) << U32(bit)
        if rng.random() < 0.3:
            config |= rng.integers(0, 16, LANES).astype(U32) << U32(LaneConfigBit.ROW_MASK_LO)
    st.lane_config = config

    st.prng = rng.integers(0, 1 << 32, LANES, dtype=np.uint64).astype(U32)
    st.macro_templates = rng.integers(0, 1 << 32, (4, LANES), dtype=np.uint64).astype(U32)
    st.macro_sequences = rng.integers(0, 1 << 32, (4, LANES), dtype=np.uint64).astype(U32)
    st.macro_misc = rng.integers(0, 1 << 12, LANES).astype(U32)
    st.shft2_captured_vc = wild_values(rng)
    st.dst = rng.integers(0, 1 << 16, st.dst.shape).astype(np.uint16)
    t = st.tensix
    t.fp32_dest = bool(rng.integers(0, 2))
    t.srcb_format = int(rng.integers(0, 16))
    t.rwc_dst = int(rng.integers(0, 1024))
    t.dest_offset = int(rng.integers(0, 1024))
    if arch is Arch.BLACKHOLE:
        t.rwc_sp = int(rng.integers(0, 1024))
        t.sfpu_stack_incr = int(rng.integers(0, 4))
        t.dest_sp_base = int(rng.integers(0, 1024))
    return st


def random_reg(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 8)) if rng.random() < 0.6 else int(rng.integers(8, 16))


def field_combos(mnemonic: str, arch: Arch = Arch.WORMHOLE) -> list[dict[str, int]]:
    """Every combination of the enumerated modifier fields of `mnemonic`
    (SFPCONFIG's VD selects its target, so it counts as one)."""
    enumerated = ENUMERATED + (("vd",) if mnemonic == "SFPCONFIG" else ())
    fields = [f for f in ISA[arch].opcodes[mnemonic].fields if f.name in enumerated]
    ranges = [range(f.min, f.max + 1) for f in fields]
    return [dict(zip((f.name for f in fields), values)) for values in itertools.product(*ranges)]


def random_word(rng: np.random.Generator, mnemonic: str, mods: dict[str, int], arch: Arch = Arch.WORMHOLE) -> int:
    fields = dict(mods)
    for f in ISA[arch].opcodes[mnemonic].fields:
        if f.name in fields:
            continue
        if f.kind is Kind.REG:
            fields[f.name] = random_reg(rng) if f.width == 4 else int(rng.integers(0, 1 << f.width))
        else:
            fields[f.name] = int(rng.integers(f.min, f.max + 1))
    return encode(mnemonic, arch, **fields)


def thread_operands(rng: np.random.Generator, mnemonic: str, mods: dict[str, int], arch: Arch) -> Operands:
    return regular_operands(decode(random_word(rng, mnemonic, mods, arch), arch))


def macro_operands(rng: np.random.Generator, mnemonic: str, mods: dict[str, int], arch: Arch) -> Operands:
    """As `model.cycle` builds them: VD is the loaded register (0-7) or L16,
    VB and VC the loaded register or the template's fields (0-15); a store
    reads any of L0-L16 at the address its SFPLOADMACRO computed."""
    ins = decode(random_word(rng, mnemonic, mods, arch), arch)
    if mnemonic == "SFPSTORE":
        vd = int(rng.integers(0, 17))
        ins = decode(encode("SFPSTORE", arch, vd=vd & 15, mod0=ins["mod0"], imm10=ins["imm10"]), arch)
        return Operands(ins, vd, macro=True, store_addr=int(rng.integers(0, 1024)))
    vd = 16 if rng.random() < 0.25 else int(rng.integers(0, 8))
    return Operands(ins, vd, random_reg(rng), random_reg(rng), macro=True)


# ---------------------------------------------------------------------------
# Running and comparing
# ---------------------------------------------------------------------------

def _bits(a: np.ndarray) -> list:
    return np.asarray(a).tolist()


def outcome(x: Operands, state: SfpuState) -> tuple:
    """Everything executing `x` on a copy of `state` changes, in a comparable form.
    LReg writes compare only the lanes they write."""
    m = Machine(state.fork(), strict=False)
    eff: Effects = m.execute_operands(x)
    st = m.state

    def stack(entries):
        return None if entries is None else [(_bits(e.lane_flags), _bits(e.use_flags)) for e in entries]

    return (
        [(w.reg, _bits(w.mask), _bits(w.values[w.mask])) for w in eff.lreg_writes],
        [(w.row, w.col_mask, _bits(w.values)) for w in eff.dst_writes],
        [(w.name, w.index, _bits(w.lanes), _bits(w.values[w.lanes])) for w in eff.config_writes],
        None if eff.flags is None else (_bits(eff.flags[0]), _bits(eff.flags[1])),
        stack(eff.stack),
        None if eff.prng is None else _bits(eff.prng),
        None if eff.shft2_captured_vc is None else _bits(eff.shft2_captured_vc),
        eff.tensix, eff.load_address, m.warnings,
        # The rest of the state, in case something changed it outside the log.
        st.dst.tobytes(), _bits(st.lane_flags), _bits(st.use_flags), stack(st.flag_stack), _bits(st.prng),
        _bits(st.lane_config), _bits(st.macro_templates), _bits(st.macro_sequences), _bits(st.macro_misc),
        _bits(st.shft2_captured_vc), st.tensix,
    )


def describe(x: Operands) -> str:
    return f"{x.ins.mnemonic} {x.ins.fields} vd={x.vd} vb={x.vb} vc={x.vc} macro={x.macro}"


def check_sound(rng: np.random.Generator, x: Operands, state: SfpuState, reads=None) -> None:
    """Replacing every register outside `reads` (default: `lreg_reads`) changes nothing."""
    if reads is None:
        reads = lreg_reads(x, state)
        assert isinstance(reads, frozenset), describe(x)
    assert reads <= set(range(NUM_LREGS)), (describe(x), reads)
    other = state.fork()
    unread = sorted(set(range(NUM_LREGS)) - reads)
    other.lregs[unread] = replaced(rng, state.lregs[unread])
    assert outcome(x, other) == outcome(x, state), \
        f"{describe(x)}: depends on a register outside {sorted(reads)}"


def imprecise(rng: np.random.Generator, x: Operands, state: SfpuState) -> list[int]:
    """Registers of the read set whose replacement (alone) changes nothing in
    any of several tries: ordinary floats, values with zeros and small
    integers, anything. (A register may matter in a single lane, where a
    rounding or a saturation can hide one replacement.)"""
    before = outcome(x, state)
    unused = []
    for r in sorted(lreg_reads(x, state)):
        for values in (ordinary_floats, tame_values, wild_values) * 3:
            other = state.fork()
            other.lregs[r] = replaced(rng, state.lregs[r], values)
            if outcome(x, other) != before:
                break
        else:
            unused.append(r)
    return unused


def cases(mnemonic: str, issue: str, trials: int, salt: str = "", arch: Arch = Arch.WORMHOLE):
    """`trials` random cases per modifier combination (fewer if there are many combinations)."""
    # Wormhole keeps its original seeds; Blackhole's differ.
    rng = np.random.default_rng([ord(c) for c in mnemonic + issue + salt + ("" if arch is Arch.WORMHOLE else "bh")])
    make = thread_operands if issue == "thread" else macro_operands
    combos = field_combos(mnemonic, arch)
    for mods in combos:
        for _ in range(max(1, trials * 32 // max(32, len(combos)))):
            yield rng, make(rng, mnemonic, mods, arch)


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------

def _by_arch(issue: str) -> list:
    return [pytest.param(arch, mn, id=f"{arch.value}-{mn}")
            for arch in ARCHES
            for mn in (sorted(ISA[arch].opcodes) if issue == "thread" else macro_mnemonics(arch))]


# Instructions that change only flags, the flag stack or timing: no LReg read.
NO_READS = {"SFPNOP", "SFPENCC", "SFPPUSHC", "SFPPOPC", "SFPCOMPC"}


@pytest.mark.parametrize("arch", ARCHES)
def test_every_instruction_declares_its_reads_in_the_table(arch):
    table = ISA[arch].opcodes
    assert set(table) <= set(SEMANTICS) and set(_NARROWING) == set(Narrowing)
    # A MAD-class result lands a cycle late, possibly nowhere: that class narrows by where it lands.
    assert {mn for mn, op in table.items() if op.narrow is Narrowing.LANDS} == \
        {mn for mn, op in table.items() if op.unit is Unit.MAD}
    assert {mn for mn, op in table.items() if not op.reads} == NO_READS
    for op in table.values():
        for read in op.reads:
            assert isinstance(read.reg, int) and 0 <= read.reg <= 16 or read.reg in _RESOLVE, (op.mnemonic, read)
            assert all(op.has(name) for name, _, _ in read.when), (op.mnemonic, read)


@pytest.mark.parametrize("issue,arch,mnemonic",
                         [pytest.param(issue, *p.values, id=f"{issue}-{p.id}")
                          for issue in ("thread", "macro") for p in _by_arch(issue)])
def test_narrowing_only_removes_declared_reads(issue, arch, mnemonic):
    """For every value of the modifier fields, on random states: what
    `lreg_reads` reports is part of what the table declares. With the
    soundness tests (nothing outside `lreg_reads` matters) and the precision
    tests (everything inside it does), the declarations are what the
    semantics read, less only what cannot matter on the state."""
    for rng, x in cases(mnemonic, issue, 2, salt="declared", arch=arch):
        state = random_state(rng, tame=rng.random() < 0.5, arch=arch)
        assert lreg_reads(x, state) <= declared_reads(x, state), describe(x)


@pytest.mark.parametrize("arch,mnemonic", _by_arch("thread"))
def test_declared_reads_are_sound_on_their_own(arch, mnemonic):
    """The declarations without any narrowing: registers outside them never matter."""
    for rng, x in cases(mnemonic, "thread", 2, salt="declared-sound", arch=arch):
        state = random_state(rng, tame=rng.random() < 0.25, arch=arch)
        check_sound(rng, x, state, reads=declared_reads(x, state))




@pytest.mark.parametrize("arch,mnemonic", _by_arch("thread"))
def test_sound_thread_issue(arch, mnemonic):
    for rng, x in cases(mnemonic, "thread", THREAD_TRIALS, arch=arch):
        check_sound(rng, x, random_state(rng, tame=rng.random() < 0.25, arch=arch))


@pytest.mark.parametrize("arch,mnemonic", _by_arch("macro"))
def test_sound_macro_issue(arch, mnemonic):
    for rng, x in cases(mnemonic, "macro", MACRO_TRIALS, arch=arch):
        check_sound(rng, x, random_state(rng, tame=rng.random() < 0.25, arch=arch))


@pytest.mark.parametrize("issue,arch,mnemonic",
                         [pytest.param(issue, *p.values, id=f"{issue}-{p.id}")
                          for issue in ("thread", "macro") for p in _by_arch(issue)])
def test_precise_when_every_lane_is_enabled(issue, arch, mnemonic):
    failures = []
    for rng, x in cases(mnemonic, issue, 2, salt="precision", arch=arch):
        state = random_state(rng, tame=True, arch=arch)
        if mnemonic == "SFPCONFIG" and x["mod1"] & 8:
            # Mod1 bit 3 takes a lane mask from Imm16's even bits; keep lane 0 in it.
            x = Operands(decode(x.ins.word | (1 << 8), arch), x.vd, x.vb, x.vc, x.macro, x.store_addr)
        unused = imprecise(rng, x, state)
        if unused:
            failures.append(f"{describe(x)}: {unused} of {sorted(lreg_reads(x, state))} changed nothing")
    assert not failures, "\n".join(failures[:10])


# Hand-picked cases: operands, a change to a tame random state, and the exact
# read set. The test also shows that each register of the set matters.

def _thread(mnemonic: str, **fields) -> Operands:
    return regular_operands(decode(encode(mnemonic, Arch.WORMHOLE, **fields), Arch.WORMHOLE))


def _macro(mnemonic: str, vd: int, vb: int, vc: int, **fields) -> Operands:
    return Operands(decode(encode(mnemonic, Arch.WORMHOLE, **fields), Arch.WORMHOLE), vd, vb, vc, macro=True)


def _l7_selects(*regs):
    def setup(st):
        st.lregs[7] = (st.lregs[7] & U32(0xFFFFFFF0)) | np.resize(np.array(regs, dtype=U32), LANES)
    return setup


def _l3_is(value):
    def setup(st):
        st.lregs[3] = np.full(LANES, value, dtype=U32)
    return setup


def _dest_index(st):
    st.lane_config |= U32(1 << LaneConfigBit.ENABLE_DEST_INDEX)


def _predication_off(st):
    st.use_flags = np.zeros(LANES, dtype=bool)


def _backdoor_open(st):
    st.lane_config &= ~U32(1 << LaneConfigBit.DISABLE_BACKDOOR_LOAD)


HAND_PICKED = {
    "SFPMAD": (_thread("SFPMAD", vd=0, va=1, vb=2, vc=3), None, {1, 2, 3}),
    "SFPMAD INDIRECT_VA": (_thread("SFPMAD", vd=0, va=1, vb=2, vc=3, mod1=4), _l7_selects(5, 9), {2, 3, 5, 7, 9}),
    "SFPMAD INDIRECT_VD": (_thread("SFPMAD", vd=0, va=1, vb=2, vc=3, mod1=8), _l7_selects(4), {1, 2, 3, 7}),
    "SFPMAD INDIRECT_VD to constants": (_thread("SFPMAD", vd=0, va=1, vb=2, vc=3, mod1=8), _l7_selects(8, 12), {7}),
    "SFPMAD VD 9 writes nothing": (_thread("SFPMAD", vd=9, va=1, vb=2, vc=3), None, set()),
    "SFPMAD VD 12 as a backdoor load": (_thread("SFPMAD", vd=12, va=1, vb=2, vc=3, mod1=8), _backdoor_open, set()),
    "SFPADDI": (_thread("SFPADDI", vd=2, imm16=0x3F80), None, {2, 10}),
    "SFPMULI under a macro": (_macro("SFPMULI", vd=16, vb=1, vc=6, imm16=0x4000), None, {6}),
    "SFPLOADI UPPER": (_thread("SFPLOADI", vd=3, mod0=8, imm16=0x1234), None, {3}),
    "SFPLOADI LOWER": (_thread("SFPLOADI", vd=3, mod0=10, imm16=0x1234), None, {3}),
    "SFPLOADI FLOATB": (_thread("SFPLOADI", vd=3, mod0=0, imm16=0x1234), None, set()),
    "SFPLOAD HI16_ONLY": (_thread("SFPLOAD", vd=2, mod0=15), None, {2}),
    "SFPLOAD FP32": (_thread("SFPLOAD", vd=2, mod0=3), None, set()),
    "SFPLOADMACRO LO16_ONLY": (_thread("SFPLOADMACRO", vd=6, mod0=14), None, {6}),
    "SFPSTORE": (_thread("SFPSTORE", vd=5, mod0=3), None, {5}),
    "SFPSTORE L16 under a macro": (Operands(decode(encode("SFPSTORE", Arch.WORMHOLE, vd=0, mod0=3), Arch.WORMHOLE),
                                            16, macro=True, store_addr=40),
                                   None, {16}),
    "SFPSTORE ZERO": (_thread("SFPSTORE", vd=5, mod0=11), None, set()),
    "SFPSTOCHRND shift by VB": (_thread("SFPSTOCHRND", vd=1, vb=2, vc=3, mod1=4), None, {2, 3}),
    "SFPSTOCHRND shift by Imm5": (_thread("SFPSTOCHRND", vd=1, vb=2, vc=3, mod1=4, use_imm5=1, imm5=24), None, {3}),
    "SFPSTOCHRND FP32 to FP16B": (_thread("SFPSTOCHRND", vd=1, vb=2, vc=3, mod1=1), None, {3}),
    "SFPIADD VD += VC": (_thread("SFPIADD", vd=1, vc=2), None, {1, 2}),
    "SFPIADD immediate": (_thread("SFPIADD", vd=1, vc=2, mod1=1, imm12=5), None, {2}),
    "SFPIADD VD = VD - VD": (_thread("SFPIADD", vd=1, vc=1, mod1=2), None, set()),
    "SFPXOR VD, VD": (_thread("SFPXOR", vd=4, vc=4), None, set()),
    "SFPSETCC": (_thread("SFPSETCC", vd=1, vc=2, mod1=0), None, {2}),
    "SFPSETCC from Imm1": (_thread("SFPSETCC", vd=1, vc=2, mod1=1, imm1=1), None, set()),
    "SFPSETCC with predication off": (_thread("SFPSETCC", vd=1, vc=2, mod1=0), _predication_off, set()),
    "SFPSWAP min/max": (_thread("SFPSWAP", vd=1, vc=2, mod1=1), None, {1, 2}),
    "SFPSWAP under a macro reads VB": (_macro("SFPSWAP", vd=1, vb=3, vc=2, mod1=1), None, {2, 3}),
    "SFPSWAP with the dest index payload": (_thread("SFPSWAP", vd=1, vc=2, mod1=1), _dest_index, {1, 2, 5, 6}),
    "SFPLUT with |L3| < 1": (_thread("SFPLUT", vd=4), _l3_is(0xBF000000), {0, 3}),
    "SFPLUTFP32 FP32_3ENTRY": (_thread("SFPLUTFP32", vd=0, mod1=0), _l3_is(0x3FC00000), {1, 3, 5}),
    "SFPLUTFP32 FP16_3ENTRY": (_thread("SFPLUTFP32", vd=0, mod1=10), _l3_is(0x40800000), {2, 3, 7}),
    "SFPSHFT2 COPY4": (_thread("SFPSHFT2", vd=0, vc=5, mod1=0), None, {1, 2, 3}),
    "SFPSHFT2 SHFLROR1 capturing with VD 9": (_thread("SFPSHFT2", vd=9, vc=5, mod1=3), None, {5}),
    "SFPSHFT2 shift by VC": (_thread("SFPSHFT2", vd=0, vb=4, vc=5, mod1=5), None, {4, 5}),
    "SFPTRANSP": (_thread("SFPTRANSP"), None, set(range(8))),
    "SFPCONFIG LaneConfig from L0": (_thread("SFPCONFIG", vd=15, mod1=0), None, {0}),
    "SFPCONFIG LaneConfig from Imm16": (_thread("SFPCONFIG", vd=15, mod1=1, imm16=4), None, set()),
    "SFPCONFIG L12 with the backdoor open": (_thread("SFPCONFIG", vd=12, mod1=0), _backdoor_open, {0}),
    "SFPMOV from the PRNG": (_thread("SFPMOV", vd=1, vc=9, mod1=8), None, set()),
    "SFPMOV negated": (_thread("SFPMOV", vd=1, vc=9, mod1=1), None, {9}),
}



def _bh(mnemonic: str, **fields) -> Operands:
    return regular_operands(decode(encode(mnemonic, Arch.BLACKHOLE, **fields), Arch.BLACKHOLE))


def _stack_of_one(st):
    st.flag_stack = [FlagStackEntry(np.ones(LANES, dtype=bool), np.ones(LANES, dtype=bool))]


HAND_PICKED.update({
    "BH SFPAND USE_VB": (_bh("SFPAND", vd=1, vb=2, vc=3, mod1=1), None, {2, 3}),
    "BH SFPAND without USE_VB reads VD": (_bh("SFPAND", vd=1, vb=2, vc=3, mod1=0), None, {1, 3}),
    "BH SFPOR USE_VB": (_bh("SFPOR", vd=1, vb=2, vc=3, mod1=1), None, {2, 3}),
    "BH SFPSHFT VC by Imm12": (_bh("SFPSHFT", vd=1, vc=3, mod1=5, imm12=3), None, {3}),
    "BH SFPSHFT VD by Imm12": (_bh("SFPSHFT", vd=1, vc=3, mod1=1, imm12=-3), None, {1}),
    "BH SFPSHFT arithmetic by VC": (_bh("SFPSHFT", vd=1, vc=3, mod1=2), None, {1, 3}),
    "BH SFPLE SET_CC": (_bh("SFPLE", vd=1, vc=2, mod1=1), None, {1, 2}),
    "BH SFPGT SET_VD": (_bh("SFPGT", vd=1, vc=2, mod1=8), None, {1, 2}),
    "BH SFPGT SET_VD to L9": (_bh("SFPGT", vd=9, vc=2, mod1=8), None, set()),
    "BH SFPLE MUTATE_STACK, empty stack": (_bh("SFPLE", vd=1, vc=2, mod1=2), None, set()),
    "BH SFPLE MUTATE_STACK (AND)": (_bh("SFPLE", vd=9, vc=2, mod1=2), _stack_of_one, {9, 2}),
    "BH SFPGT VD compared with itself": (_bh("SFPGT", vd=2, vc=2, mod1=9), None, set()),
    "BH SFPMUL24": (_bh("SFPMUL24", vd=0, va=1, vb=2, vc=3), None, {1, 2, 3}),
    "BH SFPMUL24 INDIRECT_VA": (_bh("SFPMUL24", vd=0, va=1, vb=2, vc=3, mod1=4), _l7_selects(5), {2, 3, 5, 7}),
    "BH SFPARECIP RECIP": (_bh("SFPARECIP", vd=1, vb=2, vc=3, mod1=0), None, {3}),
    "BH SFPARECIP COND_RECIP": (_bh("SFPARECIP", vd=1, vb=2, vc=3, mod1=1), None, {2, 3}),
    "BH SFPARECIP EXP": (_bh("SFPARECIP", vd=1, vb=2, vc=3, mod1=2), None, {3}),
    "BH SFPARECIP to L9": (_bh("SFPARECIP", vd=9, vb=2, vc=3, mod1=1), None, set()),
    "BH SFPSHFT2 SHFLROR1 to L9 captures nothing": (_bh("SFPSHFT2", vd=9, vc=5, mod1=3), None, set()),
    "BH SFPCAST INT32_SM32": (_bh("SFPCAST", vd=1, vc=3, mod1=3), None, {3}),
})


@pytest.mark.parametrize("name", list(HAND_PICKED))
def test_hand_picked(name):
    x, setup, expected = HAND_PICKED[name]
    rng = np.random.default_rng([ord(c) for c in name])
    state = random_state(rng, tame=True, arch=x.ins.op.arch)
    state.lane_config &= ~U32(1 << LaneConfigBit.ENABLE_DEST_INDEX)
    if setup is not None:
        setup(state)
    assert lreg_reads(x, state) == expected
    assert imprecise(rng, x, state) == []
    check_sound(rng, x, state)
