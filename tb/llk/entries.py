"""The SFPU entry points of a kernel header, found by reading its text.

An entry point is a function named `calculate_*` or `_calculate_*`, or, in a
header without any, a function no other function of the header calls and
whose name is not an init's. Each is listed with its template and function
parameters and the header's init functions (names containing `init`), the
one whose name shares the entry's stem first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_FUNCTION = re.compile(
    r"(?:template\s*<(?P<tparams>(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*)>\s*)?"     # <> nested two deep
    r"(?:(?:inline|static|constexpr|sfpi_inline|ALWI|TT_ALWAYS_INLINE|__attribute__\(\([^)]*\)\))\s+)*"
    r"(?P<ret>void|sfpi::vFloat|vFloat|sfpi::vInt|vInt|std::uint32_t|uint32_t|int|bool)\s+"
    r"(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^)]*)\)\s*\{")


@dataclass(frozen=True)
class Param:
    type: str
    name: str
    default: str | None


@dataclass
class Function:
    name: str
    template: list[Param]
    params: list[Param]
    line: int
    issues_tti: bool = False      # its own body has TTI_/TT_ macros (not only calls and SFPI)


@dataclass
class Entry:
    header: Path
    function: Function
    inits: list[Function] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.function.name


def split_args(text: str) -> list[str]:
    """Top-level comma-separated pieces of an argument or parameter list."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def _params(text: str | None) -> list[Param]:
    if not text or not text.strip():
        return []
    out = []
    for piece in split_args(text):
        if not piece:
            continue
        decl, _, default = piece.partition("=")
        words = decl.replace("&", " & ").replace("*", " * ").split()
        # The last word names the parameter unless it is part of the type: an unnamed parameter
        # (`const std::uint32_t /*exponent_size_8*/`) ends in a type, a qualified or built-in name.
        named = len(words) > 1 and re.fullmatch(r"[A-Za-z_]\w*", words[-1]) and words[-1] not in _TYPE_WORDS
        name = words[-1] if named else ""
        ptype = " ".join(words[:-1] if named else words).replace(" &", "&").replace(" *", "*")
        out.append(Param(ptype, name, default.strip() or None))
    return out


_TYPE_WORDS = {"int", "unsigned", "signed", "float", "double", "bool", "char", "short", "long", "uint",
               "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t", "int64_t",
               "size_t", "auto"}


def functions(path: Path) -> list[Function]:
    text = path.read_text(errors="replace")
    code = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    found = []
    for m in _FUNCTION.finditer(code):
        body = code[m.end():_closing_brace(code, m.end())]
        found.append(Function(m.group("name"), _params(m.group("tparams")), _params(m.group("params")),
                              code.count("\n", 0, m.start("name")) + 1, bool(_TTI.search(body))))
    return found


_TTI = re.compile(r"\bTTI?_[A-Z]")


def _closing_brace(code: str, start: int) -> int:
    """The end of the block whose opening brace is just before `start`."""
    depth = 1
    for i in range(start, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(code)


def _stem(name: str) -> str:
    return re.sub(r"^_?(calculate_|init_)?|(_init)?_?$", "", name)


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def entries(path: Path) -> list[Entry]:
    funcs = functions(path)
    code = _COMMENT.sub("", path.read_text(errors="replace"))
    # An init, not a body that skips one (`_calculate_log_body_no_init_`), nor a helper that fills
    # the caller's vectors (`_calculate_comp_init_flag_(bool, vFloat& flag1, ...)`).
    inits = [f for f in funcs if "init" in f.name and "no_init" not in f.name
             and not any(p.type.endswith("&") and not p.type.startswith("const") for p in f.params)]
    chosen = [f for f in funcs if re.match(r"_?calculate_", f.name) and not f.name.endswith("_body")
              and "init" not in f.name]
    if not chosen:
        chosen = [f for f in funcs if "init" not in f.name
                  and len(re.findall(rf"\b{re.escape(f.name)}\b", code)) == 1]
    seen: set[str] = set()
    out = []
    for f in chosen:
        if f.name in seen:      # overloads: the first one
            continue
        seen.add(f.name)
        stem = _stem(f.name)
        # The longest shared prefix first; among equals the init named for this very stem
        # (init_reduce for calculate_reduce, not init_reduce_max_min_int32), then the header's order.
        ordered = sorted(inits, key=lambda i: (-_common_prefix(_stem(i.name), stem), _stem(i.name) != stem, i.line))
        out.append(Entry(path, f, ordered))
    return out


def signature(f: Function) -> str:
    t = ", ".join(f"{p.type} {p.name}" + (f" = {p.default}" if p.default else "") for p in f.template)
    a = ", ".join(f"{p.type} {p.name}" + (f" = {p.default}" if p.default else "") for p in f.params)
    return (f"template <{t}> " if f.template else "") + f"{f.name}({a})"
