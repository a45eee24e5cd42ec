"""Close spellings of a mistyped name, for the one-line errors of the
assembler, the command line and the kernel front end."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """' (did you mean NAME?)' with the known name closest to `word`
    (difflib's measure, case ignored), or '' when none is close. The prefix
    every name shares (`ckernel_sfpu_`, say) is left out of the measure: it
    would make every name look close."""
    names = {name.lower(): name for name in known}
    if not names:
        return ""
    shared = len(os.path.commonprefix([*names, word.lower()]))
    cores = {name[shared:]: name for name in names}
    close = difflib.get_close_matches(word.lower()[shared:], cores, n=1)
    return f" (did you mean {names[cores[close[0]]]}?)" if close else ""
