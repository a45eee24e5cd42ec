"""`sfpu run` and `sfpu timeline` on the RTL backends (tb/sims/rtl_run.py).

The reference is the other half of the model/RTL pair: the JSON of a run on
the RTL (its own trace, and the final state read from its state-view ports
and Dst side port) must equal the JSON of the same run on the cycle model,
field for field. Verilator runs every directed program and every kernel;
Amaranth's simulator and Icarus, a hundred times slower, run short programs
through the command line itself.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tensix_sfpu.model.asm import assemble_file
from tensix_sfpu.model.machine import UndefinedBehaviour
from tensix_sfpu.model.run import result_to_json, run_program
from tensix_sfpu.model.state import SfpuState
from tensix_sfpu.tb.sims import rtl_run
from tensix_sfpu.tb.cli.main import main
from tensix_sfpu.tb.campaigns.faults import FAULTS
from tensix_sfpu.tb.stimulus.programs import resolve_all
from tensix_sfpu.model.isa import Arch

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_A = ROOT / "examples" / "macro_example_a.s"
SFPU = Path(sys.executable).parent / "sfpu"


def model_outcome(program, dst, strict: bool) -> tuple[dict | None, str | None]:
    """The model's `sfpu run --json --trace` record, or the message it stops with."""
    state = SfpuState(Arch.WORMHOLE)
    if dst is not None:
        state.dst = np.array(dst, dtype=np.uint16)
    try:
        return result_to_json(run_program(program, state, strict=strict), trace=True), None
    except UndefinedBehaviour as e:
        return None, str(e)


def first_difference(want, have, path: str = "") -> str | None:
    """Where two JSON values first differ, as a path such as `dst[3][7]`."""
    if isinstance(want, dict) and isinstance(have, dict):
        if want.keys() != have.keys():
            return f"{path or 'the record'}: keys {sorted(want)} and {sorted(have)}"
        for key in want:
            found = first_difference(want[key], have[key], f"{path}.{key}" if path else key)
            if found:
                return found
        return None
    if isinstance(want, list) and isinstance(have, list):
        if len(want) != len(have):
            return f"{path}: {len(want)} items in the model's, {len(have)} in the RTL's"
        for i, (a, b) in enumerate(zip(want, have)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if want == have else f"{path}: model {want!r}, rtl {have!r}"


def check_batch(backend: str, specs) -> None:
    results = rtl_run.run_batch(backend, [rtl_run.Job(s.name, s.program, s.dst, s.strict) for s in specs])
    assert [r.name for r in results] == [s.name for s in specs]
    problems = []
    for spec, out in zip(specs, results):
        want, stopped = model_outcome(spec.program, spec.dst, spec.strict)
        if out.mismatch or out.error:
            problems.append(f"{spec.name}: {out.mismatch or out.error}")
        elif stopped is not None or out.stopped is not None:
            if out.stopped != stopped:
                problems.append(f"{spec.name}: stopped with {out.stopped!r}, the model with {stopped!r}")
        else:
            difference = first_difference(want, result_to_json(out.result, trace=True))
            if difference:
                problems.append(f"{spec.name}: {difference}")
    assert not problems, "\n".join(problems)


def test_every_directed_program_and_kernel_on_verilator():
    """Each directed program and each kernel (on its Dst inputs) in one
    simulation; the run is in lock-step too, so any cycle that differs
    already fails there with the scoreboard's report."""
    specs = resolve_all("directed:* kernel:*")
    assert len(specs) >= 50
    check_batch("verilator", specs)


@pytest.mark.parametrize("backend", ["amaranth", "icarus"])
def test_short_programs_on_the_slow_backends(backend):
    check_batch(backend, resolve_all("directed:dest_index directed:flag_stack"))


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["amaranth", "icarus"])
def test_every_directed_program_on_the_slow_backends(backend):
    """The 12 directed programs, about 1,400 cycles: 5 minutes on Amaranth's simulator and 8 on
    Icarus, run side by side on the 2-core machine (`make test-all`)."""
    check_batch(backend, resolve_all("directed:*"))


# -- the command line on each backend ---------------------------------------------------------

DST_PROGRAM = """\
.lreg 3 0x3F800000
sfpload vd=2 mod0=MOD0_FMT_UINT16 imm10=0
sfpmad vd=1 va=3 vb=3 vc=3
sfpnop
sfppushc
sfpsetcc vd=1 mod1=0
sfpstore vd=2 mod0=MOD0_FMT_UINT16 imm10=2
sfpstore vd=1 mod0=MOD0_FMT_FP32 imm10=64
"""


def sfpu(*argv, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(SFPU), *map(str, argv)], capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.mark.parametrize("backend", ["verilator", "icarus"])
def test_run_json_equals_the_models_from_another_folder(backend, tmp_path):
    """`sfpu run --backend B --dst --json --trace` with paths relative to the
    folder the user stands in (the simulator itself runs elsewhere)."""
    (tmp_path / "p.s").write_text(DST_PROGRAM)
    dst = (np.arange(1024 * 16, dtype=np.uint32).reshape(1024, 16) * 2654435761 % 65536).astype(np.uint16)
    np.save(tmp_path / "dst.npy", dst)
    for which in ("model", backend):
        proc = sfpu("run", "p.s", "--backend", which, "--dst", "dst.npy", "--json", f"{which}.json", "--trace",
                    cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert "7 instructions" in proc.stdout
    want, have = (json.loads((tmp_path / f"{which}.json").read_text()) for which in ("model", backend))
    assert (want.pop("backend"), have.pop("backend")) == ("model", backend)
    assert (want.pop("lockstep"), have.pop("lockstep")) == (None, {"passed": True, "cycles_compared": len(want["trace"])})
    assert first_difference(want, have) is None, first_difference(want, have)
    assert want["dst"][0][1] == int(dst[0, 0])      # the program did move Dst data


def test_a_run_says_its_backend_and_its_lockstep_verdict(tmp_path, capsys):
    """The text and the JSON say where the program ran: the model alone
    (no lock-step check: null), or the RTL in lock-step with the model,
    every cycle of the model's trace compared."""
    src = tmp_path / "p.s"
    src.write_text(DST_PROGRAM)
    assert main(["run", str(src), "--json", str(tmp_path / "model.json"), "--trace"]) == 0
    model_text = capsys.readouterr().out
    model = json.loads((tmp_path / "model.json").read_text())
    assert (model["backend"], model["lockstep"]) == ("model", None)
    assert "backend" not in model_text and "lock-step" not in model_text
    assert main(["run", str(src), "--backend", "amaranth", "--json", str(tmp_path / "rtl.json")]) == 0
    rtl_text = capsys.readouterr().out
    rtl = json.loads((tmp_path / "rtl.json").read_text())
    cycles = len(model["trace"])
    assert rtl["backend"] == "amaranth" and rtl["lockstep"] == {"passed": True, "cycles_compared": cycles}
    assert (f"backend: amaranth (the RTL), lock-step with the model: PASS ({cycles} cycles compared, then the "
            "final state)") in rtl_text.splitlines()
    assert rtl_text.splitlines()[0] == model_text.splitlines()[0]       # the same run


def test_run_exit_statuses_on_verilator(tmp_path, capsys):
    """Hazards come from the model's checker, in lock-step: strict stops with
    status 3 and the checker's message, --allow and --lenient let it through."""
    src = tmp_path / "h.s"
    src.write_text("sfpmad vd=1 va=10 vb=10 vc=10\nsfpmov vd=2 vc=1\n")
    messages = {}
    for backend in ("model", "verilator"):
        assert main(["run", str(src), "--backend", backend]) == 3
        # The first run of a fresh checkout also builds Verilator, saying its stages before the stop.
        messages[backend] = [line for line in capsys.readouterr().err.splitlines() if line.startswith("sfpu:")]
        assert main(["run", str(src), "--backend", backend, "--allow", "read-in-flight", "--json", "-"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert [h["rule"] for h in record["hazards"]] == ["read-in-flight"]
        assert main(["run", str(src), "--backend", backend, "--lenient"]) == 0
        capsys.readouterr()
    assert messages["model"] == messages["verilator"]
    stop, hint = messages["verilator"]          # the stop, then how to go on past it
    assert f"{src}:2:1" in stop and "read-in-flight" in stop
    assert "--allow read-in-flight" in hint
    assert main(["run", str(src), "--backend", "verilator", "--dst", str(tmp_path / "none.npy")]) == 2
    assert "none.npy" in capsys.readouterr().err


def test_a_hazard_that_stops_the_rtl_run_is_raised_as_the_models(monkeypatch):
    # The simulation reports the stop through a pickle; the hazard comes back whole, so that
    # `sfpu run --backend ...` names the rule to --allow as the model's run does.
    from tensix_sfpu.model.hazards import Hazard, HazardError
    hazard = Hazard("read-in-flight", 1, "simple", "reads L1 in flight", source="h.s:2:1")
    stopped = rtl_run.JobResult("h.s", stopped=str(hazard), hazard=hazard)
    monkeypatch.setattr(rtl_run, "run_batch", lambda backend, jobs: [stopped])
    program = assemble_file(EXAMPLE_A)
    with pytest.raises(HazardError) as raised:
        rtl_run.run_program("verilator", program)
    assert raised.value.hazard == hazard and str(raised.value) == str(hazard)


def test_timeline_from_the_rtl_trace_on_verilator(capsys):
    tables = {}
    for backend in ("model", "verilator"):
        assert main(["timeline", str(ROOT / "examples" / "exp_fast_macro.s"), "--backend", backend,
                     "--cycles", "40:50"]) == 0
        tables[backend] = capsys.readouterr().out
    assert tables["model"] == tables["verilator"]
    assert "all five sub-units busy" in tables["verilator"]


def test_the_timeline_picture_from_the_rtl_trace_on_verilator(tmp_path, capsys):
    # The RTL's own trace, with the lock-step model's source lines: the same events as the model's.
    events = {}
    for backend in ("model", "verilator"):
        out = tmp_path / f"{backend}.json"
        assert main(["timeline", str(EXAMPLE_A), "--backend", backend, "--perfetto", str(out),
                     "--html", str(tmp_path / f"{backend}.html")]) == 0
        events[backend] = json.loads(out.read_text())["traceEvents"]
    assert events["model"] == events["verilator"]
    sources = {e["args"]["source"] for e in events["verilator"] if e.get("cat") == "macro" and e["ph"] == "X"}
    assert len(sources) == 1 and sources.pop().startswith(f"{EXAMPLE_A}:")


def test_a_difference_between_rtl_and_model_stops_the_run(tmp_path, capsys):
    """With a fault injected into the model (Amaranth's simulator runs in this
    process), the RTL run stops at the first difference with status 1 and the
    scoreboard's report, instead of giving a final state."""
    src = tmp_path / "p.s"
    src.write_text(FAULTS["mad_round_bit"].trigger)
    with FAULTS["mad_round_bit"].inject():
        code = main(["run", str(src), "--backend", "amaranth", "--json", str(tmp_path / "out.json")])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "RTL and model differ" in err and "model:" in err and "rtl:" in err and "lane" in err
    assert not (tmp_path / "out.json").exists()


def test_sim_takes_paths_from_the_folder_the_user_stands_in(tmp_path):
    """`sfpu sim` with a program and an output folder given relative to the
    current folder, while the simulator runs in another."""
    (tmp_path / "progs").mkdir()
    (tmp_path / "progs" / "a.s").write_text(EXAMPLE_A.read_text())
    proc = sfpu("sim", "progs/a.s", "file:progs/a.s", "--backend", "verilator", "--out", "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS: progs/a.s file:progs/a.s on verilator" in proc.stdout
    assert (tmp_path / "run" / "results.xml").is_file()
    proc = sfpu("sim", "progs/none.s", "--backend", "verilator", cwd=tmp_path)
    assert proc.returncode == 2 and "progs/none.s: no such file" in proc.stderr
