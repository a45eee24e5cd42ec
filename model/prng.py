"""Per-lane PRNG of the Vector Unit, the same on both architectures (spec section 1.3).

Every lane owns a 32-bit linear-feedback shift register.  One *advance*
hands out the current state and then shifts the register right by one bit,
feeding the XNOR of taps 31, 21, 1 and 0 into bit 31.

The instructions that consume PRNG output (SFPMOV FROM_SPECIAL VC=9,
stochastic SFPCAST, every SFPSTOCHRND) use the value *before* the update.

All functions here are pure and vectorised: they accept numpy ``uint32``
arrays of any shape (or Python integers) and return new arrays.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "PRNG_LANES",
    "PRNG_TAP_MASK",
    "prng_step",
    "prng_advance",
    "prng_seed",
]

#: Number of SIMD lanes, each with its own PRNG state.
PRNG_LANES = 32

#: Bits 31, 21, 1 and 0 of the state are the LFSR taps.
PRNG_TAP_MASK = 0x80200003


def _as_u32(x) -> np.ndarray:
    return np.asarray(x, dtype=np.uint32)


def prng_step(state) -> np.ndarray:
    """Return the state that follows ``state`` after one LFSR shift."""
    s = _as_u32(state)
    parity = np.bitwise_count(s & np.uint32(PRNG_TAP_MASK)).astype(np.uint32) & np.uint32(1)
    feedback = parity ^ np.uint32(1)  # XNOR of the four taps
    return (feedback << np.uint32(31)) | (s >> np.uint32(1))


def prng_advance(state) -> tuple[np.ndarray, np.ndarray]:
    """One ``AdvancePRNG()`` per element.

    Returns ``(result, new_state)``: ``result`` is the *old* state (the value
    the instruction consumes), ``new_state`` is what the lane holds afterwards.
    The caller decides which lanes actually advance (only enabled lanes do).
    """
    old = _as_u32(state).copy()
    return old, prng_step(old)


def prng_seed(seed: int) -> np.ndarray:
    """Per-lane PRNG states after writing ``seed`` to ``PRNG_SEED_Seed_Val``.

    The official documentation gives no algorithm; it only says the write
    re-seeds all the PRNGs.  This follows **corsix's description** (his
    wormhole-vector emulator, which he states is what the hardware does, with
    LLK software issuing a run of SFPNOPs after the write):

    1. step the 32-bit seed through the LFSR 32 times;
    2. for lane 31 down to lane 0: step twice more and give that lane the
       resulting value.

    So lane 31 holds the seed stepped 34 times, lane 0 the seed stepped 96
    times, and lane ``i - 1`` is always lane ``i`` stepped twice.

    Returns a fresh ``uint32[32]`` array indexed by lane.
    """
    if not 0 <= int(seed) <= 0xFFFFFFFF:
        raise ValueError(f"PRNG seed {seed!r} does not fit in 32 bits")
    s = int(seed)
    # The procedure is inherently sequential in the seed: 96 steps on a Python
    # integer, where numpy's per-call cost would dominate.
    for _ in range(32):
        s = _step_int(s)
    lanes = np.zeros(PRNG_LANES, dtype=np.uint32)
    for lane in range(PRNG_LANES - 1, -1, -1):
        s = _step_int(_step_int(s))
        lanes[lane] = s
    return lanes


def _step_int(s: int) -> int:
    """`prng_step` of one 32-bit Python integer."""
    return (((s & PRNG_TAP_MASK).bit_count() & 1 ^ 1) << 31) | (s >> 1)
