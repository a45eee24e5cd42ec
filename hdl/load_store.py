"""The Load and Store sub-units: SFPLOAD, SFPLOADI, SFPLOADMACRO's load, SFPSTORE.

Both are purely combinational wrappers around one `LoadConvert` or
`StoreConvert` per lane (`hdl.dst_convert`): they work out the Dst address
(`hdl.tensix.dst_address`), the lanes that take part, and ask Dst (through the
top) for the data or hand it the data; the top applies the LReg writes, the
Dst writes and the ADDR_MOD step at the clock edge.

Model references (`model.semantics`): `load` / `sfpload` / `sfploadmacro`,
`sfploadi`, `sfpstore`. Points worth knowing:

* SFPLOAD with VD >= 8 writes nothing (this covers the backdoor VD 12-15), but
  still steps the counters: `m.apply_addr_mod` is unconditional.
* INT32_ALL ignores LaneEnabled and uses only the low two counter bits.
* SFPLOAD to L0-L3 may also capture each lane's Dst position into VD + 4
  (ENABLE_DEST_INDEX and CAPTURE_DEFAULT_DEST_INDEX).
* SFPLOADMACRO's load: VD = (VDHi << 2) | VDLo as the decoder resolves it,
  and Imm10 = (Imm9 << 1) | VDHi, which is simply bits [9:0] of the word, as
  SFPLOAD's Imm10 is.
* A macro SFPSTORE (issue.macro) uses the address its SFPLOADMACRO computed,
  steps no counter, reads issue.vd (possibly L16) and passes the backdoor guard
  in every lane.

Blackhole (docs/blackhole.md): the 3-bit AddrMod names the ADDR_MOD slot, and
with ADDR_MOD_SET_Base or the bias bit set the access is undefined (`undefined`;
the slot is AddrMod's); the address adds RWC Sp + DEST_SP_BASE, and INT32_ALL
moves Sp (`stack`: a load before its access, a thread store after; a macro
store does not); Dst sees the address through the Adj16/Adj32 remaps
(`hdl.tensix.dst_rows`), while the Dst index capture and the SFPLOADMACRO's
store keep the address as computed.
"""

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .dst import DstAccess
from .dst_convert import LoadConvert, Mod0, StoreConvert, is_dst32
from tensix_sfpu.model.isa import Arch, Features, LoadiMod0

from .arith import field
from .isa import ArchComponent, Opcode, table
from .tensix import StackMove, TensixView, dst_address, dst_rows, resolve_mod0
from .lregs import L0_L7
from .unit_io import (BLOCK_DEST_WR_FROM_SFPU, BLOCK_SFPU_RD_FROM_DEST, CAPTURE_DEFAULT_DEST_INDEX,
                      DEST_RD_COL_EXCHANGE, DEST_WR_COL_EXCHANGE, ENABLE_DEST_INDEX, ENABLE_FP16A_INF, LANES,
                      backdoor_guard, lane_config_bit, LaneValues, read_lreg, WriteBackPort,
                      SubUnitInputs, WriteBack)

__all__ = ["LoadUnit", "StoreUnit"]

LANES_PER_ROW = 8


def _mem_fields(word, arch: Arch):
    """Imm10, AddrMod and Mod0 of an SFPLOAD / SFPSTORE / SFPLOADMACRO word
    (SFPLOADMACRO's Imm10 and AddrMod sit where SFPLOAD's do)."""
    op = table(arch)["SFPLOAD"]
    return field(word, op, "imm10"), field(word, op, "addr_mod"), field(word, op, "mod0")


def _addr_mod_undefined(m: Module, applies, view, features: Features, name: str) -> Signal:
    """An ADDR_MOD applied with ADDR_MOD_SET_Base or the bias bit set where
    AddrMod names the slot itself (`model.machine.Machine.apply_addr_mod`);
    never where those pick the slot's high bit (Wormhole)."""
    undefined = Signal(name=name)
    if features.addr_mod_names_slot:
        m.d.comb += undefined.eq(applies & (view.addr_mod_set_base | view.extra_addr_mod_bit))
    return undefined


def _col_exchange(lane_config, bit: int):
    """The column-exchange bit of LaneConfig[lane & 7], as a 32-lane mask."""
    return Cat(*[lane_config[lane % LANES_PER_ROW][bit] for lane in range(LANES)])


class LoadUnit(ArchComponent):
    WRITE_TARGETS = (WriteBack(L0_L7), WriteBack(L0_L7[4:]))

    def __init__(self, arch: Arch, *, features: Features | None = None):
        f = arch.features if features is None else features
        super().__init__(arch, wiring.Signature({
            "inputs": In(SubUnitInputs()),
            "tensix": In(TensixView),
            "write": Out(WriteBackPort()).array(2),     # 0: VD, 1: VD + 4 (the Dst index capture)
            "dst": Out(DstAccess(write=False)),
            "apply_addr_mod": Out(1),
            "addr_mod": Out(3),                         # a narrower AddrMod zero-extended
            **({"stack": Out(StackMove)} if f.stack_pointer else {}),     # Sp after the load
            "address": Out(10),
            "undefined": Out(1),
        }), features=f)

    def elaborate(self, platform):
        m = Module()
        issue, vd = self.inputs.issue, self.inputs.issue.vd
        loads_dst = Signal()        # SFPLOAD or SFPLOADMACRO
        loadi = Signal()
        m.d.comb += [loads_dst.eq(issue.valid & ((issue.opcode == Opcode.LOAD) | (issue.opcode == Opcode.LOADMACRO))),
                     loadi.eq(issue.valid & (issue.opcode == Opcode.LOADI))]
        writes_vd = Signal()
        m.d.comb += writes_vd.eq(vd < 8)
        # VD before the load (LO16_ONLY, HI16_ONLY, UPPER, LOWER keep half).
        old = read_lreg(m, self.inputs.lregs, vd[:3], "old")

        # -- Dst address and access ---------------------------------------------------
        imm10, addr_mod, mod0_field = _mem_fields(issue.word, self.arch)
        mod0 = resolve_mod0(m, mod0_field, self.tensix)
        address, sp = dst_address(m, imm10, mod0, self.tensix, self.features, pop=loads_dst)
        width32 = is_dst32(mod0, "load")
        m.d.comb += [
            self.address.eq(address), self.dst.width32.eq(width32),
            self.dst.col_exchange.eq(_col_exchange(self.inputs.lane_config, DEST_RD_COL_EXCHANGE)),
            self.apply_addr_mod.eq(loads_dst), self.addr_mod.eq(addr_mod),
        ]
        addr_mod_undefined = _addr_mod_undefined(m, loads_dst, self.tensix, self.features, "addr_mod_undefined")
        m.d.comb += self.dst.addr.eq(dst_rows(m, address, width32, self.tensix) if self.features.dst_remap
                                     else address)
        if self.features.stack_pointer:
            m.d.comb += [self.stack.move.eq(loads_dst & (mod0 == Mod0.INT32_ALL)), self.stack.sp.eq(sp)]

        # INT32_ALL loads ignore LaneEnabled.
        active = Signal(LANES)
        lane_enable = Mux(mod0 == Mod0.INT32_ALL, Const((1 << LANES) - 1, LANES), self.inputs.enabled)
        m.d.comb += active.eq(~lane_config_bit(self.inputs.lane_config, BLOCK_SFPU_RD_FROM_DEST) & lane_enable)

        converted = Signal(LaneValues)
        for lane in range(LANES):
            convert = m.submodules[f"convert{lane}"] = LoadConvert(self.arch)
            m.d.comb += [convert.mod0.eq(mod0), convert.raw.eq(self.dst.raw[lane]), convert.old.eq(old[lane]),
                         convert.fp16a_inf.eq(self.inputs.lane_config[lane][ENABLE_FP16A_INF]),
                         converted[lane].eq(convert.value)]

        # -- SFPLOADI -----------------------------------------------------------------------
        loadi_value, loadi_defined = self._loadi(m, old)
        loadi_writes = Signal()
        m.d.comb += [loadi_writes.eq(loadi & writes_vd & self.inputs.enabled.any()),
                     self.undefined.eq((loadi_writes & ~loadi_defined) | addr_mod_undefined)]

        # -- port 0: VD -------------------------------------------------------------------------
        vd_port = self.write[0]
        m.d.comb += vd_port.en.eq(Mux(loads_dst & writes_vd, active, 0)
                                  | Mux(loadi_writes & loadi_defined, self.inputs.enabled, 0))
        m.d.comb += vd_port.reg.eq(vd)
        for lane in range(LANES):
            m.d.comb += vd_port.data[lane].eq(Mux(loadi, loadi_value[lane], converted[lane]))

        # -- port 1: VD + 4 takes (row << 4) | column of each lane's 16-bit Dst position --------
        index_port = self.write[1]
        capture = Signal(LANES)
        m.d.comb += capture.eq(lane_config_bit(self.inputs.lane_config, ENABLE_DEST_INDEX)
                               & lane_config_bit(self.inputs.lane_config, CAPTURE_DEFAULT_DEST_INDEX) & active)
        m.d.comb += index_port.en.eq(Mux(loads_dst & (vd < 4), capture, 0))
        odd = Signal(LANES)
        m.d.comb += odd.eq(address[1].replicate(LANES) | self.dst.col_exchange)
        m.d.comb += index_port.reg.eq(vd + 4)
        for lane in range(LANES):
            k, j = divmod(lane, LANES_PER_ROW)
            row = Cat(Const(k, 2), address[2:10])
            m.d.comb += index_port.data[lane].eq(Cat(odd[lane], Const(j, 3), row))
        return m

    def _loadi(self, m: Module, old):
        """SFPLOADI's value for every lane, and whether its Mod0 is a defined mode."""
        word = self.inputs.issue.word
        imm, mode = word[0:16], word[16:20]
        defined = Signal()
        m.d.comb += defined.eq(mode.matches(*table(self.arch)["SFPLOADI"].defined_values("mod0")))
        # FLOATA: FP16 fields rebiased to FP32 (no special cases for E = 0 or 31).
        floata = Cat(Const(0, 13), imm[0:10], (imm[10:15] + 112)[:8], imm[15])
        uniform = Signal(32)        # the value of the modes that ignore the old register
        with m.Switch(mode):
            with m.Case(LoadiMod0.FLOATB):
                m.d.comb += uniform.eq(Cat(Const(0, 16), imm))
            with m.Case(LoadiMod0.FLOATA):
                m.d.comb += uniform.eq(floata)
            with m.Case(LoadiMod0.USHORT):
                m.d.comb += uniform.eq(imm)
            with m.Case(LoadiMod0.SHORT):
                m.d.comb += uniform.eq(imm.as_signed())
        value = Signal(LaneValues)
        for lane in range(LANES):
            with m.Switch(mode):
                with m.Case(LoadiMod0.UPPER):
                    m.d.comb += value[lane].eq(Cat(old[lane][:16], imm))
                with m.Case(LoadiMod0.LOWER):
                    m.d.comb += value[lane].eq(Cat(imm, old[lane][16:]))
                with m.Default():
                    m.d.comb += value[lane].eq(uniform)
        return value, defined


class StoreUnit(ArchComponent):
    def __init__(self, arch: Arch, *, features: Features | None = None):
        f = arch.features if features is None else features
        super().__init__(arch, wiring.Signature({
            "inputs": In(SubUnitInputs()),
            "tensix": In(TensixView),
            "dst": Out(DstAccess(write=True)),
            "apply_addr_mod": Out(1),
            "addr_mod": Out(3),                         # a narrower AddrMod zero-extended
            **({"stack": Out(StackMove)} if f.stack_pointer else {}),     # Sp after the store
            "undefined": Out(1),
        }), features=f)

    def elaborate(self, platform):
        m = Module()
        issue = self.inputs.issue
        store = Signal()
        m.d.comb += store.eq(issue.valid & (issue.opcode == Opcode.STORE))

        imm10, addr_mod, mod0_field = _mem_fields(issue.word, self.arch)
        mod0 = resolve_mod0(m, mod0_field, self.tensix)
        thread_address, sp = dst_address(m, imm10, mod0, self.tensix, self.features)
        address = Mux(issue.macro, issue.store_addr, thread_address)
        width32 = is_dst32(mod0, "store")
        thread_store = store & ~issue.macro
        m.d.comb += [
            self.dst.width32.eq(width32),
            self.dst.col_exchange.eq(_col_exchange(self.inputs.lane_config, DEST_WR_COL_EXCHANGE)),
            self.apply_addr_mod.eq(thread_store), self.addr_mod.eq(addr_mod),
            self.undefined.eq(_addr_mod_undefined(m, thread_store, self.tensix, self.features,
                                                  "addr_mod_undefined")),
        ]
        m.d.comb += self.dst.addr.eq(dst_rows(m, address, width32, self.tensix) if self.features.dst_remap
                                     else address)
        if self.features.stack_pointer:
            m.d.comb += [self.stack.move.eq(thread_store & (mod0 == Mod0.INT32_ALL)),
                         self.stack.sp.eq(sp + self.tensix.sfpu_stack_incr)]

        guard = backdoor_guard(m, issue, self.inputs.lane_config)
        lane_enable = Mux(mod0 == Mod0.INT32_ALL, Const((1 << LANES) - 1, LANES), self.inputs.enabled)   # INT32_ALL ignores it
        m.d.comb += self.dst.lanes.eq(Mux(store, guard & lane_enable, 0)
                                      & ~lane_config_bit(self.inputs.lane_config, BLOCK_DEST_WR_FROM_SFPU))

        source = read_lreg(m, self.inputs.lregs, issue.vd, "source")      # VD: any register, L16 included under a macro
        for lane in range(LANES):
            convert = m.submodules[f"convert{lane}"] = StoreConvert(self.arch)
            m.d.comb += [convert.mod0.eq(mod0), convert.value.eq(source[lane]),
                         self.dst.raw[lane].eq(convert.raw)]
        return m
