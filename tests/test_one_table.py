"""Every instruction fact is stated once, in model/isa.py: the source tree
slices no opcode by hand, writes no SFPU opcode as a number, and gives no
modifier value a second definition; the copies kept for speed are the
table's own values (issue 31, item 1)."""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from tensix_sfpu.model import isa

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "model" / "isa.py"
SOURCES = sorted(p for d in ("model", "hdl", "tb", "kernels", "tools") for p in (ROOT / d).rglob("*.py")
                 if p != TABLE)

# The opcode byte of an instruction word taken by hand: an Amaranth slice of a
# word, or a shift by 24 of a word or of an opcode (`isa.OPCODE` and
# `isa.opcode_of` say where it is). Words are named word, ins, instr or issued.
RAW_SLICE = re.compile(r"\b\w*(word|ins|instr|issued)\w*(\.\w+)*\)?\[24:32\]"
                       r"|\b\w*(word|ins|instr|issued)\w*(\.\w+)*\)?\s*>>\s*24\b"
                       r"|\bopcode\)?\s*<<\s*24\b")
# Opcodes that are also everyday masks (SFPOR 0x7F, SFPNOT 0x80) cannot be told apart by their spelling.
MASK_LIKE = {0x7F, 0x80}
SFPU_OPCODES = {op.opcode for arch in isa.Arch for op in isa.ISA[arch].table} - MASK_LIKE
# The table's modifier names that are distinctive enough to be recognised inside another name
# (SFPLUT_MOD0_INDIRECT_VD, SHFT2_SHFT_IMM); one-word names such as EXP or ZERO are not.
MODIFIER_ENUMS = [v for v in vars(isa).values() if isinstance(v, type) and issubclass(v, isa.enum.IntEnum)
                  and v.__module__ == isa.__name__]
MODIFIER_NAMES = sorted({m.name for e in MODIFIER_ENUMS for m in e if "_" in m.name})


def _code_tokens(path: Path):
    """The source's tokens outside strings and comments."""
    text = path.read_text()
    return [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in (tokenize.STRING, tokenize.COMMENT)]


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """Each line's code, with its strings and comments blanked."""
    lines = path.read_text().splitlines()
    blank = [list(line) for line in lines]
    for t in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if t.type in (tokenize.STRING, tokenize.COMMENT):
            (r0, c0), (r1, c1) = t.start, t.end
            for r in range(r0, r1 + 1):
                start = c0 if r == r0 else 0
                end = c1 if r == r1 else len(blank[r - 1])
                blank[r - 1][start:end] = " " * (end - start)
    return [(n, "".join(chars)) for n, chars in enumerate(blank, 1)]


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_no_raw_opcode_slices():
    found = [_where(p, n) for p in SOURCES for n, code in _code_lines(p) if RAW_SLICE.search(code)]
    assert not found, f"slice the opcode by name (isa.OPCODE, isa.opcode_of, hdl.isa.opcode_bits): {found}"


def test_no_opcode_literals_outside_the_table():
    found = [f"{_where(p, t.start[0])} {t.string}" for p in SOURCES for t in _code_tokens(p)
             if t.type == tokenize.NUMBER and re.fullmatch(r"0[xX][0-9a-fA-F]{2}", t.string)
             and int(t.string, 16) in SFPU_OPCODES]
    assert not found, f"name the instruction (isa.ISA[arch].opcodes[...].opcode) instead: {found}"


def _literal(node: ast.AST) -> bool:
    """Numbers written out: a constant, a tuple of them, or range(...) of them."""
    if isinstance(node, ast.Tuple):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
        return all(_literal(a) for a in node.args)
    return isinstance(node, ast.Constant) and isinstance(node.value, int)


def _hardware_encodings(tree: ast.AST) -> set[ast.AST]:
    """The assignments in Amaranth enums (`class X(enum.Enum, shape=n)`): a
    decoded state of the RTL's own, not a modifier's values."""
    return {node for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)
            and any(k.arg == "shape" for k in cls.keywords) for node in cls.body}


def test_no_modifier_value_is_defined_twice():
    """A name ending in one of the table's modifier names (INDIRECT_VD,
    SHFT2_SHFT_IMM, ...) is not given a number anywhere but the table."""
    pattern = re.compile(r"(^|_)(" + "|".join(MODIFIER_NAMES) + r")$")
    found = []
    for p in SOURCES:
        tree = ast.parse(p.read_text())
        exempt = _hardware_encodings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and node not in exempt and _literal(node.value):
                names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
                found += [f"{_where(p, node.lineno)} {n}" for n in names if pattern.search(n)]
    assert not found, f"import the modifier from model.isa: {found}"


# Names of modifiers the table keeps as plain numbers whose spelling ends like an enum member of another
# instruction's: SFPIADD's and SFPSETEXP/SETMAN/SETSGN's ARG_IMM, SFPLUT's and SFPLUTFP32's INDIRECT_VD.
NOT_TABLE_ENUMS = {"SFPIADD_MOD1_ARG_IMM", "SFPSETEXP_MOD1_ARG_IMM", "SFPSETMAN_MOD1_ARG_IMM",
                   "SFPSETSGN_MOD1_ARG_IMM", "SFPLUT_MOD0_INDIRECT_VD", "SFPLUTFP32_MOD1_INDIRECT_VD"}


def _restated_entries(tree: ast.AST) -> list[tuple[int, str]]:
    """Dictionary entries `"..._MEMBER": n` giving a table enum member's own value as a number."""
    values = {m.name: {int(x) for e in MODIFIER_ENUMS for x in e if x.name == m.name}
              for e in MODIFIER_ENUMS for m in e}
    pattern = re.compile(r"(?:^|_)(" + "|".join(MODIFIER_NAMES) + r")$")
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and _literal(value)):
                continue
            match = pattern.search(key.value.split("::")[-1])
            if match and key.value not in NOT_TABLE_ENUMS and isinstance(value, ast.Constant) \
                    and value.value in values[match.group(1)]:
                out.append((key.lineno, key.value))
    return out


def test_no_dictionary_restates_a_modifier_value():
    """model/llk_symbols.py's names (and any other table of names) take enum members' values from the table."""
    found = [f"{_where(p, line)} {name}" for p in SOURCES for line, name in _restated_entries(ast.parse(p.read_text()))]
    assert not found, f"take the value from the model.isa enum: {found}"


def test_the_dictionary_check_fires_on_a_restated_value():
    code = 'NAMES = {"SFPMAD_MOD1_INDIRECT_VD": 8, "SFPIADD_MOD1_ARG_IMM": 1, "SFPMAD_MOD1_INDIRECT_VA": 5}'
    assert [name for _, name in _restated_entries(ast.parse(code))] == ["SFPMAD_MOD1_INDIRECT_VD"]


@pytest.mark.parametrize("code, fires", [
    ("m.d.comb += d.opcode.eq(word[24:32])", True),
    ("op = table[word >> 24]", True),
    ("if (rec.issued >> 24) in ISSUED:", True),
    ("word = (op.opcode << 24) + args", True),
    ("lanes = value[24:32]", False),           # a byte of a lane value, not an opcode
    ("b[3] << 24", False),                     # packing a sequence's bytes
])
def test_the_slice_pattern_is_precise(code, fires):
    assert bool(RAW_SLICE.search(code)) == fires


def test_copies_kept_for_speed_are_the_tables():
    from tensix_sfpu.hdl import scheduler, sfpu
    from tensix_sfpu.model import cycle, hazards
    for arch in isa.Arch:
        shft2 = isa.ISA[arch].opcodes["SFPSHFT2"]
        # SFPSHFT2.md's list names its own one-cycle modes: the table's two lists agree.
        assert dict(shft2.next_cycle_forbidden)["SFPSHFT2"] == {v for v in shft2.defined_values("mod1")
                                                                if v not in shft2.two_cycle_mod1}
    assert cycle.MACRO_UNITS == scheduler.MACRO_UNITS == isa.MACRO_UNITS
    assert sfpu.MACRO_UNITS == tuple(u.value for u in isa.MACRO_UNITS)
    assert scheduler.MACRO_UNITS[scheduler.STORE] is isa.Unit.STORE
    assert hazards.GAP_RULES == {op.mnemonic: op.stall_gap for op in isa.ISA[isa.Arch.BLACKHOLE].table
                                 if op.stall_gap}
