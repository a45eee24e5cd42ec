"""A run's timeline as a picture: one self-contained HTML page (`to_html`) and
Chrome/Perfetto trace events (`to_perfetto`, for ui.perfetto.dev), both drawn
from the same boxes (`layout`).

Lanes are the thread's issue slot and the five sub-units, cycles run across;
a run through the issue path (`sfpu perf`) adds the RISC-V's pushes, the
instructions queued in its FIFOs and the frontend's wait gate as three more
lanes (`extra` boxes, tb/perf/measure.py).
Each instruction is a box from the cycle its sub-unit starts it, two cycles
wide where it takes two. An instruction that SFPLOADMACRO scheduled is linked
to that SFPLOADMACRO. A stall is a box in the thread's lane with its reason,
and each hazard is a mark in a lane of its own. Every box names its
instruction with operands and the line it came from: the C++ line of a
listing from `sfpu llk`, else the listing's own line.

The input is a `model.run.RunResult` with its trace, from the model or from
an RTL backend (whose result carries the lock-step model's source lines).
"""

from __future__ import annotations

import bisect
import html
from dataclasses import dataclass

from tensix_sfpu.model.asm import Instr, disassemble
from tensix_sfpu.model.isa import Arch, decode
from tensix_sfpu.model.run import RunResult
from tensix_sfpu.model.trace import UNIT_ORDER, UnitActivity

THREAD = "thread"
HAZARDS = "hazards"
LANES = (THREAD,) + UNIT_ORDER
RISCV, FIFO, FRONTEND = "riscv", "fifo", "frontend"     # the issue path's lanes, above the thread's
PATH_LANES = (RISCV, FIFO, FRONTEND)


@dataclass(frozen=True)
class Box:
    lane: str                   # THREAD or a sub-unit
    cycle: int
    cycles: int                 # 2 for the two-cycle modes
    label: str                  # the mnemonic, short
    text: str                   # the instruction with its operands
    origin: str                 # C++ FILE:LINE, else the listing's FILE:LINE:COL ("" if unknown)
    kind: str                   # "thread", "macro", "stall", or on the issue path's lanes "push", "fifo", "unit"
    macro_cycle: int | None = None      # the scheduling SFPLOADMACRO's cycle, for kind "macro"
    note: str = ""              # a stall's reason


@dataclass(frozen=True)
class Mark:
    cycle: int
    rule: str
    unit: str | None
    message: str
    allowed: bool


def two_cycles(a: UnitActivity, arch: Arch) -> bool:
    """The activity occupies its sub-unit for a second cycle (a two-cycle mode;
    a macro's SFPNOP substitute never does)."""
    ins = decode(a.word, arch)
    return a.mnemonic == ins.mnemonic and ins.two_cycles


def _where(instr: Instr | None) -> str:
    if instr is None:
        return ""
    return instr.origin or str(instr.loc)


def _short(mnemonic: str) -> str:
    short = mnemonic.lower().removeprefix("sfp")
    return "macro" if short == "loadmacro" else short      # not to be read as a load when cut short


def lanes_of(boxes: list[Box]) -> tuple[str, ...]:
    return (PATH_LANES if any(b.lane in PATH_LANES for b in boxes) else ()) + LANES


def layout(result: RunResult, arch: Arch, first: int = 0, last: int | None = None,
           extra: tuple[Box, ...] | list[Box] = ()) -> tuple[list[Box], list[Mark]]:
    """The boxes and hazard marks of cycles `first` to `last` of `result`'s trace,
    with the `extra` boxes of those cycles (the issue path's lanes)."""
    trace = [r for r in result.trace if first <= r.cycle and (last is None or r.cycle <= last)]
    issued_from = result.issued_from
    issue_cycles = sorted(issued_from)
    boxes: list[Box] = []
    marks: list[Mark] = []
    for rec in trace:
        c = rec.cycle
        if rec.issued is not None:
            text = disassemble(rec.issued, arch=arch)
            boxes.append(Box(THREAD, c, 1, _short(text.split("(")[0].split()[0].removeprefix("TTI_")), text,
                             _where(issued_from.get(c)), "thread"))
        elif rec.stalled is not None:
            # A stalled word is presented again until it issues: its source is that later cycle's.
            i = bisect.bisect_right(issue_cycles, c)
            later = issue_cycles[i] if i < len(issue_cycles) else None
            text = disassemble(rec.stalled, arch=arch)
            boxes.append(Box(THREAD, c, 1, "stall", text, _where(issued_from.get(later)), "stall",
                             note=rec.stall_reason or ""))
        elif rec.waiting is not None:
            # A STALLWAIT holding the thread (model.waits): an idle SFPU cycle with the wait named.
            boxes.append(Box(THREAD, c, 1, "wait", disassemble(rec.waiting, arch=arch), "", "stall",
                             note=rec.stall_reason or ""))
        for unit in UNIT_ORDER:
            a = rec.units.get(unit)
            if a is None:
                continue
            macro = a.origin == "macro"
            source = issued_from.get(a.macro_cycle if macro else c)
            boxes.append(Box(unit, c, 2 if two_cycles(a, arch) else 1, _short(a.mnemonic),
                             a.text or disassemble(a.word, arch=arch), _where(source), a.origin,
                             a.macro_cycle if macro else None))
        marks += [Mark(c, h.rule, h.unit, h.message, h.allowed) for h in rec.hazards]
    boxes += [b for b in extra if first <= b.cycle and (last is None or b.cycle <= last)]
    return boxes, marks


# -- Chrome/Perfetto trace events ---------------------------------------------------------------

def to_perfetto(result: RunResult, arch: Arch, title: str, first: int = 0, last: int | None = None,
                extra: tuple[Box, ...] | list[Box] = ()) -> dict:
    """Trace events (the Chrome JSON trace format ui.perfetto.dev opens): one
    track per lane, a complete event per box, a flow from each SFPLOADMACRO to
    the instructions it scheduled, an instant event per hazard. One cycle is
    shown as one microsecond."""
    boxes, marks = layout(result, arch, first, last, extra)
    tid = {lane: n for n, lane in enumerate(lanes_of(boxes) + (HAZARDS,))}
    events: list[dict] = [{"ph": "M", "pid": 1, "name": "process_name",
                           "args": {"name": f"SFPU, {arch.title}: {title} (1 us = 1 cycle)"}}]
    for lane, n in tid.items():
        events.append({"ph": "M", "pid": 1, "tid": n, "name": "thread_name", "args": {"name": lane}})
        events.append({"ph": "M", "pid": 1, "tid": n, "name": "thread_sort_index", "args": {"sort_index": n}})
    flow = 0
    for b in boxes:
        args = {"instruction": b.text, "source": b.origin, "cycle": b.cycle}
        if b.note:
            args["stall"] = b.note
        if b.macro_cycle is not None:
            args["SFPLOADMACRO cycle"] = b.macro_cycle
        events.append({"ph": "X", "pid": 1, "tid": tid[b.lane], "ts": b.cycle, "dur": b.cycles, "name": b.label,
                       "cat": b.kind, "args": args})
        if b.macro_cycle is not None:
            flow += 1
            events.append({"ph": "s", "pid": 1, "tid": tid[THREAD], "ts": b.macro_cycle, "id": flow,
                           "name": "SFPLOADMACRO", "cat": "macro"})
            events.append({"ph": "f", "bp": "e", "pid": 1, "tid": tid[b.lane], "ts": b.cycle, "id": flow,
                           "name": "SFPLOADMACRO", "cat": "macro"})
    for m in marks:
        events.append({"ph": "i", "s": "t", "pid": 1, "tid": tid[HAZARDS], "ts": m.cycle, "name": m.rule,
                       "cat": "hazard", "args": {"message": m.message, "unit": m.unit, "allowed": m.allowed}})
    return {"traceEvents": events, "displayTimeUnit": "ns"}


# -- the HTML page --------------------------------------------------------------------------------

CYCLE_PX = 24
LANE_PX = 30
AXIS_PX = 26
LABEL_PX = 72

_STYLE = """
body { font: 13px system-ui, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 16px; margin: 0 0 4px; }
.summary { margin: 0 0 10px; color: #555; }
.legend span { display: inline-block; margin-right: 14px; }
.legend i { display: inline-block; width: 14px; height: 10px; margin-right: 4px; vertical-align: middle;
            border: 1px solid #555; }
.chart { display: flex; border: 1px solid #ccc; }
.labels { flex: none; width: %(label)dpx; border-right: 1px solid #ccc; background: #fafafa; }
.labels div { height: %(lane)dpx; line-height: %(lane)dpx; padding-left: 6px; font-weight: 600; }
.labels .axis { height: %(axis)dpx; }
.scroll { overflow-x: auto; flex: auto; }
svg text { font: 10px ui-monospace, monospace; pointer-events: none; }
.tick { fill: #777; }
.grid { stroke: #eee; }
.box rect { stroke: #333; stroke-width: 0.6; }
.box.thread rect { fill: #9ecae1; }
.box.macro rect { fill: #fdae6b; }
.box.stall rect { fill: url(#hatch); stroke: #c00; }
.box.push rect { fill: #dadaeb; }
.box.unit rect { fill: #c7e9c0; }
.box.fifo rect { fill: #f0f0f0; }
.box.hl rect { stroke: #000; stroke-width: 2; }
.link { fill: none; stroke: #e6550d; stroke-width: 1; opacity: 0.35; }
.link.hl { opacity: 1; stroke-width: 2; }
.mark path { fill: #d62728; }
.mark.allowed path { fill: #ff9f1c; }
#tip { position: fixed; display: none; background: #fffff0; border: 1px solid #888; padding: 6px 8px;
       font: 12px ui-monospace, monospace; white-space: pre; pointer-events: none; box-shadow: 2px 2px 4px #aaa; }
"""

_SCRIPT = """
(function () {
  var tip = document.getElementById('tip');
  function related(el) {
    var out = [el], from = el.getAttribute('data-from');
    document.querySelectorAll('.link').forEach(function (l) {
      if (l.getAttribute('data-to') === el.id || (from && l.getAttribute('data-from') === from) ||
          l.getAttribute('data-from') === el.id) {
        out.push(l);
        [l.getAttribute('data-from'), l.getAttribute('data-to')].forEach(function (id) {
          var b = document.getElementById(id); if (b) out.push(b);
        });
      }
    });
    return out;
  }
  document.querySelectorAll('.box, .mark').forEach(function (el) {
    el.addEventListener('mouseenter', function () {
      tip.textContent = el.getAttribute('data-tip');
      tip.style.display = 'block';
      related(el).forEach(function (r) { r.classList.add('hl'); });
    });
    el.addEventListener('mousemove', function (e) {
      tip.style.left = (e.clientX + 14) + 'px'; tip.style.top = (e.clientY + 14) + 'px';
    });
    el.addEventListener('mouseleave', function () {
      tip.style.display = 'none';
      document.querySelectorAll('.hl').forEach(function (r) { r.classList.remove('hl'); });
    });
  });
})();
"""


def _box_tip(b: Box) -> str:
    lines = [f"cycle {b.cycle}" + (f"-{b.cycle + b.cycles - 1}" if b.cycles > 1 else "") + f", {b.lane}",
             b.text]
    if b.kind == "stall":
        lines.insert(1, "stalled" + (f": {b.note}" if b.note else ""))
    if b.macro_cycle is not None:
        lines.append(f"scheduled by the SFPLOADMACRO of cycle {b.macro_cycle}")
    if b.origin:
        lines.append(f"from {b.origin}")
    return "\n".join(lines)


def to_html(result: RunResult, arch: Arch, title: str, first: int = 0, last: int | None = None,
            extra: tuple[Box, ...] | list[Box] = ()) -> str:
    """One self-contained page (inline SVG, style and script, nothing fetched)."""
    boxes, marks = layout(result, arch, first, last, extra)
    cycles = [r.cycle for r in result.trace if first <= r.cycle and (last is None or r.cycle <= last)]
    start, end = (min(cycles), max(cycles) + 1) if cycles else (first, first)
    lanes = lanes_of(boxes) + ((HAZARDS,) if marks else ())
    width = (end - start + 2) * CYCLE_PX
    height = AXIS_PX + len(lanes) * LANE_PX
    row = {lane: AXIS_PX + n * LANE_PX for n, lane in enumerate(lanes)}

    def x(cycle: int) -> int:
        return (cycle - start) * CYCLE_PX + 2

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" id="timeline">',
           '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="6" height="6" fill="#fde0dd"/>'
           '<line x1="0" y1="0" x2="0" y2="6" stroke="#c00" stroke-width="2"/></pattern></defs>']
    for c in range(start, end + 1):
        if (c - start) % 5 == 0:
            svg.append(f'<line class="grid" x1="{x(c)}" y1="{AXIS_PX}" x2="{x(c)}" y2="{height}"/>')
        if c % 10 == 0:
            svg.append(f'<text class="tick" x="{x(c)}" y="{AXIS_PX - 8}">{c}</text>')
    for lane in lanes[1:]:
        svg.append(f'<line class="grid" x1="0" y1="{row[lane]}" x2="{width}" y2="{row[lane]}"/>')
    thread_box = {b.cycle: n for n, b in enumerate(boxes) if b.lane == THREAD}   # a SFPLOADMACRO's box
    links = []
    for n, b in enumerate(boxes):
        left, top, w = x(b.cycle) + 1, row[b.lane] + 4, b.cycles * CYCLE_PX - 2
        source = thread_box.get(b.macro_cycle) if b.macro_cycle is not None else None
        link = f"b{source}" if source is not None else None
        attrs = f' data-from="{link}"' if link else ""
        fits = max(0, (w - 4) // 6)
        label = b.label[:fits]
        svg.append(f'<g class="box {b.kind} lane-{b.lane}" id="b{n}"{attrs} data-cycle="{b.cycle}" '
                   f'data-tip="{html.escape(_box_tip(b))}"><rect x="{left}" y="{top}" width="{w}" '
                   f'height="{LANE_PX - 8}" rx="2"/>'
                   + (f'<text x="{left + 2}" y="{top + LANE_PX / 2}">{html.escape(label)}</text>' if label else "")
                   + '</g>')
        if link:
            x0, y0 = x(b.macro_cycle) + CYCLE_PX / 2, row[THREAD] + LANE_PX - 4
            x1, y1 = left + w / 2, top
            links.append(f'<path class="link" data-from="{link}" data-to="b{n}" '
                         f'd="M{x0},{y0} C{x0},{(y0 + y1) / 2} {x1},{(y0 + y1) / 2} {x1},{y1}"/>')
    svg += links
    for n, m in enumerate(marks):
        cx, top = x(m.cycle) + CYCLE_PX / 2, row[HAZARDS] + 6
        tip = f"cycle {m.cycle}: {m.rule}" + (" (allowed)" if m.allowed else "") + f"\n{m.message}"
        svg.append(f'<g class="mark{" allowed" if m.allowed else ""}" id="h{n}" data-tip="{html.escape(tip)}">'
                   f'<path d="M{cx},{top} l6,{LANE_PX - 12} h-12 z"/></g>')
    svg.append("</svg>")

    macro = sum(b.kind == "macro" for b in boxes)
    stalls = sum(b.kind == "stall" and b.lane == THREAD for b in boxes)
    summary = (f"{arch.title}, cycles {start} to {end - 1}: {result.instructions} instructions issued, "
               f"{result.cycles} cycles in the run; {macro} macro-scheduled instructions, {stalls} stall "
               f"cycles, {len(marks)} hazards shown")
    labels = "".join(f"<div>{lane}</div>" for lane in lanes)
    legend = ('<div class="legend"><span><i style="background:#9ecae1"></i>from the thread</span>'
              '<span><i style="background:#fdae6b"></i>scheduled by SFPLOADMACRO (linked)</span>'
              '<span><i style="background:#fde0dd;border-color:#c00"></i>stall or wait</span>'
              + ('<span><i style="background:#dadaeb"></i>pushed by the RISC-V into the FIFO</span>'
                 '<span><i style="background:#c7e9c0"></i>to another unit (FPU, sync, configuration)</span>'
                 if RISCV in lanes else '') +
              '<span><i style="background:#d62728"></i>hazard</span>'
              '<span>hover a box for its instruction, operands and source line</span></div>')
    style = _STYLE % {"label": LABEL_PX, "lane": LANE_PX, "axis": AXIS_PX}
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<style>{style}</style></head><body>\n<h1>{html.escape(title)}</h1>'
            f'<p class="summary" id="summary">{html.escape(summary)}</p>{legend}\n'
            f'<div class="chart"><div class="labels"><div class="axis">cycle</div>{labels}</div>'
            f'<div class="scroll">{"".join(svg)}</div></div>\n<div id="tip"></div>\n'
            f'<script>{_SCRIPT}</script>\n</body></html>\n')


__all__ = ["Box", "Mark", "layout", "to_html", "to_perfetto", "two_cycles"]
