"""What tt-llk's SFPU kernels and the SFPI compiler assume at a kernel's
entry, written down once: the front end states it in every listing
(`.contract`, model/contract.py), and the model reports each part an op
leaves changed at its return (`state-left-changed`). Each part says where the
ttnn 0.81.1 wheel relies on it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Part:
    name: str                 # as model.contract.READERS names it
    value: int | None         # what every op leaves; None: a call leaves what its init set
    relied_on: str


CONTRACT: tuple[Part, ...] = (
    Part("L11", 0xBF800000,
         "-1.0: SFPI's vConstNeg1 (LREG11), which the compiler's subtractions and comparisons use; "
         "tt-llk puts it back with _restore_lconst_neg1_ (ckernel_sfpu_load_config.h); SFPCONFIG.md L74, "
         "its reset value"),
    *(Part(f"L{r}", None, f"vConstFloatPrgm{r - 12}: an op's init sets it and its calls read it, so a call "
                          "must leave it as the init did") for r in (12, 13, 14)),
    Part("lane_config", 0,
         "LaneConfig cleared by _init_sfpu_config_reg (SFPCONFIG(0, 0xF, 1)), which "
         "_llk_math_eltwise_unary_sfpu_init_once_ runs once per kernel, not per op"),
    Part("macro_misc_delay_kind", 0,
         "LoadMacroConfig.Misc disarmed (no UnitDelayKind bit): ckernel_sfpu_typecast.h's "
         "disarm_sfploadmacro_misc, for the Wormhole hang of tt-metal#46751"),
    Part("lanes_enabled", 32,
         "every lane enabled: the firmware's SFPENCC, which no op sets again; SFPI's v_if/v_endif restore it"),
    Part("flag_stack_depth", 0, "the flag stack empty: SFPI's v_if pushes and v_endif pops"),
    Part("addr_mod7_dst_incr", 0,
         "ADDR_MOD_7's zero increments, set once per kernel by _llk_math_eltwise_unary_sfpu_init_once_"),
)


def contract_lines() -> list[str]:
    """The contract as listing directives."""
    return [f".contract {p.name} = 0x{p.value:X}" if p.value is not None else f".contract {p.name} keep"
            for p in CONTRACT]
