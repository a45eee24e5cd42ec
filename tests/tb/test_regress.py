"""`sfpu regress`: how seeds are sharded and chunked, the report, and merging
shard reports. The simulations themselves are tests/tb/test_backends.py's."""

import io
import json

import pytest

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.campaigns import regress
from tensix_sfpu.tb.campaigns.coverage import Coverage
from tensix_sfpu.tb.campaigns.regress import Chunk, ChunkResult, RegressError


def test_shards_partition_the_seeds():
    shards = [regress.shard_seeds(10, 23, (i, 4)) for i in range(4)]
    assert sorted(s for shard in shards for s in shard) == list(range(10, 33))
    assert shards[1] == [11, 15, 19, 23, 27, 31]


def test_chunks_cover_every_seed_and_kind_once():
    todo = regress.chunks(list(range(1, 8)), ("legal", "break"), 50, 3, Arch.WORMHOLE)
    assert [c.seeds for c in todo] == [[1, 2, 3], [4, 5, 6], [7]]
    assert todo[2].specs() == "random:legal:7:50 random:break:7:50"


@pytest.mark.parametrize("text", ["3", "a/b", "4/4", "-1/2"])
def test_bad_shard_is_a_clear_error(text):
    with pytest.raises(RegressError, match="--shard"):
        regress.parse_shard(text)


def fake_run_chunk(backend, chunk: Chunk, work):
    """Stands in for a simulation: seed 5 fails, every program is 10 cycles."""
    coverage = Coverage(Arch.WORMHOLE)
    coverage._hit("flag stack depth", str(len(chunk.seeds)))
    fails = 5 in chunk.seeds
    return ChunkResult(chunk.index, chunk.seeds, not fails, 10 * len(chunk.seeds) * len(chunk.kinds),
                       len(chunk.seeds) * len(chunk.kinds), 0.1, "mismatch at seed 5" if fails else "",
                       coverage.to_json())


def test_report_adds_up_the_chunks_and_lists_failures(tmp_path, monkeypatch):
    monkeypatch.setattr(regress, "run_chunk", fake_run_chunk)
    report = regress.regress("amaranth", list(range(1, 8)), ("legal", "macro"), 10, 2, 2, tmp_path,
                             out=io.StringIO(), arch=Arch.WORMHOLE)
    assert report["cycles"] == 7 * 2 * 10 and report["programs"] == 14 and report["chunks"] == 4
    assert report["failures"] == [{"seeds": [5, 6], "message": "mismatch at seed 5"}]
    assert json.loads((tmp_path / "report.json").read_text())["cycles"] == 140
    coverage = Coverage.from_json(report["coverage"])
    assert coverage.hits["flag stack depth"]["2"] == 3 and coverage.hits["flag stack depth"]["1"] == 1


def test_merged_shards_add_up(tmp_path, monkeypatch):
    monkeypatch.setattr(regress, "run_chunk", fake_run_chunk)
    paths = []
    for i in range(2):
        work = tmp_path / f"shard{i}"
        regress.regress("amaranth", regress.shard_seeds(1, 8, (i, 2)), ("legal",), 10, 1, 4, work,
                        out=io.StringIO(), arch=Arch.WORMHOLE)
        paths.append(work / "report.json")
    merged = regress.merge(paths)
    assert sorted(merged["seeds"]) == list(range(1, 9)) and merged["cycles"] == 80
    assert len(merged["failures"]) == 1
    with pytest.raises(RegressError, match="no such report"):
        regress.merge([tmp_path / "missing.json"])


# -- the shard from the environment of a job array or a CI matrix ---------------------------------

def shard_of(environ, option=None):
    return regress.shard_from_environment(option, environ)[0]


@pytest.mark.parametrize("environ, shard", [
    ({}, (0, 1)),
    ({"SFPU_SHARD": "2/5"}, (2, 5)),
    # sbatch --array=1-4: task 3 is the third of four
    ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4",
      "SLURM_ARRAY_TASK_COUNT": "4"}, (2, 4)),
    # sbatch --array=0-10:5 runs tasks 0, 5 and 10
    ({"SLURM_ARRAY_TASK_ID": "10", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "10",
      "SLURM_ARRAY_TASK_STEP": "5", "SLURM_ARRAY_TASK_COUNT": "3"}, (2, 3)),
    ({"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"}, (1, 2)),
    # GitLab's parallel: 3 numbers its jobs 1-3
    ({"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"}, (0, 3)),
    # two engines that agree
    ({"SFPU_SHARD": "1/2", "SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "0",
      "SLURM_ARRAY_TASK_MAX": "1"}, (1, 2)),
])
def test_shard_comes_from_the_environment(environ, shard):
    assert shard_of(environ) == shard


def test_an_explicit_shard_wins_over_the_environment():
    assert shard_of({"SFPU_SHARD": "1/2", "SLURM_ARRAY_TASK_ID": "x"}, option="3/4") == (3, 4)


@pytest.mark.parametrize("environ, message", [
    ({"SFPU_SHARD": "2"}, "SFPU_SHARD '2': expected i/n"),
    ({"SFPU_SHARD": "4/4"}, "SFPU_SHARD '4/4': i must be in 0..n-1"),
    ({"SLURM_ARRAY_TASK_ID": "one", "SLURM_ARRAY_TASK_COUNT": "2"}, "SLURM_ARRAY_TASK_ID='one': not a whole number"),
    ({"SLURM_ARRAY_TASK_ID": "1"}, "SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/_MAX is needed"),
    ({"SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"}, "not in the array 0-3:1"),
    # sbatch --array=1,3,7: three tasks that no range with a step describes
    ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7",
      "SLURM_ARRAY_TASK_COUNT": "3"}, "an array with holes"),
    ({"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"}, "1 <= index <= total"),
    ({"SFPU_SHARD": "0/2", "CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2"},
     "SFPU_SHARD says 0/2, GitLab CI's parallel says 1/2"),
])
def test_a_bad_or_contradictory_environment_is_a_clear_error(environ, message):
    with pytest.raises(RegressError) as e:
        shard_of(environ)
    assert message in str(e.value)


def test_the_command_line_refuses_a_bad_environment_with_status_2(monkeypatch, capsys):
    from tensix_sfpu.tb.cli.main import main
    monkeypatch.setenv("SFPU_SHARD", "1/x")
    assert main(["regress", "--backend", "model", "--seeds", "2", "--cycles", "20"]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["sfpu: error: environment variable SFPU_SHARD '1/x': expected i/n, e.g. 0/4"]


# -- two shards of a Slurm job array and their merge, on this machine ----------------------------

def test_slurm_array_of_two_shards_and_the_merge(tmp_path):
    """tools/regress.sbatch as two tasks of `sbatch --array=0-1` on the model;
    the merge job the first task queues (a stand-in sbatch records it) adds
    their reports up."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    queued = tmp_path / "queued"
    (fake_bin / "sbatch").write_text(f'#!/bin/sh\necho "$@" >> {queued}\n')
    (fake_bin / "sbatch").chmod(0o755)
    out = tmp_path / "regress"
    base = dict(os.environ, PATH=f"{fake_bin}:{os.environ['PATH']}", SLURM_SUBMIT_DIR=str(root),
                SFPU=str(Path(sys.executable).parent / "sfpu"), BACKEND="model", SEEDS="4", CYCLES="30",
                REGRESS_OUT=str(out), SLURM_ARRAY_JOB_ID="77", SLURM_ARRAY_TASK_MIN="0",
                SLURM_ARRAY_TASK_MAX="1", SLURM_ARRAY_TASK_COUNT="2")
    base.pop("SFPU_SHARD", None)
    script = root / "tools" / "regress.sbatch"
    for task in ("0", "1"):
        done = subprocess.run(["bash", str(script)], env=dict(base, SLURM_ARRAY_TASK_ID=task), cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"of shard {task}/2, from a Slurm job array" in done.stdout
    reports = [json.loads((out / f"shard-{t}" / "report.json").read_text()) for t in "01"]
    assert [r["seeds"] for r in reports] == [[1, 3], [2, 4]]
    # only the first task queued the merge, behind the whole array
    submitted = queued.read_text().splitlines()
    assert len(submitted) == 1 and "--dependency=afterany:77" in submitted[0] and submitted[0].endswith(" merge")
    merge = subprocess.run(["bash", str(script), "merge"], env=base, cwd=tmp_path, capture_output=True, text=True,
                           timeout=120)
    assert merge.returncode == 0, merge.stdout + merge.stderr
    merged = json.loads((out / "merged" / "report.json").read_text())
    assert sorted(merged["seeds"]) == [1, 2, 3, 4]
    assert merged["programs"] == 16 and merged["failures"] == []
    assert merged["cycles"] == reports[0]["cycles"] + reports[1]["cycles"]
    assert (out / "merged" / "coverage.md").read_text().startswith("# Functional coverage")


def test_the_model_backend_reports_a_break_program_its_checker_misses(monkeypatch):
    """A chunk on the model alone fails when the hazard checker does not
    report the rule a `break` program breaks: here the rule expected is
    swapped for another, which the program never breaks."""
    from tensix_sfpu.tb.stimulus import programs
    real = programs.resolve_all

    def expecting_the_wrong_rule(text):
        specs = real(text)
        for spec in specs:
            spec.expect_rule = "macro-select-reserved" if spec.expect_rule != "macro-select-reserved" else "discarded"
        return specs
    monkeypatch.setattr(programs, "resolve_all", expecting_the_wrong_rule)
    result = regress.run_chunk_on_model(Chunk(0, [2], ("break",), 60, Arch.WORMHOLE))
    assert not result.passed and result.programs == 0
    assert "random:break:2:60: the hazard checker did not report" in result.failure
    monkeypatch.undo()
    clean = regress.run_chunk_on_model(Chunk(0, [2], ("legal", "break"), 60, Arch.WORMHOLE))
    assert clean.passed and clean.programs == 2 and clean.cycles > 60
    assert Coverage.from_json(clean.coverage).hits["hazard rules"]      # the broken rule, sampled
