"""reciprocal, sigmoid, gelu: tt-llk's Wormhole SFPI kernels on a whole FP32 tile.

Each tolerance comes from the algorithm, not from the model's output: for the
reciprocal, the error of the quadratic first guess after two Newton steps; for
the two table kernels, the largest distance between the piecewise-linear table
(decoded here from the constants the kernel loads) and the function it stands
for, found on a fine grid in float64, plus the FP32 rounding of the two MADs.
"""

from __future__ import annotations

import numpy as np

from tensix_sfpu.model.dst_io import get_tile_fp32, put_tile_bits32

from . import Accuracy, Kernel, LlkSource, issue_slots_per_row
from tensix_sfpu.model.isa import Arch

F32 = np.float32
FLT_MIN = float(np.finfo(F32).tiny)
EPS = 2.0 ** -23          # FP32's ulp at 1.0


def _put(state, x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=F32)
    assert x.size == 1024
    put_tile_bits32(state, x.view(np.uint32))
    return x


def _bits_f32(bits) -> np.ndarray:
    return np.asarray(bits, dtype=np.uint32).view(F32)


def _with_specials(rng, body: np.ndarray, specials) -> np.ndarray:
    """`body` with `specials` scattered over the tile at random places."""
    x = body.astype(F32)
    s = np.asarray(specials, dtype=F32)
    x[rng.choice(x.size, s.size, replace=False)] = s
    return x


def _is_denormal_or_zero(x: np.ndarray) -> np.ndarray:
    return (x.view(np.uint32) & 0x7F800000) == 0


def _compare(accuracy: Accuracy, exact_where, relative: bool):
    """Bit-for-bit agreement (any NaN for a NaN) where `exact_where(expected)`
    marks results the kernel defines exactly (those of special inputs), and
    `accuracy` elsewhere, measured in float64 against a float64 reference;
    the largest error is reported relative or absolute, as the tolerance is."""
    def compare(got: np.ndarray, want: np.ndarray) -> tuple[bool, str]:
        got = np.asarray(got, F32).ravel()
        w = np.asarray(want, np.float64).ravel()
        exact = exact_where(w)
        want32 = w.astype(F32)
        same = (np.isnan(got) & np.isnan(want32)) | (got.view(np.uint32) == want32.view(np.uint32))
        bad = np.flatnonzero(exact & ~same)
        if len(bad):
            i = bad[0]
            return False, f"{len(bad)} special results differ; first at {i}: {got[i]!r}, expected {want32[i]!r}"
        rest = ~exact
        with np.errstate(invalid="ignore"):            # signalling NaNs from the MAD
            g = np.where(rest, got.astype(np.float64), 0.0)
        w = np.where(rest, w, 0.0)
        err = np.abs(g - w)
        bad = np.flatnonzero(rest & ~(err <= accuracy.atol + accuracy.rtol * np.abs(w)))
        if len(bad):
            i = bad[0]
            return False, (f"{len(bad)} of {rest.sum()} outside {accuracy.describe()}; first at {i}: "
                           f"{got[i]!r}, expected {w[i]!r}")
        if relative:
            # Below 2^-125 a result may be flushed to 0 within the absolute bound.
            normal = rest & (np.abs(w) >= 2 * FLT_MIN)
            worst = f"max rel. error {float(np.max(err[normal] / np.abs(w[normal]))):.3g}"
        else:
            worst = f"max abs. error {float(np.max(err[rest])):.3g}"
        return True, f"{worst}; {exact.sum()} results of special inputs exact"
    return compare


# ---------------------------------------------------------------------------
# reciprocal
# ---------------------------------------------------------------------------

RECIP_P = (0.3232325017452239990234375, 1.4545459747314453125, 2.121212482452392578125)


def recip_first_guess_error() -> float:
    """Largest |1 - m*y0(m)| over the mantissa range [1, 2), y0 the source's
    quadratic k2 - k1*m + k0*m^2 (float64, dense grid)."""
    k0, k1, k2 = RECIP_P
    m = np.linspace(1.0, 2.0, 1 << 20)
    return float(np.max(np.abs(1.0 - m * (k2 - k1 * m + k0 * m * m))))


def recip_inputs(state, rng) -> np.ndarray:
    """Both signs, magnitudes over the whole normal range (uniform in the
    exponent), mantissas near 1 and 2, and the special values."""
    n = 1024
    sign = rng.choice([-1.0, 1.0], n)
    exps = rng.uniform(-126.0, 128.0, n)
    body = (sign * np.exp2(exps)).astype(F32)
    body[:64] = (sign[:64] * rng.uniform(1.0, 2.0, 64)).astype(F32)
    specials = np.concatenate([
        [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, 0.5, 3.0, -3.0],
        _bits_f32([0x00000001, 0x807FFFFF, 0x00400000,              # denormals
                   0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,  # smallest and largest normals
                   0x3FFFFFFF, 0xBFFFFFFF, 0x3F800001, 0x7E800000,  # mantissa ends, 2^126
                   0x7F000000, 0x7EFFFFFF, 0x01000000]),            # 2^127 (1/x denormal), 2^-125
    ])
    return _put(state, _with_specials(rng, body, specials))


def recip_reference(x: np.ndarray) -> np.ndarray:
    """1/x in float64, with the kernel's treatment of special inputs:
    an exponent field of 0 (zero or denormal) makes the scale Inf, so the
    result is Inf with x's sign; an exponent field of 255 (Inf or NaN) makes
    the scale 0, so the result is 0 with x's sign."""
    x = np.asarray(x, F32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        y = 1.0 / x.astype(np.float64)
    neg = np.signbit(x)
    zero_exp = _is_denormal_or_zero(x)
    max_exp = (x.view(np.uint32) & 0x7F800000) == 0x7F800000
    y = np.where(zero_exp, np.where(neg, -np.inf, np.inf), y)
    return np.where(max_exp, np.where(neg, -0.0, 0.0), y)


def _recip_special(want: np.ndarray) -> np.ndarray:
    # Infinite or exactly-zero expectations come only from special inputs.
    return ~np.isfinite(want) | (want == 0)


RECIP_E0 = recip_first_guess_error()
# Two Newton steps square the guess's relative error twice: E0^4. The last
# step's y + y*t is one rounding (half an ulp, <= 2^-24 relative); t = 1 - x*y
# comes from a product kept to 27 bits, off by at most 2^-26 of 1, which
# carries into y as 2^-26 relative. The scaling by a power of two is exact
# unless the result is below FP32's smallest normal, where the MAD flushes it.
RECIP_BOUND = RECIP_E0 ** 4 + 2.0 ** -24 + 2.0 ** -26
RECIPROCAL = Accuracy(
    False, rtol=EPS, atol=FLT_MIN,
    why=f"the quadratic first guess is within {RECIP_E0:.3g} relative on [1, 2), two Newton steps make "
        f"that {RECIP_E0 ** 4:.2g}, and the last MAD's rounding and the 27-bit product in t add at most "
        f"2^-24 + 2^-26, in all {RECIP_BOUND:.3g} < 2^-23; results below FP32's smallest normal are "
        "flushed to 0, hence the absolute bound.")

# One Newton step: E0^2 from the guess, then the same two roundings; the
# guess's own rounding moves E0 by about 2^-24, which changes E0^2 by 2*E0*2^-24.
RECIP_APPROX_BOUND = RECIP_E0 ** 2 + 2 * RECIP_E0 * 2.0 ** -24 + 2.0 ** -24 + 2.0 ** -26
RECIPROCAL_APPROX = Accuracy(
    False, rtol=RECIP_E0 ** 2 + 2.0 ** -23, atol=FLT_MIN,
    why=f"the quadratic first guess is within {RECIP_E0:.3g} relative on [1, 2) and one Newton step "
        f"squares that to {RECIP_E0 ** 2:.3g}; the last MAD's rounding, the 27-bit product in t and the "
        "guess's own rounding add less than 2^-23; results below FP32's smallest normal are flushed to 0.")

# ---------------------------------------------------------------------------
# The SFPLUTFP32 tables
# ---------------------------------------------------------------------------

def lut16_to_float(h: int) -> float:
    """SFPLUTFP32's reading of a 16-bit table entry (tt-isa-documentation's
    Lut16ToFp32): FP16's layout, but an exponent of 0 is not denormal and an
    exponent of 31 is zero."""
    sign, exp, man = h >> 15, (h >> 10) & 31, h & 0x3FF
    e32 = 0 if exp == 31 else exp + 112
    return float(np.uint32((sign << 31) | (e32 << 23) | (man << 13)).view(F32))


def six_entry_table(regs: dict[int, int], cut: float):
    """The piecewise-linear function of |x| that SFPLUTFP32's six-entry
    modes compute from LRegs 0-2 (slopes) and 4-6 (offsets)."""
    edges = np.array([0.0, 0.5, 1.0, 1.5, 2.0, cut, np.inf])
    pieces = []
    for i in range(3):
        for shift in (0, 16):
            pieces.append((lut16_to_float((regs[i] >> shift) & 0xFFFF),
                           lut16_to_float((regs[4 + i] >> shift) & 0xFFFF)))

    def f(b: np.ndarray) -> np.ndarray:
        k = np.searchsorted(edges, b, side="right") - 1
        a = np.array([p[0] for p in pieces])[k]
        c = np.array([p[1] for p in pieces])[k]
        return a * b + c
    return f


def table_error(table, target, top: float = 64.0) -> float:
    """Largest |table(b) - target(b)| for b in [0, top], on a grid fine
    enough (step 2^-16, both functions' slopes below 1) that the grid's
    maximum is within 2^-16 of the true one, which is added."""
    b = np.arange(0.0, top, 2.0 ** -16)
    return float(np.max(np.abs(table(b) - target(b)))) + 2.0 ** -16


def _mixed_inputs(rng, lo: float, hi: float) -> np.ndarray:
    """Both signs: most uniform over [lo, hi] (where the table's pieces are),
    some over wide magnitudes, some exactly on the pieces' edges."""
    n = 1024
    body = rng.uniform(lo, hi, n)
    body[:128] = rng.choice([-1.0, 1.0], 128) * np.exp2(rng.uniform(-30.0, 30.0, 128))
    edges = np.array([0.5, 1.0, 1.5, 2.0, 3.0, 4.0])
    body[128:152] = np.concatenate([edges, -edges, np.nextafter(edges, 0), -np.nextafter(edges, 0)])
    return body.astype(F32)


# sigmoid ---------------------------------------------------------------------



def sigmoid_inputs(state, rng) -> np.ndarray:
    x = _with_specials(rng, _mixed_inputs(rng, -8.0, 8.0),
                       [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30, FLT_MIN, -FLT_MIN])
    return _put(state, x)


def sigmoid_reference(x: np.ndarray) -> np.ndarray:
    """The logistic function: 1 at +Inf, 0 at -Inf, and -0 for NaN (the
    kernel's reciprocal gives a negative NaN 0 with its sign)."""
    xd = np.asarray(x, F32).astype(np.float64)
    with np.errstate(over="ignore"):
        y = 1.0 / (1.0 + np.exp(-xd))
    return np.where(np.isnan(xd), -0.0, y)


SIGMOID = Accuracy(
    False, rtol=3 * 2.0 ** -23, atol=FLT_MIN,
    why="tt-llk's accuracy budget for Sigmoid with FP32 in and out and a 32-bit Dst is 3 ULP (the "
        "hardware measured 2): 3 ULP of a result is at most 3 * 2^-23 of it; results below FP32's "
        "smallest normal may be 0.")


# gelu ------------------------------------------------------------------------

GELU_REGS = {0: 0x37E7322B, 4: 0xB12286D8, 1: 0x38E138F3, 5: 0xB437B479, 2: 0x38003852, 6: 0x7C00AFA4}
GELU_TABLE = six_entry_table(GELU_REGS, cut=3.0)


def _phi(x: np.ndarray) -> np.ndarray:
    """The standard normal CDF (numpy has no erf; math.erf per value)."""
    from math import erf
    return 0.5 * (1.0 + np.vectorize(erf, otypes=[np.float64])(np.asarray(x, np.float64) / np.sqrt(2.0)))


def gelu_inputs(state, rng) -> np.ndarray:
    x = _with_specials(rng, _mixed_inputs(rng, -5.0, 5.0),
                       [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30, FLT_MIN, -FLT_MIN])
    return _put(state, x)


def gelu_reference(x: np.ndarray) -> np.ndarray:
    """x * Phi(x) (the erf form); +Inf for +Inf; NaN for -Inf, where the
    kernel adds -Inf/2 and the table's +Inf/2, and for NaN."""
    xd = np.asarray(x, F32).astype(np.float64)
    finite = np.isfinite(xd)
    y = np.where(finite, np.where(finite, xd, 0.0) * _phi(np.where(finite, xd, 0.0)), np.nan)
    return np.where(xd == np.inf, np.inf, y)


GELU_E = table_error(GELU_TABLE, lambda b: b * (_phi(b) - 0.5), top=16.0)
# For |x| < 3 the table's value is below 2 and the sum below 4 in magnitude,
# so their roundings add at most 2^-24 + 2^-23 < 2^-22; x/2 is exact. For
# |x| >= 3 the table is 0.5|x| + 0, exact, and only the sum rounds, by half an
# ulp of the result.
GELU = Accuracy(
    False, rtol=2.0 ** -24, atol=GELU_E + 2.0 ** -22,
    why=f"the six-piece table is at most {GELU_E:.3g} from |x|(Phi(|x|) - 1/2) (worst near |x| = 0.25, "
        "where the first piece is a straight line for a curve close to 0.4 x^2), and the table's MAD "
        "and the final add round by less than 2^-22 for |x| < 3 and by half an ulp of the result "
        "above, where the table is exactly 0.5|x|.")


KERNELS = [
    Kernel("reciprocal", "reciprocal.s",
           "calculate_reciprocal<APPROXIMATION_MODE=false, is_fp32_dest_acc_en=true> "
           "(sfpu_reciprocal_iter<2>: two Newton-Raphson steps), through the SFPI stand-in",
           recip_inputs, get_tile_fp32, recip_reference, RECIPROCAL,
           cycles_per_row=issue_slots_per_row("reciprocal.s"),
           compare=_compare(RECIPROCAL, _recip_special, relative=True),
           llk_source=LlkSource("ckernel_sfpu_recip.h", "calculate_reciprocal<false, true, 8>()",
                                "recip_init<false, true>()"),
           notes="Generated from tt-metal's SFPI source by the SFPI stand-in (`python -m "
                 "tensix_sfpu.tb.llk.regenerate --write`); its cycle count is this project's instruction "
                 "selection. It leaves Dst bit-identical to the hand-compiled listing it replaces; "
                 "the stream differs in registers and copies: 21.25 cycles a row group against "
                 "that listing's 20.25, which hid the integer work in the cycles after MADs. Zero "
                 "and denormal inputs give Inf with the input's sign; Inf and NaN give 0 with the "
                 "input's sign; results below 2^-126 are flushed to 0.", arch=Arch.WORMHOLE),
    Kernel("reciprocal_approx", "reciprocal_approx.s",
           "_calculate_reciprocal_<APPROXIMATION_MODE=true, 8, is_fp32_dest_acc_en=true> "
           "(_sfpu_reciprocal_<0>: one Newton-Raphson step)",
           recip_inputs, get_tile_fp32, recip_reference, RECIPROCAL_APPROX,
           # 16 issue slots a row group (reciprocal's 20 less the second step's two MADs
           # and their NOPs), 8 per face and 2 SETRWCs after each face.
           cycles_per_row=(4 * (8 * 16 + 2)) / 32,
           compare=_compare(RECIPROCAL_APPROX, _recip_special, relative=True),
           notes="As reciprocal, with one Newton step: the source's max_iter = 0 currently does what "
                 "max_iter = 1 does.", arch=Arch.WORMHOLE),
    Kernel("sigmoid", "sigmoid.s",
           "calculate_sigmoid<APPROXIMATION_MODE=false, is_fp32_dest_acc_en=true> (1 / (1 + exp(-x)): "
           "_sfpu_exp_accurate_ and sfpu_reciprocal_iter<2>), through the SFPI stand-in",
           sigmoid_inputs, get_tile_fp32, sigmoid_reference, SIGMOID,
           cycles_per_row=issue_slots_per_row("sigmoid.s"),
           compare=_compare(SIGMOID, lambda want: ~np.isfinite(want) | (want == 0) | (want == 1), relative=True),
           llk_source=LlkSource("ckernel_sfpu_sigmoid.h", "calculate_sigmoid<false, true, 8>()",
                                "sigmoid_init<false>()"),
           notes="Generated from tt-metal's SFPI source by the SFPI stand-in; its cycle count is this "
                 "project's instruction selection. The hand-compiled listing it replaces followed an "
                 "earlier source: one six-piece FP16 SFPLUTFP32 table, 7.25 cycles a row group, "
                 "within 0.0178 of sigmoid. This source computes 1/(1 + exp(-x)) with the accurate "
                 "exp and two Newton steps: within 3 ULP (9.8e-08 absolute on these inputs), 79.25 "
                 "cycles a row group. +Inf gives 1 and -Inf 0; NaN gives -0, as exp of the negated "
                 "NaN is a negative NaN whose reciprocal is -0.", arch=Arch.WORMHOLE),
    Kernel("gelu", "gelu.s", "calculate_gelu<APPROXIMATION_MODE=true> (calculate_gelu_appx: SFPLUTFP32 "
           "Mod1 = 2, FP16 six-entry table, last piece from 3.0), gelu_init<true>, through the SFPI stand-in",
           gelu_inputs, get_tile_fp32, gelu_reference, GELU,
           cycles_per_row=issue_slots_per_row("gelu.s"),
           compare=_compare(GELU, lambda want: ~np.isfinite(want), relative=False),
           llk_source=LlkSource("ckernel_sfpu_gelu.h", "calculate_gelu<true, true, 8>()", "gelu_init<true, true>()"),
           notes="Generated from tt-metal's SFPI source by the SFPI stand-in; its cycle count is this "
                 "project's instruction selection. It leaves Dst bit-identical to the hand-compiled "
                 "listing it replaces; the stream differs in copies and SFPNOPs (10.75 cycles a row "
                 "group against 8.25). x/2 plus a six-piece table of |x|(Phi(|x|) - 1/2); from "
                 "|x| = 3 the table is 0.5|x|, so the kernel is relu there, +Inf gives +Inf and -Inf "
                 "gives NaN (-Inf + Inf). The table's error peaks near |x| = 0.25. The source's "
                 "vLut16ii(0.0f) is the table format's zero (0x7C00): 0x0000 would read as 2^-15.", arch=Arch.WORMHOLE),
]
