"""Code branches on a feature of the architecture (`model.isa.Features`),
never on the chip's name: outside the table (model/isa.py), no file under
hdl/ or model/ names Wormhole or Blackhole in its code, but as a key of a
per-architecture table, and none keeps a flag named after a chip (issue 31,
item 2)."""

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "model" / "isa.py"
SOURCES = sorted(p for d in ("model", "hdl") for p in (ROOT / d).rglob("*.py") if p != TABLE)

CHIP_MEMBERS = {"WORMHOLE", "BLACKHOLE"}
CHIP_FLAGS = re.compile(r"_?(blackhole|wormhole|bh|wh|is_blackhole|is_wormhole)")
CHIP_STRING = re.compile(r"""(==|!=)\s*["'](blackhole|wormhole)["']|["'](blackhole|wormhole)["']\s*(==|!=)""")


def _violations(path: Path, root: Path = ROOT) -> list[str]:
    text = path.read_text()
    found = []
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    brackets = []
    for i, t in enumerate(tokens):
        where = f"{path.relative_to(root)}:{t.start[0]}"
        if t.type == tokenize.OP and t.string in "([{":
            brackets.append(t.string)
        elif t.type == tokenize.OP and t.string in ")]}" and brackets:
            brackets.pop()
        if t.type != tokenize.NAME:
            continue
        if t.string in CHIP_MEMBERS:
            # The chip's member as a key of a table (`{Arch.WORMHOLE: ..., Arch.BLACKHOLE: ...}`) is data.
            following = tokens[i + 1].string if i + 1 < len(tokens) else ""
            if not (brackets and brackets[-1] == "{" and following == ":"):
                found.append(f"{where}: {t.line.strip()}")
        elif CHIP_FLAGS.fullmatch(t.string):
            found.append(f"{where}: a flag named after a chip: {t.line.strip()}")
    for n, line in enumerate(text.splitlines(), 1):
        if CHIP_STRING.search(line):
            found.append(f"{path.relative_to(root)}:{n}: compares with a chip's name: {line.strip()}")
    return found


def test_no_code_branches_on_the_chip_name():
    found = [v for path in SOURCES for v in _violations(path)]
    assert not found, "branch on a Features field instead:\n" + "\n".join(found)


@pytest.mark.parametrize("code, fires", [
    ("if arch is Arch.BLACKHOLE:\n    pass\n", True),
    ("x = 1 if self.arch is not isa.Arch.WORMHOLE else 2\n", True),
    ("def f(arch=Arch.WORMHOLE):\n    pass\n", True),
    ("blackhole = True\n", True),
    ("bh = arch.features.mul24\n", True),
    ("ok = arch.value == 'blackhole'\n", True),
    ("TABLE = {Arch.WORMHOLE: 1, Arch.BLACKHOLE: 2}\n", False),
    ("# on Blackhole (BLACKHOLE) this differs\nx = 'Blackhole'\n", False),
    ("if arch.features.mul24:\n    pass\n", False),
])
def test_the_check_is_precise(tmp_path, code, fires):
    path = tmp_path / "sample.py"
    path.write_text(code)
    assert bool(_violations(path, tmp_path)) == fires
