"""The Tensix registers the SFPU reads, and the Dst address arithmetic.

SFPLOAD and SFPSTORE reach outside the SFPU: their Dst address adds the
thread's Dst read/write counter (RWC), the Dst base and offset registers, and
after the access they step the thread's counters by one ADDR_MOD slot
(ApplyPartialAddrMod: no fidelity-phase update). `TensixRegs` holds the few
registers and counters involved, as `model.state.TensixRegs` does; the outside
world sets them through `config` (one field per cycle, the RTL form of the
model's directives). The comb helpers `dst_address` and `resolve_mod0` are the
model's `_dst_address` and `resolve_mod0`, shared by the Load and Store units.

Widths are those the model masks to: 10-bit Dst counters, offsets and
increments, 6-bit SrcA/SrcB counters; a bias increment only matters through
its low two bits, so two are kept.

Blackhole adds the SFPU stack pointer RWC Sp, SFPU_STACK_Incr, DEST_SP_BASE
(10 bits each, docs/blackhole.md) and the Dst row remaps of DEST_ACCESS_CFG.
The view has their fields on both architectures, but only a Blackhole
elaboration has the registers (a Wormhole one reads them as 0), and its
3-bit AddrMod names the ADDR_MOD slot itself.
"""

from amaranth import Cat, Module, Mux, Signal
from amaranth.lib import data, enum, wiring
from amaranth.lib.wiring import In, Out

from tensix_sfpu.model.isa import INCRWC, SETRWC, SRCB_AS_BF16, Arch, Features

from .dst_convert import Mod0
from .isa import ArchComponent, opcode_bits

__all__ = ["ConfigField", "ConfigWrite", "AddrModLayout", "TensixView", "TensixRegs", "StackMove",
           "STACK_FIELDS", "REMAP_FIELDS", "feature_fields", "pack_addr_mod", "dst_address",
           "dst_rows", "resolve_mod0"]

DST_BITS = 10
SRC_BITS = 6
ADDR_MOD_SLOTS = 8


class ConfigField(enum.Enum, shape=4):
    """Which register a `ConfigWrite` sets (`index` is used by ADDR_MOD only)."""
    FP32_DEST = 0
    SRCB_FORMAT = 1
    DEST_OFFSET = 2
    DEST_BASE = 3
    ADDR_MOD_SET_BASE = 4
    RWC_DST = 5            # sets the counter and its carry register, like the `.rwc_dst` directive
    ADDR_MOD = 6           # index = slot 0-7, value = a packed AddrModLayout
    PRNG_SEED = 7          # not a Tensix register: the top routes it to the PRNG
    # Blackhole only (a Wormhole elaboration ignores them), like the directives of the same names.
    RWC_SP = 8
    SFPU_STACK_INCR = 9
    DEST_SP_BASE = 10
    DEST_REMAP_ADDRS = 11
    DEST_SWIZZLE_32B = 12


ConfigWrite = data.StructLayout({"valid": 1, "field": ConfigField, "index": 3, "value": 32})

AddrModLayout = data.StructLayout({
    "srca_incr": SRC_BITS, "srca_cr": 1, "srca_clear": 1,
    "srcb_incr": SRC_BITS, "srcb_cr": 1, "srcb_clear": 1,
    "dst_incr": DST_BITS, "dst_cr": 1, "dst_c_to_cr": 1, "dst_clear": 1,
    "bias_incr": 2, "bias_clear": 1,
})

_COMMON_FIELDS = {
    "fp32_dest": 1,
    "srcb_format": 4,
    "dest_offset": DST_BITS,
    "dest_base": DST_BITS,
    "addr_mod_set_base": 1,
    "rwc_dst": DST_BITS, "rwc_dst_cr": DST_BITS,
    "rwc_srca": SRC_BITS, "rwc_srca_cr": SRC_BITS,
    "rwc_srcb": SRC_BITS, "rwc_srcb_cr": SRC_BITS,
    "extra_addr_mod_bit": 1,
}
# The registers of `Features.stack_pointer` and `Features.dst_remap`, named as in `model.state.TensixRegs`.
STACK_FIELDS = {"rwc_sp": DST_BITS, "sfpu_stack_incr": DST_BITS, "dest_sp_base": DST_BITS}
REMAP_FIELDS = {"dest_remap_addrs": 1, "dest_swizzle_32b": 1}
# Every architecture's view has all of them (the top's `tensix` port is one layout); those an
# architecture lacks read 0.
TensixView = data.StructLayout({**_COMMON_FIELDS, **STACK_FIELDS, **REMAP_FIELDS})
_FEATURE_CONFIG = {ConfigField.RWC_SP: "rwc_sp", ConfigField.SFPU_STACK_INCR: "sfpu_stack_incr",
                   ConfigField.DEST_SP_BASE: "dest_sp_base", ConfigField.DEST_REMAP_ADDRS: "dest_remap_addrs",
                   ConfigField.DEST_SWIZZLE_32B: "dest_swizzle_32b"}


def feature_fields(features: Features) -> dict[str, int]:
    """The registers beyond the common ones that an architecture with `features` has."""
    return {**(STACK_FIELDS if features.stack_pointer else {}), **(REMAP_FIELDS if features.dst_remap else {})}

# A Blackhole SFPLOAD/SFPSTORE with MOD0_FMT_INT32_ALL moves Sp to `sp` (`move`).
StackMove = data.StructLayout({"move": 1, "sp": DST_BITS})


def pack_addr_mod(mod) -> int:
    """An ADDR_MOD slot (any object with `AddrModLayout`'s field names, such as
    `model.state.AddrMod`) as the integer value of an `AddrModLayout` (for ConfigWrite.value)."""
    packed = 0
    for name, field in AddrModLayout:
        width = field.width
        packed |= (int(getattr(mod, name)) & ((1 << width) - 1)) << field.offset
    return packed


def _step(m: Module, value, cr, incr, clear, use_cr, c_to_cr, bits: int, name: str):
    """One counter of ApplyPartialAddrMod (model.state.step_counter): the new (value, cr) as signals."""
    new_value, new_cr = Signal(bits, name=f"{name}_next"), Signal(bits, name=f"{name}_cr_next")
    summed = Signal(bits, name=f"{name}_sum")
    cr_summed = Signal(bits, name=f"{name}_cr_sum")
    m.d.comb += [summed.eq(value + incr), cr_summed.eq(cr + incr)]
    with m.If(clear):
        m.d.comb += [new_value.eq(0), new_cr.eq(0)]
    with m.Elif(c_to_cr):
        m.d.comb += [new_value.eq(summed), new_cr.eq(summed)]
    with m.Elif(use_cr):
        m.d.comb += [new_value.eq(cr_summed), new_cr.eq(cr_summed)]
    with m.Else():
        m.d.comb += [new_value.eq(summed), new_cr.eq(cr)]
    return new_value, new_cr


class TensixRegs(ArchComponent):
    """The registers of `TensixView` and the eight ADDR_MOD slots.

    At the clock edge: `apply_addr_mod` steps the counters by slot
    `addr_mod` (Wormhole: its 2 bits, +4 when the bias bit or
    ADDR_MOD_SET_Base is set; Blackhole: its 3 bits), `stack` moves Sp
    (Blackhole); a config write in the same cycle then overrides the field it
    writes.
    """

    def __init__(self, arch: Arch, *, features: Features | None = None):
        f = arch.features if features is None else features
        super().__init__(arch, wiring.Signature({
            "config": In(ConfigWrite),
            "apply_addr_mod": In(1),
            "addr_mod": In(3),                          # the bits above `addr_mod_bits` are not read
            **({"stack": In(StackMove)} if f.stack_pointer else {}),
            "counters_valid": In(1),                    # the thread issued SETRWC or INCRWC
            "counters_word": In(32),
            "view": Out(TensixView),
            "addr_mods": Out(data.ArrayLayout(AddrModLayout, ADDR_MOD_SLOTS)),
        }), features=f)

    def elaborate(self, platform):
        m = Module()
        f = self.features
        regs = Signal(data.StructLayout({**_COMMON_FIELDS, **feature_fields(f)}))
        slots = Signal(data.ArrayLayout(AddrModLayout, ADDR_MOD_SLOTS))
        m.d.comb += [self.view[name].eq(regs[name]) for name, _ in regs.shape()]   # Wormhole: the rest reads 0
        m.d.comb += self.addr_mods.eq(slots)

        # -- ApplyPartialAddrMod -----------------------------------------------------
        slot_index = Signal(3)
        if f.addr_mod_names_slot:
            m.d.comb += slot_index.eq(self.addr_mod)
        else:
            m.d.comb += slot_index.eq(Cat(self.addr_mod[:f.addr_mod_bits],
                                          regs.extra_addr_mod_bit | regs.addr_mod_set_base))
        mod = Signal(AddrModLayout)
        m.d.comb += mod.eq(slots[slot_index])
        srca, srca_cr = _step(m, regs.rwc_srca, regs.rwc_srca_cr, mod.srca_incr, mod.srca_clear,
                              mod.srca_cr, 0, SRC_BITS, "srca")
        srcb, srcb_cr = _step(m, regs.rwc_srcb, regs.rwc_srcb_cr, mod.srcb_incr, mod.srcb_clear,
                              mod.srcb_cr, 0, SRC_BITS, "srcb")
        dst, dst_cr = _step(m, regs.rwc_dst, regs.rwc_dst_cr, mod.dst_incr, mod.dst_clear,
                            mod.dst_cr, mod.dst_c_to_cr, DST_BITS, "dst")
        with m.If(self.apply_addr_mod):
            m.d.sync += [regs.rwc_srca.eq(srca), regs.rwc_srca_cr.eq(srca_cr),
                         regs.rwc_srcb.eq(srcb), regs.rwc_srcb_cr.eq(srcb_cr),
                         regs.rwc_dst.eq(dst), regs.rwc_dst_cr.eq(dst_cr)]
            with m.If(mod.bias_clear):
                m.d.sync += regs.extra_addr_mod_bit.eq(0)
            with m.Elif(mod.bias_incr != 0):
                m.d.sync += regs.extra_addr_mod_bit.eq(~regs.extra_addr_mod_bit)   # a one-bit counter

        if f.stack_pointer:
            with m.If(self.stack.move):
                m.d.sync += regs.rwc_sp.eq(self.stack.sp)

        # -- SETRWC / INCRWC (model.tensix.apply); never in a cycle with an ADDR_MOD ----------
        with m.If(self.counters_valid):
            self._counters(m, regs, self.counters_word)

        # -- config writes (after the AddrMod, so they win) ---------------------------------
        value = self.config.value
        with m.If(self.config.valid):
            with m.Switch(self.config.field):
                with m.Case(ConfigField.FP32_DEST):
                    m.d.sync += regs.fp32_dest.eq(value[0])
                with m.Case(ConfigField.SRCB_FORMAT):
                    m.d.sync += regs.srcb_format.eq(value)
                with m.Case(ConfigField.DEST_OFFSET):
                    m.d.sync += regs.dest_offset.eq(value)
                with m.Case(ConfigField.DEST_BASE):
                    m.d.sync += regs.dest_base.eq(value)
                with m.Case(ConfigField.ADDR_MOD_SET_BASE):
                    m.d.sync += regs.addr_mod_set_base.eq(value[0])
                with m.Case(ConfigField.RWC_DST):
                    m.d.sync += [regs.rwc_dst.eq(value), regs.rwc_dst_cr.eq(value)]
                with m.Case(ConfigField.ADDR_MOD):
                    m.d.sync += slots[self.config.index].eq(value)
                for config_field, name in _FEATURE_CONFIG.items():
                    if name in feature_fields(f):
                        with m.Case(config_field):
                            m.d.sync += regs[name].eq(value)
        return m

    @staticmethod
    def _counters(m: Module, regs, word) -> None:
        a_val, b_val, d_val, cr = word[6:10], word[10:14], word[14:18], word[18:22]
        counters = (("srca", a_val, 0, SRC_BITS), ("srcb", b_val, 1, SRC_BITS), ("dst", d_val, 2, DST_BITS))
        with m.If(opcode_bits(word) == SETRWC):
            for name, val, bit, bits in counters:
                value, value_cr = regs[f"rwc_{name}"], regs[f"rwc_{name}_cr"]
                base = Mux(cr[bit], value_cr, 0)
                if name == "dst":      # DstCtoCr adds the counter itself, and sets Dst on its own
                    base = Mux(cr[3], value, base)
                    chosen = word[bit] | cr[3]
                else:
                    chosen = word[bit]
                with m.If(chosen):
                    m.d.sync += [value.eq(val + base), value_cr.eq(val + base)]
        with m.Elif(opcode_bits(word) == INCRWC):   # an ADDR_MOD increment, through Cr or not
            for name, val, bit, bits in counters:
                value, value_cr = regs[f"rwc_{name}"], regs[f"rwc_{name}_cr"]
                new_value, new_cr = _step(m, value, value_cr, val, 0, cr[bit], 0, bits, f"incrwc_{name}")
                m.d.sync += [value.eq(new_value), value_cr.eq(new_cr)]


# ---------------------------------------------------------------------------
# Comb helpers shared by the Load and Store units

def resolve_mod0(m: Module, mod0, view, name: str = "mod0_resolved") -> Signal:
    """Mod0 with MOD0_FMT_SRCB replaced by FP32 (Fp32 Dst), BF16 or FP16 (by the SrcB format)."""
    resolved = Signal(Mod0, name=name)
    srcb_as_bf16 = view.srcb_format.matches(*sorted(int(f) for f in SRCB_AS_BF16))
    srcb = Mux(view.fp32_dest, Mod0.FP32, Mux(srcb_as_bf16, Mod0.BF16, Mod0.FP16))
    m.d.comb += resolved.eq(Mux(mod0 == Mod0.SRCB, srcb, mod0))
    return resolved


def dst_address(m: Module, imm10, mod0, view, features: Features, pop=None, name: str = "dst_address") -> Signal:
    """The Dst address of an SFPLOAD/SFPSTORE (`model.semantics._dst_address`):
    Imm10 + offset + (RWC + base), where INT32_ALL (`mod0` already resolved)
    keeps only the counter's low two bits.

    Blackhole adds Sp + DEST_SP_BASE: all of it for INT32_ALL, its low two bits
    otherwise. `pop` (a load): INT32_ALL first subtracts SFPU_STACK_Incr from a
    non-zero Sp, and the address uses the new Sp. Returns the address and the
    Sp it used (None on Wormhole)."""
    counter = Signal(DST_BITS, name=f"{name}_counter")
    m.d.comb += counter.eq(view.rwc_dst + view.dest_base)
    int32_all = mod0 == Mod0.INT32_ALL
    used = Signal(DST_BITS, name=f"{name}_counter_used")
    address = Signal(DST_BITS, name=name)
    if not features.stack_pointer:
        m.d.comb += used.eq(Mux(int32_all, counter[:2], counter))
        m.d.comb += address.eq(imm10 + view.dest_offset + used)
        return address, None
    sp = Signal(DST_BITS, name=f"{name}_sp")
    popped = view.rwc_sp - view.sfpu_stack_incr
    m.d.comb += sp.eq(view.rwc_sp if pop is None else Mux(pop & int32_all & (view.rwc_sp != 0), popped, view.rwc_sp))
    stack = Signal(DST_BITS, name=f"{name}_stack")
    m.d.comb += stack.eq(sp + view.dest_sp_base)
    m.d.comb += used.eq(Mux(int32_all, stack + counter[:2], counter + stack[:2]))
    m.d.comb += address.eq(imm10 + view.dest_offset + used)
    return address, sp


def dst_rows(m: Module, address, width32, view, name: str = "dst_rows") -> Signal:
    """Blackhole's Adj16 / Adj32 (`model.dst_format.adj16`, `adj32_base`): the
    address whose rows Dst's banks hold, with DEST_ACCESS_CFG remap_addrs and,
    for a 32-bit access, swizzle_32b applied. Both leave bits 1:0 alone, so the
    four rows of an access stay consecutive from a multiple of 4."""
    r = address
    remapped = Signal(DST_BITS, name=f"{name}_remapped")
    # remap_addrs: bits 5:4 move down to 4:3, bit 3 up to bit 5.
    m.d.comb += remapped.eq(Mux(view.dest_remap_addrs, Cat(r[0:3], r[4], r[5], r[3], r[6:]), r))
    s = remapped
    # swizzle_32b (the page's expression): bit 2 takes bit 3, bit 3 takes bit 4 ^ bit 2.
    swizzled = Cat(s[0:2], s[3], s[4] ^ s[2], s[4:])
    rows = Signal(DST_BITS, name=name)
    m.d.comb += rows.eq(Mux(width32 & view.dest_swizzle_32b, swizzled, remapped))
    return rows
