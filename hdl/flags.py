"""Lane predication: LaneFlags, UseLaneFlagsForLaneEnable, LaneEnabled and
the 8-entry flag stack, with Wormhole's documented flaws.

Blackhole (`arch`) adds SFPPUSHC's Mod1 1-15 (change the stack top instead of
pushing; undefined on an empty stack), SFPLE/SFPGT's flag results
(`FlagOp.COMPARE`), and drops SFPPOPC's full-stack flaw.

Only the Simple sub-unit changes flags, so one operation arrives per cycle
(a `FlagRequest`), already past the backdoor guard (its `guard`: the lanes where
`VD < 12 || DISABLE_BACKDOOR_LOAD` holds). The stack has one depth for all
lanes: a push or pop happens when any lane passes the guard, as in the golden
model, and each entry holds every lane's two bits.
"""

from amaranth import Const, Module, Mux, Signal
from amaranth.lib import data, enum, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model.isa import CmpMod1

from .isa import ArchComponent

LANES = 32
DEPTH = 8
ALL = Const((1 << LANES) - 1, LANES)


class FlagOp(enum.Enum, shape=3):
    NONE = 0
    SETCC = 1      # LaneFlags = UseLaneFlags & cond, in enabled lanes
    REFINE = 2     # SFPIADD/SFPLZ/SFPEXEXP with VD < 8: LaneFlags = cond (if valid), then maybe inverted
    ENCC = 3
    PUSHC = 4
    POPC = 5
    COMPC = 6
    COMPARE = 7    # Blackhole's SFPLE/SFPGT: cond to LaneFlags (SET_CC) and into the stack top (MUTATE_STACK)


StackEntry = data.StructLayout({"lane_flags": LANES, "use_flags": LANES})


def _boolean_op(mod1, a, b):
    """The BooleanOp of Mod1 1-12: SFPPOPC's combinations of the flags (a) with
    the stack top (b), and Blackhole's SFPPUSHC's of the stack top (a) with the flags (b)."""
    table = {1: b, 2: ~b, 3: a & b, 4: a | b, 5: a & ~b, 6: a | ~b, 7: ~a & b, 8: ~a | b,
             9: ~a & ~b, 10: ~a | ~b, 11: a ^ b, 12: ~(a ^ b)}
    result = a
    for code, value in table.items():
        result = Mux(mod1 == code, value, result)
    return result


class FlagRequest(wiring.Signature):
    """One flag operation a cycle, from the Simple sub-unit to the `FlagUnit`."""

    def __init__(self):
        super().__init__({
            "op": Out(FlagOp),
            "mod1": Out(4),
            "imm2": Out(2),             # SFPENCC: bit 0 = E (enable), bit 1 = R (flags)
            "cond": Out(LANES),         # SETCC test / REFINE condition, per lane
            "cond_valid": Out(1),       # REFINE: the mode sets the flags from cond
            "invert": Out(1),           # REFINE: the mode inverts the flags afterwards
            "guard": Out(LANES),        # the lanes past the backdoor guard
        })


class FlagUnit(ArchComponent):
    request: In(FlagRequest())
    row_masked: In(LANES)       # LaneConfig[lane & 7].ROW_MASK bit of the lane's row

    lane_flags: Out(LANES)
    use_flags: Out(LANES)
    enabled: Out(LANES)         # LaneEnabled
    depth: Out(4)
    stack: Out(data.ArrayLayout(StackEntry, DEPTH))   # entry 0 is the bottom
    undefined: Out(1)           # push onto a full stack, pop from (or, Blackhole, change the top of) an empty one

    def elaborate(self, platform):
        m = Module()
        req = self.request
        flags = Signal(LANES, name="lane_flags_q")
        use = Signal(LANES, name="use_flags_q")
        depth = Signal(range(DEPTH + 1), name="depth_q")
        stack = Signal(data.ArrayLayout(StackEntry, DEPTH), name="stack_q")
        m.d.comb += [self.lane_flags.eq(flags), self.use_flags.eq(use), self.depth.eq(depth),
                     self.stack.eq(stack),
                     self.enabled.eq(~self.row_masked & (~use | flags))]

        empty, full = depth == 0, depth == DEPTH
        top = Signal(StackEntry)
        with m.Switch(depth):
            for d in range(1, DEPTH + 1):
                with m.Case(d):
                    m.d.comb += top.eq(stack[d - 1])
        any_lane = req.guard.any()
        lanes = req.guard

        def update(new_flags, new_use, where):
            m.d.sync += [flags.eq((new_flags & where) | (flags & ~where)),
                         use.eq((new_use & where) | (use & ~where))]

        def replace_top(new_flags, new_use, where):
            """The stack top, replaced in the lanes `where` (the stack is not empty)."""
            with m.Switch(depth):
                for d in range(1, DEPTH + 1):
                    with m.Case(d):
                        m.d.sync += [stack[d - 1].lane_flags.eq((new_flags & where) | (top.lane_flags & ~where)),
                                     stack[d - 1].use_flags.eq((new_use & where) | (top.use_flags & ~where))]

        def push():
            with m.If(full):
                m.d.comb += self.undefined.eq(1)       # the push is dropped
            with m.Else():
                with m.Switch(depth):
                    for d in range(DEPTH):
                        with m.Case(d):
                            m.d.sync += [stack[d].lane_flags.eq(flags), stack[d].use_flags.eq(use)]
                m.d.sync += depth.eq(depth + 1)

        f = self.features

        with m.Switch(req.op):
            with m.Case(FlagOp.SETCC):
                update(use & req.cond, use, lanes & self.enabled)
            with m.Case(FlagOp.REFINE):
                after_cond = Mux(req.cond_valid, req.cond, flags)
                update(Mux(req.invert, ~after_cond, after_cond), use, self.enabled)
            with m.Case(FlagOp.ENCC):
                e, r = req.imm2[0], req.imm2[1]
                new_use = Mux(req.mod1[1], e.replicate(LANES), Mux(req.mod1[0], ~use, use))
                new_flags = Mux(req.mod1[3], r.replicate(LANES), ALL)
                update(new_flags, new_use, lanes)
            with m.Case(FlagOp.PUSHC):
                with m.If(any_lane):
                    if f.pushc_mod1:
                        with m.If(req.mod1 == 0):
                            push()
                        with m.Elif(empty):
                            m.d.comb += self.undefined.eq(1)   # nothing happens
                        with m.Else():
                            self._change_top(m, flags, use, top, lanes, update, replace_top)
                    else:
                        push()                                 # no Mod1
            with m.Case(FlagOp.POPC):
                with m.If(any_lane):
                    self._popc(m, flags, use, depth, stack, top, empty, full, lanes, update)
            with m.Case(FlagOp.COMPC):
                top_flags = Mux(empty, ALL, top.lane_flags)
                top_use = Mux(empty, ALL, top.use_flags)
                update(top_use & use & top_flags & ~flags, use, lanes)
            if f.compare:
                with m.Case(FlagOp.COMPARE):
                    with m.If((req.mod1 & CmpMod1.SET_CC).any()):
                        update(req.cond, use, lanes & self.enabled)
                    # MUTATE_STACK reaches every lane past the guard, enabled or not.
                    with m.If((req.mod1 & CmpMod1.MUTATE_STACK).any() & ~empty):
                        changed = Mux((req.mod1 & CmpMod1.MUTATE_OR).any(), top.lane_flags | req.cond, top.lane_flags & req.cond)
                        replace_top(changed, top.use_flags, lanes)
        return m

    def _change_top(self, m, flags, use, top, lanes, update, replace_top):
        """SFPPUSHC Mod1 1-15 (`pushc_mod1`) on a non-empty stack: the stack top
        combined with (1-12) or replaced by (13-15) the current flags, no push."""
        mod1 = self.request.mod1
        with m.If(mod1 <= 12):
            replace_top(_boolean_op(mod1, top.lane_flags, flags), use, lanes)
        with m.Elif(mod1 == 13):
            # LaneFlags inverted, and the stack top takes the inverted flags.
            update(~flags, use, lanes)
            replace_top(~flags, use, lanes)
        with m.Else():
            replace_top(Mux(mod1 == 14, ALL, 0), ALL, lanes)

    def _popc(self, m, flags, use, depth, stack, top, empty, full, lanes, update):
        top_flags = Mux(empty, 0, top.lane_flags)
        top_use = Mux(empty, 0, top.use_flags)
        with m.If(self.request.mod1 == 0):
            with m.If(empty):
                m.d.comb += self.undefined.eq(1)               # nothing happens
            with m.Else():
                m.d.sync += depth.eq(depth - 1)
                update(top_flags, top_use, lanes)
        with m.Else():
            if self.features.popc_full_flaw:
                with m.If(full):
                    # Wormhole's flaw: a non-popping SFPPOPC on a full stack copies the top over the bottom.
                    m.d.sync += stack[0].eq(top)
            with m.If(self.request.mod1 <= 12):
                update(_boolean_op(self.request.mod1, flags, top_flags), top_use, lanes)
            with m.Elif(self.request.mod1 == 13):
                update(~flags, use, lanes)
            with m.Elif(self.request.mod1 == 14):
                update(ALL, ALL, lanes)
            with m.Else():
                update(0, ALL, lanes)
