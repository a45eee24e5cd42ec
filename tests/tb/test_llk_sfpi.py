"""The recording SFPI stand-in (tb/llk/include/sfpi.h): SFPI kernels written
here in the style of tt-llk's (tests/tb/llk_fixtures/ckernel_sfpu_fixture_sfpi.h)
compiled by g++, recorded as instructions, run on the model in strict mode and
checked against numpy; the instruction choices the issue asks for; and a
clear error at the C++ line for what the stand-in cannot do."""

import re
from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.model.dst_io import get_tile_fp32, put_tile_bits32
from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.llk.frontend import LlkError, Request, compile_call
from tensix_sfpu.model.isa import Arch

SFPI = Path(__file__).resolve().parent / "llk_fixtures" / "ckernel_sfpu_fixture_sfpi.h"
X = np.random.default_rng(7).uniform(-8, 8, 1024).astype(np.float32)


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(SFPI.read_text().splitlines(), 1) if text in line)


def compile_sfpi(call: str):
    return compile_call(Request(SFPI, call, arch="wormhole", fp32_dest=1))


def run_tile(listing, x=X):
    state = SfpuState(Arch.WORMHOLE)
    put_tile_bits32(state, x.view(np.uint32))
    result = run_program(listing.program, state)       # strict: any hazard left would stop it
    return get_tile_fp32(result.state)


def mnemonics(listing) -> list[str]:
    sfpu = isa.ISA[isa.Arch.WORMHOLE].by_opcode
    return [isa.decode(w, isa.Arch.WORMHOLE).mnemonic for w in listing.kernel_words() if w >> 24 in sfpu]


def fused(x):          # one rounding of x*0.75+0.25: exact in float64, then rounded once
    return (x.astype(np.float64) * 0.75 + 0.25).astype(np.float32)


def piecewise(x):
    return np.where(x < 0, 0, np.where(x >= 4, 4, x * x)).astype(np.float32)


def outside_band(x):
    return np.where((x < -1) | (x > 1), -x, x).astype(np.float32)


def doubled(x):
    return (x * np.float32(2)).astype(np.float32)


def one_minus_square(x):       # the square rounded to FP32, then the difference rounded
    return (np.float32(1) - (x * x).astype(np.float32)).astype(np.float32)


def power_of_two_below(x):
    e = np.floor(np.log2(np.abs(x)))
    return np.where(e < -10, 0, 2.0 ** e).astype(np.float32)


@pytest.mark.parametrize("call, reference", [
    ("calculate_fixture_axpb<false, 8>()", fused),
    ("calculate_fixture_piecewise<false, 8>()", piecewise),
    ("calculate_fixture_outside_band<false, 8>()", outside_band),
    ("calculate_fixture_exponent<false, 8>()", power_of_two_below),
    ("calculate_fixture_mixed<false, 8>()", doubled),
    ("calculate_fixture_minus_product<false, 8>()", one_minus_square),
])
def test_sfpi_kernel_matches_numpy_bit_for_bit(call, reference):
    listing = compile_sfpi(call)
    assert listing.frontend == "sfpi"
    got = run_tile(listing)
    assert np.array_equal(got.view(np.uint32), reference(X).view(np.uint32))


@pytest.mark.parametrize("call, reference", [
    ("calculate_fixture_axpb<false, 8>()", fused),
    ("calculate_fixture_piecewise<false, 8>()", piecewise),
    ("calculate_fixture_outside_band<false, 8>()", outside_band),
    ("calculate_fixture_exponent<false, 8>()", power_of_two_below),
])
def test_sfpi_kernel_matches_numpy_on_blackhole(call, reference):
    listing = compile_call(Request(SFPI, call, fp32_dest=1, arch="blackhole"))
    assert listing.program.arch is isa.Arch.BLACKHOLE
    state = SfpuState(arch=isa.Arch.BLACKHOLE)
    put_tile_bits32(state, X.view(np.uint32))
    got = get_tile_fp32(run_program(listing.program, state).state)
    assert np.array_equal(got.view(np.uint32), reference(X).view(np.uint32))


def half_minus_one(x):
    return (x * np.float32(0.5) - np.float32(1)).astype(np.float32)


def test_max_of_values_that_die_there_swaps_them_in_place():
    """SFPSWAP writes both its registers: SFPI's compiler copies an operand only when it is still needed
    afterwards; the stand-in does the same."""
    dead = compile_sfpi("calculate_fixture_max_dead<false, 8>()")
    live = compile_sfpi("calculate_fixture_max_live<false, 8>()")
    assert "SFPMOV" not in mnemonics(dead)
    assert mnemonics(live).count("SFPMOV") == 2 * 4 * 8          # x and y copied, 8 rows a face, 4 faces
    y = half_minus_one(X)
    assert np.array_equal(run_tile(dead), np.maximum(X, y))
    assert np.array_equal(run_tile(live), (np.maximum(X, y) + (X + y).astype(np.float32)).astype(np.float32))


def test_multiply_add_is_one_sfpmad():
    ops = mnemonics(compile_sfpi("calculate_fixture_axpb<false, 1>()"))
    assert ops.count("SFPMAD") == 4            # once per face
    assert "SFPMUL" not in ops and "SFPADD" not in ops


def test_a_product_rounded_twice_would_differ():
    # The checks above are not vacuous: on these inputs two roundings differ from one.
    twice = (X * np.float32(0.75)) + np.float32(0.25)
    assert not np.array_equal(twice.view(np.uint32), fused(X).view(np.uint32))
    once = (1.0 - X.astype(np.float64) * X).astype(np.float32)
    assert not np.array_equal(once.view(np.uint32), one_minus_square(X).view(np.uint32))


def test_a_nop_keeps_the_store_from_reading_the_mad_in_flight():
    listing = compile_sfpi("calculate_fixture_axpb<false, 1>()")
    lines = listing.text.splitlines()
    mad = next(i for i, t in enumerate(lines) if t.startswith("TTI_SFPMAD"))
    assert lines[mad + 1].startswith("TTI_SFPNOP;")
    assert lines[mad + 1].endswith(f"ckernel_sfpu_fixture_sfpi.h:{line_of('x * a + 0.25f')}")
    assert lines[mad + 2].startswith("TTI_SFPSTORE")


def test_every_recorded_instruction_names_its_cxx_line():
    listing = compile_sfpi("calculate_fixture_piecewise<false, 1>()")
    body = listing.text.split(".mark body", 1)[1].splitlines()
    kernel = [t for t in body if t.startswith("TTI_SFP")]
    assert kernel and all("ckernel_sfpu_fixture_sfpi.h:" in t for t in kernel)
    # the v_if's comparison and the squaring are on their own lines
    assert any(t.endswith(f":{line_of('v_if (x < 0.0f)')}") and "SFPSETCC" in t for t in kernel)
    assert any(t.endswith(f":{line_of('y = x * x;')}") and "SFPMUL" in t for t in kernel)


def test_v_if_pushes_and_pops_the_flag_stack_in_pairs():
    ops = mnemonics(compile_sfpi("calculate_fixture_outside_band<false, 1>()"))
    assert ops.count("SFPPUSHC") == ops.count("SFPPOPC") > 0


def test_too_many_live_values_is_an_error_at_the_line():
    with pytest.raises(LlkError) as e:
        compile_sfpi("calculate_fixture_too_many_values<false, 1>()")
    assert f"ckernel_sfpu_fixture_sfpi.h:{line_of('h = x * 13.0f')}:" in str(e.value)
    assert "more than 8 vector values are live" in str(e.value)


def test_sfpi_kernels_run_in_lock_step_on_the_rtl(tmp_path):
    """Streams the stand-in chose (predication, an || on the flag stack, integer
    work on exponents) on Verilator against the model, on one face of data."""
    specs = []
    for call in ("calculate_fixture_piecewise<false, 2>()", "calculate_fixture_outside_band<false, 2>()",
                 "calculate_fixture_exponent<false, 2>()"):
        listing = compile_call(Request(SFPI, call, arch="wormhole", fp32_dest=1, vector_mode="none"))
        state = SfpuState(Arch.WORMHOLE)
        put_tile_bits32(state, X.view(np.uint32))
        name = call.split("<")[0]
        (tmp_path / f"{name}.s").write_text(listing.text)
        np.save(tmp_path / f"{name}.npy", state.dst)
        specs.append(f"file:{tmp_path / name}.s@{tmp_path / name}.npy")
    outcomes = runner.run("verilator", ["lockstep"], {"SFPU_PROGRAMS": " ".join(specs)}, work=tmp_path / "run",
                          arch=Arch.WORMHOLE)
    assert outcomes and all(o.passed for o in outcomes), [o.message for o in outcomes]


def test_a_constant_gives_its_register_up_and_is_loaded_again():
    # x, the two constants and six products are nine values: one constant is dropped and reloaded.
    listing = compile_sfpi("calculate_fixture_constants_reloaded<false, 8>()")
    first_row_group = listing.text.split(".mark body", 1)[1].split("TTI_SFPSTORE", 1)[0]
    assert first_row_group.count("TTI_SFPLOADI") == 3          # 0.375, 1.5, then 0.375 again
    f32 = np.float32
    terms = [X * f32(c) for c in (2, 3, 5, 7, 9, 11)] + [X]
    total = terms[0]
    for t in terms[1:]:
        total = (total + t).astype(np.float32)
    expected = (total.astype(np.float64) * 0.375 + 1.5).astype(np.float32)     # one SFPMAD: one rounding
    assert np.array_equal(run_tile(listing).view(np.uint32), expected.view(np.uint32))


def test_a_variable_holding_a_bf16_constant_is_an_immediate():
    listing = compile_sfpi("calculate_fixture_constant_variable<false, 1>()")
    ops = mnemonics(listing)
    assert ops.count("SFPADDI") == 8 and ops.count("SFPMULI") == 4      # per face: +0.25, *0.5, -0.25
    assert "SFPADD" not in ops and "SFPMUL" not in ops and "SFPMAD" not in ops
    f32 = np.float32
    expected = ((X + f32(0.25)) * f32(0.5) - f32(0.25)).astype(f32)
    got = run_tile(compile_sfpi("calculate_fixture_constant_variable<false, 8>()"))
    assert np.array_equal(got.view(np.uint32), expected.view(np.uint32))


def test_an_assignment_under_v_if_writes_the_variables_own_register():
    # x is dead after the products; a, b, c, e, f, y, s are seven live values and the v_if's
    # updates need no eighth: each is one instruction on its variable's register.
    listing = compile_sfpi("calculate_fixture_masked_in_place<false, 8>()")
    group = listing.text.split(".mark body", 1)[1].split("TTI_SFPSTORE", 1)[0]
    inside = group.split("TTI_SFPPUSHC", 1)[1].split("TTI_SFPPOPC", 1)[0].splitlines()
    ops = [t.split("(")[0] for t in inside if t.startswith("TTI_SFP")]
    assert "TTI_SFPMOV" not in ops and ops.count("TTI_SFPADD") == 1 and ops.count("TTI_SFPMULI") == 1
    add = next(t for t in inside if t.startswith("TTI_SFPADD"))
    y_reg, one, a_reg, dest = re.match(r"TTI_SFPADD\((\d+), (\d+), (\d+), (\d+),", add).groups()
    assert one == "10" and dest == y_reg != a_reg           # y * 1.0 + a into y's register
    f32 = np.float32
    a, b, c, e, f, y, s = (X * f32(k) for k in (2, 3, 5, 7, 9, 11, 13))
    y = np.where(X >= 0, y + a, y)
    s = np.where(X >= 0, s * f32(0.5), s)
    total = a
    for t in (b, c, e, f, y, s):
        total = (total + t).astype(f32)
    assert np.array_equal(run_tile(listing).view(np.uint32), total.view(np.uint32))
