"""The docs a user follows, run as tests with Sybil (docs/testing.md, "The docs as tests").

A Markdown document's code blocks run in order, in one scratch folder per document:

    ```sh                 run by bash (-e, pipefail); it must exit 0
    ```sh exit=3          ... it must exit 3 (a run the doc shows stopping)
    ```                   right after a sh block (blank lines between at most): what it prints,
                          stdout and stderr as a terminal shows them; `...` stands for any text
                          (the rest of a long output, a path, a time) and runs of spaces and line
                          breaks compare equal, so a doc may re-wrap long lines
    ```python             run in the same folder and environment (Sybil's own parser)
    ```python title="F"   written to the file F in that folder, for a later block to use
    <!-- skip: next "why" -->   the next block is not run (Sybil's skip), and pytest says why

A bare block anywhere else fails: an output the doc shows must be one the test compares
(a block that is not an output is labelled, e.g. ```text).

The sh blocks share `cd` and `export` as a terminal would: each runs in a fresh bash that
starts where the previous one ended, with its exported variables.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import tempfile
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sybil import Document, Example, Region
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

# A whole Verilator build of the RTL fits in it (minutes); a doc's step takes seconds once built.
BLOCK_TIMEOUT = 20 * 60
# `...` is any text; spaces and line breaks are free (the docs wrap long lines).
MATCHING = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# What bash sets by itself, not carried from one block to the next.
BASH_OWN = {"PWD", "OLDPWD", "SHLVL", "_"}


@dataclass
class Shell:
    """The terminal a document's reader types into: a folder and exported variables."""
    cwd: Path
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))

    def run(self, script: str) -> tuple[int, str]:
        """The script's exit status and what it printed (stdout and stderr merged in order);
        the folder it ends in and its exports carry on to the next."""
        with tempfile.TemporaryDirectory() as state:
            saved = f"{shlex.quote(state)}/env", f"{shlex.quote(state)}/cwd"
            wrapped = f"trap 'env -0 > {saved[0]}; pwd > {saved[1]}' EXIT\nset -e -o pipefail\n{script}"
            done = subprocess.run(["bash", "-c", wrapped], cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=BLOCK_TIMEOUT)
            env, cwd = (Path(state) / name for name in ("env", "cwd"))
            if env.is_file() and cwd.is_file():
                pairs = (item.partition("=") for item in env.read_text().split("\0") if item)
                self.env = {k: v for k, _, v in pairs if k not in BASH_OWN}
                self.cwd = Path(cwd.read_text().strip())
        return done.returncode, done.stdout

    @contextmanager
    def entered(self):
        """This process in the shell's folder and environment, for a Python block."""
        old_cwd, old_env = os.getcwd(), dict(os.environ)
        os.chdir(self.cwd)
        os.environ.clear()
        os.environ.update(self.env)
        try:
            yield
        finally:
            os.chdir(old_cwd)
            os.environ.clear()
            os.environ.update(old_env)


def shell_of(example: Example) -> Shell:
    return example.namespace["doc_shell"]


def matches(want: str, got: str) -> bool:
    return doctest.OutputChecker().check_output(want, got, MATCHING)


@dataclass(frozen=True)
class Command:
    script: str
    status: int
    output: str | None         # None: the doc shows no output, so only the status is checked

    def __call__(self, example: Example) -> str | None:
        status, got = shell_of(example).run(self.script)
        if status == self.status and (self.output is None or matches(self.output, got)):
            return None
        what = (f"exit status {status} where the doc expects {self.status}" if status != self.status
                else "the output differs from the doc's")
        shown = "" if self.output is None else f"--- the doc shows:\n{self.output}\n"
        return f"{what}\n{shown}--- the commands printed:\n{got}"


@dataclass(frozen=True)
class File:
    name: str
    text: str

    def __call__(self, example: Example) -> None:
        (shell_of(example).cwd / self.name).write_text(self.text)


@dataclass(frozen=True)
class Stray:
    """A bare block that follows no sh block: an output nothing would compare."""

    def __call__(self, example: Example) -> str:
        return ("a bare ``` block must follow its ```sh block directly (it is the output compared); "
                "label it (```text) if it is no command's output")


SH = re.compile(r"sh(?: exit=(?P<status>\d+))?")
FILE = re.compile(r'(?P<language>\w+) title="(?P<name>[^"/]+)"')


class CommandParser:
    """```sh blocks with the output block after them, ```LANG title="F" files, and stray outputs."""

    lexer = RawFencedCodeBlockLexer(info_pattern=re.compile(r"(?P<info>[^\n]*)$\n", re.MULTILINE))

    def __call__(self, document: Document) -> Iterable[Region]:
        blocks = list(self.lexer(document))
        output_of_previous = set()
        for i, block in enumerate(blocks):
            info, source = block.lexemes["info"].strip(), block.lexemes["source"]
            if i in output_of_previous:
                continue
            if info.split(" ")[0] == "sh":
                sh = SH.fullmatch(info)
                if sh is None:
                    raise ValueError(f"{document.path}: ```{info}: a sh block takes `exit=N` and nothing else")
                after = blocks[i + 1] if i + 1 < len(blocks) else None
                shown = (after is not None and after.lexemes["info"].strip() == ""
                         and document.text[block.end:after.start].strip() == "")
                end = after.end if shown else block.end
                if shown:
                    output_of_previous.add(i + 1)
                yield self.region(block.start, end, Command(source, int(sh["status"] or 0),
                                                            after.lexemes["source"] if shown else None))
            elif FILE.fullmatch(info):
                yield self.region(block.start, block.end, File(FILE.fullmatch(info)["name"], source))
            elif info == "":
                yield self.region(block.start, block.end, Stray())

    @staticmethod
    def region(start: int, end: int, step) -> Region:
        return Region(start, end, parsed=step, evaluator=step)


class InShell:
    """A parser's Python blocks run in the document's shell folder and environment."""

    def __init__(self, parser):
        self.parser = parser

    def __call__(self, document: Document) -> Iterable[Region]:
        for region in self.parser(document):
            region.evaluator = self._entered(region.evaluator)
            yield region

    @staticmethod
    def _entered(evaluator):
        def evaluate(example: Example):
            with shell_of(example).entered():
                return evaluator(example)
        return evaluate


def parsers() -> list:
    """A fresh set for one Sybil (the skip parser keeps state per document)."""
    return [SkipParser(), CommandParser(), InShell(PythonCodeBlockParser())]
