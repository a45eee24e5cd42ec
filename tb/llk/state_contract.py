"""What tt-llk's SFPU kernels and the SFPI compiler assume at a kernel's
entry, written down once: the front end states it in every listing
(`.contract`, model/contract.py), and the model reports each part an op
leaves changed at its return (`state-left-changed`). Each part says where the
ttnn 0.81.1 wheel relies on it."""

from __future__ import annotations

from dataclasses import dataclass

from tensix_sfpu.model.isa import Arch


@dataclass(frozen=True)
class Part:
    name: str                 # as model.contract.READERS names it
    value: int | None         # what every op leaves; None: a call leaves what its init set
    relied_on: str
    feature: str | None = None  # only on architectures with this `Features` flag


# Not in it: LaneConfig and ADDR_MOD_7, which every op's `_llk_math_eltwise_unary_sfpu_init_`
# re-establishes (`_init_sfpu_config_reg`, `eltwise_unary_sfpu_configure_addrmod`; the driver runs
# that part before each op of a chain, as tt-llk does).
CONTRACT: tuple[Part, ...] = (
    Part("L11", 0xBF800000,
         "-1.0: SFPI's vConstNeg1 (LREG11), which the compiler's subtractions and comparisons use; "
         "tt-llk puts it back with _restore_lconst_neg1_ (ckernel_sfpu_load_config.h); SFPCONFIG.md L74, "
         "its reset value"),
    *(Part(f"L{r}", None, f"vConstFloatPrgm{r - 12}: an op's init sets it and its calls, one per tile after "
                          "one init, read it: a call that read it must leave it as the init did") for r in (12, 13, 14)),
    Part("macro_misc_delay_kind", 0,
         "LoadMacroConfig.Misc disarmed (no UnitDelayKind bit): ckernel_sfpu_typecast.h's "
         "disarm_sfploadmacro_misc, for the Wormhole hang of tt-metal#46751; Blackhole tolerates it",
         feature="armed_macro_hazard"),
    Part("lanes_enabled", 32,
         "every lane enabled: the firmware's SFPENCC, which no op sets again; SFPI's v_if/v_endif restore it"),
    Part("flag_stack_depth", 0, "the flag stack empty: SFPI's v_if pushes and v_endif pops"),
)


def contract_lines(arch: Arch) -> list[str]:
    """The contract of `arch` as listing directives."""
    parts = [p for p in CONTRACT if p.feature is None or getattr(arch.features, p.feature)]
    return [f".contract {p.name} keep" if p.value is None else
            f".contract {p.name} = 0x{p.value:08X}" if p.name.startswith("L") else f".contract {p.name} = {p.value}"
            for p in parts]
