"""Checking a kernel against tt-llk's own accuracy contract, read at run time
from the tree's test helpers (`tests/python_tests/helpers/`):

- `sfpu_accuracy_budget.yaml`: per op and variant (input and output format,
  approximation mode, 32-bit Dst) the allowed max ULP; each row's comment
  gives the maximum measured on Wormhole hardware ("max N ULP");
- `sfpu_domains.py`: each op's input domain (`for_op`), imported from the
  tree. Its package imports torch and ml_dtypes at load time; ml_dtypes is the
  corpus target's extra, and torch, which `for_op` never calls, is replaced by
  an empty module when it is not installed;
- `golden_generators.py`: each op's reference, re-expressed here in numpy for
  the ops below (the tree's versions use torch).

Only FP32 in, FP32 out, 32-bit Dst rows are used: the model runs a tile of
FP32 in Dst. ULPs count representable FP32 steps between result and
reference with denormals flushed (as Dst does), the helpers' definition.
"""

from __future__ import annotations

import math
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# The architecture whose hardware the budget's comments ("max N ULP") were measured on;
# the model's figures for the others are predictions set beside that budget.
MEASURED_ON = "wormhole"

_ROW = re.compile(r"^\s*-\s*(\{.*\})\s*(?:#\s*(?P<comment>.*))?$")
_OP = re.compile(r"^(\w+):")
_HW = re.compile(r"max (\d+) ULP")


def _floor(x):
    return np.where(np.isfinite(x), np.floor(x), x)


def _ceil(x):
    return np.where(np.isfinite(x), np.ceil(x), x)


def _trunc(x):
    return np.where(np.isfinite(x), np.trunc(x), x)


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _erfc(x):
    return np.vectorize(math.erfc, otypes=[np.float64])(x)


def _lgamma(x):
    return np.vectorize(lambda v: math.lgamma(v) if v > 0 or v != math.floor(v) else math.inf,
                        otypes=[np.float64])(x)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _softplus(x):
    return np.logaddexp(0.0, x)


# entry point -> (the budget's op name, the reference on float64 inputs)
OPS = {
    # SFPI kernels (tt-metal's llk_sfpu and tt-llk's sfpu folders)
    "calculate_log": ("Log", np.log),
    "_calculate_log_": ("Log", np.log),
    "calculate_reciprocal": ("Reciprocal", lambda x: 1.0 / x),
    "calculate_sqrt": ("Sqrt", np.sqrt),
    "calculate_rsqrt": ("Rsqrt", lambda x: 1.0 / np.sqrt(x)),
    "calculate_sigmoid": ("Sigmoid", _sigmoid),
    "calculate_sigmoid_appx": ("SigmoidAppx", _sigmoid),
    "calculate_tanh": ("Tanh", np.tanh),
    "calculate_gelu": ("Gelu", lambda x: 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))),
    "calculate_gelu_tanh": ("GeluTanh", lambda x: 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) *
                                                                         (x + 0.044715 * x ** 3)))),
    "calculate_silu": ("Silu", lambda x: x * _sigmoid(x)),
    "calculate_square": ("Square", np.square),
    "calculate_sign": ("Sign", np.sign),
    "calculate_sine": ("Sin", np.sin),
    "calculate_cosine": ("Cos", np.cos),
    "calculate_tangent": ("Tan", np.tan),
    "calculate_atan": ("Atan", np.arctan),
    "calculate_asin": ("Asin", np.arcsin),
    "calculate_acos": ("Acos", np.arccos),
    "calculate_sinh": ("Sinh", np.sinh),
    "calculate_cosh": ("Cosh", np.cosh),
    "calculate_asinh": ("Asinh", np.arcsinh),
    "calculate_acosh": ("Acosh", np.arccosh),
    "calculate_atanh": ("Atanh", np.arctanh),
    "calculate_erf": ("Erf", _erf),
    "calculate_erfc": ("Erfc", _erfc),
    "calculate_exp2": ("Exp2", np.exp2),
    "calculate_expm1": ("Expm1", np.expm1),
    "calculate_log1p": ("Log1p", np.log1p),
    "calculate_cube_root": ("Cbrt", np.cbrt),
    "calculate_softsign": ("Softsign", lambda x: x / (1.0 + np.abs(x))),
    "calculate_mish": ("Mish", lambda x: x * np.tanh(_softplus(x))),
    "calculate_tanhshrink": ("Tanhshrink", lambda x: x - np.tanh(x)),
    "calculate_tanh_derivative": ("TanhDerivative", lambda x: 1.0 - np.tanh(x) ** 2),
    "calculate_add1": ("Add1", lambda x: x + 1.0),
    "calculate_identity": ("Identity", lambda x: x),
    "_calculate_negative_": ("Neg", np.negative),
    "calculate_lgamma_stirling_fp32": ("Lgamma", _lgamma),
    "calculate_i0": ("I0", np.i0),
    # TTI_ kernels
    "calculate_exponential": ("Exp", np.exp),
    "_calculate_floor_": ("Floor", _floor),
    "_calculate_ceil_": ("Ceil", _ceil),
    "_calculate_trunc_": ("Trunc", _trunc),
    "_calculate_frac_": ("Frac", lambda x: np.where(np.isfinite(x), x - np.trunc(x), x)),
    "_calculate_round_": ("Round", lambda x: np.where(np.isfinite(x), np.round(x), x)),
    "calculate_abs": ("Abs", np.abs),
    "calculate_signbit": ("Signbit", lambda x: np.signbit(x).astype(np.float64)),
}


@dataclass
class BudgetRow:
    op: str
    keys: dict
    max_ulp: int | None
    hw_max_ulp: int | None


@dataclass
class Helpers:
    rows: list[BudgetRow]
    for_op: object          # sfpu_domains.for_op
    operation: object       # llk_params.MathOperation
    data_format: object     # format_config.DataFormat
    note: str


class HelpersError(Exception):
    pass


def _flow_mapping(text: str) -> dict:
    """A one-line YAML flow mapping of plain scalars, `{in: Float32, approx: "No", max_ulp: 2}`."""
    out = {}
    for part in text.strip()[1:-1].split(","):
        key, _, value = part.partition(":")
        value = value.strip().strip('"').strip("'")
        out[key.strip()] = int(value) if re.fullmatch(r"-?\d+", value) else value
    return out


def read_budget(path: Path) -> list[BudgetRow]:
    rows, op = [], None
    for line in path.read_text().splitlines():
        m = _OP.match(line)
        if m:
            op = m.group(1)
            continue
        m = _ROW.match(line)
        if m and op:
            keys = _flow_mapping(m.group(1))
            hw = _HW.search(m.group("comment") or "")
            rows.append(BudgetRow(op, keys, keys.get("max_ulp"), int(hw.group(1)) if hw else None))
    return rows


def load_helpers(folder: Path) -> Helpers:
    """The budget rows and the domain function of the tree's test helpers."""
    budget = folder / "sfpu_accuracy_budget.yaml"
    if not budget.is_file():
        raise HelpersError(f"{folder}: no sfpu_accuracy_budget.yaml")
    note = ""
    if "helpers" not in sys.modules:
        package = types.ModuleType("helpers")      # skips the package's __init__ (a hardware test harness)
        package.__path__ = [str(folder)]
        sys.modules["helpers"] = package
    try:
        import torch  # noqa: F401
    except ImportError:
        sys.modules["torch"] = _Absent("torch")
        note = "torch not installed: an empty module stands in for it (sfpu_domains.for_op does not call it)"
    try:
        from helpers.format_config import DataFormat
        from helpers.llk_params import MathOperation
        from helpers.sfpu_domains import for_op
    except Exception as e:     # whatever the tree's helpers need that is missing here
        raise HelpersError(f"cannot import {folder}/sfpu_domains.py: {type(e).__name__}: {e}") from None
    return Helpers(read_budget(budget), for_op, MathOperation, DataFormat, note)


class _Anything:
    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        return _Anything()

    def __call__(self, *args, **kwargs):
        return _Anything()


class _Absent(types.ModuleType):
    def __getattr__(self, name):
        return _Anything()


def budget_row(helpers: Helpers, op: str, approx: bool | None) -> BudgetRow | None:
    """The most specific row for FP32 in and out, 32-bit Dst, of the measured architecture."""
    return most_specific_row(helpers.rows, op, {"in": "Float32", "out": "Float32", "dest": "Yes",
                                                "arch": MEASURED_ON,
                                                "approx": None if approx is None else ("Yes" if approx else "No")})


def most_specific_row(rows: list[BudgetRow], op: str, wanted: dict[str, str | None]) -> BudgetRow | None:
    """The row of `op` that matches the most of `wanted`'s keys and contradicts
    none (a key a row omits matches anything; a wanted value of None matches
    only rows without that key). YAML's yes/no booleans read as Yes/No."""
    best, best_score = None, -1
    for row in rows:
        if row.op != op:
            continue
        score = 0
        for key, value in row.keys.items():
            if key not in wanted:
                continue
            want = wanted[key]
            have = {True: "Yes", False: "No"}.get(value, value)
            if want is None or str(have).lower() != str(want).lower():
                break
            score += 1
        else:
            if score > best_score:
                best, best_score = row, score
    return best


def domain(helpers: Helpers, op: str, approx: bool | None) -> tuple[float, float]:
    spec = helpers.for_op(getattr(helpers.operation, op), helpers.data_format.Float32, approx_mode=approx).spec_A
    return float(spec.low), float(spec.high)


def inputs(low: float, high: float, n: int = 1024) -> np.ndarray:
    rng = np.random.default_rng(0xACC)
    x = rng.uniform(low, high, n).astype(np.float32)
    x[:2] = (np.float32(low), np.float32(high))
    return x


def ulp_distance(golden: np.ndarray, result: np.ndarray) -> np.ndarray:
    """Representable FP32 steps between the two, denormals flushed; NaN anywhere gives -1."""
    def rank(v):
        bits = np.asarray(v, np.float32).view(np.uint32).astype(np.int64)
        magnitude = np.maximum((bits & 0x7FFFFFFF) - ((1 << 23) - 1), 0)
        return np.where(bits >> 31, -magnitude, magnitude)
    d = np.abs(rank(golden) - rank(result))
    return np.where(np.isnan(golden) | np.isnan(result), -1, d)


def reference(entry: str, x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return OPS[entry][1](x.astype(np.float64)).astype(np.float32)
