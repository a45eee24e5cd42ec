"""The silent-effect rules on fixture kernels (tests/tb/llk_fixtures/
ckernel_sfpu_fixture_silent.h), compiled with `sfpu llk` for both
architectures: each bug is flagged by its rule at its C++ line, and its fixed
twin is not. What each fixture does wrong comes from the pages the rules cite
(model.silent), not from the model's output."""

from pathlib import Path

import pytest

from tensix_sfpu.model.hazards import rule_class
from tensix_sfpu.model.run import run_program
from tensix_sfpu.tb.llk.frontend import LlkError, Request, compile_call, cxx_of_message

FIXTURE = Path(__file__).resolve().parent / "llk_fixtures" / "ckernel_sfpu_fixture_silent.h"
ARCHS = ["wormhole", "blackhole"]


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(FIXTURE.read_text().splitlines(), 1) if text in line)


def silent_findings(call: str, init: str, arch: str, **kw) -> list[tuple[str, str]]:
    """(rule, the finding with its C++ line) of each silent effect."""
    defines = ("FIXTURE_BLACKHOLE",) if arch == "blackhole" else ()
    listing = compile_call(Request(FIXTURE, call, init, arch=arch, defines=defines, **kw))
    result = run_program(listing.program, strict=False, keep_trace=False)
    return [(h.rule, cxx_of_message(str(h), listing)) for h in result.hazards if rule_class(h.rule) == "silent-effect"]


CASES = [
    # (bug, init, the rule, the C++ text of the line it names, caller settings)
    ("calculate_fixture_dropped_write", "fixture_silent_init", "dropped-write",
     "TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LCONST_0, 1);", {}),
    ("calculate_fixture_store_constant", "fixture_silent_init", "store-from-constant",
     "TTI_SFPSTORE(p_sfpu::LREG12", {}),
    ("calculate_fixture_store_bf16", "fixture_silent_init", "store-half-datum",
     "TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP16B", {"fp32_dest": 1}),
    ("calculate_fixture_transpose_scale", "fixture_scale_init", "clobbered-live",
     "TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG4", {}),
    ("calculate_fixture_swap_threshold", "fixture_threshold_init", "clobbered-live",
     "in the threshold's LReg", {}),
]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("bug, init, rule, cxx, settings", CASES, ids=[c[0][18:] for c in CASES])
def test_bug_is_flagged_at_its_line_and_its_fixed_twin_is_not(arch, bug, init, rule, cxx, settings):
    found = silent_findings(f"{bug}()", f"{init}()", arch, **settings)
    assert {r for r, _ in found} == {rule}
    assert f"ckernel_sfpu_fixture_silent.h:{line_of(cxx)}: " in found[0][1]
    assert silent_findings(f"{bug}_fixed()", f"{init}()", arch, **settings) == []


@pytest.mark.parametrize("arch", ARCHS)
def test_an_argument_wider_than_its_field_is_a_warning_at_its_cxx_line(arch):
    defines = ("FIXTURE_BLACKHOLE",) if arch == "blackhole" else ()
    listing = compile_call(Request(FIXTURE, "calculate_fixture_wide_offset()", "fixture_silent_init()", arch=arch,
                                   defines=defines))
    [warning] = listing.field_warnings
    assert warning.where.endswith(f"ckernel_sfpu_fixture_silent.h:{line_of('1024 + 4')}")
    # Imm10 (SFPLOAD.md) holds bits 0-9 of the offset: 1028 keeps 4.
    assert "dest_reg_addr=1028" in warning.text and "bits 0x400" in warning.text and "keeps 4" in warning.text
    fixed = compile_call(Request(FIXTURE, "calculate_fixture_wide_offset_fixed()", "fixture_silent_init()",
                                 arch=arch, defines=defines))
    assert fixed.field_warnings == []
    with pytest.raises(LlkError, match=r"ckernel_sfpu_fixture_silent.h:\d+: TTI_SFPLOAD argument dest_reg_addr=1028 .*"
                                       r"--strict-fields"):
        compile_call(Request(FIXTURE, "calculate_fixture_wide_offset()", "fixture_silent_init()", arch=arch,
                             defines=defines, strict_fields=True))
