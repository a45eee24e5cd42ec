"""The kernel front end (`sfpu llk`) on the project's own fixture headers
(tests/tb/llk_fixtures): listings with the C++ line of every instruction,
results of the compiled kernels against numpy, and a clear error, naming the
C++ file and line, for everything it does not accept."""

from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import Instr
from tensix_sfpu.model.run import run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.tb.cli.main import main
from tensix_sfpu.model.dst_io import get_tile_bits32, get_tile_fp32, put_tile_bits32
from tensix_sfpu.tb.llk import headers
from tensix_sfpu.tb.llk.entries import entries
from tensix_sfpu.tb.llk.frontend import LlkError, Request, compile_call, with_cxx_location
from tensix_sfpu.model.isa import Arch

WORMHOLE_ISA = isa.ISA[isa.Arch.WORMHOLE]


FIXTURES = Path(__file__).resolve().parent / "llk_fixtures"
ADD_ONE = FIXTURES / "ckernel_sfpu_fixture_add_one.h"
BROKEN = FIXTURES / "ckernel_sfpu_fixture_broken.h"


def line_of(path: Path, text: str, nth: int = 0) -> int:
    """The line number of the nth line containing `text`, read from the fixture itself."""
    hits = [i for i, line in enumerate(path.read_text().splitlines(), start=1) if text in line]
    return hits[nth]


def compile_fixture(call, init=None, **kw):
    return compile_call(Request(ADD_ONE, call, init, **{"arch": "wormhole", **kw}))


def run_on_tile(listing, x):
    state = SfpuState(Arch.WORMHOLE)
    put_tile_bits32(state, x.view(np.uint32))
    result = run_program(listing.program, state)
    return get_tile_fp32(result.state), result


def test_ckernel_ops_has_every_sfpu_macro_of_the_isa_table():
    text = headers.ckernel_ops_h(Arch.WORMHOLE)
    for op in WORMHOLE_ISA.opcodes.values():
        for prefix in ("TT_OP_", "TTI_", "TT_"):
            assert f"#define {prefix}{op.llk_name}" in text, f"{prefix}{op.llk_name} missing"


def test_add_one_runs_and_adds_one_on_every_face():
    listing = compile_fixture("calculate_fixture_add_one<false, 8>()", "fixture_add_one_init<false>()")
    x = np.random.default_rng(1).uniform(-100, 100, 1024).astype(np.float32)
    got, _ = run_on_tile(listing, x)
    assert np.array_equal(got.view(np.uint32), (x + np.float32(1.0)).view(np.uint32))
    assert listing.frontend == "tti"


def test_every_instruction_names_its_cxx_line():
    listing = compile_fixture("calculate_fixture_add_one<false, 8>()", "fixture_add_one_init<false>()")
    add_line = line_of(ADD_ONE, "TTI_SFPADD(p_sfpu::LCONST_1")
    # SFPADD VA=L10 (1.0), VB=L0, VC=L10, VD=L0, Mod1=0: opcode 0x85, VA at bit 16, VB 12, VC 8, VD 4.
    add_word = (0x85 << 24) | (10 << 16) | (0 << 12) | (10 << 8) | (0 << 4)
    adds = [i for i in listing.program.items if isinstance(i, Instr) and i.word == add_word]
    assert len(adds) == 4 * 8
    lines = listing.text.splitlines()
    for item in adds:
        assert lines[item.loc.line - 1].endswith(f"ckernel_sfpu_fixture_add_one.h:{add_line}")


def test_a_call_split_over_lines_is_one_instruction():
    listing = compile_fixture("calculate_fixture_add_one<false, 1>()", "fixture_add_one_init<false>()")
    load_lines = [line for line in listing.text.splitlines() if line.startswith("TTI_SFPLOAD(")]
    assert len(load_lines) == 4
    first, second = line_of(ADD_ONE, "TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32,"), \
        line_of(ADD_ONE, "ADDR_MOD_3, 0);")
    assert any(line.endswith(f":{first}") or line.endswith(f":{second}") for line in load_lines)


def test_replay_records_and_replays():
    listing = compile_fixture("calculate_fixture_replay<false>()", "fixture_add_one_init<false>()")
    assert "TTI_REPLAY(0, 4, 1, 1);" in listing.text
    x = np.random.default_rng(2).uniform(-5, 5, 1024).astype(np.float32)
    got, _ = run_on_tile(listing, x)
    assert np.array_equal(got.view(np.uint32), (x + np.float32(1.0)).view(np.uint32))


def test_sfpi_constant_assignment_loads_the_constant_register():
    listing = compile_fixture("calculate_fixture_add_one<false, 8>()",
                              "fixture_add_one_init<false>(); fixture_constant_init<false>()")
    _, result = run_on_tile(listing, np.zeros(1024, np.float32))
    assert (result.state.lregs[12] == np.float32(3.0).view(np.uint32)).all()
    assert listing.frontend == "sfpi"


def test_hazard_stop_names_the_cxx_line(tmp_path):
    listing = compile_fixture("calculate_fixture_add_one_hazard<false, 8>()", "fixture_add_one_init<false>()")
    out = tmp_path / "hazard.s"
    out.write_text(listing.text)
    code = main(["run", str(out)])
    assert code == 3
    store = line_of(ADD_ONE, "TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);", 1)
    message = with_cxx_location(f"{out}:{_line_of_text(listing.text, 'TTI_SFPSTORE')}:1: hazard")
    assert message.startswith(f"{ADD_ONE}:{store}: ")


def _line_of_text(text, needle):
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(needle))


def test_missing_addr_mod_is_an_error_at_the_cxx_line():
    with pytest.raises(LlkError) as e:
        compile_fixture("calculate_fixture_add_one<false, 8>()")
    store = line_of(ADD_ONE, "TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);")
    assert f"ckernel_sfpu_fixture_add_one.h:{store}: SFPSTORE uses ADDR_MOD_2" in str(e.value)


def test_missing_fp32_dest_is_an_error_and_given_it_runs():
    with pytest.raises(LlkError) as e:
        compile_fixture("calculate_fixture_copy_default<false, 8>()", "fixture_add_one_init<false>()")
    assert "--fp32-dest" in str(e.value)
    assert f"ckernel_sfpu_fixture_add_one.h:{line_of(ADD_ONE, 'InstrModLoadStore::DEFAULT, ADDR_MOD_3')}" in str(e.value)
    listing = compile_fixture("calculate_fixture_copy_default<false, 8>()", "fixture_add_one_init<false>()",
                              fp32_dest=1)
    x = np.random.default_rng(3).uniform(-5, 5, 1024).astype(np.float32)
    got, _ = run_on_tile(listing, x)
    assert np.array_equal(got.view(np.uint32), x.view(np.uint32))


@pytest.mark.parametrize("call, needle, message", [
    ("calculate_fixture_sfpi<false, 8>()", "sfpi::lut2(v, table, table, table)", "SFPI: sfpi::lut2 is not modelled yet"),
    ("calculate_fixture_bad_register()", "TTI_SFPMOV(0, 17", "argument lreg_c=17 out of range 0..15"),
    ("calculate_fixture_wrcfg()", "TTI_WRCFG(0, 0, 0);", "TTI_WRCFG of a configuration register is not modelled"),
])
def test_unmodelled_constructs_name_the_cxx_line(call, needle, message):
    with pytest.raises(LlkError) as e:
        compile_fixture(call, "fixture_add_one_init<false>()")
    assert f"ckernel_sfpu_fixture_add_one.h:{line_of(ADD_ONE, needle)}:" in str(e.value)
    assert message in str(e.value)


def test_compile_error_names_the_cxx_line():
    with pytest.raises(LlkError) as e:
        compile_call(Request(BROKEN, "calculate_fixture_broken()", arch="wormhole"))
    assert f"ckernel_sfpu_fixture_broken.h:{line_of(BROKEN, 'this_is_not_declared')}: C++ compile error" in str(e.value)


def test_error_in_the_call_expression_names_it():
    with pytest.raises(LlkError) as e:
        compile_fixture("calculate_fixture_add_one<false, 8>(", "fixture_add_one_init<false>()")
    assert str(e.value).startswith("--call:1: C++ compile error")


def test_a_misspelt_function_gets_the_headers_closest(capsys):
    # g++ names the unknown name; the header's functions (those `sfpu llk --list` reads) hold the
    # right spelling, offered in place of g++'s own guess from every name in scope.
    for call, init, hint in (("calculate_fixture_add_onr<false>()", None, "calculate_fixture_add_one"),
                             ("calculate_fixture_add_one<false>()", "fixture_add_one_innit<false>()",
                              "fixture_add_one_init")):
        args = ["llk", str(ADD_ONE), "--call", call] + (["--init", init] if init else [])
        assert main(args) == 2
        [line] = capsys.readouterr().err.splitlines()
        assert line.endswith(f"was not declared in this scope (did you mean {hint}?)"), line
    # An unknown name inside the header is the header's bug, not a misspelt call: no guess.
    assert main(["llk", str(BROKEN), "--call", "calculate_fixture_broken()"]) == 2
    assert "did you mean" not in capsys.readouterr().err


def test_a_misspelt_header_gets_the_trees_closest(capsys):
    tree = Path(__file__).resolve().parent / "llk_tree"      # its headers: ckernel_sfpu_typecast.h, _reduce.h
    assert main(["llk", "ckernel_sfpu_typecastt.h", "--src", str(tree), "--call", "f()"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line == (f"sfpu: error: ckernel_sfpu_typecastt.h: no such header, nor under {tree} "
                    "(did you mean ckernel_sfpu_typecast.h?)")


SQUARE_LOW = FIXTURES / "ckernel_sfpu_fixture_bh_square_low.h"


def test_blackhole_kernel_records_blackhole_words_and_runs():
    listing = compile_call(Request(SQUARE_LOW, "calculate_fixture_square_low<false, 8>()",
                                   "fixture_square_low_init<false>()", arch="blackhole"))
    assert listing.text.startswith(".arch blackhole\n") and listing.program.arch is isa.BLACKHOLE
    words = listing.kernel_words()
    # TTI_SFPLOAD(0, INT32 4, ADDR_MOD_7, 0): 0x70 << 24 | Mod0 4 << 16 | AddrMod 7 << 13 = 0x7004E000.
    # TTI_SFPMUL24(VA 0, VB 0, VC 9, VD 1, Mod1 0): 0x98 << 24 | 9 << 8 | 1 << 4 = 0x98000910.
    # TTI_SFPSTORE(1, 4, ADDR_MOD_6, 0): 0x72 << 24 | VD 1 << 20 | 4 << 16 | 6 << 13 = 0x7214C000.
    assert words[:3] == [0x7004E000, 0x98000910, 0x7214C000]
    x = np.random.default_rng(2).integers(-2**31, 2**31, 1024, dtype=np.int64)
    state = SfpuState(arch=isa.BLACKHOLE)
    put_tile_bits32(state, x.astype(np.uint32))
    result = run_program(listing.program, state)
    # SFPMUL24.md, lower half with VC = L9 (zero): (a * b) & 0x7FFFFF of the 32-bit words.
    want = (x.astype(np.uint64) * x.astype(np.uint64)) & 0x7FFFFF
    assert np.array_equal(get_tile_bits32(result.state), want.astype(np.uint32))
    # The store right after the multiply waits one cycle in hardware: a stall, not a hazard.
    assert not result.hazards and sum(r.stalled is not None for r in result.trace) == 32
    # load_replay_buf and apply_sign_magnitude_conversion (Blackhole tt-llk helpers): per row
    # group SFPLOAD, SFPCAST(VC 0, VD 1, Mod1 2) = 0x90000012, SFPSETSGN(imm 0, VC 1, VD 0, 0) =
    # 0x89000100, SFPSTORE(0, 4, ADDR_MOD_6) = 0x7204C000; recorded once, replayed seven times.
    listing = compile_call(Request(SQUARE_LOW, "calculate_fixture_to_sign_magnitude<false, 8>()",
                                   "fixture_square_low_init<false>()", arch="blackhole"))
    assert listing.kernel_words() == [0x7004E000, 0x90000012, 0x89000100, 0x7204C000] * 8 * 4   # 4 faces
    # The same header for Wormhole stops at the instruction Wormhole lacks.
    with pytest.raises(LlkError, match="SFPMUL24"):
        compile_call(Request(SQUARE_LOW, "calculate_fixture_square_low<false, 8>()",
                             "fixture_square_low_init<false>()", arch="wormhole"))


def test_list_finds_entries_with_templates_and_inits():
    found = {e.name: e for e in entries(ADD_ONE)}
    add = found["calculate_fixture_add_one"]
    assert [(p.type, p.name, p.default) for p in add.function.template] == [
        ("bool", "APPROXIMATION_MODE", None), ("int", "ITERATIONS", "8")]
    assert add.inits[0].name == "fixture_add_one_init"


def test_cli_writes_a_listing_that_run_accepts(tmp_path, capsys):
    out = tmp_path / "add_one.s"
    assert main(["llk", str(ADD_ONE), "--call", "calculate_fixture_add_one<false, 8>()",
                 "--init", "fixture_add_one_init<false>()", "-o", str(out)]) == 0
    assert main(["run", str(out)]) == 0
    assert main(["llk", str(BROKEN), "--call", "calculate_fixture_broken()"]) == 2
    err = capsys.readouterr().err
    assert "C++ compile error" in err and "Traceback" not in err
    assert main(["llk", "--list", str(FIXTURES)]) == 0
    assert "calculate_fixture_add_one" in capsys.readouterr().out


def test_run_takes_a_header_and_names_the_cxx_line_of_a_hazard(capsys):
    assert main(["run", str(ADD_ONE), "--call", "calculate_fixture_add_one<false, 8>()",
                 "--init", "fixture_add_one_init<false>()"]) == 0
    assert main(["run", str(ADD_ONE), "--call", "calculate_fixture_add_one_hazard<false, 8>()",
                 "--init", "fixture_add_one_init<false>()"]) == 3
    store = line_of(ADD_ONE, "TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);", 1)
    err = capsys.readouterr().err
    assert f"stopped: {ADD_ONE}:{store}: " in err and "read-in-flight" in err


def test_sim_report_names_the_cxx_line_of_a_listing_line(tmp_path):
    # `sfpu sim` prints the lock-step run's report; a line naming a listing
    # that `sfpu llk` wrote gets the C++ location of that listing line.
    from tensix_sfpu.tb.cli.sim import with_cxx_lines
    listing = tmp_path / "k.s"
    listing.write_text("# header\nTTI_SFPNOP;  # ckernel_sfpu_x.h:42\n")
    report = f"mismatch in cycle 3\n{listing}:2:1: TTI_SFPNOP;: cycle 3: read-in-flight: ...\nseed 1"
    lines = with_cxx_lines(report).splitlines()
    assert lines[0] == "mismatch in cycle 3" and lines[2] == "seed 1"
    assert lines[1] == f"ckernel_sfpu_x.h:42: {listing}:2:1: TTI_SFPNOP;: cycle 3: read-in-flight: ..."


def test_tensix_nop_is_one_idle_issue_cycle():
    listing = compile_fixture("calculate_fixture_tensix_nop()", "fixture_add_one_init<false>()")
    nop_line = line_of(ADD_ONE, "TTI_NOP;")
    assert any(line.startswith("TTI_NOP;") and line.endswith(f"ckernel_sfpu_fixture_add_one.h:{nop_line}")
               for line in listing.text.splitlines())
    result = run_program(listing.program, SfpuState(Arch.WORMHOLE))
    nops = [r for r in result.trace if r.issued == 0x02000000]
    # Once per face: the thread's slot is taken, no sub-unit starts, nothing is written.
    assert len(nops) == 4 and all(not r.units and not r.lreg_writes for r in nops)



def test_a_header_is_named_as_the_command_line_gives_it(tmp_path, capsys, monkeypatch):
    """The tree as `--src` (the API says src=), or as the environment variable
    that gave it; `example:NAME` is a header of the package's examples."""
    monkeypatch.delenv("SFPU_LLK_SRC", raising=False)
    assert main(["llk", "no_such.h", "--call", "f()"]) == 2
    assert "no_such.h: no such header (a file name is looked up in a kernel tree: give --src DIR or set " \
           "SFPU_LLK_SRC)" in capsys.readouterr().err
    assert main(["llk", "no_such.h", "--call", "f()", "--src", str(tmp_path / "none")]) == 2
    assert f"--src {tmp_path / 'none'}: no such folder" in capsys.readouterr().err
    monkeypatch.setenv("SFPU_LLK_SRC", str(tmp_path / "none"))
    assert main(["llk", "no_such.h", "--call", "f()"]) == 2
    assert f"SFPU_LLK_SRC={tmp_path / 'none'}: no such folder" in capsys.readouterr().err
    monkeypatch.delenv("SFPU_LLK_SRC")
    out = tmp_path / "affine.s"
    assert main(["llk", "example:ckernel_sfpu_affine.h", "--call", "calculate_affine<false>()",
                 "--init", "affine_init<false>()", "--fp32-dest", "1", "-o", str(out)]) == 0
    assert "ckernel_sfpu_affine.h:" in out.read_text()        # its C++ lines, from the package's examples folder
