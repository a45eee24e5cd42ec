"""Tests for the `sfpu` command line (tb/cli/).

Final machine states are worked by hand from the spec (§1.1 constants,
§2.3 SFPIADD/SFPENCC/SFPSETCC/SFPPUSHC, §4.3 SFPSWAP, §4.8 SFPLOADI,
§4.9 SFPSTORE UINT16, §1.5 addressing, §2.2 SWAP interlock timing).
"""

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model.asm import assemble
from tensix_sfpu.model.hazards import RULES
from tensix_sfpu.tb.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

ROOT = Path(__file__).resolve().parents[2]
MASK32 = 0xFFFFFFFF


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def run_cli(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------
# asm
# ---------------------------------------------------------------------------

PROGRAM = """\
# three instructions, a directive and a comment
.fp32_dest 1
TTI_SFPMAD(12, 0, 13, 13, 0);
sfpshft imm12=15 vc=0 vd=15 mod1=1   // TTI_SFPSHFT(15,0,15,1)

.word 0x8F000000
"""


def test_asm_prints_one_word_per_instruction(tmp_path, capsys):
    src = write(tmp_path / "p.s", PROGRAM)
    code, out, err = run_cli(["asm", src], capsys)
    assert code == 0, err
    assert out == "0x840C0DD0\n0x7A00F0F1\n0x8F000000\n"


def test_asm_output_file(tmp_path, capsys):
    src = write(tmp_path / "p.s", PROGRAM)
    hexfile = tmp_path / "p.hex"
    code, out, err = run_cli(["asm", src, "-o", hexfile], capsys)
    assert code == 0, err
    assert out == ""
    assert hexfile.read_text() == "0x840C0DD0\n0x7A00F0F1\n0x8F000000\n"
    # and back again
    code, out, err = run_cli(["disasm", "-f", hexfile], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 3
    assert assemble("\n".join(lines)).words == [0x840C0DD0, 0x7A00F0F1, 0x8F000000]


def test_asm_error_names_file_line_column(tmp_path, capsys):
    src = write(tmp_path / "bad.s", "sfpnop\n\n  TTI_SFPMAD(1, 2, 3, 99, 0);\n")
    code, out, err = run_cli(["asm", src], capsys)
    assert code == 2
    # 99 sits at column 23 of line 3
    assert f"{src}:3:23:" in err
    assert "lreg_dest" in err and "Traceback" not in err
    assert out == ""


def test_asm_missing_file(tmp_path, capsys):
    code, out, err = run_cli(["asm", tmp_path / "nope.s"], capsys)
    assert code == 2
    assert "nope.s" in err and "Traceback" not in err


# ---------------------------------------------------------------------------
# disasm
# ---------------------------------------------------------------------------

def test_disasm_words(capsys):
    code, out, err = run_cli(["disasm", "840C0DD0", "7A00F0F1", "0x920000E1"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].split()[0] == "sfpmad"
    assert set(lines[0].split()[1:]) == {"vd=13", "va=12", "vb=0", "vc=13", "mod1=0"}
    assert lines[1].split()[0] == "sfpshft"
    assert set(lines[1].split()[1:]) == {"vd=15", "vc=0", "imm12=15", "mod1=1"}
    assert lines[2].split()[0] == "sfpswap"
    assert set(lines[2].split()[1:]) == {"vd=14", "vc=0", "mod1=1"}
    assert assemble(out).words == [0x840C0DD0, 0x7A00F0F1, 0x920000E1]


def test_disasm_llk(capsys):
    code, out, err = run_cli(["disasm", "--llk", "840C0DD0", "8E0000EE"], capsys)
    assert code == 0, err
    assert [l.replace(" ", "") for l in out.splitlines()] == ["TTI_SFPMAD(12,0,13,13,0);",
                                                             "TTI_SFP_STOCH_RND(0,0,0,0,14,14);"]


def test_disasm_file_with_comments(tmp_path, capsys):
    f = write(tmp_path / "w.hex", "# words\n0x840C0DD0\n\n7A00F0F1 920000E1  # two on a line\n")
    code, out, err = run_cli(["disasm", "-f", f, "--llk"], capsys)
    assert code == 0, err
    assert assemble(out).words == [0x840C0DD0, 0x7A00F0F1, 0x920000E1]


def test_disasm_ignored_bits_prints_word(capsys):
    code, out, err = run_cli(["disasm", "70003C00"], capsys)
    assert code == 0, err
    assert out.startswith(".word 0x70003C00")


@pytest.mark.parametrize("token,needle", [("12345678", "0x12"), ("zz", "zz"), ("96000000", "0x96")])
def test_disasm_rejects_bad_words(token, needle, capsys):
    code, out, err = run_cli(["disasm", "840C0DD0", token], capsys)
    assert code == 2
    assert needle in err and "Traceback" not in err


def test_disasm_bad_word_in_file_names_line(tmp_path, capsys):
    f = write(tmp_path / "w.hex", "840C0DD0\n12345678\n")
    code, out, err = run_cli(["disasm", "-f", f], capsys)
    assert code == 2
    assert f"{f}:2" in err


def test_disasm_missing_file(tmp_path, capsys):
    code, out, err = run_cli(["disasm", "-f", tmp_path / "nope.hex"], capsys)
    assert code == 2
    assert "nope.hex" in err


# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------

L4_VALUES = [(i - 16) & MASK32 for i in range(32)]      # lanes 0-15 negative, 16-31 non-negative

RUN_PROGRAM = f"""\
.lreg 0 0x3F800000
.lreg 4 {' '.join(hex(v) for v in L4_VALUES)}
.lreg 5 7
TTI_SFPLOADI(p_sfpu::LREG1, sfpi::SFPLOADI_MOD0_USHORT, 0x1234);
sfpswap vd=5 vc=6 mod1=SFPSWAP_MOD1_SWAP
sfpiadd vd=1 vc=1 imm12=-4 mod1=SFPIADD_MOD1_ARG_IMM|SFPIADD_MOD1_CC_NONE
sfpmad vd=3 va=0 vb=10 vc=0 mod1=0
sfpnop
sfpstore vd=1 mod0=MOD0_FMT_UINT16 imm10=0
sfpencc imm2=1 mod1=SFPENCC_MOD1_EI
sfppushc
sfpsetcc vc=4 mod1=SFPSETCC_MOD1_LREG_LT0
"""


def expected_run_state():
    lregs = [[0] * 32 for _ in range(17)]
    lregs[0] = [0x3F800000] * 32                 # .lreg 0
    lregs[1] = [0x1234 - 4] * 32                 # LOADI USHORT 0x1234, then IADD imm -4
    lregs[3] = [0x40000000] * 32                 # 1.0 * 1.0 + 1.0 = 2.0
    lregs[4] = L4_VALUES
    lregs[5] = [0] * 32                          # unconditional swap of L5=7 and L6=0
    lregs[6] = [7] * 32
    lregs[8] = [0x3F56594B] * 32                 # §1.1 constants
    lregs[9] = [0] * 32
    lregs[10] = [0x3F800000] * 32
    lregs[11] = [0xBF800000] * 32
    lregs[12] = [0x37800000] * 32
    lregs[13] = [0xBF2CC4C7] * 32
    lregs[14] = [0xBEB08FF9] * 32
    lregs[15] = [2 * i for i in range(32)]
    dst = [[0] * 16 for _ in range(1024)]
    for lane in range(32):                        # UINT16 store, Addr 0: row lane/8, column (lane&7)*2
        dst[lane // 8][(lane & 7) * 2] = 0x1230
    return {
        "arch": "wormhole",                                  # the architecture the program ran on
        "backend": "model",                                  # the default
        "lockstep": None,                                    # only an RTL run has a lock-step check
        "lregs": lregs,
        "lane_flags": [i < 16 for i in range(32)],            # SETCC LT0 on L4, all lanes enabled
        "flag_enable": [True] * 32,                          # ENCC EI with Imm2 bit 0 = 1
        "flag_stack": [{"lane_flags": [True] * 32, "flag_enable": [True] * 32}],   # pushed after ENCC
        "prng": [0] * 32,
        "dst": dst,
        "cycles": 9 + 1,                                     # 9 instructions + 1 SWAP interlock stall
        "issue_cycles": 9 + 1,                               # the last result lands in the last issue cycle
        "instructions": 9,
        "hazards": [],
    }


def test_run_json_file(tmp_path, capsys):
    src = write(tmp_path / "p.s", RUN_PROGRAM)
    out_json = tmp_path / "out.json"
    code, out, err = run_cli(["run", src, "--json", out_json], capsys)
    assert code == 0, err
    record = json.loads(out_json.read_text())
    expected = expected_run_state()
    assert set(record) == set(expected)
    assert len(record["lregs"]) == 17 and all(len(r) == 32 for r in record["lregs"])
    assert len(record["dst"]) == 1024 and all(len(r) == 16 for r in record["dst"])
    for key in ("lane_flags", "flag_enable", "prng"):
        assert len(record[key]) == 32
    for key, value in expected.items():
        assert record[key] == value, key
    assert "9 instructions" in out


def test_run_json_stdout(tmp_path, capsys):
    src = write(tmp_path / "p.s", RUN_PROGRAM)
    code, out, err = run_cli(["run", src, "--json", "-"], capsys)
    assert code == 0, err
    assert json.loads(out) == expected_run_state()


def test_run_with_dst(tmp_path, capsys):
    dst = (np.arange(1024 * 16, dtype=np.uint32).reshape(1024, 16) * 7 % 65536).astype(np.uint16)
    npy = tmp_path / "dst.npy"
    np.save(npy, dst)
    src = write(tmp_path / "copy.s", "sfpload vd=2 mod0=MOD0_FMT_UINT16 imm10=0\n"
                                      "sfpstore vd=2 mod0=MOD0_FMT_UINT16 imm10=2\n")
    code, out, err = run_cli(["run", src, "--dst", npy, "--json", "-"], capsys)
    assert code == 0, err
    record = json.loads(out)
    expected = dst.astype(int).tolist()
    for lane in range(32):
        row, col = lane // 8, (lane & 7) * 2      # §1.5: Addr 0 even columns, Addr 2 odd columns
        assert record["lregs"][2][lane] == int(dst[row, col])
        expected[row][col + 1] = int(dst[row, col])
    assert record["dst"] == expected
    assert record["cycles"] == 2


@pytest.mark.parametrize("array,needle", [
    (np.zeros((1024, 8), dtype=np.uint16), "shape"),
    (np.zeros((512, 16), dtype=np.uint16), "shape"),
    (np.zeros((1024, 16), dtype=np.int32), "dtype"),
    (np.zeros((1024, 16), dtype=np.float32), "dtype"),
])
def test_run_rejects_bad_dst(tmp_path, capsys, array, needle):
    npy = tmp_path / "dst.npy"
    np.save(npy, array)
    src = write(tmp_path / "p.s", "sfpnop\n")
    code, out, err = run_cli(["run", src, "--dst", npy], capsys)
    assert code == 2
    assert needle in err and "dst.npy" in err
    assert "Traceback" not in err


def test_run_rejects_non_npy_dst(tmp_path, capsys):
    bogus = write(tmp_path / "dst.npy", "not numpy")
    src = write(tmp_path / "p.s", "sfpnop\n")
    code, out, err = run_cli(["run", src, "--dst", bogus], capsys)
    assert code == 2
    assert "dst.npy" in err and "Traceback" not in err


def test_run_missing_dst_file(tmp_path, capsys):
    src = write(tmp_path / "p.s", "sfpnop\n")
    code, out, err = run_cli(["run", src, "--dst", tmp_path / "none.npy"], capsys)
    assert code == 2
    assert "none.npy" in err


def test_run_missing_program(tmp_path, capsys):
    code, out, err = run_cli(["run", tmp_path / "missing.s"], capsys)
    assert code == 2
    assert "missing.s" in err and "Traceback" not in err


def test_run_assembly_error(tmp_path, capsys):
    src = write(tmp_path / "bad.s", "sfpnop\nsfpnop\nsfpfoo vd=1\n")
    code, out, err = run_cli(["run", src], capsys)
    assert code == 2
    assert f"{src}:3:1:" in err and "sfpfoo" in err


def test_run_undefined_behaviour(tmp_path, capsys):
    # §1.2: SFPPOPC Mod1=0 on an empty flag stack is UB.
    src = write(tmp_path / "ub.s", "sfpnop\n  sfppopc mod1=0\n")
    code, out, err = run_cli(["run", src], capsys)
    assert code == 3
    assert f"{src}:2" in err
    assert "Traceback" not in err


def test_run_undefined_behaviour_lenient(tmp_path, capsys):
    src = write(tmp_path / "ub.s", "sfpnop\nsfppopc mod1=0\n")
    code, out, err = run_cli(["run", src, "--lenient", "--json", "-"], capsys)
    assert code == 0
    assert "warning" in err and f"{src}:2" in err
    record = json.loads(out)
    assert record["flag_stack"] == [] and record["cycles"] == 2


# ---------------------------------------------------------------------------
# demo and the installed script
# ---------------------------------------------------------------------------

def test_demo(capsys, tmp_path):
    code, out, err = run_cli(["demo", "--out", str(tmp_path)], capsys)
    assert code == 0, err
    assert "PASS:" in out and "cycles compared" in out
    assert "All five sub-units busy" in out
    assert "macro kernel and non-macro twin leave Dst bit-identical" in out
    assert (tmp_path / "exp_fast.vcd").stat().st_size > 0
    assert "sfpu-mnemonic" in (tmp_path / "exp_fast.gtkw").read_text()


def test_console_script_help():
    script = Path(sys.executable).parent / "sfpu"
    if not script.exists():
        script = ROOT / ".venv" / "bin" / "sfpu"
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    for word in ("asm", "disasm", "run", "timeline", "demo"):
        assert word in proc.stdout


# ---------------------------------------------------------------------------
# run --trace, timeline
# ---------------------------------------------------------------------------

EXAMPLE_A = str(EXAMPLES / "macro_example_a.s")
EXP_MACRO = str(EXAMPLES / "exp_fast_macro.s")
MAD_THEN_READ = "sfpmad vd=1 va=10 vb=10 vc=10\nsfpmov vd=2 vc=1\n"


def test_run_json_trace(tmp_path, capsys):
    code, out, err = run_cli(["run", EXAMPLE_A, "--json", "-", "--trace"], capsys)
    assert code == 0, err
    record = json.loads(out)
    trace = record["trace"]
    assert [c["cycle"] for c in trace] == list(range(record["cycles"]))
    macro = [c["cycle"] for c in trace if c["issued"] is not None and (c["issued"] >> 24) == 0x93]
    assert len(macro) == 1
    t = macro[0]
    assert trace[t + 1]["units"]["mad"]["origin"] == "macro"
    assert trace[t + 1]["units"]["mad"]["macro_cycle"] == t
    assert trace[t + 3]["units"]["store"]["mnemonic"] == "SFPSTORE"
    assert [w["reg"] for w in trace[t + 2]["lreg_writes"]] == [2]


def test_run_reports_cycles(capsys):
    code, out, err = run_cli(["run", EXAMPLE_A], capsys)
    assert code == 0, err
    assert "7 instructions, 10 cycles" in out


def test_run_of_no_instruction(tmp_path, capsys):
    code, out, err = run_cli(["run", write(tmp_path / "e.s", "# only a directive\n.lreg 1 5\n")], capsys)
    assert code == 0, err
    assert out.splitlines()[0] == "0 instructions, 0 cycles"


def test_timeline_table_shows_pipeline(capsys):
    code, out, err = run_cli(["timeline", EXP_MACRO, "--cycles", "43:45", "--wide"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:7] == ["cycle", "thread", "load", "simple", "mad", "round", "store"]
    rows = [l for l in lines if l.strip()[:2] in ("43", "44", "45")]
    assert len(rows) == 3
    for row in rows:
        for part in ("@", "shft vd=16", "mad vd=", "stochrnd", "store vd=16"):
            assert part in row, (part, row)
    assert "all five sub-units busy in 3 cycles (43-45)" in out
    assert "allowed by the program's .allow: swap-mad-nop x8" in out     # exp_fast_macro.s's own directive


def test_timeline_fits_120_columns_unless_wide(capsys):
    code, out, err = run_cli(["timeline", EXP_MACRO], capsys)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 120
    row = next(l for l in out.splitlines() if l.strip().startswith("43 "))
    assert "@" in row and " mad" in row and "vd=" not in row.rsplit("loadmacro", 1)[1]   # macro work by mnemonic
    code, wide, err = run_cli(["timeline", EXP_MACRO, "--wide"], capsys)
    assert max(len(line) for line in wide.splitlines()) > 120


def test_timeline_csv_and_json(tmp_path, capsys):
    code, out, err = run_cli(["timeline", EXAMPLE_A, "--csv"], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[7]["mad"].startswith("@6 mad vd=2")
    assert rows[9]["store"].startswith("@6 store vd=2")
    out_json = tmp_path / "t.json"
    code, out, err = run_cli(["timeline", EXAMPLE_A, "--json", out_json], capsys)
    assert code == 0, err
    records = json.loads(out_json.read_text())
    assert len(records) == 10 and records[9]["units"]["store"]["origin"] == "macro"


def test_hazard_stops_strict_run_with_cycle_and_rule(tmp_path, capsys):
    src = write(tmp_path / "h.s", MAD_THEN_READ)
    code, out, err = run_cli(["run", src], capsys)
    assert code == 3
    assert f"{src}:2:1" in err and "cycle 1" in err and "read-in-flight" in err
    # The stop says how to go on: allow the rule that stopped it, or be lenient.
    for command in ("run", "timeline"):
        code, out, err = run_cli([command, src], capsys)
        stop, hint = err.splitlines()
        assert code == 3 and stop.startswith("sfpu: stopped:")
        assert hint.startswith("sfpu: to go on") and "--allow read-in-flight " in hint and "--lenient" in hint


def test_only_commands_with_the_options_suggest_them():
    import argparse
    from tensix_sfpu.model.hazards import Hazard, HazardError
    from tensix_sfpu.tb.cli.main import how_to_go_on
    stop = HazardError(Hazard("swap-mad-nop", 29, "mad", "SFPSWAP without SFPNOP"))
    assert "--allow swap-mad-nop " in how_to_go_on(stop, argparse.Namespace(allow=[], lenient=False))
    assert how_to_go_on(stop, argparse.Namespace(wide=False)) is None      # e.g. `sfpu kernels`: neither option


def test_hazard_lenient_and_allow(tmp_path, capsys):
    src = write(tmp_path / "h.s", MAD_THEN_READ)
    code, out, err = run_cli(["timeline", src, "--lenient"], capsys)
    assert code == 0 and "read-in-flight" in out
    code, out, err = run_cli(["run", src, "--allow", "read-in-flight"], capsys)
    assert code == 0 and "allowed" in err
    code, out, err = run_cli(["run", src, "--allow", "no-such-rule"], capsys)
    assert code == 2 and "unknown hazard rule" in err


def test_a_misspelt_rule_gets_the_closest(tmp_path, capsys):
    src = write(tmp_path / "h.s", MAD_THEN_READ)
    code, out, err = run_cli(["run", src, "--allow", "read-in-flite"], capsys)
    assert code == 2 and err.splitlines() == [
        "sfpu: error: --allow read-in-flite: unknown hazard rule (did you mean read-in-flight?); "
        f"`sfpu run --list-rules` lists all {len(RULES)}"]
    # The same words for the program's own .allow, at its line and column.
    src = write(tmp_path / "a.s", ".allow swap-mad-nopp\n" + MAD_THEN_READ)
    code, out, err = run_cli(["run", src], capsys)
    assert code == 2 and err.splitlines() == [
        f"sfpu: error: {src}:1:8: 'swap-mad-nopp': unknown hazard rule (did you mean swap-mad-nop?); "
        f"`sfpu run --list-rules` lists all {len(RULES)}"]


def test_a_hazard_repeated_by_a_loop_is_reported_once_per_line(tmp_path, capsys):
    # The recorded SFPMAD / SFPADD pair reads L1 in flight on every pass: 1 + 5 replays.
    src = write(tmp_path / "loop.s", "TTI_REPLAY(0, 2, 1, 1);\nsfpmad vd=1 va=2 vb=3 vc=4\n"
                                     "sfpmad vd=5 va=1 vb=3 vc=4\n" + "TTI_REPLAY(0, 2, 0, 0);\n" * 5)
    code, out, err = run_cli(["run", src, "--lenient", "--json", "-"], capsys)
    assert code == 0
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, err
    assert f"{src}:3:1" in warnings[0] and "read-in-flight" in warnings[0]
    assert "x6 at this line, the last in cycle 11" in warnings[0]     # passes at cycles 1, 3, ..., 11
    [hazard] = json.loads(out)["hazards"]
    assert (hazard["rule"], hazard["cycle"], hazard["count"], hazard["last_cycle"]) == ("read-in-flight", 1, 6, 11)
    code, out, err = run_cli(["run", src, "--allow", "read-in-flight"], capsys)
    assert code == 0 and "allowed by --allow: read-in-flight x6" in err


def test_allowed_hazards_say_who_allowed_them(tmp_path, capsys):
    # The program allows `undefined` (a pop of the empty flag stack) and the command line
    # read-in-flight (SFPMOV reads L1 the cycle after the SFPMAD that writes it): each once.
    two = write(tmp_path / "two.s", ".allow undefined\nsfppopc\n" + MAD_THEN_READ)
    for command, stream in (("run", 2), ("timeline", 1), ("race", 1)):
        outcome = run_cli([command, two, "--allow", "read-in-flight"], capsys)
        lines = outcome[stream].splitlines()
        assert "allowed by the program's .allow: undefined x1" in lines, (command, lines)
        assert "allowed by --allow: read-in-flight x1" in lines, (command, lines)
    # Both sources for one rule: said as both.
    both = write(tmp_path / "both.s", ".allow read-in-flight\n" + MAD_THEN_READ)
    code, out, err = run_cli(["run", both, "--allow", "read-in-flight"], capsys)
    assert code == 0 and "allowed by --allow and the program's .allow: read-in-flight x1" in err.splitlines()


def test_version_names_the_installed_package(capsys):
    from importlib import metadata
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"sfpu (tensix-sfpu) {metadata.version('tensix-sfpu')}"
