"""The mutation machinery (tb.campaigns.mutants, tb.campaigns.mutate, `sfpu mutate`): how
candidates are attributed and drawn, the report's arithmetic, bad options,
and one real netlist with one mutant on Icarus -- the design passes and the
mutant is killed. The full run is `make mutate`, not part of the tests."""

import json
import pickle

import pytest

from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.campaigns import mutants, mutate
from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.cli.main import main as sfpu
from tensix_sfpu.tb.stimulus.programs import resolve_all

MODULES = {"Sfpu": "sfpu", "Sfpu.mad": "mad_unit", "Sfpu.mad.fma_11": "fma", "Sfpu.lregs$271": "lregs",
           "Sfpu.mad.lut_3.decode_c": "lut"}


@pytest.mark.parametrize("cell, component", [
    ("$flatten\\mad.\\fma_11.$458", "fma"),
    ("$flatten\\mad.\\lut_3.\\decode_c.$5", "lut"),
    ("$flatten\\mad.$procmux$99", "mad_unit"),
    ("$flatten\\lregs$271.$7642", "lregs"),
    ("$flatten\\mad.\\fma_12.$1", "mad_unit"),        # a module the table lacks: its parent's
    ("$procmux$12", "sfpu"),                          # the top's own cell
])
def test_a_cell_belongs_to_the_module_that_holds_it(cell, component):
    assert mutants.component_of(cell, MODULES) == component


def test_modules_are_named_with_the_file_their_source_attribute_gives():
    text = ('attribute \\generator "Amaranth"\nattribute \\src "/x/hdl/fma.py:200"\nmodule \\Sfpu.mad.fma_0\n'
            'end\nattribute \\src "/x/hdl/sfpu.py:133"\nattribute \\top 1\nmodule \\Sfpu\n')
    # The top's attribute is not the last before its `module` line, so only the FMA is found.
    assert mutants.module_components(text) == {"Sfpu.mad.fma_0": "fma"}


def test_a_candidate_line_is_read_with_its_sources():
    line = ("mutate -mode cnot1 -module Sfpu -cell $flatten\\mad.\\fma_11.$458 -port Y -portbit 19 -ctrlbit 13 "
            "-wire mad.fma_11.sum_raw -wirebit 19 -src /w/hdl/fma.py:206 -src /w/hdl/sfpu.py:138")
    options = mutants.parse_candidate(line)
    assert (options["mode"], options["cell"], options["port"], options["portbit"], options["ctrlbit"]) == \
        ("cnot1", "$flatten\\mad.\\fma_11.$458", "Y", "19", "13")
    assert options["src"] == ["/w/hdl/fma.py:206", "/w/hdl/sfpu.py:138"]
    with pytest.raises(mutants.MutantError, match="not a `mutate` line"):
        mutants.parse_candidate("flatten")


def _candidate(cell: str, bit: int, port: str = "Y") -> str:
    return f"mutate -mode inv -module Sfpu -cell {cell} -port {port} -portbit {bit} -src /w/hdl/x.py:{bit}"


def test_each_component_gets_its_share_and_never_an_excluded_cell():
    lines = ([_candidate("$flatten\\mad.\\fma_11.$1", b) for b in range(10)]
             + [_candidate("$flatten\\lregs$271.$2", b) for b in range(2)]
             + [_candidate("$flatten\\mad.$3", b) for b in range(5)]
             + [_candidate("$flatten\\mad.$4", 0), _candidate("$flatten\\mad.$5", 0, port="CLK")])
    drawn = mutants.select(lines, MODULES, per_component=3, seed=7, unmutated={"$flatten\\mad.$4"})
    assert [m.id for m in drawn] == list(range(1, 9))
    assert [m.component for m in drawn] == ["fma"] * 3 + ["lregs"] * 2 + ["mad_unit"] * 3
    assert not {"$flatten\\mad.$4", "$flatten\\mad.$5"} & {m.cell for m in drawn}
    assert all(m.sources == [f"hdl/x.py:{m.bit}"] for m in drawn)
    assert drawn == mutants.select(lines, MODULES, per_component=3, seed=7, unmutated={"$flatten\\mad.$4"})


@pytest.mark.parametrize("arch", list(Arch))
def test_each_architecture_has_a_budget_of_its_own_programs_of_every_kind(arch):
    """The RTL elaborated for `arch` runs only programs of `arch` (sfpu_env
    refuses another's), so its budget is made of them, with every kind."""
    specs = resolve_all(mutate.budget(arch))
    assert {s.program.arch for s in specs} == {arch}
    assert {s.kind for s in specs} >= {"directed", "mutant", "legal", "macro", "flags", "break", "kernel"}
    assert len([s for s in specs if s.kind == "kernel"]) == len(mutate.KERNELS[arch])


def test_each_architecture_has_its_own_netlist_folder():
    """Shards merge only within one netlist (the folder's name), and the two
    architectures' RTL are different designs."""
    wormhole, blackhole = (mutants.folder_for(1, 16, arch).name for arch in (Arch.WORMHOLE, Arch.BLACKHOLE))
    assert "-wormhole-" in wormhole and "-blackhole-" in blackhole
    assert wormhole.replace("wormhole", "blackhole") == blackhole


def test_mutant_ids_are_read_and_checked():
    assert mutate.parse_ids("3,5-7", 10) == [3, 5, 6, 7]
    with pytest.raises(mutate.MutateError, match="'x' is not an id"):
        mutate.parse_ids("x", 10)
    with pytest.raises(mutate.MutateError, match=r"no mutant 11 \(there are 1..10\)"):
        mutate.parse_ids("9-11", 10)


ONE_AND = r"""module \Sfpu
  wire width 32 input 1 \word
  wire width 32 output 2 \y
  cell $and $1
    parameter \A_SIGNED 0
    parameter \B_SIGNED 0
    parameter \A_WIDTH 32
    parameter \B_WIDTH 32
    parameter \Y_WIDTH 32
    connect \A \word
    connect \B 32'00000000000000000000000010000000
    connect \Y \y
  end
end
"""


def test_a_mutant_is_equivalent_when_its_cell_computes_the_same_for_every_input(tmp_path):
    """`word & 0x80`: inverting a word bit the mask clears, or forcing an
    output bit the mask clears to 0, changes nothing; inverting the bit the
    mask keeps, or setting another mask bit, does."""
    (tmp_path / "flat.il").write_text(ONE_AND)

    def mutant(i: int, mode: str, port: str, bit: int) -> mutants.Mutant:
        return mutants.Mutant(i, "decoder", mode, "$1", port, bit,
                              command=f"-mode {mode} -module Sfpu -cell $1 -port {port} -portbit {bit}")
    proved = mutants.locally_equivalent(tmp_path, [mutant(1, "inv", "A", 29), mutant(2, "inv", "A", 7),
                                                   mutant(3, "const0", "Y", 15), mutant(4, "inv", "B", 17),
                                                   mutant(5, "const1", "Y", 15)], arch=Arch.WORMHOLE)
    assert sorted(proved) == [1, 3]
    assert "$and cell's output is the same for every input" in proved[1]


def test_an_output_bit_nothing_reads_makes_the_mutant_equivalent(tmp_path):
    """`word + 1` into a 5-bit wire of which only bits 3..0 are read: a
    change to bit 4 is invisible, one to bit 2 is not."""
    (tmp_path / "flat.il").write_text(r"""module \Sfpu
  wire width 4 input 1 \word
  wire width 4 output 2 \y
  wire width 5 $sum
  cell $add $1
    parameter \A_SIGNED 0
    parameter \A_WIDTH 4
    parameter \B_SIGNED 0
    parameter \B_WIDTH 1
    parameter \Y_WIDTH 5
    connect \A \word
    connect \B 1'1
    connect \Y $sum
  end
  connect \y $sum [3:0]
end
""")
    bit4, bit2 = (mutants.Mutant(i, "flags", "inv", "$1", "Y", bit, command=f"-mode inv -cell $1 -port Y -portbit {bit}")
                  for i, bit in ((1, 4), (2, 2)))
    assert mutants.locally_equivalent(tmp_path, [bit4, bit2], arch=Arch.WORMHOLE) == {
        1: "equivalent: nothing reads bit 4 of the $add cell's output"}


def _report(statuses: dict[int, tuple[str, str]], netlist: str = "n") -> dict:
    rows = [{"id": i, "component": component, "status": status, "mode": "inv", "cell": f"c{i}", "port": "Y",
             "bit": 0, "sources": [], "command": f"-cell c{i}", "why": "", "killed": status == "killed", "by": "",
             "cycles": 1, "seconds": 0.1}
            for i, (component, status) in statuses.items()]
    return {"commit": "abc", "arch": "wormhole", "netlist": netlist, "budget": "b", "budget_cycles": 10, "seconds": 5.0, "mutants": rows}


def test_the_table_counts_each_component_and_scores_only_non_equivalent_mutants():
    report = _report({1: ("fma", "killed"), 2: ("fma", "killed"), 3: ("fma", "survived"), 4: ("fma", "equivalent"),
                      5: ("prng", "killed"), 6: ("prng", "error")})
    table = mutate.table(report).splitlines()
    assert table[2] == "| fma | 4 | 2 | 1 | 1 | 66.7 % |"
    assert table[3] == "| prng | 2 | 1 | 0 | 1 | 50.0 % |"       # an error is not a kill
    assert table[4] == "| **all** | **6** | **3** | **1** | **2** | **60.0 %** |"


def test_shard_reports_merge_and_other_netlists_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(mutants, "MUTATE", tmp_path)
    (tmp_path / "n").mkdir()
    catalogue = [dict(id=i, component="fma", mode="inv", cell=f"c{i}", port="Y", bit=0, sources=[],
                      command=f"-cell c{i}") for i in (1, 2)]
    (tmp_path / "n" / "mutants.json").write_text(json.dumps({"arch": "wormhole", "mutants": catalogue}))
    (tmp_path / "a.json").write_text(json.dumps(_report({2: ("fma", "killed")})))
    (tmp_path / "b.json").write_text(json.dumps(_report({1: ("prng", "killed")})))
    (tmp_path / "c.json").write_text(json.dumps(_report({3: ("fma", "killed")}, netlist="other")))
    (tmp_path / "again.json").write_text(json.dumps(_report({2: ("fma", "survived")})))
    merged = mutate.merge([tmp_path / "a.json", tmp_path / "b.json"])
    assert [(m["id"], m["status"]) for m in merged["mutants"]] == [(1, "killed"), (2, "killed")]
    monkeypatch.setattr(mutants, "locally_equivalent", lambda folder, alive, arch: {})
    rerun = mutate.merge([tmp_path / "b.json", tmp_path / "again.json"])    # the last report of mutant 2 counts
    assert [(m["id"], m["status"]) for m in rerun["mutants"]] == [(1, "killed"), (2, "survived")]
    with pytest.raises(mutate.MutateError, match="c.json: another netlist or budget"):
        mutate.merge([tmp_path / "a.json", tmp_path / "c.json"])
    with pytest.raises(mutate.MutateError, match="d.json: no such report"):
        mutate.merge([tmp_path / "d.json"])


@pytest.mark.parametrize("argv, message", [
    (["--shard", "3/2"], "--shard '3/2': i must be in 0..n-1"),
    (["--chunk", "0"], "--chunk must be at least 1"),
    (["--merge", "missing.json"], "missing.json: no such report"),
])
def test_bad_options_give_a_message_not_a_traceback(argv, message, capsys):
    assert sfpu(["mutate", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_netlist_of_one_mutant_passes_as_the_design_and_fails_as_the_mutant(tmp_path):
    """One candidate on the PRNG state, a bit stuck at 1: every lane's PRNG
    is zero after reset and this program never advances it, so the final
    state's PRNG differs from the model's and the mutant must be killed, while
    `mutsel` 0 runs the same program without a difference. (An inverted bit
    would not do: the register takes back its own output, so the bit toggles
    every cycle and the final state sees the right value half of the time.)"""
    listed, _ = mutants.candidates(tmp_path, 1, seed=1, filters="-wire prng", arch=Arch.WORMHOLE,
                                    modes=("const1",))
    [mutant] = mutants.select(listed, {}, per_component=1, seed=1)
    verilog = mutants.write_netlist(tmp_path, [mutant], arch=Arch.WORMHOLE)
    budget = tmp_path / "budget.pickle"
    budget.write_bytes(pickle.dumps(resolve_all("directed:dest_index")))
    design, killed = mutate.run_chunk("icarus", verilog, mutate.Chunk(0, [mutate.DESIGN, mutant.id]), budget,
                                      tmp_path, Arch.WORMHOLE)
    assert (design.id, design.killed, design.why) == (0, False, "")
    assert design.cycles > 0
    assert (killed.id, killed.killed, killed.by) == (1, True, "directed:dest_index")
    assert "PRNG" in killed.why, killed.why
    assert runner.build_dir("icarus", netlist=verilog, arch=Arch.WORMHOLE) == tmp_path / "icarus"
