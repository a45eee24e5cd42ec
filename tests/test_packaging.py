"""The wheel's configuration: one namespace (tensix_sfpu), every folder of the
checkout's packages listed with its files, and no module that imports a
package outside the namespace by its bare folder name."""

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
FOLDERS = {"tensix_sfpu.model": "model", "tensix_sfpu.hdl": "hdl", "tensix_sfpu.tb": "tb",
           "tensix_sfpu.kernels": "kernels", "tensix_sfpu.examples": "examples"}


def _folder(package: str) -> Path:
    if package == "tensix_sfpu":
        return ROOT / "tensix_sfpu"
    for name, folder in sorted(FOLDERS.items(), key=lambda kv: -len(kv[0])):
        if package == name or package.startswith(name + "."):
            return ROOT / folder / Path(*package[len(name):].split(".")[1:])
    raise AssertionError(f"{package}: outside the namespace's folders")


def test_the_folders_map_into_one_namespace():
    assert CONFIG["package-dir"] == FOLDERS
    assert all(p == "tensix_sfpu" or p.startswith("tensix_sfpu.") for p in CONFIG["packages"])


def test_every_folder_with_code_or_data_is_a_listed_package():
    listed = {_folder(p) for p in CONFIG["packages"]}
    assert all(folder.is_dir() for folder in listed)
    wanted = {path.parent for folder in FOLDERS.values() for path in (ROOT / folder).rglob("*")
              if path.is_file() and path.suffix in (".py", ".h", ".s", ".cpp") and "__pycache__" not in path.parts}
    assert wanted - listed == set()


def test_every_data_file_is_in_the_package_data():
    data = CONFIG["package-data"]
    for package in CONFIG["packages"]:
        folder = _folder(package)
        files = [p for p in folder.iterdir() if p.is_file() and p.suffix in (".h", ".s", ".cpp")]
        patterns = data.get(package, [])
        missing = [p.name for p in files if not any(p.match(pattern) for pattern in patterns)]
        assert not missing, f"{package}: {missing} not in [tool.setuptools.package-data]"


BARE = re.compile(r"^\s*(from|import)\s+(model|hdl|tb|kernels|examples)(\.|\s|$)", re.M)


def test_no_module_imports_a_bare_folder_name():
    found = [f"{path.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}"
             for folder in ("model", "hdl", "tb", "kernels", "examples", "tests", "tools", "tensix_sfpu")
             for path in (ROOT / folder).rglob("*.py")
             for text in [path.read_text()] for m in BARE.finditer(text)]
    assert found == []
