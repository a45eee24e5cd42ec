"""Faults injected into the golden model, to prove the lock-step checker can fail.

A scoreboard that never reports a difference proves nothing: it may compare
the wrong fields, or none. Each `Fault` here breaks the cycle model in one
small, realistic way (a wrong rounding decision, a macro slot one cycle late,
a lost lane enable, ...) while its `inject()` context manager is active, and
`trigger_program(name)` is a short program on which that fault must change
the per-cycle trace within its first few cycles. Model against model
(`model_trace`), the `comparable()` sequences with and without the fault
must differ from `first_difference_cycle(name)` on; model against the
correct RTL (tb.cli.cocotb_tests' `faults_are_caught`), the clean run must pass
and the faulted one must stop at that cycle.

Each architecture has its list (`faults(arch)`; `FAULTS` is the default architecture's, Wormhole's):
Blackhole's runs the same triggers under `.arch blackhole`, with the
rounding fault in its own FMA and one more fault, the stall after a
MAD-class instruction lost.

Every fault wraps one existing module-level function or method with
`unittest.mock.patch.object`, so nothing in `model/` carries fault hooks,
the original is restored on exit even when the body raises, and faults on
different patch points nest freely. Only model code is patched: `hdl/`
imports none of these functions, so the RTL stays correct while a fault is
active. The patches are process-wide: do not run a model in another thread
while one is active.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Callable, Iterator
from unittest import mock

import numpy as np

from tensix_sfpu import model

import tensix_sfpu.model.machine
import tensix_sfpu.model.semantics
from tensix_sfpu.model.asm import Program, assemble
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch, Mod0Fmt, Unit
from tensix_sfpu.model.machine import Machine
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.model.trace import CycleRecord


@dataclass
class Fault:
    """One injectable bug: `wrap(original)` returns the faulty replacement of
    `getattr(target, attribute)`; `trigger` is the assembly that provokes it."""
    name: str
    description: str
    target: object
    attribute: str
    wrap: Callable[[Callable], Callable]
    trigger: str
    arch: Arch                          # the architecture of the model it breaks and of its trigger
    _pristine: object = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # Captured at import, so `active` can tell a patched attribute from the real one.
        self._pristine = getattr(self.target, self.attribute)

    @property
    def patch_point(self) -> str:
        owner = getattr(self.target, "__qualname__", None) or self.target.__name__
        module = getattr(self.target, "__module__", None)
        return f"{module}.{owner}.{self.attribute}" if module else f"{owner}.{self.attribute}"

    @property
    def active(self) -> bool:
        """Whether the patch point currently holds something other than the
        original (this fault, or anything else patching the same place)."""
        return getattr(self.target, self.attribute) is not self._pristine

    @contextlib.contextmanager
    def inject(self) -> Iterator["Fault"]:
        """Patch the model while the block runs; restored on exit and on exceptions.
        The replacement wraps whatever is installed on entry, so it composes
        with other patches of the same point."""
        with mock.patch.object(self.target, self.attribute, self.wrap(getattr(self.target, self.attribute))):
            yield self


# ---------------------------------------------------------------------------
# The faults
# ---------------------------------------------------------------------------

def _exact_is(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Whether FP32 `d` equals the exact a * b + c, with denormal inputs read as
    zero as the MAD unit reads them. The product of two FP32 values is exact in
    float64 (48 significant bits, exponents far inside float64's range), and
    TwoSum gives the sum's rounding error exactly, so the exact result is the
    pair (s, e); `d` equals it iff s == d and e == 0."""
    def value(v):
        v = np.broadcast_to(np.asarray(v, dtype=np.uint32), d.shape)
        v = np.where((v >> 23) & 0xFF == 0, np.uint32(0), v)
        return v.view(np.float32).astype(np.float64)
    with np.errstate(all="ignore"):
        p, z = value(a) * value(b), value(c)
        s = p + z
        bp = s - p
        e = (p - (s - bp)) + (z - bp)
        return (s == d.view(np.float32).astype(np.float64)) & (e == 0)


def _mad_round_bit(fma_for: Callable) -> Callable:
    def faulty_fma_for(features):
        fma = fma_for(features)

        def faulty_fma(a, b, c):
            d = np.asarray(fma(a, b, c), dtype=np.uint32)
            finite_nonzero = ((d >> 23) & 0xFF != 0xFF) & (d & np.uint32(0x7FFFFFFF) != 0)
            inexact = ~_exact_is(a, b, c, d)
            return np.where(finite_nonzero & inexact, d ^ np.uint32(1), d).astype(np.uint32)
        return faulty_fma
    return faulty_fma_for


def _macro_delay_off_by_one(schedule: Callable) -> Callable:
    def faulty_schedule(self, thread, config):
        before = list(self.pending)          # references, so no id of these can be reused
        schedule(self, thread, config)
        for p in self.pending:
            if p.unit is Unit.MAD and not any(p is q for q in before):
                p.counter += 1
    return faulty_schedule


FAULT_LANE = 5


def _dropped_lane_enable(lane_enabled: Callable) -> Callable:
    def faulty_lane_enabled(self):
        enabled = np.array(lane_enabled(self), dtype=bool)
        if self.use_flags[FAULT_LANE]:
            enabled[FAULT_LANE] = False
        return enabled
    return faulty_lane_enabled


def _stack_pop_wrong(pop_flags: Callable) -> Callable:
    def faulty_pop_flags(self):
        bottom = self.state.flag_stack[0]
        pop_flags(self)
        return bottom
    return faulty_pop_flags


_FP16_SWAP = {int(Mod0Fmt.FP16): int(Mod0Fmt.BF16), int(Mod0Fmt.BF16): int(Mod0Fmt.FP16)}


def _store_format_swap(store_convert: Callable) -> Callable:
    def faulty_store_convert(mod0, lreg_value, **arch):
        return store_convert(_FP16_SWAP.get(int(mod0), mod0), lreg_value, **arch)
    return faulty_store_convert


def _forgetting(attribute: str) -> Callable[[Callable], Callable]:
    """A `CycleModel.step` that first forgets what the previous cycle armed
    in `attribute` (`_interlock`: the SFPSWAP interlock; `_mad`: Blackhole's
    stall after a MAD-class instruction)."""
    def wrap(step: Callable) -> Callable:
        def faulty_step(self, word):
            setattr(self, attribute, None)
            return step(self, word)
        return faulty_step
    return wrap


def _prng_stuck(prng_advance: Callable) -> Callable:
    def faulty_prng_advance(state):
        old, _ = prng_advance(state)
        return old, old.copy()
    return faulty_prng_advance


# Each trigger is reasoned so that the fault shows in the cycles named in its comments.

MAD_ROUND_BIT = """\
# (1 + 2**-23)**2 = 1 + 2**-22 + 2**-46: inexact, rounds to 0x3F800002.
.lreg 0 0x3F800001
.lreg 1 0x3F800001
sfpmad vd=2 va=0 vb=1 vc=9 mod1=0     # cycle 0; L2 written at the end of cycle 1 (L9 = 0.0)
sfpaddi vd=3 imm16=0x3F80 mod1=0      # cycle 1: L3 = 1.0 * 1.0 + L3 is exact, unaffected
"""

MACRO_DELAY_OFF_BY_ONE = """\
# docs/timing.md example A: the MAD scheduled with delay 0 runs at T+1 (T+2 with the fault).
.fp32_dest 1
TTI_SFPMAD(12, 0, 13, 13, 0);          # backdoor: InstructionTemplate[1] = SFPMAD VA=12 VB=0 VC=13
sfploadi vd=0 mod0=10 imm16=0x0500     # Sequence[0] = 0x13000500: MAD template 1 delay 0,
sfploadi vd=0 mod0=8 imm16=0x1300      #   store delay 2
sfpconfig vd=4 imm16=0 mod1=0
sfpconfig vd=8 imm16=0x010 mod1=1      # Misc: macro 0 stores with its own Mod0, cycle delays
sfploadi vd=0 mod0=0 imm16=0x4000      # L0 = 2.0
sfploadmacro macro=0 vd=2 mod0=3 addr_mod=0 offset=8
"""

DROPPED_LANE_ENABLE = """\
sfpencc imm2=1 mod1=2                  # cycle 0: UseLaneFlags = 1 and LaneFlags = 1 in every lane
sfploadi vd=0 mod0=2 imm16=0x1234      # cycle 1: every lane is enabled and written (lane 5 not, with the fault)
"""

STACK_POP_WRONG = """\
sfpencc imm2=1 mod1=2                  # cycle 0: predication on, LaneFlags = 1
sfppushc                               # cycle 1: entry 0 holds flags 1
sfpsetcc imm1=0 mod1=1                 # cycle 2: LaneFlags = 0
sfppushc                               # cycle 3: entry 1 holds flags 0
sfppopc mod1=0                         # cycle 4: restores flags 0 (no change); the fault restores 1
"""

STORE_FORMAT_SWAP = """\
sfploadi vd=0 mod0=0 imm16=0x3FC1      # L0 = 0x3FC10000 (1.5078125): FP16A 0x3E08, FP16B 0x3FC1
sfpstore vd=0 mod0=1 addr_mod=0 imm10=0    # cycle 1: FP16A store
sfpstore vd=0 mod0=2 addr_mod=0 imm10=4    # cycle 2: FP16B store
"""

SWAP_INTERLOCK_MISSING = """\
.lreg 0 1
.lreg 1 2
sfpswap vd=0 vc=1 mod1=0               # cycle 0
sfploadi vd=2 mod0=2 imm16=7           # stalls in cycle 1, issues in cycle 2 (cycle 1 with the fault)
"""

PRNG_STUCK = """\
.prng_seed 0x12345678
sfpmov vd=0 vc=9 mod1=8                # cycle 0: L0 = the PRNG state, which then advances
sfpmov vd=1 vc=9 mod1=8                # cycle 1: L1 = the next state (L0's value again with the fault)
"""

MAD_STALL_MISSING = """\
sfploadi vd=2 mod0=0 imm16=0x3F80      # L2 = 1.0
sfpmad vd=1 va=2 vb=2 vc=2 mod1=0      # cycle 1: L1 = 2.0, written at the end of cycle 2
sfpadd vd=3 va=1 vb=10 vc=2 mod1=0     # reads L1: stalls in cycle 2, issues in cycle 3 (cycle 2 with the fault)
"""

_FAULT_LIST = [
    Fault("mad_round_bit",
          "MAD-unit results that are finite, non-zero and inexact get their mantissa LSB flipped "
          "(a wrong rounding decision): SFPMAD/ADD/MUL/ADDI/MULI/LUT/LUTFP32",
          model.semantics, "fma_for", _mad_round_bit, MAD_ROUND_BIT, DEFAULT_ARCH),
    Fault("macro_delay_off_by_one",
          "an instruction SFPLOADMACRO schedules on the MAD sub-unit waits delay + 1 "
          "(cycles or instructions, as its delay kind says)",
          CycleModel, "_schedule", _macro_delay_off_by_one, MACRO_DELAY_OFF_BY_ONE, DEFAULT_ARCH),
    Fault("dropped_lane_enable",
          f"lane {FAULT_LANE}'s LaneEnabled reads 0 whenever UseLaneFlagsForLaneEnable is set in it, "
          "whatever its LaneFlag (predicated LReg/Dst writes, flag updates and PRNG advances skip the lane)",
          SfpuState, "lane_enabled", _dropped_lane_enable, DROPPED_LANE_ENABLE, DEFAULT_ARCH),
    Fault("stack_pop_wrong",
          "SFPPOPC Mod1=0 removes the top entry but restores the flags of the bottom (oldest) one "
          "(indistinguishable at depth 1)",
          Machine, "pop_flags", _stack_pop_wrong, STACK_POP_WRONG, DEFAULT_ARCH),
    Fault("store_format_swap",
          "SFPSTORE converts with FP16B (BF16) where Mod0 says FP16A and vice versa",
          model.semantics, "store_convert", _store_format_swap, STORE_FORMAT_SWAP, DEFAULT_ARCH),
    Fault("swap_interlock_missing",
          "the thread's SFPSWAP never holds the next non-SFPNOP instruction: no stall at T+1",
          CycleModel, "step", _forgetting("_interlock"), SWAP_INTERLOCK_MISSING, DEFAULT_ARCH),
    Fault("prng_stuck",
          "the PRNG never advances: every consumer reads the same state again",
          model.machine, "prng_advance", _prng_stuck, PRNG_STUCK, DEFAULT_ARCH),
]

FAULTS: dict[str, Fault] = {f.name: f for f in _FAULT_LIST}


def _on(fault: Fault, arch: Arch) -> Fault:
    """A fault of the default architecture's model on `arch`'s (the rounding fault breaks
    whichever FMA `arch`'s features make: model.semantics.fma_for)."""
    if arch is fault.arch:
        return fault
    return Fault(fault.name, fault.description, fault.target, fault.attribute, fault.wrap, fault.trigger, arch)


def _mad_stall_missing(arch: Arch) -> Fault:
    return Fault("mad_stall_missing",
                 "the stall after a MAD-class instruction never happens: the thread's next word is "
                 "accepted even when it reads the result in flight",
                 CycleModel, "step", _forgetting("_mad"), MAD_STALL_MISSING, arch)


# Every architecture's model takes the faults above; one with the MAD stall (Features.mad_stall) also the
# stall's own.
FAULTS_BY_ARCH: dict[Arch, dict[str, Fault]] = {
    arch: {**{name: _on(f, arch) for name, f in FAULTS.items()},
           **({"mad_stall_missing": _mad_stall_missing(arch)} if arch.features.mad_stall else {})}
    for arch in Arch}


def faults(arch: Arch) -> dict[str, Fault]:
    """The faults of `arch`'s model, by name."""
    return FAULTS_BY_ARCH[arch]


def active_faults(arch: Arch | None = None) -> list[str]:
    """Names of the faults (of `arch`, or of either architecture) whose patch
    point is not the original right now; faults sharing a patch point are
    active together."""
    tables = [faults(arch)] if arch is not None else list(FAULTS_BY_ARCH.values())
    return sorted({name for table in tables for name, f in table.items() if f.active})


def trigger_program(name: str, arch: Arch) -> Program:
    """The assembled program that provokes fault `name` of `arch`."""
    return assemble(faults(arch)[name].trigger, f"<trigger {name}>", arch=arch)


def model_trace(program: Program, strict: bool = False, max_cycles: int = 10_000) -> list[CycleRecord]:
    """The model's per-cycle records of `program`, stepped as the lock-step bench steps it."""
    return run_program(program, strict=strict, max_cycles=max_cycles).trace


def first_difference_cycle(name: str, arch: Arch) -> int | None:
    """The first cycle of fault `name`'s trigger program whose record the
    fault changes (what a lock-step run against a correct RTL must report)."""
    from tensix_sfpu.tb.env.scoreboard import comparable
    program = trigger_program(name, arch)
    clean = [comparable(r) for r in model_trace(program)]
    with faults(arch)[name].inject():
        faulty = [comparable(r) for r in model_trace(program)]
    return next((i for i, (a, b) in enumerate(zip(clean, faulty)) if a != b),
                None if len(clean) == len(faulty) else min(len(clean), len(faulty)))
