"""Code branches on a feature of the architecture (`model.isa.Features`),
never on the chip's name: outside the table (model/isa.py), no file under
model/, hdl/, tb/ or tools/ names Wormhole or Blackhole in its code, but as a
key of a per-architecture table, compares anything with a chip's name, or
keeps a flag named after a chip (issue 31, item 2; issue 39, item 3). The
user's default is `isa.DEFAULT_ARCH`, and a name or file that leaves it out
says so through `Arch.tagged`. User-facing wording may name a chip (in a
string, or from `Arch.title`). And no parameter defaults to an architecture:
the caller says which one (issue 31, "features instead of chip names"), but
for the user's default at the edges, the Python API (tb/api.py) and the
command line (tb/cli/).
"""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "model" / "isa.py"
SOURCES = sorted(p for d in ("model", "hdl", "tb", "tools") for p in (ROOT / d).rglob("*.py") if p != TABLE)
# The chip's name in code that is no branch, each with why (at most 5: issue 39).
ALLOWED = {
    ("tb/stimulus/directed.py", "isa.encode(\"SFPAND\", isa.Arch.BLACKHOLE"):
        "stack_remaps' macro templates are Blackhole's words (USE_VB): data of a directed program that only "
        "an architecture with the stack pointer runs (PROGRAM_FEATURES)",
    ("tb/stimulus/directed.py", "isa.encode(\"SFPOR\", isa.Arch.BLACKHOLE"):
        "the same program's second template",
}

# Where the user's default (Wormhole) is the rule: the Python API and the command line.
USER_FACING = (ROOT / "tb" / "api.py", ROOT / "tb" / "cli")
SIGNED = sorted(p for d in ("model", "hdl", "tb", "kernels", "tools") for p in (ROOT / d).rglob("*.py")
                if not any(p == u or u in p.parents for u in USER_FACING))

CHIP_MEMBERS = {"WORMHOLE", "BLACKHOLE"}
CHIP_FLAGS = re.compile(r"_?(blackhole|wormhole|bh|wh|is_blackhole|is_wormhole)")
CHIP_NAME = re.compile(r"(blackhole|wormhole|bh|wh)([_ ]?[ab]0)?", re.IGNORECASE)


def _chip_names(node: ast.expr) -> bool:
    """`node` is a chip's name as a string, or a tuple, list or set holding one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(CHIP_NAME.fullmatch(node.value.strip()))
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_chip_names(e) for e in node.elts)
    return False


def _name_tests(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for each test of a value against a chip's name: a comparison
    (`==`, `!=`, `in`, `is`) with one, `.startswith`/`.endswith` of one, a `case` of one."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(_chip_names(n) for n in [node.left, *node.comparators]):
            found.append((node.lineno, "compares with a chip's name"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "endswith") and any(_chip_names(a) for a in node.args)):
            found.append((node.lineno, "tests a prefix or suffix against a chip's name"))
        elif isinstance(node, ast.match_case) and any(
                isinstance(p, ast.MatchValue) and _chip_names(p.value) for p in ast.walk(node.pattern)):
            found.append((node.pattern.lineno, "matches a chip's name"))
    return found


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
    lines = text.splitlines()
    for n, what in _name_tests(ast.parse(text, str(path))):
        found.append(f"{path.relative_to(root)}:{n}: {what}: {lines[n - 1].strip()}")
    return [v for v in found if not _allowed(v)]


def _allowed(violation: str) -> bool:
    where, _, text = violation.partition(": ")
    return any(where.split(":")[0] == path and snippet in text for path, snippet in ALLOWED)


def test_no_code_branches_on_the_chip_name():
    found = [v for path in SOURCES for v in _violations(path)]
    assert not found, ("branch on a Features field, read the fact from the architecture's data, or use "
                       "isa.DEFAULT_ARCH / Arch.tagged for the user's default:\n" + "\n".join(found))


def test_the_allow_list_is_short_and_used():
    assert len(ALLOWED) <= 5
    for path, snippet in ALLOWED:
        assert snippet in (ROOT / path).read_text(), f"{path}: {snippet!r} is gone: drop it from ALLOWED"


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
    # tb/ and tools/ steer on strings too (issue 39, item 3).
    ('if arch == "blackhole":\n    pass\n', True),
    ('base = "x" if request.arch == "wormhole" else ""\n', True),
    ('if "blackhole" != name:\n    pass\n', True),
    ('if args.arch in ("bh", "blackhole_a0"):\n    pass\n', True),
    ('ok = name.startswith("Blackhole")\n', True),
    ('match arch:\n    case "wormhole":\n        pass\n', True),
    ("if arch is isa.BLACKHOLE:\n    pass\n", True),
    ("wh = [r for r in rows]\n", True),
    ("if arch is DEFAULT_ARCH:\n    pass\n", False),
    ('name = "sfpu" + arch.tagged("-{}")\n', False),
    ('for arch in ("wormhole", "blackhole"):\n    pass\n', False),
    ('ARCH_DIRS = {"wormhole": 1, "blackhole": 2}\nprint(f"on {arch.title}")\n', False),
    ('if arch == "both":\n    pass\n', False),
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
