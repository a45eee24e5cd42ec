"""exp: tt-llk's Wormhole exp kernels (ckernel_sfpu_exp.h). The fast SFPLOADMACRO path
with CLAMP_NEGATIVE and its non-macro twin; the replay-buffer path without it (ITERATIONS =
32) and its twin; and the non-approximate path (a quadratic, squarings and a reciprocal)."""

from __future__ import annotations

import numpy as np

from tb.dst_io import get_tile_fp32, put_tile_bits32

from . import Accuracy, Kernel, LlkSource

FLT_MIN = float(np.finfo(np.float32).tiny)


def exp_inputs(state, rng) -> np.ndarray:
    """FP32 x over the whole range the kernel handles, some below the -88.5 clamp."""
    x = np.concatenate([rng.uniform(-87.0, 88.0, 960), rng.uniform(-120.0, -87.0, 64)]).astype(np.float32)
    put_tile_bits32(state, x.view(np.uint32))
    return x


def clamped_exp(x: np.ndarray) -> np.ndarray:
    return np.exp(np.maximum(x.astype(np.float64), -88.5))


# The source's comments on the two macro sequences, as a table; T is the SFPLOADMACRO's
# cycle, and a delay d runs at T+1+d.
EXP_FAST_SCHEDULE = """\
Sanitising macro (sequence 1), eight per face, each followed by an SFPNOP because the swap
holds the Simple sub-unit for two cycles:

| Cycle | Load | Simple | Store |
|---|---|---|---|
| T | x from Dst into L0..L3 (in turn) | | |
| T+1 | | SWAP with L14 = -88.5: the larger stays in the loaded register (delay 0) | |
| T+2 | | (second cycle of the swap) | |
| T+3 | | | clamped x back to Dst (delay 2) |

Computing macro (sequence 0), eight per face back to back, then one SFPNOP (the source notes
that three would be safe and one is enough because the Dst counter updates between faces add
two cycles):

| Cycle | Load | MAD | Round | Simple | Store |
|---|---|---|---|---|---|
| T | clamped x from Dst | | | | |
| T+1 | | A*x + (B-C) (delay 0) | | | |
| T+3 | | | round to unsigned 16-bit integer (delay 2) | | |
| T+4 | | | | shift left by 15 into L16 (delay 3) | |
| T+5 | | | | | L16 to Dst (delay 4) |
"""

SCHRAUDOLPH = Accuracy(
    False, rtol=0.05, atol=FLT_MIN,
    why="Schraudolph's method: 2^(x/ln 2) with the fraction's 2^f replaced by 1+f in the mantissa, "
        "which is off by at most 6.1% before the bias C is tuned and about 3-4% after; results below "
        "FP32's smallest normal come out as 0 or denormal, hence the absolute bound.")

KERNELS = [
    Kernel("exp_fast", "exp_fast.s",
           "_calculate_exponential_<APPROX, FAST_APPROX, CLAMP_NEGATIVE> (SFPLOADMACRO)",
           exp_inputs, get_tile_fp32, clamped_exp, SCHRAUDOLPH,
           # Per face 26 issue slots: 8 sanitising macros with an SFPNOP after each but the
           # last, 8 computing macros, an SFPNOP and two SETRWCs. The last store is at T+5
           # of the last computing macro, 2 cycles after the last SETRWC.
           cycles_per_row=(4 * 26 + 2) / 32, twin="exp_fast_twin",
           notes="Two macros per row group: the first clamps x to -88.5 and above in place (SFPSWAP "
                 "on the Simple sub-unit, two cycles, hence an SFPNOP after each), the second computes "
                 "Schraudolph's exp with the load, MAD, Round, Simple and Store sub-units all busy in "
                 "the same cycle for different row groups. The SWAP template runs without the SFPNOP in "
                 "the MAD slot the documentation asks for, as the source does (`.allow swap-mad-nop`). "
                 "Its twin exp_fast_twin issues the same operations one at a time.",
           source_schedule=EXP_FAST_SCHEDULE, timeline=(0, 27),
           llk_source=LlkSource("ckernel_sfpu_exp.h", "calculate_exponential<true, true, false, 8, true>()",
                                "exp_init<true, 0x3F800000, true, true>()", allow=("swap-mad-nop",),
                                regenerated="body words equal the hand listing's; Dst bit-identical")),
    Kernel("exp_fast_twin", "exp_fast_twin.s",
           "_calculate_exponential_<APPROX, FAST_APPROX, CLAMP_NEGATIVE> (DISABLE_SFPLOADMACRO)",
           exp_inputs, get_tile_fp32, clamped_exp, SCHRAUDOLPH,
           # Per row group: load, swap, the swap's interlock stall, MAD, NOP, round, shift,
           # store, INCRWC = 9 cycles; per face 8 x 9 + 2 SETRWCs = 74.
           cycles_per_row=4 * 74 / 32,
           notes="The same operations as exp_fast, one instruction at a time on L0, with the source's "
                 "`dst_reg++` (INCRWC) after each row group. SFPSWAP Mod1 = 9 leaves the maximum of x "
                 "and -88.5 in L0 in every lane. One SFPNOP, absent from the source, separates SFPMAD "
                 "from the SFPSTOCHRND that reads its result, which the MAD writes only at the end of "
                 "its second cycle; the SFPSWAP costs a third cycle through its interlock.",
           llk_source=LlkSource("ckernel_sfpu_exp.h", "calculate_exponential<true, true, false, 8, true>()",
                                "exp_init<true, 0x3F800000, true, true>()", ("DISABLE_SFPLOADMACRO",),
                                regenerated="the source issues SFP_STOCH_RND right after the SFPMAD whose result it "
                                            "reads (ckernel_sfpu_exp.h:490), where this listing has an SFPNOP: the "
                                            "generated listing stops there (read-in-flight), a finding for tt-metal")),
]


# --- exp_accurate: tt-llk's APPROXIMATION_MODE = false exp ---------------------------

def accurate_inputs(state, rng) -> np.ndarray:
    """FP32 x across the range where exp(x) is a normal FP32 number, small |x| where
    no squaring happens, the powers of two where the number of squarings changes, and
    the special values +-0 and +-inf."""
    edges = np.array([2.0 ** k for k in range(-3, 7)], dtype=np.float32)
    special = np.concatenate([edges, -edges, np.nextafter(edges, np.float32(0)),
                              -np.nextafter(edges, np.float32(0)),
                              np.array([0.0, -0.0, np.inf, -np.inf, 88.0, -87.0], dtype=np.float32)])
    x = np.concatenate([special, rng.uniform(-1.0, 1.0, 200), rng.uniform(-87.0, 88.0, 1024 - 200 - len(special))])
    x = x.astype(np.float32)
    put_tile_bits32(state, x.view(np.uint32))
    return x


def exp64(x: np.ndarray) -> np.ndarray:
    return np.exp(x.astype(np.float64))


# The kernel's core: p(v) = 1 + v (0.863281 + 0.8373 v) for exp(v), with v = |x| when
# |x| < 1, else |x| / 2^(e+1) in [0.5, 1) followed by e + 1 squarings (|x| in [2^e, 2^(e+1))).
# Its relative error on each of those intervals, sampled densely in exact arithmetic. The
# coefficients are as the kernel holds them: 0.8373 in FP32 (L8) and 0.863281 rounded to
# BF16 by its SFPLOADI (0x3F5D, 0.86328125).
_P1, _P0 = float(np.float32(0.8373)), 0.86328125


def _poly_error(lo: float, hi: float) -> tuple[float, float]:
    v = np.linspace(lo, hi, 1 << 20, endpoint=False)
    r = (1.0 + v * (_P0 + _P1 * v)) / np.exp(v) - 1.0
    return float(r.min()) - 1e-8, float(r.max()) + 1e-8


POLY_ERR_SMALL = _poly_error(0.0, 1.0)     # |x| < 1: no squaring (about -1.25% .. +0.07%)
POLY_ERR_REDUCED = _poly_error(0.5, 1.0)   # |x| >= 1 (about -0.65% .. +0.07%)


def _ratio_bounds(squarings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bounds on computed / exact for positive x after `squarings` squarings: each
    squaring doubles the relative error, so (1 + d)^(2^k); the FP32 roundings (the
    two MADs of p, each squaring, and the reciprocal's Newton steps for negative x)
    add at most a few units in 2^-23 each, also doubled by every later squaring."""
    lo = np.where(squarings == 0, POLY_ERR_SMALL[0], POLY_ERR_REDUCED[0])
    hi = np.where(squarings == 0, POLY_ERR_SMALL[1], POLY_ERR_REDUCED[1])
    n = 2.0 ** squarings
    slack = (n + 4) * 2.0 ** -21
    return (1 + lo) ** n * (1 - slack), (1 + hi) ** n * (1 + slack)


def _squarings(ax: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        k = np.floor(np.log2(np.maximum(ax, 1e-300))) + 1
    return np.clip(k, 0, 8)


def compare_accurate(got: np.ndarray, want: np.ndarray) -> tuple[bool, str]:
    """Checks each result against the bound its own number of squarings gives. The
    input is recovered from numpy's exp(x) (float64), so a point within rounding of a
    power of two gets the looser of its two neighbouring bounds."""
    g, w = np.asarray(got, np.float64).ravel(), np.asarray(want, np.float64).ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.log(w)
        ax = np.abs(x)
        k_lo, k_hi = _squarings(ax * (1 - 1e-9)), _squarings(ax * (1 + 1e-9))
        lo = np.minimum(_ratio_bounds(k_lo)[0], _ratio_bounds(k_hi)[0])
        hi = np.maximum(_ratio_bounds(k_lo)[1], _ratio_bounds(k_hi)[1])
        lo, hi = np.where(x < 0, 1 / hi, lo), np.where(x < 0, 1 / lo, hi)
        ok = ((g == w)
              | (np.isfinite(w) & (g >= w * lo - FLT_MIN) & (g <= w * hi + FLT_MIN)))
        ratio = g / w
    bad = np.flatnonzero(~ok)
    normal = np.isfinite(w) & (w >= FLT_MIN) & (g >= FLT_MIN)
    worst = float(np.max(np.abs(ratio[normal] - 1))) if normal.any() else 0.0
    if len(bad):
        i = bad[0]
        return False, (f"{len(bad)} of {len(g)} outside the bound; first: exp({x[i]!r}) = {w[i]!r}, "
                       f"got {g[i]!r}, allowed ratio {lo[i]:.6g} .. {hi[i]:.6g}")
    return True, f"max rel. error {worst:.3g} (each within its squaring bound)"


# The loosest of the per-result bounds for |x| < 128 (7 squarings): the reciprocal of an
# exp(|x|) that came out 57% low, so +131%. compare_accurate applies the bound of each result.
ACCURATE = Accuracy(
    False, rtol=float(1 / _ratio_bounds(np.array(7.0))[0] - 1), atol=FLT_MIN,
    why="p(v) = 1 + v(0.863281 + 0.8373 v) is within -1.25%..+0.07% of exp(v) on [0, 1) and "
        "-0.65%..+0.07% on [0.5, 1), and each of the e+1 squarings for |x| in [2^e, 2^(e+1)) doubles "
        "that relative error, so each result is checked against the bound of its own number of "
        "squarings (compare_accurate): 1.3% for |x| < 1, up to -57% for exp(x) and +131% for its "
        "reciprocal at |x| just under 128; results below FP32's smallest normal may be 0.")

KERNELS.append(
    Kernel("exp_accurate", "exp_accurate.s",
           "_calculate_exponential_<APPROXIMATION_MODE=false> (_sfpu_exp_ + _sfpu_reciprocal_<2>)",
           accurate_inputs, get_tile_fp32, exp64, ACCURATE, compare=compare_accurate,
           summary="each of the e+1 squarings for |x| in [2^e, 2^(e+1)) doubles p(v)'s error: 0.829 is within "
                   "its own bound",
           # Per row group 48 SFPU instructions (5 SFPNOPs after MADs) and an INCRWC: 49 cycles;
           # per face 8 x 49 + 2 SETRWCs = 394; whatever the data, as predication masks lanes
           # without skipping instructions.
           cycles_per_row=4 * 394 / 32,
           notes="The source is SFPI, so the file is the instruction sequence a careful compiler "
                 "would emit: |x| is halved into [0.5, 1) by setting its exponent to 126 when |x| >= 1, "
                 "a quadratic gives exp of that, and e+1 predicated squarings (an SFPIADD narrowing "
                 "the lanes each time) undo the halving; negative x then takes the reciprocal by a "
                 "quadratic estimate on the mantissa and two Newton steps. The error grows with |x| "
                 "(each squaring doubles it), so the check bounds each result by its own number of "
                 "squarings. NaN is not tested: the algorithm returns +inf for it (its exponent "
                 "field 255 means eight squarings of p(0.5 + ...)), or 0 when the sign bit is set."))


# --- exp_fast_replay: FAST_APPROX without CLAMP_NEGATIVE, ITERATIONS = 32 ----------------

# The source's comments on sequence 0 and the replayed pattern. Delays count the
# instructions the thread issues after the SFPLOADMACRO (Misc 0xF00).
EXP_REPLAY_SCHEDULE = """\
| Delay | Sub-unit | Work |
|---|---|---|
| (issue) | Load | x from Dst into the macro's register, L0, L1, L2, L3 in turn; Dst counter += 2 |
| 0 | MAD | L = A*L + (B-C), VB taken from the loaded register |
| 3 | Round | L = FP32 to sign-magnitude INT16 |
| (thread) | Round | SFPSHFT2 mode 5: L4 = L << L14 (15), issued with the macro two row groups later |
| 5 | Simple | L16 = exponent and mantissa of L4, sign of L (SFPSETSGN) |
| 6 | Store | Dst = L16 |

Replay buffer (32 entries): pairs of SFPLOADMACRO on L0, L1, L2, L3, ... and SFPSHFT2 on
L2, L3, L0, L1, ...; the first two shifts of the tile act on registers not yet loaded and only
keep the spacing. After two replays the drain issues NOP, SHFT2 L2, NOP, SHFT2 L3, NOP, NOP
for the last two row groups.
"""


def replay_inputs(state, rng) -> np.ndarray:
    """FP32 x over the variant's valid range [-88, 0.72], its two ends included."""
    ends = np.array([-88.0, 0.72, 0.0, -0.0], dtype=np.float32)
    x = np.concatenate([ends, rng.uniform(-88.0, 0.72, 1024 - len(ends))]).astype(np.float32)
    put_tile_bits32(state, x.view(np.uint32))
    return x


KERNELS += [
    Kernel("exp_fast_replay", "exp_fast_replay.s",
           "_calculate_exponential_<APPROX, FAST_APPROX, !CLAMP_NEGATIVE, ITERATIONS=32> (SFPLOADMACRO, replay)",
           replay_inputs, get_tile_fp32, exp64, SCHRAUDOLPH,
           # 64 replayed instructions (32 macro + shift pairs) and a 6-instruction drain, one
           # per cycle; the last row group's store runs in the drain's last cycle.
           cycles_per_row=70 / 32,
           claimed_cycles_per_row=68 / 32,
           summary="the claim's 68 cycles stop where the drain's last SFPSHFT2 issues; the last store is 2 "
                   "cycles later",
           claim="ckernel_sfpu_exp.h, the ITERATIONS == 32 branch of _calculate_exponential_: "
                 "about 68 cycles for 32 row groups, 2.125 per row group",
           timing_note="The issue stream is 64 replayed instructions and the drain's NOP, SHFT2, NOP, "
                       "SHFT2, NOP, NOP: 70 cycles, and the last row group's SFPSETSGN and store run in "
                       "the last two (its delays of 5 and 6 count issued instructions). 68 is where the "
                       "drain's last SFPSHFT2 issues, so the source's figure stops before the last "
                       "result is written; its 8-iteration figure (about 20 for 16 + 6 instructions) "
                       "is short by the same two cycles.",
           twin="exp_fast_replay_twin",
           notes="Schraudolph's exp without the clamp: valid for x in [-88, 0.72] (above, the "
                 "16-bit rounding saturates; below, the result is negative for a later ReLU), so "
                 "the inputs stay in that range. The shift cannot be a macro instruction (it would "
                 "share the Round sub-unit with the macro's rounding), so the thread issues an "
                 "SFPSHFT2 after each SFPLOADMACRO and every delay counts issued instructions (Misc "
                 "0xF00). The replay buffer holds 16 macro + shift pairs, played twice.",
           source_schedule=EXP_REPLAY_SCHEDULE, timeline=(0, 14),
           llk_source=LlkSource("ckernel_sfpu_exp.h", "calculate_exponential<true, true, false, 32, false>()",
                                "exp_init<true, 0x3F800000, false, true>()", vector_mode="none",
                                regenerated="body words equal the hand listing's; Dst bit-identical")),
    Kernel("exp_fast_replay_twin", "exp_fast_replay_twin.s",
           "_calculate_exponential_<APPROX, FAST_APPROX, !CLAMP_NEGATIVE, ITERATIONS=32> (DISABLE_SFPLOADMACRO)",
           replay_inputs, get_tile_fp32, exp64, SCHRAUDOLPH,
           # load, MAD, NOP, round, shift, sign, store, INCRWC: 8 cycles per row group.
           cycles_per_row=8.0,
           notes="The non-macro loop of the same variant, one row group per iteration with INCRWC; "
                 "an SFPNOP the source lacks keeps SFPSTOCHRND from reading the MAD's register "
                 "before the MAD has written it.",
           llk_source=LlkSource("ckernel_sfpu_exp.h", "calculate_exponential<true, true, false, 32, false>()",
                                "exp_init<true, 0x3F800000, false, true>()", ("DISABLE_SFPLOADMACRO",),
                                vector_mode="none",
                                regenerated="as exp_fast_twin, the source reads the SFPMAD result in the next cycle "
                                            "(ckernel_sfpu_exp.h:615): the generated listing stops there, a finding "
                                            "for tt-metal")),
]
