"""Every import in tools/*.py resolves, including those inside functions (the
tools import the project lazily, after parsing their arguments, so running
`--help` would not notice a module that moved)."""

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = sorted((ROOT / "tools").glob("*.py"))


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module != "__future__":
            for alias in node.names:
                yield node.lineno, node.module, alias.name


@pytest.mark.parametrize("path", TOOLS, ids=lambda p: p.name)
def test_every_import_of_a_tool_resolves(path, monkeypatch):
    monkeypatch.syspath_prepend(str(path.parent))      # as when the script runs: its siblings import
    for line, module, name in _imports(path):
        try:
            loaded = importlib.import_module(module)
        except ImportError as e:
            pytest.fail(f"{path.name}:{line}: import {module}: {e}")
        if name is not None and not hasattr(loaded, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                pytest.fail(f"{path.name}:{line}: {module} has no {name}")


def test_the_check_sees_a_moved_module(tmp_path, monkeypatch):
    broken = tmp_path / "broken.py"
    broken.write_text("def main():\n    from tb.programs import resolve_all\n")
    with pytest.raises(pytest.fail.Exception, match="broken.py:2: import tb.programs"):
        test_every_import_of_a_tool_resolves(broken, monkeypatch)
