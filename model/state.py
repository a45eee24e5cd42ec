"""Architectural state of one SFPU (Wormhole B0 or Blackhole A0), as plain integers.

Everything the SFPU instructions read or write lives here: the LRegs, the
predication flags and their stack, the per-lane PRNG, LaneConfig and
LoadMacroConfig, Dst, and the few Tensix registers the SFPU consults (the Dst
read/write counter, ADDR_MOD, the SrcB format, the Fp32 Dst mode, base offsets).
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field

import numpy as np

from .isa import MACRO_MISC, Arch, LaneConfigBit

LANES = 32
NUM_LREGS = 17          # L0-L7, constants L8-L15, macro-only L16
FLAG_STACK_DEPTH = 8
DST_ROWS = 1024
DST_COLS = 16

# The fixed constants and the programmable ones' reset values.
CONST_0_8373 = 0x3F56594B
CONST_ONE = 0x3F800000
PROGRAMMABLE_CONST_DEFAULTS = {11: 0xBF800000, 12: 0x37800000, 13: 0xBF2CC4C7, 14: 0xBEB08FF9}


LANE_CONFIG_MASK = (1 << 18) - 1
MISC_MASK = (1 << MACRO_MISC.size) - 1


@dataclass
class AddrMod:
    """One ADDR_MOD slot as SFPLOAD/SFPSTORE use it (ADDR_MOD_AB_SEC, _DST_SEC, _BIAS_SEC)."""
    srca_incr: int = 0
    srca_cr: bool = False
    srca_clear: bool = False
    srcb_incr: int = 0
    srcb_cr: bool = False
    srcb_clear: bool = False
    dst_incr: int = 0
    dst_cr: bool = False
    dst_c_to_cr: bool = False
    dst_clear: bool = False
    bias_incr: int = 0
    bias_clear: bool = False


@dataclass
class TensixRegs:
    """The Tensix registers and counters of the issuing thread that the SFPU reads."""
    fp32_dest: bool = False          # ALU_ACC_CTRL_SFPU_Fp32_enabled
    srcb_format: int = 0             # effective SrcB data format code (ALU_FORMAT_SPEC_REG*)
    dest_offset: int = 0             # DEST_TARGET_REG_CFG_MATH_Offset
    dest_base: int = 0               # DEST_REGW_BASE_Base
    addr_mod_set_base: bool = False  # ADDR_MOD_SET_Base
    addr_mods: list[AddrMod] = field(default_factory=lambda: [AddrMod() for _ in range(8)])
    rwc_dst: int = 0                 # 10-bit
    rwc_dst_cr: int = 0
    rwc_srca: int = 0                # 6-bit
    rwc_srca_cr: int = 0
    rwc_srcb: int = 0
    rwc_srcb_cr: int = 0
    extra_addr_mod_bit: int = 0
    # Blackhole only (Wormhole has none of them; their defaults change nothing).
    rwc_sp: int = 0                  # RWCs[thread].Sp, the SFPU stack pointer (10-bit)
    sfpu_stack_incr: int = 0         # ThreadConfig SFPU_STACK_Incr (10-bit)
    dest_sp_base: int = 0            # DEST_SP_BASE_Base (10-bit)
    dest_remap_addrs: bool = False   # DEST_ACCESS_CFG_remap_addrs (Adj16)
    dest_swizzle_32b: bool = False   # DEST_ACCESS_CFG_swizzle_32b (Adj32)

    def apply_partial_addr_mod(self, addr_mod: int, base: bool = True) -> None:
        """ApplyAddrMod without the fidelity-phase update, as SFPLOAD/SFPSTORE do.
        `base`: the 2-bit AddrMod of Wormhole is moved to slots 4-7 by
        ADDR_MOD_SET_Base or the bias bit."""
        index = addr_mod + (4 if base and (self.extra_addr_mod_bit or self.addr_mod_set_base) else 0)
        m = self.addr_mods[index]
        self.rwc_srca, self.rwc_srca_cr = step_counter(self.rwc_srca, self.rwc_srca_cr, m.srca_incr,
                                                       m.srca_clear, m.srca_cr, False, 6)
        self.rwc_srcb, self.rwc_srcb_cr = step_counter(self.rwc_srcb, self.rwc_srcb_cr, m.srcb_incr,
                                                       m.srcb_clear, m.srcb_cr, False, 6)
        self.rwc_dst, self.rwc_dst_cr = step_counter(self.rwc_dst, self.rwc_dst_cr, m.dst_incr,
                                                     m.dst_clear, m.dst_cr, m.dst_c_to_cr, 10)
        if m.bias_clear:
            self.extra_addr_mod_bit = 0
        elif m.bias_incr & 3:
            self.extra_addr_mod_bit ^= 1   # a one-bit counter


def step_counter(value, cr, incr, clear, use_cr, c_to_cr, bits):
    """One counter and its carry register after an increment (ApplyPartialAddrMod, INCRWC)."""
    mask = (1 << bits) - 1
    if clear:
        return 0, 0
    if c_to_cr:
        value = (value + incr) & mask
        return value, value
    if use_cr:
        cr = (cr + incr) & mask
        return cr, cr
    return (value + incr) & mask, cr


def reset_lregs() -> np.ndarray:
    lregs = np.zeros((NUM_LREGS, LANES), dtype=np.uint32)
    lregs[8] = CONST_0_8373
    lregs[10] = CONST_ONE
    for idx, value in PROGRAMMABLE_CONST_DEFAULTS.items():
        lregs[idx] = value
    lregs[15] = 2 * np.arange(LANES, dtype=np.uint32)
    return lregs


@dataclass
class FlagStackEntry:
    lane_flags: np.ndarray      # bool[32]
    use_flags: np.ndarray       # bool[32]

    def masks(self) -> tuple[int, int]:
        """Both as lane bit masks; an entry is never changed once pushed, so they are kept."""
        cached = self.__dict__.get("_masks")
        if cached is None:
            cached = self.__dict__["_masks"] = (lane_bits(self.lane_flags), lane_bits(self.use_flags))
        return cached


def lane_bits(mask) -> int:
    """bool[32] -> int with bit i set for lane i."""
    return int.from_bytes(np.packbits(np.asarray(mask, dtype=bool), bitorder="little"), "little")


def shallow_copy(obj):
    """copy.copy of a plain dataclass instance, without copy's generic protocol (a fork per cycle)."""
    twin = object.__new__(type(obj))
    twin.__dict__ = obj.__dict__.copy()          # half the cost of updating the new object's empty dict
    return twin




@dataclass
class SfpuState:
    # The architecture whose instruction set and behaviour apply (model.isa.Arch).
    arch: Arch
    lregs: np.ndarray = field(default_factory=reset_lregs)
    lane_flags: np.ndarray = field(default_factory=lambda: np.zeros(LANES, dtype=bool))
    use_flags: np.ndarray = field(default_factory=lambda: np.zeros(LANES, dtype=bool))
    flag_stack: list[FlagStackEntry] = field(default_factory=list)   # oldest first
    prng: np.ndarray = field(default_factory=lambda: np.zeros(LANES, dtype=np.uint32))
    lane_config: np.ndarray = field(default_factory=lambda: np.zeros(LANES, dtype=np.uint32))
    macro_templates: np.ndarray = field(default_factory=lambda: np.zeros((4, LANES), dtype=np.uint32))
    macro_sequences: np.ndarray = field(default_factory=lambda: np.zeros((4, LANES), dtype=np.uint32))
    macro_misc: np.ndarray = field(default_factory=lambda: np.zeros(LANES, dtype=np.uint32))
    # VC as captured by the last SFPSHFT2 mode 2 or 3 with VD < 12: the source of
    # the SUBVEC_SHFLSHR1 flaw.
    shft2_captured_vc: np.ndarray = field(default_factory=lambda: np.zeros(LANES, dtype=np.uint32))
    dst: np.ndarray = field(default_factory=lambda: np.zeros((DST_ROWS, DST_COLS), dtype=np.uint16))
    tensix: TensixRegs = field(default_factory=TensixRegs)

    def copy(self) -> "SfpuState":
        return copy.deepcopy(self)

    def fork(self, writes_dst: bool = True) -> "SfpuState":
        """A copy for one instruction to execute on. Only the arrays the write
        helpers of `model.machine.Machine` modify in place are duplicated; the
        others, the configuration included (`Machine.write_config`), are
        replaced, never mutated, so they can be shared. Without
        `writes_dst` (only SFPSTORE writes Dst) Dst is shared read-only, so a
        write would raise instead of reaching the original."""
        twin = shallow_copy(self)
        twin.lregs = self.lregs.copy()
        if writes_dst:
            twin.dst = self.dst.copy()
        else:
            twin.dst = _read_only(self.dst.view())
        twin.tensix = shallow_copy(self.tensix)     # its counters change in place
        return twin

    def lane_config_bit(self, bit: int) -> np.ndarray:
        """LaneConfig bit `bit` of every lane, as bool[32] (read-only)."""
        return _decoded_lane_config(self.lane_config.tobytes()).bits[bit]

    def lane_config_mask(self, bit: int) -> int:
        """LaneConfig bit `bit` of every lane, as a lane mask (bit i: lane i)."""
        return _decoded_lane_config(self.lane_config.tobytes()).bit_masks[bit]

    def lane_enabled(self) -> np.ndarray:
        """LaneEnabled for all 32 lanes: ROW_MASK (from LaneConfig[lane & 7]) then the flags (read-only)."""
        lane_flags, use_flags = self.lane_flags, self.use_flags
        return _lane_enabled(self.lane_config.tobytes(), lane_flags.dtype.char, lane_flags.tobytes(),
                             use_flags.dtype.char, use_flags.tobytes())


class _DecodedLaneConfig:
    """LaneConfig's bits as bool[32] arrays, decoded once per distinct
    LaneConfig (it changes only through SFPCONFIG). The arrays are shared,
    so they are read-only."""

    def __init__(self, config: bytes):
        values = np.frombuffer(config, dtype=np.uint32)
        self.bits = [_read_only(((values >> bit) & 1).astype(bool)) for bit in range(18)]
        self.bit_masks = [lane_bits(b) for b in self.bits]
        lanes = np.arange(LANES)
        row_mask = (values[lanes & 7] >> LaneConfigBit.ROW_MASK_LO) & 0xF
        self.row_enabled = _read_only(~((row_mask >> (lanes // 8)) & 1).astype(bool))


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@functools.lru_cache(maxsize=1024)
def _decoded_lane_config(config: bytes) -> _DecodedLaneConfig:
    return _DecodedLaneConfig(config)


@functools.lru_cache(maxsize=4096)
def _lane_enabled(config: bytes, flags_type: str, flags: bytes, use_type: str, use: bytes) -> np.ndarray:
    """`SfpuState.lane_enabled`, kept per LaneConfig and flag pattern (read-only): most
    instructions ask for it, and the flags change far less often than that."""
    lane_flags, use_flags = np.frombuffer(flags, dtype=flags_type), np.frombuffer(use, dtype=use_type)
    return _read_only(_decoded_lane_config(config).row_enabled & (lane_flags | ~use_flags))
