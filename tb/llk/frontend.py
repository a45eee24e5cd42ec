"""Compile a kernel's own C++ header and record what it issues.

`compile_call` writes a small C++ driver that includes the header, compiles
it with the host g++ against the stand-in headers (tb/llk/headers.py and
tb/llk/include/), runs it, and turns the recorded instruction words,
Tensix register writes and notes into a listing of the project's assembly,
each line with a `# file:line` comment naming the C++ line it came from.

The driver plays the caller of a unary SFPU kernel as the firmware and
tt-llk's `_llk_math_eltwise_unary_sfpu_init_`, `_start_` and `_params_` do:
lane predication switched on (SFPENCC, which the firmware does once at boot),
the SFPU control register cleared (SFPCONFIG 0xF), ADDR_MOD_7 all zero, the
counters reset, then the kernel's init; on Wormhole the ADDR_MOD base set (Blackhole's 3-bit
AddrMod names the slot itself); then the call once per
face with the Dst counter moved 16 rows after each. What the caller sets up
outside any C++ the front end sees (Fp32 Dst mode, the SrcB format, ADDR_MOD
slots from elsewhere) must be given (`fp32_dest`, `setup`); a kernel that
needs one that is missing stops with the C++ line that needs it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import AsmError, Directive, Instr, Program, assemble, disassemble, dropped_arguments
from tensix_sfpu.model.hazards import interlocks_next, stall_writes
from tensix_sfpu.model.reads import word_reads
from tensix_sfpu.model.spelling import did_you_mean

from . import headers
from .entries import functions
from .sources import SourceTree
from .state_contract import contract_lines

ARCHES = tuple(a.value for a in isa.Arch)
VECTOR_MODES = {          # faces called, and SETRWC pairs after each (tt-llk's VectorMode)
    "rc": (4, 1, 0), "r": (2, 1, 2), "c": (2, 2, 0), "none": (1, 0, 0),
}
CALLER = "caller"         # the file name records of the driver's own code carry
COMPILE_SECONDS = 120
RUN_SECONDS = 20


SFPI_NOTE = ("SFPI code recorded by the stand-in (docs/llk.md): registers, copies, SFPNOPs and so the cycle "
             "counts are this project's instruction selection, not SFPI's compiler's")


class LlkError(Exception):
    """Bad input or something the front end does not model; the message names
    the C++ file and line where there is one."""


@dataclass(frozen=True)
class Request:
    header: Path
    call: str
    init: str | None = None
    arch: str = field(kw_only=True)      # the caller says which; no default
    defines: tuple[str, ...] = ()
    fp32_dest: int | None = None
    srcb_format: int | None = None
    setup: tuple[str, ...] = ()          # directives the caller sets up, e.g. ".addr_mod 6 dst_incr=2"
    vector_mode: str = "rc"
    tree: SourceTree | None = None
    strict_fields: bool = False          # an argument with bits outside its field is an error, not a warning
    # Headers included before `header`, as the translation unit that calls it has them (a
    # header may rely on its includer's declarations, e.g. a global `using namespace sfpi`),
    # and the headers of a chain's later ops.
    preincludes: tuple[Path, ...] = ()
    # A chain: the ops after this one, each with its init, on the same thread (`call`, `init` is the first).
    then: tuple["Op", ...] = ()

    @property
    def ops(self) -> tuple["Op", ...]:
        return (Op(self.call, self.init), *self.then)


@dataclass
class Record:
    kind: str              # I T D N S X P
    text: str
    where: str             # "file:line" ("" for a phase)


@dataclass(frozen=True)
class Op:
    """One kernel call of a chain, with the init run before it."""
    call: str
    init: str | None = None


@dataclass(frozen=True)
class FieldWarning:
    """A `TTI_`/`TT_` argument with bits outside its field: the word drops them."""
    where: str             # the C++ file:line
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text}"

    def to_json(self) -> dict:
        return {"where": self.where, "message": self.text}


@dataclass
class Listing:
    request: Request
    text: str
    program: Program
    frontend: str                              # "tti", or "sfpi" when SFPI constructs ran
    notes: list[str] = field(default_factory=list)
    caller_setup: list[str] = field(default_factory=list)
    cxx_of_line: dict[int, str] = field(default_factory=dict)   # listing line -> C++ file:line
    sfpi_phases: set[str] = field(default_factory=set)          # the driver's phases in which SFPI code ran
    field_warnings: list["FieldWarning"] = field(default_factory=list)   # TTI_ arguments the encoding cut short

    def kernel_words(self) -> list[int]:
        """The instruction words the kernel's own C++ issued (not the driver's caller code)."""
        out = []
        for item in self.program.items:
            if isinstance(item, Instr) and not self.cxx_of_line.get(item.loc.line, "").startswith(CALLER + ":"):
                out.append(item.word)
        return out


def compile_call(request: Request, name: str = "<llk>",
                 driver: Callable[[Request, Path, list[Path]], str] | None = None) -> Listing:
    """The listing of what `request`'s call issues, as the unary SFPU caller
    runs it, or as `driver` (a function writing the driver's C++) runs it."""
    if request.arch not in ARCHES:
        raise LlkError(f"--arch {request.arch}: expected one of {', '.join(ARCHES)}")
    if request.vector_mode not in VECTOR_MODES:
        raise LlkError(f"vector mode {request.vector_mode!r}: expected one of {', '.join(VECTOR_MODES)}")
    if not request.header.is_file():
        raise LlkError(f"{request.header}: no such header")
    compiler = shutil.which("g++")
    if compiler is None:
        raise LlkError("g++ is not installed (Debian: apt-get install g++)")
    with tempfile.TemporaryDirectory(prefix="sfpu-llk-") as tmp:
        work = Path(tmp)
        try:
            exe, shadows = _build(request, work, compiler, driver)
        except LlkError as e:
            raise LlkError(_with_closest_function(str(e), request)) from None
        survey = work / "sfpi-survey"
        records = _run(exe, {"SFPI_SURVEY": str(survey)})
        if any(r.kind == "V" for r in records):
            # SFPI code ran: again, with each value's register freed after its last use.
            records = _run(exe, {"SFPI_LAST_USE": str(survey)})
        for r in records:
            r.where = unshadow(r.where, shadows)
    return _listing(request, records, name)


# ---------------------------------------------------------------------------
# The driver

def caller_setup_lines() -> list[str]:
    """What the firmware and `_llk_math_eltwise_unary_sfpu_init_` set up before any SFPU kernel."""
    return ["TTI_SFPENCC(sfpi::SFPENCC_IMM12_BOTH, 0, 0, sfpi::SFPENCC_MOD1_EI_RI);  // the firmware's boot set-up",
            "TTI_SFPCONFIG(0, 0xF, 1);  // _init_sfpu_config_reg",
            "addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 0}}.set(ADDR_MOD_7);",
            "math::reset_counters(p_setrwc::SET_ABD_F);"]


def _driver(request: Request, header_path: Path, preincluded: list[Path]) -> str:
    faces, incs, tail = VECTOR_MODES[request.vector_mode]
    header = str(header_path)
    lines = ['#include "llk_stand_in.h"'] + [f'#include "{p}"' for p in preincluded] + [f'#include "{header}"',
             "using namespace ckernel;", "using namespace ckernel::sfpu;", "using namespace sfpi;",
             "int main() {", '::llk_record::phase("caller set-up");',
             f'#line 1 "{CALLER}"', *caller_setup_lines()]
    # Wormhole's unary SFPU start moves the 2-bit AddrMod to slots 4-7; Blackhole's
    # 3-bit AddrMod names the slot, and its start leaves the base alone.
    base = "" if isa.Arch(request.arch).features.addr_mod_names_slot else "math::set_addr_mod_base();"
    for k, op in enumerate(request.ops, start=1):
        at = (k - 1) * 100                 # the caller's lines of op k: 10-12 start, 20 between faces, 30 return
        if k > 1:
            # Each op's init starts with `_llk_math_eltwise_unary_sfpu_init_`: LaneConfig, ADDR_MOD_7, counters.
            lines += [f'::llk_record::phase("{op_phase(k, "llk init")}");', f'#line {2 + at} "{CALLER}"',
                      *caller_setup_lines()[1:]]
        if op.init:
            lines += [f'::llk_record::phase("{op_phase(k, "init")}");', f'#line 1 "{op_file("--init", k)}"', f"{op.init};"]
        entry, ret = _c_string(f".op entry {k} {op.call}"), _c_string(f".op return {k} {op.call}")
        # A later op works on the same tile: the one before it ended as `_llk_math_eltwise_unary_sfpu_done_`
        # does, with the Dst counter cleared.
        done = "math::clear_dst_reg_addr();" if k > 1 else ""
        lines += [f'::llk_record::phase("{op_phase(k, "start")}");', f'#line {10 + at} "{CALLER}"', done, base,
                  "TTI_STALLWAIT(p_stall::STALL_SFPU, p_stall::MATH);",
                  f'::llk_record::directive("{entry}", "{CALLER}", {12 + at});']
        for face in range(faces):
            lines += [f'::llk_record::phase("{op_phase(k, f"face {face}")}");', f'#line 1 "{op_file("--call", k)}"', f"{op.call};",
                      f'#line {20 + at} "{CALLER}"'] + ["math::inc_dst_addr<8>(); math::inc_dst_addr<8>();"] * incs
        lines += ["math::inc_dst_addr<8>(); math::inc_dst_addr<8>();"] * tail
        lines.append(f'::llk_record::directive("{ret}", "{CALLER}", {30 + at});')
    lines += ["return 0;", "}"]
    return "\n".join(lines) + "\n"


def op_phase(k: int, name: str) -> str:
    """The driver's phase `name` of a chain's k-th op: the first op's are those of a single call, a later
    op's say which it is ("op 2: init")."""
    return name if k == 1 else f"op {k}: {name}"


def op_file(option: str, k: int) -> str:
    """The pseudo-file naming the k-th op's --init/--call in listings ("--call", "--call 2")."""
    return option if k == 1 else f"{option} {k}"


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


# `#pragma GCC unroll N` with N a template parameter: the kernels' compiler takes it, Debian's
# g++ 12 refuses it. The pragma only hints at code layout, never at what the loop issues, so the
# front end compiles copies of the kernel folders with such a pragma's count written as 8.
_UNROLL_PARAMETER = re.compile(r"^(\s*#\s*pragma\s+GCC\s+unroll\s+)(?!\d+\s*$)\S.*$", re.M)


# `static_assert(false, ...)` in a branch `if constexpr` discards: the kernels' compiler (GCC 13 and
# later, P2593) checks it only where the branch is instantiated, g++ 12 at the definition. A generic
# lambda's body is instantiated only where it is called, so the copy says the same thing to g++ 12:
# the assertion still fails, with its message, wherever the branch is taken.
_STATIC_ASSERT_FALSE = re.compile(r"\bstatic_assert\s*\(\s*false\s*,(?P<message>[^;]*?)\)\s*;")


def _for_gcc12(text: str) -> str:
    text = _UNROLL_PARAMETER.sub(r"\g<1>8", text)
    return _STATIC_ASSERT_FALSE.sub(
        lambda m: f"[](auto never) {{ static_assert(sizeof(never) == 0,{m.group('message')}); }}(0);", text)


def _shadow(folder: Path, into: Path) -> Path:
    """A copy of a kernel folder's headers, same names and lines, with the two constructs g++ 12
    reads differently from the kernels' compiler rewritten (above)."""
    into.mkdir(parents=True)
    for header in folder.glob("*.h"):
        (into / header.name).write_text(_for_gcc12(header.read_text(errors="replace")))
    return into


def prepare(request: Request, work: Path, driver: Callable[[Request, Path, list[Path]], str] | None = None,
            ) -> tuple[Path, list[str], dict[Path, Path]]:
    """The driver's source in `work`, the include and define flags that compile it
    (for the host here, for the RISC-V in tb/perf), and the kernel folders' shadow copies."""
    include = work / "include"
    headers.write_generated(include, isa.Arch(request.arch))
    tree = request.tree
    header = request.header.resolve()
    header_dir = header.parent
    shadows: dict[Path, Path] = {}
    if tree is not None:
        if tree.llk_sfpu is not None:
            shadows[tree.llk_sfpu] = _shadow(tree.llk_sfpu, include / "sfpu")
        if tree.metal_sfpu is not None:
            shadows[tree.metal_sfpu] = _shadow(tree.metal_sfpu, work / "metal_sfpu")
            # as tt-llk's test harness names them: `#include "llk_sfpu/ckernel_sfpu_mask.h"`
            (include / "llk_sfpu").symlink_to(shadows[tree.metal_sfpu], target_is_directory=True)
        if tree.sfpu_types is not None:
            (include / "llk_sfpu_types.h").symlink_to(tree.sfpu_types)
        header = _shadowed(header, shadows)
        header_dir = header.parent
    source = work / "driver.cpp"
    source.write_text((driver or _driver)(request, header, [_shadowed(p.resolve(), shadows)
                                                            for p in request.preincludes]))
    flags = ["-I", str(include), "-I", str(headers.STATIC_INCLUDE), "-I", str(header_dir)]
    if tree is not None and tree.metal_sfpu is not None:
        flags += ["-I", str(shadows[tree.metal_sfpu])]
    for define in request.defines:
        if not re.fullmatch(r"[A-Za-z_]\w*(=.*)?", define):
            raise LlkError(f"-D {define}: expected NAME or NAME=VALUE")
        flags.append(f"-D{define}")
    return source, flags, shadows


def compile_with(command: list[str], what: str, work: Path, shadows: dict[Path, Path], target: str = "") -> None:
    """Run a compiler command; its first error as an LlkError with the C++ line
    (and `target`, the build it was, where that is not the host's)."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_SECONDS, cwd=work)
    except subprocess.TimeoutExpired:
        raise LlkError(f"{what}: the compiler took longer than {COMPILE_SECONDS} s") from None
    if done.returncode != 0:
        message = _compile_error(unshadow(done.stderr, shadows), work)
        if target:
            message = message.replace("C++ compile error:", f"C++ compile error ({target}):", 1)
        raise LlkError(message)


def _build(request: Request, work: Path, compiler: str,
           driver: Callable[[Request, Path, list[Path]], str] | None = None) -> tuple[Path, dict[Path, Path]]:
    source, flags, shadows = prepare(request, work, driver)
    exe = work / "driver"
    command = [compiler, "-std=gnu++17", "-O0", "-g", "-no-pie", "-fno-omit-frame-pointer", "-w",
               "-fmax-errors=5"] + flags + [str(source), "-o", str(exe)]
    compile_with(command, str(request.header), work, shadows)
    return exe, shadows


def _shadowed(path: Path, shadows: dict[Path, Path]) -> Path:
    copy = shadows.get(path.parent)
    return copy / path.name if copy is not None else path


def unshadow(text: str, shadows: dict[Path, Path]) -> str:
    """Paths inside the front end's copies of the kernel folders, written as the originals."""
    for original, copy in shadows.items():
        text = text.replace(str(copy), str(original))
    return text


_GCC_ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<msg>.*)$", re.M)


def _compile_error(stderr: str, work: Path) -> str:
    """The first error g++ reports, as `file:line: C++ compile error: message`."""
    m = _GCC_ERROR.search(stderr)
    if m is None:
        last = [line for line in stderr.splitlines() if line.strip()][-3:]
        return "C++ compile error: " + " / ".join(last)
    where = f"{m.group('file')}:{m.group('line')}"
    if m.group("file").startswith(str(work)):
        where = f"<driver>:{m.group('line')}"
    return f"{where}: C++ compile error: {m.group('msg')}"


# g++'s words for a name it does not know (quoted ‘so’ in a UTF-8 locale, 'so' in C), and its own
# guess, which looks at every name in scope (`explicit` for `exp_innit`).
_UNKNOWN_NAME = re.compile(r"[‘'](?P<name>[A-Za-z_]\w*)[’'] (?:was not declared in this scope|is not a member of)")
_GCC_GUESS = re.compile(r"; did you mean [‘'][^’']*[’']\?")


def _with_closest_function(error: str, request: Request) -> str:
    """A compile error in --call or --init over a name g++ does not know, with the headers' function
    closest to it (`did_you_mean`) in place of g++'s guess; any other error as it is."""
    m = _UNKNOWN_NAME.search(error)
    if m is None or not error.startswith(("--call", "--init")):
        return error
    known = {f.name for header in (request.header, *request.preincludes) for f in functions(header)}
    hint = did_you_mean(m.group("name"), known)
    return _GCC_GUESS.sub("", error) + hint if hint else error


def _run(exe: Path, env: dict[str, str]) -> list[Record]:
    try:
        done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=RUN_SECONDS,
                              env={**os.environ, **env})
    except subprocess.TimeoutExpired:
        raise LlkError(f"the kernel ran for more than {RUN_SECONDS} s without finishing") from None
    records: list[Record] = []
    for line in done.stdout.splitlines():
        parts = line.split("\t")
        if parts[0] == "P":
            records.append(Record("P", parts[1], ""))
        elif len(parts) == 4:
            records.append(Record(parts[0], parts[1], f"{parts[2]}:{parts[3]}"))
    _resolve_addresses(exe, records)
    if done.returncode not in (0, 3):
        last = f"after {records[-1].where}" if records else "before its first instruction"
        why = ("it crashed: it dereferences a pointer the caller provides (an L1 address?), which the "
               "front end cannot give" if done.returncode < 0 else f"status {done.returncode}")
        raise LlkError(f"the kernel's C++ stopped {last}: {why} {done.stderr.strip()[-200:]}".rstrip())
    return records


def _resolve_addresses(exe: Path, records: list[Record]) -> None:
    """Records made inside an operator carry a return address: addr2line gives its C++ line."""
    pending = [r for r in records if r.where.startswith("@")]
    if not pending:
        return
    addresses = sorted({r.where[1:].split(":")[0] for r in pending})
    tool = shutil.which("addr2line")
    names: dict[str, str] = {}
    if tool:
        # The return address is the instruction after the call; one byte back is inside it.
        done = subprocess.run([tool, "-e", str(exe)] + [hex(int(a, 16) - 1) for a in addresses],
                              capture_output=True, text=True)
        for address, line in zip(addresses, done.stdout.splitlines()):
            names[address] = re.sub(r" \(discriminator \d+\)$", "", line.strip())
    for r in pending:
        r.where = names.get(r.where[1:].split(":")[0], "?:0")


# ---------------------------------------------------------------------------
# The listing

def short(where: str, tree: SourceTree | None) -> str:
    """A C++ location relative to the source tree, where it is inside it."""
    if tree is not None and tree.root is not None:
        root = str(tree.root) + os.sep
        if where.startswith(root):
            return where[len(root):]
    return where


def _listing(request: Request, records: list[Record], name: str) -> Listing:
    tree = request.tree
    arch = isa.Arch(request.arch)
    out = [f".arch {arch.value}"] if arch is not isa.DEFAULT_ARCH else []
    out += [f"# {request.header.name}: {request.init + '; ' if request.init else ''}{request.call} "
           f"(sfpu llk, {request.arch}, vector mode {request.vector_mode}"
           + (f", {' '.join('-D ' + d for d in request.defines)}" if request.defines else "") + ")"]
    caller_setup = []
    if request.fp32_dest is not None:
        caller_setup.append(f".fp32_dest {request.fp32_dest}")
    if request.srcb_format is not None:
        caller_setup.append(f".srcb_format {request.srcb_format}")
    caller_setup += list(request.setup)
    if caller_setup:
        out.append("# Set up by the caller outside the kernel (given to sfpu llk):")
        out += caller_setup
    out.append("# The state each op leaves for the next (tb/llk/state_contract.py):")
    out += contract_lines(arch)
    notes: list[str] = []
    field_warnings: list[FieldWarning] = []
    frontend = "tti"
    sfpi_lines: set[int] = set()          # listing lines of instructions the SFPI stand-in chose
    decoded: dict[int, isa.Instruction] = {}
    body_marked = False
    stop: Record | None = None
    phase = ""
    sfpi_phases: set[str] = set()
    for r in records:
        where = short(r.where, tree)
        if r.kind in ("V", "S"):
            sfpi_phases.add(phase)
        if r.kind == "P":
            phase = r.text
            if r.text.startswith("face") and not body_marked:
                out.append(".mark body")
                body_marked = True
            out.append(f"# --- {r.text} ---")
            continue
        if r.kind == "X":
            stop = r
            break
        if r.kind in ("I", "V"):
            if r.kind == "V":
                frontend = "sfpi"
                sfpi_lines.add(len(out) + 1)
            word = int(r.text, 16)
            try:
                if isa.opcode_of(word) in isa.ISA[arch].by_opcode:
                    field_warnings += [FieldWarning(where, text) for text in dropped_arguments(word, arch)]
                text = disassemble(word, "llk", arch=arch)
                if isa.opcode_of(word) in isa.ISA[arch].by_opcode:
                    decoded[len(out) + 1] = isa.decode(word, arch)
            except isa.DecodeError as e:
                raise LlkError(f"{where}: {e}") from None
        elif r.kind in ("T", "D"):
            text = r.text
        elif r.kind == "N":
            notes.append(f"{where}: {r.text}")
            out.append(f"# note: {r.text}  ({where})")
            continue
        elif r.kind == "S":
            frontend = "sfpi"
            notes.append(f"{where}: SFPI {r.text}")
            out.append(f"# sfpi: {r.text}  ({where})")
            continue
        else:
            continue
        out.append(f"{text}  # {where}")
    if sfpi_lines:
        out = _schedule_sfpi(out, decoded, sfpi_lines)
        out.insert(1 if arch is not isa.DEFAULT_ARCH else 0, "# " + SFPI_NOTE)
    # Each instruction or directive line ends in `  # file:line`; comment lines start with `#`.
    cxx_of_line = {n: t.rsplit("  # ", 1)[1] for n, t in enumerate(out, 1) if not t.startswith("#") and "  # " in t}
    if stop is not None:
        live = [f"{n.text[6:]} from {short(n.where, tree)}" for n in records if n.kind == "N" and
                n.text.startswith("live: ")]
        raise LlkError(f"{short(stop.where, tree)}: {stop.text}" + (f" (live: {', '.join(live)})" if live else ""))
    field_warnings = list(dict.fromkeys(field_warnings))      # once per C++ line, not per face or pass
    if field_warnings and request.strict_fields:
        raise LlkError(f"{field_warnings[0]} (--strict-fields)")
    text = "\n".join(out) + "\n"
    try:
        program = assemble(text, name)
    except AsmError as e:
        where = cxx_of_line.get(e.loc.line)
        raise LlkError(f"{where}: {e.message}" if where else str(e)) from None
    listing = Listing(request, text, program, frontend, notes, caller_setup, cxx_of_line, sfpi_phases, field_warnings)
    check_setup(listing)
    return listing


def _needs_nop(before: isa.Instruction, after: isa.Instruction) -> bool:
    """Whether `after`, issued the cycle after `before`, would break a timing
    rule that an SFPNOP between them prevents: only SFPNOP may follow an
    interlocking instruction, and a MAD-class result lands a cycle late, so
    reading (or writing) its register at once is too early. Decided from the
    words alone, whatever the lanes hold; a register field counts as read."""
    if interlocks_next(before):
        return True
    if before.op.unit is not isa.Unit.MAD:
        return False
    named = {after.get(f) for f in ("va", "vb", "vc", "vd")} - {None}
    return bool(stall_writes(before) & (word_reads(after, after.op.reads) | named))


def _schedule_sfpi(out: list[str], decoded: dict[int, isa.Instruction], sfpi_lines: set[int]) -> list[str]:
    """SFPI's compiler schedules its instructions; the stand-in records them
    back to back. Where one side of two consecutive SFPU instructions is the
    stand-in's and the later would be too early (`_needs_nop`), an SFPNOP
    goes between them at the later one's C++ line. Hazards between two of the
    kernel's own TTI_ instructions stay: those are the kernel's."""
    scheduled: list[str] = []
    previous: tuple[int, isa.Instruction] | None = None
    for number, text in enumerate(out, 1):
        ins = decoded.get(number)
        if ins is not None:
            if previous is not None and (number in sfpi_lines or previous[0] in sfpi_lines) \
                    and _needs_nop(previous[1], ins):
                scheduled.append("TTI_SFPNOP;  # " + text.rsplit("  # ", 1)[1])
            previous = (number, ins)
        scheduled.append(text)
    return scheduled


_DST_ACCESS = ("SFPLOAD", "SFPSTORE", "SFPLOADMACRO")


def check_setup(listing: Listing) -> None:
    """Stop where the kernel relies on Tensix state that nobody set: an
    ADDR_MOD slot no one programmed, or a Dst format that depends on the
    caller's Fp32 Dst mode when the caller's mode was not given."""
    base = 0
    slots: set[int] = set()
    fp32_known = False
    for item in listing.program.items:
        if isinstance(item, Directive):
            if item.name == "addr_mod":
                slots.add(item.args[0])
            elif item.name == "addr_mod_base":
                base = item.args[0]
            elif item.name == "fp32_dest":
                fp32_known = True
            continue
        arch = listing.program.arch
        if not isinstance(item, Instr) or isa.opcode_of(item.word) not in isa.ISA[arch].by_opcode:
            continue
        ins = isa.decode(item.word, arch)
        if ins.mnemonic not in _DST_ACCESS:
            continue
        where = listing.cxx_of_line.get(item.loc.line, str(item.loc))
        # A 2-bit AddrMod field reaches slots 4-7 through ADDR_MOD_SET_Base; a 3-bit one names the slot.
        slot = ins["addr_mod"] + (4 * base if arch.features.addr_mod_bits < 3 else 0)
        if slot not in slots:
            raise LlkError(f"{where}: {ins.mnemonic} uses ADDR_MOD_{ins['addr_mod']} (slot {slot}"
                           f"{' with ADDR_MOD_SET_Base' if base else ''}), which neither the kernel, its init nor "
                           f"the unary SFPU caller programs: give the caller's set-up, e.g. "
                           f"--setup '.addr_mod {slot} dst_incr=2'")
        if (ins["mod0"] == 0 or ins.mnemonic == "SFPLOADMACRO") and not fp32_known:
            raise LlkError(f"{where}: {ins.mnemonic} {'with InstrModLoadStore::DEFAULT ' if ins['mod0'] == 0 else ''}"
                           "reads or writes Dst in a format the caller's Fp32 Dst mode decides, which the kernel "
                           "does not set: give --fp32-dest 0|1 (and --srcb-format N with 0)")


def cxx_location(listing_path: str, line: int) -> str | None:
    """The `# file:line` comment `sfpu llk` wrote on a listing line, if any."""
    try:
        text = Path(listing_path).read_text().splitlines()[line - 1]
    except (OSError, IndexError):
        return None
    m = re.search(r"#\s*(\S+:\d+)\s*$", text)
    return m.group(1) if m else None


_LISTING_LOC = re.compile(r"(?P<file>[^\s:]+\.s):(?P<line>\d+):\d+:")


_COMPILED: dict[str, Listing] = {}


def remember(listing: Listing) -> None:
    """Keep a listing compiled in this process, so that a stop in it can name its C++ line."""
    _COMPILED[listing.program.name] = listing


def _cxx_of(m: re.Match) -> str | None:
    """The C++ line behind a listing location matched by `_LISTING_LOC`: from
    a listing compiled in this process, else from the listing file's comment."""
    listing = _COMPILED.get(m.group("file"))
    if listing:
        return listing.cxx_of_line.get(int(m.group("line")))
    return cxx_location(m.group("file"), int(m.group("line")))


def with_cxx_location(message: str) -> str:
    """A hazard or undefined-behaviour message about a listing `sfpu llk`
    wrote (or compiled in this process), with the C++ line of the instruction added."""
    m = _LISTING_LOC.search(message)
    where = _cxx_of(m) if m else None
    return f"{where}: {message}" if where else message


def with_cxx_locations(message: str) -> str:
    """Every listing location in `message` with its C++ line put before it, where known."""
    def annotate(m: re.Match) -> str:
        where = _cxx_of(m)
        return f"{where}: {m.group(0)}" if where else m.group(0)
    return _LISTING_LOC.sub(annotate, message)


_ITEM_LOC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):\d+:")


def cxx_of_message(message: str, listing: Listing) -> str:
    """A model stop about an assembled (not written) listing, with the C++ line of its instruction."""
    m = _ITEM_LOC.match(message)
    where = listing.cxx_of_line.get(int(m.group("line"))) if m else None
    return f"{where}: {message}" if where else message
