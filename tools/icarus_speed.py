"""Icarus on the whole `Sfpu` without cocotb: a plain Verilog testbench
presents the words of a program one per cycle (raw) or one SFPMAD for every
cycle (held), and vvp's own CPU time is measured, start-up subtracted.

    python tools/icarus_speed.py VERILOG [VERILOG ...] [--program SPEC] [--raw N] [--held N] [--profile]

VERILOG is the top's Verilog (`sfpu verilog -o sfpu.v`, about two minutes;
or another tree's: older tops named the instruction ports
instr_word/instr_valid/instr_ready, which the testbench follows).
`--profile` adds vvp's event counts for the raw run and, from a VCD of it,
the value changes per module (per-lane instances folded into one row): what
a new word wakes.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

TESTBENCH = """\
`timescale 1ns/1ps
module tb;
  reg clk = 0, rst = 1, valid = 0;
  reg [31:0] word = 0;
  reg [31:0] mem [0:{last}];
  integer i, n, held;
  Sfpu dut(.clk(clk), .rst(rst), .run(1'b1), {ties}, .{valid}(valid), .{payload}(word));
  always #5 clk = ~clk;
  initial begin
    $readmemh("{words}", mem);
    if ($test$plusargs("dump")) begin $dumpfile("{vcd}"); $dumpvars(0, dut); end
    @(negedge clk); rst = 0;
    @(negedge clk);
    if (!$value$plusargs("cycles=%d", n)) n = 0;
    held = $test$plusargs("held");
    for (i = 0; i < n; i = i + 1) begin
      valid = 1;
      word = held ? 32'h{held_word:08x} : mem[i % {count}];
      @(negedge clk);
    end
    $finish;
  end
endmodule
"""


def top_inputs(verilog: str) -> dict[str, int]:
    """The top module's inputs and their widths."""
    top = verilog[verilog.index("module Sfpu("):]
    top = top[:top.index("endmodule")]
    return {m[2]: int(m[1] or 0) + 1 for m in re.finditer(r"^\s*input (?:\[(\d+):0\] )?(\S+);", top, re.M)}


def cpu_seconds(vvp: Path, *plusargs: str, cwd: Path) -> tuple[float, str]:
    """User + system CPU seconds of one vvp run, and its stderr (event counts with -v)."""
    proc = subprocess.run(["/usr/bin/time", "-f", "%U %S", "vvp", "-v", str(vvp), *plusargs],
                          capture_output=True, text=True, cwd=cwd, check=True)
    user, system = proc.stderr.strip().splitlines()[-1].split()
    return float(user) + float(system), proc.stdout + proc.stderr


def events(log: str) -> int:
    """Every event vvp counted (thread schedule, assign and other events)."""
    counts = re.findall(r"^\s*(\d+) (?:thread schedule|assign|other) events", log, re.M)
    return sum(int(c) for c in counts)


def changes_per_module(vcd: Path, after_ps: int) -> collections.Counter:
    """Value changes in each module scope after `after_ps`, lane instances folded (fma_0..31 -> fma_N)."""
    scope: list[str] = []
    owner: dict[str, str] = {}
    counts: collections.Counter = collections.Counter()
    now = 0
    with open(vcd) as f:
        for line in f:
            if line.startswith("$scope"):
                scope.append(re.sub(r"[_$]?\d+$", "_N", line.split()[2]))
            elif line.startswith("$upscope"):
                scope.pop()
            elif line.startswith("$var"):
                owner.setdefault(line.split()[3], ".".join(scope[2:]) or "(top)")
            elif line.startswith("#"):
                now = int(line[1:])
            elif now >= after_ps and line.strip() and line[0] != "$":
                code = line.split()[1] if line[0] in "bBrR" else line[1:].strip()
                if code in owner:
                    counts[owner[code]] += 1
    return counts


def measure(verilog: Path, words: list[int], held_word: int, raw: int, held: int, profile: bool) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        inputs = top_inputs(verilog.read_text())
        old = "instr_word" in inputs
        payload, valid = ("instr_word", "instr_valid") if old else ("instr__payload", "instr__valid")
        ties = ", ".join(f".{name}({width}'d0)" for name, width in inputs.items()
                         if name not in ("clk", "rst", "run", payload, valid))
        (work / "words.hex").write_text("".join(f"{w:08x}\n" for w in words))
        (work / "tb.v").write_text(TESTBENCH.format(last=len(words) - 1, count=len(words), ties=ties, valid=valid,
                                                    payload=payload, words="words.hex", vcd="dump.vcd",
                                                    held_word=held_word))
        vvp = work / "sim.vvp"
        subprocess.run(["iverilog", "-g2012", "-o", str(vvp), "-s", "tb", "tb.v", str(verilog.resolve())],
                       cwd=work, check=True, capture_output=True)
        start, start_log = cpu_seconds(vvp, cwd=work)
        raw_s, raw_log = cpu_seconds(vvp, f"+cycles={raw}", cwd=work)
        held_s, _ = cpu_seconds(vvp, f"+cycles={held}", "+held", cwd=work)
        print(f"{verilog}: start-up {start:.2f} s, raw {raw / (raw_s - start):.1f} cycles/s, "
              f"held {held / max(held_s - start, 1e-3):,.0f} cycles/s (CPU)")
        if profile:
            per_cycle = (events(raw_log) - events(start_log)) / raw
            print(f"  raw: {per_cycle:,.0f} vvp events per cycle")
            cpu_seconds(vvp, f"+cycles={raw}", "+dump", cwd=work)
            counts = changes_per_module(work / "dump.vcd", after_ps=20_000)     # after the reset's two cycles
            total = sum(counts.values())
            for module, n in counts.most_common(12):
                print(f"  {n / total:6.1%}  {n / raw:8,.0f} value changes/cycle  {module}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("verilog", nargs="+", type=Path)
    p.add_argument("--program", default="random:legal:1:300", help="a program spec (tb.stimulus.programs)")
    p.add_argument("--raw", type=int, default=60, help="cycles of new words (default 60)")
    p.add_argument("--held", type=int, default=4000, help="cycles of one word held (default 4000)")
    p.add_argument("--profile", action="store_true", help="event counts and value changes per module, raw")
    args = p.parse_args()
    from tensix_sfpu.model import isa
    from tensix_sfpu.tb.stimulus.programs import resolve_all
    words = [w for spec in resolve_all(args.program) for w in spec.program.words]
    # The word `sfpu bench` holds (every FMA busy), of the default architecture, the RTL the listed Verilog
    # is taken to be.
    held_word = isa.encode("SFPMAD", isa.DEFAULT_ARCH, vd=1, va=2, vb=3, vc=4)
    for verilog in args.verilog:
        measure(verilog, words, held_word, args.raw, args.held, args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
