"""The SFPU instruction sets of Wormhole B0 and Blackhole A0, described once.

Every other view of an instruction set derives from the tables below: the
encoder and decoder here, the assembler and disassembler (`model.asm`), the RTL
decoder's enum and layouts, the waveform translate filter and the coverage
bins. Wormhole's table is written out in full; Blackhole's is Wormhole's with
the differences in `_BLACKHOLE_CHANGES` and `_BLACKHOLE_NEW` applied, so each
difference is stated once and as data (docs/blackhole.md lists them in words,
and a test checks that the two lists agree). Field positions follow
tt-isa-documentation (Diagrams/Src/Bits32.lua); the `TTI_` argument orders
follow each architecture's tt-llk `ckernel_ops.h`.

Besides encodings, each entry declares its modifiers' defined values (the
enums below: `MadMod1.INDIRECT_VD`, `Shft2Mod1`, `LoadiMod0`, ...), its read
set with its narrowing by modifier (`reads`, `narrow`), what Blackhole's
stall logic believes it reads (`stall_view`: the documented gaps as data),
its latency, two-cycle and interlocking modes, and its sub-units; `OPCODE`
is where every word holds its opcode and `MACRO_UNITS` the order of an
SFPLOADMACRO sequence's sub-units. The few register facts the RTL shares
with the model are here too: the Tensix data-format codes (`DataFormat`,
`SRCB_AS_BF16`), LaneConfig's bits (`LaneConfigBit`) and the opcodes of the
Tensix instructions around the SFPU (`SETRWC`, ..., `TENSIX_ISSUED`); the
lookup tables the pages define are in `model.isa_tables`. The RTL imports
nothing else of the model.

`encode` and `decode` take the architecture: no parameter defaults to one
(a program without `.arch` is Wormhole's, `DEFAULT_ARCH`: a rule of the
assembly language, not a parameter's default). `ISA[arch]` holds each
architecture's views (`opcodes`, `by_opcode`, `by_llk_name`); there is no
module-level view, so code that means Wormhole says so.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable
from dataclasses import dataclass

from amaranth.lib import data


class Arch(enum.Enum):
    """A Tensix generation whose SFPU this project models."""
    WORMHOLE = "wormhole"
    BLACKHOLE = "blackhole"

    __hash__ = object.__hash__      # as Unit's, below

    @property
    def title(self) -> str:
        return _TITLES[self]

    @property
    def features(self) -> "Features":
        """What this architecture's SFPU does beyond its instruction table (`FEATURES`)."""
        return FEATURES[self]

    def tagged(self, template: str) -> str:
        """`template` with `{}` as this architecture's name, or "" for the user's
        default (`DEFAULT_ARCH`): file names, program heads and commands leave
        the default's out (`arch.tagged("-{}")`, `arch.tagged(".arch {}\\n")`)."""
        return "" if self is DEFAULT_ARCH else template.format(self.value)

    @classmethod
    def parse(cls, name: str) -> "Arch":
        """The architecture called `name` or one of its aliases (`wormhole_b0`,
        `wh`, `bh`, ...); ValueError naming the choices otherwise."""
        key = str(name).strip().lower()
        arch = _BY_NAME.get(key)
        if arch is None:
            known = ", ".join(a.value for a in architectures())
            raise ValueError(f"unknown architecture {name!r} (known: {known})")
        return arch


WORMHOLE, BLACKHOLE = Arch.WORMHOLE, Arch.BLACKHOLE
# What a program without `.arch` (or a command without --arch) means: the user's default, not a parameter's.
DEFAULT_ARCH = Arch.WORMHOLE


# The instructions whose results every FMA-path feature below changes (docs/blackhole.md).
_FMA_CLASS = ("SFPMAD", "SFPADD", "SFPMUL", "SFPADDI", "SFPMULI", "SFPLUT", "SFPLUTFP32")
_DST_ACCESS = ("SFPLOAD", "SFPSTORE", "SFPLOADMACRO")


def _feature(meaning: str, *instructions: str):
    """A feature's declaration: what it means, and the instructions whose
    encoding or behaviour it changes (none: it acts around the SFPU's
    instructions). `sfpu isa` prints both in docs/isa.md."""
    return dataclasses.field(metadata={"meaning": meaning, "instructions": instructions})


@dataclass(frozen=True)
class Features:
    """One architecture's variations, each named for what it is, so that code
    branches on a feature and never on the chip's name. Each is documented in
    docs/blackhole.md ("Encoding differences", "Behaviour differences") and
    in the spec's Appendix A; `tests/model/test_features.py` checks the ones
    the table also states (the new opcodes, the AddrMod width) against it.
    Each field's metadata says what it means and which instructions it
    changes (`_feature`)."""
    # -- encodings ---------------------------------------------------------------------------
    addr_mod_bits: int = _feature("width of AddrMod (3: it names the ADDR_MOD slot)", *_DST_ACCESS)
    mul24: bool = _feature("SFPMUL24: a 23-bit integer product on the MAD sub-unit's multipliers", "SFPMUL24")
    compare: bool = _feature("SFPLE, SFPGT: comparisons to the flags, VD or the flag stack's top", "SFPLE", "SFPGT")
    arecip: bool = _feature("SFPARECIP: approximate reciprocal or exponential on the Simple sub-unit", "SFPARECIP")
    pushc_mod1: bool = _feature("SFPPUSHC's Mod1 1-15 change the flag stack's top instead of pushing", "SFPPUSHC")
    round_mode_field: bool = _feature("SFPSTOCHRND's 2-bit rnd_mode (nearest, stochastic, toward zero) "
                                      "replaces `stochastic`", "SFPSTOCHRND")
    # -- behaviour of the same words -----------------------------------------------------------
    mad_negate: bool = _feature("SFPMAD family's Mod1 NEGATE_VB / NEGATE_VC flip their operands' signs",
                                "SFPMAD", "SFPADD", "SFPMUL", "SFPADDI", "SFPMULI")
    canonical_nan: bool = _feature("MAD-class results: every NaN 0x7FC00000, IEEE-signed zeros, flushed "
                                   "results keep their sign",
                                   *_FMA_CLASS)
    flush_after_round: bool = _feature("MAD-class results below 2**-126 are rounded at exponent 0, then flushed",
                                       *_FMA_CLASS)
    sticky_keeps_bit1: bool = _feature("the FMA's 2-place right normalisation ORs the sum's bit 1 into the "
                                       "sticky bit", *_FMA_CLASS)
    product_overflow_inf: bool = _feature("an FMA product overflowing to exponent 255 counts as Inf against an "
                                          "Inf addend", *_FMA_CLASS)
    shft_arithmetic: bool = _feature("SFPSHFT's ARITHMETIC (sign-filling right shift) and ARG_IMM_USE_VC",
                                     "SFPSHFT")
    cast_int_modes: bool = _feature("SFPCAST Mod1 & 3 = 2, 3 are INT32_ABS and INT32_SM32, not rounding modes",
                                    "SFPCAST")
    popc_full_flaw: bool = _feature("SFPPOPC Mod1 != 0 on a full stack also copies the top over the bottom",
                                    "SFPPOPC")
    shft2_captured_vc: bool = _feature("SFPSHFT2 modes 2/3 capture VC, which mode 4 moves into lanes 0, 8, 16, 24",
                                       "SFPSHFT2")
    dst_int8_bits: int = _feature("magnitude bits SFPLOAD's INT8 takes (7: +-127, 8: +-255)",
                                  "SFPLOAD", "SFPLOADMACRO")
    dst_signmag_convert: bool = _feature("SFPLOAD/SFPSTORE's INT32_SM, INT8_COMP convert sign-magnitude <-> "
                                         "two's complement", *_DST_ACCESS)
    store_fp32_flush: bool = _feature("SFPSTORE's FP32 flushes denormals to signed zero", "SFPSTORE")
    stack_pointer: bool = _feature("RWC Sp, SFPU_STACK_Incr, DEST_SP_BASE join Dst addresses (INT32_ALL: a "
                                   "stack in Dst)", *_DST_ACCESS)
    dst_remap: bool = _feature("DEST_ACCESS_CFG remap_addrs / swizzle_32b remap Dst rows", *_DST_ACCESS)
    # -- timing (docs/timing.md) ---------------------------------------------------------------
    mad_stall: bool = _feature("the thread stalls on a read of a thread MAD-class result in flight, but for "
                               "the gaps", *_FMA_CLASS, "SFPMUL24")
    swap_late_reads: bool = _feature("SFPSWAP's SWAP mode reads VC, VD in its second cycle (what lands at the "
                                     "first's end)", "SFPSWAP")
    armed_macro_hazard: bool = _feature("a UnitDelayKind left armed in LoadMacroConfig.Misc hangs later "
                                        "instructions (field report)", "SFPLOADMACRO", "SFPCONFIG")
    # STALLWAIT's condition bits, numbered differently on each (STALLWAIT.md: WH L171-203, BH L182-213):
    wait_fpu_bit: int = _feature("STALLWAIT keeps waiting while an instruction of this thread is in the FPU")
    wait_sfpu_bit: int = _feature("STALLWAIT keeps waiting while an instruction of this thread is in the SFPU")
    wait_srca_bit: int = _feature("STALLWAIT keeps waiting while SrcA is not yet handed to the FPU")
    wait_srcb_bit: int = _feature("STALLWAIT keeps waiting while SrcB is not yet handed to the FPU")
    # -- around the SFPU (the tt-llk sweep's formats, docs/llk.md) -----------------------------
    pack_fp32_to_fp16_early: bool = _feature("the packer's early stage converts a 32-bit Dst to Float16 (else "
                                             "via Float32)")

    @property
    def addr_mod_names_slot(self) -> bool:
        """AddrMod names any of the 8 ADDR_MOD slots itself; a narrower one takes
        the slot's high bit from the bias bit or ADDR_MOD_SET_Base."""
        return self.addr_mod_bits == 3


FEATURES: dict[Arch, Features] = {
    Arch.WORMHOLE: Features(
        addr_mod_bits=2, mul24=False, compare=False, arecip=False, pushc_mod1=False, round_mode_field=False,
        mad_negate=False, canonical_nan=False, flush_after_round=False, sticky_keeps_bit1=False,
        product_overflow_inf=True, shft_arithmetic=False,
        cast_int_modes=False, popc_full_flaw=True, shft2_captured_vc=True, dst_int8_bits=7,
        dst_signmag_convert=True, store_fp32_flush=False, stack_pointer=False, dst_remap=False,
        mad_stall=False, swap_late_reads=False, armed_macro_hazard=True,
        wait_fpu_bit=7, wait_sfpu_bit=14, wait_srca_bit=10, wait_srcb_bit=11,
        pack_fp32_to_fp16_early=False),
    Arch.BLACKHOLE: Features(
        addr_mod_bits=3, mul24=True, compare=True, arecip=True, pushc_mod1=True, round_mode_field=True,
        mad_negate=True, canonical_nan=True, flush_after_round=True, sticky_keeps_bit1=True,
        product_overflow_inf=False, shft_arithmetic=True,
        cast_int_modes=True, popc_full_flaw=False, shft2_captured_vc=False, dst_int8_bits=8,
        dst_signmag_convert=False, store_fp32_flush=True, stack_pointer=True, dst_remap=True,
        mad_stall=True, swap_late_reads=True, armed_macro_hazard=False,
        wait_fpu_bit=4, wait_sfpu_bit=11, wait_srca_bit=7, wait_srcb_bit=8,
        pack_fp32_to_fp16_early=True),
}


def features(arch: Arch) -> Features:
    """`arch`'s feature record."""
    return FEATURES[arch]


class Unit(enum.Enum):
    """The SFPU sub-unit an instruction issued by the thread executes on."""
    LOAD = "load"
    SIMPLE = "simple"
    MAD = "mad"
    ROUND = "round"
    STORE = "store"

    # Members are singletons that compare by identity, so the identity hash is
    # a valid one, and cheaper than Enum's (the cycle model keys dicts by unit
    # several times a cycle).
    __hash__ = object.__hash__


class Kind(enum.Enum):
    REG = "reg"      # an LReg index
    MOD = "mod"      # a modifier
    IMM = "imm"      # an immediate


@dataclass(frozen=True)
class Field:
    """A named instruction field stored in `width` bits starting at bit `lo`."""
    name: str
    lo: int
    width: int
    kind: Kind = Kind.IMM
    signed: bool = False

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lo

    @property
    def min(self) -> int:
        return -(1 << (self.width - 1)) if self.signed else 0

    @property
    def max(self) -> int:
        return (1 << (self.width - 1)) - 1 if self.signed else (1 << self.width) - 1

    def extract(self, word: int) -> int:
        raw = (word >> self.lo) & ((1 << self.width) - 1)
        if self.signed and raw >> (self.width - 1):
            raw -= 1 << self.width
        return raw

    def insert(self, value: int) -> int:
        return (value & ((1 << self.width) - 1)) << self.lo


# Every Tensix instruction word, SFPU or not, has its opcode in bits [31:24].
OPCODE = Field("opcode", 24, 8)

# LoadMacroConfig's sequence byte i drives MACRO_UNITS[i] (SFPLOADMACRO.md).
MACRO_UNITS = (Unit.SIMPLE, Unit.MAD, Unit.ROUND, Unit.STORE)

# LoadMacroConfig's layouts (SFPLOADMACRO.md's functional model), least significant field first.
# hdl/ views its registers with them; the model reads the fields' offsets (`layout_field`).
# A sequence byte: what its sub-unit runs (0 nothing, 1 reserved, 2 SFPNOP, 3 SFPSTORE, 4-7
# InstructionTemplate[select - 4]), its delay, and the two overrides: the result to L16 (the
# store reads L16), and the loaded VD as VB rather than VC (the store keeps the template's VD).
MACRO_SEQUENCE_BYTE = data.StructLayout({"select": 3, "delay": 3, "to_l16": 1, "vd_to_vb": 1})
# Misc: the store's Mod0; per macro, whether its store takes the SFPLOADMACRO's Mod0 instead;
# per sub-unit (MACRO_UNITS), whether its delay counts instructions rather than cycles.
MACRO_MISC = data.StructLayout({"store_mod0": 4, "uses_load_mod0_for_store": 4, "unit_delay_kind": 4})


def layout_field(layout: data.StructLayout, name: str) -> tuple[int, int]:
    """(offset, mask) of field `name` of `layout`: `(value >> offset) & mask` is its value."""
    f = layout[name]
    return f.offset, (1 << f.width) - 1


# ---------------------------------------------------------------------------
# Modifier values, by the pages' names. Each is defined here once; the model,
# the RTL and the tools import them.
# ---------------------------------------------------------------------------

class MadMod1(enum.IntEnum):
    """Mod1 bits of SFPMAD, SFPADD, SFPMUL, SFPMUL24, SFPADDI and SFPMULI.
    INDIRECT_VD is also bit 3 of SFPLUT's Mod0 and SFPLUTFP32's Mod1."""
    NEGATE_VB = 1           # Blackhole (SFPMAD, SFPADD, SFPMUL)
    NEGATE_VC = 2           # Blackhole
    INDIRECT_VA = 4         # VA is L[L7 & 15], per lane
    INDIRECT_VD = 8         # the result goes to L[L7 & 15], per lane (unless VD is L16)


class Mul24Mod1(enum.IntEnum):
    UPPER = 1               # bits 45:23 of the product, not the low 23


class LutMod(enum.IntEnum):
    """SFPLUT's Mod0 and SFPLUTFP32's Mod1 (bit 3 is MadMod1.INDIRECT_VD)."""
    SGN_RETAIN = 4


class LutFp32Table(enum.IntEnum):
    """SFPLUTFP32's table layouts (the canonical Mod1 encodings)."""
    FP32_3ENTRY = 0
    FP16_6ENTRY_TABLE1 = 2   # last split at 3.0
    FP16_6ENTRY_TABLE2 = 3   # last split at 4.0
    FP16_3ENTRY = 10         # overlaps INDIRECT_VD (bit 3)


class LoadiMod0(enum.IntEnum):
    """SFPLOADI's modes; the other Mod0 values are undefined."""
    FLOATB = 0
    FLOATA = 1
    USHORT = 2
    SHORT = 4
    UPPER = 8               # the high 16 bits replaced, the low 16 kept
    LOWER = 10              # the low 16 bits replaced, the high 16 kept


class ShftMod1(enum.IntEnum):
    ARG_IMM = 1             # shift by Imm12, not by VC
    ARITHMETIC = 2          # Blackhole
    ARG_IMM_USE_VC = 4      # Blackhole: with ARG_IMM, VC is shifted instead of VB


class AndOrMod1(enum.IntEnum):
    USE_VB = 1              # Blackhole's SFPAND and SFPOR: VB is the VB field, not VD


class MovMod1(enum.IntEnum):
    NEGATE = 1
    ALL_LANES_ENABLED = 2   # the whole Mod1, not a bit: 10 is FROM_SPECIAL without it
    FROM_SPECIAL = 8        # configuration or the PRNG, chosen by VC


class CastMod1(enum.IntEnum):
    RND_STOCH = 1
    INT32_ABS = 2           # Blackhole
    INT32_SM32 = 3          # Blackhole


class Shft2Mod1(enum.IntEnum):
    """SFPSHFT2's modes; Mod1 7-15 are undefined."""
    COPY4 = 0
    CHAINED_COPY4 = 1
    SHFLROR1_AND_COPY4 = 2
    SHFLROR1 = 3
    SHFLSHR1 = 4
    SHFT_LREG = 5
    SHFT_IMM = 6


class StochRndMode(enum.IntEnum):
    """SFPSTOCHRND's Mod1 (its low 3 bits; bit 3 is UseImm5 for modes 4 and 5)."""
    FP32_TO_FP16A = 0   # keep 10 mantissa bits
    FP32_TO_FP16B = 1   # keep 7 mantissa bits (BF16 precision)
    FP32_TO_UINT8 = 2   # |x| rounded, clamped to 0..255
    FP32_TO_INT8 = 3    # rounded, clamped to -127..127 (sign-magnitude)
    INT32_TO_UINT8 = 4  # sign-magnitude >> shift, |.| clamped to 0..255
    INT32_TO_INT8 = 5   # sign-magnitude >> shift, clamped to -127..127
    FP32_TO_UINT16 = 6  # |x| rounded, clamped to 0..65535
    FP32_TO_INT16 = 7   # rounded, clamped to -32767..32767 (sign-magnitude)


class RoundMode(enum.IntEnum):
    """SFPSTOCHRND's rounding: Wormhole's StochasticRounding bit, Blackhole's 2-bit mode."""
    NEAREST = 0
    STOCH = 1
    ZERO = 2                # Blackhole


class ConfigMod1(enum.IntEnum):
    IMM16_IS_VALUE = 1
    LANE_MASK = 8


class CmpMod1(enum.IntEnum):
    """Blackhole's SFPLE and SFPGT: where the comparison goes."""
    SET_CC = 1
    MUTATE_STACK = 2
    MUTATE_OR = 4
    SET_VD = 8


class ArecipMod1(enum.IntEnum):
    RECIP = 0
    COND_RECIP = 1          # tests VB's sign
    EXP = 2


class Mod0Fmt(enum.IntEnum):
    """SFPLOAD / SFPSTORE Mod0 values (the MOD0_FMT_* defines in SFPLOAD.md)."""
    SRCB = 0
    FP16 = 1
    BF16 = 2
    FP32 = 3
    INT32 = 4
    INT8 = 5
    UINT16 = 6
    HI16 = 7
    INT16 = 8
    LO16 = 9
    INT32_ALL = 10
    ZERO = 11
    INT32_SM = 12
    INT8_COMP = 13
    LO16_ONLY = 14
    HI16_ONLY = 15


class DataFormat(enum.IntEnum):
    """Tensix 4-bit data-format codes (the encoding table in Packers/ and
    Unpackers/FormatConversion.md). Codes 12 and 13 are unassigned. The "A"
    suffix marks the BFP variants that have FP16-style 5-bit exponents."""
    FP32 = 0
    FP16 = 1
    BFP8A = 2
    BFP4A = 3
    TF32 = 4
    BF16 = 5
    BFP8 = 6
    BFP4 = 7
    INT32 = 8
    INT16 = 9
    FP8 = 10
    BFP2A = 11
    INT8 = 14
    BFP2 = 15


# The SrcB formats for which Mod0Fmt.SRCB means BF16 rather than FP16 when Dst is not
# Fp32 (SFPLOAD.md / SFPSTORE.md; `model.dst_format.resolve_srcb` and the RTL read it).
SRCB_AS_BF16 = frozenset({
    DataFormat.FP32, DataFormat.TF32, DataFormat.BF16, DataFormat.BFP8,
    DataFormat.BFP4, DataFormat.BFP2, DataFormat.INT32, DataFormat.INT16,
})


# ---------------------------------------------------------------------------
# Register layouts and the Tensix opcodes around the SFPU, for the same readers.
# ---------------------------------------------------------------------------

class LaneConfigBit:
    """Bit positions in LaneConfig (18 bits per lane)."""
    ENABLE_FP16A_INF = 0
    DISABLE_BACKDOOR_LOAD = 1
    ENABLE_DEST_INDEX = 2
    CAPTURE_DEFAULT_DEST_INDEX = 3
    BLOCK_DEST_WR_FROM_SFPU = 4
    BLOCK_SFPU_RD_FROM_DEST = 5
    DEST_RD_COL_EXCHANGE = 6
    DEST_WR_COL_EXCHANGE = 7
    EXCHANGE_SRCB_SRCC = 8
    ROW_MASK_LO = 12     # four bits, one per grid row


# The Tensix instructions around the SFPU that kernels issue, by opcode (their
# arguments and effects: `model.tensix`).
SETRWC, INCRWC, REPLAY, SETC16, NOP = 0x37, 0x38, 0x04, 0xB2, 0x02
# Those the thread issues towards the SFPU: each takes an issue slot but no SFPU sub-unit.
TENSIX_ISSUED = {SETRWC: "SETRWC", INCRWC: "INCRWC", NOP: "NOP"}
# The others the math thread's issue path carries (ckernel_ops.h's TT_OP values, the same on both
# architectures; their units and timing: `model.issue_path`).
MOP, MOP_CFG, ZEROACC, MOVA2D, MOVB2D, ELWADD, CLEARDVALID = 0x01, 0x03, 0x10, 0x12, 0x13, 0x28, 0x36
UNPACR_NOP, SETDVALID, WRCFG, RMWCIB0 = 0x43, 0x57, 0xB0, 0xB3
STALLWAIT, SEMINIT, SEMPOST, SEMGET, SEMWAIT = 0xA2, 0xA3, 0xA4, 0xA5, 0xA6


class Narrowing(enum.Enum):
    """A reason, depending on the state or on which registers the operands
    name, why an instruction's declared reads cannot matter; `model.reads`
    implements each (and only ever removes registers)."""
    MERGE = "merge"                  # a load: the old VD matters only where a merging format may write
    STORE = "store"                  # MOD0_FMT_ZERO, or BLOCK_DEST_WR_FROM_SFPU in every lane: nothing read
    LANDS = "lands"                  # the MAD class: the sources matter only if a result lands
    SELF_XOR = "self-xor"            # VB == VC gives 0 whatever the register holds
    SELF_SUB = "self-sub"            # VC - VB with VB == VC gives 0
    COMPARE = "compare"              # only where the result lands; a register is never below itself
    PREDICATED = "predicated"        # VC matters only if some lane uses its flags
    SWAP = "swap"                    # each value matters only where it lands
    SHFT2 = "shft2"                  # by mode: what is written, and Wormhole's capture of VC
    CONFIG_TARGET = "config-target"  # VD 9, 10 and 16 select nothing to write


@dataclass(frozen=True)
class LlkArg:
    """One argument of tt-llk's `TTI_<name>(...)` macro: its value is shifted
    left by `shift` and added into the word; it may be at most `width` bits."""
    name: str
    shift: int
    width: int


@dataclass(frozen=True)
class Alias:
    """A second name for the low `width` bits of another field (SFPSHFT2's VB
    is the low four bits of its Imm12)."""
    name: str
    of: str
    width: int
    kind: Kind = Kind.REG


@dataclass(frozen=True)
class Composite:
    """A readable field whose bits are spread over several raw fields:
    `parts` lists (raw field, bit position in the value, width). Bits of the
    value covered by no part must be zero."""
    name: str
    parts: tuple[tuple[str, int, int], ...]
    width: int
    kind: Kind = Kind.IMM

    def split(self, value: int) -> dict[str, int]:
        covered = 0
        for _, pos, width in self.parts:
            covered |= ((1 << width) - 1) << pos
        if not 0 <= value < (1 << self.width) or value & ~covered:
            raise ValueError(f"value {value} cannot be encoded (allowed bits 0x{covered:X})")
        return {f: (value >> pos) & ((1 << width) - 1) for f, pos, width in self.parts}

    def join(self, raw: dict[str, int]) -> int:
        return sum(raw[f] << pos for f, pos, _ in self.parts)


@dataclass(frozen=True)
class Read:
    """An LReg an instruction's functional model reads, when every (field, mask,
    value) of `when` has `field & mask == value`. `reg` is a fixed LReg, a
    register operand as the semantics resolve it ("va", "vb", "vc", "vd": VB and
    VC include the implicit VB = VD and VC = VD, Blackhole's USE_VB and what
    SFPLOADMACRO substitutes), or a register chosen otherwise: VD_INDEX (L7,
    which names the destination with INDIRECT_VD unless VD is L16), "L[L7]"
    (the LRegs the low four bits of L7 name, INDIRECT_VA), "lut" (the table
    rows L0-L2 that |L3| selects), "lut+4" (L4-L6, the rows' other
    coefficients) and "swap payload" (L[4 + (VC & 3)] and L[4 + (VD & 3)], the
    index payloads of ENABLE_DEST_INDEX)."""
    reg: int | str
    when: tuple[tuple[str, int, int], ...] = ()

    def applies(self, value: Callable[[str], int]) -> bool:
        """Whether it is read, `value(field)` giving the field's value as executed
        (SFPLOADMACRO may substitute VD)."""
        return all(value(name) & mask == v for name, mask, v in self.when)


VD_INDEX = "L7 as VD index"


def _reads(*regs: int | str, when: tuple[tuple[str, int, int], ...] = ()) -> tuple[Read, ...]:
    return tuple(Read(r, when) for r in regs)


# Modifier bits the read sets below depend on.
_MOD1_IMM = ("mod1", 1, 0)                  # bit 0 clear: the second operand is VB, not an immediate


def _indirect_vd(field: str = "mod1") -> tuple[Read, ...]:
    return _reads(VD_INDEX, when=((field, MadMod1.INDIRECT_VD, MadMod1.INDIRECT_VD),))


# SFPMAD-style: VA (or L[L7 & 15] with INDIRECT_VA), VB, VC, and L7 naming VD with INDIRECT_VD.
_MAD_READS = (_reads("va", when=(("mod1", MadMod1.INDIRECT_VA, 0),))
              + _reads(7, "L[L7]", when=(("mod1", MadMod1.INDIRECT_VA, MadMod1.INDIRECT_VA),))
              + _reads("vb", "vc") + _indirect_vd())


def _shft2_mode(mode: Shft2Mod1, *regs: int | str) -> tuple[Read, ...]:
    return _reads(*regs, when=(("mod1", 0xF, mode),))


_SHFT2_READS = (_shft2_mode(Shft2Mod1.COPY4, 1, 2, 3) + _shft2_mode(Shft2Mod1.CHAINED_COPY4, 0, 1, 2, 3)
                + _shft2_mode(Shft2Mod1.SHFLROR1_AND_COPY4, 1, 2, 3, "vc") + _shft2_mode(Shft2Mod1.SHFLROR1, "vc")
                + _shft2_mode(Shft2Mod1.SHFLSHR1, "vc") + _shft2_mode(Shft2Mod1.SHFT_LREG, "vb", "vc")
                + _shft2_mode(Shft2Mod1.SHFT_IMM, "vb"))
_MAD_MODIFIERS = (("mod1", MadMod1),)
# SFPADDI, SFPMULI: no VA, no VB field; NEGATE_VC negates VD's value.
_IMM_MAD_MODIFIERS = (("mod1", (MadMod1.NEGATE_VC, MadMod1.INDIRECT_VD)),)
_SHFT2_TWO_CYCLE = frozenset({Shft2Mod1.SHFLROR1_AND_COPY4, Shft2Mod1.SHFLROR1, Shft2Mod1.SHFLSHR1})
_SWAP_READS = _reads("vc", "vd", "vb", "swap payload")
# SFPSHFT2.md, "Instruction scheduling": what may not run in the cycle after modes 2-4.
_SHFT2_NEXT_FORBIDDEN = (tuple((mn, None) for mn in (
    "SFPABS", "SFPAND", "SFPCAST", "SFPDIVP2", "SFPEXEXP", "SFPEXMAN", "SFPIADD", "SFPLZ", "SFPMOV", "SFPNOT",
    "SFPOR", "SFPSETEXP", "SFPSETMAN", "SFPSETSGN", "SFPSHFT", "SFPSTOCHRND", "SFPXOR"))
    + (("SFPSHFT2", frozenset({Shft2Mod1.COPY4, Shft2Mod1.CHAINED_COPY4, Shft2Mod1.SHFT_LREG,
                               Shft2Mod1.SHFT_IMM})),))
# Lanes 0-7 of L0 are the value: always for a template (VD 0-3), otherwise unless Mod1 bit 0 takes Imm16.
_CONFIG_READS = _reads(0, when=(("vd", 0xC, 0),)) + _reads(0, when=(("mod1", ConfigMod1.IMM16_IS_VALUE, 0),))
# |L3| picks a row: A from L[row], C from L[4 + row] except in FP16_3ENTRY (Mod1 10, 11, 14,
# 15), which holds both in L[row]; Mod1 bit 3 is INDIRECT_VD.
_LUTFP32_READS = (_reads(3, "lut") + _reads("lut+4", when=(("mod1", 0xA, 0),))
                  + _reads("lut+4", when=(("mod1", 0xA, 2),)) + _reads("lut+4", when=(("mod1", 0xA, 8),))
                  + _indirect_vd())
# Blackhole's SFPSHFT: ARG_IMM_USE_VC (Mod1 bits 0 and 2) shifts VC by Imm12, so VB (VD) is not read.
_SHFT_READS_BH = (_reads("vb", when=(("mod1", ShftMod1.ARG_IMM, 0),))
                  + _reads("vb", when=(("mod1", ShftMod1.ARG_IMM_USE_VC, 0),))
                  + _reads("vc", when=(_MOD1_IMM,)) + _reads("vc", when=(("mod1", 5, 5),)))


@dataclass(frozen=True)
class OperandSource:
    """Where a register operand (VB or VC) of an instruction comes from: the
    operand `field` (a field, or an alias: SFPSHFT2's VB is Imm12's low bits)
    when every (field, mask, value) of `when` has `field & mask == value`;
    otherwise VD where the functional model says "VB = VD" (`implicit_vd`),
    else there is none."""
    field: str | None = None
    when: tuple[tuple[str, int, int], ...] = ()
    implicit_vd: bool = False

    def names(self, value: Callable[[str], int]) -> bool:
        """Whether the field names the operand, `value(field)` giving a field's value."""
        return self.field is not None and all(value(name) & mask == v for name, mask, v in self.when)


@dataclass(frozen=True)
class Opcode:
    mnemonic: str
    opcode: int
    fields: tuple[Field, ...]
    unit: Unit
    latency: int = 1                             # 2: the LReg result is written at the end of T+1
    two_cycles: bool = False                     # holds its sub-unit for T and T+1
    interlock: bool = False                      # the thread may issue only SFPNOP at T+1
    interlock_mod1: frozenset[int] = frozenset()  # ... and so with these Mod1 values
    macro_units: frozenset[Unit] = frozenset()   # sub-units that can run it from SFPLOADMACRO
    llk_name: str = ""                           # TTI_<llk_name>(...), filled in below
    llk_args: tuple[LlkArg, ...] = ()
    aliases: tuple[Alias, ...] = ()
    composites: tuple[Composite, ...] = ()        # the readable form shows these instead of their parts
    derived: tuple[Composite, ...] = ()           # operands the hardware reads across fields, not shown
    backdoor: bool = True                         # VD 12-15 writes the word into a macro template
    undefined_values: tuple[tuple[str, frozenset[int]], ...] = ()   # (modifier field, values its pages leave undefined)
    # (modifier field, the enum naming its values or bits, or the members of one that apply)
    modifiers: tuple[tuple[str, type[enum.IntEnum] | tuple[enum.IntEnum, ...]], ...] = ()
    two_cycle_mod1: frozenset[int] = frozenset()  # Mod1 values that make it latency 2 and two_cycles
    # The LRegs its functional model reads (model.reads narrows them to those whose values can
    # matter on a state); with `reads_for_vd`, its only effect is the VD write (and flags that
    # need a VD below 8), so nothing it reads matters when VD names no writable LReg.
    reads: tuple[Read, ...] = ()
    reads_for_vd: bool = False
    narrow: Narrowing | None = None               # when `reads` can be narrowed further, on a state
    # Blackhole's stall logic decides from the word alone what an instruction reads
    # (BlackholeA0 SFPMAD.md "Instruction scheduling"): `reads` without `stall_unseen`, the
    # documented gaps (a read of a MAD-class result in flight that slips through one is the
    # hazard rule `stall_gap`), and with `stall_believed`, its false dependencies. It takes a
    # VD_INDEX read (INDIRECT_VD) of a MAD-class instruction to mean a write of every LReg.
    stall_unseen: tuple[Read, ...] = ()
    stall_believed: tuple[Read, ...] = ()
    stall_gap: str = ""
    must_be_zero: int = 0                         # bits that a valid encoding leaves clear
    # What may not run in the cycle after its two-cycle modes (beside the register rules):
    # (mnemonic, its Mod1 values, or None for any)
    next_cycle_forbidden: tuple[tuple[str, frozenset[int] | None], ...] = ()
    # (register operand, conditions): the operand's field names it only when these hold, VD otherwise
    operand_when: tuple[tuple[str, tuple[tuple[str, int, int], ...]], ...] = ()
    doc: str = ""
    arch: Arch | None = None                      # the table this entry belongs to, set when the table is finished

    @functools.cached_property
    def field_map(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}

    def forbids_next(self, ins: "Instruction") -> bool:
        """Whether `ins` may not run in the cycle after one of its two-cycle modes (`next_cycle_forbidden`)."""
        mod1s = dict(self.next_cycle_forbidden).get(ins.mnemonic, ())
        return mod1s is None or ins.get("mod1") in mod1s

    @functools.cached_property
    def sources(self) -> dict[str, OperandSource]:
        """Where its VB and VC come from (`OperandSource`), by operand name."""
        out = {}
        for name, implicit in (("vb", IMPLICIT_VB_IS_VD), ("vc", IMPLICIT_VC_IS_VD)):
            named = self.has(name) or any(a.name == name for a in self.aliases)
            when = dict(self.operand_when).get(name, ())
            assert not when or (named and self.mnemonic in implicit), f"{self.mnemonic}: {name}'s condition needs a field and VD"
            out[name] = OperandSource(name if named else None, when, self.mnemonic in implicit)
        return out

    @functools.cached_property
    def stall_view(self) -> tuple[Read, ...]:
        """What Blackhole's stall logic believes this instruction reads (see `stall_unseen`)."""
        return tuple(r for r in self.reads if r not in self.stall_unseen) + self.stall_believed

    @functools.cached_property
    def used_mask(self) -> int:
        m = OPCODE.mask
        for f in self.fields:
            m |= f.mask
        return m

    def llk_arg_bits(self, arg: LlkArg) -> int:
        """The bits of the word that `TTI_` argument `arg` sets and a field of this opcode uses."""
        return self.used_mask & (((1 << arg.width) - 1) << arg.shift)

    def has(self, name: str) -> bool:
        return name in self.field_map

    def defined_values(self, name: str) -> list[int]:
        """The values of field `name` that the documentation defines."""
        undefined = dict(self.undefined_values).get(name, frozenset())
        return [v for v in range(1 << self.field_map[name].width) if v not in undefined]

    def is_defined(self, name: str, value: int) -> bool:
        return value not in dict(self.undefined_values).get(name, frozenset())

    @property
    def reg_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.kind is Kind.REG)


# ---------------------------------------------------------------------------
# Field shapes shared by several instructions
# ---------------------------------------------------------------------------

def _reg(name: str, lo: int) -> Field:
    return Field(name, lo, 4, Kind.REG)


MOD1 = Field("mod1", 0, 4, Kind.MOD)
VD = _reg("vd", 4)
VC = _reg("vc", 8)
VB = _reg("vb", 12)
VA = _reg("va", 16)
IMM12S = Field("imm12", 12, 12, signed=True)
IMM12U = Field("imm12", 12, 12)
IMM16_HI = Field("imm16", 8, 16)
IMM8 = Field("imm8", 12, 8)
IMM1 = Field("imm1", 12, 1)

MEM_FIELDS = (Field("imm10", 0, 10), Field("addr_mod", 14, 2, Kind.MOD),
              Field("mod0", 16, 4, Kind.MOD), _reg("vd", 20))
# Blackhole widens AddrMod to 3 bits, at [15:13].
MEM_FIELDS_BH = (Field("imm10", 0, 10), Field("addr_mod", 13, 3, Kind.MOD),
                 Field("mod0", 16, 4, Kind.MOD), _reg("vd", 20))

# tt-llk's TTI_ argument lists (name, shift, width), shared by many opcodes.
def _llk(*args: tuple[str, int, int]) -> tuple[LlkArg, ...]:
    return tuple(LlkArg(*a) for a in args)


LLK_IMM12_GROUP = _llk(("imm12_math", 12, 12), ("lreg_c", 8, 4), ("lreg_dest", 4, 4), ("instr_mod1", 0, 4))
LLK_MAD_GROUP = _llk(("lreg_src_a", 16, 8), ("lreg_src_b", 12, 4), ("lreg_src_c", 8, 4), ("lreg_dest", 4, 4),
                     ("instr_mod1", 0, 4))
LLK_IMM16_GROUP = _llk(("imm16_math", 8, 16), ("lreg_dest", 4, 4), ("instr_mod1", 0, 4))
LLK_MEM_GROUP = _llk(("lreg_ind", 20, 4), ("instr_mod0", 16, 4), ("sfpu_addr_mode", 14, 2), ("dest_reg_addr", 0, 14))
LLK_MEM_GROUP_BH = _llk(("lreg_ind", 20, 4), ("instr_mod0", 16, 4), ("sfpu_addr_mode", 13, 3),
                        ("dest_reg_addr", 0, 13))
LLK_BY_MNEMONIC = {
    "SFPLOAD": LLK_MEM_GROUP, "SFPSTORE": LLK_MEM_GROUP, "SFPLOADMACRO": LLK_MEM_GROUP,
    "SFPLOADI": _llk(("lreg_ind", 20, 4), ("instr_mod0", 16, 4), ("imm16", 0, 16)),
    "SFPLUT": _llk(("lreg_ind", 20, 4), ("instr_mod0", 16, 4), ("dest_reg_addr", 0, 16)),
    "SFPLUTFP32": _llk(("lreg_dest", 4, 20), ("instr_mod1", 0, 4)),
    "SFPCAST": _llk(("lreg_src_c", 8, 16), ("lreg_dest", 4, 4), ("instr_mod1", 0, 4)),
    "SFPSTOCHRND": _llk(("rnd_mode", 21, 3), ("imm8_math", 16, 5), ("lreg_src_b", 12, 4), ("lreg_src_c", 8, 4),
                        ("lreg_dest", 4, 4), ("instr_mod1", 0, 4)),
    "SFPMAD": LLK_MAD_GROUP, "SFPADD": LLK_MAD_GROUP, "SFPMUL": LLK_MAD_GROUP, "SFPMUL24": LLK_MAD_GROUP,
    "SFPADDI": LLK_IMM16_GROUP, "SFPMULI": LLK_IMM16_GROUP, "SFPCONFIG": LLK_IMM16_GROUP,
    "SFPNOP": (),
}
# tt-llk spells SFPSTOCHRND's macro TTI_SFP_STOCH_RND.
LLK_NAME = {"SFPSTOCHRND": "SFP_STOCH_RND"}

S, M, R, St, L = Unit.SIMPLE, Unit.MAD, Unit.ROUND, Unit.STORE, Unit.LOAD


def _simple(mn, op, fields, **kw):
    return Opcode(mn, op, fields, S, macro_units=frozenset({S}), **kw)


def _mad(mn, op, fields, **kw):
    return Opcode(mn, op, fields, M, latency=2, macro_units=frozenset({M}), narrow=Narrowing.LANDS, **kw)


def _loadmacro_fields(addr_mod: Field) -> tuple[Field, ...]:
    return (Field("vd_hi", 0, 1), Field("imm9", 1, 9), addr_mod,
            Field("mod0", 16, 4, Kind.MOD), Field("vd_lo", 20, 2), Field("macro", 22, 2, Kind.MOD))


_WORMHOLE = [
    # LO16_ONLY (14) and HI16_ONLY (15) keep half of the old VD.
    Opcode("SFPLOAD", 0x70, MEM_FIELDS, L, modifiers=(("mod0", Mod0Fmt),),
           reads=_reads("vd", when=(("mod0", 0xE, 0xE),)), narrow=Narrowing.MERGE,
           doc="Dst -> LReg with format conversion"),
    # UPPER (8) and LOWER (10) keep half of the old VD.
    Opcode("SFPLOADI", 0x71, (Field("imm16", 0, 16), Field("mod0", 16, 4, Kind.MOD), _reg("vd", 20)), L,
           undefined_values=(("mod0", frozenset(range(16)) - set(LoadiMod0)),), modifiers=(("mod0", LoadiMod0),),
           reads=_reads("vd", when=(("mod0", 0xD, LoadiMod0.UPPER),)), reads_for_vd=True, doc="immediate -> LReg"),
    Opcode("SFPSTORE", 0x72, MEM_FIELDS, St, macro_units=frozenset({St}), modifiers=(("mod0", Mod0Fmt),),
           reads=_reads("vd"), narrow=Narrowing.STORE,
           doc="LReg -> Dst with format conversion"),
    # |L3| picks a row of L0-L2; L3's sign is SGN_RETAIN's; Mod0 bit 3 is INDIRECT_VD.
    _mad("SFPLUT", 0x73, (Field("mod0", 16, 4, Kind.MOD), _reg("vd", 20)),
         reads=_reads(3, "lut") + _indirect_vd("mod0"),
         modifiers=(("mod0", LutMod), ("mod0", (MadMod1.INDIRECT_VD,))), doc="3-entry fp8 table on |L3|"),
    # bf16(Imm16) * VC + 0 and bf16(Imm16) * L10 + VC, VC being VD.
    _mad("SFPMULI", 0x74, (MOD1, VD, IMM16_HI), reads=_reads("vc") + _indirect_vd(), modifiers=_IMM_MAD_MODIFIERS,
         doc="VD = bf16(imm16) * VD"),
    _mad("SFPADDI", 0x75, (MOD1, VD, IMM16_HI), reads=_reads(10, "vc") + _indirect_vd(), modifiers=_IMM_MAD_MODIFIERS,
         doc="VD = bf16(imm16) + VD"),
    _simple("SFPDIVP2", 0x76, (MOD1, VD, VC, IMM8), reads=_reads("vc"), reads_for_vd=True,
            doc="set or add to the exponent"),
    _simple("SFPEXEXP", 0x77, (MOD1, VD, VC), reads=_reads("vc"), reads_for_vd=True, doc="extract exponent"),
    _simple("SFPEXMAN", 0x78, (MOD1, VD, VC), reads=_reads("vc"), reads_for_vd=True, doc="extract mantissa"),
    _simple("SFPIADD", 0x79, (MOD1, VD, VC, IMM12S), reads=_reads("vc") + _reads("vb", when=(_MOD1_IMM,)),
            reads_for_vd=True, narrow=Narrowing.SELF_SUB, doc="integer add/sub, sets flags"),
    _simple("SFPSHFT", 0x7A, (MOD1, VD, VC, IMM12S), reads=_reads("vb") + _reads("vc", when=(_MOD1_IMM,)),
            reads_for_vd=True, modifiers=(("mod1", ShftMod1),), doc="logical shift"),
    # Mod1 bit 0 (from Imm1) and bit 3 (clear) ignore VC.
    _simple("SFPSETCC", 0x7B, (MOD1, VD, VC, IMM1), reads=_reads("vc", when=(("mod1", 9, 0),)),
            narrow=Narrowing.PREDICATED,
            doc="set LaneFlags from a test"),
    # FROM_SPECIAL (Mod1 bit 3) reads configuration or the PRNG, not an LReg.
    _simple("SFPMOV", 0x7C, (MOD1, VD, VC), reads=_reads("vc", when=(("mod1", MovMod1.FROM_SPECIAL, 0),)),
            reads_for_vd=True, modifiers=(("mod1", MovMod1),),
            doc="move, negate, or read configuration/PRNG"),
    _simple("SFPABS", 0x7D, (MOD1, VD, VC), reads=_reads("vc"), reads_for_vd=True,
            doc="absolute value, float or int"),
    _simple("SFPAND", 0x7E, (VD, VC), reads=_reads("vb", "vc"), reads_for_vd=True, doc="VD &= VC"),
    _simple("SFPOR", 0x7F, (VD, VC), reads=_reads("vb", "vc"), reads_for_vd=True, doc="VD |= VC"),
    _simple("SFPNOT", 0x80, (VD, VC), reads=_reads("vc"), reads_for_vd=True, doc="VD = ~VC"),
    _simple("SFPLZ", 0x81, (MOD1, VD, VC), reads=_reads("vc"), reads_for_vd=True, doc="count leading zeros"),
    # Mod1 bit 0 takes the new field from the immediate; otherwise from VB.
    _simple("SFPSETEXP", 0x82, (MOD1, VD, VC, IMM8), reads=_reads("vc") + _reads("vb", when=(_MOD1_IMM,)),
            reads_for_vd=True, doc="replace exponent"),
    _simple("SFPSETMAN", 0x83, (MOD1, VD, VC, IMM12U), reads=_reads("vc") + _reads("vb", when=(_MOD1_IMM,)),
            reads_for_vd=True, doc="replace mantissa"),
    _mad("SFPMAD", 0x84, (MOD1, VD, VC, VB, VA), reads=_MAD_READS, modifiers=_MAD_MODIFIERS, doc="VD = VA * VB + VC"),
    _mad("SFPADD", 0x85, (MOD1, VD, VC, VB, VA), reads=_MAD_READS, modifiers=_MAD_MODIFIERS,
         doc="VD = VA * VB + VC (VA = 1.0 by convention)"),
    _mad("SFPMUL", 0x86, (MOD1, VD, VC, VB, VA), reads=_MAD_READS, modifiers=_MAD_MODIFIERS,
         doc="VD = VA * VB + VC (VC = 0.0 by convention)"),
    _simple("SFPPUSHC", 0x87, (VD,), must_be_zero=0xF, doc="push flags onto the stack"),
    _simple("SFPPOPC", 0x88, (MOD1, VD), doc="pop or combine with the stack top"),
    _simple("SFPSETSGN", 0x89, (MOD1, VD, VC, IMM1), reads=_reads("vc") + _reads("vb", when=(_MOD1_IMM,)),
            reads_for_vd=True, doc="replace sign"),
    _simple("SFPENCC", 0x8A, (MOD1, VD, Field("imm2", 12, 2)), doc="set flag enable and flags"),
    _simple("SFPCOMPC", 0x8B, (VD,), doc="complement flags against the stack top"),
    _simple("SFPTRANSP", 0x8C, (VD,), reads=_reads(*range(8)), doc="transpose L0-L3 and L4-L7 as 4x4 blocks"),
    _simple("SFPXOR", 0x8D, (VD, VC), reads=_reads("vb", "vc"), reads_for_vd=True, narrow=Narrowing.SELF_XOR,
            doc="VD ^= VC"),
    # The integer modes 4 and 5 shift by VB & 31 unless UseImm5 is set.
    Opcode("SFPSTOCHRND", 0x8E,
           (Field("mod1", 0, 3, Kind.MOD), Field("use_imm5", 3, 1, Kind.MOD), VD, VC, VB,
            Field("imm5", 16, 5), Field("stochastic", 21, 1, Kind.MOD)),
           R, macro_units=frozenset({R}), reads=_reads("vc") + _reads("vb", when=(("mod1", 6, 4), ("use_imm5", 1, 0))),
           reads_for_vd=True, modifiers=(("mod1", StochRndMode), ("stochastic", RoundMode)),
           doc="round FP32 or integers, nearest-away or stochastic"),
    Opcode("SFPNOP", 0x8F, (), L, macro_units=frozenset({S, M, R}), must_be_zero=0x80,
           doc="occupy a sub-unit for one cycle"),
    _simple("SFPCAST", 0x90, (MOD1, VD, VC), reads=_reads("vc"), reads_for_vd=True, modifiers=(("mod1", CastMod1),),
            doc="sign-magnitude int32 -> FP32"),
    # SFPCONFIG writes at the end of T; only a DISABLE_BACKDOOR_LOAD change may be seen late (a hazard rule).
    # Its VD names a configuration target, so it never writes a template by the backdoor.
    _simple("SFPCONFIG", 0x91, (MOD1, VD, IMM16_HI), backdoor=False, reads=_CONFIG_READS,
            narrow=Narrowing.CONFIG_TARGET, modifiers=(("mod1", ConfigMod1),),
            doc="write LoadMacroConfig, constants, LaneConfig"),
    # VC and VD (under a macro, VD's value through the VB port); with ENABLE_DEST_INDEX the
    # index payload of L[4 + (VC & 3)] or L[4 + (VD & 3)].
    _simple("SFPSWAP", 0x92, (MOD1, VD, VC), latency=2, two_cycles=True, interlock=True,
            reads=_SWAP_READS, narrow=Narrowing.SWAP, doc="swap or min/max, two cycles with interlock"),
    Opcode("SFPLOADMACRO", 0x93, _loadmacro_fields(MEM_FIELDS[1]), L, doc="SFPLOAD, then schedule up to four instructions",
           reads=_reads("vd", when=(("mod0", 0xE, 0xE),)), narrow=Narrowing.MERGE, modifiers=(("mod0", Mod0Fmt),),
           # Imm10 = (Imm9 << 1) | VDHi: the VD bit lands in address bit 0, which addressing ignores.
           composites=(Composite("vd", (("vd_lo", 0, 2), ("vd_hi", 2, 1)), 3, Kind.REG),
                       Composite("offset", (("imm9", 1, 9),), 10)),
           derived=(Composite("imm10", (("vd_hi", 0, 1), ("imm9", 1, 9)), 10),)),
    # By mode: COPY4 L1-L3; CHAINED_COPY4 L0-L3; SHFLROR1_AND_COPY4 L1-L3 and VC; SHFLROR1 and
    # SHFLSHR1 VC; SHFT_LREG VB and VC; SHFT_IMM VB.
    Opcode("SFPSHFT2", 0x94, (MOD1, VD, VC, IMM12S), R, macro_units=frozenset({R}),
           aliases=(Alias("vb", "imm12", 4),),
           two_cycle_mod1=_SHFT2_TWO_CYCLE,
           undefined_values=(("mod1", frozenset(range(16)) - set(Shft2Mod1)),),
           reads=_SHFT2_READS, narrow=Narrowing.SHFT2, modifiers=(("mod1", Shft2Mod1),),
           next_cycle_forbidden=_SHFT2_NEXT_FORBIDDEN,
           doc="cross-lane shuffles and shifts"),
    _mad("SFPLUTFP32", 0x95, (MOD1, VD), reads=_LUTFP32_READS,
         modifiers=(("mod1", LutFp32Table), ("mod1", LutMod), ("mod1", (MadMod1.INDIRECT_VD,))),
         doc="3- or 6-entry fp32/fp16 table on |L3|"),
]



# ---------------------------------------------------------------------------
# Blackhole: Wormhole's table with these differences (BlackholeA0/ pages)
# ---------------------------------------------------------------------------

_STALL_USE_VB_GAP = dict(stall_unseen=_reads("vb"), stall_believed=_reads("vd"), stall_gap="stall-gap-use-vb",
                         modifiers=(("mod1", AndOrMod1),),
                         operand_when=(("vb", (("mod1", AndOrMod1.USE_VB, AndOrMod1.USE_VB),)),))

# Changed entries: mnemonic -> the Opcode attributes that differ.
_BLACKHOLE_CHANGES: dict[str, dict] = {
    "SFPLOAD": dict(fields=MEM_FIELDS_BH, llk_args=LLK_MEM_GROUP_BH),
    "SFPSTORE": dict(fields=MEM_FIELDS_BH, llk_args=LLK_MEM_GROUP_BH),
    "SFPLOADMACRO": dict(fields=_loadmacro_fields(MEM_FIELDS_BH[1]), llk_args=LLK_MEM_GROUP_BH),
    # USE_VB (Mod1 bit 0): VB is an operand instead of VD. The stall logic ignores USE_VB and looks at VD.
    "SFPAND": dict(fields=(MOD1, VD, VC, VB), **_STALL_USE_VB_GAP),
    "SFPOR": dict(fields=(MOD1, VD, VC, VB), **_STALL_USE_VB_GAP),
    # The stall logic believes VC read in every mode, and does not see the VB (VD) read.
    "SFPSHFT": dict(reads=_SHFT_READS_BH, stall_unseen=_SHFT_READS_BH, stall_believed=_reads("vc"),
                    stall_gap="stall-gap-shft"),
    # The stall logic does not see the VB (VD) read.
    "SFPIADD": dict(stall_unseen=_reads("vb", when=(_MOD1_IMM,)), stall_gap="stall-gap-iadd"),
    # ... nor SFPCONFIG's L0 read, nor SFPSWAP's first-cycle reads (its second-cycle ones need no stall).
    "SFPCONFIG": dict(stall_unseen=_CONFIG_READS, stall_gap="stall-gap-config"),
    "SFPSWAP": dict(stall_unseen=_SWAP_READS, stall_gap="stall-gap-swap"),
    # SFPSHFT2: its two-cycle modes interlock; no read seen in modes 2-4, and VD believed instead
    # of VB in modes 5-6.
    "SFPSHFT2": dict(interlock_mod1=_SHFT2_TWO_CYCLE,
                     stall_unseen=(_shft2_mode(Shft2Mod1.SHFLROR1_AND_COPY4, 1, 2, 3, "vc")
                                   + _shft2_mode(Shft2Mod1.SHFLROR1, "vc") + _shft2_mode(Shft2Mod1.SHFLSHR1, "vc")
                                   + _shft2_mode(Shft2Mod1.SHFT_LREG, "vb") + _shft2_mode(Shft2Mod1.SHFT_IMM, "vb")),
                     stall_believed=_shft2_mode(Shft2Mod1.SHFT_LREG, "vd") + _shft2_mode(Shft2Mod1.SHFT_IMM, "vd"),
                     stall_gap="stall-gap-shft2"),
    # Its view names only VD, not the constant L10 (1.0) SFPADDI adds to, which no instruction
    # can be writing (docs/timing.md, "Choices where the documentation is silent").
    "SFPADDI": dict(stall_unseen=_reads(10)),
    # Mod1 selects pushing or mutating the stack top.
    "SFPPUSHC": dict(fields=(MOD1, VD), must_be_zero=0),
    # A 2-bit rounding mode (RoundMode) replaces the stochastic bit. The stall logic believes VB
    # read in every mode (a false dependency).
    "SFPSTOCHRND": dict(fields=(Field("mod1", 0, 3, Kind.MOD), Field("use_imm5", 3, 1, Kind.MOD), VD, VC, VB,
                                Field("imm5", 16, 5), Field("rnd_mode", 21, 2, Kind.MOD)),
                        modifiers=(("mod1", StochRndMode), ("rnd_mode", RoundMode)),
                        stall_believed=_reads("vb")),
    # Mod1 is mirrored into bits [19:16]. The stall logic believes every LReg read but L7, and takes
    # INDIRECT_VD (L7 read, every LReg written) from Mod1Mirror (SFPLUTFP32.md).
    "SFPLUTFP32": dict(fields=(MOD1, VD, Field("mod1_mirror", 16, 4, Kind.MOD)), stall_unseen=_indirect_vd(),
                       stall_believed=_reads(*(r for r in range(17) if r != 7)) + _indirect_vd("mod1_mirror"),
                       stall_gap="stall-gap-lutfp32-mirror"),
}

# Instructions new in Blackhole.
_BLACKHOLE_NEW = [
    _simple("SFPLE", 0x96, (MOD1, VD, VC), reads=_reads("vb", "vc"), narrow=Narrowing.COMPARE,
            modifiers=(("mod1", CmpMod1),),
            doc="VD <= VC (sign-magnitude or total order) to flags, VD or stack"),
    _simple("SFPGT", 0x97, (MOD1, VD, VC), reads=_reads("vb", "vc"), narrow=Narrowing.COMPARE,
            modifiers=(("mod1", CmpMod1),),
            doc="VD > VC (sign-magnitude or total order) to flags, VD or stack"),
    _mad("SFPMUL24", 0x98, (MOD1, VD, VC, VB, VA), reads=_MAD_READS,
         modifiers=(("mod1", Mul24Mod1), ("mod1", (MadMod1.INDIRECT_VA, MadMod1.INDIRECT_VD))),
         doc="low or high 23 bits of a 23-bit integer product"),
    # COND_RECIP (Mod1 1) tests VB's sign.
    _simple("SFPARECIP", 0x99, (MOD1, VD, VC, VB),
            reads=_reads("vc") + _reads("vb", when=(("mod1", 0xF, ArecipMod1.COND_RECIP),)),
            reads_for_vd=True, modifiers=(("mod1", ArecipMod1),), doc="approximate reciprocal or exponential"),
]


def _finish(table: list[Opcode], arch: Arch, llk: dict) -> list[Opcode]:
    return [dataclasses.replace(o, arch=arch, llk_name=LLK_NAME.get(o.mnemonic, o.mnemonic),
                                llk_args=o.llk_args or llk.get(o.mnemonic, LLK_IMM12_GROUP)) for o in table]


def _blackhole_table() -> list[Opcode]:
    unknown = set(_BLACKHOLE_CHANGES) - {o.mnemonic for o in _WORMHOLE}
    assert not unknown, f"_BLACKHOLE_CHANGES names instructions Wormhole lacks: {unknown}"
    changed = [dataclasses.replace(o, **_BLACKHOLE_CHANGES.get(o.mnemonic, {})) for o in _WORMHOLE]
    return changed + _BLACKHOLE_NEW


class Isa:
    """One architecture's instruction set: the table and its lookups."""

    def __init__(self, arch: Arch, table: list[Opcode]):
        self.arch = arch
        self.table = tuple(table)
        self.opcodes: dict[str, Opcode] = {o.mnemonic: o for o in table}
        self.by_llk_name: dict[str, Opcode] = {o.llk_name: o for o in table}
        self.by_opcode: dict[int, Opcode] = {o.opcode: o for o in table}
        assert len(self.opcodes) == len(self.by_opcode) == len(table), f"{arch}: duplicate mnemonic or opcode"

    def __repr__(self) -> str:
        return f"Isa({self.arch.value}, {len(self.table)} instructions)"


# Every declared architecture's table (`declare`), and its title and names for `Arch.parse`.
ISA: dict[Arch, Isa] = {}
_TITLES: dict[Arch, str] = {}
_BY_NAME: dict[str, Arch] = {}


def declare(arch: Arch | str, title: str, table: list[Opcode], features: Features,
            aliases: tuple[str, ...] = ()) -> Arch:
    """Declare an architecture as data: its table, its feature record, its title
    and the other names `Arch.parse` takes for it. `arch` is a member of `Arch`,
    or the name of a further architecture, which becomes an `Arch` value that
    `Arch(name)` and `Arch.parse` find but iterating `Arch` (the chips this
    project models) does not; `architectures()` lists every declared one.
    Declare before importing hdl/, whose `Opcode` enum takes every declared
    table's opcodes. The new opcodes' semantics (`model.semantics.semantics`)
    and their RTL (`hdl.simple_unit.lane_operation`) are the rest of what a
    further architecture needs."""
    if isinstance(arch, str):
        name = arch.strip().lower()
        if name in _BY_NAME:
            raise ValueError(f"architecture {name!r} is already declared")
        arch = object.__new__(Arch)         # an Arch value beside the enum's members
        arch._name_, arch._value_ = name.upper(), name
        Arch._value2member_map_[name] = arch
    FEATURES[arch] = features
    ISA[arch] = Isa(arch, _finish(table, arch, LLK_BY_MNEMONIC))
    _TITLES[arch] = title
    for name in (arch.value, *aliases):
        _BY_NAME[name] = arch
    return arch


def architectures() -> tuple[Arch, ...]:
    """Every declared architecture: the chips (`Arch`'s members), then any further one."""
    return tuple(ISA)


declare(Arch.WORMHOLE, "Wormhole B0", _WORMHOLE, FEATURES[Arch.WORMHOLE], aliases=("wh", "wormhole_b0"))
declare(Arch.BLACKHOLE, "Blackhole A0", _blackhole_table(), FEATURES[Arch.BLACKHOLE],
        aliases=("bh", "blackhole_a0"))

# Instructions that read VD as their VB operand ("unsigned VB = VD;" in their
# functional models); an SFPLOADMACRO override replaces that implicit read.
# Blackhole's SFPAND and SFPOR read VD unless Mod1 USE_VB names their VB field.
IMPLICIT_VB_IS_VD = frozenset({"SFPAND", "SFPOR", "SFPXOR", "SFPIADD", "SFPSHFT", "SFPSETEXP",
                               "SFPSETMAN", "SFPSETSGN", "SFPLE", "SFPGT"})
# Instructions that read VD as their VC operand ("unsigned VC = VD;").
IMPLICIT_VC_IS_VD = frozenset({"SFPADDI", "SFPMULI"})


class DecodeError(ValueError):
    pass


@dataclass(frozen=True)
class Instruction:
    """A decoded instruction word: the opcode's table entry and its field values."""
    op: Opcode
    values: tuple[tuple[str, int], ...]
    word: int

    @property
    def mnemonic(self) -> str:
        return self.op.mnemonic

    def __post_init__(self):
        # Looked up on every cycle: made once per decoded word (`decode` keeps them).
        object.__setattr__(self, "_by_name", dict(self.values))
        object.__setattr__(self, "_operands", {})

    def __getitem__(self, name: str) -> int:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"{self.op.mnemonic} has no field {name!r}") from None

    def get(self, name: str, default: int | None = None) -> int | None:
        return self._by_name.get(name, default)

    def operand(self, name: str) -> int:
        """A value by its table name, whether a raw field, an alias (SFPSHFT2's
        VB), a composite (SFPLOADMACRO's VD) or a derived operand
        (SFPLOADMACRO's Imm10). KeyError if the instruction has none."""
        known = self._operands.get(name)
        if known is None:
            known = self._operands[name] = self._operand(name)
        return known

    def _operand(self, name: str) -> int:
        for comp in self.op.composites + self.op.derived:
            if comp.name == name:
                return comp.join(self.fields)
        for alias in self.op.aliases:
            if alias.name == name:
                return self[alias.of] & ((1 << alias.width) - 1)
        return self[name]

    def register(self, name: str) -> int | None:
        """Register operand `name` ("vb" or "vc") as the functional model resolves it
        (`Opcode.sources`): its field, or VD, or None if it has none."""
        source = self.op.sources[name]
        if source.names(self.__getitem__):
            return self.operand(source.field)
        return self.get("vd", 0) if source.implicit_vd else None

    def field_register(self, name: str) -> int | None:
        """Register operand `name` if a field names it (a macro template's own), else None."""
        source = self.op.sources[name]
        return self.operand(source.field) if source.names(self.__getitem__) else None

    @property
    def backdoor_index(self) -> int | None:
        """The macro template a thread-issued VD of 12-15 writes by the backdoor, or None."""
        vd = self.get("vd")
        return vd - 12 if self.op.backdoor and vd is not None and vd >= 12 else None

    @property
    def fields(self) -> dict[str, int]:
        return dict(self.values)

    @functools.cached_property
    def latency(self) -> int:
        """Cycles from issue until the LReg result can be read."""
        return 2 if self.get("mod1") in self.op.two_cycle_mod1 else self.op.latency

    @functools.cached_property
    def two_cycles(self) -> bool:
        """Holds its sub-unit at T+1 as well (SFPSWAP, SFPSHFT2 modes 2-4)."""
        return self.op.two_cycles or self.get("mod1") in self.op.two_cycle_mod1

    @property
    def ignored_bits(self) -> int:
        """Bits set in the word that no field of this opcode uses."""
        return self.word & ~self.op.used_mask & 0xFFFFFFFF


def check_field(op: Opcode, name: str, value: int) -> None:
    """Raise ValueError if `name` is not a field of `op` or `value` does not fit it."""
    for alias in op.aliases:
        if alias.name == name:
            if not 0 <= value < (1 << alias.width):
                raise ValueError(f"{op.mnemonic}: field {name}={value} out of range 0..{(1 << alias.width) - 1}")
            return
    for comp in op.composites:
        if comp.name == name:
            try:
                comp.split(value)
            except ValueError as e:
                raise ValueError(f"{op.mnemonic}: field {name}={value}: {e}") from None
            return
    f = op.field_map.get(name)
    if f is None:
        known = ", ".join(readable_field_names(op)) or "none"
        raise ValueError(f"{op.mnemonic} has no field {name!r} (fields: {known})")
    if not f.min <= value <= f.max:
        raise ValueError(f"{op.mnemonic}: field {name}={value} out of range {f.min}..{f.max}")


def encode(mnemonic: str, arch: Arch, **values: int) -> int:
    """Build an instruction word of `arch` from field values; missing fields are 0.

    Raises ValueError naming the field when a value does not fit."""
    op = ISA[arch].opcodes.get(mnemonic.upper())
    if op is None:
        raise ValueError(f"unknown mnemonic {mnemonic!r}" + ("" if arch is Arch.WORMHOLE else f" on {arch.title}"))
    for name, v in values.items():
        check_field(op, name, v)
    values = dict(values)
    for alias in op.aliases:
        if alias.name in values:
            v = values.pop(alias.name)
            low = (1 << alias.width) - 1
            if alias.of in values and values[alias.of] & low != v:
                raise ValueError(f"{op.mnemonic}: {alias.name} and {alias.of} disagree")
            values[alias.of] = (values.get(alias.of, 0) & ~low) | v
    for comp in op.composites:
        if comp.name in values:
            for raw_name, raw_value in comp.split(values.pop(comp.name)).items():
                if raw_name in values:
                    raise ValueError(f"{op.mnemonic}: give either {comp.name} or {raw_name}, not both")
                values[raw_name] = raw_value
    word = OPCODE.insert(op.opcode)
    for name, v in values.items():
        word |= op.field_map[name].insert(v)
    return word


def opcode_of(word: int) -> int:
    """The opcode byte of a 32-bit instruction word (`OPCODE`)."""
    return word >> OPCODE.lo


def is_mnemonic(word: int, mnemonic: str, arch: Arch) -> bool:
    """Whether `word` is `mnemonic`'s opcode (without decoding its fields)."""
    return opcode_of(word) == ISA[arch].opcodes[mnemonic].opcode


@functools.lru_cache(maxsize=65536)
def decode(word: int, arch: Arch) -> Instruction:
    """Decode a 32-bit word of `arch`. Raises DecodeError for a word that is
    not an SFPU instruction of that architecture."""
    if not 0 <= word <= 0xFFFFFFFF:
        raise DecodeError(f"0x{word:X} is not a 32-bit word")
    op = ISA[arch].by_opcode.get(opcode_of(word))
    if op is None:
        raise DecodeError(f"0x{word:08X}: opcode 0x{opcode_of(word):02X} is not a {arch.title.split()[0]} SFPU instruction")
    return Instruction(op, tuple((f.name, f.extract(word)) for f in op.fields), word)


def readable_field_names(op: Opcode) -> list[str]:
    """Field names of the readable assembly form, in table order."""
    hidden = {part for c in op.composites for part, _, _ in c.parts}
    names = [f.name for f in op.fields if f.name not in hidden] + [c.name for c in op.composites]
    return sorted(names, key=lambda n: _DISPLAY_ORDER.index(n) if n in _DISPLAY_ORDER else len(_DISPLAY_ORDER))


# Registers first, then immediates, then modifiers: "sfpmad vd=3 va=0 vb=1 vc=2 mod1=0".
_DISPLAY_ORDER = ["macro", "vd", "va", "vb", "vc", "imm16", "imm12", "imm10", "offset", "imm8", "imm5", "imm2",
                  "imm1", "use_imm5", "stochastic", "rnd_mode", "addr_mod", "mod0", "mod1", "mod1_mirror"]


def readable_fields(ins: Instruction) -> list[tuple[str, int]]:
    """The instruction's fields as the readable assembly form names them."""
    raw = ins.fields
    values = {c.name: c.join(raw) for c in ins.op.composites}
    return [(name, values[name] if name in values else raw[name]) for name in readable_field_names(ins.op)]
