"""The SFPI stand-in's constant stores
(tests/tb/llk_fixtures/ckernel_sfpu_fixture_sfpi_lib.h), run on the model of
each architecture. Every expected tile is worked out here from the
instruction pages (SFPSTORE.md), not from the model."""

from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.dst_io import get_tile_bits32, put_tile_bits32
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.tb.llk.frontend import Request, compile_call

LIB = Path(__file__).resolve().parent / "llk_fixtures" / "ckernel_sfpu_fixture_sfpi_lib.h"
X = np.random.default_rng(11).uniform(-8, 8, 1024).astype(np.float32)
ARCHS = ["wormhole", "blackhole"]


def compile_lib(call: str, arch: str, init: str | None = None):
    return compile_call(Request(LIB, call, init, arch=arch, fp32_dest=1))


def run_tile(listing, arch: str, x=X) -> np.ndarray:
    """The tile's 32-bit words after the listing ran on `x` (strict: a hazard left would stop it)."""
    state = SfpuState(isa.Arch(arch))
    put_tile_bits32(state, x.view(np.uint32))
    return get_tile_bits32(run_program(listing.program, state).state)


def kernel_lines(listing) -> list[str]:
    return [t for t in listing.text.split(".mark body", 1)[1].splitlines() if t.startswith("TTI_SFP")]


# --- constant stores -----------------------------------------------------------------------

@pytest.mark.parametrize("arch", ARCHS)
def test_a_programmable_constant_is_moved_to_an_lreg_and_stored_from_there(arch):
    """SFPSTORE from L12-L15 stores nothing (SFPSTORE.md: VD < 12); SFPI's compiler copies the
    constant into L0-L7 first. The init sets vConstFloatPrgm0 to 2.5, which every lane must hold."""
    listing = compile_lib("calculate_fixture_store_constant<0, 8>()", arch, "fixture_prgm_init()")
    lines = kernel_lines(listing)
    stores = [i for i, t in enumerate(lines) if t.startswith("TTI_SFPSTORE(")]
    assert len(stores) == 4 * 8
    for i in stores:
        vd = int(lines[i].split("(")[1].split(",")[0])
        assert vd < 8
        assert lines[i - 1].startswith(f"TTI_SFPMOV(0, 12, {vd}, 2);")
    assert np.array_equal(run_tile(listing, arch), np.full(1024, np.float32(2.5).view(np.uint32)))


@pytest.mark.parametrize("arch", ARCHS)
def test_an_integer_programmable_constant_stores_its_value(arch):
    listing = compile_lib("calculate_fixture_store_constant<1, 8>()", arch, "fixture_prgm_init()")
    assert sum(t.startswith("TTI_SFPMOV(0, 13, ") for t in kernel_lines(listing)) == 4 * 8
    assert np.array_equal(run_tile(listing, arch), np.full(1024, 1234567, np.uint32))


def test_a_constant_below_l12_is_stored_directly():
    """L8-L11 pass SFPSTORE's VD < 12 test, and SFPI's compiler stores them as they are."""
    listing = compile_lib("calculate_fixture_store_constant<2, 8>()", "wormhole")
    lines = kernel_lines(listing)
    assert "TTI_SFPMOV" not in " ".join(lines)
    assert sum(t.startswith("TTI_SFPSTORE(11, ") for t in lines) == 4 * 8
    assert np.array_equal(run_tile(listing, "wormhole"), np.full(1024, np.float32(-1.0).view(np.uint32)))
