"""Code branches on a feature of the architecture (`model.isa.Features`),
never on the chip's name: outside the table (model/isa.py), no file under
hdl/ or model/ names Wormhole or Blackhole in its code, but as a key of a
per-architecture table, and none keeps a flag named after a chip (issue 31,
item 2). And no parameter defaults to an architecture: the caller says which
one (issue 31, "features instead of chip names"), but for the user's default
at the edges, the Python API (tb/api.py) and the command line (tb/cli/).
"""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "model" / "isa.py"
SOURCES = sorted(p for d in ("model", "hdl") for p in (ROOT / d).rglob("*.py") if p != TABLE)

# Where the user's default (Wormhole) is the rule: the Python API and the command line.
USER_FACING = (ROOT / "tb" / "api.py", ROOT / "tb" / "cli")
SIGNED = sorted(p for d in ("model", "hdl", "tb", "kernels", "tools") for p in (ROOT / d).rglob("*.py")
                if not any(p == u or u in p.parents for u in USER_FACING))

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


# A default names an architecture when it (or any part of it) is the chip's
# member, an alias of it (`WORMHOLE = Arch.WORMHOLE`), the user's default, or
# the chip's name as a string.
ARCH_NAMES = CHIP_MEMBERS | {"DEFAULT_ARCH"}
ARCH_STRINGS = {"wormhole", "blackhole", "wormhole_b0", "blackhole_a0"}


def _names_an_architecture(default: ast.expr) -> bool:
    for node in ast.walk(default):
        if isinstance(node, ast.Attribute) and node.attr in ARCH_NAMES:
            return True
        if isinstance(node, ast.Name) and node.id in ARCH_NAMES:
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in ARCH_STRINGS:
            return True
    return False


def _arch_defaults(path: Path, root: Path = ROOT) -> list[str]:
    """`FILE:LINE: function(parameter=default)` for each parameter of a
    function (or lambda) in `path` whose default names an architecture."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        args = node.args
        positional = args.posonlyargs + args.args
        pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
        for arg, default in pairs:
            if _names_an_architecture(default):
                name = getattr(node, "name", "lambda")
                found.append(f"{path.relative_to(root)}:{default.lineno}: {name}({arg.arg}={ast.unparse(default)})")
    return found


def test_no_parameter_defaults_to_an_architecture():
    found = [v for path in SIGNED for v in _arch_defaults(path)]
    assert not found, "make the caller say which architecture:\n" + "\n".join(found)


@pytest.mark.parametrize("code, fires", [
    ("def f(arch=Arch.WORMHOLE):\n    pass\n", True),
    ("def f(x, *, arch: isa.Arch = isa.Arch.BLACKHOLE):\n    pass\n", True),
    ("def f(arch: str = 'wormhole'):\n    pass\n", True),
    ("async def f(rng, arch=WORMHOLE):\n    pass\n", True),
    ("def f(arch=isa.DEFAULT_ARCH):\n    pass\n", True),
    ("def f(features=ISA[Arch.WORMHOLE].features):\n    pass\n", True),
    ("class C:\n    def __init__(self, n: int = 1, arch='Blackhole'):\n        pass\n", True),
    ("g = lambda arch=Arch.WORMHOLE: arch\n", True),
    ("def f(arch: Arch, n: int = 1):\n    pass\n", False),
    ("def f(arch: Arch | None = None):\n    pass\n", False),
    ("def f():\n    return g(arch=Arch.WORMHOLE)\n", False),
    ("TABLE = {Arch.WORMHOLE: 1}\nNAME = 'wormhole'\n", False),
])
def test_the_default_check_catches_a_planted_one(tmp_path, code, fires):
    path = tmp_path / "sample.py"
    path.write_text(code)
    found = _arch_defaults(path, tmp_path)
    assert bool(found) == fires, found
    if fires:
        assert found[0].startswith("sample.py:")
