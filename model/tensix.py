"""The Tensix instructions around the SFPU that real kernels issue.

An SFPU kernel is not only SFPU instructions: the thread also moves the Dst
read/write counter between faces (SETRWC, INCRWC), replays recorded
sequences (REPLAY) and programs ADDR_MOD slots (SETC16). This module encodes
them in tt-llk's `TTI_` argument order (Wormhole `ckernel_ops.h`) and gives
their effect on the registers the SFPU reads, from tt-isa-documentation's
functional models. How each reaches the model (docs/kernels.md):

- SETRWC and INCRWC are issued by the thread like any instruction: each takes
  one issue slot, and the counters change at the end of that cycle. They run
  on the Matrix Unit; their SrcA/SrcB bank flips and the fidelity phase are
  outside the SFPU and not modelled.
- REPLAY is handled by the front end's Replay Expander: it never reaches the
  SFPU, which sees the recorded instructions one per cycle. The assembler
  expands it (`expand_replay`).
- SETC16 runs on the thread's configuration unit, outside the SFPU's issue
  stream: the assembler turns it into the directive it stands for, which
  takes no SFPU cycle. Only the registers the SFPU reads are accepted.
"""

from __future__ import annotations

from dataclasses import dataclass

from .isa import (INCRWC, NOP, REPLAY, SEMGET, SEMINIT, SEMPOST, SEMWAIT, SETC16, SETRWC, STALLWAIT, TENSIX_ISSUED,
                  LlkArg, opcode_of)
from .state import TensixRegs, step_counter


@dataclass(frozen=True)
class TensixOp:
    mnemonic: str
    opcode: int
    llk_args: tuple[LlkArg, ...]
    defined: dict[str, int]       # argument -> the bits the documentation defines


OPS = {op.mnemonic: op for op in (
    TensixOp("SETRWC", SETRWC, (LlkArg("clear_ab_vld", 22, 2), LlkArg("rwc_cr", 18, 4), LlkArg("rwc_d", 14, 4),
                                LlkArg("rwc_b", 10, 4), LlkArg("rwc_a", 6, 4), LlkArg("BitMask", 0, 6)),
             {"BitMask": 0xF}),
    TensixOp("INCRWC", INCRWC, (LlkArg("rwc_cr", 18, 6), LlkArg("rwc_d", 14, 4), LlkArg("rwc_b", 10, 4),
                                LlkArg("rwc_a", 6, 4)),
             {"rwc_cr": 0x7}),
    TensixOp("REPLAY", REPLAY, (LlkArg("start_idx", 14, 5), LlkArg("len", 4, 6),
                                LlkArg("execute_while_loading", 1, 1), LlkArg("load_mode", 0, 1)), {}),
    TensixOp("SETC16", SETC16, (LlkArg("setc16_reg", 16, 8), LlkArg("setc16_value", 0, 16)), {}),
    # A Tensix NOP: it takes the thread's issue slot for a cycle and does nothing else.
    TensixOp("NOP", NOP, (), {}),
    # The synchronisation unit's (STALLWAIT.md, SEMWAIT.md, ...): listed where the kernel pushes
    # them, for the wait gate; the SFPU-alone model honours a wait on the SFPU (model.waits).
    TensixOp("STALLWAIT", STALLWAIT, (LlkArg("stall_res", 15, 9), LlkArg("wait_res", 0, 15)), {}),
    TensixOp("SEMWAIT", SEMWAIT, (LlkArg("stall_res", 15, 9), LlkArg("sem_sel", 2, 8), LlkArg("wait_sem_cond", 0, 2)),
             {}),
    TensixOp("SEMPOST", SEMPOST, (LlkArg("sem_sel", 2, 8),), {}),
    TensixOp("SEMGET", SEMGET, (LlkArg("sem_sel", 2, 8),), {}),
    TensixOp("SEMINIT", SEMINIT, (LlkArg("max_value", 20, 4), LlkArg("init_value", 16, 4), LlkArg("sem_sel", 2, 8)),
             {}),
)}
BY_OPCODE = {op.opcode: op for op in OPS.values()}

DST_BITS, SRC_BITS = 10, 6
DST_MASK, SRC_MASK = (1 << DST_BITS) - 1, (1 << SRC_BITS) - 1


def is_issued(word: int) -> bool:
    """A Tensix instruction that takes an issue slot but no SFPU sub-unit."""
    return opcode_of(word) in TENSIX_ISSUED


def args_of(word: int) -> dict[str, int]:
    return fields(word, TENSIX_ISSUED[opcode_of(word)])


SYNC_LISTED = frozenset({STALLWAIT, SEMWAIT, SEMPOST, SEMGET, SEMINIT})


def is_listed(word: int) -> bool:
    """A Tensix instruction a listing keeps as an instruction: the issued ones and the waits."""
    return is_issued(word) or opcode_of(word) in SYNC_LISTED


def fields(word: int, mnemonic: str) -> dict[str, int]:
    """The `TTI_` arguments of `word`, an instruction `mnemonic` of `OPS`."""
    return {a.name: (word >> a.shift) & ((1 << a.width) - 1) for a in OPS[mnemonic].llk_args}


def apply(regs: TensixRegs, word: int) -> None:
    """SETRWC / INCRWC on the thread's counters (tt-isa-documentation's models); NOP changes nothing."""
    if opcode_of(word) == NOP:
        return
    a = args_of(word)
    cr = a["rwc_cr"]
    if opcode_of(word) == SETRWC:
        mask = a["BitMask"]
        if mask & 1:
            regs.rwc_srca = regs.rwc_srca_cr = (a["rwc_a"] + (regs.rwc_srca_cr if cr & 1 else 0)) & SRC_MASK
        if mask & 2:
            regs.rwc_srcb = regs.rwc_srcb_cr = (a["rwc_b"] + (regs.rwc_srcb_cr if cr & 2 else 0)) & SRC_MASK
        if mask & 4 or cr & 8:
            base = regs.rwc_dst if cr & 8 else regs.rwc_dst_cr if cr & 4 else 0
            regs.rwc_dst = regs.rwc_dst_cr = (a["rwc_d"] + base) & DST_MASK
        return
    # INCRWC steps each counter as an ADDR_MOD increment does, through its carry register or not.
    regs.rwc_srca, regs.rwc_srca_cr = step_counter(regs.rwc_srca, regs.rwc_srca_cr, a["rwc_a"], False, cr & 1,
                                                   False, SRC_BITS)
    regs.rwc_srcb, regs.rwc_srcb_cr = step_counter(regs.rwc_srcb, regs.rwc_srcb_cr, a["rwc_b"], False, cr & 2,
                                                   False, SRC_BITS)
    regs.rwc_dst, regs.rwc_dst_cr = step_counter(regs.rwc_dst, regs.rwc_dst_cr, a["rwc_d"], False, cr & 4,
                                                 False, DST_BITS)


def disassemble(word: int) -> str:
    op = BY_OPCODE[opcode_of(word)]
    a = fields(word, op.mnemonic)
    text = (f"TTI_{op.mnemonic}({', '.join(str(a[x.name]) for x in op.llk_args)});" if op.llk_args
            else f"TTI_{op.mnemonic};")
    covered = sum(((1 << x.width) - 1) << x.shift for x in op.llk_args)
    if word & 0xFFFFFF & ~covered:
        return f".word 0x{word:08X}  # {text} with bits 0x{word & 0xFFFFFF & ~covered:06X} set"
    return text


# -- SETC16: the thread configuration registers the SFPU reads (Wormhole addresses) --

SETC16_DEST_OFFSET = 1             # DEST_TARGET_REG_CFG_MATH_Offset
SETC16_ADDR_MOD_SET_BASE = 2       # ADDR_MOD_SET_Base


def setc16_ab(slot: int) -> int:   # ADDR_MOD_AB_SEC<slot>: SrcA and SrcB increments
    return 7 + 2 * slot


def setc16_bias(slot: int) -> int:  # ADDR_MOD_AB_SEC<slot>'s bias counter (ADDR_MOD_BIAS_SEC<slot>)
    return 8 + 2 * slot


def setc16_dst(slot: int) -> int:  # ADDR_MOD_DST_SEC<slot>
    return 23 + slot


def setc16_directive(register: int, value: int) -> tuple[str, tuple[int, ...], dict[str, int]] | None:
    """The directive (name, arguments, options) a SETC16 stands for, or None
    for a register the SFPU does not read."""
    if register == SETC16_DEST_OFFSET:
        return "dest_offset", (value & DST_MASK,), {}
    if register == SETC16_ADDR_MOD_SET_BASE:
        return "addr_mod_base", (value & 1,), {}
    for slot in range(8):
        if register == setc16_ab(slot):
            return "addr_mod", (slot,), {
                "srca_incr": value & 0x3F, "srca_cr": (value >> 6) & 1, "srca_clear": (value >> 7) & 1,
                "srcb_incr": (value >> 8) & 0x3F, "srcb_cr": (value >> 14) & 1, "srcb_clear": (value >> 15) & 1}
        if register == setc16_bias(slot):
            return "addr_mod", (slot,), {"bias_incr": value & 0xF, "bias_clear": (value >> 4) & 1}
        if register == setc16_dst(slot):
            # Bits 13-15 are the fidelity increment and clear, which SFPLOAD/SFPSTORE leave alone.
            return "addr_mod", (slot,), {"dst_incr": value & DST_MASK, "dst_cr": (value >> 10) & 1,
                                         "dst_clear": (value >> 11) & 1, "dst_c_to_cr": (value >> 12) & 1}
    return None


SETC16_SYMBOLS = {
    "DEST_TARGET_REG_CFG_MATH_Offset_ADDR32": SETC16_DEST_OFFSET,
    "ADDR_MOD_SET_Base_ADDR32": SETC16_ADDR_MOD_SET_BASE,
    **{f"ADDR_MOD_AB_SEC{n}_SrcAIncr_ADDR32": setc16_ab(n) for n in range(8)},
    **{f"ADDR_MOD_BIAS_SEC{n}_BiasIncr_ADDR32": setc16_bias(n) for n in range(8)},
    **{f"ADDR_MOD_DST_SEC{n}_DestIncr_ADDR32": setc16_dst(n) for n in range(8)},
}
