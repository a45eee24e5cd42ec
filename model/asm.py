"""Assembler and disassembler for SFPU programs of both architectures (`.arch`).

One instruction or directive per line; `#` and `//` start comments. Three
spellings of an instruction are accepted:

    TTI_SFPMAD(p_sfpu::LREG0, 1, 2, 3, 0);     tt-llk macro, argument order of ckernel_ops.h
    sfpmad vd=3 va=0 vb=1 vc=2 mod1=0          named fields (missing fields are 0)
    .word 0x840C0DD0                           a raw instruction word

Values may be integer expressions (`+ - * << >> & | ^ ~`, parentheses) over
numbers and the names in `model.llk_symbols`. Directives (`.fp32_dest 1`, ...)
set the Tensix registers the SFPU reads; `DIRECTIVES` lists them. Errors are
`AsmError`s naming file, line and column. `.allow RULE...` lets the cycle
model report a hazard rule without stopping; `.mark NAME` records the cycle
in which the next instruction is presented (`RunResult.marks`), so that a
kernel's body can be timed apart from its set-up.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field

from . import contract, isa, tensix
from .hazards import RULES, unknown_rule
from .llk_symbols import symbols


@dataclass(frozen=True)
class Loc:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class AsmError(ValueError):
    def __init__(self, loc: Loc, message: str):
        super().__init__(f"{loc}: {message}")
        self.loc = loc
        self.message = message


@dataclass(frozen=True)
class Instr:
    word: int
    loc: Loc
    text: str
    replayed_by: Loc | None = None     # the REPLAY that issued it from the replay buffer
    # The front end issues it right after the previous instruction: it is not
    # the first of a REPLAY playback (or `.issue back_to_back` run), so no idle
    # cycle can come before it. Otherwise the thread pushed it, and any number
    # of idle cycles may precede it (docs/timing.md "Where instructions come from").
    back_to_back: bool = False
    # The line it was made from, when its listing line ends in a `# FILE:LINE`
    # comment (`sfpu llk` names each instruction's C++ line so).
    origin: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Replay:
    """TTI_REPLAY: record the next `count` instructions into the replay buffer
    from entry `index` (`load`; also issue them when `execute`), or issue
    `count` recorded ones. Only the assembler sees it (`expand_replay`)."""
    index: int
    count: int
    execute: bool
    load: bool
    loc: Loc
    text: str


@dataclass(frozen=True)
class Directive:
    name: str
    args: tuple[int, ...]          # rule names (str) for .allow
    options: tuple[tuple[str, int], ...]
    loc: Loc
    text: str


@dataclass
class Program:
    items: list[Instr | Directive]
    warnings: list[AsmError]            # arguments wider than their field
    arch: isa.Arch                      # from `.arch` or the caller

    @property
    def words(self) -> list[int]:
        return [i.word for i in self.items if isinstance(i, Instr)]

    @property
    def name(self) -> str:
        """The source it was assembled from (the file of its first item)."""
        return self.items[0].loc.file if self.items else "<empty>"

    @property
    def threads(self) -> list[tuple[str, list[Instr | Directive]]]:
        """The program's code per thread, in order: `.thread NAME` sections
        (the set-up before the first is left out here), or one unnamed thread."""
        first = self._first_thread()
        if first is None:
            return [("", list(self.items))]
        sections: list[tuple[str, list]] = []
        for item in self.items[first:]:
            if _is_thread(item):
                sections.append((item.args[0], []))
            else:
                sections[-1][1].append(item)
        return sections

    @property
    def set_up(self) -> list[Directive]:
        """The directives before the first `.thread` section (none without sections)."""
        first = self._first_thread()
        return [] if first is None else list(self.items[:first])

    @property
    def allowed_rules(self) -> frozenset[str]:
        """The hazard rules its `.allow` directives let through."""
        return frozenset(rule for item in self.items if isinstance(item, Directive) and item.name == "allow"
                         for rule in item.args)

    @property
    def is_threaded(self) -> bool:
        return self._first_thread() is not None

    def _first_thread(self) -> int | None:
        return next((i for i, item in enumerate(self.items) if _is_thread(item)), None)


def _is_thread(item) -> bool:
    return isinstance(item, Directive) and item.name == "thread"


# name: (positional argument count range, allowed options, description)
DIRECTIVES: dict[str, tuple[tuple[int, int], frozenset[str], str]] = {
    "fp32_dest": ((1, 1), frozenset(), "ALU_ACC_CTRL_SFPU_Fp32_enabled (0 or 1)"),
    "srcb_format": ((1, 1), frozenset(), "effective SrcB data format code (0-15)"),
    "rwc_dst": ((1, 1), frozenset(), "Dst read/write counter RWC_Dst (0-1023), also sets Dst_Cr"),
    "dest_offset": ((1, 1), frozenset(), "DEST_TARGET_REG_CFG_MATH_Offset (0-1023)"),
    "dest_base": ((1, 1), frozenset(), "DEST_REGW_BASE_Base (0-1023)"),
    "addr_mod_base": ((1, 1), frozenset(), "ADDR_MOD_SET_Base (0 or 1): use ADDR_MOD slots 4-7"),
    "addr_mod": ((1, 1), frozenset({"dst_incr", "dst_cr", "dst_c_to_cr", "dst_clear", "srca_incr", "srca_cr",
                                    "srca_clear", "srcb_incr", "srcb_cr", "srcb_clear", "bias_incr",
                                    "bias_clear"}),
                 "ADDR_MOD slot N (0-7) with its increments and flags"),
    "prng_seed": ((1, 1), frozenset(), "write PRNG_SEED_Seed_Val: re-seed every lane's PRNG"),
    "lreg": ((2, 33), frozenset(), "initial LReg value: .lreg N VALUE (all lanes) or 32 values"),
    # Blackhole only: the SFPU stack pointer used by MOD0_FMT_INT32_ALL, and the Dst row remaps.
    "rwc_sp": ((1, 1), frozenset(), "Blackhole: the SFPU stack pointer RWC Sp (0-1023)"),
    "sfpu_stack_incr": ((1, 1), frozenset(), "Blackhole: SFPU_STACK_Incr (0-1023)"),
    "dest_sp_base": ((1, 1), frozenset(), "Blackhole: DEST_SP_BASE_Base (0-1023)"),
    "dest_remap_addrs": ((1, 1), frozenset(), "Blackhole: DEST_ACCESS_CFG_remap_addrs (0 or 1)"),
    "dest_swizzle_32b": ((1, 1), frozenset(), "Blackhole: DEST_ACCESS_CFG_swizzle_32b (0 or 1)"),
}
# Directives for the model's checks alone, with no register a design holds: a bench skips them.
CHECK_DIRECTIVES = frozenset({"allow", "mark", "contract", "op"})
DIRECTIVE_RANGES = {"fp32_dest": 1, "srcb_format": 15, "rwc_dst": 1023, "dest_offset": 1023,
                    "dest_base": 1023, "addr_mod_base": 1, "addr_mod": 7, "prng_seed": 0xFFFFFFFF,
                    "rwc_sp": 1023, "sfpu_stack_incr": 1023, "dest_sp_base": 1023, "dest_remap_addrs": 1,
                    "dest_swizzle_32b": 1}
# The directives that set a register only some architectures have, and the feature that has it.
FEATURE_DIRECTIVES = {"rwc_sp": "stack_pointer", "sfpu_stack_incr": "stack_pointer", "dest_sp_base": "stack_pointer",
                      "dest_remap_addrs": "dst_remap", "dest_swizzle_32b": "dst_remap"}


# ---------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------

def _c_div(a: int, b: int) -> int:
    """C integer division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b, ast.BitAnd: lambda a, b: a & b,
           ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b,
           ast.FloorDiv: _c_div, ast.Div: _c_div, ast.Mod: lambda a, b: a - _c_div(a, b) * b}
_UNARY = {ast.USub: lambda a: -a, ast.UAdd: lambda a: a, ast.Invert: lambda a: ~a}
_SCOPED_NAME = re.compile(r"\b[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)+")
# A number-like token: a digit not preceded by a name character or a point.
_NUMBER_TOKEN = re.compile(r"(?<![\w.'])[0-9][0-9A-Za-z_']*", re.ASCII)
# C++ integer literals (with C++14 digit separators and the u/l suffixes).
_CPP_INT = re.compile(r"(0[xX][0-9a-fA-F]+(?:'[0-9a-fA-F]+)*|0[bB][01]+(?:'[01]+)*|0(?:'?[0-7])*|[1-9](?:'?[0-9])*)"
                      r"(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)?", re.ASCII)
_SCOPES_IGNORED = ("sfpi", "ckernel")
MAX_DEPTH = 100          # operators nested in one expression


def _cpp_int(token: str) -> int | None:
    """The value of a C++ integer literal, or None if `token` is not one."""
    m = _CPP_INT.fullmatch(token)
    if m is None:
        return None
    digits = m.group(1).replace("'", "")
    if digits[:2] in ("0x", "0X"):
        return int(digits[2:], 16)
    if digits[:2] in ("0b", "0B"):
        return int(digits[2:], 2)
    return int(digits, 8) if digits.startswith("0") else int(digits)


def evaluate(text: str, loc: Loc, arch: isa.Arch) -> int:
    """Evaluate an integer expression of C++ literals and the names `arch`'s kernels use (`llk_symbols`)."""
    names = symbols(arch)
    leading = len(text) - len(text.lstrip())

    def literal(m: re.Match) -> str:
        value = _cpp_int(m.group(0)) if len(m.group(0)) <= 80 else None
        if value is None or value >> 64:
            raise AsmError(Loc(loc.file, loc.line, loc.col + m.start() - leading),
                           f"{_short(m.group(0))!r} is not a C++ integer literal "
                           "(or too large for unsigned long long)")
        return str(value)

    src = _NUMBER_TOKEN.sub(literal, text).strip()
    # A C++ scoped name (p_sfpu::LREG0) becomes one Python identifier standing for it.
    scoped: dict[str, str] = {}

    def placeholder(m: re.Match) -> str:
        scoped[f"_scoped{len(scoped)}_"] = m.group(0)
        return f"_scoped{len(scoped) - 1}_"

    src = _SCOPED_NAME.sub(placeholder, src)
    if not src:
        raise AsmError(loc, "expected a value")
    try:
        tree = ast.parse(src, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise AsmError(loc, f"cannot parse value {_short(text.strip())!r}") from None

    def walk(node, depth=0):
        if depth > MAX_DEPTH:
            raise AsmError(loc, f"expression nested more than {MAX_DEPTH} operators deep")
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            left, right = walk(node.left, depth + 1), walk(node.right, depth + 1)
            if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
                raise AsmError(loc, f"division by zero in {_short(text.strip())!r}")
            if isinstance(node.op, (ast.LShift, ast.RShift)) and not 0 <= right < 64:
                raise AsmError(loc, f"shift count {right} out of range in {_short(text.strip())!r}")
            return _BINOPS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](walk(node.operand, depth + 1))
        if isinstance(node, ast.Name):
            written = scoped.get(node.id, node.id)
            name = re.sub(r"\s+", "", written)
            for scope in _SCOPES_IGNORED:
                if name.startswith(scope + "::"):
                    name = name[len(scope) + 2:]
            if name in names:
                return names[name]
            offset = max(text.find(written) - leading, 0)
            raise AsmError(Loc(loc.file, loc.line, loc.col + offset), f"unknown name {name!r}")
        raise AsmError(loc, f"unsupported expression {_short(text.strip())!r}")

    return walk(tree)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


# ---------------------------------------------------------------------------
# Lines
# ---------------------------------------------------------------------------

_LLK_CALL = re.compile(r"^(?:TTI_|TT_OP_|TT_)(\w+)\s*(?:\((.*)\))?\s*;?\s*$")
_NAMED_ARG = re.compile(r"([A-Za-z_]\w*)\s*=\s*(\S+)")
_COMMENT_START = re.compile(r"/\*|//|#")


def _code(line: str, open_comment: Loc | None, loc: Loc) -> tuple[str, Loc | None]:
    """The line without its comments, and where a `/* ... */` comment still
    open at its end began. Comments become spaces so that columns stay true;
    a block comment may span lines, as in C++."""
    out, pos = [], 0
    while pos < len(line):
        if open_comment is not None:
            end = line.find("*/", pos)
            if end < 0:
                pos = len(line)
                break
            out.append(" " * (end + 2 - pos))
            pos, open_comment = end + 2, None
            continue
        m = _COMMENT_START.search(line, pos)
        if m is None:
            out.append(line[pos:])
            break
        out.append(line[pos:m.start()])
        if m.group(0) != "/*":
            break
        out.append("  ")
        pos, open_comment = m.end(), Loc(loc.file, loc.line, m.start() + 1)
    return "".join(out).rstrip(), open_comment


def _split_args(text: str, col0: int) -> list[tuple[str, int]]:
    """Split on top-level commas; return (argument text, column) pairs."""
    args, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            piece = text[start:i]
            args.append((piece, col0 + start + len(piece) - len(piece.lstrip())))
            start = i + 1
    if len(args) == 1 and not args[0][0].strip():
        return []
    return args


def assemble_line(line: str, loc: Loc, arch: isa.Arch,
                  warnings: list[AsmError] | None = None) -> Instr | Directive | None:
    """One line (its comments closed on it) of an `arch` program. An argument
    wider than the instruction field it fills is an error, or with `warnings`,
    a warning appended there."""
    body, open_comment = _code(line, None, loc)
    if open_comment is not None:
        raise AsmError(open_comment, "unterminated /* comment")
    return _assemble_code(body, loc, warnings, arch)


def pushed_word(line: str, loc: Loc, arch: isa.Arch) -> int | None:
    """The instruction word a listing line has its thread push: an SFPU
    instruction's, or a Tensix instruction's in its `TTI_` form (REPLAY and
    SETC16 included, which the assembler turns into other items); None for a
    directive, a comment or a blank line."""
    body, _ = _code(line, None, loc)
    stripped = body.lstrip()
    call = _LLK_CALL.match(stripped)
    if call and call.group(1) in tensix.OPS:
        op = tensix.OPS[call.group(1)]
        values = _llk_args(call, loc, op.llk_args, arch)
        return isa.OPCODE.insert(op.opcode) + sum(values[a.name][0] << a.shift for a in op.llk_args)
    item = _assemble_code(body, loc, None, arch)
    return item.word if isinstance(item, Instr) else None


def _assemble_code(body: str, loc: Loc, warnings: list[AsmError] | None,
                   arch: isa.Arch) -> Instr | Directive | None:
    stripped = body.lstrip()
    if not stripped:
        return None
    col = len(body) - len(stripped) + 1
    here = Loc(loc.file, loc.line, col)
    if stripped.startswith("."):
        return _directive(stripped, here, arch)
    call = _LLK_CALL.match(stripped)
    if call:
        if call.group(1) in tensix.OPS:
            return _tensix_item(call, stripped, here, arch)
        return Instr(_llk_word(call, stripped, here, warnings, arch), here, stripped)
    return Instr(_named_word(stripped, here, arch), here, stripped)


def _llk_args(call: re.Match, loc: Loc, llk_args, arch: isa.Arch) -> dict[str, tuple[int, Loc]]:
    """The evaluated arguments of a `TTI_NAME(...)` call, each with its location."""
    name = call.group(1)
    args = _split_args(call.group(2), loc.col + call.start(2)) if call.group(2) is not None else []
    if len(args) != len(llk_args):
        names = ", ".join(a.name for a in llk_args) or "no arguments"
        raise AsmError(loc, f"TTI_{name} takes {len(llk_args)} arguments ({names}), got {len(args)}")
    values = {}
    for (arg_text, arg_col), spec in zip(args, llk_args):
        arg_loc = Loc(loc.file, loc.line, arg_col)
        value = evaluate(arg_text, arg_loc, arch)
        if not 0 <= value < (1 << spec.width):
            raise AsmError(arg_loc, f"TTI_{name} argument {spec.name}={value} out of range 0..{(1 << spec.width) - 1}")
        values[spec.name] = (value, arg_loc)
    return values


def _llk_word(call: re.Match, text: str, loc: Loc, warnings: list[AsmError] | None, arch: isa.Arch) -> int:
    name = call.group(1)
    op = isa.ISA[arch].by_llk_name.get(name)
    if op is None:
        raise AsmError(loc, f"TTI_{name} is neither a {arch.title.split()[0]} SFPU instruction nor one of the Tensix "
                            f"instructions modelled around it ({', '.join('TTI_' + n for n in tensix.OPS)})")
    values = _llk_args(call, loc, op.llk_args, arch)
    for arg in op.llk_args:
        value, arg_loc = values[arg.name]
        lost = dropped_bits(op, arg, value)
        if lost:
            problem = AsmError(arg_loc, dropped_bits_text(op, arg, value))
            if warnings is None:
                raise problem
            warnings.append(problem)
    return isa.OPCODE.insert(op.opcode) + sum(values[a.name][0] << a.shift for a in op.llk_args)


def dropped_bits(op: isa.Opcode, arg: isa.LlkArg, value: int) -> int:
    """The bits of a `TTI_` argument's value that no field of `op` takes: the word drops them."""
    return ((value << arg.shift) & ~op.llk_arg_bits(arg)) >> arg.shift


def dropped_bits_text(op: isa.Opcode, arg: isa.LlkArg, value: int) -> str:
    kept = (value << arg.shift & op.llk_arg_bits(arg)) >> arg.shift
    return (f"TTI_{op.llk_name} argument {arg.name}={value} is wider than its field: bits "
            f"0x{dropped_bits(op, arg, value):X} of it fall outside the fields of {op.mnemonic} "
            f"(the word keeps {kept})")


def dropped_arguments(word: int, arch: isa.Arch) -> list[str]:
    """For an SFPU word built from `TTI_` arguments: each argument with bits the word drops."""
    ins = isa.decode(word, arch)
    if not ins.ignored_bits:
        return []
    out = []
    for arg in ins.op.llk_args:
        value = (word >> arg.shift) & ((1 << arg.width) - 1)
        if dropped_bits(ins.op, arg, value):
            out.append(dropped_bits_text(ins.op, arg, value))
    return out


def _tensix_item(call: re.Match, text: str, loc: Loc, arch: isa.Arch) -> "Instr | Directive | Replay":
    """SETRWC/INCRWC are issued like instructions; REPLAY is for the front end
    (`expand_replay`); SETC16 becomes the directive it stands for (model.tensix)."""
    op = tensix.OPS[call.group(1)]
    values = _llk_args(call, loc, op.llk_args, arch)
    for arg, bits in op.defined.items():
        value, arg_loc = values[arg]
        if value & ~bits:
            raise AsmError(arg_loc, f"TTI_{op.mnemonic} argument {arg}={value}: bits 0x{value & ~bits:X} are "
                                    "undefined in the documentation")
    word = isa.OPCODE.insert(op.opcode) + sum(values[a.name][0] << a.shift for a in op.llk_args)
    if tensix.is_listed(word):
        return Instr(word, loc, text)
    if op.opcode == isa.REPLAY:
        return Replay(values["start_idx"][0], values["len"][0] or 64, bool(values["execute_while_loading"][0]),
                      bool(values["load_mode"][0]), loc, text)
    register, reg_loc = values["setc16_reg"]
    directive = tensix.setc16_directive(register, values["setc16_value"][0])
    if directive is None:
        raise AsmError(reg_loc, f"TTI_SETC16 register {register} is not one the SFPU reads (modelled: "
                                f"{', '.join(tensix.SETC16_SYMBOLS)})")
    name, args, options = directive
    return Directive(name, args, tuple(sorted(options.items())), loc, text)


def _contract_directive(rest: str, rest_loc: Loc, loc: Loc, text: str) -> "Directive":
    """`.contract NAME = VALUE` (every op leaves VALUE) or `.contract NAME keep` (a call leaves what it found)."""
    m = re.fullmatch(r"\s*(\w+)\s*(?:=\s*(\S+)|(keep))\s*", rest)
    if m is None:
        raise AsmError(rest_loc, ".contract expects `NAME = VALUE` or `NAME keep`, e.g. `.contract L11 = 0xBF800000`")
    try:
        contract.check_name(m.group(1))
    except contract.ContractError as e:
        raise AsmError(rest_loc, f".contract: {e}") from None
    value = None if m.group(3) else evaluate(m.group(2), rest_loc, isa.DEFAULT_ARCH) & 0xFFFFFFFF
    return Directive("contract", (m.group(1), value), (), loc, text)


def _head(text: str) -> tuple[str, str, int]:
    """Split "name rest" at the first whitespace: (name, rest, offset of rest in text)."""
    m = re.match(r"(\S*)(\s*)", text)
    return m.group(1), text[m.end():], m.end()


def _named_word(text: str, loc: Loc, arch: isa.Arch) -> int:
    mnemonic, rest, rest_offset = _head(text)
    op = isa.ISA[arch].opcodes.get(mnemonic.upper())
    if op is None:
        other = [a.value for a in isa.architectures() if a is not arch and mnemonic.upper() in isa.ISA[a].opcodes]
        hint = f" on {arch.title} (it is a {other[0]} instruction: add `.arch {other[0]}`)" if other else ""
        raise AsmError(loc, f"unknown mnemonic {mnemonic!r}{hint}")
    values: dict[str, int] = {}
    rest_col = loc.col + rest_offset
    pos = 0
    cleaned = rest.replace(",", " ")
    while pos < len(cleaned):
        if cleaned[pos].isspace():
            pos += 1
            continue
        m = _NAMED_ARG.match(cleaned, pos)
        arg_loc = Loc(loc.file, loc.line, rest_col + pos)
        if not m:
            raise AsmError(arg_loc, f"expected name=value, got {cleaned[pos:].split()[0]!r}")
        name = m.group(1).lower()
        if name in values:
            raise AsmError(arg_loc, f"field {name} given twice")
        value = evaluate(m.group(2), Loc(loc.file, loc.line, rest_col + m.start(2)), arch)
        try:
            isa.check_field(op, name, value)
        except ValueError as e:
            raise AsmError(arg_loc, str(e)) from None
        values[name] = value
        pos = m.end()
    try:
        return isa.encode(op.mnemonic, arch, **values)
    except ValueError as e:
        raise AsmError(loc, str(e)) from None


def _directive(text: str, loc: Loc, arch: isa.Arch) -> Instr | Directive:
    name, rest, rest_offset = _head(text[1:])
    name = name.lower()
    if not name or rest_offset == 0 and rest:
        raise AsmError(loc, "expected a directive name right after '.', e.g. `.word 0x840C0DD0`")
    rest_col = loc.col + 1 + rest_offset
    if name == "word":
        value_loc = Loc(loc.file, loc.line, rest_col)
        value = evaluate(rest, value_loc, arch)
        if not 0 <= value <= 0xFFFFFFFF:
            raise AsmError(value_loc, f".word value 0x{value:X} is not a 32-bit word")
        if not tensix.is_listed(value):
            try:
                isa.decode(value, arch)
            except isa.DecodeError as e:
                raise AsmError(value_loc, str(e)) from None
        return Instr(value, loc, text)
    if name == "allow":
        return _allow_directive(rest, rest_col, loc, text)
    if name == "arch":
        try:
            return Directive("arch", (isa.Arch.parse(rest.strip()).value,), (), loc, text)
        except ValueError as e:
            raise AsmError(Loc(loc.file, loc.line, rest_col), str(e)) from None
    if name == "issue":
        mode = rest.strip().lower()
        if mode not in ISSUE_MODES:
            raise AsmError(Loc(loc.file, loc.line, rest_col), f".issue expects one of {', '.join(ISSUE_MODES)}: "
                                                              "back_to_back for a run the front end plays without "
                                                              "idle cycles (REPLAY, MOP), direct for instructions "
                                                              "the thread pushes (the default)")
        return Directive("issue", (mode,), (), loc, text)
    if name == "thread":
        label = rest.strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", label):
            raise AsmError(loc, ".thread expects one name, e.g. `.thread math`")
        return Directive("thread", (label,), (), loc, text)
    if name == "contract":
        return _contract_directive(rest, Loc(loc.file, loc.line, rest_col), loc, text)
    if name == "op":
        m = re.fullmatch(r"\s*(entry|return)\s+(\d+)(?:\s+(.*\S))?\s*", rest)
        if m is None:
            raise AsmError(Loc(loc.file, loc.line, rest_col), ".op expects `entry N [NAME]` or `return N [NAME]`: "
                                                              "where op N's call starts and returns")
        return Directive("op", (m.group(1), int(m.group(2)), m.group(3) or f"op {m.group(2)}"), (), loc, text)
    if name == "mark":
        label = rest.strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", label):
            raise AsmError(loc, ".mark expects one name, e.g. `.mark body`")
        return Directive("mark", (label,), (), loc, text)
    if name not in DIRECTIVES:
        raise AsmError(loc, f"unknown directive .{name} (known: .word, .allow, .mark, .arch, .issue, .thread, "
                            ".contract, .op, "
                            f"{', '.join('.' + d for d in DIRECTIVES)})")
    feature = FEATURE_DIRECTIVES.get(name)
    if feature and not getattr(arch.features, feature):
        having = [a for a in isa.Arch if getattr(a.features, feature)]
        raise AsmError(loc, f".{name} sets a register {arch.title} does not have ({feature}); "
                            + ", ".join(f"{a.title} has it (use .arch {a.value})" for a in having))
    (lo, hi), allowed, _ = DIRECTIVES[name]
    args: list[int] = []
    arg_locs: list[Loc] = []
    options: dict[str, int] = {}
    for token_match in re.finditer(r"\S+", rest):
        token, tcol = token_match.group(0), rest_col + token_match.start()
        tloc = Loc(loc.file, loc.line, tcol)
        if "=" in token:
            key, _, val = token.partition("=")
            if key not in allowed:
                raise AsmError(tloc, f".{name} has no option {key!r} (options: {', '.join(sorted(allowed)) or 'none'})")
            options[key] = evaluate(val, tloc, arch)
        else:
            args.append(evaluate(token, tloc, arch))
            arg_locs.append(tloc)
    if not lo <= len(args) <= hi or (name == "lreg" and len(args) not in (2, 33)):
        raise AsmError(loc, f".{name} expects {'2 or 33' if name == 'lreg' else lo} value(s): {DIRECTIVES[name][2]}")
    limit = DIRECTIVE_RANGES.get(name)
    if limit is not None and not 0 <= args[0] <= limit:
        raise AsmError(arg_locs[0], f".{name} value {args[0]} out of range 0..{limit}")
    if name == "lreg":
        if not 0 <= args[0] <= 7:
            raise AsmError(arg_locs[0], f".lreg register {args[0]} out of range 0..7 "
                                        "(the constants are set with SFPCONFIG)")
        for v, vloc in zip(args[1:], arg_locs[1:]):
            if not 0 <= v <= 0xFFFFFFFF:
                raise AsmError(vloc, f".lreg value {v} is not a 32-bit value")
    return Directive(name, tuple(args), tuple(sorted(options.items())), loc, text)


def _allow_directive(rest: str, rest_col: int, loc: Loc, text: str) -> Directive:
    """`.allow RULE...`: hazard rules the cycle model reports without stopping."""
    rules = []
    for token_match in re.finditer(r"[^\s,]+", rest):
        rule = token_match.group(0)
        if rule not in RULES:
            raise AsmError(Loc(loc.file, loc.line, rest_col + token_match.start()),
                           f"{rule!r}: {unknown_rule(rule)}")
        rules.append(rule)
    if not rules:
        raise AsmError(loc, ".allow expects one or more hazard rule names")
    return Directive("allow", tuple(rules), (), loc, text)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ORIGIN = re.compile(r"#\s*([^\s#]+:\d+)\s*$")      # a trailing `# FILE:LINE` comment


def assemble(source: str, filename: str = "<input>", strict: bool = True, arch: isa.Arch | None = None) -> Program:
    """A program from its text. An argument wider than its field is an error
    when `strict`, otherwise a warning in `Program.warnings`.

    The architecture is `arch`, else the program's `.arch` directive, else
    Wormhole. `.arch` must come before the first instruction, and may not
    contradict `arch`."""
    warnings: list[AsmError] = []
    items = []
    open_comment = None
    chosen, chosen_at = arch, None
    for number, line in enumerate(_LINE_BREAK.split(source.removeprefix("\ufeff")), start=1):
        loc = Loc(filename, number, 1)
        body, open_comment = _code(line, open_comment, loc)
        item = _assemble_code(body, loc, None if strict else warnings, chosen or isa.DEFAULT_ARCH)
        if isinstance(item, Directive) and item.name == "arch":
            named = isa.Arch(item.args[0])
            if items:
                raise AsmError(item.loc, ".arch must come before the first instruction or directive")
            if chosen is not None and named is not chosen:
                given = f"line {chosen_at.line}" if chosen_at else "the command line"
                raise AsmError(item.loc, f".arch {named.value} contradicts {given}, which chose {chosen.value}")
            chosen, chosen_at = named, item.loc
            continue
        if isinstance(item, Instr):
            named = _ORIGIN.search(line)
            item = dataclasses.replace(item, origin=named.group(1)) if named else item
        if item is not None:
            items.append(item)
    if open_comment is not None:
        raise AsmError(open_comment, "unterminated /* comment")
    return Program(expand_threads(items), warnings, chosen or isa.DEFAULT_ARCH)


def expand_threads(items: list) -> list[Instr | Directive]:
    """`expand_replay` on each `.thread` section by itself (every thread has
    its own replay buffer); set-up before the first section may hold only
    directives, and a thread's name appears once."""
    starts = [i for i, item in enumerate(items) if _is_thread(item)]
    if not starts:
        return expand_replay(items)
    for item in items[:starts[0]]:
        if not isinstance(item, Directive):
            raise AsmError(item.loc, f"an instruction before the first .thread section ({items[starts[0]].loc}); "
                                     "only directives may come before it (set-up shared by every thread)")
    out = list(items[:starts[0]])
    seen: dict[str, Loc] = {}
    for start, end in zip(starts, starts[1:] + [len(items)]):
        head = items[start]
        if head.args[0] in seen:
            raise AsmError(head.loc, f"thread {head.args[0]} has a section already, at {seen[head.args[0]]}")
        seen[head.args[0]] = head.loc
        out.append(head)
        out += expand_replay(items[start + 1:end])
    return out


def join_threads(programs: list[tuple[str, "Program"]]) -> Program:
    """One program whose `.thread` sections are the given programs (`--thread NAME:LISTING`)."""
    archs = {p.arch for _, p in programs}
    if len(archs) > 1:
        named = ", ".join(f"{name}: {p.name} ({p.arch.value})" for name, p in programs)
        raise ValueError(f"the threads are of different architectures ({named}); one SFPU runs one")
    items: list[Instr | Directive] = []
    seen: set[str] = set()
    for name, p in programs:
        if p.is_threaded:
            raise ValueError(f"{p.name}: has .thread sections of its own; give it alone, or one file per thread")
        if name in seen:
            raise ValueError(f"thread {name} is given twice")
        seen.add(name)
        loc = p.items[0].loc if p.items else Loc(p.name, 1, 1)
        items.append(Directive("thread", (name,), (), loc, f".thread {name}"))
        items += p.items
    return Program(items, [w for _, p in programs for w in p.warnings], archs.pop())


REPLAY_ENTRIES = 32
ISSUE_MODES = ("direct", "back_to_back")
MAX_INSTRUCTIONS = 250_000     # in a program, after REPLAY expansion


def expand_replay(items: list) -> list[Instr | Directive]:
    """The instruction stream after the front end's Replay Expander: a loading
    REPLAY records the next instructions (issuing them too with `execute`), a
    playing one issues the recorded ones, one per cycle, and itself takes no
    cycle. Directives are not instructions, so none may fall inside a recording.

    Each instruction is marked `back_to_back` unless an idle cycle may come
    before it: the first of a playback may follow a gap (the thread pushed the
    REPLAY), the rest may not; `.issue back_to_back` ... `.issue direct` marks
    a hand-written run the same way (its first instruction may follow a gap).
    `.issue` directives are consumed here."""
    buffer: list[Instr | None] = [None] * REPLAY_ENTRIES
    out: list[Instr | Directive] = []
    recording: Replay | None = None
    recorded = 0
    in_run = False            # inside `.issue back_to_back`
    run_started = False       # ... and its first instruction has been issued

    def issued(instr: Instr, chained: bool) -> Instr:
        nonlocal run_started
        b2b = chained or (in_run and run_started)
        run_started = run_started or in_run
        return instr if instr.back_to_back == b2b else dataclasses.replace(instr, back_to_back=b2b)

    for item in items:
        if isinstance(item, Directive) and item.name == "issue":
            if recording is not None:
                raise AsmError(item.loc, f"directive .issue inside the recording started at {recording.loc} "
                                         f"({recorded} of {recording.count} instructions recorded)")
            in_run, run_started = item.args[0] == "back_to_back", False
            continue
        if recording is not None:
            if not isinstance(item, Instr):
                what = "a REPLAY" if isinstance(item, Replay) else f"directive {item.text.split()[0]}"
                raise AsmError(item.loc, f"{what} inside the recording started at {recording.loc} "
                                         f"({recorded} of {recording.count} instructions recorded)")
            buffer[(recording.index + recorded) % REPLAY_ENTRIES] = item
            recorded += 1
            if recording.execute:
                out.append(issued(item, False))
            if recorded == recording.count:
                recording = None
            continue
        if not isinstance(item, Replay):
            out.append(issued(item, False) if isinstance(item, Instr) else item)
        elif item.load:
            recording, recorded = item, 0
        else:
            for i in range(item.count):
                entry = buffer[(item.index + i) % REPLAY_ENTRIES]
                if entry is None:
                    raise AsmError(item.loc, f"REPLAY of buffer entry {(item.index + i) % REPLAY_ENTRIES}, "
                                             "which nothing has recorded")
                out.append(issued(dataclasses.replace(entry, replayed_by=item.loc), i > 0))
        if len(out) > MAX_INSTRUCTIONS:
            where = item.loc if isinstance(item, Replay) else out[-1].loc
            raise AsmError(where, f"the program is longer than {MAX_INSTRUCTIONS:,} instructions "
                                  "(REPLAYs expanded), the most one run takes")
    if recording is not None:
        raise AsmError(recording.loc, f"the program ends {recording.count - recorded} instructions into the "
                                      f"recording of {recording.count}")
    return out


def decode_source(data: bytes, filename: str) -> str:
    """UTF-8 text (with or without a byte-order mark); AsmError at the first
    byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", errors="replace")) + 1
        raise AsmError(Loc(filename, line, col), f"byte 0x{data[e.start]:02X} is not UTF-8 text") from None


def assemble_file(path: str, strict: bool = True, arch: isa.Arch | None = None) -> Program:
    with open(path, "rb") as f:
        return assemble(decode_source(f.read(), path), path, strict, arch)


# ---------------------------------------------------------------------------
# Disassembly
# ---------------------------------------------------------------------------

def _format_value(ins: isa.Instruction, name: str, value: int) -> str:
    if name == "imm16":
        return f"0x{value:04X}"
    return str(value)


def disassemble(word: int, style: str = "named", *, arch: isa.Arch) -> str:
    """One instruction word as assembly text that assembles back to the same word.

    style "named" gives the readable form, "llk" the TTI_ form; the Tensix
    instructions the thread issues have only the TTI_ form."""
    if tensix.is_listed(word):
        return tensix.disassemble(word)
    ins = isa.decode(word, arch)
    if style == "llk":
        args = [str((word >> a.shift) & ((1 << a.width) - 1)) for a in ins.op.llk_args]
        call = f"TTI_{ins.op.llk_name}({', '.join(args)});" if ins.op.llk_args else f"TTI_{ins.op.llk_name};"
        if ins.ignored_bits:     # the TTI_ form would need arguments wider than their fields
            return f".word 0x{word:08X}  # {call} (ignored bits 0x{ins.ignored_bits:06X} set)"
        return call
    text = " ".join([ins.mnemonic.lower()] + [f"{n}={_format_value(ins, n, v)}" for n, v in isa.readable_fields(ins)])
    if ins.ignored_bits:
        return f".word 0x{word:08X}  # {text} (ignored bits 0x{ins.ignored_bits:06X} set)"
    return text
