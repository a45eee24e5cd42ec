"""The docs a user follows run as tests (docs/testing.md, "The docs as tests"):

    python -m pytest README.md docs/tutorial.md docs/api.md      (make doctest)

Sybil collects these three files and nothing else; tests/docs has the parsers.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
DOCS = {ROOT / "README.md", ROOT / "docs" / "tutorial.md", ROOT / "docs" / "api.md"}

# Sybil is in the test extra for Python 3.11 and later (Sybil 10 needs 3.11). A pytest run under an older
# Python that meets this file (make test-pythons runs the example's test from an install) collects no doc.
try:
    from sybil import Sybil

    from tests.docs.fixtures import doc_shell, llk_src  # noqa: F401 (fixtures of the documents' blocks)
    from tests.docs.markdown import parsers
    _collect = Sybil(parsers(), path=str(ROOT), patterns=["*.md"], fixtures=["doc_shell"]).pytest()
except ImportError as missing:
    _collect = None
    _why = f"the docs as tests need Sybil (the test extra, on Python 3.11 or later): {missing}"


def pytest_collect_file(file_path: Path, parent):
    if file_path.resolve() not in DOCS:
        return None
    if _collect is None:
        raise pytest.UsageError(_why)
    return _collect(file_path, parent)
