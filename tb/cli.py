"""The `sfpu` command line: assemble, disassemble, run programs, show their timeline, and the demo."""

from __future__ import annotations

import argparse
from collections import Counter
import json
import os
import sys
from pathlib import Path

import numpy as np

from model import isa
from model.asm import AsmError, assemble_file, disassemble
from model.hazards import RULES
from model.machine import UndefinedBehaviour
from model.run import result_to_json, run_program
from model.state import DST_COLS, DST_ROWS, SfpuState
from tb.rtl_run import RtlMismatch

BACKENDS = ("model", "amaranth", "icarus", "verilator")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def _read_program(path: str):
    if not Path(path).is_file():
        raise CliError(f"{path}: no such file")
    return assemble_file(path)


def _read_words(path: str | None, words: list[str]) -> list[int]:
    """Instruction words from the command line or a text file of hex words."""
    out = []
    sources: list[tuple[str, int, str]] = [("<args>", i + 1, w) for i, w in enumerate(words)]
    if path:
        if not Path(path).is_file():
            raise CliError(f"{path}: no such file")
        for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
            text = line.split("#")[0].strip()
            if text:
                sources.extend((path, number, token) for token in text.split())
    for where, number, token in sources:
        try:
            word = int(token, 16)
        except ValueError:
            raise CliError(f"{where}:{number}: {token!r} is not a hexadecimal instruction word") from None
        try:
            isa.decode(word)
        except isa.DecodeError as e:
            raise CliError(f"{where}:{number}: {e}") from None
        out.append(word)
    return out


def _load_dst(path: str) -> np.ndarray:
    try:
        dst = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise CliError(f"{path}: cannot read as .npy: {e}") from None
    if dst.shape != (DST_ROWS, DST_COLS):
        raise CliError(f"{path}: Dst must have shape ({DST_ROWS}, {DST_COLS}), got {dst.shape}")
    if dst.dtype != np.uint16:
        raise CliError(f"{path}: Dst must be raw uint16 bits, got dtype {dst.dtype}")
    return dst


def cmd_asm(args) -> int:
    program = _read_program(args.file)
    lines = [f"0x{w:08X}" for w in program.words]
    text = "\n".join(lines) + ("\n" if lines else "")
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_disasm(args) -> int:
    for word in _read_words(args.file, args.words):
        print(disassemble(word, "llk" if args.llk else "named"))
    return 0


def _run(args):
    """The program run on the chosen backend, as a `model.run.RunResult`: on
    an RTL backend its trace and final state come from the RTL, with the
    model in lock-step (tb.rtl_run)."""
    if args.call:                    # PROGRAM is a kernel header: compile it (`sfpu llk`)
        from tb.llk.cli import program_from_header
        program = program_from_header(args, args.program)
    else:
        program = _read_program(args.program)
    dst = _load_dst(args.dst) if args.dst else None
    unknown = [r for r in args.allow if r not in RULES]
    if unknown:
        raise CliError(f"--allow {unknown[0]}: unknown hazard rule (rules: {', '.join(RULES)})")
    if args.backend == "model":
        state = SfpuState()
        if dst is not None:
            state.dst = dst
        return run_program(program, state, strict=not args.lenient, allow=set(args.allow))
    from tb import rtl_run, runner
    try:
        return rtl_run.run_program(args.backend, program, dst, strict=not args.lenient, allow=set(args.allow))
    except runner.RunnerError as e:
        raise CliError(str(e)) from None


def _write_json(record, where: str) -> None:
    if where == "-":
        json.dump(record, sys.stdout)
        sys.stdout.write("\n")
    else:
        Path(where).write_text(json.dumps(record))


def cmd_run(args) -> int:
    result = _run(args)
    for hazard in result.hazards:
        print(f"{'allowed' if hazard.allowed else 'warning'}: {hazard}", file=sys.stderr)
    record = result_to_json(result, trace=args.trace)
    if args.json:
        _write_json(record, args.json)
    if args.json != "-":
        accepted = f" (last instruction accepted in cycle {result.issue_cycles - 1})" if result.issue_cycles else ""
        print(f"{result.instructions} instructions, {result.cycles} cycles{accepted}")
        for reg in range(8):
            lanes = result.state.lregs[reg]
            if lanes.any():
                print(f"L{reg}: " + " ".join(f"{v:08X}" for v in lanes[:8]) + " ...")
    return 0


def cmd_timeline(args) -> int:
    from tb import timeline
    result = _run(args)
    if args.json:
        _write_json([r.to_json() for r in result.trace], args.json)
        return 0
    if args.csv:
        sys.stdout.write(timeline.format_csv(result.trace))
        return 0
    first, _, last = (args.cycles or "").partition(":")
    print(timeline.format_table(result.trace, int(first or 0), int(last) if last else None))
    busy = timeline.utilisation(result.trace)
    print(f"\n{result.instructions} instructions issued, {result.cycles} cycles; cycles each sub-unit started "
          "work: " + ", ".join(f"{unit} {n}" for unit, n in busy.items()))
    full = timeline.full_cycles(result.trace)
    if full:
        print(f"all five sub-units busy in {len(full)} cycles ({_ranges(full)})")
    for hazard in result.hazards:
        if not hazard.allowed:
            print(f"hazard: {hazard}")
    allowed = Counter(h.rule for h in result.hazards if h.allowed)
    if allowed:
        print("allowed by the program: " + ", ".join(f"{rule} x{n}" for rule, n in allowed.items()))
    return 0


def _ranges(cycles: list[int]) -> str:
    spans, start = [], cycles[0]
    for a, b in zip(cycles, cycles[1:] + [None]):
        if b != a + 1:
            spans.append(f"{start}-{a}" if a != start else str(a))
            start = b
    return ", ".join(spans)


def cmd_demo(args) -> int:
    from tb.demo import OUT, run_demo
    return run_demo(Path(args.out) if args.out else OUT)


def cmd_verilog(args) -> int:
    """Write a component's Verilog (`hdl.export`); the top `Sfpu` by default."""
    from hdl import export

    if args.list:
        for name in export.registry():
            print(name)
        for name, why in export.unavailable().items():
            print(f"{name}\t(not available: {why})")
        return 0
    name = args.component or export.TOP
    try:
        text = export.verilog(name)
    except export.ExportError as e:
        raise CliError(str(e)) from None
    if args.output:
        try:
            Path(args.output).write_text(text)
        except OSError as e:
            raise CliError(f"{args.output}: cannot write: {e.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("program", help="a program, or with --call a kernel's C++ header (see `sfpu llk`)")
    p.add_argument("--backend", choices=BACKENDS, default="model",
                   help="the cycle model, or the RTL on a simulator with the model in lock-step (default model)")
    p.add_argument("--dst", help="initial Dst as raw uint16[1024][16] in a .npy file")
    p.add_argument("--lenient", action="store_true",
                   help="report hazards and undefined behaviour instead of stopping (see docs/timing.md)")
    p.add_argument("--allow", action="append", default=[], metavar="RULE",
                   help="report this hazard rule without stopping (repeatable)")
    from tb.llk.cli import add_source_options
    add_source_options(p.add_argument_group("a kernel's C++ header as PROGRAM (sfpu llk)"))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sfpu", description="Wormhole B0 SFPU golden model and tools")
    sub = p.add_subparsers(dest="command", required=True)

    a = sub.add_parser("asm", help="assemble a program to hexadecimal instruction words")
    a.add_argument("file")
    a.add_argument("-o", "--output", help="write the words here instead of standard output")
    a.set_defaults(func=cmd_asm)

    d = sub.add_parser("disasm", help="disassemble instruction words")
    d.add_argument("words", nargs="*", help="hexadecimal words, e.g. 840C0DD0")
    d.add_argument("-f", "--file", help="a text file of hexadecimal words (as `sfpu asm` writes)")
    d.add_argument("--llk", action="store_true", help="print the TTI_ form instead of named fields")
    d.set_defaults(func=cmd_disasm)

    r = sub.add_parser("run", help="run a program from reset and report the final state")
    _run_options(r)
    r.add_argument("--json", metavar="OUT", help="write the final state as JSON ('-' for standard output)")
    r.add_argument("--trace", action="store_true", help="include the per-cycle trace in the JSON")
    r.set_defaults(func=cmd_run)

    t = sub.add_parser("timeline", help="print what each sub-unit does in each cycle")
    _run_options(t)
    form = t.add_mutually_exclusive_group()
    form.add_argument("--json", metavar="OUT", help="write the trace records as JSON ('-' for standard output)")
    form.add_argument("--csv", action="store_true", help="print the table as CSV")
    t.add_argument("--cycles", metavar="A:B", help="print only cycles A to B")
    t.set_defaults(func=cmd_timeline)

    m = sub.add_parser("demo", help="the fast-exp SFPLOADMACRO kernel on the RTL (Amaranth's simulator) in "
                                    "lock-step with the golden model, with its timeline and waveform")
    m.add_argument("--out", metavar="DIR", help="where the waveform and save file go (default build/demo)")
    m.set_defaults(func=cmd_demo)

    v = sub.add_parser("verilog", help="write the Verilog of the SFPU top or of one component")
    v.add_argument("-o", "--output", help="write here instead of standard output")
    v.add_argument("--component", metavar="NAME", help="a registered component instead of the top (see --list)")
    v.add_argument("--list", action="store_true", help="list the components and those not available yet")
    v.set_defaults(func=cmd_verilog)

    from tb.kernel_report import add_parser as add_kernels_parser   # `sfpu kernels`: the kernels measured
    add_kernels_parser(sub)
    from tb.sim import add_parser as add_sim_parser      # `sfpu sim`: the RTL in lock-step, waveforms
    add_sim_parser(sub)
    from tb.llk.cli import add_parser as add_llk_parser  # `sfpu llk`: a kernel's C++ header to a listing
    add_llk_parser(sub)

    g = sub.add_parser("regress", help="lock-step regression of random programs on an RTL backend")
    from tb import regress
    regress.add_arguments(g)
    g.set_defaults(func=cmd_regress)

    b = sub.add_parser("bench", help="measure the speed of the model, the FMA and every RTL backend")
    from tb import bench
    bench.add_arguments(b)
    b.set_defaults(func=bench.main)
    return p


def cmd_regress(args) -> int:
    from tb import regress, runner
    try:
        return regress.main(args)
    except (regress.RegressError, runner.RunnerError) as e:
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
    except BrokenPipeError:          # output piped into a command that stopped reading
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
