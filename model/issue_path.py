"""The issue path: how the math thread's instructions reach the SFPU, in time.

    baby RISC-V --sw/.ttinsn--> store queue --> FIFO --> MOP expander --> FIFO
        --> replay expander --> FIFO --> wait gate --> SFPU (the cycle model) / FPU / sync / config

The RISC-V's retired instructions (`RvInstr`, from an instruction-set
simulator) are timed by `riscv_schedule`, each push then travels the
frontend one stage per cycle (`IssuePath.run`), and the SFPU is the cycle
model itself, stepped once per cycle with whatever the wait gate hands it.
Every constant is in `PATH_TIMING`, with the tt-isa-documentation page it
comes from (WormholeB0/TensixTile/ and BlackholeA0/TensixTile/); the few the
documentation does not give are marked as assumptions there and in
docs/perf.md.
"""

from __future__ import annotations

import enum
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import isa, tensix
from .asm import Directive, Instr, disassemble
from .cycle import CycleModel
from .isa import Arch
from .run import take_directive
from .waits import (BLOCK_ALL, BLOCK_CONFIG, BLOCK_FPU, BLOCK_SFPU, BLOCK_SYNC, WAIT_RELEASE_LAG,
                    Condition, is_sync, stall_conditions)

# --- the instructions the path carries besides the SFPU's ----------------------


class Unit(enum.Enum):
    SFPU = "sfpu"          # every SFP* instruction; SETRWC/INCRWC/NOP take the same issue slot (model.tensix)
    FPU = "fpu"            # Matrix Unit: MOVA2D, MOVB2D, ELWADD, ZEROACC, CLEARDVALID, ...
    SYNC = "sync"          # STALLWAIT, SEMWAIT, SEMPOST, SEMGET, SEMINIT
    CONFIG = "config"      # SETC16, WRCFG, RMWCIB0-3
    MISC = "misc"          # SETDVALID, UNPACR_NOP and other single-cycle units
    MOP = "mop"            # MOP, MOP_CFG: consumed by the MOP expander
    REPLAY = "replay"      # consumed by the replay expander


@dataclass(frozen=True)
class FrontendOp:
    mnemonic: str
    unit: Unit
    latency: int = 1       # cycles the unit is busy with it (FPU: until its Dst write lands)
    writes_dst: bool = False


# Opcodes of the Tensix instructions an SFPU kernel and its caller push, besides
# the SFPU's own (`isa.ISA`): ckernel_ops.h's TT_OP values (the same on both
# architectures); units and latencies from the pages each row names.
FRONTEND_OPS: dict[int, FrontendOp] = {
    isa.MOP: FrontendOp("MOP", Unit.MOP),                 # MOPExpander.md
    isa.MOP_CFG: FrontendOp("MOP_CFG", Unit.MOP),
    isa.REPLAY: FrontendOp("REPLAY", Unit.REPLAY),        # REPLAY.md
    isa.ZEROACC: FrontendOp("ZEROACC", Unit.FPU),         # MatrixUnit.md: latency 1
    isa.MOVA2D: FrontendOp("MOVA2D", Unit.FPU, 4, True),  # MatrixUnit.md L31: 1/cycle, latency 4
    isa.MOVB2D: FrontendOp("MOVB2D", Unit.FPU, 4, True),
    isa.ELWADD: FrontendOp("ELWADD", Unit.FPU, 5, True),  # MatrixUnit.md L26: latency 5
    isa.CLEARDVALID: FrontendOp("CLEARDVALID", Unit.FPU),
    isa.UNPACR_NOP: FrontendOp("UNPACR_NOP", Unit.MISC),
    isa.SETDVALID: FrontendOp("SETDVALID", Unit.MISC),
    isa.STALLWAIT: FrontendOp("STALLWAIT", Unit.SYNC),    # SyncUnit.md: latency 1
    isa.SEMINIT: FrontendOp("SEMINIT", Unit.SYNC),
    isa.SEMPOST: FrontendOp("SEMPOST", Unit.SYNC),
    isa.SEMGET: FrontendOp("SEMGET", Unit.SYNC),
    isa.SEMWAIT: FrontendOp("SEMWAIT", Unit.SYNC),
    isa.WRCFG: FrontendOp("WRCFG", Unit.CONFIG, 2),       # ConfigurationUnit.md: latency 2
    isa.SETC16: FrontendOp("SETC16", Unit.CONFIG),
    **{isa.RMWCIB0 + n: FrontendOp(f"RMWCIB{n}", Unit.CONFIG) for n in range(4)},
}

def describe(word: int, arch: Arch) -> str:
    """An instruction the path carries, as text: the SFPU's in the TTI_ form, the others by mnemonic."""
    op = isa.opcode_of(word)
    if op in isa.ISA[arch].by_opcode or op in isa.TENSIX_ISSUED:
        return disassemble(word, "llk", arch=arch)
    known = FRONTEND_OPS.get(op)
    return f"{known.mnemonic if known else f'opcode 0x{op:02X}'} (0x{word:08X})"


def unit_of(word: int, arch: Arch) -> Unit:
    op = isa.opcode_of(word)
    if op in isa.ISA[arch].by_opcode or op in isa.TENSIX_ISSUED:
        return Unit.SFPU
    known = FRONTEND_OPS.get(op)
    if known is None:
        raise PathError(f"instruction word 0x{word:08X}: opcode 0x{op:02X} is not one the issue path models "
                        f"(SFPU instructions and {', '.join(sorted(o.mnemonic for o in FRONTEND_OPS.values()))})")
    return known.unit


def held(word: int, block: int, arch: Arch) -> bool:
    """Whether a latched wait with block mask `block` holds `word` at the wait gate (STALLWAIT.md's
    table): a unit's instructions by its bit, a new STALLWAIT/SEMWAIT by any bit, a plain NOP only by all."""
    op = isa.opcode_of(word)
    if op == isa.NOP:
        return block == BLOCK_ALL
    if op in (isa.STALLWAIT, isa.SEMWAIT):
        return block != 0
    unit = unit_of(word, arch)
    if unit is Unit.SFPU:
        bit = BLOCK_FPU if op in isa.TENSIX_ISSUED else BLOCK_SFPU   # SETRWC and INCRWC are the FPU's
    else:
        bit = {Unit.FPU: BLOCK_FPU, Unit.CONFIG: BLOCK_CONFIG, Unit.SYNC: BLOCK_SYNC, Unit.MISC: 1}.get(unit, 0)
    return bool(block & bit)


# --- the constants, per architecture -----------------------------------------


@dataclass(frozen=True)
class PathTiming:
    """The documented timing of the issue path of one architecture (docs/perf.md
    gives each field's page; "assumed" marks what no page states)."""
    fifo_depth: int                    # the thread's first FIFO (T1's)
    fifo_refill_at: int | None         # a full FIFO takes pushes again only at this level (BH)
    replay_fifo_depth: int             # before the replay expander
    gate_fifo_depth: int               # before the wait gate
    downstream_counts_when_idle: bool  # BH: the later FIFOs add capacity only while an expander works
    store_queue: int                   # RISC-V store queue entries
    push_latency: int                  # a push's issue -> its store at the head of the store queue
    ttinsn_fusion: int                 # adjacent .ttinsn one cycle takes (BH: up to 4)
    mispredict_bubble: int             # cycles lost to a mispredicted branch
    mul_occupancy: int                 # cycles `mul` holds the integer unit
    mul_latency: int                   # cycles until its result can be used
    load_latency: int                  # local data RAM (the stack)
    mmio_load_latency: int             # semaphores, mailboxes, TTSync (at least)
    wait_release_lag: int              # condition met -> block lifted
    mop_exit_penalty: int              # MOP expander's cycle after an expansion
    icache_bytes: int                  # the math thread's (T1's) instruction cache
    icache_line: int                   # bytes a miss fetches (assumed: 128 bits)
    icache_line_port_cycles: float     # memory-port cycles a missed line's refill takes (fitted: docs/perf.md)
    fpu_busy_tail: int                 # cycles "FPU busy" outlasts a Dst write's latency (fitted)
    l1_latency: int                    # a load from L1: what a jump to code missing from the cache waits


# The two constants fitted to silicon (docs/perf.md, "Fitted"), each on one public measurement and
# judged on the others:
# - the memory-port cycles a missed instruction-cache line's refill takes (the documentation gives the
#   cache's size, not its refill): from tt-metal PR #54429's EMA before its replay (Wormhole, 320.77);
# - how long STALLWAIT's FPU-busy condition outlasts the result latency of an FPU instruction writing Dst
#   (the datacopy's moves): from the identity kernel of tt-metal PR #54317 (Blackhole, 124.06 cycles/tile).
ICACHE_LINE_PORT_CYCLES = 1.5
FPU_BUSY_TAIL = 11

PATH_TIMING: dict[Arch, PathTiming] = {
    Arch.WORMHOLE: PathTiming(
        fifo_depth=16,                 # Diagrams/Src/TensixFrontend.lua L25: fifo1_size {32, 16, 16}, T1 = 16
        fifo_refill_at=None,
        replay_fifo_depth=8,           # TensixFrontend.lua L69
        gate_fifo_depth=2,             # TensixFrontend.lua L78
        downstream_counts_when_idle=False,
        store_queue=4,                 # BabyRISCV/MemoryOrdering.md L7
        push_latency=2,                # README.md L27-31: at least a cycle in the IU and one in the LSU (inferred)
        ttinsn_fusion=1,
        mispredict_bubble=2,           # BabyRISCV/README.md L49
        mul_occupancy=2,               # BabyRISCV/README.md L44
        mul_latency=2,
        load_latency=2,                # BabyRISCV/README.md L59-65
        mmio_load_latency=3,
        wait_release_lag=WAIT_RELEASE_LAG,   # TensixCoprocessor/STALLWAIT.md L27
        mop_exit_penalty=1,            # TensixCoprocessor/MOPExpander.md L120
        icache_bytes=512,              # BabyRISCV/InstructionCache.md L7: RISCV T1, 512 bytes
        icache_line=16,                # assumed: Blackhole's cache delivers 128 bits (README.md L37)
        icache_line_port_cycles=ICACHE_LINE_PORT_CYCLES,
        fpu_busy_tail=FPU_BUSY_TAIL,
        l1_latency=8,                  # BabyRISCV/README.md L59-65: L1 at least 8
    ),
    Arch.BLACKHOLE: PathTiming(
        fifo_depth=32,                 # BlackholeA0 BabyRISCV/PushTensixInstruction.md L15
        fifo_refill_at=28,             # ... and only back at 28 once above it
        replay_fifo_depth=8,
        gate_fifo_depth=2,
        downstream_counts_when_idle=True,   # PushTensixInstruction.md L15: the later FIFOs add only while expanding
        store_queue=4,                 # BabyRISCV/MemoryOrdering.md L7
        push_latency=2,                # README.md L11-20: EX1, then the LSU (inferred)
        ttinsn_fusion=4,               # BabyRISCV/README.md L37, PushTensixInstruction.md L19-23
        mispredict_bubble=4,           # BabyRISCV/README.md L53
        mul_occupancy=1,               # BabyRISCV/README.md L57-59: EX1 then EX2
        mul_latency=2,
        load_latency=2,                # BabyRISCV/README.md L71-81
        mmio_load_latency=3,
        wait_release_lag=WAIT_RELEASE_LAG,   # STALLWAIT.md L30
        mop_exit_penalty=1,            # no Blackhole page: Wormhole's MOPExpander.md (assumed)
        icache_bytes=4096,             # Diagrams/Src/BabyRISCV.lua L148: "L0 instruction cache 4 KiB"
        icache_line=16,                # README.md L37: 128 bits from the cache to the frontend
        icache_line_port_cycles=ICACHE_LINE_PORT_CYCLES,
        fpu_busy_tail=FPU_BUSY_TAIL,
        l1_latency=8,                  # BabyRISCV/README.md L71-81: L1 with an L0 miss at least 8
    ),
}


class PathError(Exception):
    """A stream the issue path cannot take, said with where it came from."""


# --- the RISC-V --------------------------------------------------------------


class RvKind(enum.Enum):
    ALU = "alu"
    MUL = "mul"
    DIV = "div"
    LOAD = "load"
    STORE = "store"
    BRANCH = "branch"
    JAL = "jal"
    JALR = "jalr"
    PUSH = "push"          # .ttinsn (several when fused) or a store to the instruction buffer
    MARK = "mark"          # the front end's marker store: not timed
    SYNC = "sync"          # a TTSync load: returns once the thread's coprocessor work is done (TTSync.md)


@dataclass(slots=True)
class RvInstr:
    """One retired RISC-V instruction, as the instruction-set simulator saw it."""
    pc: int
    kind: RvKind
    rd: int = 0
    rs: tuple[int, ...] = ()
    taken: bool = False            # a branch taken, or a jalr's target
    target: int = 0
    mmio: bool = False             # a load from a memory-mapped register (semaphores, TTSync, ...)
    div_cycles: int = 0
    words: tuple = ()              # PUSH: the instruction words; MARK: (its kind,)
    mop_cfg: tuple[int, ...] = ()  # PUSH of a MOP: the thread's MopCfg[0..8] when it was pushed
    ttinsn: bool = False           # PUSH: a .ttinsn (which Blackhole fuses with its neighbours), not a store


def fuse_ttinsn(instrs: list[RvInstr], width: int) -> list[RvInstr]:
    """Blackhole's instruction cache fuses up to `width` adjacent `.ttinsn` into one instruction of
    one cycle and one store (BabyRISCV/README.md L37, PushTensixInstruction.md L19-23)."""
    if width <= 1:
        return instrs
    out: list[RvInstr] = []
    for ins in instrs:
        last = out[-1] if out else None
        if (ins.ttinsn and last is not None and last.ttinsn and len(last.words) < width
                and ins.pc == last.pc + 4 * len(last.words)):
            out[-1] = RvInstr(last.pc, RvKind.PUSH, words=last.words + ins.words, ttinsn=True,
                              mop_cfg=last.mop_cfg or ins.mop_cfg)
        else:
            out.append(ins)
    return out


@dataclass
class RvTimes:
    """When each instruction would issue with nothing downstream full, and the
    mispredictions counted on the way."""
    issue: list[int]
    mispredicts: int
    fetches: list[int]                 # the instruction each missed line is fetched for


def riscv_schedule(instrs: list[RvInstr], timing: PathTiming) -> RvTimes:
    """The in-order baby RISC-V (BabyRISCV/README.md): one instruction a cycle,
    a result usable by the next instruction, `mul`/`div` holding the integer
    unit, loads late by their latency, a mispredicted branch a bubble. It
    also finds the instructions whose line is missing from the instruction
    cache (least recently used out): their fetch takes a cycle of the memory
    port that pushes use too (`IssuePath.run`). The predictor is not documented: a 2-bit counter per branch,
    starting weakly not-taken, and the last target per `jalr`, are assumed
    (docs/perf.md)."""
    issue: list[int] = []
    ready = [0] * 32                   # cycle each register's value can be used
    counters: dict[int, int] = {}
    targets: dict[int, int] = {}
    cache: OrderedDict[int, None] = OrderedDict()      # the instruction cache's lines, least recent first
    lines = timing.icache_bytes // timing.icache_line
    t = 0
    free_at = 0
    mispredicts = 0
    misses: list[int] = []             # an instruction per line fetched (one may fetch two)
    next_pc = None                     # where the previous instruction's successor would be fetched from
    for ins in instrs:
        if ins.kind is RvKind.MARK:
            issue.append(free_at)
            next_pc = ins.pc + 4
            continue
        if ins.kind is RvKind.SYNC:      # its wait is the path's (IssuePath.run); the load itself is MMIO
            ins = RvInstr(ins.pc, RvKind.LOAD, ins.rd, ins.rs, mmio=True)
        for line in range(ins.pc // timing.icache_line, (ins.pc + 4 * max(1, len(ins.words)) - 1)
                          // timing.icache_line + 1):
            if line in cache:
                cache.move_to_end(line)
                continue
            misses.append(len(issue))
            if ins.pc != next_pc:      # after a jump the prefetcher was not ahead: the fetch waits for L1
                free_at += timing.l1_latency
                next_pc = ins.pc
            cache[line] = None
            if len(cache) > lines:
                cache.popitem(last=False)
        next_pc = ins.pc + 4 * max(1, len(ins.words))
        t = max([free_at] + [ready[r] for r in ins.rs if r])
        issue.append(t)
        occupancy, latency = 1, 1
        if ins.kind is RvKind.MUL:
            occupancy, latency = timing.mul_occupancy, timing.mul_latency
        elif ins.kind is RvKind.DIV:
            occupancy = latency = ins.div_cycles
        elif ins.kind is RvKind.LOAD:
            latency = timing.mmio_load_latency if ins.mmio else timing.load_latency
        elif ins.kind is RvKind.BRANCH:
            state = counters.get(ins.pc, 1)
            if (state >= 2) != ins.taken:
                occupancy += timing.mispredict_bubble
                mispredicts += 1
            counters[ins.pc] = min(3, state + 1) if ins.taken else max(0, state - 1)
        elif ins.kind is RvKind.JALR:
            if targets.get(ins.pc) != ins.target:
                occupancy += timing.mispredict_bubble
                mispredicts += 1
            targets[ins.pc] = ins.target
        if ins.rd:
            ready[ins.rd] = t + latency
        free_at = t + occupancy
    return RvTimes(issue, mispredicts, misses)


# --- the frontend and the units ------------------------------------------------


@dataclass(slots=True)
class Entry:
    """An instruction in the frontend: its word, where it was pushed (the
    RISC-V instruction's index), and, once it leaves the replay expander,
    the program instruction it is (SFPU side) or None."""
    word: int
    push: int
    instr: Instr | None = None


@dataclass
class Breakdown:
    """Where the cycles of a run went, counted per cycle of the SFPU's issue slot."""
    sfpu_issue: int = 0            # an SFPU (or SETRWC/INCRWC/NOP) instruction accepted
    sfpu_stall: int = 0            # one presented and held by the SFPU's interlocks
    waits: int = 0                 # the head of the queue held by a STALLWAIT/SEMWAIT
    other_units: int = 0           # an FPU, sync or configuration instruction dispatched
    frontend_empty: int = 0        # nothing at the wait gate: the RISC-V or the expanders were behind
    riscv_fifo_full: int = 0       # RISC-V cycles lost with its pushes blocked (store queue full)

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class PathEvent:
    """What the timeline shows of the path in one cycle."""
    cycle: int
    pushed: int | None                 # the RISC-V instruction whose push entered the FIFO, if one did
    queued: int                        # instructions in the store queue and the FIFOs at the end of the cycle
    gate: str                          # what the wait gate did: issue, stall, wait, a unit's mnemonic or ""
    gate_word: int | None = None       # the instruction at the wait gate, if any
    gate_push: int | None = None       # ... and the RISC-V instruction that pushed it
    riscv_held: str = ""               # why the RISC-V waited this cycle: "fifo", "ttsync" or ""


@dataclass
class PathRun:
    cycles: int                        # until the frontend and the SFPU are empty
    marks: list[tuple[str, int]]       # each RISC-V marker, in order: its kind and cycle
    breakdown: Breakdown
    push_cycles: list[int]             # cycle each push entered the FIFO
    events: list[PathEvent] = field(default_factory=list)
    mispredicts: int = 0
    records: list = field(default_factory=list)        # the cycle model's record of each cycle (keep_events)
    issued_from: dict[int, Instr] = field(default_factory=dict)   # cycle -> the listing's instruction issued
    icache_misses: int = 0


def expand_mop(word: int, cfg: tuple[int, ...], mask_hi: int) -> list[int]:
    """The instructions a MOP expands to (MOPExpander.md's functional model),
    from the thread's MopCfg[0..8] and MOP_CFG's mask bits."""
    if len(cfg) != 9:
        raise PathError("a MOP before its MopCfg was written (TENSIX_MOP_CFG_BASE)")
    template = (word >> 23) & 1
    is_nop = lambda w: isa.opcode_of(w) == isa.NOP   # noqa: E731 -- only plain NOP, as the page says
    out: list[int] = []
    if template == 0:
        mask = (mask_hi << 16) + (word & 0xFFFF)
        count1 = (word >> 16) & 0x7F
        flags, insn_b, a0, a1, a2, a3, skip_a0, skip_b = cfg[1:9]
        for _ in range(count1 + 1):
            if mask & 1 == 0:
                out.append(a0)
                if flags & 2:
                    out += [a1, a2, a3]
                if flags & 1:
                    out.append(insn_b)
            else:
                out.append(skip_a0)
                if flags & 1:
                    out.append(skip_b)
            mask >>= 1
        return out
    outer, inner = cfg[0] & 127, cfg[1] & 127
    start_op, end0, end1, loop_op, loop_op1, loop0_last, loop1_last = cfg[2:9]
    flip = 0
    if not is_nop(loop_op1):
        flip = loop_op ^ loop_op1
        inner *= 2
    if outer == 1 and is_nop(start_op) and inner == 0 and not is_nop(end0):
        outer += 128                  # the page's hardware bug
    for j in range(outer):
        if not is_nop(start_op):
            out.append(start_op)
        for i in range(inner):
            out.append(loop_op if i != inner - 1 else loop1_last if j != outer - 1 else loop0_last)
            loop_op ^= flip
        if not is_nop(end0):
            out.append(end0)
            if not is_nop(end1):
                out.append(end1)
    return out


class IssuePath:
    """One thread's path from its RISC-V to the units, stepped a cycle at a time
    together with the SFPU's cycle model. `program` is the SFPU-side listing of
    the same run (its instructions in issue order, REPLAYs expanded): each
    SFPU-bound word leaving the replay expander takes the next of its
    instructions, whose word must be the same."""

    def __init__(self, model: CycleModel, program_items: Iterable[Instr | Directive], arch: Arch,
                 max_cycles: int = 2_000_000, where: Callable[[int], str] = lambda push: f"push {push}"):
        self.model = model
        self.arch = arch
        self.timing = PATH_TIMING[arch]
        self.items = deque(program_items)
        self.max_cycles = max_cycles
        self.where = where

    def _next_instr(self, word: int, push: int) -> Instr:
        """The listing's next instruction, after applying the directives before it."""
        # The listing's waits reach the gate as the RISC-V's own pushes, never the SFPU.
        while self.items and (isinstance(self.items[0], Directive) or is_sync(self.items[0].word)):
            item = self.items.popleft()
            if isinstance(item, Directive) and item.name not in ("mark", "thread"):
                take_directive(self.model, item)
        if not self.items:
            raise PathError(f"{self.where(push)}: the RISC-V pushed 0x{word:08X}, beyond the listing's last "
                            "instruction")
        instr = self.items.popleft()
        if instr.word != word:
            raise PathError(f"{self.where(push)}: the RISC-V pushed 0x{word:08X} where the listing has "
                            f"0x{instr.word:08X} ({instr.text.strip()}, {instr.loc})")
        return instr

    def run(self, instrs: list[RvInstr], keep_events: bool = False) -> PathRun:
        timing, arch, model = self.timing, self.arch, self.model
        instrs = fuse_ttinsn(instrs, timing.ttinsn_fusion)
        self.instrs = instrs
        times = riscv_schedule(instrs, timing)
        # What the path follows of the RISC-V, in order: its line fetches (before the instruction that needs
        # the line), its pushes, its TTSync loads and its markers.
        events = sorted([(i, 0) for i in times.fetches] +
                        [(i, 1) for i, ins in enumerate(instrs) if ins.kind in (RvKind.PUSH, RvKind.SYNC, RvKind.MARK)])
        fetch_debt = 0.0                    # memory-port cycles the missed lines' refills still need
        breakdown = Breakdown()
        trace: list[PathEvent] = []

        shift = 0                           # how far stalls have delayed the RISC-V's own schedule
        next_event = 0
        store_queue: deque[int] = deque()   # RISC-V instruction indices of pushes not yet in the FIFO
        store_ready: deque[int] = deque()   # ... and the cycle each may enter it
        fifo1: deque[Entry] = deque()
        fifo2: deque[Entry] = deque()
        fifo3: deque[Entry] = deque()
        mop_out: deque[Entry] = deque()     # a MOP's expansion still to emit
        mop_penalty = False
        mask_hi = 0
        replay_buffer: list[int] = [0] * 32
        recording: tuple[int, int, bool] | None = None   # (next slot, remaining, execute)
        playback: deque[Entry] = deque()
        latched: tuple[int, int] | None = None           # (block mask, condition mask) of a wait
        release_at: int | None = None
        fpu_busy_until = 0
        push_cycles: list[int] = []
        mark_cycles: list[tuple[str, int]] = []
        refilling = False
        cycle = 0

        def fifo_level() -> int:
            level = len(fifo1)
            if timing.downstream_counts_when_idle and not (mop_out or playback or recording):
                level += len(fifo2) + len(fifo3)
            return level

        conditions = stall_conditions(arch)

        def condition_true(mask: int) -> bool:
            for bit, meaning in conditions.items():
                if mask & (1 << bit) and (meaning is Condition.FPU_BUSY and cycle < fpu_busy_until or
                                          meaning is Condition.SFPU_BUSY and model.busy):
                    return True
            return False   # the harness hands SrcA/SrcB over at once, and nothing else is in flight (docs/perf.md)

        records: list = []
        issued_from: dict[int, Instr] = {}

        def idle() -> bool:
            return not (store_queue or fifo1 or fifo2 or fifo3 or mop_out or playback or model.busy
                        or cycle < fpu_busy_until)

        while True:
            if cycle > self.max_cycles:
                raise PathError(f"the kernel ran for more than {self.max_cycles} cycles without finishing "
                                "(a wait that never ends, or a loop that does not; --max-cycles raises the limit)")

            # 1. The wait gate hands its head to a unit; the SFPU model steps once in every cycle.
            presented: Entry | None = None
            gate = ""
            gate_word = fifo3[0].word if fifo3 else None
            gate_push = fifo3[0].push if fifo3 else None
            riscv_wait = ""
            if latched is not None:
                if condition_true(latched[1]):
                    release_at = None
                elif release_at is None:
                    release_at = cycle + timing.wait_release_lag
                if release_at is not None and cycle >= release_at:
                    latched, release_at = None, None
            if fifo3:
                head = fifo3[0]
                if latched is not None and held(head.word, latched[0], arch):
                    gate = "wait"
                elif unit_of(head.word, arch) is Unit.SFPU:
                    presented = head
                else:
                    fifo3.popleft()
                    op = isa.opcode_of(head.word)
                    gate = FRONTEND_OPS[op].mnemonic
                    if op in (isa.STALLWAIT, isa.SEMWAIT):
                        block = (head.word >> 15) & BLOCK_ALL
                        # SEMWAIT's conditions are semaphores, which nothing here holds (docs/perf.md).
                        latched = (block or BLOCK_FPU, head.word & 0x7FFF if op == isa.STALLWAIT else 0)
                        release_at = None
                    elif FRONTEND_OPS[op].unit is Unit.FPU:
                        # A move or add into Dst holds "FPU busy" past its latency (the fitted tail).
                        tail = timing.fpu_busy_tail if FRONTEND_OPS[op].writes_dst else 0
                        fpu_busy_until = max(fpu_busy_until, cycle + FRONTEND_OPS[op].latency + tail)
            if presented is not None:
                if presented.instr is None:
                    presented.instr = self._next_instr(presented.word, presented.push)
                model.context = f"{presented.instr.loc}: {presented.instr.text.strip()}"
                record = model.step(presented.word)
                if keep_events:
                    records.append(record)
                if record.issued is not None:
                    if keep_events:
                        issued_from[cycle] = presented.instr
                    fifo3.popleft()
                    breakdown.sfpu_issue += 1
                    gate = "issue"
                    if isa.opcode_of(presented.word) in (isa.SETRWC, isa.INCRWC):   # the FPU's (MatrixUnit.md)
                        fpu_busy_until = max(fpu_busy_until, cycle + 1)
                else:
                    breakdown.sfpu_stall += 1
                    gate = "stall"
            else:
                record = model.step(None)
                if keep_events:
                    records.append(record)
                if gate == "wait":
                    breakdown.waits += 1
                elif gate:
                    breakdown.other_units += 1
                else:
                    breakdown.frontend_empty += 1

            # 2. The replay expander: a playback emits one a cycle; otherwise it passes one on.
            if len(fifo3) < timing.gate_fifo_depth:
                if playback:
                    fifo3.append(playback.popleft())
                elif fifo2:
                    entry = fifo2.popleft()
                    if isa.opcode_of(entry.word) == isa.REPLAY:
                        a = tensix.fields(entry.word, "REPLAY")
                        count = a["len"] or 64
                        if a["load_mode"]:
                            recording = (a["start_idx"], count, bool(a["execute_while_loading"]))
                        else:      # REPLAY.md: the first recorded instruction leaves in the same cycle
                            playback.extend(Entry(replay_buffer[(a["start_idx"] + i) % 32], entry.push)
                                            for i in range(count))
                            fifo3.append(playback.popleft())
                    elif recording is not None:
                        slot, remaining, execute = recording
                        replay_buffer[slot % 32] = entry.word
                        recording = (slot + 1, remaining - 1, execute) if remaining > 1 else None
                        if execute:
                            fifo3.append(entry)
                    else:
                        fifo3.append(entry)

            # 3. The MOP expander: one instruction a cycle, a MOP's expansion in its place, then one idle cycle.
            if len(fifo2) < timing.replay_fifo_depth:
                if mop_out:
                    fifo2.append(mop_out.popleft())
                    mop_penalty = not mop_out
                elif mop_penalty and (not fifo1 or isa.opcode_of(fifo1[0].word) != isa.MOP):
                    mop_penalty = False        # MOPExpander.md: neither ingests nor emits this cycle
                elif fifo1:
                    mop_penalty = False
                    entry = fifo1.popleft()
                    op = isa.opcode_of(entry.word)
                    if op == isa.MOP_CFG:
                        mask_hi = entry.word & 0xFFFF
                    elif op == isa.MOP:
                        cfg = instrs[entry.push].mop_cfg
                        try:
                            mop_out.extend(Entry(w, entry.push) for w in expand_mop(entry.word, cfg, mask_hi))
                        except PathError as e:
                            raise PathError(f"{self.where(entry.push)}: {e}") from None
                        if mop_out:
                            fifo2.append(mop_out.popleft())
                            mop_penalty = not mop_out
                    else:
                        fifo2.append(entry)

            # 4. The store queue drains into the FIFO, one store a cycle (a fused one carries up to 4 words).
            pushed = None
            if fetch_debt >= 1:             # an instruction refill takes the memory port this cycle
                fetch_debt -= 1
            elif store_queue and store_ready[0] <= cycle:
                words = instrs[store_queue[0]].words
                level = fifo_level()
                if timing.fifo_refill_at is not None and level > timing.fifo_refill_at:
                    refilling = True
                elif refilling and level <= (timing.fifo_refill_at or 0):
                    refilling = False
                if not refilling and level + len(words) <= timing.fifo_depth:
                    index = store_queue.popleft()
                    store_ready.popleft()
                    fifo1.extend(Entry(w, index) for w in words)
                    push_cycles.append(cycle)
                    pushed = index

            # 5. The RISC-V: each push once due and the store queue has room; a TTSync load once all is done.
            while next_event < len(events):
                index, order = events[next_event]
                due = times.issue[index] + shift
                if due > cycle:
                    break
                kind = instrs[index].kind
                if order == 0:
                    fetch_debt += timing.icache_line_port_cycles
                elif kind is RvKind.MARK:
                    mark_cycles.append((instrs[index].words[0], due))
                elif kind is RvKind.SYNC:
                    if not idle():
                        shift += 1
                        riscv_wait = "ttsync"
                        break
                elif len(store_queue) >= timing.store_queue:
                    shift += 1
                    breakdown.riscv_fifo_full += 1
                    riscv_wait = "fifo"
                    break
                else:
                    store_queue.append(index)
                    store_ready.append(cycle + timing.push_latency)
                next_event += 1

            if keep_events:
                trace.append(PathEvent(cycle, pushed, len(store_queue) + len(fifo1) + len(fifo2) + len(fifo3), gate,
                                       gate_word, gate_push, riscv_wait))
            cycle += 1
            if next_event == len(events) and idle() and fetch_debt < 1:
                break
        return PathRun(cycle, mark_cycles, breakdown, push_cycles, trace, times.mispredicts, records, issued_from,
                       len(times.fetches))
