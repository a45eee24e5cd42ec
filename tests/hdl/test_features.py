"""The RTL reads features, not the chip's name: a variant of Wormhole (its
ISA table, its feature record with one feature changed, as
`dataclasses.replace` makes it) elaborates the components that read that
feature, and they come out different from Wormhole's own."""

import dataclasses

import pytest
from amaranth.back import rtlil

from tensix_sfpu.hdl.dst_convert import LoadConvert, StoreConvert
from tensix_sfpu.hdl.flags import FlagUnit
from tensix_sfpu.hdl.fma import Fma
from tensix_sfpu.hdl.issue import IssueStage
from tensix_sfpu.hdl.round_unit import RoundUnit
from tensix_sfpu.hdl.sfpu import Sfpu
from tensix_sfpu.hdl.simple_alu import SimpleAlu
from tensix_sfpu.hdl.tensix import TensixRegs
from tensix_sfpu.model.isa import Arch, Features

WH, BH = Arch.WORMHOLE, Arch.BLACKHOLE

# Feature -> the small components that read it (the sub-units that wrap them read it too).
READERS = {
    "dst_int8_bits": (LoadConvert,),
    "dst_signmag_convert": (LoadConvert, StoreConvert),
    "store_fp32_flush": (StoreConvert,),
    "pushc_mod1": (FlagUnit,),
    "compare": (FlagUnit, SimpleAlu),
    "popc_full_flaw": (FlagUnit,),
    "mul24": (Fma,),
    "canonical_nan": (Fma,),
    "flush_after_round": (Fma,),
    "sticky_keeps_bit1": (Fma,),
    "product_overflow_inf": (Fma,),
    "shft_arithmetic": (SimpleAlu,),
    "cast_int_modes": (SimpleAlu,),
    "arecip": (SimpleAlu,),
    "stack_pointer": (TensixRegs,),
    "dst_remap": (TensixRegs,),
    "addr_mod_bits": (TensixRegs,),
    "shft2_captured_vc": (RoundUnit,),
}
# Read only by the whole top (MadUnit, SimpleUnit and their wiring): `test_a_variant_top_elaborates`.
TOP_ONLY = {"mad_negate", "swap_late_reads"}
# Tied to the table: SFPSTOCHRND's `rnd_mode` field exists only in a table that has it; the stall
# logic decodes the table's `stall_view`, whose documented gaps only Blackhole's table states (on
# Wormhole's, SFPCONFIG's L0 read depends on VD, which the stall decoder does not look at).
TABLE_BOUND = {"round_mode_field", "mad_stall"}
# Facts of the model alone (hazard rules, the packer around the SFPU).
MODEL_ONLY = {"armed_macro_hazard", "pack_fp32_to_fp16_early",
              # STALLWAIT's condition bits: the wait gate is the issue path's (model.waits), not the SFPU's.
              "wait_fpu_bit", "wait_sfpu_bit", "wait_srca_bit", "wait_srcb_bit"}


def _flipped(name: str) -> Features:
    """Wormhole's record with `name` as Blackhole has it."""
    return dataclasses.replace(WH.features, **{name: getattr(BH.features, name)})


def test_every_feature_is_accounted_for():
    names = {f.name for f in dataclasses.fields(Features)}
    assert names == set(READERS) | TOP_ONLY | TABLE_BOUND | MODEL_ONLY


@pytest.mark.parametrize("name, component", [(n, c) for n, cs in READERS.items() for c in cs],
                         ids=lambda v: v if isinstance(v, str) else v.__name__)
def test_a_variant_elaborates_and_differs(name, component):
    plain = rtlil.convert(component(WH), name="dut")
    variant = rtlil.convert(component(WH, features=_flipped(name)), name="dut")
    assert variant != plain, f"{component.__name__} does not read {name}"


@pytest.mark.slow
def test_a_variant_top_elaborates():
    """The whole top on Wormhole's table with the features only it reads."""
    features = dataclasses.replace(WH.features, mad_negate=True, swap_late_reads=True)
    assert "module" in rtlil.convert(Sfpu(WH, features=features), name="sfpu")


def test_a_blackhole_variant_without_the_stall():
    """`mad_stall` is bound to Blackhole's table; turned off there, the issue stage has no stall logic."""
    features = dataclasses.replace(BH.features, mad_stall=False)
    plain = rtlil.convert(IssueStage(BH), name="dut")
    variant = rtlil.convert(IssueStage(BH, features=features), name="dut")
    assert "mad_stall" in plain and "mad_stall" not in variant
