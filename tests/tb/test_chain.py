"""Chains of ops on one thread (`api.compile_kernels`, `--call`/`--init`
repeated, `--sequence FILE`) and the state contract checked at each op's
return (tb/llk/state_contract.py, model/contract.py), on the fixture chain
tests/tb/llk_fixtures/ckernel_sfpu_fixture_chain.h: an exp-like op whose init
puts its coefficient in L11, which SFPI code relies on holding -1.0."""

import json
from pathlib import Path

import pytest

from tensix_sfpu.model.asm import AsmError, assemble
from tensix_sfpu.model.run import run_program
from tensix_sfpu.tb import api
from tensix_sfpu.tb.cli.main import main
from tensix_sfpu.tb.llk.frontend import with_cxx_locations

FIXTURE = Path(__file__).resolve().parent / "llk_fixtures" / "ckernel_sfpu_fixture_chain.h"
ARCHS = ["wormhole", "blackhole"]


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(FIXTURE.read_text().splitlines(), 1) if text in line)


def contract_findings(exp_init: str, exp_call: str, arch: str) -> list:
    defines = ("FIXTURE_BLACKHOLE",) if arch == "blackhole" else ()
    listing = api.compile_kernels([(FIXTURE, exp_call, exp_init), (FIXTURE, "calculate_fixture_frac()",
                                                                   "fixture_frac_init()")], arch=arch, defines=defines)
    result = run_program(listing.program, strict=True)
    return [h for h in result.hazards if h.rule == "state-left-changed"]


@pytest.mark.parametrize("arch", ARCHS)
def test_exp_clobbering_l11_is_reported_at_its_return_with_the_sfpconfig_line(arch):
    [finding] = contract_findings("fixture_exp_init()", "calculate_fixture_exp()", arch)
    assert finding.source.endswith(".op return 1 calculate_fixture_exp()")
    message = with_cxx_locations(finding.message)
    # -1.0 is what SFPI's vConstNeg1 needs; 0x3FB8 << 16 is what the init's SFPLOADI put in L0 and SFPCONFIG copied.
    assert "L11 = 0x3FB80000 where the op after it expects 0xBF800000" in message
    assert f"ckernel_sfpu_fixture_chain.h:{line_of('TTI_SFPCONFIG(0, 11, 0);')}: " in message


@pytest.mark.parametrize("arch", ARCHS)
def test_the_fixed_exp_leaves_the_contract_alone(arch):
    assert contract_findings("fixture_exp_init_fixed()", "calculate_fixture_exp_fixed()", arch) == []


KEEP = ".contract L12 keep\nsfploadi vd=0 mod0=0 imm16=0x4000\nsfpconfig vd=12\n.op entry 1 op\n"
CHANGE_L12 = "sfploadi vd=0 mod0=0 imm16=0x4040\nsfpconfig vd=12\n"


def test_a_call_that_reads_what_its_init_set_and_changes_it_breaks_keep():
    # The next tile's call, after no init, reads 3.0 where the init put 2.0.
    [h] = run_program(assemble(KEEP + "sfpmov vd=1 vc=12\n" + CHANGE_L12 + ".op return 1 op\n")).hazards
    assert h.rule == "state-left-changed" and "L12 = 0x40400000 where the op after it expects 0x40000000" in h.message


def test_a_call_that_sets_a_constant_before_reading_it_owns_it():
    assert run_program(assemble(KEEP + CHANGE_L12 + "sfpmov vd=1 vc=12\n.op return 1 op\n")).hazards == []


def test_an_op_that_leaves_an_earlier_break_alone_is_not_blamed():
    text = (".contract L11 = 0xBF800000\nsfpconfig vd=11\n.op return 1 first\n.op return 2 second\n")
    assert [h.source.split()[-1] for h in run_program(assemble(text)).hazards] == ["first"]


@pytest.mark.parametrize("text, message", [
    (".contract L17 = 1\n", "no contract register 'L17'"),
    (".contract L11 maybe\n", ".contract expects `NAME = VALUE` or `NAME keep`"),
    (".op begin 1\n", ".op expects `entry N [NAME]` or `return N [NAME]`"),
])
def test_a_bad_contract_directive_is_an_error_at_its_line(text, message):
    with pytest.raises(AsmError) as err:
        assemble(text)
    assert str(err.value).startswith("<input>:1:") and message in str(err.value)


def test_an_empty_chain_is_an_error():
    with pytest.raises(api.ApiError, match="empty"):
        api.compile_kernels([])


def run_cli(argv, capsys):
    code = main([str(a) for a in argv])
    return (code, *capsys.readouterr())


def test_the_command_line_runs_a_chain_from_repeated_pairs_and_from_a_sequence_file(capsys, tmp_path):
    pairs = ["--init", "fixture_exp_init()", "--call", "calculate_fixture_exp()",
             "--init", "fixture_frac_init()", "--call", "calculate_fixture_frac()"]
    code, out, err = run_cli(["run", FIXTURE, *pairs, "--json", tmp_path / "a.json"], capsys)
    assert code == 0 and "state-left-changed" in err
    sequence = tmp_path / "chain.txt"
    sequence.write_text(f"# exp then frac\n{FIXTURE} | fixture_exp_init() | calculate_fixture_exp()\n"
                        f"{FIXTURE} | fixture_frac_init() | calculate_fixture_frac()\n")
    code, out, err = run_cli(["run", "--sequence", sequence, "--json", tmp_path / "b.json"], capsys)
    assert code == 0
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("a.json", "b.json"))
    assert a["hazards"] == b["hazards"] and [h["class"] for h in a["hazards"]] == ["state-contract"]


@pytest.mark.parametrize("argv, message", [
    (["--call", "a()", "--call", "b()", "--init", "x()"], "2 --call and 1 --init"),
    (["--sequence", "{empty}"], "the sequence is empty"),
    (["--sequence", "{headless}"], "expected HEADER | INIT | CALL"),
])
def test_a_bad_chain_is_a_clear_error(argv, message, capsys, tmp_path):
    (tmp_path / "empty.txt").write_text("# nothing\n")
    (tmp_path / "headless.txt").write_text("calculate_fixture_frac()\n")
    argv = [a.format(empty=tmp_path / "empty.txt", headless=tmp_path / "headless.txt") for a in argv]
    header = [] if "--sequence" in argv else [FIXTURE]
    code, out, err = run_cli(["llk", *header, *argv], capsys)
    assert code == 2 and message in err and "Traceback" not in err
