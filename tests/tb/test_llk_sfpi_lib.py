"""The SFPI stand-in's constant stores and cross-lane library functions
(tests/tb/llk_fixtures/ckernel_sfpu_fixture_sfpi_lib.h), run on the model of
each architecture. Every expected tile is worked out here from the
instruction pages (SFPSTORE.md, SFPTRANSP.md, SFPSHFT2.md, SFPLOAD.md's lane
layout: lane l of a row group is row l // 8, column l % 8), not from the
model."""

from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.dst_io import get_tile_bits32, put_tile_bits32
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.tb.llk.frontend import LlkError, Request, compile_call

LIB = Path(__file__).resolve().parent / "llk_fixtures" / "ckernel_sfpu_fixture_sfpi_lib.h"
X = np.random.default_rng(11).uniform(-8, 8, 1024).astype(np.float32)
ARCHS = ["wormhole", "blackhole"]


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(LIB.read_text().splitlines(), 1) if text in line)


def compile_lib(call: str, arch: str, init: str | None = None):
    return compile_call(Request(LIB, call, init, arch=arch, fp32_dest=1))


def run_tile(listing, arch: str, x=X) -> np.ndarray:
    """The tile's 32-bit words after the listing ran on `x` (strict: a hazard left would stop it)."""
    state = SfpuState(isa.Arch(arch))
    put_tile_bits32(state, x.view(np.uint32))
    return get_tile_bits32(run_program(listing.program, state).state)


def kernel_lines(listing) -> list[str]:
    return [t for t in listing.text.split(".mark body", 1)[1].splitlines() if t.startswith("TTI_SFP")]


def row_groups(x) -> np.ndarray:
    """32 row groups of 32 lanes, each lane's (row, column) in its group as a [4, 8] grid."""
    return x.view(np.uint32).reshape(32, 4, 8)


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


# --- subvec_transp -------------------------------------------------------------------------

def transposed(x) -> np.ndarray:
    """SFPTRANSP.md on each block of four row groups (the kernel's a, b, c, e): register i's
    grid row j becomes register j's grid row i."""
    blocks = row_groups(x).reshape(8, 4, 4, 8)            # [block, register, row, column]
    return blocks.transpose(0, 2, 1, 3).reshape(1024)


@pytest.mark.parametrize("arch", ARCHS)
def test_subvec_transp_is_one_sfptransp_on_l0_to_l3(arch):
    listing = compile_lib("calculate_fixture_transp<0, 2>()", arch)
    lines = kernel_lines(listing)
    transp = [t for t in lines if t.startswith("TTI_SFPTRANSP")]
    assert len(transp) == 2 * 4
    assert all(t.startswith("TTI_SFPTRANSP(0, 0, 0, 0);") for t in transp)
    assert all(t.endswith(f"ckernel_sfpu_fixture_sfpi_lib.h:{line_of('subvec_transp(a, b, c, e);  // all lanes')}")
               for t in transp)
    assert not any(t.startswith("TTI_SFPMOV") for t in lines)      # the loads are already in L0-L3
    assert np.array_equal(run_tile(listing, arch), transposed(X))


@pytest.mark.parametrize("arch", ARCHS)
def test_subvec_transp_of_one_value_copied_four_times(arch):
    """block_max8's `row1 = row0, ...`: three copies (SFPMOV, all lanes) besides the value itself,
    then register i holds grid row i of the value in each of its rows."""
    listing = compile_lib("calculate_fixture_transp_copies<2>()", arch)
    assert sum(t.startswith("TTI_SFPMOV") for t in kernel_lines(listing)) == 3 * 2 * 4
    first = row_groups(X).reshape(8, 4, 4, 8)[:, 0]       # [block, row, column] of each block's a
    want = np.broadcast_to(first[:, :, None, :], (8, 4, 4, 8)).reshape(1024)
    assert np.array_equal(run_tile(listing, arch), want)


@pytest.mark.parametrize("arch", ARCHS)
def test_subvec_transp_under_v_if_writes_only_the_enabled_lanes(arch):
    """SFPTRANSP.md writes a lane only where it is enabled: lanes where the block's first row
    group is not negative keep their values, in all four registers."""
    listing = compile_lib("calculate_fixture_transp<1, 2>()", arch)
    assert not any(t.startswith("TTI_SFPMOV") for t in kernel_lines(listing))
    old = row_groups(X).reshape(8, 4, 32)
    enabled = (old[:, 0].view(np.int32) < 0)[:, None, :]   # the lane flags, [block, 1, lane]
    want = np.where(enabled, transposed(X).reshape(8, 4, 32), old).reshape(1024)
    assert np.array_equal(run_tile(listing, arch), want)
    assert not np.array_equal(want, transposed(X))          # not vacuous: some lanes are disabled


def test_a_value_live_across_subvec_transp_is_an_error_at_the_line():
    """SFPTRANSP permutes L4-L7 too, and with the four operands in L0-L3 a fifth live value can
    only be there."""
    with pytest.raises(LlkError) as e:
        compile_lib("calculate_fixture_transp<2, 2>()", "wormhole")
    message = str(e.value)
    assert f"ckernel_sfpu_fixture_sfpi_lib.h:{line_of('keep is in L4-L7 here')}: " in message
    assert "live in L4 across subvec_transp" in message
    assert f"ckernel_sfpu_fixture_sfpi_lib.h:{line_of('keep = a * b')}" in message   # where it was made


# --- subvec_shflror1, subvec_shflshr1 --------------------------------------------------------

def rotated(x) -> np.ndarray:
    """SFPSHFT2 SUBVEC_SHFLROR1: within each row of eight lanes, lane c takes lane c - 1, lane 0 lane 7."""
    return np.roll(row_groups(x), 1, axis=2).reshape(1024)


def shifted(x) -> np.ndarray:
    """SFPSHFT2 SUBVEC_SHFLSHR1 as meant: lane c takes lane c - 1, lane 0 zero."""
    out = np.roll(row_groups(x), 1, axis=2)
    out[:, :, 0] = 0
    return out.reshape(1024)


@pytest.mark.parametrize("arch", ARCHS)
def test_subvec_shflror1_rotates_each_row_of_eight_lanes(arch):
    listing = compile_lib("calculate_fixture_shfl<false, 8>()", arch)
    lines = kernel_lines(listing)
    shft2 = [i for i, t in enumerate(lines) if t.startswith("TTI_SFPSHFT2")]
    assert len(shft2) == 4 * 8 and all(lines[i].split(",")[3].strip().startswith("3)") for i in shft2)
    # SFPI's compiler follows each with an SFPNOP (a static delay); so does the listing, on both
    assert all(lines[i + 1].startswith("TTI_SFPNOP;") for i in shft2)
    assert np.array_equal(run_tile(listing, arch), rotated(X))


@pytest.mark.parametrize("arch", ARCHS)
def test_subvec_shflshr1_shifts_zero_in_after_a_rotate(arch):
    """Wormhole's SHFLSHR1 brings in what the last rotate read (SFPSHFT2.md's HardwareBug()); SFPI's
    compiler rotates L9 (zero) into L8 first there, Blackhole needs nothing."""
    listing = compile_lib("calculate_fixture_shfl<true, 8>()", arch)
    lines = kernel_lines(listing)
    shr = [i for i, t in enumerate(lines) if t.startswith("TTI_SFPSHFT2(") and t.split(",")[3].strip().startswith("4)")]
    assert len(shr) == 4 * 8
    before = [next(t for t in reversed(lines[:i]) if not t.startswith("TTI_SFPNOP")) for i in shr]
    fixes = [t.startswith("TTI_SFPSHFT2(0, 9, 8, 3);") for t in before]
    assert all(fixes) if arch == "wormhole" else not any(fixes)
    x = X.view(np.float32)
    want = (shifted(x).view(np.float32) + rotated(x).view(np.float32)).astype(np.float32)
    assert np.array_equal(run_tile(listing, arch), want.view(np.uint32))
    flawed = (rotated(x).view(np.float32) * np.float32(2)).view(np.uint32).reshape(32, 4, 8)[:, :, 0]
    assert not np.array_equal(want.view(np.uint32).reshape(32, 4, 8)[:, :, 0], flawed)    # not vacuous
