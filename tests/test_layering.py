"""Dependencies run in one direction (docs/rtl.md, README's layout): the RTL
imports of the model only the ISA table (`model.isa`) and the data generated
with it (`model.isa_tables`); the model imports none of tb/, hdl/ or kernels/;
the kernels import none of tb/; of tb/, the lock-step environment (tb/env/)
imports only itself, not what runs it (tb/sims/) or is run with it
(tb/campaigns/), but for its cocotb test module, and the backends import
none of the campaigns. Every import statement counts, also one inside a
function."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NAMESPACE = "tensix_sfpu"
# What hdl/ may import of the model.
HDL_MAY_IMPORT = {"isa", "isa_tables"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((NAMESPACE, *parts))


def _imports(path: Path):
    """(line, imported name) for every import in `path`, relative ones resolved. A
    `from P import n` yields P.n, since n may be a module of package P."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if alias.name != "*" else base


def _violations(folder: str, allowed) -> list[str]:
    """Each import of a module of `folder` that `allowed(name)` refuses, as file:line name."""
    return [f"{path.relative_to(ROOT)}:{line} imports {name}"
            for path in sorted((ROOT / folder).rglob("*.py"))
            for line, name in _imports(path)
            if (name == NAMESPACE or name.startswith(NAMESPACE + ".")) and not allowed(name)]


def _under(name: str, *packages: str) -> bool:
    return any(name == f"{NAMESPACE}.{p}" or name.startswith(f"{NAMESPACE}.{p}.") for p in packages)


def _hdl_may_import(name: str) -> bool:
    if _under(name, "hdl"):
        return True
    parts = name.split(".")
    return parts[:2] == [NAMESPACE, "model"] and len(parts) > 2 and parts[2] in HDL_MAY_IMPORT


def test_hdl_imports_only_the_isa_table_of_the_model():
    assert _violations("hdl", _hdl_may_import) == []


def test_the_model_imports_no_other_folder():
    assert _violations("model", lambda name: not _under(name, "tb", "hdl", "kernels", "examples", "api")) == []


def test_the_kernels_import_nothing_of_the_testbench():
    assert _violations("kernels", lambda name: not _under(name, "tb", "hdl", "examples", "api")) == []


def test_the_lockstep_environment_imports_neither_its_backends_nor_its_campaigns():
    # tb/env/ is the bottom layer of tb/ and imports only itself: the backends (tb/sims/) and the campaigns
    # (tb/campaigns/) use it, never the other way; the cocotb test module that runs each campaign's test is an
    # entry point (tb/cli/cocotb_tests.py).
    assert _violations("tb/env", lambda name: not _under(name, "tb") or _under(name, "tb.env")) == []
    assert _violations("tb/sims", lambda name: not _under(name, "tb.campaigns")) == []


# Library folders of tb/: the entry points (tb/cli, tb/api.py) and the campaigns run them, never the other
# way (the simulators' build, the corpus run and the fuzzer have their command lines in tb/cli).
TB_LIBRARIES = ("tb/env", "tb/sims", "tb/stimulus", "tb/llk", "tb/perf", "tb/waves")


@pytest.mark.parametrize("folder", TB_LIBRARIES)
def test_tb_libraries_import_no_entry_point_and_no_campaign(folder):
    assert _violations(folder, lambda name: not _under(name, "tb.cli", "tb.api", "tb.campaigns")) == []


def test_the_campaigns_import_no_command_line():
    # A campaign's command line (its options) is in tb/cli; the campaign takes the parsed options. (The bench
    # times `sfpu perf` through the Python API, as a user calls it.)
    assert _violations("tb/campaigns", lambda name: not _under(name, "tb.cli")) == []


@pytest.mark.parametrize("source, expected", [
    ("from tensix_sfpu.model import isa, state\n", ["tensix_sfpu.model.isa", "tensix_sfpu.model.state"]),
    ("from ..model.dst_format import Mod0Fmt\n", ["tensix_sfpu.model.dst_format.Mod0Fmt"]),
    ("def f():\n    import tensix_sfpu.tb.dst_io\n", ["tensix_sfpu.tb.dst_io"]),
    ("from . import lregs\n", ["tensix_sfpu.hdl.lregs"]),
])
def test_the_scan_resolves_each_form_of_import(tmp_path, monkeypatch, source, expected):
    # The scanner itself: absolute, relative and function-level imports, as a module of hdl/ has them.
    folder = tmp_path / "hdl"
    folder.mkdir()
    (folder / "x.py").write_text(source)
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert [name for _, name in _imports(folder / "x.py")] == expected
    assert _hdl_may_import("tensix_sfpu.model.isa.Arch") and _hdl_may_import("tensix_sfpu.model.isa_tables")
    assert not _hdl_may_import("tensix_sfpu.model.dst_format.Mod0Fmt")
    assert not _hdl_may_import("tensix_sfpu.model")
