"""Silent effects: an instruction that does less than its name says, or more.

The hardware drops some writes without a trace (a result sent to a constant
register, a store from L12-L15 while the backdoor is open), writes half of a
datum (a 16-bit store into a Dst in 32-bit mode), or writes registers besides
the one a kernel means (SFPTRANSP permutes L4-L7 as well as L0-L3; SFPSWAP
writes both operands). The model does all of this exactly as the pages say;
these rules make it say so. Each is backed by the functional model of the page
it cites, and each is a warning: it never stops a strict run, and `--allow`
silences it (model.hazards registers them as the class "silent-effect").

The semantics report the first kinds as they execute (`Machine.silent`);
`LiveValues` follows the LRegs for the last kind, where the rule needs what
was read before and after the instruction.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from . import isa
from .reads import word_reads

PAGES = "tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor"


@dataclass(frozen=True)
class SilentRule:
    page: str           # the page and lines of the functional model it comes from
    summary: str


SILENT_RULES: dict[str, SilentRule] = {
    "dropped-write": SilentRule(
        "SFPMAD.md L34-36 and every SFP* page's `if (VD < 8 || VD == 16)`; SFPLOADI.md L37",
        "an instruction's result is addressed to one of L8-L15, which only SFPCONFIG writes (L11-L14): "
        "the hardware drops the write (not SFPLOAD, whose load to L8-L15 only steps the counters, "
        "an idiom)"),
    "store-from-constant": SilentRule(
        "SFPSTORE.md L84",
        "SFPSTORE from L12-L15 in lanes where LaneConfig's DISABLE_BACKDOOR_LOAD is clear stores nothing: "
        "its own word goes into InstructionTemplate[VD - 12] instead"),
    "store-half-datum": SilentRule(
        "SFPSTORE.md L93-94; Dst.md L11-13",
        "a 16-bit SFPSTORE (FP16, BF16, LO16_ONLY, ...) into a Dst in 32-bit mode writes 16 bits of each "
        "datum it reaches; the other 16 keep what was there"),
    "dst-access-blocked": SilentRule(
        "SFPLOAD.md L82; SFPSTORE.md L83",
        "SFPLOAD or SFPSTORE runs where LaneConfig's BLOCK_SFPU_RD_FROM_DEST or BLOCK_DEST_WR_FROM_SFPU is set "
        "in every lane it would use: nothing moves"),
    "config-selects-nothing": SilentRule(
        "SFPCONFIG.md L64",
        "SFPCONFIG with VD 9 or 10 selects no target and writes nothing"),
    "config-constant-default": SilentRule(
        "SFPCONFIG.md L70-77",
        "SFPCONFIG with MOD1_IMM16_IS_VALUE into L11-L14 writes that register's default (-1.0, 1/65536, "
        "-0.67487759, -0.34484843), never Imm16; a nonzero Imm16 suggests another value was meant"),
    "clobbered-live": SilentRule(
        "SFPTRANSP.md L27-28; SFPSWAP.md L62, L74",
        "SFPTRANSP (which permutes L4-L7 as well as L0-L3) or SFPSWAP (which writes VC as well as VD) "
        "overwrites an LReg holding state set before the kernel's body (a coefficient, a threshold), and "
        "the LReg is read again before any other write: the code treats it as still holding that value"),
}

# The instructions whose side writes `clobbered-live` follows.
CLOBBERING = frozenset({"SFPTRANSP", "SFPSWAP"})
# Code with one of these (an SFPLOADMACRO may schedule an SFPSWAP) is worth following.
_CLOBBERING_OPCODES = frozenset(op.opcode for arch in isa.architectures() for op in isa.ISA[arch].table
                                if op.mnemonic in (*CLOBBERING, "SFPLOADMACRO"))


def wants_live_values(words) -> bool:
    """Whether code of these words can break `clobbered-live` (with a marked
    body): following the LRegs costs a little on every instruction, so only
    such code pays."""
    return any(isa.opcode_of(w) in _CLOBBERING_OPCODES for w in words)


@functools.lru_cache(maxsize=65536)
def _declared_reads(word: int, arch: isa.Arch) -> frozenset[int]:
    ins = isa.decode(word, arch)
    return word_reads(ins, ins.op.reads)


def declared_reads_of(ins: isa.Instruction) -> frozenset[int]:
    """The LRegs the table says `ins`, issued by the thread, reads (from its word, cached)."""
    return _declared_reads(ins.word, ins.op.arch)


def clobbered_by(x) -> set[int]:
    """The LRegs an SFPTRANSP or SFPSWAP may write, whatever the data: L0-L7
    (SFPTRANSP.md L27-28), or VC and VD below 8 (SFPSWAP.md L62, L74; which
    lanes swap depends on the values, so any of them can change)."""
    if x.ins.mnemonic == "SFPTRANSP":
        return set(range(8))
    return {r for r in (x.vc, x.vd) if r is not None and r < 8}


def mask_of(regs) -> int:
    m = 0
    for r in regs:
        m |= 1 << r
    return m


@dataclass(frozen=True)
class _Clobber:
    label: str          # the clobbering instruction, its source and cycle
    source: str
    cycle: int
    writer: str         # the source of the kept value it overwrote
    mnemonic: str


class LiveValues:
    """Per LReg: whether it holds state the code keeps, who wrote it, and
    whether an SFPTRANSP/SFPSWAP overwrote such state. Kept state is what was
    written before the kernel's body began (by its init or its caller): only
    code that marks its body (`.mark body`, as `sfpu llk` listings do) is
    followed (`model.run.walk`); a program without one has only its inputs
    and data, which it swaps and transposes as it means to. Values the body
    computes are data too, which kernels transpose and swap on purpose
    (tt-llk's cumsum, EMA and reduce store transposed data; gcd swaps to
    order its operands), so they are not followed. A second SFPTRANSP puts
    back what the first permuted (SFPTRANSP.md: the transpose of a
    transpose). `observe` takes one execution's reads and writes, in the
    order the instructions run, and returns the `clobbered-live` findings:
    (LReg, the clobbering instruction's label, its source, its cycle, the
    source of the kept value it overwrote)."""

    def __init__(self):
        self.in_body = False
        # bit r: L[r] holds state the init or caller wrote before the body (a reset register no one
        # wrote is not state anyone set).
        self.kept = 0
        self.by_clobberer = 0             # bit r: L[r] was last written by SFPTRANSP/SFPSWAP
        self.writer: dict[int, str] = {}  # r -> the source line of L[r]'s value
        self.clobbered: dict[int, _Clobber] = {}

    def body_begins(self) -> None:
        self.in_body = True

    def observe(self, mnemonic: str, label: str, source: str, cycle: int, reads: frozenset[int],
                writes: set[int]) -> list[tuple[int, str, str, int, str]]:
        clobbering = mnemonic in CLOBBERING
        found = [] if clobbering else [
            (r, c.label, c.source, c.cycle, c.writer) for r in sorted(reads) if (c := self.clobbered.pop(r, None))]
        in_use = self.kept & ~self.by_clobberer
        kept, by_clobberer = self.kept, self.by_clobberer
        for r in writes:
            bit = 1 << r
            prior = self.clobbered.pop(r, None)
            if clobbering and prior is not None and prior.mnemonic == mnemonic == "SFPTRANSP":
                # Transposed back: the kept value the first SFPTRANSP took away.
                self.writer[r] = prior.writer
                kept |= bit
                by_clobberer &= ~bit
                continue
            if clobbering and in_use & bit:
                self.clobbered[r] = _Clobber(label, source, cycle, self.writer[r], mnemonic)
            self.writer[r] = source
            kept = kept & ~bit if self.in_body else kept | bit
            by_clobberer = by_clobberer | bit if clobbering else by_clobberer & ~bit
        self.kept, self.by_clobberer = kept, by_clobberer
        return found
