"""Tests for model.prng (spec section 1.3)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tensix_sfpu.model.prng import PRNG_LANES, prng_advance, prng_seed, prng_step


def ref_step(s: int) -> int:
    """Scalar LFSR step written bit by bit: XNOR of bits 31, 21, 1, 0 into bit 31."""
    x = ((s >> 31) ^ (s >> 21) ^ (s >> 1) ^ s) & 1
    return ((1 - x) << 31) | (s >> 1)


def run(state: int, n: int):
    outs = []
    s = np.uint32(state)
    for _ in range(n):
        out, s = prng_advance(s)
        outs.append(int(out))
    return outs, int(s)


def test_worked_values_from_zero():
    outs, final = run(0, 4)
    assert outs == [0x00000000, 0x80000000, 0x40000000, 0xA0000000]
    assert final == 0x50000000


def test_worked_values_from_0x12345678():
    outs, final = run(0x12345678, 3)
    assert outs == [0x12345678, 0x091A2B3C, 0x848D159E]
    assert final == 0xC2468ACF


def test_advance_returns_old_state_and_does_not_alias_input():
    st_in = np.array([1, 2, 3], dtype=np.uint32)
    keep = st_in.copy()
    old, new = prng_advance(st_in)
    np.testing.assert_array_equal(old, keep)
    np.testing.assert_array_equal(st_in, keep)
    assert old.dtype == np.uint32 and new.dtype == np.uint32


def test_all_ones_tap_patterns():
    # 4 taps set -> even parity -> XNOR = 1 feeds bit 31.
    assert int(prng_step(0x80200003)) == 0x80000000 | (0x80200003 >> 1)
    # Exactly one tap set (bit 21) -> odd parity -> 0 into bit 31.
    assert int(prng_step(1 << 21)) == 1 << 20
    # Non-tap bits do not matter for the feedback.
    assert int(prng_step(0x7FDFFFFC)) == 0x80000000 | (0x7FDFFFFC >> 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 0xFFFFFFFF), min_size=1, max_size=64))
def test_vectorised_matches_scalar_reference(states):
    arr = np.array(states, dtype=np.uint32).reshape(-1, 1)
    old, new = prng_advance(arr)
    assert new.shape == arr.shape
    np.testing.assert_array_equal(old.ravel(), np.array(states, dtype=np.uint32))
    assert [int(v) for v in new.ravel()] == [ref_step(s) for s in states]
    # Consecutive values share 31 bits: new >> 0 bits 30..0 == old bits 31..1.
    assert all((int(n) & 0x7FFFFFFF) == (s >> 1) for n, s in zip(new.ravel(), states))


def test_prng_seed_corsix_procedure():
    seed = 0xDEADBEEF
    lanes = prng_seed(seed)
    assert lanes.shape == (PRNG_LANES,) and lanes.dtype == np.uint32
    s = seed
    for _ in range(32):
        s = ref_step(s)
    expected = [0] * 32
    for lane in reversed(range(32)):
        s = ref_step(ref_step(s))
        expected[lane] = s
    assert [int(v) for v in lanes] == expected


def test_prng_seed_lane_relationships():
    lanes = [int(v) for v in prng_seed(1)]
    for lane in range(1, 32):
        assert ref_step(ref_step(lanes[lane])) == lanes[lane - 1]
    # Lane 31 is the seed stepped 34 times.
    s = 1
    for _ in range(34):
        s = ref_step(s)
    assert lanes[31] == s


def test_prng_seed_zero_is_hand_checkable():
    # From 0, the first steps are hand-worked in the spec: 0 -> 0x80000000 ->
    # 0x40000000 -> 0xA0000000 -> 0x50000000; check that the seeding chain
    # starts from the same sequence (lane 31 = step^34(0)).
    s = 0
    seq = []
    for _ in range(4):
        s = ref_step(s)
        seq.append(s)
    assert seq == [0x80000000, 0x40000000, 0xA0000000, 0x50000000]
    for _ in range(30):
        s = ref_step(s)
    assert int(prng_seed(0)[31]) == s


def test_prng_seed_rejects_out_of_range():
    with pytest.raises(ValueError):
        prng_seed(1 << 32)
    with pytest.raises(ValueError):
        prng_seed(-1)
