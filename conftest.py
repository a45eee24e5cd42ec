"""The docs a user follows run as tests (docs/testing.md, "The docs as tests"):

    python -m pytest README.md docs/tutorial.md docs/api.md      (make doctest)

Sybil collects these three files and nothing else; tests/docs has the parsers.
"""

from pathlib import Path

from sybil import Sybil

from tests.docs.fixtures import doc_shell, llk_src  # noqa: F401 (fixtures of the documents' blocks)
from tests.docs.markdown import parsers

ROOT = Path(__file__).resolve().parent
DOCS = {ROOT / "README.md", ROOT / "docs" / "tutorial.md", ROOT / "docs" / "api.md"}

_collect = Sybil(parsers(), path=str(ROOT), patterns=["*.md"], fixtures=["doc_shell"]).pytest()


def pytest_collect_file(file_path: Path, parent):
    if file_path.resolve() in DOCS:
        return _collect(file_path, parent)
    return None
