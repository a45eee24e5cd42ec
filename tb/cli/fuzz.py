"""Fuzzing the `sfpu` command line: random and hostile inputs of every kind
(assembly, hex words, .npy files, directives, REPLAY, output paths, numeric
options) through every command that reads them, run in-process.

The property (`check`): the command ends with exit status 0, 2 (bad input:
one message naming the file, and line and column where there is one) or 3 (a
hazard or undefined behaviour stopped the run), within `TIME_LIMIT` seconds,
and never with a Python traceback. `tests/tb/test_fuzz.py` runs a few hundred
cases with hypothesis; `make fuzz` (`python -m tb.cli.fuzz`) runs many more and
prints the figures that docs/verification.md records.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import pickle
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tensix_sfpu.model import isa
from tensix_sfpu.tb.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
TIME_LIMIT = 30.0          # seconds per case; beyond it a case counts as a hang
SOURCES = sorted((ROOT / "kernels").glob("*.s")) + sorted((ROOT / "examples").glob("*.s"))
CORPUS = ROOT / "tests" / "tb" / "fuzz_corpus"


class Hang(Exception):
    pass


@dataclass
class Outcome:
    argv: list[str]
    status: int | str           # an exit status, or "traceback" / "hang"
    stdout: str
    stderr: str
    seconds: float


def invoke(argv: list[str], time_limit: float = TIME_LIMIT) -> Outcome:
    """`sfpu ARGV` in this process, its output captured; an exception that
    escapes `cli.main` is a traceback, a run past `time_limit` a hang."""
    out, err = io.StringIO(), io.StringIO()

    def alarm(signum, frame):
        raise Hang(f"still running after {time_limit} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, time_limit)
    started = time.monotonic()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status: int | str = cli.main(argv)
            except SystemExit as e:          # argparse's usage errors and --help
                status = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    except Hang:
        status = "hang"
    except Exception:                        # noqa: BLE001 -- any escape is what we look for
        status = "traceback"
        err.write(traceback.format_exc())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return Outcome(argv, status, out.getvalue(), err.getvalue(), time.monotonic() - started)


def problems(outcome: Outcome, source: str | None = None) -> list[str]:
    """What is wrong with an outcome; `source` is the input file whose errors
    must name it (the only input of the command)."""
    found = []
    if outcome.status not in (0, 2, 3):
        found.append(f"status {outcome.status}")
    if "Traceback (most recent call last)" in outcome.stderr:
        found.append("a traceback")
    if outcome.seconds > TIME_LIMIT:
        found.append(f"{outcome.seconds:.1f} s")
    if outcome.status == 2:
        if "error:" not in outcome.stderr:
            found.append("exit status 2 without an error message")
        elif source is not None and f"{source}:" not in outcome.stderr:
            found.append(f"the error does not name {source}")
    if outcome.status == 3 and "stopped:" not in outcome.stderr:
        found.append("exit status 3 without saying what stopped the run")
    return found


# ---------------------------------------------------------------------------
# Inputs

_LINES = [line for path in SOURCES for line in path.read_text().splitlines() if line.strip()]
_MNEMONICS = ["SFPLOAD", "SFPLOADI", "SFPSTORE", "SFPMAD", "SFPADD", "SFPMUL", "SFPNOP", "SFPSWAP", "SFPCAST",
              "SFPLOADMACRO", "SFPCONFIG", "SFPSETCC", "SFPENCC", "SFPPUSHC", "SFPPOPC", "SFPIADD", "SFPSHFT2",
              "SFPLUT", "SFP_STOCH_RND", "SETRWC", "INCRWC", "REPLAY", "SETC16", "NOP", "SFPXYZ",
              # Blackhole's (and its changed ones): valid only after `.arch blackhole`.
              "SFPLE", "SFPGT", "SFPMUL24", "SFPARECIP", "SFPAND", "SFPSHFT", "SFPLUTFP32"]
_FIELDS = ["vd", "va", "vb", "vc", "mod0", "mod1", "imm16", "imm12", "imm10", "addr_mod", "macro", "offset", "bogus"]
_DIRECTIVES = ["word", "fp32_dest", "srcb_format", "rwc_dst", "dest_offset", "dest_base", "addr_mod_base",
               "addr_mod", "prng_seed", "lreg", "allow", "mark", "", "nosuch", "arch", "rwc_sp", "sfpu_stack_incr",
               "dest_sp_base", "dest_remap_addrs", "dest_swizzle_32b"]
_NASTY = ["", ".", ". 7", "/*", "*/", "/* a */", "//", "#", "\ufeff", "\xb5", "\x00", "\t", "\r", "\x0c",
          "0o7", "1_0", "1e3", "0x", "0b2", "'", "''", "08", "1'000", "-1", "~0", "1<<64", "1/0", "7%0",
          "(", ")", "((", ",", ";", "=", "==", "p_sfpu::LREG0", "sfpi::", "::", "__import__", "a.b", "1.5",
          "\u2028", "\u0661", "\U0001F600", "9" * 5000, "TTI_", "TTI_SFPNOP", "TTI_SFPNOP()", "TTI_SFPNOP(1)"]
_OPTIONS = ["--lenient", "--allow", "--trace", "--json", "--csv", "--cycles", "--dst", "--input", "--format",
            "--output", "--backend", "-o", "--llk", "-f", "--wide", "-h", "--arch"]
_ARCHES = ["blackhole", "wormhole", "bh", "Blackhole", "grayskull", ""]


def _value(r: random.Random) -> str:
    kind = r.randrange(10)
    if kind == 0:
        return r.choice(_NASTY)
    if kind == 1:
        return str(r.choice([0, 1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 1023, 1024, 1030, 0xFFFF, 1 << 16, 1 << 31,
                             (1 << 32) - 1, 1 << 32, -1]))
    if kind == 2:
        return hex(r.getrandbits(r.choice([4, 8, 16, 24, 32, 40])))
    if kind == 3:
        op = r.choice(["+", "-", "*", "<<", ">>", "&", "|", "^", "/", "%"])
        return op.join(str(r.randrange(100)) for _ in range(r.choice([2, 3, 50, 200, 1000])))
    if kind == 4:
        return r.choice(["-", "~", "+", "("]) * r.choice([1, 2, 99, 101, 1000]) + "1"
    return str(r.randrange(16))


def _line(r: random.Random) -> str:
    kind = r.randrange(12)
    if kind < 3:
        return r.choice(_LINES)
    if kind == 3:
        args = ", ".join(_value(r) for _ in range(r.randrange(7)))
        return f"TTI_{r.choice(_MNEMONICS)}({args});"
    if kind == 4:
        fields = " ".join(f"{r.choice(_FIELDS)}={_value(r)}" for _ in range(r.randrange(5)))
        return f"{r.choice(_MNEMONICS).lower()} {fields}"
    if kind == 5:
        return f".{r.choice(_DIRECTIVES)} " + " ".join(_value(r) for _ in range(r.randrange(4)))
    if kind == 6:
        return f"TTI_REPLAY({r.randrange(40)}, {r.choice([0, 1, 8, 32, 63, 64])}, {r.randrange(2)}, {r.randrange(2)});"
    if kind == 7:
        return r.choice(_NASTY + ["sfpmad vd=1 va=1 vb=1 vc=1\nsfpmad vd=2 va=1 vb=1 vc=1",   # a hazard
                                  "sfppopc", "sfpswap vd=1 vc=2\nsfpnop"])
    if kind == 8:
        return "/* " + r.choice(_LINES) if r.random() < 0.5 else r.choice(_LINES) + " */"
    line = r.choice(_LINES)
    pos = r.randrange(len(line) + 1)
    return line[:pos] + r.choice(_NASTY) + line[pos + r.randrange(3):]


def program_bytes(r: random.Random) -> bytes:
    lines = [_line(r) for _ in range(r.randrange(1, 30))]
    if r.random() < 0.3:          # a Blackhole program, or an .arch line where it may not be
        lines.insert(0 if r.random() < 0.8 else r.randrange(len(lines) + 1), f".arch {r.choice(_ARCHES)}")
    if r.random() < 0.3:          # a kernel with a few lines changed
        lines = Path(r.choice(SOURCES)).read_text().splitlines()
        for _ in range(r.randrange(1, 4)):
            lines[r.randrange(len(lines))] = _line(r)
    data = "\n".join(lines).encode("utf-8", errors="surrogatepass")
    if r.random() < 0.1:
        data = bytearray(data)
        for _ in range(r.randrange(1, 4)):
            if data:
                data[r.randrange(len(data))] = r.randrange(256)
        data = bytes(data)
    if r.random() < 0.05:
        data = b"\xef\xbb\xbf" + data
    return data


# Every architecture's SFPU opcodes: a hex listing may carry either's words.
_SFPU_OPCODE_BYTES = sorted({opcode for table in isa.ISA.values() for opcode in table.by_opcode})


def hex_bytes(r: random.Random) -> bytes:
    tokens = []
    for _ in range(r.randrange(0, 12)):
        kind = r.randrange(6)
        if kind == 0:
            tokens.append(r.choice(_NASTY + ["+840C0DD0", "84_0C_0DD0", "0x840C0DD0", "840C0DD0 # c", "FFFFFFFFF",
                                             "37000000", "3700000F", "38000000", "04000000", "B2000000"]))
        else:
            tokens.append(f"{r.choice(_SFPU_OPCODE_BYTES + [0x37, 0x38, 0x04, 0x00, 0xFF]):02X}"
                          f"{r.getrandbits(24):06X}")
    return "\n".join(tokens).encode("utf-8", errors="surrogatepass")


def _saved(save, *args, **kwargs) -> bytes:
    buffer = io.BytesIO()
    save(buffer, *args, **kwargs)
    return buffer.getvalue()


def _damaged(r: random.Random, data: bytes) -> bytes:
    """`data` cut short, or with a few bytes changed (in the header or anywhere)."""
    if r.random() < 0.5:
        return data[:r.randrange(len(data))]
    out = bytearray(data)
    for _ in range(r.randrange(1, 4)):
        out[r.randrange(min(len(out), 128) if r.random() < 0.7 else len(out))] = r.getrandbits(8)
    return bytes(out)


def npy_file(r: random.Random, path: Path) -> None:
    kind = r.randrange(12)
    if kind == 0:
        path.write_bytes(b"")
    elif kind == 1:
        np.savez(path.open("wb"), a=np.zeros(3))
    elif kind == 2:
        path.write_bytes(bytes(r.getrandbits(8) for _ in range(r.randrange(200))))
    elif kind == 3:
        np.save(path, np.zeros((1024, 16), dtype=np.uint16) + r.getrandbits(16))
    elif kind == 4:
        np.save(path, np.zeros(r.choice([(1024, 16), (16, 1024), (3,), (0,)]), dtype=r.choice(
            [np.float32, np.uint16, np.int64, np.bool_])))
    elif kind == 5:
        np.save(path, np.array(["a", "b"]))
    elif kind == 6:         # a truncated or corrupt .npz archive, or a zip signature and then rubbish
        archive = _saved(np.savez, a=np.zeros((1024, 16), np.uint16))
        path.write_bytes(_damaged(r, archive) if r.random() < 0.8 else b"PK\x03\x04" + archive[4:40])
    elif kind == 7:         # a pickle: a plain one, or an object array that needs allow_pickle
        path.write_bytes(r.choice([pickle.dumps({"dst": [1, 2]}),
                                   _saved(np.save, np.array([{"a": 1}, None], dtype=object), allow_pickle=True)]))
    elif kind == 8:         # a .npy with a damaged header or cut short
        path.write_bytes(_damaged(r, _saved(np.save, np.zeros((1024, 16), np.uint16))))
    else:
        shape = r.choice([(32,), (32, 32), (2, 32, 32), (8, 32, 32), (9, 32, 32), (31,), (64,)])
        dtype = r.choice([np.float32, np.float16, np.int32, np.uint16, np.float64, np.int64, np.uint32])
        values = np.array([r.choice([0.0, -0.0, 1.5, -2.0, float("nan"), float("inf"), 1e-40, 65504.0,
                                     70000.0, -88.0, 7.0, 2.0 ** 31])
                           for _ in range(int(np.prod(shape)))]).reshape(shape)
        with np.errstate(all="ignore"):
            np.save(path, values.astype(dtype))


def out_path(r: random.Random, tmp: Path) -> str:
    return r.choice([str(tmp / "out.json"), str(tmp / "missing" / "out.json"), str(tmp), "/dev/full",
                     "/proc/version", "", " ", "-", str(tmp / "out.npy"), "/dev/null"])


def make_case(r: random.Random, tmp: Path) -> tuple[list[str], str | None]:
    """One command line (and the input file whose errors must name it, if
    it is the command's only input), its files written under `tmp`."""
    program = tmp / r.choice(["p.s", "p p.s", "p.s.s", "ü.s"])
    program.write_bytes(program_bytes(r))
    command = r.choice(["asm", "asm", "run", "run", "timeline", "disasm", "disasm", "options", "tools"])
    if command == "tools":
        return _tool_case(r, tmp, program), None
    if command == "asm":
        argv = ["asm", str(program)]
        if r.random() < 0.3:
            argv += ["-o", out_path(r, tmp)]
        return argv, (str(program) if len(argv) == 2 else None)
    if command == "disasm":
        words = tmp / "w.hex"
        words.write_bytes(hex_bytes(r))
        arch = ["--arch", r.choice(_ARCHES)] if r.random() < 0.3 else []
        if r.random() < 0.5:
            return ["disasm", "-f", str(words)] + (["--llk"] if r.random() < 0.5 else []) + arch, \
                (str(words) if not arch else None)
        return ["disasm"] + arch + hex_bytes(r).decode("utf-8", errors="replace").split(), None
    if command == "options":         # numeric and path options around a known-good kernel
        program = Path(r.choice(SOURCES))
    argv = [r.choice(["run", "timeline"]), str(program)]
    for _ in range(r.randrange(4 if command == "options" else 2)):
        option = r.choice(_OPTIONS)
        argv.append(option)
        if option in ("--json", "-o", "--output"):
            argv.append(out_path(r, tmp))
        elif option == "--cycles":
            argv.append(r.choice(["abc", "a:b", "1e3:2", "5:2", "3:", ":4", "0:0", "10:20", "-1:3", "99999:",
                                  "٣:٤", "", ":"]))
        elif option in ("--dst", "--input"):
            data = tmp / r.choice(["d.npy", "d.npz"])
            npy_file(r, data)
            argv.append(r.choice([str(data), str(data), str(tmp), "/dev/null", str(tmp / "none.npy")]))
        elif option == "--format":
            argv.append(r.choice(["fp32", "fp16b", "fp16", "int32", "uint32", "uint16", "bf16", ""]))
        elif option == "--allow":
            argv.append(r.choice(["swap-mad-nop", "mad-read", "nope", ""]))
        elif option == "--backend":
            argv.append(r.choice(["model", "spice"]))
        elif option == "--arch":
            argv.append(r.choice(_ARCHES))
    only_source = command != "options" and len(argv) == 2
    return argv, (str(program) if only_source else None)


def _tool_case(r: random.Random, tmp: Path, program: Path) -> list[str]:
    """The other commands, with arguments that are refused before any
    simulation starts (a valid regress or sim would take minutes)."""
    report = tmp / "report.json"
    report.write_bytes(r.choice([b"", b"{", b"[1]", b"{}", b'{"coverage": 1}', b"\xff", b'{"coverage": {}}',
                                 program_bytes(r)]))
    return r.choice([
        ["regress", "--shard", r.choice(["abc", "3/2", "1/0", "", "-1/2", "0/0", "1//2", "/"])],
        ["regress", "--kinds", r.choice(["nope", "", ",", "legal,,x"])],
        ["regress", "--merge", r.choice([str(report), str(tmp), str(tmp / "none.json")])],
        ["regress", "--seeds", r.choice(["0", "-5", "x", "1e9"])],
        ["sim", r.choice(["nosuch:x", "random:macro:x:1", "random:nope:1:100", "directed:nope", "kernel:nope",
                          "random:legal:1:5", str(tmp), str(tmp / "none.s"), ""])],
        ["kernels", r.choice(_NASTY)],
        ["race", str(program), "--seeds", "1", "--max-gap", r.choice(["0", "65", "x", "-1", "1e3", "", "1"])],
        ["race", "--seeds", "1", "--thread", r.choice(["math", ":p.s", "1x:p.s", "m:", f"m:{tmp / 'none.s'}",
                                                        f"m:{tmp}", f"m:{program}"])],
        ["verilog", "--component", r.choice(_NASTY + ["sfpu", "SFPU "])],
    ])


@contextlib.contextmanager
def _inside(folder: str):
    """The working directory is `folder` until the block ends (contextlib.chdir from Python 3.11)."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def run_case(seed: int) -> tuple[Outcome, list[str]]:
    """Case number `seed`: its outcome and what is wrong with it."""
    # Run inside the case's folder: an output path such as `-` or `out.npy`
    # is relative, and must not land in the user's working tree.
    with tempfile.TemporaryDirectory(prefix="sfpu-fuzz-") as tmp, _inside(tmp):
        argv, source = make_case(random.Random(seed), Path(tmp))
        outcome = invoke(argv)
        return outcome, problems(outcome, source)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tb.cli.fuzz", description="fuzz the sfpu command line")
    p.add_argument("--cases", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1, help="the first case's number (default 1)")
    p.add_argument("--case", type=int, help="run only this case and show its output")
    args = p.parse_args(argv)
    if args.case is not None:
        outcome, found = run_case(args.case)
        print(f"sfpu {' '.join(outcome.argv)}\nstatus {outcome.status} in {outcome.seconds:.2f} s\n"
              f"{outcome.stdout[-2000:]}{outcome.stderr[-4000:]}")
        print("problems: " + (", ".join(found) or "none"))
        return 1 if found else 0
    started = time.monotonic()
    statuses: dict[str, int] = {}
    failures: list[tuple[int, list[str]]] = []
    slowest = (0.0, 0)
    for n, seed in enumerate(range(args.seed, args.seed + args.cases), start=1):
        outcome, found = run_case(seed)
        statuses[str(outcome.status)] = statuses.get(str(outcome.status), 0) + 1
        slowest = max(slowest, (outcome.seconds, seed))
        if found:
            failures.append((seed, found))
            print(f"case {seed}: {', '.join(found)}: sfpu {' '.join(outcome.argv)[:200]}", flush=True)
        if n % 5000 == 0:
            print(f"{n} cases, {len(failures)} failing, {time.monotonic() - started:.0f} s", flush=True)
    seconds = time.monotonic() - started
    tracebacks = sum(1 for _, f in failures if "a traceback" in f)
    hangs = statuses.get("hang", 0)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{args.cases} cases (seeds {args.seed}-{args.seed + args.cases - 1}) in {seconds:.0f} s: exit statuses "
          + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())) +
          f"; {tracebacks} tracebacks, {hangs} hangs, {len(failures)} failing cases; slowest case "
          f"{slowest[1]} ({slowest[0]:.2f} s); peak memory {peak_mb:.0f} MB")
    if failures:
        print(f"rerun one with: python -m tb.cli.fuzz --case {failures[0][0]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
