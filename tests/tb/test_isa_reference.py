"""`sfpu isa` and docs/isa.md: the committed reference is what the ISA table
generates, names every opcode of both architectures, and follows a change
of the table (so the check can fail)."""

import dataclasses
from pathlib import Path

import pytest

from tensix_sfpu.model.isa import FEATURES, ISA, Arch, Isa
from tensix_sfpu.tb.cli.main import main
from tensix_sfpu.tb.isa_reference import first_difference, reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "isa.md"


def _section(page: str, mnemonic: str) -> str:
    return page.split(f"\n## {mnemonic}\n", 1)[1].split("\n## ", 1)[0]


def test_the_committed_reference_is_a_fresh_generation():
    where = first_difference(DOC.read_text(), reference())
    assert where is None, f"docs/isa.md is stale at {where}: run `sfpu isa`"


@pytest.mark.parametrize("arch", list(Arch), ids=lambda a: a.value)
def test_every_opcode_of_both_architectures_has_its_section(arch):
    page = DOC.read_text()
    for op in ISA[arch].table:
        assert f"[{op.mnemonic}](#{op.mnemonic.lower()})" in page, f"{op.mnemonic} is not in the index"
        assert f"= 0x{op.opcode:02X}" in _section(page, op.mnemonic)


def test_an_instruction_new_on_blackhole_says_so():
    assert "Only on Blackhole A0." in _section(reference(), "SFPMUL24")


def _with(arch: Arch, mnemonic: str, **change) -> dict[Arch, Isa]:
    """The tables with one entry of `arch` changed."""
    table = [dataclasses.replace(op, **change) if op.mnemonic == mnemonic else op for op in ISA[arch].table]
    return {**ISA, arch: Isa(arch, table)}


def test_a_change_of_the_table_changes_the_page():
    fresh = reference()
    changed = reference(_with(Arch.BLACKHOLE, "SFPMAD", latency=3))
    assert changed != fresh
    assert "| latency | 2 | 3 |" in _section(changed, "SFPMAD")
    assert "Its Blackhole A0 table entry differs in: `latency`." in _section(changed, "SFPMAD")
    assert first_difference(fresh, changed) is not None


def test_a_change_of_a_feature_changes_the_page():
    features = {**FEATURES, Arch.WORMHOLE: dataclasses.replace(FEATURES[Arch.WORMHOLE], dst_int8_bits=9)}
    changed = reference(features=features)
    assert "- `dst_int8_bits` (Wormhole B0 9, Blackhole A0 8)" in _section(changed, "SFPLOAD")


def test_first_difference_names_the_line():
    assert first_difference("a\nb\n", "a\nb\n") is None
    assert first_difference("a\nb\n", "a\nc\n") == "line 2: 'b', freshly generated 'c'"
    assert first_difference("a\n", "a\nb\n") == "line 2: the committed file ends here"
    assert first_difference("a\nb\n", "a\n") == "line 2: the committed file goes on past the generated end"


def test_check_passes_on_a_fresh_file_and_fails_naming_the_line(tmp_path, capsys):
    out = tmp_path / "isa.md"
    assert main(["isa", "--out", str(out)]) == 0
    assert main(["isa", "--out", str(out), "--check"]) == 0
    lines = out.read_text().splitlines(keepends=True)
    lines[4] = "edited by hand\n"
    out.write_text("".join(lines))
    capsys.readouterr()
    assert main(["isa", "--out", str(out), "--check"]) == 1
    assert "line 5: 'edited by hand'" in capsys.readouterr().err


def test_an_unwritable_or_missing_out_is_a_one_line_error(tmp_path, capsys):
    assert main(["isa", "--out", str(tmp_path / "no" / "such" / "isa.md")]) == 2
    assert main(["isa", "--out", str(tmp_path / "absent.md"), "--check"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("sfpu: error: ") for line in err)
    assert "cannot write" in err[0] and "no such file" in err[1]
