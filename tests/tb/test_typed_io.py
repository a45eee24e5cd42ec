"""Typed Dst input and output: `sfpu run --input X.npy --format F --output Y.npy`.

Values are checked where the SFPU sees them: the LReg an SFPLOAD of the
format's Mod0 fills (from the run's JSON), and a row group copied by
SFPLOAD/SFPSTORE to the next address. The fast-exp kernel is checked against
numpy's exp within its stated tolerance (docs/kernels.md: relative 0.05 plus
FP32's smallest normal, absolute).
"""

import json
from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.tb.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
MOD0 = {"fp32": 3, "int32": 4, "uint32": 4, "fp16b": 2, "fp16": 1, "uint16": 6}


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_fast_exp_on_my_own_array_in_one_command(tmp_path, capsys):
    rng = np.random.default_rng(18)
    x = rng.uniform(-87.0, 88.0, (32, 32)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    code, out, err = run(["run", ROOT / "kernels" / "exp_fast.s", "--input", tmp_path / "x.npy",
                          "--output", tmp_path / "y.npy"], capsys)
    assert code == 0, err
    y = np.load(tmp_path / "y.npy")
    assert y.dtype == np.float32 and y.shape == x.shape
    ref = np.exp(x.astype(np.float64))
    assert np.all(np.abs(y - ref) <= 0.05 * ref + np.finfo(np.float32).tiny)
    # One FP32 tile is 64 Dst32b rows, each held in two 16-bit rows: 128 rows written.
    assert "Dst: 128 rows written (0-127)" in out


def copy_program(fmt: str) -> str:
    """Load the first row group (address 0) in `fmt` and store it at the second (address 2)."""
    fp32 = ".fp32_dest 1\n" if MOD0[fmt] in (3, 4) else ""
    return f"{fp32}sfpload vd=0 mod0={MOD0[fmt]} imm10=0\nsfpstore vd=0 mod0={MOD0[fmt]} imm10=2\n"


VALUES = {
    "fp32": np.array([1.5, -0.0, np.inf, -2.0 ** -126, 3.0e38, 7.0] * 10 + [0.1, -1e-3, 5.0, 6.0], np.float32),
    "int32": np.arange(-32, 32, dtype=np.int32) * 65599,
    "uint32": np.arange(64, dtype=np.uint32) * 0x01010101,
    "fp16b": np.array([1.0, -3.5, 0.15625, 2.0 ** 100] * 16, np.float32),
    "fp16": np.array([1.0, -3.5, 0.15625, 65504.0] * 16, np.float16),
    "uint16": np.arange(64, dtype=np.uint16) * 1021,
}


@pytest.mark.parametrize("fmt", list(VALUES))
def test_sfpload_sees_the_values_and_sfpstore_writes_them_back(fmt, tmp_path, capsys):
    values = VALUES[fmt].reshape(2, 32)
    np.save(tmp_path / "in.npy", values)
    (tmp_path / "copy.s").write_text(copy_program(fmt))
    code, out, err = run(["run", tmp_path / "copy.s", "--input", tmp_path / "in.npy", "--format", fmt,
                          "--json", tmp_path / "state.json", "--output", tmp_path / "out.npy"], capsys)
    assert code == 0, err
    lreg0 = np.array(json.loads((tmp_path / "state.json").read_text())["lregs"][0], dtype=np.uint32)
    if fmt in ("fp32", "int32", "uint32"):
        assert np.array_equal(lreg0, values[0].view(np.uint32))            # the 32 bits as given
    elif fmt == "fp16b":
        assert np.array_equal(lreg0.view(np.float32), values[0])           # bfloat16 values, exact in FP32
    elif fmt == "uint16":
        assert np.array_equal(lreg0, values[0].astype(np.uint32))          # zero-extended
    out_values = np.load(tmp_path / "out.npy")
    assert out_values.dtype == values.dtype and out_values.shape == values.shape
    assert np.array_equal(out_values[1].view(np.uint8), values[0].view(np.uint8))   # the copy, bit for bit
    assert np.array_equal(out_values[0].view(np.uint8), values[0].view(np.uint8))


def test_fp16b_input_is_rounded_to_nearest_even(tmp_path, capsys):
    # 1 + 2^-8 lies halfway between bfloat16's 1 and 1 + 2^-7: the even one, 1, wins;
    # 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: 1 + 2^-6 has the even mantissa.
    x = np.array([1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8] * 16, np.float32)
    np.save(tmp_path / "in.npy", x)
    (tmp_path / "copy.s").write_text(copy_program("fp16b"))
    code, _, err = run(["run", tmp_path / "copy.s", "--input", tmp_path / "in.npy", "--format", "fp16b",
                        "--output", tmp_path / "out.npy"], capsys)
    assert code == 0, err
    assert np.load(tmp_path / "out.npy")[:2].tolist() == [1.0, 1 + 2.0 ** -6]


def test_output_without_input_is_one_tile(tmp_path, capsys):
    code, out, err = run(["run", ROOT / "kernels" / "exp_fast.s", "--output", tmp_path / "y.npy"], capsys)
    assert code == 0, err
    y = np.load(tmp_path / "y.npy")
    assert y.shape == (32, 32) and np.all(np.abs(y - 1.0) <= 0.05)   # exp(0) over an all-zero Dst, within tolerance


@pytest.mark.parametrize("array, fmt, message", [
    (np.zeros(31, np.float32), "fp32", "a positive multiple of 32"),
    (np.zeros(0, np.float32), "fp32", "a positive multiple of 32"),
    (np.zeros(8 * 1024 + 32, np.float32), "fp32", "Dst holds 8192"),
    (np.zeros(16 * 1024 + 32, np.uint16), "uint16", "Dst holds 16384"),
    (np.full(32, 1.5), "int32", "is not a int32"),
    (np.full(32, -1), "uint16", "is not a uint16"),
    (np.full(32, 70000.0), "fp16", "is not a float16"),
    (np.array(["a"] * 32), "fp32", "is not numbers"),
    (np.zeros(32, bool), "int32", "is not numbers"),
])
def test_bad_inputs_are_refused(array, fmt, message, tmp_path, capsys):
    np.save(tmp_path / "in.npy", array)
    code, _, err = run(["run", ROOT / "kernels" / "exp_fast.s", "--input", tmp_path / "in.npy",
                        "--format", fmt], capsys)
    assert code == 2 and message in err, err


def test_sixteen_fp16b_tiles_fill_dst(tmp_path, capsys):
    values = np.arange(16 * 1024, dtype=np.float32).reshape(16, 32, 32) % 256
    np.save(tmp_path / "in.npy", values)
    (tmp_path / "nop.s").write_text("sfpnop\n")
    code, _, err = run(["run", tmp_path / "nop.s", "--input", tmp_path / "in.npy", "--format", "fp16b",
                        "--output", tmp_path / "out.npy"], capsys)
    assert code == 0, err
    assert np.array_equal(np.load(tmp_path / "out.npy"), values)


@pytest.mark.parametrize("fmt", ["int32", "uint16"])
def test_nan_for_an_integer_format_is_refused(fmt, tmp_path, capsys):
    np.save(tmp_path / "in.npy", np.full(32, np.nan))
    code, _, err = run(["run", ROOT / "kernels" / "exp_fast.s", "--input", tmp_path / "in.npy", "--format", fmt],
                       capsys)
    assert code == 2 and "value nan (index 0" in err, err
