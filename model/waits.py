"""STALLWAIT and SEMWAIT: what a wait blocks and what it waits on.

The facts (STALLWAIT.md) are here once; two models use them. The issue path
(model.issue_path) times the wait gate as `sfpu perf` sees it, with the FPU,
the Src handover and the SFPU. The SFPU-alone run (`sfpu run`, `race`,
`timeline`) sees only the SFPU: a STALLWAIT there holds the thread while a
condition it can see is true, the SFPU busy, and takes no cycle of its own
when nothing holds it (once it held, the block lifts `WAIT_RELEASE_LAG` later);
every other condition (the FPU, the unpacker's Src valid flags, semaphores)
is taken as already met, as a kernel's caller arranges (docs/timing.md).
"""

from __future__ import annotations

import enum

from . import isa
from .isa import Arch
from .tensix import SYNC_LISTED

# STALLWAIT.md: the block mask's bits (the same on both architectures).
BLOCK_SYNC, BLOCK_FPU, BLOCK_CONFIG, BLOCK_SFPU = 1 << 1, 1 << 6, 1 << 7, 1 << 8
BLOCK_ALL = 0x1FF


class Condition(enum.Enum):
    """What a STALLWAIT waits on ("keep waiting while ..."), as the models see it."""
    FPU_BUSY = "an instruction of this thread in the FPU"
    SFPU_BUSY = "an instruction of this thread in the SFPU"
    SRCA_NOT_FPU = "SrcA not handed to the FPU"
    SRCB_NOT_FPU = "SrcB not handed to the FPU"


def stall_conditions(arch: Arch) -> dict[int, Condition]:
    """STALLWAIT condition bit -> meaning, for the conditions an SFPU kernel and its caller use (the
    architecture's `Features`: STALLWAIT.md numbers them differently on each)."""
    f = arch.features
    return {f.wait_fpu_bit: Condition.FPU_BUSY, f.wait_sfpu_bit: Condition.SFPU_BUSY,
            f.wait_srca_bit: Condition.SRCA_NOT_FPU, f.wait_srcb_bit: Condition.SRCB_NOT_FPU}


# Once a wait's condition is false, the block lifts a cycle later (WormholeB0 STALLWAIT.md L27,
# BlackholeA0 STALLWAIT.md L30).
WAIT_RELEASE_LAG = 1


def is_sync(word: int) -> bool:
    """A synchronisation instruction a kernel and its caller push (model.tensix lists them)."""
    return isa.opcode_of(word) in SYNC_LISTED


def block_mask(word: int) -> int:
    """STALLWAIT's and SEMWAIT's block mask (bits 15-23)."""
    return (word >> 15) & BLOCK_ALL


def sfpu_alone_hold(word: int, arch: Arch, sfpu_busy: bool) -> str | None:
    """Why a synchronisation word still holds the thread in the SFPU-alone
    model, or None once it lets the thread go on: a STALLWAIT that blocks the
    SFPU's instructions and waits on the SFPU being busy, while it is."""
    if isa.opcode_of(word) != isa.STALLWAIT or not sfpu_busy or not block_mask(word) & BLOCK_SFPU:
        return None
    if word >> arch.features.wait_sfpu_bit & 1:
        return f"STALLWAIT: waits while {Condition.SFPU_BUSY.value}"
    return None
