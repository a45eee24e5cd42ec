"""Module docstrings name no architecture a module does not serve.

A module serves both architectures unless it is listed in SERVES_ONE. The
first sentence of a module that serves both may not present it as one
architecture's ("for Wormhole SFPU programs", "of the Blackhole ..." with
the other unnamed); the summary of a module that serves one says which."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("model", "hdl", "tb", "kernels", "tensix_sfpu")
ARCHES = ("Wormhole", "Blackhole")

# Modules that serve one architecture, and why.
SERVES_ONE = {
    "model/bh_arith.py": "Blackhole",       # the arithmetic of Blackhole's new instructions
    "kernels/__init__.py": "Wormhole",      # tt-llk's Wormhole schedules; kernels/blackhole.py has Blackhole's
    "kernels/exp.py": "Wormhole",
    "kernels/nonlinear.py": "Wormhole",
    "kernels/reduce.py": "Wormhole",
    "kernels/typecast.py": "Wormhole",
    "kernels/int_ops.py": "Wormhole",
    "kernels/topk.py": "Wormhole",
    "kernels/where.py": "Wormhole",
    "kernels/blackhole.py": "Blackhole",
}
# "<of|for> [the] Wormhole|Blackhole": the module presented as one architecture's.
AS_ONE = re.compile(r"\b(of|for)\s+(the\s+)?(Wormhole|Blackhole)\b(?!'s)")


def _summaries():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            doc = ast.get_docstring(ast.parse(path.read_text())) or ""
            yield path.relative_to(ROOT).as_posix(), " ".join(doc.split("\n\n")[0].split())


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.:])\s", text, maxsplit=1)[0]


def _presented_as(sentence: str) -> set[str]:
    """The architectures a first sentence presents the module as serving alone."""
    named = {a for a in ARCHES if a in sentence}
    return {m.group(3) for m in AS_ONE.finditer(sentence)} if len(named) == 1 else set()


def test_a_module_for_both_does_not_present_itself_as_one_architectures():
    wrong = [f"{name}: {_first_sentence(summary)!r}" for name, summary in _summaries()
             if name not in SERVES_ONE and _presented_as(_first_sentence(summary))]
    assert wrong == []


def test_a_module_for_one_architecture_says_which_in_its_first_sentence():
    summaries = dict(_summaries())
    for name, arch in SERVES_ONE.items():
        assert name in summaries, f"{name}: listed in SERVES_ONE but not found"
        first = _first_sentence(summaries[name])
        assert arch in summaries[name] and next(a for a in ARCHES if a != arch) not in _presented_as(first), name


def test_the_check_catches_a_stale_summary():
    assert _presented_as("Assembler and disassembler for Wormhole SFPU programs.") == {"Wormhole"}
    assert _presented_as("Per-lane PRNG of the Wormhole B0 Vector Unit.") == {"Wormhole"}
    assert not _presented_as("The MAD sub-unit (and Blackhole's SFPMUL24).")
    assert not _presented_as("The SFPU instruction sets of Wormhole B0 and Blackhole A0, described once.")
