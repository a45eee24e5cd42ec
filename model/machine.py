"""The functional machine: executes decoded instructions on an `SfpuState`.

`Machine.execute` runs one instruction issued by the thread: it applies the
backdoor rule (an instruction with VD 12-15 writes its own word into a macro
template), resolves the operands, and calls the instruction's semantics. Every
state change goes through the write helpers here, which also record it, so the
cycle model and the trace see exactly what changed.

Undefined behaviour raises `UndefinedBehaviour` in strict mode (the default);
in lenient mode it is recorded in `warnings` and execution carries on as
docs/decisions.md describes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import dst_format as dfmt
from .fast_tables import dst32_rows        # model.dst_format's, table-driven unless SFPU_FAST=0
from .isa import Arch, Instruction, LaneConfigBit, decode
from .prng import prng_advance
from .semantics import SEMANTICS, Operands
from .state import LANES, FlagStackEntry, SfpuState, TensixRegs, shallow_copy

U32 = np.uint32


class UndefinedBehaviour(Exception):
    """The program did something the architecture's documentation leaves undefined."""


@dataclass
class LRegWrite:
    reg: int
    mask: np.ndarray       # bool[32]
    values: np.ndarray     # uint32[32]; only masked lanes matter


@dataclass
class DstWrite:
    row: int               # physical 16-bit row of DstBits
    col_mask: int          # bit c set: column c written
    values: np.ndarray     # uint16[16]


@dataclass
class ConfigWrite:
    name: str              # SfpuState attribute: lane_config, macro_templates, ...
    index: int | None      # row of a two-dimensional attribute
    values: np.ndarray     # uint32[32]
    lanes: np.ndarray      # bool[32]


@dataclass
class Effects:
    """What one executed instruction changed, as a log that `apply_effects`
    can replay onto another state. The cycle model runs each instruction of a
    cycle against the state at the start of that cycle and then replays the
    logs, so that every read of a cycle sees the state before its writes."""
    lreg_writes: list[LRegWrite] = field(default_factory=list)
    dst_writes: list[DstWrite] = field(default_factory=list)
    config_writes: list[ConfigWrite] = field(default_factory=list)
    flags: tuple[np.ndarray, np.ndarray] | None = None   # final (lane_flags, use_flags)
    stack: list[FlagStackEntry] | None = None            # final flag stack
    prng: np.ndarray | None = None                       # final PRNG state
    tensix: TensixRegs | None = None                     # counters after an ADDR_MOD update
    shft2_captured_vc: np.ndarray | None = None
    load_address: int | None = None                      # Dst address of an SFPLOAD/SFPLOADMACRO
    dst_rows_read: np.ndarray | None = None              # the 16-bit Dst rows an SFPLOAD read
    silent: list[tuple[str, str]] = field(default_factory=list)   # (model.silent rule, what was not done)

    @property
    def flags_changed(self) -> bool:
        return self.flags is not None

    @property
    def stack_changed(self) -> bool:
        return self.stack is not None

    @property
    def config_changed(self) -> bool:
        return bool(self.config_writes)


def apply_effects(state: SfpuState, effects: Effects, lregs: bool = True, dst: bool = True) -> None:
    """Replay `effects` onto `state`, in the order they happened (without
    the LReg writes if not `lregs`, or the Dst writes if not `dst`: the
    cycle model lands those itself)."""
    lr = state.lregs
    for w in effects.lreg_writes if lregs else ():
        np.copyto(lr[w.reg], w.values, where=w.mask)
    for w in effects.dst_writes if dst else ():
        cols = [c for c in range(16) if w.col_mask >> c & 1]
        state.dst[w.row, cols] = w.values[cols]
    for w in effects.config_writes:
        target = getattr(state, w.name)
        if w.index is not None:
            target = target[w.index]
        target[...] = np.where(w.lanes, w.values, target)
    if effects.flags is not None:
        state.lane_flags, state.use_flags = effects.flags
    if effects.stack is not None:
        state.flag_stack = list(effects.stack)
    if effects.prng is not None:
        state.prng = effects.prng
    if effects.tensix is not None:
        state.tensix = shallow_copy(effects.tensix)
    if effects.shft2_captured_vc is not None:
        state.shft2_captured_vc = effects.shft2_captured_vc


def regular_operands(ins: Instruction) -> Operands:
    """Operands of an instruction issued by the thread (not by SFPLOADMACRO)."""
    mn = ins.mnemonic
    if mn == "SFPLOADMACRO":
        return Operands(ins, ins.operand("vd"))
    return Operands(ins, ins.get("vd", 0), ins.register("vb"), ins.register("vc"))


@functools.lru_cache(maxsize=65536)
def word_operands(word: int, arch: Arch) -> Operands:
    """`regular_operands` of a thread's instruction word, resolved once per word."""
    return regular_operands(decode(word, arch))


@functools.lru_cache(maxsize=65536)
def word_plan(word: int, arch: Arch) -> tuple[Operands, Callable, int, int | None]:
    """What `Machine.execute` needs of a word, worked out once per word: its
    operands, semantics, bits that must be zero but are set, backdoor index."""
    ins = decode(word, arch)
    return word_operands(word, arch), semantics_of(ins), ins.op.must_be_zero & word, ins.backdoor_index


def semantics_of(ins) -> Callable:
    """`ins`'s semantics; a LookupError naming it where its table has an
    instruction nothing defines (a further architecture's, `isa.declare`)."""
    fn = SEMANTICS.get(ins.mnemonic)
    if fn is None:
        raise LookupError(f"{ins.mnemonic} of {ins.op.arch.title}'s table has no semantics "
                          f"(register them with model.semantics.semantics)")
    return fn


# Every lane passes the backdoor guard (read-only: callers combine it, never write it).
_ALL_LANES = np.ones(LANES, dtype=bool)
_ALL_LANES.flags.writeable = False


class Machine:
    def __init__(self, state: SfpuState, strict: bool = True):
        self.state = state
        self.strict = strict
        self.warnings: list[str] = []
        self.where = ""                 # set by the caller: cycle, source line
        self.effects = Effects()

    # -- undefined behaviour -------------------------------------------------

    def undefined(self, rule: str) -> None:
        message = f"{self.where}: {rule}" if self.where else rule
        if self.strict:
            raise UndefinedBehaviour(message)
        self.warnings.append(message)

    # -- execution -------------------------------------------------------------

    def execute(self, word: int) -> Effects:
        """Execute one instruction word issued by the thread; return its effects."""
        return self.execute_planned(word, word_plan(word, self.state.arch))

    def execute_planned(self, word: int, plan: tuple) -> Effects:
        """`execute` with the word's `word_plan` already at hand (the cycle model keeps it per word)."""
        x, function, stray_bits, backdoor_index = plan
        self.effects = Effects()
        if stray_bits:
            self.undefined(f"{x.ins.mnemonic}: bits 0x{stray_bits:X} must be zero")
        if backdoor_index is not None:
            self._backdoor_template_write(backdoor_index, word)
        function(self, x)
        return self.effects

    def execute_operands(self, x: Operands) -> Effects:
        """Execute an instruction whose operands are already resolved (SFPLOADMACRO's path)."""
        self.effects = Effects()
        semantics_of(x.ins)(self, x)
        return self.effects

    def _backdoor_template_write(self, index: int, word: int) -> None:
        """With DISABLE_BACKDOOR_LOAD clear, an instruction with VD = 12+i
        stores its own word in InstructionTemplate[i] (in every such lane)."""
        lanes = ~self.state.lane_config_bit(LaneConfigBit.DISABLE_BACKDOOR_LOAD)
        if np.count_nonzero(lanes):
            self.write_config("macro_templates", index, np.full(LANES, word, dtype=U32), lanes)

    def guard(self, x: Operands) -> np.ndarray:
        """Lanes passing `VD < 12 || DISABLE_BACKDOOR_LOAD` (always true under a macro)."""
        if x.macro or x.vd < 12:
            return _ALL_LANES
        return self.state.lane_config_bit(LaneConfigBit.DISABLE_BACKDOOR_LOAD)

    # -- what the hardware does not do (model.silent) --------------------------

    def silent(self, rule: str, detail: str) -> None:
        self.effects.silent.append((rule, detail))

    def writes_vd(self, x: Operands, vd: int) -> bool:
        """Whether a result addressed to `vd` is written: only L0-L7 and L16
        (every SFP* page's `VD < 8 || VD == 16`). L8-L15 drop it, silently,
        unless it is the documented backdoor: VD 12-15 from the thread with
        DISABLE_BACKDOOR_LOAD clear in every lane, where the word itself went
        into a macro template."""
        if vd < 8 or vd == 16:
            return True
        backdoor = (vd >= 12 and not x.macro
                    and not self.state.lane_config_bit(LaneConfigBit.DISABLE_BACKDOOR_LOAD).any())
        if not backdoor:
            self.silent("dropped-write", f"writes its result to L{vd}, a constant register: the write is dropped")
        return False

    # -- state writes ---------------------------------------------------------

    def write_lreg(self, reg: int, values: np.ndarray, mask: np.ndarray, constant: bool = False) -> None:
        """Write `values` into LReg `reg` in the lanes of `mask`. Only SFPCONFIG
        (`constant=True`) may write L11-L14; the caller filters other indices."""
        if not constant:
            assert reg < 8 or reg == 16, f"semantics tried to write L{reg}"
        mask = np.array(mask, dtype=bool)            # a copy: the log keeps it
        if not np.count_nonzero(mask):               # (a fraction of `any`'s cost on 32 lanes)
            return
        values = np.array(values, dtype=U32)         # a copy too
        if values.shape != (LANES,):
            values = np.broadcast_to(values, (LANES,)).copy()
        lr = self.state.lregs
        np.copyto(lr[reg], values, where=mask)
        self.effects.lreg_writes.append(LRegWrite(reg, mask, values))

    def write_flags(self, lane_flags: np.ndarray, use_flags: np.ndarray) -> None:
        st = self.state
        if np.array_equal(lane_flags, st.lane_flags) and np.array_equal(use_flags, st.use_flags):
            return
        st.lane_flags = np.asarray(lane_flags, dtype=bool).copy()
        st.use_flags = np.asarray(use_flags, dtype=bool).copy()
        self.effects.flags = (st.lane_flags, st.use_flags)

    def push_flags(self) -> None:
        st = self.state
        st.flag_stack = st.flag_stack + [FlagStackEntry(st.lane_flags.copy(), st.use_flags.copy())]
        self.effects.stack = st.flag_stack

    def pop_flags(self) -> FlagStackEntry:
        st = self.state
        top = st.flag_stack[-1]
        st.flag_stack = st.flag_stack[:-1]
        self.effects.stack = st.flag_stack
        return top

    def replace_stack_top(self, lane_flags: np.ndarray, use_flags: np.ndarray) -> None:
        """Blackhole's SFPPUSHC Mod1 != 0 and SFPLE/SFPGT MUTATE_STACK: a new
        top entry (entries are never changed in place)."""
        st = self.state
        top = st.flag_stack[-1]
        if np.array_equal(lane_flags, top.lane_flags) and np.array_equal(use_flags, top.use_flags):
            return
        entry = FlagStackEntry(np.asarray(lane_flags, dtype=bool).copy(), np.asarray(use_flags, dtype=bool).copy())
        st.flag_stack = st.flag_stack[:-1] + [entry]
        self.effects.stack = st.flag_stack

    def overwrite_stack_bottom(self) -> None:
        st = self.state
        top = st.flag_stack[-1]
        st.flag_stack = [FlagStackEntry(top.lane_flags.copy(), top.use_flags.copy())] + st.flag_stack[1:]
        self.effects.stack = st.flag_stack

    def advance_prng(self, lanes: np.ndarray) -> np.ndarray:
        """Advance the PRNG of the given lanes; return every lane's old state."""
        old, new = prng_advance(self.state.prng)
        self.state.prng = np.where(lanes, new, old).astype(U32)
        self.effects.prng = self.state.prng
        return old

    def apply_addr_mod(self, addr_mod: int) -> None:
        """SFPLOAD/SFPSTORE's ApplyPartialAddrMod on the thread's counters.

        Blackhole's AddrMod is 3 bits and names the slot itself; its pages do
        not say how ADDR_MOD_SET_Base (or the bias bit) would combine with it,
        so a Blackhole access with either set is undefined (lenient: the slot
        is AddrMod, the base ignored)."""
        t = self.state.tensix
        if self.state.arch.features.addr_mod_names_slot:
            if t.addr_mod_set_base or t.extra_addr_mod_bit:
                self.undefined("Blackhole SFPLOAD/SFPSTORE with ADDR_MOD_SET_Base or the ADDR_MOD bias bit set: "
                               "the pages do not say which slot a 3-bit AddrMod then uses")
            t.apply_partial_addr_mod(addr_mod, base=False)
        else:
            t.apply_partial_addr_mod(addr_mod)
        self.effects.tensix = shallow_copy(self.state.tensix)

    def set_stack_pointer(self, value: int) -> None:
        """Blackhole's RWC Sp, moved by SFPLOAD/SFPSTORE with MOD0_FMT_INT32_ALL."""
        t = self.state.tensix
        value &= 0x3FF
        if value != t.rwc_sp:
            t.rwc_sp = value
            self.effects.tensix = shallow_copy(t)

    def capture_shft2_vc(self, values: np.ndarray) -> None:
        self.state.shft2_captured_vc = values
        self.effects.shft2_captured_vc = values

    def write_config(self, name: str, index: int | None, values: np.ndarray, lanes: np.ndarray) -> None:
        # A new array, not a write in place: forks share the old one.
        array = getattr(self.state, name).copy()
        setattr(self.state, name, array)
        target = array if index is None else array[index]
        values = np.broadcast_to(np.asarray(values, dtype=U32), (LANES,)).copy()
        target[...] = np.where(lanes, values, target)
        self.effects.config_writes.append(ConfigWrite(name, index, values, np.asarray(lanes, dtype=bool).copy()))

    # -- Dst ----------------------------------------------------------------

    def dst16_rows(self, rows: np.ndarray) -> np.ndarray:
        """DstBits rows behind Dst16b rows: Blackhole's Adj16 (the identity
        unless DEST_ACCESS_CFG_remap_addrs is set; Wormhole has no remap)."""
        t = self.state.tensix
        if self.state.arch.features.dst_remap and t.dest_remap_addrs:
            return dfmt.adj16(rows, True)
        return rows

    def _dst32_rows(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The two DstBits rows behind Dst32b rows (Blackhole's Adj32)."""
        t = self.state.tensix
        if self.state.arch.features.dst_remap and (t.dest_remap_addrs or t.dest_swizzle_32b):
            rows = dfmt.adj32_base(rows, t.dest_remap_addrs, t.dest_swizzle_32b)
        return dst32_rows(rows)

    def dst_read(self, width: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        dst = self.state.dst
        if width == 16:
            physical = self.dst16_rows(rows)
            self.effects.dst_rows_read = physical
            return dst[physical, cols].astype(U32)
        hi, lo = self._dst32_rows(rows)
        self.effects.dst_rows_read = np.concatenate((hi, lo))
        return (dst[hi, cols].astype(U32) << U32(16)) | dst[lo, cols].astype(U32)

    def dst_write(self, width: int, rows: np.ndarray, cols: np.ndarray, values: np.ndarray,
                  mask: np.ndarray) -> None:
        if width == 16:
            self._dst_write16(self.dst16_rows(rows), cols, values.astype(np.uint16), mask)
        else:
            hi, lo = self._dst32_rows(rows)
            self._dst_write16(hi, cols, (values >> U32(16)).astype(np.uint16), mask)
            self._dst_write16(lo, cols, (values & U32(0xFFFF)).astype(np.uint16), mask)

    def _dst_write16(self, rows, cols, values, mask) -> None:
        """One write per lane of `mask` (a later lane wins a shared cell), logged per row."""
        dst = self.state.dst
        rows, cols = rows[mask], cols[mask]
        if rows.size == 0:
            return
        dst[rows, cols] = values[mask]
        for row, col_mask in _col_masks(rows.tobytes(), cols.tobytes(), rows.dtype.str, cols.dtype.str):
            self.effects.dst_writes.append(DstWrite(row, col_mask, dst[row].copy()))


@functools.lru_cache(maxsize=4096)
def _col_masks(rows: bytes, cols: bytes, rows_dtype: str, cols_dtype: str) -> tuple[tuple[int, int], ...]:
    """The Dst cells a store's lanes write, as (row, column mask) by row: worked
    out once per pattern (stores repeat their addresses and lane masks)."""
    col_masks: dict[int, int] = {}
    for row, col in zip(np.frombuffer(rows, dtype=rows_dtype).tolist(), np.frombuffer(cols, dtype=cols_dtype).tolist()):
        col_masks[row] = col_masks.get(row, 0) | 1 << col
    return tuple((row, col_masks[row]) for row in sorted(col_masks))
