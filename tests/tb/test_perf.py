"""`sfpu perf` and `api.perf` (tb/perf) on the project's fixture kernels. The
expected figures are bounds worked out from the documented timing
(model/issue_path.py's pages), not the tool's own output: a loop of k
`.ttinsn` and two loop instructions (a counter step and its branch) takes
k + 2 Wormhole RISC-V cycles per iteration, and a replay plays one
instruction a cycle."""

from pathlib import Path

import pytest

from tensix_sfpu.tb import api
from tensix_sfpu.tb.cli.main import main
from tensix_sfpu.tb.llk.frontend import Request
from tensix_sfpu.tb.perf import harness, iss, rv32

FIXTURES = Path(__file__).parent / "llk_fixtures"
PERF = FIXTURES / "ckernel_sfpu_fixture_perf.h"
SMALL = dict(tiles=2, loop_factor=2)          # four tiles keep the tests quick

pytestmark = pytest.mark.skipif(rv32.missing() is not None, reason=str(rv32.missing()))


def perf(call, arch="wormhole", **kw):
    return api.perf(PERF, call, init="fixture_perf_init()", arch=arch, fp32_dest=1, **{**SMALL, **kw})


def test_a_pushed_loop_costs_its_riscv_cycles_per_tile_on_wormhole():
    result = perf("calculate_fixture_perf_pushed<32>()")
    # 32 iterations of 4 pushes + 2 loop instructions = 192 RISC-V cycles: the SFPU (128 instructions a tile)
    # waits for the RISC-V, and the harness around the call adds a few tens of cycles.
    assert 192 <= result.cycles_per_tile <= 192 + 60
    assert result.breakdown.sfpu_issue >= 4 * 128
    assert result.breakdown.frontend_empty > 0


def test_replaying_the_body_is_faster_than_pushing_it_on_wormhole():
    pushed = perf("calculate_fixture_perf_pushed<32>()")
    replayed = perf("calculate_fixture_perf_replayed<32>()")
    # Replayed: 4 pushes + 31 REPLAYs, 3 RISC-V cycles each, while the SFPU takes 4 cycles per REPLAY; the
    # SFPU is the bound, 128 a tile plus the harness.
    assert replayed.cycles_per_tile < pushed.cycles_per_tile - 40
    assert 128 <= replayed.cycles_per_tile <= 128 + 60


def test_blackhole_fuses_the_pushes_so_the_sfpu_is_the_bound():
    result = perf("calculate_fixture_perf_pushed<32>()", arch="blackhole")
    # Four adjacent .ttinsn take one cycle: 3 RISC-V cycles per iteration against the SFPU's 4.
    assert 128 <= result.cycles_per_tile <= 128 + 60


def test_the_json_has_the_figure_and_the_breakdown(tmp_path):
    out = tmp_path / "perf.json"
    assert main([ "perf", str(PERF), "--call", "calculate_fixture_perf_pushed<8>()", "--init",
                  "fixture_perf_init()", "--fp32-dest", "1", "--tiles", "2", "--loop-factor", "1",
                  "--json", str(out)]) == 0
    import json
    record = json.loads(out.read_text())
    assert record["tiles"] == 2 and record["loop_factor"] == 1
    assert record["cycles_per_tile"] == pytest.approx(record["zone_cycles"] / 2, abs=0.01)
    assert set(record["breakdown"]) >= {"sfpu_issue", "waits", "frontend_empty", "riscv_fifo_full"}


def test_the_tile_loop_harness_drops_the_datacopy():
    full = perf("calculate_fixture_perf_replayed<32>()")
    alone = perf("calculate_fixture_perf_replayed<32>()", harness="tile-loop")
    assert alone.breakdown.other_units < full.breakdown.other_units
    assert alone.cycles_per_tile <= full.cycles_per_tile


def test_a_header_that_does_not_build_for_rv32_names_its_line():
    header = FIXTURES / "ckernel_sfpu_fixture_perf_no_rv32.h"
    line = next(n for n, text in enumerate(header.read_text().splitlines(), 1) if "__int128" in text)
    with pytest.raises(api.ApiError, match=rf"ckernel_sfpu_fixture_perf_no_rv32.h:{line}: .*RV32.*int128"):
        api.perf(header, "calculate_fixture_perf_int128()", fp32_dest=1, **SMALL)


def test_a_harness_that_does_not_exist_is_named():
    with pytest.raises(api.ApiError, match="math-isolate, tile-loop"):
        perf("calculate_fixture_perf_pushed<8>()", harness="l1-to-l1")


def test_a_run_past_the_cycle_limit_stops_with_a_clear_error():
    with pytest.raises(api.ApiError, match="more than 100 cycles"):
        perf("calculate_fixture_perf_pushed<8>()", max_cycles=100)


def test_fp32_dest_is_required():
    with pytest.raises(api.ApiError, match="--fp32-dest"):
        api.perf(PERF, "calculate_fixture_perf_pushed<8>()", init="fixture_perf_init()")


def test_a_push_to_the_wrong_fifo_address_names_its_line(tmp_path):
    source = ('#include "llk_stand_in.h"\nint main() {\n'
              '    *reinterpret_cast<volatile std::uint32_t*>(0xFFE40004u) = 0;\n    return 0;\n}\n')
    request = Request(PERF, "", arch="wormhole")
    elf, _ = rv32.build(request, tmp_path, lambda *_: source)
    with pytest.raises(iss.IssError, match=r"driver.cpp:3: a 4-byte store to 0xFFE40004"):
        iss.run(elf)


def test_a_kernel_that_never_returns_hits_the_instruction_limit(tmp_path):
    source = '#include "llk_stand_in.h"\nint main() {\n    for (;;) TTI_SFPNOP;\n}\n'
    elf, _ = rv32.build(Request(PERF, "", arch="wormhole"), tmp_path, lambda *_: source)
    with pytest.raises(iss.IssError, match="without returning"):
        iss.run(elf, max_instructions=10_000)


def test_the_harness_settings_count_the_tiles():
    assert harness.Settings(tiles=8, loop_factor=16).total_tiles == 128


def test_the_timeline_shows_the_riscv_and_the_frontend(tmp_path):
    html, trace = tmp_path / "perf.html", tmp_path / "perf.json"
    assert main(["perf", str(PERF), "--call", "calculate_fixture_perf_pushed<8>()", "--init", "fixture_perf_init()",
                 "--fp32-dest", "1", "--tiles", "2", "--loop-factor", "1", "--html", str(html),
                 "--perfetto", str(trace)]) == 0
    page = html.read_text()
    assert "<div>riscv</div><div>fifo</div><div>frontend</div><div>thread</div>" in page
    load_line = next(n for n, text in enumerate(PERF.read_text().splitlines(), 1) if "TTI_SFPLOAD(" in text)
    assert f"ckernel_sfpu_fixture_perf.h:{load_line}" in page      # a push names its C++ line
    assert "held at the wait gate by a STALLWAIT" in page     # the SFPU waits for the datacopy
    import json
    events = json.loads(trace.read_text())["traceEvents"]
    lanes = {e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    assert {"riscv", "fifo", "frontend", "thread"} <= lanes
    assert [e for e in events if e.get("cat") == "push"]
    # The datacopy's MOP expands to 8 MOVA2D a tile (ELWADD with a 32-bit Dst): two tiles drawn.
    copies = [e for e in events if e.get("cat") == "unit" and e["name"] in ("mova2d", "elwadd")]
    assert len(copies) == 16


SFPI = FIXTURES / "ckernel_sfpu_fixture_sfpi.h"
ADD_ONE = FIXTURES / "ckernel_sfpu_fixture_add_one.h"


def test_sfpi_code_is_an_estimate_at_one_riscv_cycle_a_push():
    result = api.perf(SFPI, "calculate_fixture_axpb<false, 32>()", fp32_dest=1, **SMALL)
    assert result.estimate and "SFPI" in result.estimate
    # Each iteration pushes the stand-in's instructions (one cycle each) and costs two for its loop: the
    # RISC-V, not the SFPU, is the bound, by two cycles an iteration.
    per_iteration = result.breakdown.sfpu_issue / result.settings.total_tiles / 32
    assert 32 * (per_iteration + 2) <= result.cycles_per_tile <= 32 * (per_iteration + 2) + 60
    assert result.to_json()["estimate"] == result.estimate


def test_a_tti_kernel_with_an_sfpi_init_is_timed_exactly():
    result = api.perf(ADD_ONE, "calculate_fixture_add_one<false, 32>()", fp32_dest=1, **SMALL,
                      init="fixture_constant_init<false>(); fixture_add_one_init<false>()")
    assert result.estimate is None
    plain = api.perf(ADD_ONE, "calculate_fixture_add_one<false, 32>()", fp32_dest=1, **SMALL,
                     init="fixture_add_one_init<false>()")
    # The init runs before the zone; only what it leaves in the instruction cache may differ (a few cycles
    # of the first tile's refills, spread over the tiles).
    assert abs(result.cycles_per_tile - plain.cycles_per_tile) <= 1


def test_a_tti_kernel_stepping_dst_with_sfpi_dst_reg_is_exact():
    # dst_reg++ is SFPI's INCRWC: the same stream, the same cycles, and no estimate.
    with_incrwc = api.perf(PERF, "calculate_fixture_perf_identity<32>()", fp32_dest=0, arch="blackhole", **SMALL)
    with_dst_reg = api.perf(PERF, "calculate_fixture_perf_identity_dst_reg<32>()", fp32_dest=0, arch="blackhole",
                            **SMALL)
    assert with_dst_reg.estimate is None
    assert with_dst_reg.cycles_per_tile == with_incrwc.cycles_per_tile


def test_sfpu_timeline_perf_draws_the_issue_paths_lanes(tmp_path):
    page = tmp_path / "timeline.html"
    assert main(["timeline", str(PERF), "--call", "calculate_fixture_perf_pushed<8>()", "--init",
                 "fixture_perf_init()", "--fp32-dest", "1", "--perf", "--html", str(page)]) == 0
    text = page.read_text()
    assert "<div>riscv</div><div>fifo</div><div>frontend</div><div>thread</div>" in text
    # One tile: the kernel's 8 iterations of 4 pushes each reach the thread's lane.
    assert text.count("lane-thread") >= 32 and "lane-riscv" in text


# --- the suite's two builds ---------------------------------------------------------------------------------

def test_the_default_build_reads_the_loop_counts_at_run_time(tmp_path):
    # Its loops run on values the RISC-V loads (trisc.cpp's RuntimeParams), so the tile count is nowhere an
    # immediate of the loop; the speed-of-light build's is. Both time the same pushes.
    source = {}
    for build in harness.BUILDS:
        write = harness.driver(harness.Settings(tiles=3, loop_factor=5, build=build), fp32_dest=True)
        request = Request(PERF, "calculate_fixture_perf_pushed<8>()", "fixture_perf_init()", arch="wormhole")
        source[build] = write(request, PERF, [])
    assert "params.TILE_CNT" in source["default"] and "3u, 4u" not in source["default"].split("perf_run_kernel")[1]
    assert "loop < 5u" in source["speed-of-light"] and "params." not in source["speed-of-light"]
    default = perf("calculate_fixture_perf_pushed<8>()")
    fixed = perf("calculate_fixture_perf_pushed<8>()", build="speed-of-light")
    assert default.breakdown.sfpu_issue == fixed.breakdown.sfpu_issue
    assert default.to_json()["build"] == "default" and fixed.to_json()["build"] == "speed-of-light"


def test_a_build_that_does_not_exist_is_named():
    with pytest.raises(api.ApiError, match="default, speed-of-light"):
        perf("calculate_fixture_perf_pushed<8>()", build="fast")


# --- chains: several ops per tile ---------------------------------------------------------------------------

def test_a_chain_runs_each_op_after_its_init_on_every_tile():
    one = perf("calculate_fixture_perf_pushed<32>()")
    chain = api.perf_kernels([(PERF, "calculate_fixture_perf_pushed<32>()", "fixture_perf_init()"),
                              (PERF, "calculate_fixture_perf_pushed<32>()", "fixture_perf_init()")],
                             fp32_dest=1, **SMALL)
    # The second op pushes its 32 iterations of 4 .ttinsn and 2 loop instructions again (192 RISC-V cycles on
    # Wormhole), after its init, on each tile; the datacopy is not repeated.
    assert chain.cycles_per_tile >= one.cycles_per_tile + 192
    tiles = chain.settings.total_tiles
    assert chain.breakdown.sfpu_issue >= 2 * 128 * tiles             # 128 SFPU instructions an op a tile
    phases = [line for line in chain.listing.text.splitlines() if line.startswith("# --- ")]
    assert phases.count("# --- init ---") == tiles and phases.count("# --- op 2: init ---") == tiles
    assert phases.count("# --- op 2: call ---") == tiles


def test_a_chain_with_an_sfpi_op_splices_only_that_op():
    tti = (PERF, "calculate_fixture_perf_pushed<8>()", "fixture_perf_init()")
    sfpi = (SFPI, "calculate_fixture_axpb<false, 8>()", None)
    chain = api.perf_kernels([tti, sfpi], fp32_dest=1, **SMALL)
    assert chain.estimate and "SFPI" in chain.estimate
    alone = api.perf_kernels([tti], fp32_dest=1, **SMALL)
    assert alone.estimate is None
    assert chain.cycles_per_tile > alone.cycles_per_tile + 8 * 2     # the SFPI op's iterations, 2 cycles of loop each
    assert harness.splice_macro("op 2: call") == "LLK_RV32_SPLICE_OP_2_CALL"


def test_sfpu_perf_takes_a_sequence_file(tmp_path, capsys):
    sequence = tmp_path / "ops.txt"
    sequence.write_text(f"# two ops on one thread\n{PERF} | fixture_perf_init() | calculate_fixture_perf_pushed<8>()\n"
                        f"{PERF} | - | calculate_fixture_perf_identity<8>()\n")
    out = tmp_path / "perf.json"
    assert main(["perf", "--sequence", str(sequence), "--fp32-dest", "1", "--tiles", "2", "--loop-factor", "1",
                 "--json", str(out)]) == 0
    import json
    record = json.loads(out.read_text())
    assert [op["call"] for op in record["ops"]] == ["calculate_fixture_perf_pushed<8>()",
                                                     "calculate_fixture_perf_identity<8>()"]
    assert record["ops"][1]["init"] is None
