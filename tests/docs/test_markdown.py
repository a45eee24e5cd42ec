"""The doc tests' conventions (tests/docs/markdown.py) on small documents: a changed output
fails, `...` masks text but not the numbers around it, and the tested docs skip only with a
reason. These take a second; the docs themselves run in `make doctest`."""

import re
import textwrap
from pathlib import Path
from unittest import SkipTest

import pytest
from sybil import Sybil
from sybil.example import SybilFailure

from tensix_sfpu.tb.llk import fetch
from tests.docs.markdown import Shell, parsers

ROOT = Path(__file__).resolve().parents[2]
TESTED = [ROOT / "README.md", ROOT / "docs" / "tutorial.md", ROOT / "docs" / "api.md"]
FENCE = "```"


def run_doc(tmp_path: Path, markdown: str) -> Shell:
    """Every block of the document, in order, as `make doctest` runs them."""
    path = tmp_path / "doc.md"
    path.write_text(textwrap.dedent(markdown).replace("'''", FENCE))
    document = Sybil(parsers(), path=str(tmp_path)).parse(path)
    shell = document.namespace["doc_shell"] = Shell(tmp_path)
    for example in document.examples():
        example.evaluate()
    return shell


def command(script: str, shown: str, info: str = "sh") -> str:
    return f"'''{info}\n{script}\n'''\n'''\n{shown}\n'''\n"


@pytest.mark.parametrize("shown", [
    "96 of 1,024 results differ",
    "96   of 1,024\nresults differ",                 # re-wrapped: spaces and line breaks are free
    "96 of 1,024 ...",
])
def test_the_output_shown_passes(tmp_path, shown):
    run_doc(tmp_path, command("echo '96 of 1,024 results differ'", shown))


@pytest.mark.parametrize("shown", [
    "97 of 1,024 results differ",                    # a number changed in the doc
    "96 of 1,024 results differ\nand more",
    "96 of 1,024",                                   # an abridged output must say so with `...`
])
def test_a_changed_output_fails(tmp_path, shown):
    with pytest.raises(SybilFailure, match="the doc shows"):
        run_doc(tmp_path, command("echo '96 of 1,024 results differ'", shown))


def test_an_ellipsis_masks_a_path_and_a_time_but_not_the_line_number(tmp_path):
    script = "echo \"first difference: $PWD/my_exp.h:598\"; echo '1 passed in 0.42s'"
    run_doc(tmp_path, command(script, "first difference: .../my_exp.h:598\n1 passed in ...s"))
    with pytest.raises(SybilFailure):
        run_doc(tmp_path, command(script, "first difference: .../my_exp.h:599\n1 passed in ...s"))


def test_stderr_is_shown_where_a_terminal_shows_it(tmp_path):
    run_doc(tmp_path, command("echo one; echo two >&2; echo three", "one\ntwo\nthree"))


@pytest.mark.parametrize("info, script, passes", [
    ("sh", "true", True),
    ("sh", "false; echo never", False),              # a failing command stops its block
    ("sh exit=3", "exit 3", True),
    ("sh exit=3", "exit 0", False),                  # a stop the doc shows must still stop
])
def test_the_exit_status_is_checked(tmp_path, info, script, passes):
    doc = f"'''{info}\n{script}\n'''\n"
    if passes:
        run_doc(tmp_path, doc)
    else:
        with pytest.raises(SybilFailure, match="exit status"):
            run_doc(tmp_path, doc)


def test_a_bare_block_that_follows_no_command_fails(tmp_path):
    doc = command("echo 96", "96") + "\nThen, later:\n\n'''\n97\n'''\n"
    with pytest.raises(SybilFailure, match="must follow its ```sh block"):
        run_doc(tmp_path, doc)
    run_doc(tmp_path, doc.replace("'''\n97", "'''text\n97"))


def test_cd_export_files_and_python_blocks_share_one_folder(tmp_path):
    shell = run_doc(tmp_path, """\
        '''sh
        mkdir -p build/tour && cd build/tour
        export ANSWER=42
        '''
        '''python title="answer.py"
        import os
        print(os.environ["ANSWER"])
        '''
        '''sh
        python3 answer.py
        '''
        '''
        42
        '''
        '''python
        import os
        from pathlib import Path
        assert Path.cwd().name == "tour" and os.environ["ANSWER"] == "42"
        Path("from_python").touch()
        '''
        '''sh
        ls
        '''
        '''
        answer.py from_python
        '''
        """)
    assert shell.cwd == tmp_path / "build" / "tour"


def test_a_skipped_block_is_not_run_and_says_why(tmp_path):
    doc = '<!-- skip: next "opens a window" -->\n\n' + "'''sh\ntouch ran\n'''\n"
    with pytest.raises(SkipTest, match="opens a window"):
        run_doc(tmp_path, doc)
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize("doc", TESTED, ids=lambda p: p.name)
def test_every_skip_in_the_tested_docs_gives_its_reason(doc):
    """Sybil's `skip: next` without a reason skips silently, counted as passed."""
    skips = re.findall(r"<!--\s*skip:(.*?)-->", doc.read_text(), re.S)
    assert all(re.fullmatch(r'\s*next\s+"[^"]{10,}"\s*', s) for s in skips), skips


@pytest.mark.parametrize("doc", TESTED[:2], ids=lambda p: p.name)
def test_the_wheel_the_docs_download_is_the_one_the_tests_fetch(doc):
    """The README's and tutorial's download is skipped in the doc tests, which fetch the same
    wheel once into a cache (tests/docs/fixtures.py, tb/llk/fetch.py)."""
    text = doc.read_text()
    download = re.search(r"pip download (.*?) -d ", text, re.S)[1].replace("\\\n", " ").split()
    assert f"ttnn=={fetch.VERSION}" in download
    platform = download[download.index("--platform") + 1]
    python = download[download.index("--python-version") + 1].replace(".", "")
    assert fetch.WHEEL == f"ttnn-{fetch.VERSION}-cp{python}-cp{python}-{platform}.whl"
