"""The feature records (`model.isa.Features`): one per architecture, every
feature set, and the ones the instruction table also states agree with it."""

import dataclasses
import typing

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import Arch, FEATURES, Features

FIELDS = {f.name: f for f in dataclasses.fields(Features)}
HINTS = typing.get_type_hints(Features)


def test_every_architecture_has_a_complete_record():
    assert set(FEATURES) == set(Arch)
    for arch in Arch:
        record = arch.features
        assert record is FEATURES[arch] is isa.features(arch)
        for name in FIELDS:
            value = getattr(record, name)
            assert type(value) is HINTS[name], f"{arch.value}.{name} = {value!r} is not a {HINTS[name].__name__}"


def test_each_feature_says_what_it_means_and_names_real_instructions():
    mnemonics = {m for arch in Arch for m in isa.ISA[arch].opcodes}
    for name, f in FIELDS.items():
        assert f.metadata.get("meaning"), f"Features.{name} does not say what it means"
        unknown = set(f.metadata["instructions"]) - mnemonics
        assert not unknown, f"Features.{name} names instructions no table has: {unknown}"


def test_the_records_differ_in_every_feature():
    # Wormhole and Blackhole are the only architectures: a feature they share
    # would be no difference, and every difference between them is a feature.
    wh, bh = Arch.WORMHOLE.features, Arch.BLACKHOLE.features
    same = [name for name in FIELDS if getattr(wh, name) == getattr(bh, name)]
    assert not same, f"features equal on both architectures: {same}"


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_features_agree_with_the_table(arch):
    f, ops = arch.features, isa.ISA[arch].opcodes
    assert f.mul24 == ("SFPMUL24" in ops)
    assert f.compare == ("SFPLE" in ops) == ("SFPGT" in ops)
    assert f.arecip == ("SFPARECIP" in ops)
    assert f.pushc_mod1 == ops["SFPPUSHC"].has("mod1")
    assert f.round_mode_field == ops["SFPSTOCHRND"].has("rnd_mode") != ops["SFPSTOCHRND"].has("stochastic")
    for mnemonic in ("SFPLOAD", "SFPSTORE", "SFPLOADMACRO"):
        assert ops[mnemonic].field_map["addr_mod"].width == f.addr_mod_bits
    # Blackhole's stall logic and its gaps are table data; only an architecture that stalls has gaps.
    assert f.mad_stall == any(op.stall_gap for op in ops.values())
    # Mode 2-4 interlocks come with the stall logic.
    assert f.mad_stall == bool(ops["SFPSHFT2"].interlock_mod1)


def test_a_variant_is_a_replaced_record():
    variant = dataclasses.replace(Arch.WORMHOLE.features, dst_int8_bits=8)
    assert variant.dst_int8_bits == 8 and variant != Arch.WORMHOLE.features
    with pytest.raises(dataclasses.FrozenInstanceError):
        variant.mul24 = True


def test_names_leave_out_the_default_architecture_only():
    """`Arch.tagged`: what file names, program heads and commands add for an
    architecture, and leave out for the user's default."""
    assert isa.DEFAULT_ARCH.tagged("-{}") == ""
    for arch in isa.Arch:
        if arch is not isa.DEFAULT_ARCH:
            assert arch.tagged("-{}") == f"-{arch.value}" and arch.tagged(".arch {}\n") == f".arch {arch.value}\n"
