"""The RTL decoder against the ISA table and the model's operand resolution."""

from __future__ import annotations

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.decoder import Decoder
from tensix_sfpu.hdl.isa import Opcode, Unit, mnemonic, opcode
from tests.hdl.hdl_sim import evaluate
from tensix_sfpu.model import isa
from tensix_sfpu.model.hazards import interlocks_next
from tensix_sfpu.model.machine import regular_operands

OUTPUTS = [f"decoded.{name}" for name in
           ("opcode", "known", "unit", "vd", "vb", "vc", "latency2", "two_cycles", "interlock", "reserved_bits")]


def words(arch: isa.Arch, seed: int = 1, per_opcode: int = 24) -> list[int]:
    rng = np.random.default_rng(seed)
    out = []
    for op in isa.ISA[arch].table:
        out += [(op.opcode << 24) | int(low) for low in rng.integers(0, 1 << 24, per_opcode)]
        out += [op.opcode << 24, (op.opcode << 24) | 0xFFFFFF]
        for mod1 in sorted(op.two_cycle_mod1):
            out.append(isa.encode(op.mnemonic, arch, mod1=mod1))
    return out


def expected(word: int, arch: isa.Arch) -> dict[str, int]:
    ins = isa.decode(word, arch)
    x = regular_operands(ins)
    return {
        "decoded.opcode": opcode(ins.mnemonic), "decoded.known": 1, "decoded.unit": Unit[ins.op.unit.name],
        "decoded.vd": x.vd, "decoded.vb": x.vb or 0, "decoded.vc": x.vc or 0,
        "decoded.latency2": int(ins.latency == 2), "decoded.two_cycles": int(ins.two_cycles),
        "decoded.interlock": int(interlocks_next(ins)), "decoded.reserved_bits": int(bool(word & ins.op.must_be_zero)),
    }


@pytest.mark.parametrize("arch", list(isa.Arch), ids=lambda a: a.value)
def test_every_opcode_decodes_like_the_model(arch):
    vectors = words(arch)
    results = evaluate(Decoder(arch), [{"word": w} for w in vectors], OUTPUTS)
    for w, got in zip(vectors, results):
        assert got == expected(w, arch), f"0x{w:08X} ({isa.decode(w, arch).mnemonic})"


# 0x96-0x99 are Blackhole's SFPLE, SFPGT, SFPMUL24 and SFPARECIP, unknown to Wormhole.
@pytest.mark.parametrize("arch, op_byte", [(isa.Arch.WORMHOLE, b) for b in (0x00, 0x6F, 0x96, 0x99, 0xFF)]
                         + [(isa.Arch.BLACKHOLE, b) for b in (0x00, 0x6F, 0x9A, 0xFF)])
def test_unknown_opcodes_are_flagged(arch, op_byte):
    (got,) = evaluate(Decoder(arch), [{"word": op_byte << 24 | 0x123456}], ["decoded.known"])
    assert got["decoded.known"] == 0


def test_enum_names_follow_the_tables():
    """One enum holds the opcodes of both architectures, each where its table puts it."""
    tables = [isa.ISA[arch].opcodes for arch in isa.Arch]
    assert {mnemonic(o) for o in Opcode if o is not Opcode.NONE} == set().union(*tables)
    assert all(opcode(mn).value == op.opcode for table in tables for mn, op in table.items())



def test_converts_to_verilog():
    assert "module decoder" in verilog.convert(Decoder(isa.Arch.WORMHOLE), name="decoder")
