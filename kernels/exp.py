"""exp: tt-llk's Wormhole exp kernels (ckernel_sfpu_exp.h). The fast SFPLOADMACRO path
with CLAMP_NEGATIVE and its non-macro twin; the replay-buffer path without it (ITERATIONS =
32) and its twin; and the non-approximate path (a quadratic, squarings and a reciprocal)."""

from __future__ import annotations

import numpy as np

from tensix_sfpu.model.dst_io import get_tile_fp32, put_tile_bits32

from . import Accuracy, Kernel, LlkSource, issue_slots_per_row
from tensix_sfpu.model.isa import Arch

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
                                regenerated="body words equal the hand listing's; Dst bit-identical"),
                                arch=Arch.WORMHOLE),
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
                                            "generated listing stops there (read-in-flight), a finding for tt-metal"),
                                            arch=Arch.WORMHOLE),
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


def compare_accurate(got: np.ndarray, want: np.ndarray) -> tuple[bool, str]:
    """Exact for the special inputs (exp(+-0) = 1, exp(+Inf) = Inf, exp(-Inf) = 0),
    within ACCURATE elsewhere."""
    g, w = np.asarray(got, np.float64).ravel(), np.asarray(want, np.float64).ravel()
    special = ~np.isfinite(w) | (w == 0) | (w == 1)
    bad = np.flatnonzero(special & (g != w))
    if len(bad):
        return False, f"{len(bad)} special results differ; first: got {g[bad[0]]!r}, expected {w[bad[0]]!r}"
    rest = ~special
    with np.errstate(invalid="ignore"):        # Inf - Inf of the special results, not used
        err = np.abs(g - w)
    bad = np.flatnonzero(rest & ~(err <= ACCURATE.atol + ACCURATE.rtol * np.abs(w)))
    if len(bad):
        i = bad[0]
        return False, f"{len(bad)} of {rest.sum()} outside {ACCURATE.describe()}; first: got {g[i]!r}, expected {w[i]!r}"
    normal = rest & (np.abs(w) >= FLT_MIN)
    return True, f"max rel. error {float(np.max(err[normal] / np.abs(w[normal]))):.3g}; {special.sum()} special results exact"


ACCURATE = Accuracy(
    False, rtol=2 * 2.0 ** -23, atol=FLT_MIN,
    why="tt-llk's accuracy budget for Exp with FP32 in and out, a 32-bit Dst and no approximation is "
        "2 ULP (the hardware measured 1): 2 ULP of a result is at most 2 * 2^-23 of it; results below "
        "FP32's smallest normal may be 0.")

KERNELS.append(
    Kernel("exp_accurate", "exp_accurate.s",
           "calculate_exponential<APPROXIMATION_MODE=false, is_fp32_dest_acc_en=true> "
           "(_sfpu_exp_fp32_accurate_), through the SFPI stand-in",
           accurate_inputs, get_tile_fp32, exp64, ACCURATE, compare=compare_accurate,
           cycles_per_row=issue_slots_per_row("exp_accurate.s"),
           llk_source=LlkSource("ckernel_sfpu_exp.h", "calculate_exponential<false, true, false, 8, true>()",
                                "exp_init<false, 0x3F800000, true, true>()"),
           notes="Generated from tt-metal's SFPI source by the SFPI stand-in; its cycle count is this "
                 "project's instruction selection. The hand-compiled listing it replaces followed an "
                 "earlier source: |x| halved into [0.5, 1), a quadratic, e+1 squarings and a "
                 "reciprocal for negative x, whose error grew with |x| (0.829 relative at the worst "
                 "point of these inputs), 49.25 cycles a row group. This source's FP32 exp is within "
                 "2 ULP (5.98e-08 relative on these inputs), 57.25 cycles a row group.", arch=Arch.WORMHOLE))


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
                                regenerated="body words equal the hand listing's; Dst bit-identical"),
                                arch=Arch.WORMHOLE),
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
                                            "for tt-metal"), arch=Arch.WORMHOLE),
]
