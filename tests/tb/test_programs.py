"""Program specs (tb/stimulus/programs.py): what they name, and a clear error naming
the spec when one names nothing."""

import numpy as np
import pytest

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.stimulus.programs import SpecError, absolute, resolve, resolve_all


def test_specs_name_their_programs():
    [example] = resolve("example:macro_example_a.s")
    assert example.kind == "example" and example.program.words and not example.strict
    legal = resolve("random:legal:3-5:40")
    assert [p.seed for p in legal] == [3, 4, 5] and all(p.strict for p in legal)
    [broken] = resolve("random:break:2:40")
    assert broken.expect_rule and not broken.strict
    assert len(resolve_all("directed:flags macro:1")) == 2


def test_mutant_programs_are_named_per_architecture():
    """tb.stimulus.mutant_programs: each program for each architecture, `*` for all of them."""
    for arch, tail in ((Arch.WORMHOLE, ""), (Arch.BLACKHOLE, ":blackhole")):
        specs = resolve(f"mutant:*{tail}")
        assert specs and all(s.kind == "mutant" and s.program.arch is arch for s in specs)
        assert [s.name for s in resolve(f"mutant:macro_routing{tail}")] == [f"mutant:macro_routing{tail}"]


def test_random_specs_take_an_architecture():
    [blackhole] = resolve("random:flags:1:40:blackhole")
    assert blackhole.program.arch is Arch.BLACKHOLE and blackhole.name == "random:flags:1:40:blackhole"
    [wormhole] = resolve("random:flags:1:40")
    assert wormhole.program.arch is Arch.WORMHOLE and wormhole.name == "random:flags:1:40"


@pytest.mark.parametrize("spec, message", [
    ("random:legal:1:x", "CYCLES 'x'"),
    ("random:legal:1:5", "at least 10"),
    ("random:legal:9-2", "range of seeds"),
    ("random:nokind:1", "KIND one of"),
    ("random:legal:1:40:nowhere", "unknown architecture 'nowhere'"),
    ("directed:nothing", "no directed program 'nothing'"),
    ("mutant:nothing", "no mutant program 'nothing'"),
    ("example:missing.s", "no such file"),
    ("bogus", "expected directed:, mutant:"),
])
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(SpecError, match=message) as error:
        resolve(spec)
    assert str(error.value).startswith(spec)


def test_absolute_makes_file_specs_independent_of_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert absolute("file:progs/a.s") == f"file:{tmp_path / 'progs' / 'a.s'}"
    assert absolute("file:a.s@d/dst.npy") == f"file:{tmp_path / 'a.s'}@{tmp_path / 'd' / 'dst.npy'}"
    for spec in ("example:macro_example_a.s", "directed:flags", "random:legal:1:40", "kernel:exp_fast"):
        assert absolute(spec) == spec


def test_a_file_spec_takes_the_dst_it_starts_from(tmp_path):
    listing = tmp_path / "p.s"
    listing.write_text("SFPNOP\n")
    dst = np.arange(1024 * 16, dtype=np.uint32).astype(np.uint16).reshape(1024, 16)
    np.save(tmp_path / "dst.npy", dst)
    [spec] = resolve(f"file:{listing}@{tmp_path / 'dst.npy'}")
    assert np.array_equal(spec.dst, dst)
    np.save(tmp_path / "bad.npy", dst.astype(np.float32))
    with pytest.raises(SpecError, match="Dst must be raw uint16 bits, got dtype float32"):
        resolve(f"file:{listing}@{tmp_path / 'bad.npy'}")
    with pytest.raises(SpecError, match="missing.npy: no such file"):
        resolve(f"file:{listing}@{tmp_path / 'missing.npy'}")
