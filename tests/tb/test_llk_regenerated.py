"""Kernels whose source changed since their hand listings: the fixture tree
(tests/tb/llk_tree, written here in tt-metal's style) gives the calls of
kernels/ the 0.81.1 headers' layouts and semantics, and each generated kernel is
read and checked as its LlkSource says, not as its hand listing is."""

from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model import dst_format as dfmt
from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu import kernels
from tensix_sfpu.model.dst_io import get_tile_bits32, get_tile_hi16
from tensix_sfpu.kernels import reduce, typecast
from tensix_sfpu.tb.llk.regenerate import compile_source
from tensix_sfpu.tb.llk.sources import find_tree
from tensix_sfpu.model import isa
from tensix_sfpu.model.isa import Arch

TREE = find_tree(Path(__file__).resolve().parent / "llk_tree", "wormhole")
KERNELS = kernels.all_kernels(Arch.WORMHOLE)


def generated_run(name):
    kernel = KERNELS[name]
    return kernels.run_kernel(kernel, program=compile_source(kernel, TREE, kernel.arch.value).program)


# The kernels the fixture tree has, and why the hand listing's reading or reference would not do.
@pytest.mark.parametrize("name", ["typecast_int32_to_uint16", "typecast_int32_to_uint16_twin",
                                  "typecast_fp32_to_fp16b_twin", "typecast_uint32_to_fp32_twin",
                                  "reduce_col_sum", "reduce_col_avg"])
def test_generated_kernel_is_bit_exact_against_its_source_reference(name):
    run = generated_run(name)
    ok, how = kernels.check_accuracy(run)
    assert ok, how
    kernel = KERNELS[name]
    hand_view = kernel.reference(run.inputs), kernel.result(run.result.state)
    hand_expected, hand_read = (np.asarray(a).ravel() for a in hand_view)
    # The hand listing's reading or reference is not the header's: at least one differs.
    assert not (np.array_equal(hand_read.view(np.uint8), np.asarray(run.outputs).ravel().view(np.uint8))
                and np.array_equal(hand_expected.view(np.uint8), np.asarray(run.expected).ravel().view(np.uint8)))


def test_lo16_store_puts_the_low_half_in_row_a_unshuffled():
    # SFPSTORE.md, Mod0 9: Dst32b = rotl(x, 16), raw; Dst.md: the datum's high half is row A.
    program = assemble("sfploadi vd=0 mod0=2 imm16=0x0100\nsfpstore vd=0 mod0=9 imm10=0\n")
    state = run_program(program, SfpuState(Arch.WORMHOLE)).state
    a, b = dfmt.dst32_rows(np.array([0]))
    assert state.dst[a[0], 0] == 0x0100 and state.dst[b[0], 0] == 0


def _fp32_high_half_of_raw(h: np.ndarray) -> np.ndarray:
    """A raw Dst32b high half (S, M[22:16], E) read back through the FP32 unshuffle: S, E, M[22:16]."""
    h = h.astype(np.uint32)
    return ((h & 0x8000) | ((h & 0xFF) << 7) | ((h >> 8) & 0x7F)).astype(np.uint16)


def test_int32_to_uint16_read_as_fp32_permutes_the_in_range_results():
    """Reading the mode-9 result as an FP32 datum's high half moves its bits (the FP32
    shuffle): only the values the shuffle leaves alone agree with the clamp, e.g. 0 and
    65535, so input 256 (0x0100) reads as 1."""
    run = generated_run("typecast_int32_to_uint16")
    expected = typecast.ref_int32_to_uint16(run.inputs)
    assert np.array_equal(get_tile_hi16(run.result.state), expected)
    through_fp32 = (get_tile_bits32(run.result.state) >> 16).astype(np.uint16)
    assert np.array_equal(through_fp32, _fp32_high_half_of_raw(expected))
    moved = _fp32_high_half_of_raw(expected) != expected
    assert moved.any() and (through_fp32 != expected).sum() == moved.sum()
    assert through_fp32[list(run.inputs).index(256)] == 1


def test_bf16_kept_as_fp32_keeps_denormals_that_the_bf16_store_flushes():
    x = np.array([0x00018000, 0x80008000, 0x007F8000, 0x3F808000, 0x3F818000], dtype=np.uint32).view(np.float32)
    kept = typecast.ref_fp32_to_bf16_kept(x).view(np.uint32)
    # 1.5 * 2^-133 rounds to even 2 * 2^-133; -2^-134 is a tie to the even 0 (-0); 0x007F8000 rounds up
    # to the smallest normal; 1 + 2^-8 is a tie to even (1.0), 1 + 3 * 2^-8 rounds up.
    assert kept.tolist() == [0x00020000, 0x80000000, 0x00800000, 0x3F800000, 0x3F820000]
    assert typecast.ref_fp32_to_bf16_rne(x).view(np.uint32).tolist()[0] == 0


def test_uint32_to_fp32_rounds_once():
    # 2^31 + 2^30 + 129 is 129 above a multiple of FP32's step there (256): once rounded, up. Rounding the
    # low 31 bits first (to 2^30 + 128, step 128) leaves a tie after adding 2^31, which goes to even, down.
    x = np.array([(1 << 31) + (1 << 30) + 129], dtype=np.uint32)
    assert typecast.uint32_to_fp32_once(x)[0] == np.float32(2.0 ** 31 + 2.0 ** 30 + 256)
    assert typecast.uint32_to_fp32(x)[0] == np.float32(2.0 ** 31 + 2.0 ** 30)


def test_column_sum_orders_differ_on_the_kernels_inputs():
    x = reduce.reduce_inputs(SfpuState(Arch.WORMHOLE), np.random.default_rng([0, 0x5F0]))
    assert not np.array_equal(reduce.col_sum_fp32(x), reduce.col_sum_fp32_rows_first(x))


def test_body_words_are_the_programs_architectures():
    """Blackhole's new instructions are SFPU words of a Blackhole body (tb.llk.regenerate)."""
    from tensix_sfpu.tb.llk.regenerate import body_words
    program = assemble(".arch blackhole\nsfpnop\n.mark body\nsfpmul24 vd=1 va=2 vb=3\nsfple vd=1 vc=2\n"
                       "sfpgt vd=1 vc=2\nsfparecip vd=1 vc=2\nsfpnop\n")
    assert [isa.opcode_of(w) for w in body_words(program)] == [
        isa.ISA[Arch.BLACKHOLE].opcodes[m].opcode for m in ("SFPMUL24", "SFPLE", "SFPGT", "SFPARECIP", "SFPNOP")]
