"""The timeline as a picture (tb/timeline_view.py, `sfpu timeline --html/--perfetto`).

Expected placements come from docs/timing.md's example A (the macro's MAD one
cycle after its SFPLOADMACRO, its store three after), from Blackhole's MAD
stall (an SFPADD that reads an SFPMAD's result waits a cycle), and from the
fixture files' own lines. The HTML is loaded in Debian's headless chromium:
its elements must be laid out and visible, and hovering a macro box must show
the tooltip and light up the link to its SFPLOADMACRO.
"""

import json
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model.asm import assemble, assemble_file
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.model.run import run_program
from tensix_sfpu.tb.cli.main import main
from tensix_sfpu.tb.timeline_view import THREAD, layout, to_html, to_perfetto

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_A = ROOT / "examples" / "macro_example_a.s"
FIXTURES = Path(__file__).resolve().parent / "llk_fixtures"
ADD_ONE = FIXTURES / "ckernel_sfpu_fixture_add_one.h"


def _line_of(path: Path, needle: str, after: int = 0) -> int:
    return next(n for n, text in enumerate(path.read_text().splitlines(), 1) if n > after and needle in text)


@pytest.fixture(scope="module")
def example_a():
    return run_program(assemble_file(str(EXAMPLE_A)))


def test_example_a_is_laid_out_as_the_timing_doc_states(example_a):
    boxes, marks = layout(example_a, Arch.WORMHOLE)
    (macro,) = [b for b in boxes if b.lane == THREAD and b.label == "macro"]
    scheduled = {b.lane: b for b in boxes if b.kind == "macro"}
    assert scheduled["mad"].cycle == macro.cycle + 1 and scheduled["store"].cycle == macro.cycle + 3
    assert {b.macro_cycle for b in scheduled.values()} == {macro.cycle}
    line = _line_of(EXAMPLE_A, "sfploadmacro macro=0")
    assert macro.origin == scheduled["mad"].origin == scheduled["store"].origin == f"{EXAMPLE_A}:{line}:1"
    assert sum(b.lane == THREAD and b.kind == "thread" for b in boxes) == example_a.instructions
    assert marks == []


def test_a_stall_is_a_box_with_its_reason_and_the_instructions_line():
    text = ".arch blackhole\n.lreg 1 0x3fc00000\nsfpmad vd=3 va=1 vb=2 vc=0\nsfpadd vd=4 va=10 vb=3 vc=9\n"
    result = run_program(assemble(text, "stall.s"))
    boxes, _ = layout(result, Arch.BLACKHOLE)
    thread = [(b.cycle, b.kind, b.origin) for b in boxes if b.lane == THREAD]
    assert thread == [(0, "thread", "stall.s:3:1"), (1, "stall", "stall.s:4:1"), (2, "thread", "stall.s:4:1")]
    stall = next(b for b in boxes if b.kind == "stall")
    assert stall.note == "SFPADD reads L3, written by SFPMAD in flight"


def test_boxes_name_the_cpp_line_and_hazards_are_marked(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["timeline", str(ADD_ONE), "--call", "calculate_fixture_add_one_hazard<false, 2>()",
                 "--init", "fixture_add_one_init<false>()", "--lenient", "--perfetto", str(out)]) == 0
    events = json.loads(out.read_text())["traceEvents"]
    add = _line_of(ADD_ONE, "TTI_SFPADD", after=_line_of(ADD_ONE, "calculate_fixture_add_one_hazard()"))
    adds = [e for e in events if e["ph"] == "X" and e["name"] == "add"]
    assert adds and {e["args"]["source"] for e in adds} == {f"{ADD_ONE}:{add}"}
    hazards = [e for e in events if e["ph"] == "i"]
    assert hazards and all(e["cat"] == "hazard" and e["args"]["message"] for e in hazards)
    assert "wrote" in capsys.readouterr().err


def test_perfetto_has_a_track_per_lane_and_a_flow_per_scheduled_instruction(example_a):
    trace = to_perfetto(example_a, Arch.WORMHOLE, "example A")
    events = trace["traceEvents"]
    names = {e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert names == {"thread", "load", "simple", "mad", "round", "store", "hazards"}
    boxes, _ = layout(example_a, Arch.WORMHOLE)
    assert sum(e["ph"] == "X" for e in events) == len(boxes)
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert starts.keys() == ends.keys() and len(starts) == sum(b.kind == "macro" for b in boxes) > 0
    assert all(starts[i]["ts"] < ends[i]["ts"] for i in starts)
    json.dumps(trace)


def test_html_is_self_contained(example_a):
    page = to_html(example_a, Arch.WORMHOLE, "example <A>")
    assert "<title>example &lt;A&gt;</title>" in page
    assert not re.search(r'(src|href)="(https?:)?//', page)       # nothing fetched
    assert page.count('class="box macro') == 2 and page.count('class="link"') == 2


def test_html_cycles_window(example_a):
    boxes, _ = layout(example_a, Arch.WORMHOLE, first=2, last=4)
    assert boxes and {b.cycle for b in boxes} <= {2, 3, 4}


# -- in a real browser ----------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                              "(apt-get install chromium; .ci/run installs it)")

# Run in the page after load: what is laid out and visible, and what hovering a macro box does.
_CHECK = """
<script>
window.addEventListener('load', function () {
  function shown(el) {
    var r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  }
  var out = {};
  ['.box.thread', '.box.macro', '.box.stall', '.link', '.mark', '.labels div'].forEach(function (q) {
    var all = document.querySelectorAll(q);
    out[q] = [all.length, Array.prototype.filter.call(all, shown).length];
  });
  var macro = document.querySelector('.box.macro');
  macro.dispatchEvent(new MouseEvent('mouseenter'));
  macro.dispatchEvent(new MouseEvent('mousemove', {clientX: 40, clientY: 40}));
  var tip = document.getElementById('tip');
  out.tip = [shown(tip), tip.textContent];
  out.lit = document.querySelectorAll('.link.hl').length;
  var pre = document.createElement('pre');
  pre.id = 'check';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def _chromium(*args) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
                          capture_output=True, text=True, timeout=120)


def _png_pixels(path: Path) -> np.ndarray:
    """An 8-bit RGB(A) PNG's pixels (what chromium writes), unfiltered by hand."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, pos = {}, 8
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks.setdefault(kind, b"")
        chunks[kind] += data[pos + 8:pos + 8 + size]
        pos += size + 12
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8 and colour in (2, 6)
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(chunks[b"IDAT"])
    stride = width * channels
    rows = np.zeros((height, stride), np.int32)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        prior = rows[y - 1] if y else np.zeros(stride, np.int32)
        if kind in (0, 2):
            rows[y] = (line + (prior if kind == 2 else 0)) & 255
            continue
        out = np.zeros(stride, np.int32)
        for x in range(stride):
            left = out[x - channels] if x >= channels else 0
            up_left = prior[x - channels] if x >= channels else 0
            if kind == 1:
                guess = left
            elif kind == 3:
                guess = (left + prior[x]) // 2
            else:
                p = left + prior[x] - up_left
                pa, pb, pc = abs(p - left), abs(p - prior[x]), abs(p - up_left)
                guess = left if pa <= pb and pa <= pc else prior[x] if pb <= pc else up_left
            out[x] = (line[x] + guess) & 255
        rows[y] = out
    return rows.reshape(height, width, channels)[:, :, :3]


@needs_chromium
def test_the_page_in_a_headless_browser(tmp_path):
    stall = ".arch blackhole\n.lreg 1 0x3fc00000\nsfpmad vd=3 va=1 vb=2 vc=0\nsfpadd vd=4 va=10 vb=3 vc=9\n"
    program = assemble(stall + EXAMPLE_A.read_text(), "a.s")
    result = run_program(program, strict=False)
    page = to_html(result, Arch.BLACKHOLE, "example A and a stall")
    checked = tmp_path / "checked.html"
    checked.write_text(page.replace("</body>", _CHECK + "</body>"))
    dom = _chromium("--virtual-time-budget=3000", "--dump-dom", checked.as_uri())
    found = re.search(r'<pre id="check">(.*?)</pre>', dom.stdout)
    assert found, dom.stderr[-2000:]
    seen = json.loads(found.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                      .replace("&amp;", "&"))
    boxes, _ = layout(result, Arch.BLACKHOLE)
    for query, kind in ((".box.thread", "thread"), (".box.macro", "macro"), (".box.stall", "stall")):
        count = sum(b.kind == kind for b in boxes)
        assert seen[query] == [count, count] and count > 0, query
    assert seen[".link"] == [2, 2] and seen[".labels div"][1] == 7      # the axis and six lanes
    visible, tip = seen["tip"]
    assert visible and "scheduled by the SFPLOADMACRO of cycle" in tip and "from a.s:" in tip
    assert seen["lit"] == 2       # both of its SFPLOADMACRO's links

    picture = tmp_path / "timeline.png"
    plain = tmp_path / "timeline.html"
    plain.write_text(page)
    shot = _chromium("--window-size=900,360", f"--screenshot={picture}", plain.as_uri())
    assert picture.is_file(), shot.stderr[-2000:]
    pixels = _png_pixels(picture)
    orange = np.all(np.abs(pixels - [0xFD, 0xAE, 0x6B]) <= 2, axis=-1).sum()      # macro boxes
    blue = np.all(np.abs(pixels - [0x9E, 0xCA, 0xE1]) <= 2, axis=-1).sum()        # thread boxes
    assert orange > 200 and blue > 1000
