"""tt-llk's Blackhole kernels: the C++ call of each Wormhole kernel below,
compiled from the Blackhole headers by the front end and written to
kernels/blackhole/ by `python -m tb.llk.regenerate --arch blackhole --write
DIR NAME` (ttnn 0.81.1's headers). Each keeps its Wormhole kernel's inputs,
numpy reference, tolerance and twin, and carries the Blackhole source's own
cycle claim, where it makes one.

Left out, with the reason (docs/blackhole.md, Kernels): the calls whose
Wormhole reference follows an older source than the 0.81.1 headers
(typecast uint32->fp32, int32->uint16 and fp32->fp16b, the column sum and
average), and sigmoid, whose Blackhole build gives +0 where numpy gives -0.
"""

from __future__ import annotations

import dataclasses

from tensix_sfpu.model.isa import Arch

import numpy as np

from tensix_sfpu.model.dst_io import TILE_ADDRESSES, get_tile_bits16, put_tile_bits16

from . import Accuracy, Kernel, LlkSource, exp, int_ops, nonlinear, reduce, typecast, where

_WORMHOLE = {k.name: k for module in (exp, int_ops, nonlinear, reduce, typecast, where) for k in module.KERNELS}

def _blackhole(name: str, claimed: float | None = None, claim: str = "", timing_note: str = "",
               notes: str = "", allow: tuple[str, ...] | None = None, twin: str | None = "",
               of: str | None = None, defines: tuple[str, ...] | None = None, summary: str = "") -> Kernel:
    """The Wormhole kernel `of` (default `name`)'s call on Blackhole. `allow` replaces the
    rules its source breaks on purpose, `defines` its preprocessor definitions, `twin` its
    twin (None: none), where Blackhole's differ."""
    k = _WORMHOLE[of or name]
    src = k.llk_source
    src = dataclasses.replace(src, allow=src.allow if allow is None else allow, regenerated="",
                              defines=src.defines if defines is None else defines)
    return dataclasses.replace(
        k, name=name, arch=Arch.BLACKHOLE, source=f"blackhole/{name}.s",
        llk=f"`{src.call}`{' with ' + ', '.join(src.defines) if src.defines else ''} (Blackhole {src.header})",
        cycles_per_row=None, claimed_cycles_per_row=claimed, claim=claim, timing_note=timing_note, summary=summary,
        notes=notes, source_schedule="", timeline=None, strict=True, twin=k.twin if twin == "" else twin,
        llk_source=src)


TYPECAST = "ckernel_sfpu_typecast.h"
TAIL = "per face, the trailing SFPNOPs that let the last sequence finish and the caller's two SETRWCs"

KERNELS = [
    _blackhole("exp_fast"),
    _blackhole("exp_fast_twin"),
    _blackhole("exp_fast_replay", 2.125, "ckernel_sfpu_exp.h:680, \"~68 cycles for 32 elements\"",
               "70 cycles a tile: the 64 replayed instructions (32 SFPLOADMACROs, 32 SFPSHFT2s), the two "
               "drain SFPSHFT2s and four drain SFPNOPs; the source's ~68 leaves out the SFPNOPs"),
    _blackhole("exp_fast_replay_twin"),
    _blackhole("exp_accurate"),
    _blackhole("mul_uint16", 2, "ckernel_sfpu_mul_int.h:36, 2 cycles when dst_index_in0 == dst_index_out",
               f"84 cycles a tile: 32 x (SFPLOAD, SFPLOADMACRO) = 64 at the claim, then {TAIL} (3 + 2)"),
    _blackhole("mul_uint16_nomacro"),
    # ckernel_sfpu_recip.h's FP32 schedule puts its SFPSWAP on Simple in a cycle with nothing on MAD,
    # without the SFPNOP on MAD the SFPSWAP page asks for, as Wormhole's exp_fast does.
    _blackhole("reciprocal", 5, "ckernel_sfpu_recip.h:157, FP32 reciprocal \"throughput of 5c/32\"",
               "204 cycles a tile: per face 40 at the claim (8 row groups), then the sequence's drain "
               "(REPLAY of 1 and of 2 instructions, six SFPNOPs) and the caller's two SETRWCs: 11",
               allow=("swap-mad-nop",), twin="reciprocal_nomacro",
               notes="The FP32 path, `_calculate_reciprocal_fast_24b_5c_`: SFPARECIP, then a cubic correction "
                     "with three SFPMADs and an SFPSWAP that turns NaN into 1.0, scheduled by SFPLOADMACRO and "
                     "replayed. The schedule runs its SFPSWAP without an SFPNOP scheduled on MAD "
                     "(`.allow swap-mad-nop`), as Wormhole's fast exp does."),
    _blackhole("reciprocal_nomacro", of="reciprocal", defines=("DISABLE_SFPLOADMACRO",),
               allow=("stall-gap-swap",), twin=None,
               notes="The same call with DISABLE_SFPLOADMACRO: one row group at a time. Its SFPSWAP "
                     "(ckernel_sfpu_recip.h:167) compares L3 in the cycle after the SFPMAD that writes it "
                     "(:166). Blackhole's stall logic does not see an SFPSWAP's first-cycle reads (SFPMAD.md's "
                     "list of stall-logic bugs), so nothing holds the SFPSWAP: by the documentation it "
                     "compares the old L3, a finding for tt-metal. The listing allows the rule "
                     "(`.allow stall-gap-swap`); the model then compares the old value, as docs/timing.md "
                     "says, and on these inputs Dst still equals the macro kernel's, since no lane's "
                     "correction is a NaN.",
               summary="relies on an SFPSWAP read the stall logic misses (ckernel_sfpu_recip.h:167)"),
    _blackhole("gelu"),
    _blackhole("reduce_col_max"),
    _blackhole("reduce_row_sum"),
    _blackhole("reduce_row_max"),
    _blackhole("typecast_fp32_to_uint16", 2, f"{TYPECAST}:56, \"throughput of 2 cycles per input row\"",
               f"84 cycles a tile: 32 x (SFPLOADMACRO, SFPNOP) = 64 at the claim, then {TAIL} (3 + 2)"),
    _blackhole("typecast_fp32_to_uint16_twin"),
    _blackhole("typecast_uint16_to_fp16b", 1, f"{TYPECAST}:108, \"throughput of 1 cycle per input row\"",
               f"52 cycles a tile: 32 SFPLOADMACROs at the claim, then {TAIL} (3 + 2)"),
    _blackhole("typecast_uint16_to_fp16b_twin"),
    _blackhole("typecast_int32_to_fp16b", 4, f"{TYPECAST}:146, \"throughput of 4 cycles per input row\"",
               "164 cycles a tile: 32 x (SFPLOADMACRO, SFPABS, SFPSHFT2, SFPCAST) = 128 at the claim; per face "
               "two SFPLOADIs of the constants before the loop, five trailing SFPNOPs and the caller's two "
               "SETRWCs (9)"),
    _blackhole("typecast_int32_to_fp16b_twin"),
    _blackhole("typecast_int32_to_fp32", 4, f"{TYPECAST}:343, \"throughput of 4 cycles per input row\"",
               "160 cycles a tile: 32 x (SFPLOADMACRO, SFPABS, SFPSHFT2, SFPCAST) = 128 at the claim; per face "
               "two SFPLOADIs of the constants before the loop, four trailing SFPNOPs and the caller's two "
               "SETRWCs (8)"),
    _blackhole("typecast_int32_to_fp32_twin"),
    _blackhole("typecast_uint32_to_fp16b", 3, f"{TYPECAST}:399, \"throughput of 3 cycles per input row\"",
               "132 cycles a tile: 32 x (SFPLOADMACRO, SFPSHFT2, SFPSETSGN) = 96 at the claim; per face two "
               "SFPLOADIs of the constants before the loop, five trailing SFPNOPs and the caller's two "
               "SETRWCs (9)"),
    _blackhole("typecast_uint32_to_fp16b_twin"),
    _blackhole("where_fp32", 4, "ckernel_sfpu_where.h:76, \"4 cycles per input row of 32 values\"",
               "136 cycles a tile: 32 x (two SFPLOADMACROs, SFPLOAD, SFPSTORE) = 128 at the claim, and per "
               "face the caller's two SETRWCs"),
    _blackhole("where_fp32_nomacro"),
    _blackhole("where_fp32_inplace", 3, "ckernel_sfpu_where.h:50, \"3 cycles per input row of 32 values\"",
               "104 cycles a tile: 32 x (two SFPLOADMACROs, SFPLOAD) = 96 at the claim, and per face the "
               "caller's two SETRWCs"),
    _blackhole("where_fp32_inplace_nomacro"),
]


# _mul_int_'s other two shapes, which Wormhole's kernel table does not have: all three
# indices equal (one load per row group) and all different (out in tile 2).
MUL_INT = "ckernel_sfpu_mul_int.h"
_MUL_INT_INIT = "_init_mul_int_<false>()"


def _mul_int_source(call: str, nomacro: bool = False, allow: tuple[str, ...] = ()) -> LlkSource:
    return LlkSource(MUL_INT, call, _MUL_INT_INIT, ("DISABLE_SFPLOADMACRO",) if nomacro else (), fp32_dest=0,
                     setup=(".addr_mod 6 dst_incr=2",), allow=allow)


def _uint16_square_input(state, rng) -> np.ndarray:
    """One uint16 tile at tile 0 (the byte-boundary edge cases of `int_ops.uint16_pair`'s a)."""
    a = int_ops.uint16_pair(state, rng)[0]
    put_tile_bits16(state, np.zeros(1024, np.uint16), base=TILE_ADDRESSES)   # tile 1 unused
    return a


def _wrapping_square16(a: np.ndarray) -> np.ndarray:
    return int_ops.wrapping_mul16(np.stack([a, a]))


def _tile2(state) -> np.ndarray:
    return get_tile_bits16(state, base=2 * TILE_ADDRESSES)


SQUARE = "_mul_int_<false, 8>(0, 0, 0)"
THREE_TILES = "_mul_int_<false, 8>(0, 1, 2)"
_SQUARE_NOTE = (
    "All three indices equal: one SFPLOADMACRO per row group, back to back, each scheduling "
    "SFPMUL24 into L16 with delay 0 and the store of L16 with delay 2 (macro 0, "
    "ckernel_sfpu_mul_int.h:121-133; the loop at :77). The store of the macro issued at T runs at "
    "T+3 and wants the product the SFPMUL24 of T+1 wrote at the end of T+2; but in T+3 the "
    "SFPMUL24 of the next macro, run at T+2, is writing L16 too. SFPMAD.md's scheduling rule, "
    "which SFPMUL24.md refers to, is about location: no instruction may read, in the next cycle, a "
    "location an SFPMAD-class instruction writes (Blackhole's thread stalls exactly there), and "
    "inside SFPLOADMACRO sequences nothing stalls, so software must keep the gap. The schedule "
    "relies on the read returning the older product, which the pages do not promise: the "
    "kernel's own hazard, not the model's, so the listing allows `read-in-flight`. The model, "
    "allowed to, gives the read the older value (docs/timing.md), and Dst equals numpy's square.")

KERNELS += [
    Kernel("mul_uint16_square", "blackhole/mul_uint16_square.s", f"`{SQUARE}` (Blackhole {MUL_INT})",
           _uint16_square_input, get_tile_bits16, _wrapping_square16, Accuracy(True),
           claimed_cycles_per_row=1, claim=f"{MUL_INT}:36, 1 cycle when all three indices are equal",
           timing_note="52 cycles a tile: 32 SFPLOADMACROs at the claim, then per face the three trailing "
                       "SFPNOPs and the caller's two SETRWCs",
           twin="mul_uint16_square_nomacro", notes=_SQUARE_NOTE,
           summary="relies on reading L16 in the cycle the next SFPMUL24 writes it (ckernel_sfpu_mul_int.h:77)",
           arch=Arch.BLACKHOLE, llk_source=_mul_int_source(SQUARE, allow=("read-in-flight",))),
    Kernel("mul_uint16_square_nomacro", "blackhole/mul_uint16_square_nomacro.s",
           f"`{SQUARE}` with DISABLE_SFPLOADMACRO (Blackhole {MUL_INT})",
           _uint16_square_input, get_tile_bits16, _wrapping_square16, Accuracy(True),
           arch=Arch.BLACKHOLE, llk_source=_mul_int_source(SQUARE, nomacro=True)),
    Kernel("mul_uint16_3tiles", "blackhole/mul_uint16_3tiles.s", f"`{THREE_TILES}` (Blackhole {MUL_INT})",
           int_ops.uint16_pair, _tile2, int_ops.wrapping_mul16, Accuracy(True),
           claimed_cycles_per_row=3, claim=f"{MUL_INT}:36, 3 cycles when the three indices differ",
           timing_note="116 cycles a tile: 32 x (SFPLOAD, SFPLOADMACRO, SFPLOAD) = 96 at the claim, then "
                       "per face the three trailing SFPNOPs and the caller's two SETRWCs",
           twin="mul_uint16_3tiles_nomacro", arch=Arch.BLACKHOLE, llk_source=_mul_int_source(THREE_TILES)),
    Kernel("mul_uint16_3tiles_nomacro", "blackhole/mul_uint16_3tiles_nomacro.s",
           f"`{THREE_TILES}` with DISABLE_SFPLOADMACRO (Blackhole {MUL_INT})",
           int_ops.uint16_pair, _tile2, int_ops.wrapping_mul16, Accuracy(True),
           arch=Arch.BLACKHOLE, llk_source=_mul_int_source(THREE_TILES, nomacro=True)),
]
