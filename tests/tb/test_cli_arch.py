"""`--arch wormhole|blackhole` on every command of the `sfpu` command line.

The Blackhole words are worked out by hand from model/isa.py's table
(opcode in [31:24], VC at [11:8], VD at [7:4], Mod1 at [3:0]; Blackhole's
SFPLOAD has AddrMod at [15:13], Mod0 at [19:16], VD at [23:20]).
"""

import json

import pytest

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import assemble
from tensix_sfpu.tb.cli.main import main

BH_PROGRAM = """\
.arch blackhole
sfpload vd=0 addr_mod=5 mod0=3       # 0x70 | VD 0 | Mod0 3 << 16 | AddrMod 5 << 13 = 0x7003A000
sfple vd=1 vc=0 mod1=0               # 0x96 << 24 | VD 1 << 4 = 0x96000010
sfpgt vd=2 vc=0 mod1=0               # 0x97000020
TTI_SFPARECIP(0, 0, 3, 0);           # imm12 0, VC 0, VD 3, Mod1 0: 0x99000030
sfpmul24 vd=4 va=0 vb=0 vc=9 mod1=0  # 0x98 << 24 | VC 9 << 8 | VD 4 << 4 = 0x98000940
"""
BH_WORDS = ["0x7003A000", "0x96000010", "0x97000020", "0x99000030", "0x98000940"]
# A Blackhole program whose SFPADD waits a cycle for the SFPMAD's L1 (Blackhole's stall logic).
BH_STALL = """\
.arch blackhole
sfploadi vd=2 mod0=0 imm16=0x3F80
sfploadi vd=3 mod0=0 imm16=0x4000
sfpmad vd=1 va=2 vb=3 vc=2 mod1=0
sfpadd vd=4 va=1 vb=10 vc=3 mod1=0
sfpstore vd=4 mod0=3 imm10=8
"""


def run_cli(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def bh_file(tmp_path):
    path = tmp_path / "bh.s"
    path.write_text(BH_PROGRAM)
    return path


@pytest.fixture
def bh_body(tmp_path):
    """The same program without its .arch line."""
    path = tmp_path / "body.s"
    path.write_text(BH_PROGRAM.split("\n", 1)[1])
    return path


def test_asm_with_arch_directive(bh_file, capsys):
    code, out, err = run_cli(["asm", bh_file], capsys)
    assert code == 0, err
    assert out.split() == BH_WORDS


def test_asm_with_arch_option(bh_body, capsys):
    code, out, err = run_cli(["asm", bh_body, "--arch", "blackhole"], capsys)
    assert code == 0, err
    assert out.split() == BH_WORDS
    code, out, err = run_cli(["asm", bh_body, "--arch", "bh"], capsys)   # the short name
    assert code == 0 and out.split() == BH_WORDS


def test_asm_without_arch_is_wormhole(bh_body, capsys):
    code, _, err = run_cli(["asm", bh_body], capsys)
    assert code == 2
    # Wormhole's AddrMod is two bits.
    assert f"{bh_body}:1:14: SFPLOAD: field addr_mod=5 out of range 0..3" in err
    other = bh_body.with_name("le.s")
    other.write_text("sfple vd=1 vc=0\n")
    code, _, err = run_cli(["asm", other], capsys)
    assert code == 2
    assert f"{other}:1:1: unknown mnemonic 'sfple' on Wormhole B0" in err and "add `.arch blackhole`" in err


def test_arch_conflict_names_file_and_line(bh_file, capsys):
    code, _, err = run_cli(["asm", bh_file, "--arch", "wormhole"], capsys)
    assert code == 2
    assert f"{bh_file}:1:1: .arch blackhole contradicts the command line, which chose wormhole" in err
    # The same arch twice is fine.
    assert run_cli(["asm", bh_file, "--arch", "blackhole"], capsys)[0] == 0


def test_unknown_arch_is_a_usage_error(bh_file, capsys):
    with pytest.raises(SystemExit) as e:
        main(["asm", str(bh_file), "--arch", "grayskull"])
    assert e.value.code == 2
    assert "unknown architecture 'grayskull'" in capsys.readouterr().err


def test_disasm_decodes_with_the_arch(capsys):
    words = [w[2:] for w in BH_WORDS]
    code, out, err = run_cli(["disasm", "--arch", "blackhole"] + words, capsys)
    assert code == 0, err
    assert out.splitlines() == ["sfpload vd=0 imm10=0 addr_mod=5 mod0=3", "sfple vd=1 vc=0 mod1=0",
                                "sfpgt vd=2 vc=0 mod1=0", "sfparecip vd=3 vb=0 vc=0 mod1=0",
                                "sfpmul24 vd=4 va=0 vb=0 vc=9 mod1=0"]
    # The same SFPLOAD word on Wormhole: AddrMod is [15:14] = 2, and bit 13 is ignored.
    code, out, _ = run_cli(["disasm", "7003A000"], capsys)
    assert code == 0 and "addr_mod=2" in out and "ignored bits 0x002000" in out
    code, _, err = run_cli(["disasm", "96000010"], capsys)
    assert code == 2 and "opcode 0x96 is not a Wormhole SFPU instruction" in err


def test_disasm_llk_round_trips_on_blackhole(tmp_path, capsys):
    code, out, err = run_cli(["disasm", "--arch", "blackhole", "--llk"] + [w[2:] for w in BH_WORDS], capsys)
    assert code == 0, err
    assert out.splitlines()[0] == "TTI_SFPLOAD(0, 3, 5, 0);"    # the 3-bit sfpu_addr_mode
    listing = tmp_path / "rt.s"
    listing.write_text(out)
    code, words, err = run_cli(["asm", listing, "--arch", "blackhole"], capsys)
    assert code == 0, err
    assert words.split() == BH_WORDS


def test_every_blackhole_word_round_trips():
    for op in isa.ISA[isa.BLACKHOLE].table:
        word = isa.encode(op.mnemonic, isa.BLACKHOLE)
        from tensix_sfpu.model.asm import disassemble
        for style in ("named", "llk"):
            text = disassemble(word, style, arch=isa.BLACKHOLE)
            assert assemble(text + "\n", arch=isa.BLACKHOLE).words == [word], (op.mnemonic, style, text)


def test_run_json_names_the_arch(tmp_path, capsys):
    wh = tmp_path / "wh.s"
    wh.write_text("sfploadi vd=1 mod0=2 imm16=7\n")
    code, out, err = run_cli(["run", wh, "--json", "-"], capsys)
    assert code == 0, err
    record = json.loads(out)
    assert record["arch"] == "wormhole" and "lregs" in record and "dst" in record
    bh = tmp_path / "bh.s"
    bh.write_text(".arch blackhole\nsfploadi vd=1 mod0=2 imm16=7\n")
    code, out, err = run_cli(["run", bh, "--json", "-"], capsys)
    assert code == 0, err
    record = json.loads(out)
    assert record["arch"] == "blackhole" and record["lregs"][1][0] == 7
    code, out, err = run_cli(["run", bh], capsys)
    assert code == 0 and "on Blackhole A0" in out.splitlines()[0]
    code, out, err = run_cli(["timeline", bh], capsys)
    assert code == 0 and "cycles on Blackhole A0" in out


def test_run_on_the_blackhole_rtl_gives_the_models_json(tmp_path, capsys):
    """The RTL elaborated for the program's architecture, stall included, and its final state read back."""
    program = tmp_path / "stall.s"
    program.write_text(BH_STALL)
    code, out, err = run_cli(["run", program, "--json", "-", "--trace"], capsys)
    assert code == 0, err
    model = json.loads(out)
    assert model["arch"] == "blackhole" and any(c.get("stalled") for c in model["trace"])
    code, out, err = run_cli(["run", program, "--json", "-", "--trace", "--backend", "amaranth"], capsys)
    assert code == 0, err
    rtl = json.loads(out)
    # Only the run's own two fields differ: it ran on the RTL, every cycle of the model's trace compared.
    assert (model.pop("backend"), model.pop("lockstep")) == ("model", None)
    assert rtl.pop("backend") == "amaranth"
    assert rtl.pop("lockstep") == {"passed": True, "cycles_compared": len(model["trace"])}
    assert rtl == model


def test_sim_runs_one_architecture(bh_file, capsys):
    """Programs of two architectures, or one that contradicts --arch, cannot share a simulation."""
    code, _, err = run_cli(["sim", bh_file, "random:legal:1"], capsys)
    assert code == 2 and "random:legal:1:200 is a wormhole program" in err and "one architecture" in err
    code, _, err = run_cli(["sim", "--arch", "blackhole", "directed:flags"], capsys)
    assert code == 2 and "directed:flags is a wormhole program, but --arch blackhole" in err


def test_verilog_of_blackhole_has_the_stall_logic(tmp_path, capsys):
    for arch, has in (("wormhole", False), ("blackhole", True)):
        out = tmp_path / f"issue-{arch}.v"
        code, _, err = run_cli(["verilog", "--arch", arch, "--component", "IssueStage", "-o", out], capsys)
        assert code == 0, err
        assert ("mad_writes_q" in out.read_text()) is has, arch


def test_kernels_blackhole_runs_the_blackhole_kernels(capsys):
    code, out, _ = run_cli(["kernels", "--arch", "blackhole", "typecast_uint16_to_fp16b"], capsys)
    assert code == 0 and "typecast_uint16_to_fp16b" in out and "bit-exact" in out


def test_llk_arch_option_parses(capsys):
    code, _, err = run_cli(["llk", "--arch", "blackhole", "nowhere.h", "--call", "f()"], capsys)
    assert code == 2 and "nowhere.h: no such header" in err


def test_a_model_gap_on_blackhole_is_a_clean_stop(bh_file, capsys, monkeypatch):
    """A Blackhole feature the model lacks stops with a message, exit 3, never a traceback."""
    from tensix_sfpu import tb
    import tensix_sfpu.tb.api
    def missing(*a, **k):
        raise NotImplementedError("SFPEXAMPLE mode 9")
    monkeypatch.setattr(tb.api, "run_program", missing)
    code, _, err = run_cli(["run", bh_file], capsys)
    assert code == 3
    assert f"sfpu: stopped: {bh_file}: not modelled on Blackhole A0 yet: NotImplementedError: SFPEXAMPLE mode 9" in err


def test_timeline_shows_blackhole_stalls_in_table_and_csv(tmp_path, capsys):
    # SFPMAD.md: after a MAD-class instruction (SFPMUL24 here) the hardware
    # holds the next instruction one cycle when it reads the MAD's VD. So the
    # SFPADD presented in cycle 3 waits and runs in cycle 4.
    path = tmp_path / "stall.s"
    path.write_text(".arch blackhole\nsfploadi vd=1 mod0=2 imm16=5\nsfploadi vd=2 mod0=2 imm16=3\n"
                    "sfpmul24 vd=3 va=1 vb=2 vc=9 mod1=0\nsfpadd vd=4 va=10 vb=3 vc=3 mod1=0\n")
    code, out, err = run_cli(["timeline", path, "--wide"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    stall = next(line for line in lines if "stall:" in line)
    assert stall.split()[0] == "3" and "SFPADD reads L3, written by SFPMUL24 in flight" in stall
    assert "5 cycles" not in out and "4 instructions issued, 6 cycles on Blackhole A0" in out
    code, out, err = run_cli(["timeline", path, "--csv"], capsys)
    assert code == 0, err
    assert out.splitlines()[3].startswith("2,sfpmul24 vd=3 va=1 vb=2 vc=9")


def test_build_and_lint_scripts_parse_arch_as_the_command_line_does(capsys):
    """`python -m tensix_sfpu.tb.cli.build_sims build`, tools/lint.py and tools/synth.py read
    `--arch` by hand, through `tb.cli.options.take_arch`."""
    from tensix_sfpu.tb.cli import build_sims
    from tensix_sfpu.tb.cli.errors import CliError
    from tensix_sfpu.tb.cli.options import take_arch

    assert take_arch(["build", "--arch", "bh", "icarus"]) == (isa.Arch.BLACKHOLE, ["build", "icarus"])
    assert take_arch(["build", "icarus"]) == (None, ["build", "icarus"])
    for argv, message in ((["build", "--arch"], "--arch needs a value"), (["--arch", "pentium"], "'pentium'")):
        with pytest.raises(CliError, match=message):
            take_arch(argv)
    assert build_sims.main(["build", "--arch", "pentium"]) == 2
    assert "runner: error: --arch: unknown architecture 'pentium'" in capsys.readouterr().err
