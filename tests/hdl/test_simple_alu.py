"""SimpleAlu (the Simple sub-unit's per-lane arithmetic) against the golden model.

For every covered instruction and every Mod1 mode that behaves differently,
random machine states (L0-L7 mixing special floats, integer extremes and random
words) run one instruction on `model.machine.Machine`; each lane's LReg write
and new LaneFlags are then compared with what SimpleAlu's outputs imply. Half
the states run with UseLaneFlagsForLaneEnable clear and random LaneFlags (so an
inversion shows), half with both set in every lane (so SFPSETCC's test shows);
every lane is enabled and VD < 8, so the caller's rules are all "apply".
Each architecture's ALU runs its own table: Blackhole adds SFPLE/SFPGT,
SFPARECIP, SFPCAST's integer modes, SFPSHFT's ARITHMETIC and ARG_IMM_USE_VC
and SFPAND/SFPOR's USE_VB.

Mod1 bits that a mode ignores, Mod1 of the opcodes without a Mod1 field, and
the bits of [23:12] outside an opcode's immediate are filled with random junk
in the word the model executes, so the RTL is shown to ignore them too. VB is
the register the model's thread issue resolves (`regular_operands`: VD where
the functional model says `VB = VD`), junk for an opcode without VB.
"""

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.isa import Opcode, opcode
from tensix_sfpu.hdl.simple_alu import SimpleAlu
from tests.hdl.hdl_sim import evaluate
from tensix_sfpu.model.asm import disassemble
from tensix_sfpu.model.isa import ISA, Arch, decode, encode
from tensix_sfpu.model.machine import Machine, regular_operands
from tensix_sfpu.model.state import LANES, SfpuState

OUTPUTS = ["result", "writes", "cond", "cond_valid", "invert"]

STATES_PER_MODE = 32          # x 32 lanes: about 1,000 lanes per instruction/mode
SLOW_STATES_PER_MODE = 960    # about 30,000

# mnemonic -> [(Mod1 of the mode, Mod1 bits the mode does not depend on)]
MODES = {
    "SFPABS": [(0, 0b1110), (1, 0b1110)],                              # INT, FLOAT
    "SFPAND": [(0, 0b1111)],                                           # no Mod1 field
    "SFPOR": [(0, 0b1111)],
    "SFPXOR": [(0, 0b1111)],
    "SFPNOT": [(0, 0b1111)],
    "SFPLZ": [(m, 0b0001) for m in range(0, 16, 2)],                   # CC_NE0, NOSGN_MASK, CC_COMP
    "SFPSHFT": [(0, 0b1110), (1, 0b1110)],                             # VC, ARG_IMM
    "SFPIADD": ([(m, 0) for m in range(0, 16, 2)]                      # +VD / -VD x CC_NONE x CC_GTE0
                + [(m, 0b0010) for m in range(1, 16, 4)]),             # ARG_IMM (bit 1 ignored)
    "SFPEXEXP": [(m, 0b0100) for m in (0, 1, 2, 3, 8, 9, 10, 11)],     # NODEBIAS, SET_CC_SGN, SET_CC_COMP
    "SFPEXMAN": [(0, 0b1110), (1, 0b1110)],                            # hidden bit, PAD9
    "SFPSETEXP": [(0, 0b1100), (2, 0b1100), (1, 0b1110)],              # VD low bits, VD exponent, Imm8
    "SFPSETMAN": [(0, 0b1110), (1, 0b1110)],
    "SFPSETSGN": [(0, 0b1110), (1, 0b1110)],
    "SFPDIVP2": [(0, 0b1110), (1, 0b1110)],                            # set, ADD
    "SFPMOV": [(m, 0b0100) for m in range(4)],                         # NEGATE, ALL_LANES_ENABLED
    "SFPSETCC": [(0, 0), (2, 0), (4, 0), (6, 0),                       # <0, !=0, >=0, ==0
                 (1, 0b0110), (8, 0b0111)],                            # IMM_BIT0, CLEAR
}
# Blackhole's: the same, with its new modes and instructions.
BH_MODES = {
    **MODES,
    "SFPAND": [(0, 0b1110), (1, 0b1110)],                              # VD, USE_VB
    "SFPOR": [(0, 0b1110), (1, 0b1110)],
    "SFPSHFT": [(0, 0b1100), (2, 0b1100),                              # VC amount, logical / ARITHMETIC
                (1, 0b1000), (3, 0b1000), (5, 0b1000), (7, 0b1000)],   # Imm12, x ARITHMETIC x ARG_IMM_USE_VC
    "SFPCAST": [(2, 0b1100), (3, 0b1100)],                             # INT32_ABS, INT32_SM32 (not CastToFp32's)
    "SFPLE": [(m, 0b0110) for m in (0, 1, 8, 9)],                      # SET_CC x SET_VD (the stack is empty)
    "SFPGT": [(m, 0b0110) for m in (0, 1, 8, 9)],
    "SFPARECIP": [(0, 0), (1, 0), (2, 0b1101), (4, 0b1011)],           # RECIP, COND_RECIP, EXP (2-15)
}
ARCH_MODES = {Arch.WORMHOLE: MODES, Arch.BLACKHOLE: BH_MODES}
ARCH_CASES = [(arch, mn) for arch, modes in ARCH_MODES.items() for mn in modes]

# LReg values: special floats, integer extremes and bit patterns.
SPECIAL_WORDS = np.array([
    0x00000000, 0x80000000,                          # +0, -0 (also INT32_MIN)
    0x00000001, 0x00400000, 0x007FFFFF,              # denormals
    0x80000001, 0x80400000, 0x807FFFFF,
    0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,  # min / max normals
    0x7F800000, 0xFF800000,                          # +-Inf
    0x7F800001, 0x7FC00000, 0x7FFFFFFF,              # NaNs
    0xFF800001, 0xFFC00000, 0xFFFFFFFF,
    0x3F800000, 0xBF800000, 0x3F000000, 0x3FFFFFFF,  # exponents 127 and 126
    0x7FFFFFFE, 0x80000001, 0x00000001, 0xFFFFFFFE,  # next to the integer extremes above
    0xFFFFF800, 0x000007FF, 0x0000001F, 0xFFFFFFE1,  # Imm12 range, shift amounts +-31
], dtype=np.uint32)

# 12-bit immediates: sign boundary, shift amounts around 0 and 32, exponent bytes.
SPECIAL_IMMS = [0x000, 0x001, 0x01F, 0x020, 0x021, 0x07F, 0x080, 0x0FF, 0x100, 0x7FF,
                0x800, 0x801, 0xF81, 0xFDF, 0xFE0, 0xFE1, 0xFFF, 0xF00]


def lane_values(rng, shape) -> np.ndarray:
    """Random LReg words: specials, small signed integers, random words,
    floats with interesting exponents, and integers of random bit length."""
    n = int(np.prod(shape))
    source = rng.integers(0, 5, n)
    specials = rng.choice(SPECIAL_WORDS, n)
    small = (rng.integers(-40, 41, n) & 0xFFFFFFFF).astype(np.uint32)
    words = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    exponents = rng.choice([0, 1, 2, 125, 126, 127, 128, 129, 253, 254, 255], n).astype(np.uint32)
    exponents = np.where(rng.random(n) < 0.3, rng.integers(0, 256, n), exponents).astype(np.uint32)
    floats = (words & np.uint32(0x807FFFFF)) | (exponents << np.uint32(23))
    lengths = rng.integers(0, 33, n).astype(np.uint64)
    narrow = (words.astype(np.uint64) & ((np.uint64(1) << lengths) - np.uint64(1))).astype(np.uint32)
    picked = np.choose(source, [specials, small, words, floats, narrow])
    return picked.astype(np.uint32).reshape(shape)


def random_imm(rng) -> int:
    if rng.random() < 0.4:
        return int(rng.choice(SPECIAL_IMMS))
    if rng.random() < 0.3:
        return int(rng.integers(-40, 41)) & 0xFFF
    return int(rng.integers(0, 1 << 12))


def instruction_word(mnemonic: str, vd: int, vc: int, mod1: int, imm: int, arch: Arch = Arch.WORMHOLE) -> int:
    """The word from `model.isa.encode`, plus `mod1` and `imm` junk in the
    bits [3:0] and [23:12] that the opcode has no field for (a VB field in
    [15:12] takes `imm`'s bits too)."""
    op = ISA[arch].opcodes[mnemonic]
    fields = {"vd": vd, "vc": vc}
    if op.has("mod1"):
        fields["mod1"] = mod1
    for name, f in op.field_map.items():
        if name.startswith("imm") or name == "vb":
            raw = (imm >> (f.lo - 12)) & ((1 << f.width) - 1)
            fields[name] = raw - (1 << f.width) if f.signed and raw >> (f.width - 1) else raw
    word = encode(mnemonic, arch, **fields)
    unused = ~op.used_mask & 0x00FFF00F
    word |= ((imm << 12) | mod1) & unused
    assert (word & 0xF, (word >> 12) & 0xFFF) == (mod1, imm)
    return word


def model_cases(mnemonic: str, states_per_mode: int, seed: int, arch: Arch = Arch.WORMHOLE):
    """Run the model on random states; return the per-lane DUT input vectors
    and what the model did (as arrays over all lanes of all states)."""
    rng = np.random.default_rng(seed)
    vectors, words = [], []
    cols = {k: [] for k in ("written", "value", "old_flags", "use_flags", "new_flags")}
    for mode, ignored in ARCH_MODES[arch][mnemonic]:
        for s in range(states_per_mode):
            state = SfpuState(arch=arch)
            state.lregs[:8] = lane_values(rng, (8, LANES))
            use = s % 2 == 1
            state.use_flags[:] = use
            state.lane_flags = np.ones(LANES, dtype=bool) if use else rng.random(LANES) < 0.5
            mod1 = mode | (int(rng.integers(0, 16)) & ignored)
            vd = int(rng.integers(0, 8))
            vc = int(rng.integers(0, 8)) if rng.random() < 0.85 else int(rng.integers(8, 16))
            imm = random_imm(rng)
            word = instruction_word(mnemonic, vd, vc, mod1, imm, arch)

            lregs, old_flags = state.lregs.copy(), state.lane_flags.copy()
            machine = Machine(state, strict=False)
            effects = machine.execute(word)
            assert not machine.warnings, machine.warnings
            assert np.array_equal(state.use_flags, np.full(LANES, use))

            written = np.zeros(LANES, dtype=bool)
            value = lregs[vd].copy()
            for w in effects.lreg_writes:
                assert w.reg == vd, f"{disassemble(word, arch=Arch.WORMHOLE)} wrote L{w.reg}"
                written |= w.mask
                value = np.where(w.mask, w.values, value)
            vb_index = regular_operands(decode(word, arch)).vb
            vb = lane_values(rng, LANES) if vb_index is None else lregs[vb_index]

            cols["written"].append(written)
            cols["value"].append(value)
            cols["old_flags"].append(old_flags)
            cols["use_flags"].append(np.full(LANES, use))
            cols["new_flags"].append(state.lane_flags.copy())
            words += [word] * LANES
            op = opcode(mnemonic)
            vectors += [dict(op=op, mod1=word & 0xF, imm=(word >> 12) & 0xFFF,
                             vb=int(vb[lane]), vc=int(lregs[vc][lane])) for lane in range(LANES)]
    return vectors, np.array(words), {k: np.concatenate(v) for k, v in cols.items()}


def check_against_model(mnemonic: str, states_per_mode: int, seed: int, arch: Arch = Arch.WORMHOLE) -> None:
    vectors, words, expected = model_cases(mnemonic, states_per_mode, seed, arch)
    results = evaluate(SimpleAlu(arch), vectors, OUTPUTS)
    got = {name: np.array([r[name] for r in results], dtype=np.uint64) for name in OUTPUTS}

    writes = got["writes"].astype(bool)
    cond, valid, invert = (got[k].astype(bool) for k in ("cond", "cond_valid", "invert"))
    # What the caller does with the flag outputs (VD < 8, every lane enabled):
    # SFPSETCC's test is ANDed with UseLaneFlagsForLaneEnable.
    if mnemonic == "SFPSETCC":
        cond = cond & expected["use_flags"]
    flags = np.where(valid, cond, expected["old_flags"]) ^ invert

    bad = ((writes != expected["written"])
           | (expected["written"] & (got["result"] != expected["value"]))
           | (flags != expected["new_flags"]))
    if bad.any():
        lines = []
        for i in np.flatnonzero(bad)[:10]:
            v = vectors[i]
            lines.append(
                f"{disassemble(int(words[i]), arch=arch)} (0x{words[i]:08X}) vb=0x{v['vb']:08X} vc=0x{v['vc']:08X}: "
                f"model writes={int(expected['written'][i])} 0x{int(expected['value'][i]):08X} "
                f"flags {int(expected['old_flags'][i])}->{int(expected['new_flags'][i])}; "
                f"rtl writes={int(writes[i])} 0x{int(got['result'][i]):08X} cond={int(got['cond'][i])} "
                f"valid={int(valid[i])} invert={int(invert[i])} -> {int(flags[i])}")
        pytest.fail(f"{bad.sum()} of {len(bad)} lanes differ:\n" + "\n".join(lines))


@pytest.mark.parametrize("arch, mnemonic", ARCH_CASES, ids=lambda v: getattr(v, "value", v))
def test_matches_model(arch, mnemonic):
    check_against_model(mnemonic, STATES_PER_MODE, seed=sum(mnemonic.encode()), arch=arch)


@pytest.mark.slow
@pytest.mark.parametrize("arch, mnemonic", ARCH_CASES, ids=lambda v: getattr(v, "value", v))
def test_matches_model_slow(arch, mnemonic):
    check_against_model(mnemonic, SLOW_STATES_PER_MODE, seed=1000 + sum(mnemonic.encode()), arch=arch)


# Hand-worked values from the instruction pages, independent of the model:
# (mnemonic, mod1, imm, vb, vc, result, cond)
DOC_EXAMPLES = [
    ("SFPABS", 1, 0, 0, 0xFF800000, 0x7F800000, None),      # -Inf -> +Inf
    ("SFPABS", 1, 0, 0, 0xFF800001, 0xFF800001, None),      # -NaN stays -NaN
    ("SFPABS", 1, 0, 0, 0x80000000, 0x00000000, None),      # -0 -> +0
    ("SFPABS", 0, 0, 0, 0x80000000, 0x80000000, None),      # INT32_MIN stays
    ("SFPABS", 0, 0, 0, 0xFFFFFFFB, 0x00000005, None),
    ("SFPLZ", 2, 0, 0, 0x00000000, 32, 0),
    ("SFPLZ", 2, 0, 0, 0x00010000, 15, 1),
    ("SFPLZ", 2, 0, 0, 0x80000000, 0, 1),
    ("SFPLZ", 6, 0, 0, 0x80000000, 32, 0),                  # NOSGN_MASK: -0 counts as zero
    ("SFPSHFT", 1, 0xFFF, 0x80000001, 0, 0x40000000, None),  # Imm12 = -1: right by 1
    ("SFPSHFT", 1, 0x020, 0x00000003, 0, 0x00000003, None),  # 32 & 31 = 0
    ("SFPSHFT", 0, 0, 0x0000F000, 0xFFFFFFF4, 0x0000000F, None),  # VC = -12
    ("SFPIADD", 1, 0x800, 0, 0x00000000, 0xFFFFF800, 1),    # + (-2048), < 0
    ("SFPIADD", 2, 0, 5, 3, 0xFFFFFFFE, 1),                  # 3 - 5
    ("SFPEXEXP", 2, 0, 0, 0x3F000000, 0xFFFFFFFF, 1),       # 0.5: exponent -1
    ("SFPEXEXP", 3, 0, 0, 0xFF800000, 0x000000FF, 0),       # NODEBIAS
    ("SFPEXMAN", 0, 0, 0, 0x00000000, 0x00800000, None),    # hidden bit even for 0
    ("SFPSETEXP", 1, 0xF7F, 0, 0xC0123456, 0xBF923456, None),  # Imm8 = 0x7F
    ("SFPSETMAN", 1, 0xFFF, 0, 0x3F800000, 0x3FFFF800, None),
    ("SFPSETSGN", 0, 0, 0x80000000, 0x7FC00000, 0xFFC00000, None),  # NaN not special
    ("SFPDIVP2", 1, 0x0FF, 0, 0x40000000, 0x3F800000, None),  # 2.0 + (-1) -> 1.0
    ("SFPDIVP2", 1, 0x001, 0, 0x7F800000, 0x7F800000, None),  # Inf kept
    ("SFPDIVP2", 1, 0x001, 0, 0x7F000000, 0x7F800000, None),  # wraps into Inf
    ("SFPMOV", 1, 0, 0, 0x7FC00000, 0xFFC00000, None),
    ("SFPSETCC", 0, 0, 0, 0x80000000, None, 1),             # -0 counts as < 0
    ("SFPSETCC", 6, 0, 0, 0x80000000, None, 0),
    ("SFPSETCC", 9, 1, 0, 0x80000000, None, 0),             # CLEAR beats IMM_BIT0
    ("SFPSETCC", 7, 1, 0, 0x00000000, None, 1),             # IMM_BIT0 beats the test
]


# Blackhole's, worked from its pages (docs/blackhole.md), in the same form.
BH_DOC_EXAMPLES = [
    ("SFPSHFT", 3, 0xFFF, 0x80000001, 0, 0xC0000000, None),       # ARITHMETIC, Imm12 = -1
    ("SFPSHFT", 1, 0xFFF, 0x80000001, 0, 0x40000000, None),       # still logical without it
    ("SFPSHFT", 2, 0, 0x8000F000, 0xFFFFFFF4, 0xFFF8000F, None),  # ARITHMETIC, VC = -12
    ("SFPSHFT", 5, 0x004, 0xFFFFFFFF, 0x00000001, 0x00000010, None),  # ARG_IMM_USE_VC: VC << 4
    ("SFPSHFT", 7, 0xFFC, 0x00000000, 0x80000010, 0xF8000001, None),  # VC >> 4, arithmetic
    ("SFPSHFT", 4, 0, 0x00000003, 0x00000002, 0x0000000C, None),  # USE_VC needs ARG_IMM: VD << VC
    ("SFPCAST", 2, 0, 0, 0xFFFFFFFB, 0x00000005, None),           # INT32_ABS
    ("SFPCAST", 2, 0, 0, 0x80000000, 0x80000000, None),           # -2**31 stays
    ("SFPCAST", 3, 0, 0, 0xFFFFFFFB, 0x80000005, None),           # INT32_SM32: -5 to sign-magnitude
    ("SFPCAST", 3, 0, 0, 0x80000005, 0xFFFFFFFB, None),           # ... and back
    ("SFPCAST", 3, 0, 0, 0x00000007, 0x00000007, None),
    ("SFPLE", 9, 0, 0x80000000, 0x00000000, 0xFFFFFFFF, 1),       # -0 <= +0
    ("SFPGT", 9, 0, 0x80000000, 0x00000000, 0x00000000, 0),
    ("SFPGT", 9, 0, 0x00000000, 0x80000000, 0xFFFFFFFF, 1),       # +0 > -0
    ("SFPLE", 9, 0, 0xFFC00000, 0xFF800000, 0xFFFFFFFF, 1),       # -NaN <= -Inf
    ("SFPGT", 9, 0, 0x3F800000, 0x3F800000, 0x00000000, 0),       # equal
    ("SFPLE", 9, 0, 0x3F800000, 0x3F800000, 0xFFFFFFFF, 1),
    ("SFPGT", 9, 0, 0xBF800000, 0xC0000000, 0xFFFFFFFF, 1),       # -1 > -2
    ("SFPARECIP", 0, 0, 0, 0x40000000, 0x3EFF0000, None),         # 1/2: 1.9921875 * 2**-2
    ("SFPARECIP", 0, 0, 0, 0xC0000000, 0xBEFF0000, None),         # the sign put back
    ("SFPARECIP", 0, 0, 0, 0x00000001, 0x7F800000, None),         # below 2**-126: +Inf
    ("SFPARECIP", 0, 0, 0, 0x80000000, 0xFF800000, None),
    ("SFPARECIP", 0, 0, 0, 0x7F000000, 0x00000000, None),         # from 2**126 up: 0
    ("SFPARECIP", 1, 0, 0x80000000, 0xC0000000, 0x3EFF0000, None),  # COND_RECIP, VB < 0: no sign
    ("SFPARECIP", 1, 0, 0x7FFFFFFF, 0xC0000000, 0xC0000000, None),  # VB >= 0: VC
    ("SFPARECIP", 2, 0, 0, 0x00000000, 0x3F800000, None),         # e**0 = 1
    ("SFPARECIP", 2, 0, 0, 0x3C000000, 0x3F810000, None),         # below 2**-6: 1 + 2**-7
    ("SFPARECIP", 2, 0, 0, 0xBC00ABCD, 0xBF81ABCD, None),         # ... with x's low bits and sign
    ("SFPARECIP", 9, 0, 0, 0x40000000, 0x40800000, None),         # from 2.0 up: 4.0
]


@pytest.mark.parametrize("arch, examples", [(Arch.WORMHOLE, DOC_EXAMPLES), (Arch.BLACKHOLE, BH_DOC_EXAMPLES)],
                         ids=["wormhole", "blackhole"])
def test_documentation_examples(arch, examples):
    vectors = [dict(op=opcode(mn), mod1=mod1, imm=imm, vb=vb, vc=vc)
               for mn, mod1, imm, vb, vc, _, _ in examples]
    for ex, got in zip(examples, evaluate(SimpleAlu(arch), vectors, OUTPUTS)):
        result, cond = ex[5], ex[6]
        if result is not None:
            assert (got["writes"], got["result"]) == (1, result), ex
        if cond is not None:
            assert (got["cond_valid"], got["cond"]) == (1, cond), ex


def test_uncovered_instructions_do_nothing():
    covered = {opcode(mn) for mn in MODES} - {Opcode.MOV}
    vectors = [dict(op=op, mod1=mod1, imm=0xFFF, vb=0xFFFFFFFF, vc=0xFFFFFFFF)
               for op in Opcode if op not in covered for mod1 in range(16)
               if op != Opcode.MOV or mod1 & 8]                   # SFPMOV FROM_SPECIAL
    for v, got in zip(vectors, evaluate(SimpleAlu(Arch.WORMHOLE), vectors, OUTPUTS)):
        assert (got["writes"], got["cond_valid"], got["invert"]) == (0, 0, 0), v


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_converts_to_verilog(arch):
    text = verilog.convert(SimpleAlu(arch), name="simple_alu")
    assert "module simple_alu" in text
