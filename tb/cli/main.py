"""The `sfpu` command line: assemble, disassemble, run programs, show their timeline, and the demo."""

from __future__ import annotations

import argparse
from collections import Counter
import io
import json
import os
import re
import sys
from pathlib import Path

import numpy as np

from model import isa, tensix
from model.asm import AsmError, Program, assemble, decode_source, disassemble
from model.hazards import RULES, group_hazards
from model.machine import UndefinedBehaviour
from model.run import result_to_json, run_program
from model.state import SfpuState
from tb import dst_io
from tb.cli import table
from tb.rtl_run import RtlMismatch

BACKENDS = ("model", "amaranth", "icarus", "verilator")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


WIDE_HELP = f"print tables in full, however wide (default: fit {table.WIDTH} columns)"


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


class NotModelled(Exception):
    """A Blackhole feature the model does not have yet: printed as one line, exit status 3."""


MAX_INPUT_BYTES = 16 << 20     # a program or hex file


def _read_input(path: str, what: str) -> bytes:
    """The bytes of an input file, or a CliError saying why not."""
    try:
        if Path(path).is_dir():
            raise CliError(f"{path}: is a directory, not {what}")
        with open(path, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except OSError as e:
        raise CliError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise CliError(f"{path}: larger than {MAX_INPUT_BYTES >> 20} MB, the most {what} may be")
    return data


def _arch(text: str) -> isa.Arch:
    """`--arch NAME` (wormhole, blackhole, or their short names)."""
    try:
        return isa.Arch.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_arch_option(p, what: str = "the program's") -> None:
    """`--arch`: None when not given, so that a program's `.arch` decides."""
    p.add_argument("--arch", type=_arch, default=None, metavar="{wormhole,blackhole}",
                   help=f"{what} architecture (default: the program's .arch directive, else wormhole); "
                        "an .arch that contradicts it is an error")


RTL_WORMHOLE_ONLY = "the RTL elaborates for Wormhole only; Blackhole runs on the model"


def refuse_rtl(arch: isa.Arch | None, how: str = "drop --backend") -> None:
    """The RTL backends model Wormhole only: a Blackhole run on one is a CliError."""
    if arch is isa.Arch.BLACKHOLE:
        raise CliError(f"{RTL_WORMHOLE_ONLY}: {how}")


def _read_program(path: str, strict: bool = True, arch: isa.Arch | None = None) -> Program:
    """The assembled program; with `strict`, a TTI_ argument wider than its
    field is an error, otherwise a warning printed here. `arch` (from
    `--arch`) must agree with the program's `.arch` directive, if any."""
    program = assemble(decode_source(_read_input(path, "an assembly program"), path), path, strict, arch)
    for warning in program.warnings:
        print(f"{warning.loc}: warning: {warning.message}", file=sys.stderr)
    return program


_HEX_WORD = re.compile(r"(?:0[xX])?[0-9a-fA-F]{1,8}", re.ASCII)


def _read_words(path: str | None, words: list[str], arch: isa.Arch = isa.Arch.WORMHOLE) -> list[int]:
    """Instruction words from the command line or a text file of hex words."""
    out = []
    sources: list[tuple[str, int, str]] = [("<args>", i + 1, w) for i, w in enumerate(words)]
    if path:
        text = decode_source(_read_input(path, "a file of instruction words"), path)
        for number, line in enumerate(text.splitlines(), start=1):
            text = line.split("#")[0].strip()
            if text:
                sources.extend((path, number, token) for token in text.split())
    for where, number, token in sources:
        if not _HEX_WORD.fullmatch(token):
            raise CliError(f"{where}:{number}: {token[:40]!r} is not a hexadecimal instruction word "
                           "(up to 8 hex digits, optionally after 0x)")
        word = int(token, 16)
        if not tensix.is_issued(word):
            try:
                isa.decode(word, arch)
            except isa.DecodeError as e:
                raise CliError(f"{where}:{number}: {e}") from None
        out.append(word)
    return out


def _load_npy(path: str, what: str) -> np.ndarray:
    try:
        return dst_io.load_npy(path, what)
    except dst_io.DstFileError as e:
        raise CliError(str(e)) from None


def _load_dst(path: str) -> np.ndarray:
    try:
        return dst_io.load_dst(path)
    except dst_io.DstFileError as e:
        raise CliError(str(e)) from None


def _load_input(path: str, fmt: dst_io.Format) -> np.ndarray:
    """A typed input array (`--input`), checked against its format and Dst's size."""
    values = _load_npy(path, "an input array")
    if values.dtype.kind not in "fiu":
        raise CliError(f"{path}: dtype {values.dtype} is not numbers; --format {fmt.name} takes "
                       f"{np.dtype(fmt.dtype).name} ({fmt.note})")
    if values.size == 0 or values.size % 32:
        raise CliError(f"{path}: {values.size} values; the input fills 32-lane row groups, so its size must "
                       "be a positive multiple of 32 (a 32 x 32 tile is 1024)")
    if values.size > dst_io.capacity(fmt):
        raise CliError(f"{path}: {values.size} values; Dst holds {dst_io.capacity(fmt)} in {fmt.width}-bit "
                       f"format {fmt.name}")
    flat = values.reshape(-1)
    with np.errstate(all="ignore"):            # a value that does not fit is found just below
        converted = values.astype(fmt.dtype)
        bad = converted.reshape(-1) != flat
    if flat.dtype.kind == "f" and np.dtype(fmt.dtype).kind == "f":
        bad &= ~np.isnan(flat)                 # NaN stays NaN
    if bad.any():
        index = int(np.flatnonzero(bad)[0])
        raise CliError(f"{path}: value {flat[index].item()!r} (index {index} of the flattened array) is not "
                       f"a {np.dtype(fmt.dtype).name}, which --format {fmt.name} takes ({fmt.note}); "
                       f"convert the array first, e.g. with .astype(np.{np.dtype(fmt.dtype).name})")
    return converted


def _write_output(path: str, data: str | bytes) -> None:
    try:
        if isinstance(data, str):
            Path(path).write_text(data)
        else:
            Path(path).write_bytes(data)
    except OSError as e:
        raise CliError(f"{path}: cannot write: {e.strerror or e}") from None


def _out_path(text: str) -> str:
    """An output path on the command line: not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path")
    return text


def _name(text: str) -> str:
    """A name on the command line: not empty (which would otherwise mean the default)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name")
    return text


def _cycle_range(text: str) -> tuple[int, int | None]:
    """`--cycles A:B` (either end may be left out) or `--cycles A`."""
    m = re.fullmatch(r"\s*([0-9]*)\s*(?::\s*([0-9]*)\s*)?", text, re.ASCII)
    if m is None or not (m.group(1) or m.group(2)):
        raise argparse.ArgumentTypeError(f"expected A:B, whole numbers of cycles (e.g. 38:50, 38: or :50), "
                                         f"got {text[:40]!r}")
    first, last = int(m.group(1) or 0), (int(m.group(2)) if m.group(2) else None)
    if last is not None and last < first:
        raise argparse.ArgumentTypeError(f"{text!r}: the range ends before it starts")
    return first, last


def cmd_asm(args) -> int:
    program = _read_program(args.file, strict=False, arch=args.arch)
    lines = [f"0x{w:08X}" for w in program.words]
    text = "\n".join(lines) + ("\n" if lines else "")
    if args.output:
        _write_output(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_disasm(args) -> int:
    arch = args.arch or isa.Arch.WORMHOLE
    for word in _read_words(args.file, args.words, arch):
        print(disassemble(word, "llk" if args.llk else "named", arch))
    return 0


def _run(args, keep_trace: bool = True):
    """The program run on the chosen backend, as a `model.run.RunResult`: on
    an RTL backend its trace and final state come from the RTL, with the
    model in lock-step (tb.rtl_run). The model keeps its trace only if asked."""
    if args.backend != "model":
        refuse_rtl(args.arch)
    if args.call:                    # PROGRAM is a kernel header: compile it (`sfpu llk`)
        from tb.cli.llk import program_from_header
        program = program_from_header(args, args.program)
    else:
        program = _read_program(args.program, strict=not args.lenient, arch=args.arch)
    if args.backend != "model":
        refuse_rtl(program.arch)
    state = SfpuState(arch=program.arch)   # the initial Dst: --dst, then --input placed over it
    if args.dst is not None:
        state.dst = _load_dst(args.dst)
    if args.input is not None:
        fmt = dst_io.FORMATS[args.format]
        dst_io.put_array(state, fmt, _load_input(args.input, fmt))
    unknown = [r for r in args.allow if r not in RULES]
    if unknown:
        raise CliError(f"--allow {unknown[0]}: unknown hazard rule (rules: {', '.join(RULES)})")
    if args.backend == "model":
        try:
            return run_program(program, state, strict=not args.lenient, allow=set(args.allow),
                               keep_trace=keep_trace)
        except (NotImplementedError, LookupError, ImportError) as e:
            if program.arch is isa.Arch.WORMHOLE:
                raise                # a bug in the Wormhole model: let it show
            raise NotModelled(f"{program.name}: not modelled on {program.arch.title} yet: "
                              f"{type(e).__name__}: {e}") from None
    from tb import rtl_run, runner
    given = args.dst is not None or args.input is not None   # else the RTL keeps its reset Dst
    try:
        return rtl_run.run_program(args.backend, program, state.dst if given else None,
                                   strict=not args.lenient, allow=set(args.allow))
    except runner.RunnerError as e:
        raise CliError(str(e)) from None


def _write_json(record, where: str) -> None:
    if where == "-":
        json.dump(record, sys.stdout)
        sys.stdout.write("\n")
    else:
        _write_output(where, json.dumps(record))


DST_ROWS_SHOWN = 16


def cmd_run(args) -> int:
    result = _run(args, keep_trace=args.trace)
    _print_hazards(result.hazards, "warning", sys.stderr)
    record = result_to_json(result, trace=args.trace)       # names the architecture ("arch")
    if args.json is not None:
        _write_json(record, args.json)
    if args.output is not None:
        fmt = dst_io.FORMATS[args.format]
        shape = _load_input(args.input, fmt).shape if args.input is not None else (32, 32)
        buffer = io.BytesIO()
        np.save(buffer, dst_io.get_array(result.state, fmt, shape))
        _write_output(args.output, buffer.getvalue())
    if args.json != "-":
        accepted = f" (the last instruction accepted in cycle {result.issue_cycles - 1})" if result.issue_cycles else ""
        on = f" on {result.state.arch.title}" if result.state.arch is not isa.Arch.WORMHOLE else ""
        print(f"{result.instructions} instructions, {result.cycles} cycles{on}{accepted}")
        for reg in range(8):
            lanes = result.state.lregs[reg]
            if lanes.any():
                print(f"L{reg}: " + " ".join(f"{v:08X}" for v in lanes[:8]) + " ... (lanes 0-7 of 32)")
        _print_dst_written(result)
        if args.output is not None:
            print(f"wrote {args.output}: {args.format} values read back from where --input put them"
                  if args.input is not None else f"wrote {args.output}: one 32 x 32 tile of {args.format}")
    return 0


def _print_dst_written(result) -> None:
    """The Dst rows the program wrote (16-bit rows, in hex), the first few in full."""
    rows = sorted(result.dst_rows_written)
    if not rows:
        print("Dst: no rows written")
        return
    print(f"Dst: {len(rows)} rows written ({_ranges(rows)}), final contents in hex:")
    for row in rows[:DST_ROWS_SHOWN]:
        print(f"  row {row:4}: " + " ".join(f"{v:04X}" for v in result.state.dst[row]))
    if len(rows) > DST_ROWS_SHOWN:
        print(f"  ... {len(rows) - DST_ROWS_SHOWN} more rows (--json or --output for all)")


def cmd_timeline(args) -> int:
    from tb.cli import timeline
    result = _run(args)
    if args.json is not None:
        _write_json([r.to_json() for r in result.trace], args.json)
        return 0
    if args.csv:
        sys.stdout.write(timeline.format_csv(result.trace, arch=result.state.arch))
        return 0
    first, last = args.cycles or (0, None)
    print(timeline.format_table(result.trace, first, last, width=None if args.wide else table.WIDTH,
                                arch=result.state.arch))
    busy = timeline.utilisation(result.trace)
    print(f"\n{result.instructions} instructions issued, {result.cycles} cycles on {result.state.arch.title}")
    print("cycles each sub-unit started work: " + ", ".join(f"{unit} {n}" for unit, n in busy.items()))
    full = timeline.full_cycles(result.trace)
    if full:
        print(f"all five sub-units busy in {len(full)} cycles ({_ranges(full)})")
    _print_hazards(result.hazards, "hazard", sys.stdout)
    return 0


def _print_hazards(hazards, label: str, out) -> None:
    """The hazards a lenient run let through, one line per rule and program
    line with a count, then a count per rule of those the program allowed."""
    for group in group_hazards([h for h in hazards if not h.allowed]):
        print(f"{label}: {group}", file=out)
    allowed = Counter(h.rule for h in hazards if h.allowed)
    if allowed:
        print("allowed by the program: " + ", ".join(f"{rule} x{n}" for rule, n in allowed.items()), file=out)


def _ranges(cycles: list[int]) -> str:
    spans, start = [], cycles[0]
    for a, b in zip(cycles, cycles[1:] + [None]):
        if b != a + 1:
            spans.append(f"{start}-{a}" if a != start else str(a))
            start = b
    return ", ".join(spans)


def cmd_demo(args) -> int:
    refuse_rtl(args.arch, "the demo runs the RTL; run Blackhole programs with `sfpu run --arch blackhole`")
    from tb.cli.demo import OUT, run_demo
    out = Path(args.out) if args.out else OUT
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"{out}: cannot make the folder: {e.strerror or e}") from None
    return run_demo(out, width=None if args.wide else table.WIDTH)


def cmd_verilog(args) -> int:
    """Write a component's Verilog (`hdl.export`); the top `Sfpu` by default."""
    from hdl import export

    refuse_rtl(args.arch, "there is no Blackhole Verilog yet")
    name = args.component or export.TOP
    try:
        if args.list:
            for listed in export.registry():
                print(listed)
            return 0
        text = export.verilog(name)
    except export.ExportError as e:
        raise CliError(str(e)) from None
    if args.output:
        _write_output(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("program", help="a program, or with --call a kernel's C++ header (see `sfpu llk`)")
    p.add_argument("--backend", choices=BACKENDS, default="model",
                   help="the cycle model, or the RTL on a simulator with the model in lock-step (default model)")
    p.add_argument("--dst", metavar="FILE.npy", help="initial Dst as raw uint16[1024][16] in a .npy file")
    p.add_argument("--input", metavar="FILE.npy",
                   help="an array of values (a multiple of 32: rows of 32, or 32 x 32 tiles) placed in Dst where "
                        "SFPLOAD reads them in --format, row group after row group from address 0")
    p.add_argument("--format", choices=dst_io.FORMATS, default="fp32",
                   help="the values' format for --input and --output: " +
                        "; ".join(f"{f.name}: {f.note}" for f in dst_io.FORMATS.values()) + " (default fp32)")
    p.add_argument("--lenient", action="store_true",
                   help="report hazards and undefined behaviour instead of stopping (see docs/timing.md)")
    p.add_argument("--allow", action="append", default=[], metavar="RULE",
                   help="report this hazard rule without stopping (repeatable)")
    from tb.cli.llk import add_source_options
    add_source_options(p.add_argument_group("a kernel's C++ header as PROGRAM (sfpu llk)"))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sfpu", description="Wormhole B0 and Blackhole A0 SFPU golden model and tools")
    sub = p.add_subparsers(dest="command", required=True)

    a = sub.add_parser("asm", help="assemble a program to hexadecimal instruction words")
    a.add_argument("file")
    a.add_argument("-o", "--output", type=_out_path, help="write the words here instead of standard output")
    add_arch_option(a)
    a.set_defaults(func=cmd_asm)

    d = sub.add_parser("disasm", help="disassemble instruction words")
    d.add_argument("words", nargs="*", help="hexadecimal words, e.g. 840C0DD0")
    d.add_argument("-f", "--file", help="a text file of hexadecimal words (as `sfpu asm` writes)")
    d.add_argument("--llk", action="store_true", help="print the TTI_ form instead of named fields")
    add_arch_option(d, "the words'")
    d.set_defaults(func=cmd_disasm)

    r = sub.add_parser("run", help="run a program from reset and report the final state")
    _run_options(r)
    r.add_argument("--json", metavar="OUT", type=_out_path,
                   help="write the final state as JSON ('-' for standard output)")
    r.add_argument("--output", metavar="FILE.npy", type=_out_path,
                   help="write the values SFPSTORE left where --input put them (one 32 x 32 tile without "
                        "--input), in --format, as a .npy of --input's shape")
    r.add_argument("--trace", action="store_true", help="include the per-cycle trace in the JSON")
    r.set_defaults(func=cmd_run)

    t = sub.add_parser("timeline", help="print what each sub-unit does in each cycle")
    _run_options(t)
    form = t.add_mutually_exclusive_group()
    form.add_argument("--json", metavar="OUT", type=_out_path,
                      help="write the trace records as JSON ('-' for standard output)")
    form.add_argument("--csv", action="store_true", help="print the table as CSV")
    t.add_argument("--wide", action="store_true", help=WIDE_HELP)
    t.add_argument("--cycles", metavar="A:B", type=_cycle_range,
                   help="print only cycles A to B (A: or :B for open ends)")
    t.set_defaults(func=cmd_timeline)

    m = sub.add_parser("demo", help="the fast-exp SFPLOADMACRO kernel on the RTL (Amaranth's simulator) in "
                                    "lock-step with the golden model, with its timeline and waveform")
    m.add_argument("--out", metavar="DIR", type=_out_path,
                   help="where the waveform and save file go (default build/demo)")
    m.add_argument("--wide", action="store_true", help=WIDE_HELP)
    add_arch_option(m, "the RTL's (Wormhole only)")
    m.set_defaults(func=cmd_demo)

    v = sub.add_parser("verilog", help="write the Verilog of the SFPU top or of one component")
    v.add_argument("-o", "--output", type=_out_path, help="write here instead of standard output")
    v.add_argument("--component", metavar="NAME", type=_name,
                   help="a registered component instead of the top (see --list)")
    v.add_argument("--list", action="store_true", help="list the components")
    add_arch_option(v, "the RTL's (Wormhole only)")
    v.set_defaults(func=cmd_verilog)

    from tb.cli.kernel_report import add_parser as add_kernels_parser   # `sfpu kernels`: the kernels measured
    add_kernels_parser(sub)
    from tb.cli.sim import add_parser as add_sim_parser      # `sfpu sim`: the RTL in lock-step, waveforms
    add_sim_parser(sub)
    from tb.cli.llk import add_parser as add_llk_parser  # `sfpu llk`: a kernel's C++ header to a listing
    add_llk_parser(sub)

    g = sub.add_parser("regress", help="lock-step regression of random programs on an RTL backend (or the model alone)")
    from tb import regress
    regress.add_arguments(g)
    add_arch_option(g, "the programs' (Blackhole: --backend model only)")
    g.set_defaults(func=cmd_regress)

    g = sub.add_parser("mutate", help="the mutation score: mutants of the RTL against the lock-step checks")
    from tb import mutate
    mutate.add_arguments(g)
    g.set_defaults(func=cmd_mutate)

    b = sub.add_parser("bench", help="measure the speed of the model, the FMA and every RTL backend")
    from tb import bench
    bench.add_arguments(b)
    b.set_defaults(func=bench.main)
    return p


def cmd_regress(args) -> int:
    if args.backend != "model":
        refuse_rtl(args.arch, "give --backend model")
    from tb import regress, runner
    try:
        return regress.main(args)
    except (regress.RegressError, runner.RunnerError) as e:
        raise CliError(str(e)) from None


def cmd_mutate(args) -> int:
    from tb import mutants, mutate, runner
    try:
        return mutate.main(args)
    except (mutate.MutateError, mutants.MutantError, runner.RunnerError) as e:
        raise CliError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (CliError, AsmError) as e:
        print(f"sfpu: error: {e}", file=sys.stderr)
        return 2
    except RtlMismatch as e:
        print(f"sfpu: {e}", file=sys.stderr)
        return 1
    except UndefinedBehaviour as e:
        from tb.llk.frontend import with_cxx_location
        print(f"sfpu: stopped: {with_cxx_location(str(e))}", file=sys.stderr)
        return 3
    except NotModelled as e:
        print(f"sfpu: stopped: {e}", file=sys.stderr)
        return 3
    except BrokenPipeError:          # output piped into a command that stopped reading
        sys.stdout = open(os.devnull, "w")
        return 0

