"""`SfpuHarness`: the `Sfpu` top inside a block-mode test harness.

Simulation runs this instead of the bare `Sfpu`. Every port of `Sfpu` is
passed through under its own name, so a bench that drives one word per cycle
works unchanged. Block mode takes Python out of the per-cycle loop: the bench
writes a block of up to `BLOCK` words at once, the harness presents them one
per cycle, and it captures each cycle's record into a buffer that the bench
reads in one go after the block.

The protocol, all at falling edges (block mode of tb.env.sfpu_env.SfpuEnv drives it):

1. with `run` low, write `blk_words`, `blk_valid` (a bit per cycle: a word
   is presented) and `blk_len`, and raise `blk_start` for one cycle;
2. the harness presents word 0 in that cycle and word i in the i-th after;
   between blocks the SFPU is frozen by the bench's `run`, so no cycle
   passes that the model does not step;
3. `blk_len` rising edges after `blk_start` is lowered, `blk_entries__i`
   holds the entry of the block's cycle i (one port per entry: Amaranth
   caps a signal at 65,536 bits).

An entry is the `Sfpu`'s registered `cycle_trace` of a cycle with the flag
state beside it, and a digest of the LReg values that cycle wrote instead of
the 17 x 1,024 bits themselves (`lreg_digest`): two 32-bit sums over the
written (register, lane) of the value times an odd 32-bit key, modulo 2**32,
each with its own keys. A wrong value in one lane always changes both (an odd
key is invertible modulo 2**32); errors in several lanes go unseen only if
they cancel in both sums, which random faults do with probability 2**-64.
Every product and partial sum fits 64 bits, so Verilator computes them with
native words. The bench computes the same sums from the model's record; on
any difference it reruns the program one cycle at a time for the full
report.
"""


from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.hdl.flags import DEPTH, StackEntry
from tensix_sfpu.hdl.lregs import LANES, NUM_LREGS
from tensix_sfpu.hdl.sfpu import Sfpu, Trace
from tensix_sfpu.model.isa import Arch

BLOCK = 32                      # longer blocks cost more than they save: every evaluation copies the buffer
DIGEST_BITS = 64
HALF = 32                       # each of the digest's two sums
_MASK = (1 << DIGEST_BITS) - 1
_HALF_MASK = (1 << HALF) - 1

Entry = data.StructLayout({
    "trace": Trace,
    "lreg_digest": DIGEST_BITS,
    "lane_flags": LANES,
    "use_flags": LANES,
    "flag_depth": 4,
    "flag_stack": data.ArrayLayout(StackEntry, DEPTH),
})


def _splitmix64(state: int) -> int:
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


# Two odd 32-bit keys per (register, lane), one for each sum: odd, so a single
# wrong value always changes both.
DIGEST_KEYS = tuple(tuple(tuple((_splitmix64(reg * LANES + lane) >> shift) & _HALF_MASK | 1 for shift in (0, HALF))
                          for lane in range(LANES)) for reg in range(NUM_LREGS))


def lreg_digest(writes) -> int:
    """The digest of LReg writes given as (reg, lanes, values) records
    (values 0 outside the lanes), as the harness computes it: the low sum in
    bits 0-31, the high one in 32-63."""
    low = high = 0
    for w in writes:
        keys = DIGEST_KEYS[w.reg]
        for lane, v in enumerate(w.values):
            if w.lanes >> lane & 1:
                low += v * keys[lane][0] & _HALF_MASK
                high += v * keys[lane][1] & _HALF_MASK
    return (low & _HALF_MASK) | (high & _HALF_MASK) << HALF


class SfpuHarness(wiring.Component):
    """`Sfpu` with block-mode stimulus and capture (see the module doc)."""

    def __init__(self, block: int = BLOCK, *, arch: Arch):
        self.block = block
        self.sfpu = Sfpu(arch)
        members = dict(self.sfpu.signature.members)
        members.update(
            blk_start=In(1),
            blk_len=In(range(block + 1)),
            blk_words=In(data.ArrayLayout(32, block)),
            blk_valid=In(block),
            blk_entries=Out(Entry).array(block),
        )
        super().__init__(members)

    def elaborate(self, platform):
        m = Module()
        m.submodules.sfpu = sfpu = self.sfpu
        self._pass_through(m, sfpu)

        # Which cycle of the block is presented: 0 in the cycle of blk_start.
        count = Signal(range(self.block + 1))
        length = Signal(range(self.block + 1))
        index = Mux(self.blk_start, 0, count)
        active = self.blk_start | (count < length)
        with m.If(active):
            m.d.sync += count.eq(index + 1)
        with m.If(self.blk_start):
            m.d.sync += length.eq(self.blk_len)
        m.d.comb += [
            sfpu.run.eq(active | self.run),
            sfpu.instr.valid.eq(Mux(active, self.blk_valid.bit_select(index, 1), self.instr.valid)),
            sfpu.instr.payload.eq(Mux(active, self.blk_words.as_value().word_select(index, 32),
                                      self.instr.payload)),
        ]

        # The trace register holds a block cycle's record in the cycle after it.
        presented = Signal()
        presented_index = Signal(range(self.block))
        m.d.sync += [presented.eq(active), presented_index.eq(index)]
        # Only in block mode do the LRegs reach the digest: an event-driven
        # simulator reruns a module whenever one of its inputs changes.
        m.submodules.digest = digest = LRegDigest()
        for reg in range(NUM_LREGS):
            m.d.comb += [digest.written[reg].eq(Mux(presented, sfpu.cycle_trace.lreg_written[reg], 0)),
                         digest.lregs[reg].eq(Mux(presented, sfpu.lregs[reg], 0))]
        entry = Signal(Entry)
        m.d.comb += [
            entry.trace.eq(sfpu.cycle_trace),
            entry.lreg_digest.eq(digest.digest),
            entry.lane_flags.eq(sfpu.lane_flags),
            entry.use_flags.eq(sfpu.use_flags),
            entry.flag_depth.eq(sfpu.flag_depth),
            entry.flag_stack.eq(sfpu.flag_stack),
        ]
        with m.If(presented):
            with m.Switch(presented_index):
                for i, slot in enumerate(self.blk_entries):
                    with m.Case(i):
                        m.d.sync += slot.eq(entry)
        return m

    def _pass_through(self, m: Module, sfpu: Sfpu) -> None:
        for name, member in sfpu.signature.members.items():
            if name in ("instr", "run"):
                continue
            inner, outer = getattr(sfpu, name), getattr(self, name)
            pairs = zip(inner, outer) if isinstance(inner, list) else [(inner, outer)]
            for a, b in pairs:
                m.d.comb += a.eq(b) if member.flow == wiring.In else b.eq(a)
        m.d.comb += self.instr.ready.eq(sfpu.instr.ready)


class LRegDigest(wiring.Component):
    """The digest of the LReg lanes written (see the module doc)."""

    written: In(LANES).array(NUM_LREGS)
    lregs: In(data.ArrayLayout(32, LANES)).array(NUM_LREGS)
    digest: Out(DIGEST_BITS)

    def elaborate(self, platform):
        m = Module()
        sums = []
        for half in range(2):
            terms = []
            for reg in range(NUM_LREGS):
                for lane in range(LANES):
                    value = Mux(self.written[reg][lane], self.lregs[reg][lane], 0)
                    terms.append((value * Const(DIGEST_KEYS[reg][lane][half], HALF))[:HALF])
            while len(terms) > 1:       # a balanced adder tree; 544 terms of 32 bits stay within 42
                terms = [terms[i] + terms[i + 1] if i + 1 < len(terms) else terms[i]
                         for i in range(0, len(terms), 2)]
            sums.append(terms[0][:HALF])
        m.d.comb += self.digest.eq(Cat(*sums))
        return m
