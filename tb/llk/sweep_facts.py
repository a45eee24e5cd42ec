"""What tt-llk's exhaustive ULP sweep runs, read at run time from a kernel
tree's `tests/` folder (the unpacked ttnn wheel, a tt-metal or tt-llk
checkout). Nothing here is copied from it; each fact is parsed where it lives:

- the op -> SfpuType enumerator: `python_tests/helpers/llk_params.py`
  (`Name = OpSpec("cpp_name", MathOpType.SFPU_UNARY)`);
- the kernel call and init per SfpuType: the dispatch of
  `helpers/include/sfpu_operations.h` (`call_unary_sfpu_operation_init` and
  `call_unary_sfpu_operation`), its `if constexpr` chain resolved for the
  cell's template arguments and architecture;
- the template arguments the sweep compiles with: ITERATIONS from
  `sources/eltwise_unary_sfpu_test.cpp`, FAST_MODE and CLAMP_NEGATIVE from
  `python_tests/test_unary_sfpu_ulp.py`;
- the budget rows and each row's hardware maximum:
  `helpers/sfpu_accuracy_budget.yaml` (through tb.llk.accuracy.read_budget);
- the ops' singularities, poles and argument-reduction limits:
  `helpers/sfpu_domains.py` and `helpers/ulp_sweep.py`.
"""

from __future__ import annotations

import functools
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import accuracy
from .entries import _closing_brace, functions, split_args
from .sources import UPSTREAM, SourceTree

SWEEP_FORMATS = ("Float16_b", "Float16", "Float32")


class FactsError(Exception):
    """Something the tree does not have or says in a form this reader does not
    follow; the message names the file (and line)."""


# ---------------------------------------------------------------------------
# C++ text helpers

_LINE_COMMENT = re.compile(r"//[^\n]*")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def _strip_comments(text: str) -> str:
    """Comments blanked, line count kept."""
    text = _BLOCK_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return _LINE_COMMENT.sub("", text)


def _preprocess(text: str, defined: set[str]) -> str:
    """`#ifdef`/`#ifndef`/`#if defined(X)`/`#else`/`#endif` resolved for the
    macros in `defined`; lines skipped become blank (line numbers kept)."""
    out, stack = [], []          # stack of (taking, any branch taken)
    for line in text.split("\n"):
        s = line.strip()
        m = re.match(r"#\s*(ifdef|ifndef)\s+(\w+)", s) or re.match(r"#\s*if\s+(!?)\s*defined\s*\(\s*(\w+)\s*\)\s*$", s)
        if m:
            want = m.group(2) in defined
            if m.group(1) in ("ifndef", "!"):
                want = not want
            parent = all(t for t, _ in stack)
            stack.append((parent and want, want))
            out.append("")
            continue
        if re.match(r"#\s*if\b", s):
            stack.append((False, True))      # an #if this reader cannot evaluate: not taken
            out.append("")
            continue
        if re.match(r"#\s*else\b", s) and stack:
            taking, taken = stack.pop()
            parent = all(t for t, _ in stack)
            stack.append((parent and not taken, True))
            out.append("")
            continue
        if re.match(r"#\s*endif\b", s) and stack:
            stack.pop()
            out.append("")
            continue
        out.append(line if all(t for t, _ in stack) else "")
    return "\n".join(out)


def _matching(text: str, start: int, open_ch: str = "(", close_ch: str = ")") -> int:
    """Index of the bracket closing the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
    raise FactsError(f"unbalanced {open_ch}{close_ch}")



def _function_body(code: str, name: str, where: str) -> tuple[str, int]:
    m = re.search(rf"\b{name}\s*\([^)]*\)\s*\{{", code)
    if m is None:
        raise FactsError(f"{where}: no function {name}")
    end = _closing_brace(code, m.end())
    return code[m.end():end], code.count("\n", 0, m.end()) + 1


# ---------------------------------------------------------------------------
# `if constexpr` chains

class _Unknown(Exception):
    pass


def _evaluate(condition: str, env: dict) -> bool:
    """A C++ constant condition over the names in `env` (bools, ints, the
    OPERATION's enumerator as 'SfpuType::x')."""
    expr = " ".join(condition.split())
    expr = re.sub(r"(?:\bckernel::)?\bto_underlying\s*\(|\bstatic_cast\s*<[^<>]*>\s*\(", "(", expr)
    expr = re.sub(r"\b(\w+)::(\w+)", lambda m: repr(f"{m.group(1)}::{m.group(2)}"), expr)
    expr = expr.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    expr = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", expr))
    names = {k: v for k, v in env.items()}
    try:
        return bool(eval(expr, {"__builtins__": {}}, names))    # noqa: S307 (the tree's own constant expressions)
    except NameError as e:
        raise _Unknown(str(e)) from None
    except SyntaxError:
        raise _Unknown("cannot read the condition") from None


def resolve(block: str, env: dict, where: str) -> str:
    """`block` with every `if [constexpr] (...) {...} else if ... else {...}`
    chain replaced by the body its conditions select (recursively), and each
    `constexpr bool NAME = EXPR;` seen on the way evaluated into `env`. A
    plain `if` in the dispatch tests the run-time `math_format`, which the
    cell fixes, so it resolves the same way."""
    out, i = [], 0
    while True:
        m = re.search(r"\bif\s*(?:constexpr\s*)?\(", block[i:])
        d = re.search(r"\bconstexpr\s+bool\s+(\w+)\s*=\s*([^;]+);", block[i:])
        if d and (m is None or d.start() < m.start()):
            try:
                env[d.group(1)] = _evaluate(d.group(2), env)
            except _Unknown:
                pass
            out.append(block[i:i + d.end()])
            i += d.end()
            continue
        if m is None:
            out.append(block[i:])
            return "".join(out)
        out.append(block[i:i + m.start()])
        j = i + m.end() - 1
        chosen, done = None, False
        while True:
            close = _matching(block, j)
            condition = block[j + 1:close]
            body_open = block.index("{", close)
            body_close = _matching(block, body_open, "{", "}")
            if chosen is None and not done:
                try:
                    if _evaluate(condition, env):
                        chosen = block[body_open + 1:body_close]
                        done = True
                except _Unknown as e:
                    raise FactsError(f"{where}: {e} in `if constexpr ({' '.join(condition.split())})`") from None
            j = body_close + 1
            rest = re.match(r"\s*else\s+if\s*(?:constexpr\s*)?\(", block[j:])
            if rest:
                j += rest.end() - 1
                continue
            rest = re.match(r"\s*else\s*\{", block[j:])
            if rest:
                body_open = j + rest.end() - 1
                body_close = _matching(block, body_open, "{", "}")
                if chosen is None:
                    chosen = block[body_open + 1:body_close]
                j = body_close + 1
            break
        if chosen is not None:
            out.append(resolve(chosen, env, where))
        i = j


# ---------------------------------------------------------------------------
# The facts

@dataclass(frozen=True)
class KernelCall:
    """One cell's kernel as the sweep compiles it."""
    op: str
    sfpu_type: str
    header: Path
    call: str
    init: str | None
    vector_mode: str          # the front end's: "none" (one call, the whole tile) or "rc" (once per face)
    source: str               # where the dispatch says so
    preincludes: tuple[Path, ...] = ()     # the kernel headers the dispatch includes before `header`


@dataclass
class SweepFacts:
    tree: SourceTree
    tests: Path
    ops: dict[str, str]                       # budget op name -> SfpuType enumerator
    rows: list[accuracy.BudgetRow]
    iterations: int
    fast_mode: bool
    clamp_negative: bool
    singularities: dict[str, list[tuple[float, str]]] = field(default_factory=dict)
    nonpositive_poles: set[str] = field(default_factory=set)
    claim_limits: dict[str, float] = field(default_factory=dict)   # op -> |x| limit on Float16_b/Float32
    all_lanes: dict = field(default_factory=dict)      # row_key -> the hardware's max over every lane
    _dispatch: dict = field(default_factory=dict)
    _headers: dict | None = None
    _wrappers: Path | None = None
    _scratch: object = None

    # -- budget ---------------------------------------------------------------
    def row(self, op: str, in_fmt: str, out_fmt: str, approx: bool, dest: bool,
            arch: str) -> accuracy.BudgetRow | None:
        """The most specific row for the cell (SFPU_ULP.md: every key optional,
        an omitted key matches anything; a row keyed with `arch` only that arch;
        unkeyed rows are Wormhole's measurements and are used for both)."""
        return accuracy.most_specific_row(self.rows, op, {"in": in_fmt, "out": out_fmt,
                                                          "approx": "Yes" if approx else "No",
                                                          "dest": "Yes" if dest else "No", "arch": arch})

    def swept_ops(self) -> list[str]:
        """Every budget op that is a unary SFPU op of llk_params (the sweep's enrolment)."""
        return sorted({r.op for r in self.rows if r.op in self.ops})

    # -- kernels --------------------------------------------------------------
    def kernel(self, op: str, approx: bool, dest: bool, arch: str, math_format: str = "Float16_b") -> KernelCall:
        """The call and init the sweep compiles for the op at this cell (`math_format`:
        the format the math side is configured with, the unpacker's output)."""
        if op not in self.ops:
            raise FactsError(f"{op}: not a unary SFPU op of {self.tests}/python_tests/helpers/llk_params.py")
        sfpu_type = self.ops[op]
        env = {"OPERATION": f"SfpuType::{sfpu_type}", "APPROX_MODE": approx, "is_fp32_dest_acc_en": dest,
               "DST_ACCUM_MODE": dest, "ITERATIONS": self.iterations, "FAST_MODE": self.fast_mode,
               "CLAMP_NEGATIVE": self.clamp_negative, "STABLE_SORT": False, "FUSED_SORT": False,
               "TYPECAST_IN": "DataFormat::Invalid", "TYPECAST_OUT": "DataFormat::Invalid",
               "math_format": f"DataFormat::{math_format}"}
        code, name = self._dispatch_code(arch)
        constants = dict(self._file_constants(code))
        init_body, init_line = _function_body(code, "call_unary_sfpu_operation_init", name)
        call_body, call_line = _function_body(code, "call_unary_sfpu_operation", name)
        init_env, call_env = dict(env), dict(env)
        init_text = resolve(init_body, init_env, f"{name} (call_unary_sfpu_operation_init, {op})")
        call_text = resolve(call_body, call_env, f"{name} (call_unary_sfpu_operation, {op})")
        constants.update(self._local_constants(call_body))
        constants.update(self._parameter_defaults(code, "call_unary_sfpu_operation"))
        values = {**constants, **{k: _cxx(v) for k, v in call_env.items()}}
        init = self._init_expr(init_text, {**constants, **{k: _cxx(v) for k, v in init_env.items()}}, name)
        fn, targs, vector_mode, args = self._call_parts(call_text, name, op)
        call = f"{fn}<{', '.join(_substitute(a, values) for a in targs)}>({', '.join(_substitute(a, values) for a in args)})"
        header = self._header_of(fn)
        if header is None:
            raise FactsError(f"{name}: {op} calls {fn}, which no SFPU header of {self.tree.root} defines")
        return KernelCall(op, sfpu_type, header, call, init, vector_mode, f"{name}:{call_line}",
                          included_before(self.tree, header, code))

    def _dispatch_code(self, arch: str) -> tuple[str, str]:
        if arch not in self._dispatch:
            path = dispatch_path(self.tests)
            if not path.is_file():
                raise FactsError(f"{path}: no such file (the sweep's kernel dispatch)")
            self._dispatch[arch] = (_dispatch_text(path, arch), str(path))
        return self._dispatch[arch]

    @staticmethod
    def _file_constants(code: str) -> list[tuple[str, str]]:
        return [(m.group(1), m.group(2).strip()) for m in
                re.finditer(r"^\s*constexpr\s+(?:int|std::uint32_t|uint32_t)\s+(\w+)\s*=\s*([^;]+);", code, re.M)]

    @staticmethod
    def _parameter_defaults(code: str, name: str) -> dict[str, str]:
        """The dispatch's run-time parameters the test never passes take their defaults
        (`float fill_const_value = 5.0f`)."""
        m = re.search(rf"\b{name}\s*\(([^)]*)\)\s*\{{", code)
        out = {}
        for param in split_args(m.group(1)) if m else []:
            d = re.match(r".*?\b(\w+)\s*=\s*(.+)$", param)
            if d:
                out[d.group(1)] = d.group(2).strip()
        return out

    @staticmethod
    def _local_constants(body: str) -> dict[str, str]:
        return {m.group(1): m.group(2).strip() for m in
                re.finditer(r"constexpr\s+(?:int|std::uint32_t|uint32_t)\s+(\w+)\s*=\s*([^;]+);", body)}

    def _init_expr(self, text: str, values: dict, where: str) -> str | None:
        m = re.search(r"\bllk_math_eltwise_unary_sfpu_init\s*<[^;]*?>\s*\(", text)
        if m is None:
            return None
        close = _matching(text, m.end() - 1)
        args = split_args(text[m.end():close])
        if not args:
            targs = split_args(text[text.index("<", m.start()) + 1:text.rindex(">", m.start(), m.end())])
            return self._delegated_init([_substitute(a, values) for a in targs])
        fn = _substitute(args[0], values)
        rest = ", ".join(_substitute(a, values) for a in args[1:])
        return f"{fn}({rest})"

    def _delegated_init(self, targs: list[str]) -> str | None:
        """The init that tt-metal's no-function `llk_math_eltwise_unary_sfpu_init<OP, FP32>()`
        delegates to for the op (llk_math_eltwise_unary_sfpu_init.h's own `if constexpr` chain);
        None where it delegates to no SFPU header's init (the generic set-up the driver plays)."""
        if self.tree.metal_sfpu is None:
            return None
        path = self.tree.metal_sfpu / "llk_math_eltwise_unary_sfpu_init.h"
        if not path.is_file():
            return None
        code = _strip_comments(path.read_text(errors="replace"))
        m = re.search(r"template\s*<\s*SfpuType\s+(\w+)\s*,\s*bool\s+(\w+)\s*>\s*inline\s+void\s+"
                      r"llk_math_eltwise_unary_sfpu_init\s*\(\s*\)\s*\{", code)
        if m is None or not targs:
            return None
        env = {m.group(1): targs[0], m.group(2): len(targs) > 1 and targs[1] == "true"}
        body = code[m.end():_closing_brace(code, m.end())]
        chosen = resolve(body, env, str(path))
        for call in re.finditer(r"(?:sfpu::)?(\w+)\s*(<[^;()]*>)?\s*\(([^;]*)\)\s*;", chosen):
            name = call.group(1)
            if name.startswith("_llk_") or name in ("SAN_HOOK",) or self._header_of(name) is None:
                continue
            values = {m.group(2): "true" if env[m.group(2)] else "false"}
            return _substitute(f"{name}{call.group(2) or ''}({call.group(3)})", values)
        return None

    @staticmethod
    def _call_parts(text: str, where: str, op: str) -> tuple[str, list[str], str, list[str]]:
        m = re.search(r"\bSFPU_UNARY_CALL\s*\(", text)
        if m is None:
            other = re.search(r"\b(SFPU_\w+|call_\w+)\s*[(<]", text)
            raise FactsError(f"{where}: {op} is not dispatched through SFPU_UNARY_CALL"
                             + (f" (it uses {other.group(1)})" if other else ""))
        close = _matching(text, m.end() - 1)
        parts = split_args(text[m.end():close])
        if len(parts) < 6 or not parts[3].startswith("("):
            raise FactsError(f"{where}: {op}: cannot read SFPU_UNARY_CALL({', '.join(parts)[:120]})")
        fn, targs, mode, args = parts[2], split_args(parts[3][1:-1]), parts[5], parts[6:]
        vector_mode = {"VectorMode::RC": "rc", "VectorMode::R": "r", "VectorMode::C": "c"}.get(mode, "none")
        return fn, targs, vector_mode, args

    def lut_table(self, init: str | None) -> list[float]:
        """The FP16 6-entry table an init loads into LReg0-2 (slopes) and LReg4-6 (intercepts) as
        `l_reg[LRegs::LRegN] = vLut16ss(first, second)` / `vLut16ii(...)`: the slopes of the six
        segments, then their intercepts. SFPLUTFP32's TABLE1 reads segment 2i from LReg i's low
        half and 2i + 1 from its high half; SFPI's vLut16 puts its first value in the low half."""
        name = re.match(r"\s*(\w+)", init or "")
        header = self._header_of(name.group(1)) if name else None
        if header is None:
            raise FactsError(f"{self.tests}: the init {init!r} is in no SFPU header of {self.tree.root}")
        body, _ = _function_body(_strip_comments(header.read_text(errors="replace")), name.group(1), str(header))
        pairs = {int(m.group(1)): (float(m.group(2)), float(m.group(3))) for m in re.finditer(
            r"l_reg\s*\[\s*(?:sfpi::)?LRegs::LReg(\d)\s*\]\s*=\s*(?:sfpi::)?vLut16(?:ss|ii)\s*\(\s*"
            r"([-\d.eE]+)f?\s*,\s*([-\d.eE]+)f?\s*\)", body)}
        if sorted(pairs) != [0, 1, 2, 4, 5, 6]:
            raise FactsError(f"{header}: {name.group(1)} does not load LReg0-2 and LReg4-6 with vLut16 pairs")
        return [v for r in (0, 1, 2, 4, 5, 6) for v in pairs[r]]

    def _header_of(self, fn: str) -> Path | None:
        if self._headers is None:
            self._headers = {}
            # tt-metal's llk_api folder first: its headers include tt-llk's, as the dispatch's includes do.
            for folder in [d for d in (self.tree.metal_sfpu, self.tree.llk_sfpu) if d is not None]:
                for header in sorted(folder.glob("ckernel_sfpu_*.h")):
                    for f in functions(header):
                        self._headers.setdefault(f.name, header)
            # Then the loop wrappers the test harness defines for some ops.
            harness = dispatch_path(self.tests).with_name("sfpu_test_helpers.h")
            for f in functions(harness) if harness.is_file() else []:
                self._headers.setdefault(f.name, harness)
            dispatch = dispatch_path(self.tests)
            for f in functions(dispatch) if dispatch.is_file() else []:
                if not f.name.startswith("call_"):
                    self._headers.setdefault(f.name, dispatch)
        found = self._headers.get(fn)
        if found is not None and found == dispatch_path(self.tests):
            return self._dispatch_wrappers(found)
        return found

    def _dispatch_wrappers(self, dispatch: Path) -> Path:
        """The dispatch's own `namespace ckernel::sfpu { ... }` blocks (its loop wrappers and their
        constants) as a header of their own, every other line blank and a `#line` naming the
        dispatch, so that the front end compiles them (the rest is harness code) and its records
        and errors name the dispatch's lines."""
        if self._wrappers is None:
            code = _strip_comments(dispatch.read_text(errors="replace"))
            lines = [""] * code.count("\n")
            for m in re.finditer(r"^namespace\s+ckernel::sfpu\s*\{", code, re.M):
                end = _closing_brace(code, m.end())
                first = code.count("\n", 0, m.start())
                for i, line in enumerate(code[m.start():end + 1].split("\n")):
                    lines[first + i] = line
            self._scratch = tempfile.TemporaryDirectory(prefix="sfpu-sweep-")
            self._wrappers = Path(self._scratch.name) / "sfpu_operations_wrappers.h"
            self._wrappers.write_text(f'#pragma once\n#line 1 "{dispatch}"\n' + "\n".join(lines) + "\n")
        return self._wrappers


def dispatch_path(tests: Path) -> Path:
    """tt-llk's test dispatch: the kernel call and init of every SfpuType, and the includes of its
    translation unit."""
    return tests / "helpers" / "include" / "sfpu_operations.h"


def included_before(tree: SourceTree, header: Path, dispatch: str) -> tuple[Path, ...]:
    """The SFPU kernel headers the dispatch's translation unit (`dispatch`: its text) includes
    ahead of `header`, in its order: some headers use what an earlier one declared (`Converter`,
    a global `using namespace sfpi`), so they compile only where the dispatch has them.
    `ckernel_sfpu.h` itself is the front end's stand-in."""
    folders = {"llk_sfpu": (tree.metal_sfpu,), "sfpu": (tree.llk_sfpu,), "": (tree.metal_sfpu, tree.llk_sfpu)}
    out = []
    for include in re.findall(r'^\s*#\s*include\s+"([^"]+)"', dispatch, re.M):
        folder, _, name = include.rpartition("/")
        found = [d / name for d in folders.get(folder, ()) if d is not None and (d / name).is_file()]
        if name == header.name and found[:1] in ([], [header]):
            break
        if name.startswith("ckernel_sfpu_"):
            out.extend(found[:1])
    return tuple(out)


def dispatch_includes_before(tree: SourceTree, header: Path, arch: str) -> tuple[Path, ...]:
    """`included_before` for a tree with tt-llk's tests (the sweep's dispatch), else nothing."""
    if tree is None or tree.helpers is None:
        return ()
    path = dispatch_path(tests_folder(tree))
    if not path.is_file():
        return ()
    return included_before(tree, header, _dispatch_text(path, arch))


@functools.lru_cache(maxsize=8)
def _dispatch_text(path: Path, arch: str) -> str:
    defined = {UPSTREAM[arch].define}
    return _preprocess(_strip_comments(path.read_text(errors="replace")), defined)


def _cxx(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _substitute(expr: str, values: dict) -> str:
    """Names the dispatch binds (template parameters, its constexpr constants) replaced by their values."""
    for _ in range(3):      # a constant defined by another
        new = re.sub(r"(?<![:\w])([A-Za-z_]\w*)(?![\w:])", lambda m: values.get(m.group(1), m.group(1)), expr)
        if new == expr:
            break
        expr = new
    return re.sub(r"\s+,", ",", " ".join(expr.split()))


# ---------------------------------------------------------------------------
# Loading

def _need(path: Path, what: str) -> str:
    if not path.is_file():
        raise FactsError(f"{path}: no such file ({what})")
    return path.read_text(errors="replace")


def tests_folder(tree: SourceTree) -> Path:
    if tree is None or tree.helpers is None:
        root = tree.root if tree is not None else "the tree"
        raise FactsError(f"{root}: no tests/python_tests/helpers (tt-llk's test tree); give the unpacked wheel's "
                         "ttnn/tt_metal or a tt-metal checkout with tt-llk")
    return tree.helpers.parent.parent


def load(tree: SourceTree) -> SweepFacts:
    tests = tests_folder(tree)
    helpers = tests / "python_tests" / "helpers"
    params = _need(helpers / "llk_params.py", "the op names")
    ops = {m.group(1): m.group(2) for m in
           re.finditer(r"^\s+(\w+)\s*=\s*OpSpec\(\s*\"(\w+)\"\s*,\s*MathOpType\.SFPU_UNARY\s*\)", params, re.M)}
    if not ops:
        raise FactsError(f"{helpers / 'llk_params.py'}: no SFPU_UNARY OpSpec rows")
    budget = helpers / "sfpu_accuracy_budget.yaml"
    _need(budget, "the accuracy budget")
    rows = accuracy.read_budget(budget)
    source = _need(tests / "sources" / "eltwise_unary_sfpu_test.cpp", "the sweep's kernel")
    m = re.search(r"\bconst(?:expr)?\s+int\s+iterations\s*=\s*(\d+)\s*;", source)
    if m is None:
        raise FactsError(f"{tests / 'sources' / 'eltwise_unary_sfpu_test.cpp'}: no `const int iterations = N;`")
    iterations = int(m.group(1))
    driver_path = tests / "python_tests" / "test_unary_sfpu_ulp.py"
    driver = _need(driver_path, "the sweep's driver")
    fast = re.search(r"FAST_MODE\(\s*FastMode\.(\w+)\s*\)", driver)
    clamp = re.search(r"CLAMP_NEGATIVE\(\s*(True|False)\s*\)", driver)
    if fast is None or clamp is None:
        raise FactsError(f"{driver_path}: no FAST_MODE(FastMode.X) / CLAMP_NEGATIVE(B) in the sweep's TestConfig")
    facts = SweepFacts(tree, tests, ops, rows, iterations, fast.group(1) == "Yes", clamp.group(1) == "True")
    facts.all_lanes = _all_lanes_figures(budget)
    _read_domains(facts, helpers)
    return facts


def row_key(op: str, keys: dict) -> tuple:
    return (op, tuple(sorted((k, str(v)) for k, v in keys.items())))


def _all_lanes_figures(budget: Path) -> dict:
    """For rows with a near-zero floor, the comment's "(N steps over every lane)": the
    hardware's maximum over every ranked lane, the floor not applied."""
    out, op = {}, None
    for line in budget.read_text().splitlines():
        m = re.match(r"^(\w+):", line)
        if m:
            op = m.group(1)
            continue
        m = re.match(r"^\s*-\s*(\{.*\})\s*#.*?\((\d+) steps over every lane\)", line)
        if m and op:
            out[row_key(op, accuracy._flow_mapping(m.group(1)))] = int(m.group(2))
    return out


def _read_domains(facts: SweepFacts, helpers: Path) -> None:
    domains = _need(helpers / "sfpu_domains.py", "the ops' singularities")
    m = re.search(r"^_OP_SINGULARITIES\b.*?^\}", domains, re.M | re.S)
    if m is None:
        raise FactsError(f"{helpers / 'sfpu_domains.py'}: no _OP_SINGULARITIES table")
    for op, body in re.findall(r"MathOperation\.(\w+):\s*\{\s*Operand\.A:\s*\((.*?)\)\s*,?\s*\}", m.group(0), re.S):
        points = re.findall(r"\(\s*(-?[\d.]+)\s*,\s*_(BOTH|ABOVE|BELOW)\s*\)", body)
        facts.singularities[op] = [(float(p), side) for p, side in points]
    poles = re.search(r"_NONPOSITIVE_INTEGER_POLES\s*=\s*frozenset\(\s*\{(.*?)\}", domains, re.S)
    if poles:
        facts.nonpositive_poles = set(re.findall(r"MathOperation\.(\w+)", poles.group(1)))
    sweep = _need(helpers / "ulp_sweep.py", "the sweep's masks")
    limit = re.search(r"^_TRIG_CLAIM_LIMIT\s*=\s*([\d.eE+]+)", sweep, re.M)
    claims = re.search(r"def _claim_limits\(.*?return", sweep, re.S)
    if limit and claims:
        for op in re.findall(r"MathOperation\.(\w+):\s*wide_formats", claims.group(0)):
            facts.claim_limits[op] = float(limit.group(1))
