"""The Load and Store sub-units, with Dst and the Tensix registers wired as the
top wires them, against the golden model.

Every cycle draws a new random SfpuState around the persistent Dst and Tensix
counters (LRegs, LaneConfig, flags so LaneEnabled varies) and a random
SFPLOAD / SFPLOADI / SFPLOADMACRO / SFPSTORE / macro SFPSTORE / SFPNOP over
all Mod0, VD, AddrMod and Imm10 values, often together with a config write.
The model executes it (`Machine.execute`, or `execute_operands` for a macro
store) and then takes the config write; the RTL must agree on the LReg writes
(merged per register), the Dst writes (per row, and Dst itself afterwards),
the Tensix registers after the AddrMod, the load address and the `undefined`
flag. TensixRegs alone is checked against `apply_partial_addr_mod`. Both
architectures: on Blackhole the config writes also set Sp, SFPU_STACK_Incr,
DEST_SP_BASE and the Dst remaps, AddrMod takes 3 bits and INT32_ALL is
frequent, so the stack in Dst moves.
"""

import copy

import numpy as np
import pytest
from amaranth import Module, Mux
from amaranth.lib import wiring
from amaranth.back import verilog
from amaranth.sim import Simulator

from tensix_sfpu.hdl.dst import COLS, Dst
from tensix_sfpu.hdl.isa import Opcode
from tensix_sfpu.hdl.load_store import LoadUnit, StoreUnit
from tensix_sfpu.hdl.tensix import ConfigField, TensixRegs, TensixView, pack_addr_mod
from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import Arch, Mod0Fmt
from tensix_sfpu.model.machine import Machine, regular_operands
from tensix_sfpu.model.semantics import Operands
from tensix_sfpu.model.state import DST_ROWS, LANES, NUM_LREGS, AddrMod, SfpuState, TensixRegs as ModelTensix
from tests.hdl.hdl_sim import lane_mask, pack, run_clocked, unpack

WORMHOLE_ISA = isa.ISA[isa.Arch.WORMHOLE]


VIEW_FIELDS = [name for name, _ in TensixView]
ARCHS = pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
BLACKHOLE_CONFIG = (ConfigField.RWC_SP, ConfigField.SFPU_STACK_INCR, ConfigField.DEST_SP_BASE,
                    ConfigField.DEST_REMAP_ADDRS, ConfigField.DEST_SWIZZLE_32B)
ONE_BIT = (ConfigField.FP32_DEST, ConfigField.ADDR_MOD_SET_BASE, ConfigField.DEST_REMAP_ADDRS,
           ConfigField.DEST_SWIZZLE_32B)


# -- packing ---------------------------------------------------------------------------







# -- random stimulus ---------------------------------------------------------------------

def random_addr_mod(rng, arch: Arch) -> AddrMod:
    flag = lambda p=0.3: bool(rng.random() < p)    # noqa: E731
    # On Blackhole a set bias bit makes every access undefined: keep it rarer.
    bias = int(rng.integers(0, 4)) if arch is Arch.WORMHOLE or flag(0.1) else 0
    return AddrMod(srca_incr=int(rng.integers(0, 64)), srca_cr=flag(), srca_clear=flag(0.15),
                   srcb_incr=int(rng.integers(0, 64)), srcb_cr=flag(), srcb_clear=flag(0.15),
                   dst_incr=int(rng.integers(0, 1024)) if rng.random() < 0.5 else int(rng.integers(0, 16)),
                   dst_cr=flag(), dst_c_to_cr=flag(), dst_clear=flag(0.15),
                   bias_incr=bias, bias_clear=flag(0.2) if arch is Arch.WORMHOLE else flag(0.6))


def random_config(rng, arch: Arch):
    """A config write as (ConfigField, index, value)."""
    fields = [0, 1, 2, 3, 4, 5, 6, 6, 6, 6]
    if arch is Arch.BLACKHOLE:
        fields += [f.value for f in BLACKHOLE_CONFIG for _ in range(2)]
    field = ConfigField(int(rng.choice(fields)))
    if field == ConfigField.ADDR_MOD:
        return field, int(rng.integers(0, 8)), random_addr_mod(rng, arch)
    bits = 1 if field in ONE_BIT else 4 if field == ConfigField.SRCB_FORMAT else 10
    value = int(rng.integers(0, 1 << bits))
    if field in (ConfigField.FP32_DEST, ConfigField.ADDR_MOD_SET_BASE) and rng.random() < 0.6:
        value = 0       # keep the SRCB -> FP32 and +4 slot paths from dominating
    if field == ConfigField.ADDR_MOD_SET_BASE and arch is Arch.BLACKHOLE and rng.random() < 0.8:
        value = 0       # undefined on Blackhole
    if field == ConfigField.RWC_SP and rng.random() < 0.3:
        value = 0       # a load does not pop an empty stack
    if field == ConfigField.SFPU_STACK_INCR and rng.random() < 0.5:
        value = int(rng.integers(0, 16))
    return field, 0, value


def apply_config(t: ModelTensix, field: ConfigField, index: int, value) -> None:
    """The model's directives (model.run.apply_directive) for one config write."""
    if field == ConfigField.FP32_DEST:
        t.fp32_dest = bool(value)
    elif field == ConfigField.SRCB_FORMAT:
        t.srcb_format = value
    elif field == ConfigField.DEST_OFFSET:
        t.dest_offset = value
    elif field == ConfigField.DEST_BASE:
        t.dest_base = value
    elif field == ConfigField.ADDR_MOD_SET_BASE:
        t.addr_mod_set_base = bool(value)
    elif field == ConfigField.RWC_DST:
        t.rwc_dst = t.rwc_dst_cr = value
    elif field == ConfigField.ADDR_MOD:
        t.addr_mods = list(t.addr_mods)
        t.addr_mods[index] = value
    elif field in (ConfigField.RWC_SP, ConfigField.SFPU_STACK_INCR, ConfigField.DEST_SP_BASE):
        setattr(t, field.name.lower(), value)
    elif field in (ConfigField.DEST_REMAP_ADDRS, ConfigField.DEST_SWIZZLE_32B):
        setattr(t, field.name.lower(), bool(value))


def random_lane_state(rng, state: SfpuState) -> None:
    state.lregs = rng.integers(0, 1 << 32, (NUM_LREGS, LANES), dtype=np.uint64).astype(np.uint32)
    if rng.random() < 0.3:
        state.lane_config = np.zeros(LANES, dtype=np.uint32)
    else:
        bits = rng.random((LANES, 18)) < rng.choice([0.1, 0.3])
        state.lane_config = (bits.astype(np.uint32) << np.arange(18, dtype=np.uint32)).sum(axis=1).astype(np.uint32)
    state.use_flags = rng.random(LANES) < rng.choice([0.0, 0.5])
    state.lane_flags = rng.random(LANES) < 0.5


def random_instruction(rng, arch: Arch):
    """(kind, word, vd, store_addr): kind is 'thread' or 'macro' (a macro SFPSTORE)."""
    r = rng.random()
    mod0, vd = int(rng.integers(0, 16)), int(rng.integers(0, 16))
    if arch is Arch.BLACKHOLE and rng.random() < 0.2:
        mod0 = Mod0Fmt.INT32_ALL.value      # the stack in Dst
    addr_mod = int(rng.integers(0, 1 << isa.ISA[arch].opcodes["SFPLOAD"].field_map["addr_mod"].width))
    imm10 = int(rng.integers(0, 1024))
    enc = lambda mnemonic, **values: isa.encode(mnemonic, arch, **values)     # noqa: E731
    if r < 0.3:
        return "thread", enc("SFPLOAD", vd=vd, mod0=mod0, addr_mod=addr_mod, imm10=imm10), None, None
    if r < 0.4:
        word = enc("SFPLOADMACRO", vd_lo=vd & 3, vd_hi=vd >> 3 & 1, imm9=imm10 >> 1, mod0=mod0,
                   addr_mod=addr_mod, macro=int(rng.integers(0, 4)))
        return "thread", word, None, None
    if r < 0.6:
        return "thread", enc("SFPLOADI", vd=vd, mod0=mod0, imm16=int(rng.integers(0, 1 << 16))), None, None
    if r < 0.82:
        return "thread", enc("SFPSTORE", vd=vd, mod0=mod0, addr_mod=addr_mod, imm10=imm10), None, None
    if r < 0.95:
        store_vd = int(rng.integers(0, 17))
        word = enc("SFPSTORE", vd=store_vd & 15, mod0=mod0, imm10=imm10)
        return "macro", word, store_vd, int(rng.integers(0, DST_ROWS))
    return "thread", enc("SFPNOP"), None, None


# -- the model's answer -------------------------------------------------------------------

def merged_lreg_writes(writes) -> dict[int, tuple[int, list[int]]]:
    """reg -> (lane mask, 32 values with 0 outside the mask); later writes win."""
    merged: dict[int, list] = {}
    for reg, mask, values in writes:
        entry = merged.setdefault(reg, [0, [0] * LANES])
        for lane in range(LANES):
            if mask >> lane & 1:
                entry[1][lane] = int(values[lane])
        entry[0] |= mask
    return {reg: (mask, values) for reg, (mask, values) in merged.items()}


def model_step(state: SfpuState, kind: str, word: int, vd, store_addr):
    machine = Machine(state.copy(), strict=False)
    if kind == "macro":
        effects = machine.execute_operands(Operands(isa.decode(word, state.arch), vd, macro=True,
                                                    store_addr=store_addr))
    else:
        effects = machine.execute(word)
    lregs = merged_lreg_writes((w.reg, lane_mask(w.mask), w.values) for w in effects.lreg_writes)
    rows: dict[int, int] = {}
    for w in effects.dst_writes:
        rows[w.row] = rows.get(w.row, 0) | w.col_mask
    dst = {row: (cols, [int(machine.state.dst[row, c]) if cols >> c & 1 else 0 for c in range(COLS)])
           for row, cols in rows.items()}
    undefined = any("SFPLOADI Mod0" in w or "ADDR_MOD_SET_Base" in w for w in machine.warnings)
    return machine.state, lregs, dst, effects.load_address, undefined


# -- the RTL under test -----------------------------------------------------------------------

class Harness:
    """Load, Store, Dst and TensixRegs, connected as `hdl.sfpu.Sfpu` connects them."""

    def __init__(self, init: np.ndarray, arch: Arch):
        self.load, self.store = LoadUnit(arch), StoreUnit(arch)
        self.dst, self.tensix = Dst(init=init), TensixRegs(arch)
        m = self.module = Module()
        m.submodules.load, m.submodules.store = self.load, self.store
        m.submodules.dst, m.submodules.tensix = self.dst, self.tensix
        load, store, dst, tensix = self.load, self.store, self.dst, self.tensix
        wiring.connect(m, load=load.dst, dst=dst.load)
        wiring.connect(m, store=store.dst, dst=dst.store)
        m.d.comb += [
            load.tensix.eq(tensix.view), store.tensix.eq(tensix.view),
            tensix.apply_addr_mod.eq(load.apply_addr_mod | store.apply_addr_mod),
            tensix.addr_mod.eq(Mux(load.apply_addr_mod, load.addr_mod, store.addr_mod)),
        ]
        if arch.features.stack_pointer:
            m.d.comb += tensix.stack.eq(Mux(load.stack.move, load.stack.as_value(), store.stack.as_value()))


def set_issue(ctx, unit, valid, macro=0, opcode=0, word=0, vd=0, store_addr=0):
    port = unit.inputs.issue
    ctx.set(port.valid, valid)
    ctx.set(port.macro, macro)
    ctx.set(port.opcode.as_value(), opcode)
    ctx.set(port.word, word)
    ctx.set(port.vd, vd)
    ctx.set(port.store_addr, store_addr)


def rtl_lreg_writes(ctx, load) -> dict[int, tuple[int, list[int]]]:
    writes = []
    for port in load.write:
        en = ctx.get(port.en)
        if not en:
            continue
        values = unpack(ctx.get(port.data.as_value()), 32, LANES)
        writes.append((ctx.get(port.reg), en, values))
    return merged_lreg_writes(writes)


def rtl_dst_writes(ctx, dst) -> dict[int, tuple[int, list[int]]]:
    records = {}
    for e in dst.writes:
        if ctx.get(e.valid):
            row = ctx.get(e.row)
            assert row not in records, f"row {row} reported twice"
            records[row] = (ctx.get(e.cols), unpack(ctx.get(e.values.as_value()), 16, COLS))
    return records


def view_of(t: ModelTensix) -> dict[str, int]:
    return {name: int(getattr(t, name)) for name in VIEW_FIELDS}


@ARCHS
@pytest.mark.parametrize("seed", [1, 2])
def test_random_instructions_against_the_model(seed, arch):
    rng = np.random.default_rng(seed)
    state = SfpuState(arch=arch)
    state.dst = rng.integers(0, 1 << 16, (DST_ROWS, COLS), dtype=np.uint64).astype(np.uint16)
    h = Harness(state.dst.copy(), arch)
    failures = []
    seen = {"loads": 0, "stores": 0, "captures": 0, "undefined": 0, "sp moves": 0, "remapped": 0}

    async def bench(ctx):
        nonlocal state
        # Start from random Tensix registers: every field and AddrMod slot written once.
        for field in (*ConfigField.__members__.values(),):
            if field == ConfigField.PRNG_SEED or (arch is Arch.WORMHOLE and field in BLACKHOLE_CONFIG):
                continue
            for index in range(8 if field == ConfigField.ADDR_MOD else 1):
                f, _, value = random_config(rng, arch)
                while f != field:
                    f, _, value = random_config(rng, arch)
                write_config(ctx, field, index, value)
                apply_config(state.tensix, field, index, value)
                await ctx.tick()
        ctx.set(h.tensix.config.valid, 0)

        for cycle in range(220):
            random_lane_state(rng, state)
            kind, word, vd, store_addr = random_instruction(rng, arch)
            ins = isa.decode(word, arch)
            for sub in (h.load, h.store):
                ctx.set(sub.inputs.lregs.as_value(), pack(state.lregs.reshape(-1), 32))
                ctx.set(sub.inputs.enabled, lane_mask(state.lane_enabled()))
                ctx.set(sub.inputs.lane_config.as_value(), pack(state.lane_config, 18))
            unit = h.store if ins.mnemonic == "SFPSTORE" else h.load
            other = h.load if unit is h.store else h.store
            set_issue(ctx, other, 0)
            if kind == "macro":
                set_issue(ctx, unit, 1, 1, ins.op.opcode, word, vd, store_addr)
            else:
                valid = ins.mnemonic != "SFPNOP" or rng.random() < 0.5
                set_issue(ctx, unit, valid, 0, ins.op.opcode, word, regular_operands(ins).vd)
            config = random_config(rng, arch) if rng.random() < 0.4 else None
            if config:
                write_config(ctx, *config)
            else:
                ctx.set(h.tensix.config.valid, 0)

            after, lregs, dst, address, undefined = model_step(state, kind, word, vd, store_addr)
            if config:
                after.tensix = copy.copy(after.tensix)
                apply_config(after.tensix, *config)
            where = (cycle, ins.mnemonic, kind, hex(word), vd)

            got_lregs = rtl_lreg_writes(ctx, h.load)
            if got_lregs != lregs:
                failures.append((where, "lregs", got_lregs, lregs))
            got_dst = rtl_dst_writes(ctx, h.dst)
            if got_dst != dst:
                failures.append((where, "dst writes", got_dst, dst))
            if address is not None and ctx.get(h.load.address) != address:
                failures.append((where, "address", ctx.get(h.load.address), address))
            got_undefined = ctx.get(h.load.undefined) | ctx.get(h.store.undefined)
            if got_undefined != undefined:
                failures.append((where, "undefined", got_undefined, undefined))
            seen["loads"] += bool(lregs)
            seen["stores"] += bool(dst)
            seen["captures"] += len(lregs) > 1
            seen["undefined"] += undefined
            seen["sp moves"] += after.tensix.rwc_sp != state.tensix.rwc_sp and not config
            seen["remapped"] += bool(dst) and (state.tensix.dest_remap_addrs or state.tensix.dest_swizzle_32b)

            await ctx.tick()
            state = after
            got_view = {name: ctx.get(getattr(h.tensix.view, name)) for name in VIEW_FIELDS}
            if got_view != view_of(state.tensix):
                failures.append((where, "tensix", got_view, view_of(state.tensix)))
            for row in dst:
                ctx.set(h.dst.side_row, row)
                if unpack(ctx.get(h.dst.side_rdata.as_value()), 16, COLS) != [int(v) for v in state.dst[row]]:
                    failures.append((where, "dst row", row))

        slots = [ctx.get(h.tensix.addr_mods[i].as_value()) for i in range(8)]
        if slots != [pack_addr_mod(mod) for mod in state.tensix.addr_mods]:
            failures.append(("final", "addr_mods"))

    def write_config(ctx, field, index, value):
        ctx.set(h.tensix.config.valid, 1)
        ctx.set(h.tensix.config.field, field)
        ctx.set(h.tensix.config.index, index)
        ctx.set(h.tensix.config.value, pack_addr_mod(value) if field == ConfigField.ADDR_MOD else value)

    sim = Simulator(h.module)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    assert not failures, failures[:3]
    assert seen["loads"] > 40 and seen["stores"] > 30 and seen["captures"] > 3 and seen["undefined"] > 3, seen
    if arch is Arch.BLACKHOLE:
        assert seen["sp moves"] > 5 and seen["remapped"] > 5, seen


@ARCHS
def test_tensix_regs_against_apply_partial_addr_mod(arch):
    """Sequences of AddrMod applications and config writes, some in the same
    cycle. Blackhole's 3-bit AddrMod names the slot (`base=False`)."""
    rng = np.random.default_rng(5)
    dut = TensixRegs(arch)
    model = ModelTensix()
    failures = []
    blackhole = arch is Arch.BLACKHOLE

    async def bench(ctx):
        for cycle in range(400):
            apply = rng.random() < 0.7
            addr_mod = int(rng.integers(0, 8 if blackhole else 4))
            config = random_config(rng, arch) if rng.random() < 0.5 else None
            ctx.set(dut.apply_addr_mod, apply)
            ctx.set(dut.addr_mod, addr_mod)
            ctx.set(dut.config.valid, config is not None)
            if config:
                field, index, value = config
                ctx.set(dut.config.field, field)
                ctx.set(dut.config.index, index)
                ctx.set(dut.config.value, pack_addr_mod(value) if field == ConfigField.ADDR_MOD else value)
            if apply:
                model.apply_partial_addr_mod(addr_mod, base=not blackhole)
            if config:
                apply_config(model, *config)
            await ctx.tick()
            got = {name: ctx.get(getattr(dut.view, name)) for name in VIEW_FIELDS}
            if got != view_of(model):
                failures.append((cycle, got, view_of(model)))
            slots = [ctx.get(dut.addr_mods[i].as_value()) for i in range(8)]
            if slots != [pack_addr_mod(mod) for mod in model.addr_mods]:
                failures.append((cycle, "addr_mods"))

    run_clocked(dut, bench)
    assert not failures, failures[:3]


def test_pack_addr_mod_fills_every_field():
    mod = AddrMod(srca_incr=63, srca_cr=True, srca_clear=True, srcb_incr=63, srcb_cr=True, srcb_clear=True,
                  dst_incr=1023, dst_cr=True, dst_c_to_cr=True, dst_clear=True, bias_incr=3, bias_clear=True)
    assert pack_addr_mod(mod) == (1 << 32) - 1
    assert pack_addr_mod(AddrMod()) == 0


@ARCHS
@pytest.mark.parametrize("component", [TensixRegs, LoadUnit, StoreUnit])
def test_verilog_converts(component, arch):
    assert "module" in verilog.convert(component(arch))


def test_opcodes_match_the_table():
    assert Opcode.LOAD.value == WORMHOLE_ISA.opcodes["SFPLOAD"].opcode
    assert Opcode.STORE.value == WORMHOLE_ISA.opcodes["SFPSTORE"].opcode
