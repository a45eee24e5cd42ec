"""Bad input through the command line: never a traceback or a hang; exit
status 0, 2 (one message naming the file, line and column) or 3.

Three layers: each cause the first fuzzing found, as a directed test with the
message it must give; every file of the corpus (tests/tb/fuzz_corpus/)
through every command that reads it; and random cases from tb/cli/fuzz.py,
drawn by hypothesis (`make fuzz` runs 100,000 of them).
"""

import pickle
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tensix_sfpu.tb.cli import fuzz

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"
EXP_FAST = str(ROOT / "kernels" / "exp_fast.s")


def sfpu(*argv, source=None):
    """Run the command in-process; fail on anything the fuzz property forbids."""
    outcome = fuzz.invoke([str(a) for a in argv])
    assert not fuzz.problems(outcome, source), (fuzz.problems(outcome, source), outcome.stderr[-3000:])
    return outcome


def corpus(name: str) -> str:
    return str(CORPUS / name)


# ---------------------------------------------------------------------------
# The causes of tracebacks found by fuzzing, one by one

@pytest.mark.parametrize("name, where, message", [
    ("latin1_comment.s", ":1:17:", "byte 0xB5 is not UTF-8"),
    ("dot.s", ":1:1:", "expected a directive name"),
    ("dot_seven.s", ":1:1:", "expected a directive name"),
    ("long_sum.s", ":1:20:", "nested more than"),
    ("many_minuses.s", ":1:20:", "nested more than"),
    ("deep_parentheses.s", ":1:20:", "cannot parse value"),
    ("huge_literal.s", ":1:20:", "is not a C++ integer literal"),
    ("python_octal.s", ":1:17:", "'0o7' is not a C++ integer literal"),
    ("python_underscore.s", ":1:17:", "'1_0' is not a C++ integer literal"),
    ("open_comment.s", ":4:1:", "unterminated /* comment"),
    ("replay_bomb.s", ":", "longer than 250,000 instructions"),
    ("replay_unrecorded.s", ":1:1:", "which nothing has recorded"),
    ("python_name.s", ":1:20:", "unknown name '__import__'"),
    ("string_literal.s", ":1:20:", "unsupported expression"),
])
def test_assembly_errors_name_file_line_and_column(name, where, message):
    for command in ("asm", "run"):
        out = sfpu(command, corpus(name), source=corpus(name))
        assert out.status == 2
        assert corpus(name) + where in out.stderr and message in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


def test_many_minuses_is_not_a_recursion_error():
    # Python's own parser gives up on 1,000 nested unary minuses; ours says so in one line.
    out = sfpu("asm", corpus("many_minuses.s"))
    assert out.status == 2 and "RecursionError" not in out.stderr


def test_hex_file_that_is_not_utf8():
    out = sfpu("disasm", "-f", corpus("not_utf8.hex"), source=corpus("not_utf8.hex"))
    assert out.status == 2 and ":1:1: byte 0xFF is not UTF-8" in out.stderr


@pytest.mark.parametrize("token", ["+840C0DD0", "84_0C_0DD0", " 840C0DD0x", "1FFFFFFFF", "٨٤٠"])
def test_disasm_takes_plain_hex_words_only(token):
    out = sfpu("disasm", token)
    assert out.status == 2 and "not a hexadecimal instruction word" in out.stderr


def test_disasm_file_of_non_hex_words_names_line():
    out = sfpu("disasm", "-f", corpus("non_hex_words.hex"))
    assert out.status == 2 and "non_hex_words.hex:1: '+840C0DD0'" in out.stderr


@pytest.mark.parametrize("make", [
    lambda p: np.savez(p, a=np.zeros(3)),                      # an archive, not one array
    lambda p: p.write_bytes(b""),                              # empty
    lambda p: p.write_bytes(b"\x93NUMPY\x01\x00"),             # a header cut short
    lambda p: np.save(p, np.array([{"a": 1}], dtype=object)),  # would need pickle
    lambda p: p.write_bytes(b"PK\x03\x04" + bytes(40)),          # a zip signature, then no archive
    lambda p: p.write_bytes(fuzz._saved(np.savez, a=np.zeros(3))[:60]),    # an archive cut short
    lambda p: p.write_bytes(pickle.dumps([1, 2])),             # a plain pickle
])
def test_bad_dst_files(tmp_path, make):
    path = tmp_path / "dst.npy"
    make(path)
    out = sfpu("run", EXP_FAST, "--dst", path)
    assert out.status == 2 and str(path) in out.stderr


def test_the_fuzz_draws_files_numpy_cannot_read_as_archives(tmp_path):
    # What the generator draws reaches numpy's zip reader with a broken archive (the cause of a
    # BadZipFile traceback that `make fuzz` missed before it drew such files).
    broken = 0
    for seed in range(300):
        path = tmp_path / f"{seed}.npy"
        fuzz.npy_file(random.Random(seed), path)
        try:
            np.load(path, allow_pickle=False)
        except zipfile.BadZipFile:
            broken += 1
        except Exception:
            pass
    assert broken > 0


def test_dst_that_is_a_directory(tmp_path):
    out = sfpu("run", EXP_FAST, "--dst", tmp_path)
    assert out.status == 2 and "is a directory" in out.stderr


@pytest.mark.parametrize("target, message", [
    ("missing/out", "No such file or directory"),
    (".", "Is a directory"),
    ("/dev/full", "No space left on device"),
])
@pytest.mark.parametrize("command", [
    ["asm", EXP_FAST, "-o"], ["run", EXP_FAST, "--json"], ["timeline", EXP_FAST, "--json"],
    ["run", EXP_FAST, "--output"],
])
def test_unwritable_outputs(tmp_path, command, target, message):
    where = target if target.startswith("/") else str(tmp_path / target)
    out = sfpu(*command, where)
    assert out.status == 2 and f"{where}: cannot write: {message}" in out.stderr


def test_output_to_a_read_only_proc_file():
    if not Path("/proc/version").exists():
        pytest.skip("no /proc on this system")
    out = sfpu("run", EXP_FAST, "--json", "/proc/version")
    assert out.status == 2 and "/proc/version: cannot write" in out.stderr


@pytest.mark.parametrize("command", [["run", EXP_FAST, "--json"], ["asm", EXP_FAST, "-o"],
                                     ["run", EXP_FAST, "--output"], ["timeline", EXP_FAST, "--json"]])
def test_empty_output_path_is_refused(command):
    out = sfpu(*command, "")
    assert out.status == 2 and "an empty path" in out.stderr


@pytest.mark.parametrize("cycles", ["abc", "a:b", "1e3:2", "-1:3", "5:2", ":", "٣:٤"])
def test_timeline_cycles_must_be_a_range(cycles):
    out = sfpu("timeline", EXP_FAST, "--cycles", cycles)
    assert out.status == 2 and "--cycles" in out.stderr


@pytest.mark.parametrize("cycles, first, last", [("40:42", 40, 42), ("127:", 127, 128), (":1", 0, 1)])
def test_timeline_cycle_ranges(cycles, first, last):
    out = sfpu("timeline", EXP_FAST, "--cycles", cycles)
    table = out.stdout.split("\n\n")[0].splitlines()[2:]       # below the header and its rule
    shown = [int(line.split()[0]) for line in table]
    assert out.status == 0 and shown[0] == first and shown[-1] == last


# ---------------------------------------------------------------------------
# Accepted silently before, each looking wrong

def test_argument_wider_than_its_field_warns_and_strict_run_refuses():
    # dest_reg_addr 1030 = 0x406: SFPSTORE's address field is 10 bits, so bit 10 would be lost (address 6).
    asm = sfpu("asm", corpus("wide_argument.s"))
    assert asm.status == 0
    assert "wide_argument.s:1:23: warning: TTI_SFPSTORE argument dest_reg_addr=1030 is wider than its field" \
        in asm.stderr and "keeps 6" in asm.stderr
    run = sfpu("run", corpus("wide_argument.s"))
    assert run.status == 2 and "wide_argument.s:1:23: TTI_SFPSTORE argument dest_reg_addr=1030" in run.stderr
    assert sfpu("run", corpus("wide_argument.s"), "--lenient").status == 0


def test_sfpcast_source_wider_than_its_register_field():
    # lreg_src_c 18 = 0b10010 lands in VC (4 bits: 2) and bit 12, which SFPCAST does not use.
    out = sfpu("run", corpus("wide_cast.s"))
    assert out.status == 2 and "lreg_src_c=18 is wider than its field" in out.stderr and "keeps 2" in out.stderr


def test_replay_expansion_is_capped():
    out = sfpu("asm", corpus("replay_bomb.s"))
    assert out.status == 2 and "replay_bomb.s:" in out.stderr and "250,000" in out.stderr


def test_byte_order_mark_is_ignored():
    out = sfpu("asm", corpus("bom.s"))
    assert out.status == 0 and out.stdout == "0x8F000000\n"     # SFPNOP is opcode 0x8F


def test_block_comment_over_lines():
    out = sfpu("asm", corpus("line_endings.s"))
    assert out.status == 0 and out.stdout.count("0x8F000000") == 3
    from tensix_sfpu.model.asm import assemble
    program = assemble("TTI_SFPNOP; /* one\n two */ TTI_SFPNOP; /* /* */ // x */\nTTI_SFPNOP;")
    assert len(program.words) == 3 and [i.loc.line for i in program.items] == [1, 2, 3]


@pytest.mark.parametrize("path", ["/dev/null", "empty"])
def test_empty_input_is_an_empty_program(path):
    target = path if path.startswith("/") else corpus("empty.s")
    assert sfpu("asm", target).stdout == ""
    out = sfpu("run", target)
    assert out.status == 0 and out.stdout.splitlines()[0] == "0 instructions, 0 cycles"
    assert "-1" not in out.stdout


def test_directory_as_program(tmp_path):
    out = sfpu("run", tmp_path)
    assert out.status == 2 and "is a directory" in out.stderr and "no such file" not in out.stderr


def test_asm_then_disasm_round_trip(tmp_path):
    """asm's words, SETRWC included, disassemble and assemble back to the same words."""
    hex_file = tmp_path / "x.hex"
    assert sfpu("asm", EXP_FAST, "-o", hex_file).status == 0
    text = sfpu("disasm", "-f", hex_file, "--llk")
    assert "TTI_SETRWC(" in text.stdout
    again = tmp_path / "again.s"
    again.write_text(text.stdout)
    assert sfpu("asm", again).stdout == hex_file.read_text()


# ---------------------------------------------------------------------------
# The corpus through every command, and random cases

CORPUS_FILES = sorted(CORPUS.iterdir())


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_corpus_file_through_every_command(path, tmp_path):
    if path.suffix == ".hex":
        for llk in ([], ["--llk"]):
            sfpu("disasm", "-f", path, *llk, source=str(path))
        return
    sfpu("asm", path, source=str(path))
    sfpu("asm", path, "-o", tmp_path / "out.hex")
    sfpu("run", path, source=str(path))
    sfpu("run", path, "--lenient", "--json", tmp_path / "out.json", "--trace")
    sfpu("timeline", path, source=str(path))
    sfpu("timeline", path, "--csv", "--lenient")


def test_hazard_and_undefined_behaviour_exit_3():
    for name in ("read_in_flight.s", "pop_empty_stack.s"):
        out = sfpu("run", corpus(name))
        assert out.status == 3 and f"{corpus(name)}:" in out.stderr


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_random_cases(seed):
    outcome, found = fuzz.run_case(seed)
    assert not found, (found, outcome.argv, outcome.stderr[-3000:])


def test_a_case_is_the_same_every_time(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = fuzz.make_case(random.Random(7), tmp_path / "a")
    b = fuzz.make_case(random.Random(7), tmp_path / "b")
    assert [x.replace("/a", "") for x in a[0]] == [x.replace("/b", "") for x in b[0]]


def test_cases_leave_the_working_folder_alone(tmp_path, monkeypatch):
    # Outputs named `-` or by a relative path must land in the case's own folder.
    monkeypatch.chdir(tmp_path)
    for seed in (17, 37, 525):       # outputs `-`, ' ' and (525, a typed run) `-`
        fuzz.run_case(seed)
    assert list(tmp_path.iterdir()) == []
