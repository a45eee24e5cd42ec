"""Directed programs: every opcode with every value of its modifier field.

`directed_programs(seed, arch)` returns one assembly program per group of
opcodes of the architecture (`groups(arch)`: Wormhole's, and on Blackhole its
new instructions beside their kin). Each
starts from LRegs filled with a mix of special and ordinary values, runs every
modifier value of each opcode once with all lanes enabled and once more under
predication (the lanes where L3 is negative), with random registers and
immediates, and keeps to the scheduling rules (an SFPNOP after each two-cycle
instruction) so that every cycle is defined. They are meant for lock-step
comparison of the RTL with the cycle model, where every cycle's writes are
compared, so the programs need no checks of their own.
"""

from __future__ import annotations

import numpy as np

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import Program, assemble

LANES = 32
# FP32 specials, FP32 ordinary values, small and negative integers.
SPECIALS = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
            0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F000000, 0x4B000000, 0x00800000, 0x42B10000]


def lane_values(rng: np.random.Generator) -> list[int]:
    kind = rng.random(LANES)
    special = rng.choice(SPECIALS, LANES)
    floats = np.float32(rng.normal(0, 8, LANES)).view(np.uint32)
    ints = rng.integers(-40, 40, LANES).astype(np.int64) & 0xFFFFFFFF
    raw = rng.integers(0, 1 << 32, LANES, dtype=np.uint64)
    values = np.where(kind < 0.3, special, np.where(kind < 0.6, floats, np.where(kind < 0.8, ints, raw)))
    return [int(v) for v in values]


def lreg_prelude(rng: np.random.Generator) -> list[str]:
    return [f".lreg {r} " + " ".join(f"0x{v:08X}" for v in lane_values(rng)) for r in range(8)]


PREDICATE_ON = ["sfpencc mod1=2 imm2=1", "sfpsetcc vc=3 mod1=0"]   # enable the lanes where L3 < 0
PREDICATE_OFF = ["sfpencc mod1=2 imm2=0"]

def modifier_field(op: isa.Opcode) -> str | None:
    """The field whose every value an opcode is run with (its modifier)."""
    return "mod0" if op.has("mod0") else "mod1" if op.has("mod1") else None


# Per architecture (Blackhole's SFPAND, SFPOR and SFPPUSHC gain a Mod1); MODIFIER is the default architecture's.
MODIFIERS = {arch: {op.mnemonic: modifier_field(op) for op in table.table} for arch, table in isa.ISA.items()}
MODIFIER = MODIFIERS[isa.DEFAULT_ARCH]
NOT_DIRECTED = {"SFPLOADMACRO"}      # covered by the macro programs


def _random_register(rng, name: str) -> int:
    if name == "vd":
        # Mostly L0-L7; sometimes a constant (nothing written) or 12-15 (the backdoor).
        return int(rng.choice([*range(8)] * 4 + [8, 9, 10, 11, 12, 13, 14, 15]))
    return int(rng.integers(0, 16))


def instruction(rng, mnemonic: str, arch: isa.Arch, **fixed: int) -> str:
    op = isa.ISA[arch].opcodes[mnemonic]
    parts = [mnemonic.lower()]
    for f in op.fields:
        if f.name in fixed:
            value = fixed[f.name]
        elif f.name in ("vd", "vb", "vc", "va"):
            value = _random_register(rng, f.name)
        elif f.name == "imm10":
            value = int(rng.integers(0, 64))
        elif f.signed:
            value = int(rng.integers(-(1 << (f.width - 1)), 1 << (f.width - 1)))
        else:
            value = int(rng.integers(0, 1 << f.width))
        parts.append(f"{f.name}={value}")
    return " ".join(parts)


def _with_spacing(line: str, arch: isa.Arch) -> list[str]:
    """The instruction, then an SFPNOP if its result takes two cycles (so the
    next instruction may read it and no rule is broken)."""
    ins = isa.decode(assemble(line, arch=arch).words[0], arch)
    return [line, "sfpnop"] if ins.latency > 1 or ins.two_cycles else [line]


def variants(rng, mnemonic: str, arch: isa.Arch) -> list[str]:
    field = MODIFIERS[arch][mnemonic]
    if mnemonic == "SFPSTOCHRND":
        # Its rounding mode is a field of its own: Wormhole's 1-bit `stochastic`, Blackhole's 2-bit `rnd_mode`.
        mode = "rnd_mode" if arch.features.round_mode_field else "stochastic"
        modes = 1 << isa.ISA[arch].opcodes[mnemonic].field_map[mode].width
        lines = [instruction(rng, mnemonic, arch, mod1=m, use_imm5=u, **{mode: r})
                 for m in range(8) for r in range(modes) for u in (0, 1)]
    elif field is None:
        lines = [instruction(rng, mnemonic, arch) for _ in range(3)]
    else:
        width = isa.ISA[arch].opcodes[mnemonic].field_map[field].width
        lines = [instruction(rng, mnemonic, arch, **{field: value}) for value in range(1 << width)]
    return [out for line in lines for out in _with_spacing(line, arch)]


GROUPS = {
    "load_store": ["SFPLOAD", "SFPSTORE", "SFPLOADI"],
    "mad": ["SFPMAD", "SFPADD", "SFPMUL", "SFPADDI", "SFPMULI"],
    "lut": ["SFPLUT", "SFPLUTFP32"],
    "simple_int": ["SFPIADD", "SFPSHFT", "SFPAND", "SFPOR", "SFPXOR", "SFPNOT", "SFPLZ", "SFPABS"],
    "simple_fp": ["SFPEXEXP", "SFPEXMAN", "SFPSETEXP", "SFPSETMAN", "SFPSETSGN", "SFPDIVP2", "SFPMOV"],
    "flags": ["SFPSETCC", "SFPENCC", "SFPPUSHC", "SFPPOPC", "SFPCOMPC"],
    "round": ["SFPSTOCHRND", "SFPCAST", "SFPSHFT2"],
    "cross_lane": ["SFPTRANSP", "SFPSWAP", "SFPNOP"],
    "config": ["SFPCONFIG"],
}
# Blackhole's new instructions, each in the group of its kin.
BLACKHOLE_ADDS = {"mad": ["SFPMUL24"], "simple_int": ["SFPLE", "SFPGT"], "simple_fp": ["SFPARECIP"]}


def groups(arch: isa.Arch) -> dict[str, list[str]]:
    """The opcode groups of `arch`'s directed programs: the later instructions
    join where `arch`'s table has them."""
    table = isa.ISA[arch].opcodes
    return {group: members + [m for m in BLACKHOLE_ADDS.get(group, []) if m in table]
            for group, members in GROUPS.items()}


def _arch_line(arch: isa.Arch) -> list[str]:
    return [] if arch is isa.DEFAULT_ARCH else [f".arch {arch.value}"]

# The Tensix context the load/store group runs in (addresses move with ADDR_MOD).
LOAD_STORE_SETUP = [".addr_mod 1 dst_incr=4", ".addr_mod 2 dst_incr=2 dst_cr=1", ".addr_mod 3 dst_clear=1",
                    ".dest_offset 8", ".srcb_format 5"]


# SFPMAD at the ends of the exponent range in every lane (each value in all 32 lanes): products and sums
# that overflow by up to three binades, land just below and above 2**-126, or cancel down to nothing.
MAD_EDGE_A = (0x7F000000, 0x7F7FFFFF, 0x7E800000, 0x00800000, 0x00FFFFFF, 0x80800000, 0x3F800000)
MAD_EDGE_B = (0x40000000, 0x40800000, 0x3FC00000, 0x3F000000, 0x3E800000, 0x40400000, 0x41000000, 0x3FFFFFFF)
MAD_EDGE_C = (0x00000000, 0xFF000000, 0x7F000000, 0x80FFFFFF)
MAD_EDGES = [line for c in MAD_EDGE_C for a in MAD_EDGE_A
             for line in (f".lreg 0 0x{a:08X}", f".lreg 2 0x{c:08X}",
                          *[f".lreg 1 0x{b:08X}\nsfpmad vd={3 + i % 4} va=0 vb=1 vc=2 mod1=0\nsfpnop"
                            for i, b in enumerate(MAD_EDGE_B)])]
# 1.0 * 1.0 + z, z = 2**-24 * (1 + 2**(j-23)): z's leading one lands on the guard bit, a tie, and only its
# mantissa bit j, shifted out, says the sum is above it (the sticky bit), for every j, added and subtracted.
MAD_EDGES += [".lreg 0 0x3F800000", ".lreg 1 0x3F800000"]
MAD_EDGES += [line for sign in (0, 1) for j in range(23)
              for line in (f".lreg 2 0x{sign << 31 | 103 << 23 | 1 << j:08X}",
                           f"sfpmad vd={3 + j % 4} va=0 vb=1 vc=2 mod1=0", "sfpnop")]
# Every bit of every LoadMacroConfig and LaneConfig register set at the end (the final state shows them):
# the templates and sequences written with all ones, LaneConfig and Misc through SFPCONFIG's OR, AND, XOR and
# XOR with all ones (every bit set, kept, cleared, set again), so that a wrong bit in any of those steps
# outlives the ones after it. An SFPNOP after each: the next instruction may not have VD >= 12.
CONFIG_ALL_ONES = ["sfploadi vd=0 mod0=10 imm16=0xFFFF", "sfploadi vd=0 mod0=8 imm16=0xFFFF",
                   *[f"sfpconfig vd={vd}" for vd in range(8)],
                   *[line for vd in (15, 8) for mod1 in (2, 4, 6, 6) for line in (f"sfpconfig vd={vd} mod1={mod1}",
                                                                                 "sfpnop")]]
# SFPPUSHC words with bits in the fields it ignores (tt-llk's TTI_SFPPUSHC passes imm12_math and lreg_c).
IGNORED_FIELDS = [line for v in (0x5A5A, 0xA5A5, 0xFFFF, 0x0101) for line in (f".word 0x{0x87000000 | v << 8:08X}",
                                                                                "sfppopc")]


# Sequences the per-opcode variants do not reach.
SPECIAL_PROGRAMS = {
    # The 8-entry stack: a push onto a full stack (undefined), the full-stack
    # SFPPOPC flaw, popping everything, a pop from the empty stack (undefined).
    "flag_stack": [*PREDICATE_ON, *(["sfppushc", "sfpsetcc vc=2 mod1=2"] * 9), "sfppopc mod1=3",
                   "sfpcompc", *(["sfppopc mod1=0"] * 9), "sfpcompc", *PREDICATE_OFF],
    # LaneConfig ENABLE_DEST_INDEX, CAPTURE_DEFAULT_DEST_INDEX and EXCHANGE_SRCB_SRCC:
    # loads capture their Dst position into L4-L7 and SFPSWAP moves it along.
    "dest_index": ["sfpconfig vd=15 mod1=1 imm16=0x10C", "sfpload vd=0 mod0=3 imm10=4",
                   "sfpload vd=1 mod0=1 imm10=8", "sfpswap vd=0 vc=1 mod1=1", "sfpnop",
                   "sfpswap vd=2 vc=3 mod1=0", "sfpnop", "sfpswap vd=1 vc=6 mod1=2", "sfpnop",
                   "sfpconfig vd=15 mod1=1 imm16=0x104", "sfpswap vd=3 vc=0 mod1=5", "sfpnop",
                   "sfpconfig vd=15 mod1=1 imm16=0"],
    # The Tensix counters the thread moves between SFPLOAD/SFPSTOREs (model.tensix):
    # SETRWC with each carry mode, INCRWC plain and through Dst_Cr, an ADDR_MOD
    # written by SETC16, a recorded sequence replayed, and Tensix NOPs (an issue
    # cycle with nothing for the SFPU).
    "tensix_counters": ["TTI_SETC16(ADDR_MOD_DST_SEC2_DestIncr_ADDR32, 4 | (1 << 10))",
                        "TTI_SETC16(ADDR_MOD_AB_SEC2_SrcAIncr_ADDR32, 3 | (2 << 8))",
                        *[f"sfpstore vd={r} mod0=3 imm10={4 * r}" for r in range(8)],
                        "TTI_INCRWC(0, 2, 1, 1)", "TTI_NOP", "sfpload vd=0 mod0=3 addr_mod=2", "TTI_NOP",
                        "TTI_INCRWC(7, 3, 2, 1)",
                        "sfpload vd=1 mod0=3 addr_mod=0", "TTI_SETRWC(0, 4, 8, 0, 0, 4)",
                        "sfpstore vd=1 mod0=3 addr_mod=2", "TTI_SETRWC(3, 8, 2, 5, 6, 15)",
                        "sfpload vd=2 mod0=3 imm10=2", "TTI_SETRWC(0, 0, 1, 2, 3, 7)", "sfpswap vd=2 vc=0 mod1=1",
                        "sfpnop", "TTI_SETRWC(0, 1, 1, 1, 1, 3)",
                        "TTI_REPLAY(4, 3, 1, 1)", "sfpload vd=3 mod0=3 addr_mod=2", "TTI_INCRWC(4, 6, 0, 0)",
                        "sfpstore vd=0 mod0=3 imm10=2", "TTI_REPLAY(4, 3, 0, 0)", "TTI_REPLAY(5, 2, 0, 0)",
                        "TTI_SETRWC(0, 0, 0, 0, 0, 4)", "sfpload vd=4 mod0=3 addr_mod=0"],
    # The eight below were written for mutants of the RTL that every other program let through
    # (docs/verification.md, "Mutants of the RTL").
    "dst_formats": [],                   # generated: _dst_format_lines
    "lane_config_mixed": [],             # generated: _lane_config_lines
    "lane_shuffles": [],                 # generated: _lane_shuffle_lines
    "tensix_random": [],                 # generated: _tensix_counter_lines
    "config_all_ones": CONFIG_ALL_ONES,
    "mad_edges": MAD_EDGES,
    "ignored_fields": IGNORED_FIELDS,
    "flag_boolean_ops": [],              # generated: _flag_boolean_lines
}


# Blackhole only: the thread's interlocks, on finite operands. The stall after a MAD-class instruction (SFPADD,
# SFPMOV and SFPSTORE read what the SFPMAD/SFPMULI before them writes; INDIRECT_VD writes every
# LReg), none after an SFPNOP or for a SETRWC, the stall logic's gap for SFPIADD's VD, and only
# SFPNOP after SFPSHFT2 mode 4 and after SFPSWAP.
BLACKHOLE_PROGRAMS = {
    "stalls": [*(f"sfploadi vd={r} mod0=0 imm16={v:#x}" for r, v in ((2, 0x3F80), (3, 0x4000), (4, 0x4040),
                                                                     (6, 0xC0A0), (7, 0x0003))),
               "sfpmad vd=1 va=2 vb=3 vc=4 mod1=0", "sfpadd vd=5 va=1 vb=10 vc=6 mod1=0",
               "sfpmad vd=6 va=2 vb=3 vc=4 mod1=0", "sfpmov vd=7 vc=6 mod1=0",
               "sfpmad vd=2 va=2 vb=3 vc=4 mod1=0", "sfpnop", "sfpmul vd=3 va=2 vb=3 vc=9 mod1=0",
               "TTI_SETRWC(0, 0, 0, 0, 0, 4)", "sfpmov vd=0 vc=3 mod1=0",
               "sfpmad vd=0 va=2 vb=3 vc=4 mod1=8", "sfpxor vd=6 vc=5",
               "sfpshft2 vd=1 vc=2 imm12=0 mod1=4", "sfpmov vd=4 vc=1 mod1=0", "sfpnop",
               "sfpswap vd=1 vc=2 mod1=0", "sfpmov vd=4 vc=1 mod1=0", "sfpnop",
               "sfpmuli vd=4 imm16=0x4000 mod1=0", "sfpstore vd=4 mod0=3 imm10=0",
               "sfpmad vd=5 va=2 vb=3 vc=4 mod1=0", "sfpiadd vd=5 vc=1 imm12=1 mod1=5", "sfpnop"],
    # SFPSWAP's SWAP mode reads its LRegs in its second cycle, after the MAD-class result of the
    # instruction before it lands: into VC, into VD, into every lane by INDIRECT_VD (L7 = 4), and
    # under ENABLE_DEST_INDEX into the dest-index pair L4-L7 it exchanges.
    "swap_late_reads": [*(f"sfploadi vd={r} mod0=0 imm16={v:#x}" for r, v in ((1, 0xC0A0), (2, 0x3F80),
                                                                              (3, 0x4000), (4, 0x4040))),
                        "sfpmad vd=5 va=2 vb=3 vc=4 mod1=0", "sfpswap vd=1 vc=5 mod1=0", "sfpnop",
                        "sfpmad vd=1 va=3 vb=3 vc=4 mod1=0", "sfpswap vd=1 vc=5 mod1=0", "sfpnop",
                        "sfploadi vd=7 mod0=2 imm16=4",
                        "sfpmad vd=0 va=2 vb=4 vc=3 mod1=8", "sfpswap vd=3 vc=4 mod1=0", "sfpnop",
                        "sfpmov vd=7 vc=2 mod1=0",
                        "sfpconfig vd=15 mod1=1 imm16=0x4",
                        "sfpmad vd=6 va=3 vb=3 vc=3 mod1=0", "sfpswap vd=2 vc=1 mod1=0", "sfpnop",
                        "sfpmad vd=1 va=4 vb=4 vc=4 mod1=0", "sfpswap vd=2 vc=1 mod1=0", "sfpnop",
                        "sfpconfig vd=15 mod1=1 imm16=0"],
}


# FP16 data at the edges of its decode: all-ones (Inf with ENABLE_FP16A_INF), Inf's own pattern, -0, the
# largest denormal, the largest finite value.
FP16_EDGES = (0x7FFF, 0xFFFF, 0x7C00, 0x8000, 0x03FF, 0xFBFF)


DST32_LOADS = (3, 4, 10, 12)           # SFPLOAD Mod0 FP32, INT32, INT32_ALL, INT32_SM: one 32-bit datum


def _lreg_line(register: int, values) -> str:
    return f".lreg {register} " + " ".join(f"0x{int(v):08X}" for v in values)


def _dst_format_lines(rng) -> list[str]:
    """Data whose every bit is 0 in one register and 1 in another (a random
    word and its complement) and, in every lane, each FP16 pattern of
    `FP16_EDGES` in both halves; stored 32 bits wide and loaded back in every
    format with ENABLE_FP16A_INF off and on, so that every lane's load
    conversion sees every bit of its datum and every FP16 edge."""
    word = rng.integers(0, 1 << 32, LANES, dtype=np.uint64)
    data = [word, word ^ np.uint64(0xFFFFFFFF)]
    for r in range(2, 8):
        half = np.array([FP16_EDGES[(lane + r) % len(FP16_EDGES)] for lane in range(LANES)], dtype=np.uint64)
        data.append(half | half << np.uint64(16))
    lines = [".fp32_dest 1"]
    for r, values in enumerate(data):
        lines += [_lreg_line(r, values), f"sfpstore vd={r} mod0=3 imm10={4 * r}"]
    # A 32-bit datum at address A is two 16-bit ones, at 2A and 2A + 4: the 16-bit formats read both halves.
    for inf in (0, 1):
        lines.append(f"sfpconfig vd=15 mod1=1 imm16={inf}")
        for mod0 in range(16):
            addresses = range(0, 32, 4) if mod0 in DST32_LOADS else range(0, 64, 4)
            lines += [f"sfpload vd={(mod0 + a // 4) % 8} mod0={mod0} imm10={a}" for a in addresses]
    return lines


ROW_MASK_BITS = 0xF << 12                # LaneConfig's ROW_MASK: a set bit disables the lane's row


def _lane_config_lines(rng) -> list[str]:
    """LaneConfig different in each lane of a group of 8 (SFPCONFIG takes lanes
    0-7 of L0), random in every bit, under stores, loads, moves, swaps and
    backdoor template loads: a lane that follows its neighbour's bit is seen."""
    lines = [".fp32_dest 1"]
    first = rng.integers(0, 1 << 18, LANES) & ~ROW_MASK_BITS          # every lane enabled
    second = rng.integers(0, 1 << 18, LANES)
    # Each value and its complement: every bit of every lane is 0 in one round and 1 in the other.
    for config in (first, ~first & 0x3FFFF & ~ROW_MASK_BITS, second, ~second & 0x3FFFF):
        lines += [_lreg_line(0, config), "sfpconfig vd=15", "sfpnop"]
        for r in range(1, 8):
            lines += [_lreg_line(r, rng.integers(0, 1 << 32, LANES, dtype=np.uint64)),
                      f"sfpstore vd={r} mod0={int(rng.choice([0, 1, 2, 3, 4, 6, 12]))} imm10={4 * r}",
                      f"sfpload vd={8 - r} mod0={int(rng.choice([0, 1, 2, 3, 4, 6, 12]))} imm10={4 * r}"]
        lines += ["sfpmov vd=1 vc=2 mod1=0", "sfpswap vd=3 vc=4 mod1=0", "sfpnop", "sfpmov vd=13 vc=5 mod1=0",
                  "sfpiadd vd=14 vc=6 imm12=5 mod1=5"]
        # The flag instructions with VD 12-15 under predication, every lane enabled (L3 < 0) and SFPSETCC's
        # condition false (L2 > 0): backdoor loads in the lanes that allow them, flag updates in the others.
        lines += [".lreg 2 0x00000001", ".lreg 3 0x80000001", *PREDICATE_ON, "sfpsetcc vd=13 vc=2 mod1=0", "sfppushc vd=12", "sfpsetcc vd=14 vc=5 mod1=2",
                  "sfpcompc vd=15", "sfppopc vd=13 mod1=0", "sfpencc vd=12 mod1=2 imm2=1", *PREDICATE_OFF]
        lines += ["sfpconfig vd=15 mod1=1 imm16=0", "sfpnop"]
    return lines


def _lane_shuffle_lines(rng, arch: isa.Arch) -> list[str]:
    """Every SFPSHFT2 mode, six times over, each time on uniformly random words
    in L0-L7: a bit a lane shuffle gets from the wrong lane or bit shows."""
    lines = []
    for _ in range(6):
        lines += [_lreg_line(r, rng.integers(0, 1 << 32, LANES, dtype=np.uint64)) for r in range(8)]
        lines += [out for mode in range(7)      # VC one of the random registers, not a constant
                  for out in _with_spacing(instruction(rng, "SFPSHFT2", arch, mod1=mode,
                                                       vc=int(rng.integers(0, 8))), arch)]
    return lines


def _tensix_counter_lines(rng) -> list[str]:
    """SETRWC and INCRWC with random fields (every carry-register mode, every
    counter selected or not), an SFPLOAD after each: every counter's value
    steers the next load's row, and the final state shows them all."""
    lines = []
    for _ in range(24):
        cr, d, b, a, mask = (int(v) for v in rng.integers(0, 16, 5))
        lines += [f"TTI_SETRWC(0, {cr}, {d}, {b}, {a}, {mask})" if rng.random() < 0.5 else
                  f"TTI_INCRWC({cr & 7}, {d}, {b}, {a})", "sfpload vd=1 mod0=3 addr_mod=0"]
    return lines


def _flag_boolean_lines(rng, arch: isa.Arch) -> list[str]:
    """Every Mod1 1-15 of SFPPOPC, and of SFPPUSHC where it has them
    (`pushc_mod1`): the BooleanOps (1-12) and the rest, on flags and a stack
    top random in each lane (the other programs use Mod1 0 and 3 alone), each
    result shown by a predicated SFPMOV and popped before the next."""
    ops = ["sfppopc", *(["sfppushc"] if arch.features.pushc_mod1 else [])]
    lines = []
    for op in ops:
        for mod1 in range(1, 16):
            lines += [_lreg_line(2, rng.integers(0, 1 << 32, LANES, dtype=np.uint64)),
                      _lreg_line(3, rng.integers(0, 1 << 32, LANES, dtype=np.uint64)),
                      "sfpencc mod1=2 imm2=1", "sfpsetcc vc=2 mod1=0", "sfppushc",      # the top: L2 < 0
                      "sfpencc mod1=2 imm2=1", "sfpsetcc vc=3 mod1=0",                  # the flags: L3 < 0
                      f"{op} mod1={mod1}", "sfpmov vd=4 vc=2 mod1=0", "sfppopc mod1=0"]
    return lines + PREDICATE_OFF


def special_program_text(name: str, seed: int = 0, *, arch: isa.Arch) -> str:
    specials = {**SPECIAL_PROGRAMS, **BLACKHOLE_PROGRAMS}
    rng = np.random.default_rng([seed, 100 + list(specials).index(name)])
    generated = {"dst_formats": _dst_format_lines, "lane_config_mixed": _lane_config_lines,
                 "lane_shuffles": lambda r: _lane_shuffle_lines(r, arch), "tensix_random": _tensix_counter_lines,
                 "flag_boolean_ops": lambda r: _flag_boolean_lines(r, arch)}
    body = generated[name](rng) if name in generated else specials[name]
    return "\n".join([f"# directed: {name}", *_arch_line(arch), *lreg_prelude(rng), *body]) + "\n"


def directed_program_text(group: str, seed: int = 0, *, arch: isa.Arch) -> str:
    rng = np.random.default_rng([seed, list(GROUPS).index(group)])
    lines = [f"# directed: {group}", *_arch_line(arch), *lreg_prelude(rng)]
    if group == "load_store":
        lines += LOAD_STORE_SETUP
        # Fill some Dst rows first, 32-bit and 16-bit, so the loads read data.
        lines += [f"sfpstore vd={r} mod0=3 imm10={8 * r}" for r in range(8)]
        lines += [f"sfpstore vd={r} mod0=1 imm10={64 + 4 * r}" for r in range(8)]
    if group == "round":
        lines.append(".prng_seed 0x1234567")
    for predicated in (False, True):
        if group == "load_store" and predicated:
            lines.append(".fp32_dest 1")
        if predicated:
            lines += PREDICATE_ON
        for mnemonic in groups(arch)[group]:
            lines += variants(rng, mnemonic, arch)
        if predicated:
            lines += PREDICATE_OFF
    return "\n".join(lines) + "\n"


def directed_programs(seed: int = 0, *, arch: isa.Arch) -> dict[str, Program]:
    programs = {group: assemble(directed_program_text(group, seed, arch=arch), f"<directed {group}>")
                for group in GROUPS}
    for name in [*SPECIAL_PROGRAMS, *(n for n in BLACKHOLE_PROGRAMS if getattr(arch.features, PROGRAM_FEATURES[n]))]:
        programs[name] = assemble(special_program_text(name, seed, arch=arch), f"<directed {name}>")
    programs["template_edges"] = assemble(template_edge_text(arch), "<directed template_edges>")
    return programs


def covered_opcodes(arch: isa.Arch) -> set[str]:
    return {mn for group in groups(arch).values() for mn in group} | NOT_DIRECTED


# -- SFPLOADMACRO -----------------------------------------------------------------------

# Templates each macro sub-unit can run (VD/VB/VC are overridden by the macro).
MACRO_TEMPLATES = {
    "simple": ["sfpiadd vd=0 vc=0 imm12=1 mod1=5", "sfpmov vd=0 vc=0 mod1=1", "sfpswap vd=5 vc=0 mod1=1",
               "sfpexexp vd=0 vc=0 mod1=0", "sfpsetcc vc=0 mod1=0"],
    "mad": ["sfpmad va=10 vb=10 vc=0 vd=0", "sfpmuli vd=0 imm16=0x4000", "sfpaddi vd=0 imm16=0x3F80",
            "sfplut vd=0 mod0=4"],
    "round": ["sfpshft2 vd=0 imm12=1 mod1=6", "sfpstochrnd vd=0 vc=0 mod1=1", "sfpshft2 vd=0 vc=0 mod1=3"],
    "store": ["sfpstore vd=0 mod0=3 imm10=0"],
}
MACRO_UNIT_ORDER = ("simple", "mad", "round", "store")


def load_l0(value: int) -> list[str]:
    """Two SFPLOADIs that put a 32-bit value into every enabled lane of L0
    (SFPCONFIG copies LoadMacroConfig words from L0)."""
    return [f"sfploadi vd=0 mod0=10 imm16={value & 0xFFFF:#x}", f"sfploadi vd=0 mod0=8 imm16={value >> 16:#x}"]



# Blackhole only: the SFPU stack pointer, DEST_SP_BASE and the Dst row remaps (docs/blackhole.md), with
# the 3-bit AddrMod naming slots 4-7, and SFPLOADMACRO over all of them. INT32_ALL (Mod0 10) stores push
# (Sp moves up after the access) and loads pop (Sp moves down first, unless it is 0); the other formats add
# the low two bits of Sp + DEST_SP_BASE. Macro 0 runs SFPAND with USE_VB (VD = VB & VC from its VB field),
# macro 1 SFPOR without it (VB is its VD), both storing the loaded register 2 instructions later at the
# address the SFPLOADMACRO captured, with its Mod0 (Misc), which moves no Sp. The remaps last: 16-bit and
# 32-bit accesses at addresses whose bits 2-5 vary, with the Dst index capture on (it sees the rows before
# the remap). The final state shows every register set.
_MACRO_STORE = (3 | 2 << 3) << 24
STACK_REMAPS = [
    ".fp32_dest 1", ".addr_mod 5 dst_incr=4", ".addr_mod 6 dst_incr=1 dst_cr=1", ".addr_mod 7 dst_clear=1",
    ".sfpu_stack_incr 8", ".dest_sp_base 32",
    *[f"sfpstore vd={r} mod0=10 imm10={r % 3} addr_mod={5 + r % 3}" for r in range(8)],
    *[f"sfpload vd={(7 - r) % 8} mod0=10 imm10={r % 2} addr_mod={4 + r % 4}" for r in range(9)],
    "sfpload vd=0 mod0=10 imm10=4", "sfpstore vd=1 mod0=10 imm10=4", "sfpstore vd=2 mod0=10 imm10=8",
    ".rwc_sp 5", ".dest_sp_base 2",
    "sfpstore vd=1 mod0=3 imm10=16 addr_mod=5", "sfpload vd=2 mod0=1 imm10=20 addr_mod=6",
    "sfpstore vd=3 mod0=1 imm10=40", "sfpload vd=4 mod0=3 imm10=16 addr_mod=7",
    ".rwc_sp 24", ".sfpu_stack_incr 4", ".dest_sp_base 100",
    *load_l0(isa.encode("SFPAND", isa.Arch.BLACKHOLE, vd=5, vc=0, vb=6, mod1=isa.AndOrMod1.USE_VB)), "sfpconfig vd=0",
    *load_l0(isa.encode("SFPOR", isa.Arch.BLACKHOLE, vd=7, vc=0, vb=6)), "sfpconfig vd=1",
    *load_l0(_MACRO_STORE | 4), "sfpconfig vd=4", *load_l0(_MACRO_STORE | 5), "sfpconfig vd=5",
    "sfpconfig vd=8 imm16=0xF3 mod1=1",
    "sfploadmacro macro=0 vd=1 mod0=10 addr_mod=5 offset=8", "sfpnop",
    "sfploadmacro macro=1 vd=2 mod0=10 addr_mod=6 offset=2", "sfpnop", "sfpnop",
    "sfploadmacro macro=0 vd=3 mod0=3 addr_mod=7 offset=12", "sfploadmacro macro=1 vd=0 mod0=1 offset=20",
    "sfpnop", "sfpnop", "sfpnop",
    ".dest_remap_addrs 1", "sfpconfig vd=15 mod1=1 imm16=0x10C",
    *[f"sfpstore vd={r} mod0={1 if r % 2 else 3} imm10={8 * r + 4 * (r % 3)}" for r in range(8)],
    *[f"sfpload vd={r % 4} mod0={1 if r % 2 else 3} imm10={8 * r + 4 * (r % 3)}" for r in range(8)],
    ".dest_swizzle_32b 1",
    *[f"sfpstore vd={r} mod0={(3, 4, 10, 12)[r % 4]} imm10={4 * r + 2 * (r % 2)}" for r in range(8)],
    *[f"sfpload vd={r % 4} mod0={(3, 4, 10, 12)[r % 4]} imm10={4 * (7 - r)}" for r in range(8)],
    "sfploadmacro macro=1 vd=1 mod0=3 addr_mod=5 offset=16", "sfpnop", "sfpnop", "sfpnop",
    ".dest_remap_addrs 0",
    *[f"sfpload vd={r % 4} mod0=3 imm10={4 * r}" for r in range(4)],
    "sfpconfig vd=15 mod1=1 imm16=0",
]
BLACKHOLE_PROGRAMS["stack_remaps"] = STACK_REMAPS
# The feature each of them exercises: an architecture runs those whose feature it has.
PROGRAM_FEATURES = {"stalls": "mad_stall", "swap_late_reads": "swap_late_reads", "stack_remaps": "stack_pointer"}


def random_sequence(rng, templates: list[str], arch: isa.Arch) -> int:
    """One random Sequence word: per sub-unit a select the sub-unit can run
    (nothing, SFPNOP, SFPSTORE or a fitting template), any delay and any
    routing bits; the Store byte only ever selects nothing or SFPSTORE."""
    sequence = 0
    for u, unit in enumerate(MACRO_UNIT_ORDER):
        fits = [4 + i for i, t in enumerate(templates)
                if isa.decode(assemble(t, arch=arch).words[0], arch).op.unit.value == unit]
        select = int(rng.choice([0, 2, 3, *fits, *fits])) if unit != "store" else int(rng.choice([0, 3, 3]))
        routing = int(rng.integers(0, 4)) << 6 if unit != "store" else int(rng.choice([0, 0x80, 0x40]))
        sequence |= (select | int(rng.integers(0, 8)) << 3 | routing) << (8 * u)
    return sequence


def macro_program_text(seed: int, arch: isa.Arch) -> str:
    """LoadMacroConfig filled at random (templates runnable by the sub-unit
    that selects them, any delay, both delay kinds, L16 and VB routing, the
    store's Mod0 either way), then SFPLOADMACROs mixed with thread
    instructions. Rules may be broken; the model and the RTL must still agree."""
    rng = np.random.default_rng([seed, 200])
    lines = [f"# directed: random SFPLOADMACRO configuration, seed {seed}", *_arch_line(arch), ".fp32_dest 1"]
    templates = [MACRO_TEMPLATES[unit][int(rng.integers(len(MACRO_TEMPLATES[unit])))]
                 for unit in rng.choice(MACRO_UNIT_ORDER, 4)]
    for i, text in enumerate(templates):
        lines += load_l0(assemble(text, arch=arch).words[0]) + [f"sfpconfig vd={i}"]
    for macro in range(4):
        lines += load_l0(random_sequence(rng, templates, arch)) + [f"sfpconfig vd={4 + macro}"]
    misc = int(rng.integers(0, 16)) | int(rng.integers(0, 16)) << 4 | int(rng.integers(0, 16)) << 8
    lines.append(f"sfpconfig vd=8 imm16={misc:#x} mod1=1")
    lines += lreg_prelude(rng)
    thread = ["sfpnop", "sfpnop", "sfpiadd vd=6 vc=6 imm12=3 mod1=5", "sfpmad va=4 vb=5 vc=6 vd=7",
              "sfpxor vd=4 vc=5", "sfpload vd=5 mod0=3 imm10=16"]
    for _ in range(24):
        if rng.random() < 0.45:
            lines.append(f"sfploadmacro macro={int(rng.integers(4))} vd={int(rng.integers(4))} mod0=3 "
                         f"addr_mod=0 offset={4 * int(rng.integers(8))}")
        else:
            lines.append(str(rng.choice(thread)))
    return "\n".join(lines) + "\n"


def template_edge_text(arch: isa.Arch) -> str:
    """Every opcode byte one bit away from an SFPU opcode that is none, then
    SFPNOP, SFPSTORE, SFPLUT and SFPMAD, as instruction templates that every sub-unit's macro slot selects
    in turn: each slot's decode of "is this an SFPU instruction" and "can this
    sub-unit run it" meets the words it must refuse."""
    opcodes = {op.opcode for op in isa.ISA[arch].table}
    near = sorted({code ^ (1 << bit) for code in opcodes for bit in range(8)} - opcodes)
    words = [isa.OPCODE.insert(byte) for byte in near] + [isa.encode("SFPNOP", arch), isa.encode("SFPSTORE", arch, vd=2, mod0=3),
                                             isa.encode("SFPLUT", arch, vd=3, mod0=4), isa.encode("SFPMAD", arch, vd=1)]
    # Sequence k selects template k on Simple, MAD, Round and Store, with no delay.
    lines = ["# directed: macro templates that are no SFPU instruction", *_arch_line(arch), ".fp32_dest 1"]
    for k in range(4):
        lines += load_l0(0x01010101 * (4 + k)) + [f"sfpconfig vd={4 + k}"]
    for start in range(0, len(words), 4):
        group = words[start:start + 4]
        for i, word in enumerate(group):
            lines += load_l0(word) + [f"sfpconfig vd={i}"]
        for k in range(len(group)):
            lines += [f"sfploadmacro macro={k} vd=1 mod0=3 addr_mod=0 offset={4 * k}", "sfpnop"]
    return "\n".join(lines) + "\n"


def macro_programs(seeds=range(4), *, arch: isa.Arch) -> dict[str, Program]:
    return {f"macro_{seed}": assemble(macro_program_text(seed, arch), f"<directed macro {seed}>") for seed in seeds}
