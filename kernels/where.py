"""where(c, a, b): tt-llk's Wormhole three-tile select, with SFPLOADMACRO and without."""

from __future__ import annotations

import numpy as np

from tensix_sfpu.model.dst_io import TILE_ADDRESSES, get_tile_fp32, put_tile_bits32

from . import Accuracy, Kernel, LlkSource
from tensix_sfpu.model.isa import Arch



def where_inputs(state, rng) -> np.ndarray:
    """c at tile 0, a at tile 1, b at tile 2 (FP32). About half the conditions
    are +0; the rest are nonzero words of every kind (normal, denormal, Inf,
    NaN) to show that only an all-zero word selects b. a and b hold special
    values too, which must come through bit for bit."""
    f32 = np.float32
    nonzero = rng.uniform(-1e3, 1e3, 1024).astype(f32)
    specials = np.array([1.0, -1.0, 1e-45, -1e-45, 1e-40, np.inf, -np.inf, np.nan,
                         np.finfo(f32).max, np.finfo(f32).tiny], dtype=f32)
    nonzero[:40] = np.resize(specials, 40)
    c = np.where(rng.random(1024) < 0.5, f32(0.0), nonzero)
    c[:2] = f32(0.0)
    a = rng.normal(0, 100, 1024).astype(f32)
    b = rng.normal(0, 100, 1024).astype(f32)
    payload = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-42, -1e-42], dtype=f32)
    a[40:104], b[40:104] = np.resize(payload, 64), np.resize(payload[::-1], 64)
    # Quiet NaNs with distinct payloads, which a float move could lose.
    a[104:108] = np.array([0x7FC00001, 0x7F800001, 0xFFC12345, 0x7FFFFFFF], dtype=np.uint32).view(f32)
    b[104:108] = np.array([0x7F812345, 0xFFFFFFFF, 0x7FC00002, 0xFF800001], dtype=np.uint32).view(f32)
    c[104:106], c[106:108] = f32(1.0), f32(0.0)
    tiles = np.stack([c, a, b])
    for i, t in enumerate(tiles):
        put_tile_bits32(state, t.view(np.uint32), base=i * TILE_ADDRESSES)
    return tiles


def tile_reader(tile: int):
    def read(state) -> np.ndarray:
        return get_tile_fp32(state, base=tile * TILE_ADDRESSES)
    return read


def numpy_where(tiles: np.ndarray) -> np.ndarray:
    c, a, b = tiles
    return np.where(c != 0, a, b)


WHERE_NOTES = ("Condition, true and false values as raw 32-bit words (Mod0 INT32), so payloads move "
               "bit for bit; the condition is SFPSETCC's integer test, so a -0.0 condition would "
               "choose a (tt-llk expects -0 flushed beforehand; the inputs hold none). ")
CLAIM = "ckernel_sfpu_where.h, comment above each SFPLOADMACRO schedule"
SETRWC_SUMMARY = "the claim counts the replayed row groups; each face adds 2 SETRWCs: 2 cycles per 8 row groups"
SETRWC_NOTE = ("The claim counts the replayed row groups only; the params wrapper's two SETRWCs "
               "after each face of eight row groups add 2/8 cycle per row.")

KERNELS = [
    Kernel("where_fp32", "where_fp32.s",
           "_calculate_where_<APPROX, DataFormat::Float32, 8> (SFPLOADMACRO, out != in0): "
           "c = tile 0, a = tile 1, b = tile 2, out = tile 3",
           where_inputs, tile_reader(3), numpy_where, Accuracy(True),
           # Four issue slots per row group (two macros, the load of b, the store),
           # two SETRWCs per face: 4 * (8 * 4 + 2) / 32; the last store is its own
           # thread instruction, before the trailing SETRWCs.
           cycles_per_row=4 * (8 * 4 + 2) / 32,
           claimed_cycles_per_row=4.0, claim=CLAIM, timing_note=SETRWC_NOTE, summary=SETRWC_SUMMARY,
           twin="where_fp32_nomacro",
           notes=WHERE_NOTES + "Macros 1 and 2 schedule SFPSETCC and SFPENCC on Simple beside "
                 "the loads, so the select costs no extra issue slots.",
           source_schedule=(
               "| t | Load | Simple | Store |\n"
               "|---|---|---|---|\n"
               "| 0 | L0 = c (macro 1) | | |\n"
               "| 1 | L0 = a (macro 2) | flags = (L0 == 0) | |\n"
               "| 2 | L0 = b where flagged | all flags set again | |\n"
               "| 3 | | | Dst[out] = L0 |\n"
               "| 4 | next row's c | | |\n"),
           timeline=(0, 8),
           llk_source=LlkSource("ckernel_sfpu_where.h",
                                "_calculate_where_<false, DataFormat::Float32, 8>(0, 1, 2, 3)",
                                "_init_where_<false>()", setup=(".addr_mod 6 dst_incr=2",),
                                regenerated="body words equal; Dst bit-identical (the ternary SFPU caller's "
                                            "ADDR_MOD_6 given as set-up)"), arch=Arch.WORMHOLE),
    Kernel("where_fp32_nomacro", "where_fp32_nomacro.s",
           "_calculate_where_<APPROX, DataFormat::Float32, 8> with DISABLE_SFPLOADMACRO: "
           "c = tile 0, a = tile 1, b = tile 2, out = tile 3",
           where_inputs, tile_reader(3), numpy_where, Accuracy(True),
           # Six one-cycle instructions per row group, two SETRWCs per face.
           cycles_per_row=4 * (8 * 6 + 2) / 32,
           notes=WHERE_NOTES + "The plain sequence the macro kernel must match bit for bit.",
           llk_source=LlkSource("ckernel_sfpu_where.h",
                                "_calculate_where_<false, DataFormat::Float32, 8>(0, 1, 2, 3)",
                                "_init_where_<false>()", ("DISABLE_SFPLOADMACRO",), setup=(".addr_mod 6 dst_incr=2",),
                                regenerated='body words equal; Dst bit-identical'), arch=Arch.WORMHOLE),
    Kernel("where_fp32_inplace", "where_fp32_inplace.s",
           "_calculate_where_<APPROX, DataFormat::Float32, 8> (SFPLOADMACRO, out == in0): "
           "c = tile 0 = out, a = tile 1, b = tile 2",
           where_inputs, tile_reader(0), numpy_where, Accuracy(True),
           # Three issue slots per row group, two SETRWCs per face; the store of the
           # last row group runs at T+3 of its macro, which is the cycle of the first
           # trailing SETRWC, so it adds nothing: 4 * (8 * 3 + 2) / 32.
           cycles_per_row=4 * (8 * 3 + 2) / 32,
           claimed_cycles_per_row=3.0, claim=CLAIM, timing_note=SETRWC_NOTE, summary=SETRWC_SUMMARY,
           twin="where_fp32_inplace_nomacro",
           notes=WHERE_NOTES + "Macro 0 also schedules the store, at cycle delay 2, to the "
                 "address it loaded c from, so it overlaps the next row group's first load.",
           source_schedule=(
               "| t | Load | Simple | Store |\n"
               "|---|---|---|---|\n"
               "| 0 | L0 = c (macro 0) | | |\n"
               "| 1 | L0 = a (macro 2) | flags = (L0 == 0) | |\n"
               "| 2 | L0 = b where flagged | all flags set again | |\n"
               "| 3 | next row's c | | Dst[c] = L0 |\n"),
           timeline=(0, 7),
           llk_source=LlkSource("ckernel_sfpu_where.h",
                                "_calculate_where_<false, DataFormat::Float32, 8>(0, 1, 2, 0)",
                                "_init_where_<false>()", setup=(".addr_mod 6 dst_incr=2",),
                                regenerated='body words equal; Dst bit-identical'), arch=Arch.WORMHOLE),
    Kernel("where_fp32_inplace_nomacro", "where_fp32_inplace_nomacro.s",
           "_calculate_where_<APPROX, DataFormat::Float32, 8> with DISABLE_SFPLOADMACRO: "
           "c = tile 0 = out, a = tile 1, b = tile 2",
           where_inputs, tile_reader(0), numpy_where, Accuracy(True),
           cycles_per_row=4 * (8 * 6 + 2) / 32,
           notes=WHERE_NOTES + "The plain sequence, writing over the condition tile.",
           llk_source=LlkSource("ckernel_sfpu_where.h",
                                "_calculate_where_<false, DataFormat::Float32, 8>(0, 1, 2, 0)",
                                "_init_where_<false>()", ("DISABLE_SFPLOADMACRO",), setup=(".addr_mod 6 dst_incr=2",),
                                regenerated='body words equal; Dst bit-identical'), arch=Arch.WORMHOLE),
]
