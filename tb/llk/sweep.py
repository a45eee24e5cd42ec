"""tt-llk's exhaustive ULP sweep, run on the model (`sfpu sweep`).

For each budget cell (op, input format, output format, approx, 32-bit Dst) of
an architecture: the inputs the hardware sweep feeds (every finite value of
Float16_b or Float16, a stride of Float32), through the unpacker and the
datacopy into Dst (model/l1_formats.py), the kernel the sweep compiles
(tb/llk/sweep_facts.py) run on the model one tile of 1,024 values at a time in
this process, through the packer to the output format, and the ULP count of
tt-llk's SFPU_ULP.md over the lanes it counts. Facts come from the tree at run
time; the counting rules are written here from SFPU_ULP.md's description.

One kernel run serves every output format that shares its Dst contents, so
an op costs seven Dst sweeps per approx mode, not one per cell.
"""

from __future__ import annotations

import math
import multiprocessing
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from tensix_sfpu.model import l1_formats as lf
from tensix_sfpu.model.dst_format import shuffle_bf16, shuffle_fp16, unshuffle_bf16, unshuffle_fp16
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState

from . import accuracy
from .entries import split_args
from .frontend import LlkError, Request, compile_call
from .sweep_facts import SWEEP_FORMATS, FactsError, KernelCall, SweepFacts, row_key

TILE = 1024
MAX_CYCLES = 2_000_000


class SweepError(Exception):
    """Bad input (an op, format or cell the budget does not have): one line, exit status 2."""


# ---------------------------------------------------------------------------
# References: the op's mathematical value, in float64 (tt-llk's goldens use torch; these are the
# same functions re-expressed in numpy). Where tb.llk.accuracy names one for the op it is used.

def _softplus(x):
    return np.where(x > 20.0, x, np.log1p(np.exp(np.minimum(x, 20.0))))


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805

EXTRA_REFERENCES = {
    "Softplus": _softplus,                       # beta 1, threshold 20 (the dispatch's arguments)
    "Elu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "Celu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "Selu": lambda x: _SELU_SCALE * np.where(x > 0, x, _SELU_ALPHA * np.expm1(x)),
    "Hardtanh": lambda x: np.clip(x, -1.0, 1.0),
    "Clamp": lambda x: np.clip(x, -1.0, 1.0),
    "Log1p": np.log1p,
    "Rdiv": lambda x: 2.0 / x,
}


def _compare(test):
    return lambda x, a: np.where(test(x, a), 1.0, 0.0)


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _erfinv(x):
    """erf's inverse on (-1, 1), +-inf at +-1: Giles' single-precision approximation (2010) as the
    start, then Newton steps on math.erf in float64 until they stop moving."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        w = -np.log((1.0 - x) * (1.0 + x))
        central = w - 2.5
        p = np.polyval([2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                        -0.00125372503, -0.00417768164, 0.246640727, 1.50140941], central)
        tail = np.sqrt(np.maximum(w, 5.0)) - 3.0
        q = np.polyval([-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                        -0.0076224613, 0.00943887047, 1.00167406, 2.83297682], tail)
        y = np.where(w < 5.0, p, q) * x
        inside = np.abs(x) < 1.0
        y = np.where(inside, y, 0.0)
        for _ in range(4):
            y = y - np.where(inside, (_erf(y) - x) / (2.0 / math.sqrt(math.pi) * np.exp(-y * y)), 0.0)
        return np.where(inside, y, np.where(np.abs(x) == 1.0, np.copysign(np.inf, x), np.nan))


def _bessel_i1(x):
    """The modified Bessel function I1 in float64. Below |x| = 20 its power series
    sum (x/2)^(2k+1) / (k! (k+1)!), whose terms are all of one sign; up to 100,
    (1/pi) * integral over [0, pi] of exp(|x| cos t) cos t dt by the trapezoid rule, which
    converges geometrically for a periodic integrand; past that I1 exceeds every FP32 value.
    I1 is odd."""
    x = np.asarray(x, np.float64)
    a = np.abs(x)
    with np.errstate(all="ignore"):
        half = np.where(a < 20.0, a, 0.0) / 2.0
        term, series = half.copy(), half.copy()
        for k in range(1, 60):
            term = term * half * half / (k * (k + 1))
            series = series + term
        out = np.where(a < 20.0, series, np.inf)
        mid = (a >= 20.0) & (a < 100.0)
        if mid.any():
            t = np.linspace(0.0, math.pi, 1025)
            weights = np.full(t.shape, 1.0 / 1024)
            weights[[0, -1]] = 0.5 / 1024
            out[mid] = np.concatenate([(np.exp(np.outer(chunk, np.cos(t))) * np.cos(t)) @ weights
                                       for chunk in np.array_split(a[mid], -(-mid.sum() // 4096))])
        return np.where(np.isnan(x), np.nan, np.copysign(out, x))


def _round_mantissa_10(x):
    """FP32 values rounded to a 10-bit mantissa, to nearest even, exponent unclamped."""
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    r = ((b + 0xFFF + ((b >> 13) & 1)) & ~np.uint64(0x1FFF)).astype(np.uint32)
    return np.where(np.isfinite(x), r.view(np.float32).astype(np.float64), x)


_TABLE1_CUTS = (0.5, 1.0, 1.5, 2.0, 3.0)     # SFPLUTFP32's FP16_6ENTRY_TABLE1 segment bounds on |x|


def _one_minus_lut_squared(x, table):
    """1 - t^2 where t is the 6-segment piecewise-linear table on |x| (slopes, then intercepts):
    what the legacy LUT tanh' computes, and the golden tt-llk's sweep judges it against (its
    golden models the init's table, not tanh)."""
    a = np.abs(x)
    segment = np.searchsorted(np.array(_TABLE1_CUTS), a, side="right")
    t = np.array(table[:6])[segment] * a + np.array(table[6:])[segment]
    return 1.0 - t * t


# References that take the values the dispatch passes to the kernel or its init (`call_arguments`:
# thresholds, slopes, bases), so that a changed argument in the tree changes the reference too.
PARAMETRIC_REFERENCES = {
    "Hardshrink": lambda x, a: np.where(np.abs(x) > a[0], x, 0.0),
    "Softshrink": lambda x, a: np.where(x > a[0], x - a[0], np.where(x < -a[0], x + a[0], 0.0)),
    "Heaviside": lambda x, a: np.where(x > 0, 1.0, np.where(x < 0, 0.0, a[0])),
    "Prelu": lambda x, a: np.where(x >= 0, x, a[0] * x),
    "Lrelu": lambda x, a: np.where(x >= 0, x, a[0] * x),
    "ReluMax": lambda x, a: np.clip(x, 0.0, a[0]),
    "ReluMin": lambda x, a: np.maximum(x, a[0]),
    "Threshold": lambda x, a: np.where(x > a[0], x, a[1]),
    "UnaryGe": _compare(lambda x, a: x >= a[0]),
    "UnaryGt": _compare(lambda x, a: x > a[0]),
    "UnaryLe": _compare(lambda x, a: x <= a[0]),
    "UnaryLt": _compare(lambda x, a: x < a[0]),
    "UnaryEq": _compare(lambda x, a: x == a[0]),
    "UnaryNe": _compare(lambda x, a: x != a[0]),
    "UnaryMax": lambda x, a: np.maximum(x, a[0]),
    "UnaryMin": lambda x, a: np.minimum(x, a[0]),
    "Rpow": lambda x, a: np.power(a[0], x),
    "Fmod": lambda x, a: np.fmod(x, a[0]),
    "Fill": lambda x, a: np.full(x.shape, a[0]),
    # alpha_p, alpha_n from the call; beta 0.5 is the kernel's own (ckernel_sfpu_xielu.h)
    "Xielu": lambda x, a: np.where(x > 0, a[0] * x * x + 0.5 * x, a[1] * (np.expm1(x) - x) + 0.5 * x),
    "Remainder": lambda x, a: np.remainder(x, a[0]),
    "UnaryPower": lambda x, a: np.power(x, a[0]),
    "TanhDerivativeLut": _one_minus_lut_squared,         # its init's table (SweepFacts.lut_table)
    "ExpWithBase": lambda x, a: np.exp(a[0] * x),        # exp(scale * x), the scale in BF16
}

def _bf16_template_scale(call) -> list[float]:
    """The call's last template argument as BF16 bits (ExpWithBase's scale, `0x3F00u`)."""
    last = split_args(call.call[call.call.index("<") + 1:call.call.rindex(">")])[-1]
    return [float(np.array([int(last.rstrip("uU"), 0) << 16], np.uint32).view(np.float32)[0])]


# Ops whose reference takes something other than their call's function arguments.
ARGUMENT_READERS = {
    "TanhDerivativeLut": lambda facts, call: facts.lut_table(call.init),
    "ExpWithBase": lambda facts, call: _bf16_template_scale(call),
}

# References of ops whose definition has no argument.
PLAIN_REFERENCES = {
    "EqualZero": lambda x: np.where(x == 0, 1.0, 0.0),
    "NotEqualZero": lambda x: np.where(x != 0, 1.0, 0.0),
    "LessThanZero": lambda x: np.where(x < 0, 1.0, 0.0),
    "GreaterThanZero": lambda x: np.where(x > 0, 1.0, 0.0),
    "LessThanEqualZero": lambda x: np.where(x <= 0, 1.0, 0.0),
    "GreaterThanEqualZero": lambda x: np.where(x >= 0, 1.0, 0.0),
    "LogicalNot": lambda x: np.where(x == 0, 1.0, 0.0),
    "Isinf": lambda x: np.where(np.isinf(x), 1.0, 0.0),
    "Isposinf": lambda x: np.where(np.isposinf(x), 1.0, 0.0),
    "Isneginf": lambda x: np.where(np.isneginf(x), 1.0, 0.0),
    "Isnan": lambda x: np.where(np.isnan(x), 1.0, 0.0),
    "Isfinite": lambda x: np.where(np.isfinite(x), 1.0, 0.0),
    # hardsigmoid_init's slope is FP32's 1/6
    "Hardsigmoid": lambda x: np.clip(x * float(np.float32(1 / 6)) + 0.5, 0.0, 1.0),
    "Hardmish": lambda x: x * np.clip(0.5 * x + 1.0, 0.0, 1.0),
    "LogWithBase": np.log2,
    "GeluDerivative": lambda x: 0.5 * (1.0 + _erf(x / math.sqrt(2.0))) + x * np.exp(-0.5 * x * x) /
    math.sqrt(2.0 * math.pi),
    "CastFp32ToFp16a": _round_mantissa_10,
    "Erfinv": _erfinv,
    "I1": _bessel_i1,
    "SqrtCustom": np.sqrt,
}


def _gelu_fp32(x):
    """torch's gelu in float32, 0.5 * x * (1 + erf(x / sqrt 2)), which saturates to 0 below about
    -5.54 where erf rounds to -1."""
    x32 = x.astype(np.float32)
    erf = _erf((x32 * np.float32(1 / math.sqrt(2.0))).astype(np.float64)).astype(np.float32)
    return (np.float32(0.5) * x32 * (np.float32(1.0) + erf)).astype(np.float64)


# Where tt-llk's golden for a 16-bit Dst is the framework's own 16-bit op rather than the exact
# function (golden_generators.py says so for these ops), the same here.
DST16_REFERENCES = {"Gelu": _gelu_fp32}


_libm_tanh = np.vectorize(math.tanh, otypes=[np.float64])

# Where tt-llk's golden evaluates through libm (Python's math) and the op cancels, the last bit
# of libm's tanh decides the golden: numpy's tanh(19) is 1.0 where libm's is 1 - 2**-53.
LIBM_REFERENCES = {
    "TanhDerivative": lambda x: 1.0 - _libm_tanh(x) ** 2,
    "Tanhshrink": lambda x: x - _libm_tanh(x),
}


def references() -> dict:
    """op -> reference of x, or of (x, arguments) for PARAMETRIC_REFERENCES."""
    out = dict(LIBM_REFERENCES)
    for op, fn in accuracy.OPS.values():
        out.setdefault(op, fn)
    for table in (EXTRA_REFERENCES, PLAIN_REFERENCES, PARAMETRIC_REFERENCES):
        for op, fn in table.items():
            out.setdefault(op, fn)
    return out


def call_arguments(*exprs: str | None) -> list[float]:
    """The float values among the function arguments of C++ calls: FP32 bit patterns
    (`0x3f000000u`, `5u`) and float literals (`5.0f`); plain integers (counts) are left out."""
    values = []
    for expr in exprs:
        if not expr or "(" not in expr:
            continue
        for arg in split_args(expr[expr.rindex("(", 0, expr.rindex(")")) + 1:expr.rindex(")")]):
            if re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uU]", arg) or re.fullmatch(r"0[xX][0-9a-fA-F]+", arg):
                bits = int(arg.rstrip("uU"), 0)
                values.append(float(np.array([bits], np.uint32).view(np.float32)[0]))
            elif re.fullmatch(r"-?\d+\.\d*f?", arg):
                values.append(float(arg.rstrip("f")))
    return values


# ---------------------------------------------------------------------------
# Inputs

def sweep_inputs(fmt: str, stride: int, phase_step: float) -> np.ndarray:
    """The L1 bits the hardware sweep feeds, in value order. Float16_b and
    Float16: every finite value once (zero as -0.0, the walk's first). Float32:
    the total order from -inf to +inf in runs of `stride`, one sample per run at
    (i * odd(stride * phase_step)) mod stride along it (at least 1)."""
    if fmt in (lf.FLOAT16_B, lf.FLOAT16):
        bits = np.arange(1 << 16, dtype=np.uint32)
        exp_mask = 0x7F80 if fmt == lf.FLOAT16_B else 0x7C00
        bits = bits[((bits & exp_mask) != exp_mask) & (bits != 0)]
        order = np.argsort(lf.values(fmt, bits), kind="stable")
        return bits[order]
    lo, hi = _key(0xFF800000), _key(0x7F800000)
    count = min(1 << 16, (hi - lo) // stride + 1)
    index = np.arange(count, dtype=np.int64)
    step = int(stride * phase_step) | 1
    keys = lo + index * stride + np.maximum((index * step) % stride, 1)
    keys = keys[keys <= hi]
    bits = np.where(keys < 0, -(1 << 31) - keys, keys).astype(np.int64).astype(np.uint32)
    return bits[np.isfinite(bits.view(np.float32))]


def _key(bits: int) -> int:
    signed = bits - (1 << 32) if bits >= 1 << 31 else bits
    return signed if signed >= 0 else -(1 << 31) - signed


# ---------------------------------------------------------------------------
# ULP counting (SFPU_ULP.md): representable steps of the output format between
# golden and result, subnormals ranked as zero.

_FORMAT_BITS = {lf.FLOAT32: (32, 23), lf.FLOAT16_B: (16, 7), lf.FLOAT16: (16, 10)}


def to_format_bits(fmt: str, x: np.ndarray) -> np.ndarray:
    """float64 values to the output format's bits, rounding to nearest even (as the golden's cast)."""
    with np.errstate(all="ignore"):
        if fmt == lf.FLOAT16:
            return x.astype(np.float16).view(np.uint16).astype(np.uint32)
        f = x.astype(np.float32).view(np.uint32)
        if fmt == lf.FLOAT32:
            return f
        nan = np.isnan(x)
        rounded = ((f.astype(np.uint64) + 0x7FFF + ((f >> 16) & 1)) >> 16).astype(np.uint32)
        return np.where(nan, (f >> 16) | 0x40, rounded).astype(np.uint32)


def rank(fmt: str, bits: np.ndarray) -> np.ndarray:
    width, man = _FORMAT_BITS[fmt]
    b = bits.astype(np.int64)
    sign = b >> (width - 1)
    magnitude = np.maximum((b & ((1 << (width - 1)) - 1)) - ((1 << man) - 1), 0)
    return np.where(sign != 0, -magnitude, magnitude)


def ulp_steps(fmt: str, golden_bits: np.ndarray, result_bits: np.ndarray) -> np.ndarray:
    return np.abs(rank(fmt, golden_bits) - rank(fmt, result_bits))


# ---------------------------------------------------------------------------
# The lanes a cell ranks (SFPU_ULP.md, "Lanes the sweep does not count")

_SMALLEST_NORMAL = {lf.FLOAT32: 2.0 ** -126, lf.FLOAT16_B: 2.0 ** -126, lf.FLOAT16: 2.0 ** -14}
_LARGEST = {lf.FLOAT32: float(np.finfo(np.float32).max), lf.FLOAT16_B: float(np.finfo(np.float32).max),
            lf.FLOAT16: 65504.0}


def ranked_mask(facts: SweepFacts, op: str, p: lf.CellPlan, x: np.ndarray, received: np.ndarray,
                golden: np.ndarray, result: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lanes ranked, lanes where golden and result disagree about being finite)."""
    unpack_fmt = p.src or lf.FLOAT32
    with np.errstate(all="ignore"):
        nan = np.isnan(golden) | np.isnan(result)
        nonfinite = ~nan & (np.isfinite(golden) != np.isfinite(result))
        # An input must be zero or a normal of both the fed format and the one the unpacker
        # writes (and within the latter's range), as generated and as received.
        cutoff = max(_SMALLEST_NORMAL[p.in_fmt], _SMALLEST_NORMAL[unpack_fmt])
        undelivered = np.zeros(x.shape, bool)
        for value in (np.abs(x), np.abs(received)):
            undelivered |= ((value != 0) & (value < cutoff)) | (value > _LARGEST[unpack_fmt])
        lost = _dest_lost(p, golden, result)
        claimed = np.ones(x.shape, bool)
        for point, side in facts.singularities.get(op, []):
            claimed &= {"ABOVE": received >= point, "BELOW": received <= point}.get(side, received != point)
        if op in facts.nonpositive_poles:
            claimed &= ~((received <= 0) & (received == np.floor(received)))
        limit = facts.claim_limits.get(op)
        if limit is not None and unpack_fmt in (lf.FLOAT16_B, lf.FLOAT32):
            claimed &= np.abs(received) <= limit
    return ~nan & ~nonfinite & ~undelivered & ~lost & claimed, nonfinite & claimed & ~undelivered


def _dest_lost(p: lf.CellPlan, golden: np.ndarray, result: np.ndarray) -> np.ndarray:
    """A 16-bit FP16 Dst under a wider output: the golden past 65504 answered by NaN or by its
    sign in the Dst's top binade, or a flush across 2**-14 (one side zero, the other at most 2**-14)."""
    lost = np.zeros(golden.shape, bool)
    if p.dst != lf.DST_FP16 or p.out_fmt == lf.FLOAT16:
        return lost
    same_sign = np.signbit(golden) == np.signbit(result)
    lost |= (np.abs(golden) > 65504) & (np.isnan(result) | (same_sign & (np.abs(result) >= 2.0 ** 15)))
    lost |= ((golden == 0) & (result != 0) & (np.abs(result) <= 2.0 ** -14)) | \
        ((result == 0) & (golden != 0) & (np.abs(golden) <= 2.0 ** -14))
    return lost


def near_zero_lanes(golden: np.ndarray, result: np.ndarray, mask: np.ndarray, atol: float) -> np.ndarray:
    """The lanes a `near_zero_atol` floor covers (SFPU_ULP.md: judged on absolute error instead of
    steps): in the band (|golden| under 1% of the cell's largest finite golden, and at most atol/0.01)
    and within atol of the golden; a band lane further off is ranked on its steps like any other.
    The cuts and the error are taken in float32, as the sweep's torch tensors hold them."""
    magnitude = np.abs(golden).astype(np.float32)
    finite = magnitude[mask & np.isfinite(golden)]
    top = float(finite.max()) if finite.size else 0.0
    with np.errstate(all="ignore"):
        band = (magnitude < np.float32(0.01 * top)) & (magnitude <= np.float32(atol / 0.01)) if top else mask
        error = np.abs(result.astype(np.float32) - golden.astype(np.float32))
        return mask & band & (error <= np.float32(atol))


# ---------------------------------------------------------------------------
# Cells

@dataclass(frozen=True)
class Cell:
    op: str
    in_fmt: str
    out_fmt: str
    approx: bool
    dest: bool
    arch: str

    def key(self) -> tuple:
        return (self.op, self.in_fmt, self.out_fmt, self.approx, self.dest, self.arch)


def sweep_cells(facts: SweepFacts, op: str, arch: str, in_fmt=None, out_fmt=None, approx=None,
                dest=None, gated_only: bool = True) -> list[Cell]:
    """The op's cells the sweep drives on `arch` (16-bit-exponent-B inputs packed to Float16 only at
    32-bit Dst, as tt-llk's harness promotes them), narrowed by the given keys, and, with
    `gated_only`, those whose row has a step budget (the row for `arch`: the budget file's rows are
    Wormhole's measurements and serve both, unless a row is keyed with `arch`)."""
    out = []
    for i in SWEEP_FORMATS:
        for o in SWEEP_FORMATS:
            for a in (False, True):
                for d in (False, True):
                    if o == lf.FLOAT16 and i == lf.FLOAT16_B and not d:
                        continue
                    if (in_fmt, out_fmt, approx, dest) != (None, None, None, None) and not all(
                            want is None or want == have for want, have in
                            ((in_fmt, i), (out_fmt, o), (approx, a), (dest, d))):
                        continue
                    row = facts.row(op, i, o, a, d, arch)
                    if gated_only and (row is None or row.max_ulp is None):
                        continue
                    out.append(Cell(op, i, o, a, d, arch))
    return out


@dataclass
class Sweeper:
    facts: SweepFacts
    trees: dict                                   # arch -> SourceTree
    stride: int = 1 << 16
    phase_step: float = (math.sqrt(5) - 1) / 2
    tiles: int | None = None                      # at most this many tiles per Dst sweep (tests)
    jobs: int = 1                                 # worker processes sharing a Dst sweep's tiles
    refs: dict | None = None                      # op -> reference (default: `references()`)
    _listings: dict = field(default_factory=dict)
    _dst_runs: dict = field(default_factory=dict)
    _inputs: dict = field(default_factory=dict)
    seconds: float = 0.0

    def inputs(self, fmt: str) -> np.ndarray:
        if fmt not in self._inputs:
            x = sweep_inputs(fmt, self.stride, self.phase_step)
            self._inputs[fmt] = x[: self.tiles * TILE] if self.tiles else x
        return self._inputs[fmt]

    def listing(self, call: KernelCall, p: lf.CellPlan):
        key = (call.call, call.init, call.vector_mode, p.arch, p.dest32, p.dst)
        if key not in self._listings:
            request = Request(call.header, call.call, call.init, arch=p.arch, fp32_dest=1 if p.dest32 else 0,
                              srcb_format=None if p.dest32 else p.srcb_format, vector_mode=call.vector_mode,
                              tree=self.trees[p.arch], preincludes=call.preincludes)
            try:
                self._listings[key] = compile_call(request, f"{call.header.name}.s")
            except LlkError as e:
                self._listings[key] = e
        found = self._listings[key]
        if isinstance(found, LlkError):
            raise found
        return found

    def run_dst(self, cell: Cell, call: KernelCall, p: lf.CellPlan, dst_in: np.ndarray) -> np.ndarray:
        """The kernel over the Dst values (as `lf.unpack` gives them), a tile at a time, the tiles
        shared out among `jobs` worker processes (each tile starts from a fresh state, so the
        share changes no result)."""
        listing = self.listing(call, p)
        key = (id(listing), p.dst, p.src, p.in_fmt)
        if key in self._dst_runs:
            return self._dst_runs[key]
        start = time.time()
        padded = np.zeros(-(-len(dst_in) // TILE) * TILE, np.uint32)
        padded[:len(dst_in)] = dst_in
        shares = np.array_split(padded.reshape(-1, TILE), min(self.jobs, len(padded) // TILE))
        if len(shares) == 1:
            out = _run_tiles(listing.program, p.dst, shares[0])
        else:
            context = multiprocessing.get_context("fork")    # the workers inherit the loaded model
            with ProcessPoolExecutor(len(shares), mp_context=context) as pool:
                out = np.concatenate(list(pool.map(_run_tiles, [listing.program] * len(shares),
                                                   [p.dst] * len(shares), shares)))
        self.seconds += time.time() - start
        self._dst_runs[key] = out.reshape(-1)[:len(dst_in)]
        return self._dst_runs[key]

    def measure(self, cell: Cell, detail: bool = False) -> dict:
        """One cell's row: our max ULP beside the hardware's and the budget (with `detail`,
        also the per-lane arrays under "detail": inputs, steps, ranked mask)."""
        facts = self.facts
        row = facts.row(cell.op, cell.in_fmt, cell.out_fmt, cell.approx, cell.dest, cell.arch)
        record = {"op": cell.op, "in": cell.in_fmt, "out": cell.out_fmt, "approx": "Yes" if cell.approx else "No",
                  "dest": "Yes" if cell.dest else "No", "arch": cell.arch, "max_ulp": None,
                  "hw_max_ulp": row.hw_max_ulp if row else None, "budget": row.max_ulp if row else None,
                  "worst_input": None, "lanes": 0}
        reference = (self.refs if self.refs is not None else references()).get(cell.op)
        if reference is None:
            record["reason"] = "no numpy reference for this op in tb/llk/accuracy.py or tb/llk/sweep.py"
            return record
        p = lf.plan(cell.in_fmt, cell.out_fmt, cell.dest, cell.arch)
        try:
            call = facts.kernel(cell.op, cell.approx, cell.dest, cell.arch, p.src or lf.FLOAT32)
            record["call"] = call.call
            record["init"] = call.init
            l1 = self.inputs(cell.in_fmt)
            dst_in = lf.unpack(p, l1)
            if cell.op in PARAMETRIC_REFERENCES and reference is PARAMETRIC_REFERENCES[cell.op]:
                reader = ARGUMENT_READERS.get(cell.op)
                arguments = reader(facts, call) if reader else call_arguments(call.call, call.init)
                reference = (lambda fn, a: (lambda v: fn(v, a)))(reference, arguments)
                record["arguments"] = arguments
            dst_out = self.run_dst(cell, call, p, dst_in)
        except (FactsError, LlkError) as e:
            record["reason"] = str(e)
            return record
        except Exception as e:      # the model's own stop on these inputs is the finding
            record["reason"] = f"run stopped: {type(e).__name__}: {e}"
            return record
        x = lf.values(cell.in_fmt, l1)
        received = _dst_values(p, dst_in)
        if not p.dest32 and cell.op in DST16_REFERENCES:
            reference = DST16_REFERENCES[cell.op]
            record["golden_note"] = "the golden at 16-bit Dst is the op in float32, as tt-llk's"
        golden_bits = golden_output(reference, x, l1, p)
        out_bits = lf.pack(p, dst_out)
        golden = lf.values(cell.out_fmt, golden_bits)
        result = lf.values(cell.out_fmt, out_bits)
        mask, nonfinite = ranked_mask(facts, cell.op, p, x, received, golden, result)
        steps = ulp_steps(cell.out_fmt, golden_bits, out_bits)
        floor = row.keys.get("near_zero_atol") if row else None
        if floor is not None:
            # Both figures of the row's comment: outside the floor, and over every lane.
            record["near_zero_atol"] = float(floor)
            record["max_ulp_every_lane"] = int(steps[mask].max()) if mask.any() else None
            record["hw_max_ulp_every_lane"] = facts.all_lanes.get(row_key(cell.op, row.keys))
            mask = mask & ~near_zero_lanes(golden, result, mask, float(floor))
        record["lanes"] = int(mask.sum())
        record["nonfinite"] = int(nonfinite.sum())
        if detail:
            record["detail"] = {"x": x, "steps": steps, "mask": mask, "result": result, "golden": golden}
        if mask.any():
            worst = int(np.argmax(np.where(mask, steps, -1)))
            record["max_ulp"] = int(steps[worst])
            width = 8 if cell.in_fmt == lf.FLOAT32 else 4
            record["worst_input"] = f"{x[worst]:.9g} (0x{int(l1[worst]):0{width}X})"
            record["worst_result"] = f"{result[worst]:.9g}"
            record["worst_golden"] = f"{golden[worst]:.9g}"
        return record


def _run_tiles(program, dst: str, tiles: np.ndarray) -> np.ndarray:
    """Each row of `tiles` (one tile's Dst values) through `program` from a fresh state."""
    from tensix_sfpu.model.dst_io import get_tile_bits16, get_tile_bits32, put_tile_bits16, put_tile_bits32
    out = np.empty_like(tiles)
    for n, values in enumerate(tiles):
        state = SfpuState(arch=program.arch)
        if dst == lf.DST_FP32:
            put_tile_bits32(state, values)
        else:
            put_tile_bits16(state, (shuffle_bf16 if dst == lf.DST_BF16 else shuffle_fp16)(values))
        result = run_program(program, state, strict=False, keep_trace=False, max_cycles=MAX_CYCLES)
        if dst == lf.DST_FP32:
            out[n] = get_tile_bits32(result.state)
        else:
            raw = get_tile_bits16(result.state).astype(np.uint32)
            out[n] = (unshuffle_bf16 if dst == lf.DST_BF16 else unshuffle_fp16)(raw)
    return out


def golden_dst_format(p: lf.CellPlan) -> str:
    """The format tt-llk's golden rounds to as the Dst write: Float32 at 32-bit Dst, else Float16
    when the input or the output is Float16, else Float16_b."""
    if p.dest32:
        return lf.FLOAT32
    return lf.FLOAT16 if lf.FLOAT16 in (p.in_fmt, p.out_fmt) else lf.FLOAT16_B


def golden_output(reference, x: np.ndarray, l1: np.ndarray, p: lf.CellPlan) -> np.ndarray:
    """The golden's output bits, as tt-llk's unary golden builds them (SFPU_ULP.md and the budget's
    comments say what it is): -0 made +0 unless the input unpacks straight into Dst; a Float32
    input at 16-bit Dst with its mantissa cut to the Dst's width; the input cast to the Dst format;
    the op in float64; the result flushed below FP16's smallest normal on an FP16 Dst, rounded to
    the Dst format (the Dst write), then to the output format (each cast to nearest even)."""
    dst_fmt = golden_dst_format(p)
    if p.src is not None:
        x = np.where(x == 0, 0.0, x)
    if not p.dest32 and p.in_fmt == lf.FLOAT32:
        keep = 0xFFFF0000 if dst_fmt == lf.FLOAT16_B else 0xFFFFE000
        x = (l1 & np.uint32(keep)).view(np.float32).astype(np.float64)
    with np.errstate(all="ignore"):
        x = lf.values(dst_fmt, to_format_bits(dst_fmt, x))
        y = reference(x).astype(np.float32).astype(np.float64)
        if dst_fmt == lf.FLOAT16:
            y = np.where(np.abs(y) < 2.0 ** -14, 0.0, y)
        y = lf.values(dst_fmt, to_format_bits(dst_fmt, y))
        return to_format_bits(p.out_fmt, y)


def _dst_values(p: lf.CellPlan, dst: np.ndarray) -> np.ndarray:
    if p.dst == lf.DST_FP32:
        return lf.values(lf.FLOAT32, dst)
    if p.dst == lf.DST_BF16:
        return lf.values(lf.FLOAT16_B, dst)
    return lf.fp16_to_fp32(dst).view(np.float32).astype(np.float64)


def read_stride(facts: SweepFacts) -> tuple[int, float]:
    """The Float32 walk's stride and in-run phase step, from the tree's helpers."""
    helpers = facts.tests / "python_tests" / "helpers"
    sweep = (helpers / "ulp_sweep.py").read_text(errors="replace")
    structured = helpers / "stimuli_generator" / "strategies" / "structured.py"
    m = re.search(r"^_FP32_STRIDE\s*=\s*([\d*+\- ]+)$", sweep, re.M)
    n = re.search(r"^_CELL_PHASE_STEP\s*=\s*(.+)$", structured.read_text(errors="replace"), re.M) \
        if structured.is_file() else None
    if m is None or n is None:
        raise FactsError(f"{helpers}: no _FP32_STRIDE in ulp_sweep.py or _CELL_PHASE_STEP in "
                         "stimuli_generator/strategies/structured.py (the Float32 walk)")
    safe = {"__builtins__": {}, "math": math}
    return int(eval(m.group(1), safe)), float(eval(n.group(1), safe))     # noqa: S307 (constant expressions)
