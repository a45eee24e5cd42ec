"""`sfpu perf`: a kernel's cycles per tile under tt-llk's perf harness.

Two builds of one driver (tb/perf/harness.py): the host build records the
SFPU-side listing, exactly as `sfpu llk` does; the RISC-V build is run on the
instruction-set simulator (tb/perf/iss.py) and its pushes are timed through
the issue path (model/issue_path.py) into the cycle model, which executes the
listing. The zone is the harness's TILE_LOOP, from its start marker to its
end marker after `tensix_sync()`.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import Loc, pushed_word
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model.hazards import Hazard
from tensix_sfpu.model.issue_path import Breakdown, IssuePath, PathError, PathRun, RvInstr, RvKind, describe
from tensix_sfpu.model.run import RunResult
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.tb.timeline_view import FIFO, FRONTEND, RISCV, Box
from tensix_sfpu.tb.llk.frontend import Listing, LlkError, Request, compile_call

from . import harness, iss, rv32


class PerfError(Exception):
    """Bad input or a run the model cannot time; the message says where."""


@dataclass
class PerfResult:
    request: Request
    settings: harness.Settings
    cycles_per_tile: float
    zone_cycles: int
    breakdown: Breakdown                  # over the whole run, the set-up included
    hazards: list[Hazard]
    listing: Listing
    path: PathRun
    riscv_instructions: int
    estimate: str | None = None           # why the figure is an estimate, if it is
    zone_start: int = 0                   # the cycle the TILE_LOOP zone starts
    run: RunResult | None = None          # with keep_events: the cycle model's trace, for the timeline
    path_boxes: list[Box] = field(default_factory=list)   # ... and the issue path's lanes

    def issue_gaps(self) -> dict[tuple[str, int], int]:
        """The idle cycles the SFPU saw before each instruction of the listing (its `index`-th, of the
        listing's one thread) when nothing reached it: the pushes' real spacing, for `sfpu race`'s
        baseline (`model.race.explore(base_gaps=...)`). Needs a run with keep_events."""
        if not self.path.events:
            raise ValueError("issue_gaps needs a run with keep_events")
        from tensix_sfpu.model.race import streams
        _, threads = streams(self.listing.program)
        thread = next(iter(threads))
        gaps: dict[tuple[str, int], int] = {}
        idle = index = 0
        for e in self.path.events:
            if e.gate == "issue":
                if idle:
                    gaps[(thread, index)] = idle
                index += 1
                idle = 0
            elif e.gate != "stall":           # the SFPU's own interlocks are the model's, in every schedule
                idle += 1
        return gaps

    def to_json(self) -> dict:
        s = self.settings
        return {"arch": self.request.arch, "header": str(self.request.header), "call": self.request.call,
                "init": self.request.init, "ops": [{"call": op.call, "init": op.init} for op in self.request.ops], "harness": s.harness, "tiles": s.tiles, "loop_factor": s.loop_factor,
                "unpack_to_dest": s.unpack_to_dest, "build": s.build, "fp32_dest": self.request.fp32_dest,
                "cycles_per_tile": round(self.cycles_per_tile, 2), "zone_cycles": self.zone_cycles,
                "breakdown": self.breakdown.to_json(), "riscv_instructions": self.riscv_instructions,
                "riscv_mispredicts": self.path.mispredicts, "estimate": self.estimate,
                "hazards": [str(h) for h in self.hazards]}


def perf(request: Request, settings: harness.Settings, strict: bool = True, allow: frozenset[str] = frozenset(),
         max_cycles: int = 2_000_000, keep_events: bool = False) -> PerfResult:
    if settings.harness not in harness.HARNESSES:
        raise PerfError(f"--harness {settings.harness}: expected one of {', '.join(harness.HARNESSES)}")
    if settings.build not in harness.BUILDS:
        raise PerfError(f"--build {settings.build}: expected one of {', '.join(harness.BUILDS)}")
    if settings.tiles < 1 or settings.loop_factor < 1:
        raise PerfError("--tiles and --loop-factor must be at least 1")
    if request.fp32_dest is None:
        raise PerfError("give --fp32-dest 0|1: the harness's datacopy and the kernel's Dst format depend on it")
    arch = isa.Arch(request.arch)
    driver = harness.driver(settings, bool(request.fp32_dest))
    listing = compile_call(request, f"{request.header.name}.perf.s", driver=driver)
    spliced = tuple(p for p in harness.splice_phases(request) if p in listing.sfpi_phases)
    sfpi = any(p.endswith("call") for p in spliced)
    with tempfile.TemporaryDirectory(prefix="sfpu-perf-") as tmp:
        elf, _ = rv32.build(request, Path(tmp), driver, defines=tuple(harness.splice_macro(p) for p in spliced))
        try:
            rv = iss.run(elf)
        except iss.IssError as e:
            raise PerfError(str(e)) from None
    phases = phase_names(listing)
    if spliced:
        rv.instrs = splice(rv.instrs, phases, listing, spliced)
    model = CycleModel(SfpuState(arch=arch), strict=strict, allow=set(allow), full_records=keep_events)
    path = IssuePath(model, listing.program.items, arch, max_cycles=max_cycles, where=rv.where)
    try:
        run = path.run(rv.instrs, keep_events=keep_events)
    except PathError as e:
        raise PerfError(str(e)) from None
    marks = [cycle for kind, cycle in run.marks if kind == "phase"]
    if len(marks) != len(phases):
        raise PerfError(f"the RISC-V passed {len(marks)} phase markers where the host run recorded {len(phases)}")
    start, end = marks[phases.index("zone start")], marks[phases.index("zone end")]
    zone = end - start
    result = PerfResult(request, settings, zone / settings.total_tiles, zone, run.breakdown, model.hazards, listing,
                        run, rv.executed, SFPI_ESTIMATE if sfpi else None, zone_start=start)
    if keep_events:
        result.run = RunResult(model.state, run.cycles, max(run.issued_from, default=0), model.issued_instructions,
                               run.records, model.hazards, run.issued_from)
        result.path_boxes = path_boxes(run, path.instrs, rv.where, arch)
    return result


SFPI_ESTIMATE = ("SFPI code: the instructions are the stand-in's selection (docs/llk.md), each pushed as one "
                 ".ttinsn of one RISC-V cycle, with a counter step and a predicted branch per dst_reg++ "
                 "(a loop iteration, whose code each iteration reuses); the harness around the call is compiled "
                 "and timed as for TTI_ code")
SPLICE_PC = 0x7F000000          # the synthetic pushes' addresses (outside the simulated memory)


def phase_names(listing: Listing) -> list[str]:
    """The driver's phases in the order it entered them (the listing's `# --- NAME ---` lines)."""
    return [line[6:-4] for line in listing.text.splitlines() if line.startswith("# --- ") and line.endswith(" ---")]


def splice(instrs: list[RvInstr], phases: list[str], listing: Listing, spliced: tuple[str, ...]) -> list[RvInstr]:
    """SFPI code's pushes put into the RISC-V's run at the markers of the phases the RISC-V build left
    out (`spliced`: an op's init, its calls), as SFPI_ESTIMATE says they cost."""
    arch = listing.program.arch
    regions: list[list[int]] = []
    current: list[int] | None = None
    for number, line in enumerate(listing.text.splitlines(), 1):
        if line.startswith("# --- ") and line.endswith(" ---"):
            current = [] if line[6:-4] in spliced else None
            if current is not None:
                regions.append(current)
            continue
        if current is not None and not line.startswith("#"):
            word = pushed_word(line, Loc(listing.program.name, number, 1), arch)
            if word is not None:
                current.append(word)
    out: list[RvInstr] = []
    k = 0
    region = iter(regions)
    for ins in instrs:
        out.append(ins)
        if ins.kind is not RvKind.MARK or ins.words != ("phase",):
            continue
        name = phases[k] if k < len(phases) else ""
        k += 1
        if name not in spliced:
            continue
        # Each iteration (up to a dst_reg++) at the same addresses, as a loop's body is: one cache footprint.
        pc = SPLICE_PC
        for word in next(region):
            out.append(RvInstr(pc, RvKind.PUSH, words=(word,), ttinsn=True))
            pc += 4
            if isa.opcode_of(word) == isa.INCRWC:            # dst_reg++: the loop's counter and branch
                out += [RvInstr(pc, RvKind.ALU, 31, (31,)), RvInstr(pc + 4, RvKind.BRANCH, rs=(31,), taken=True)]
                pc = SPLICE_PC
    return out


def path_boxes(run: PathRun, instrs: list[RvInstr], where, arch: isa.Arch) -> list[Box]:
    """The timeline's RISC-V lane (each push as it enters the FIFO, the cycles the RISC-V waits), FIFO
    lane (how many instructions are queued) and frontend lane (what the wait gate sends to other units,
    and the cycles it holds an instruction)."""
    boxes: list[Box] = []
    for e in run.events:
        if e.queued:
            boxes.append(Box(FIFO, e.cycle, 1, str(e.queued), f"{e.queued} instructions in the store queue and the "
                             "frontend's FIFOs", "", "fifo"))
        if e.pushed is not None:
            words = instrs[e.pushed].words
            text = "; ".join(describe(w, arch) for w in words)
            label = text.split("(")[0].split()[0].removeprefix("TTI_").lower().removeprefix("sfp")
            boxes.append(Box(RISCV, e.cycle, 1, label + (f" x{len(words)}" if len(words) > 1 else ""),
                             f"{text}\n{e.queued} queued in the store queue and the FIFOs", where(e.pushed), "push"))
        elif e.riscv_held:
            note = ("its store queue is full: the FIFO is full" if e.riscv_held == "fifo"
                    else "tensix_sync: the coprocessor is not done")
            boxes.append(Box(RISCV, e.cycle, 1, "wait", f"the RISC-V waits: {note}", "", "stall", note=note))
        if e.gate == "wait" and e.gate_word is not None:
            boxes.append(Box(FRONTEND, e.cycle, 1, "wait", describe(e.gate_word, arch),
                             where(e.gate_push) if e.gate_push is not None else "", "stall",
                             note="held at the wait gate by a STALLWAIT/SEMWAIT"))
        elif e.gate not in ("", "issue", "stall", "wait") and e.gate_word is not None:
            boxes.append(Box(FRONTEND, e.cycle, 1, e.gate.lower(), describe(e.gate_word, arch),
                             where(e.gate_push) if e.gate_push is not None else "", "unit"))
    return boxes
