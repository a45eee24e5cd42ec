"""`sfpu regress`: how seeds are sharded and chunked, the report, and merging
shard reports. The simulations themselves are tests/tb/test_backends.py's."""

import io
import json

import pytest

from tb import regress
from tb.coverage import Coverage
from tb.regress import Chunk, ChunkResult, RegressError


def test_shards_partition_the_seeds():
    shards = [regress.shard_seeds(10, 23, (i, 4)) for i in range(4)]
    assert sorted(s for shard in shards for s in shard) == list(range(10, 33))
    assert shards[1] == [11, 15, 19, 23, 27, 31]


def test_chunks_cover_every_seed_and_kind_once():
    todo = regress.chunks(list(range(1, 8)), ("legal", "break"), 50, 3)
    assert [c.seeds for c in todo] == [[1, 2, 3], [4, 5, 6], [7]]
    assert todo[2].specs() == "random:legal:7:50 random:break:7:50"


@pytest.mark.parametrize("text", ["3", "a/b", "4/4", "-1/2"])
def test_bad_shard_is_a_clear_error(text):
    with pytest.raises(RegressError, match="--shard"):
        regress.parse_shard(text)


def fake_run_chunk(backend, chunk: Chunk, work):
    """Stands in for a simulation: seed 5 fails, every program is 10 cycles."""
    coverage = Coverage()
    coverage._hit("flag stack depth", str(len(chunk.seeds)))
    fails = 5 in chunk.seeds
    return ChunkResult(chunk.index, chunk.seeds, not fails, 10 * len(chunk.seeds) * len(chunk.kinds),
                       len(chunk.seeds) * len(chunk.kinds), 0.1, "mismatch at seed 5" if fails else "",
                       coverage.to_json())


def test_report_adds_up_the_chunks_and_lists_failures(tmp_path, monkeypatch):
    monkeypatch.setattr(regress, "run_chunk", fake_run_chunk)
    report = regress.regress("amaranth", list(range(1, 8)), ("legal", "macro"), 10, 2, 2, tmp_path,
                             out=io.StringIO())
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
                        out=io.StringIO())
        paths.append(work / "report.json")
    merged = regress.merge(paths)
    assert sorted(merged["seeds"]) == list(range(1, 9)) and merged["cycles"] == 80
    assert len(merged["failures"]) == 1
    with pytest.raises(RegressError, match="no such report"):
        regress.merge([tmp_path / "missing.json"])
