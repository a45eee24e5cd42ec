"""Every consumer of the ISA table, run on the synthetic architecture of
tests/synthetic/arch.py (`python -m tests.synthetic.consumers`; test_synthetic_arch.py
runs it in a process of its own, as the architecture must be declared before
hdl/ is imported). Each check prints `ok NAME` or `FAIL NAME: why`; the exit
status is the number of failures."""

import sys
import traceback

from tests.synthetic.arch import MAD_VC, ROTH_OPCODE, SYNTHETIC, rotate_halves  # first: declares it

import numpy as np

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import assemble, disassemble
from tensix_sfpu.model.run import run_program

# 1.5 * 2.0 + 0.25 = 3.25 (0x40500000), exact; then its halves exchanged.
PROGRAM = """.arch syn
sfploadi vd=1 mod0=0 imm16=0x3FC0
sfploadi vd=2 mod0=0 imm16=0x4000
sfploadi vd=3 mod0=0 imm16=0x3E80
sfpmad vd=4 va=1 vb=2 vc=3
sfpnop
sfproth vd=5 vc=4
"""
PRODUCT = 0x40500000
CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


@check
def assembler():
    program = assemble(PROGRAM, arch=None)
    assert program.arch is SYNTHETIC, program.arch
    mad, roth = program.words[3], program.words[5]
    assert MAD_VC.extract(mad) == 3 and isa.VC.extract(mad) == 0, f"SFPMAD's VC not in bits 23:20: {mad:#010x}"
    assert isa.opcode_of(roth) == ROTH_OPCODE, f"{roth:#010x}"
    for word, text in ((roth, "sfproth vd=5 vc=4 mod1=0"), (mad, "sfpmad vd=4 va=1 vb=2 vc=3 mod1=0")):
        assert disassemble(word, arch=SYNTHETIC) == text, disassemble(word, arch=SYNTHETIC)
        assert assemble(f".arch synthetic\n{text}\n").words == [word]
    # The chips do not have it.
    for chip in isa.Arch:
        assert "SFPROTH" not in isa.ISA[chip].opcodes


@check
def model():
    result = run_program(assemble(PROGRAM, arch=None))
    lregs = result.state.lregs
    assert (lregs[4] == PRODUCT).all(), hex(int(lregs[4][0]))
    assert (lregs[5] == rotate_halves(PRODUCT)).all(), hex(int(lregs[5][0]))


@check
def rtl_lockstep():
    from tensix_sfpu.tb.sims.rtl_bench import run_lockstep
    from tensix_sfpu.tb.stimulus.generator import generate
    programs = [assemble(PROGRAM, arch=None), generate("legal", 3, 60, arch=SYNTHETIC)]
    for program, run in zip(programs, run_lockstep(programs)):
        assert not run.mismatch, f"{program.name}: {run.mismatch}"
        assert run.rtl_trace and len(run.rtl_trace) == len(run.model_trace), program.name


@check
def waves_filter():
    from tensix_sfpu.tb.waves.mnemonic import invoked_arch, translate
    assert invoked_arch("sfpu-mnemonic-synthetic") is SYNTHETIC
    word = isa.encode("SFPROTH", SYNTHETIC, vd=5, vc=4)
    assert translate(f"{word:08X}", SYNTHETIC) == "sfproth vd=5 vc=4 mod1=0"
    assert translate(f"{ROTH_OPCODE:02X}", SYNTHETIC) == "SFPROTH"


@check
def coverage_bins():
    from tensix_sfpu.tb.campaigns.coverage import Coverage
    cov = Coverage(SYNTHETIC)
    names = {name for bins in cov.hits.values() for name in bins}
    assert any("SFPROTH" in n for n in names), "no coverage bin names SFPROTH"
    run_program(assemble(PROGRAM, arch=None), on_cycle=cov.sample)
    hit = {name for bins in cov.hits.values() for name, n in bins.items() if n and "SFPROTH" in name}
    assert hit, "running SFPROTH hit none of its bins"


@check
def generator():
    from tensix_sfpu.tb.stimulus.generator import generate
    seen = set()
    for seed in range(6):
        program = generate("legal", seed, 200, arch=SYNTHETIC)
        assert program.arch is SYNTHETIC
        seen |= {isa.decode(w, SYNTHETIC).mnemonic for w in program.words
                 if isa.opcode_of(w) in isa.ISA[SYNTHETIC].by_opcode}
        run_program(program, strict=False)
    assert {"SFPROTH", "SFPMAD"} <= seen, sorted(seen)


@check
def isa_reference():
    from tensix_sfpu.tb.isa_reference import reference
    text = reference()
    assert "SFPROTH" in text and SYNTHETIC.title in text, "the reference leaves the synthetic architecture out"
    assert "23:20" in text.split("## SFPMAD", 1)[1].split("\n## ", 1)[0], "SFPMAD's moved VC is not shown"


@check
def missing_parts():
    """An instruction declared without semantics or RTL is named, not a KeyError."""
    from tensix_sfpu.hdl.simple_unit import added_operations
    from tensix_sfpu.model.machine import semantics_of
    bare = isa.Opcode("SFPBARE", 0x9B, (isa.MOD1, isa.VD, isa.VC), isa.Unit.SIMPLE)
    partial = isa.declare("partial", "Partial (a test's)", [*isa.ISA[SYNTHETIC].table, bare], SYNTHETIC.features)
    try:
        added_operations(partial)
        raise AssertionError("an instruction with no RTL elaborated")
    except ValueError as e:
        assert "SFPBARE" in str(e) and "lane_operation" in str(e), e
    try:
        semantics_of(isa.decode(isa.encode("SFPBARE", partial, vd=1, vc=2), partial))
        raise AssertionError("an instruction with no semantics ran")
    except LookupError as e:
        assert "SFPBARE" in str(e) and "Partial" in str(e), e


def main() -> int:
    failures = 0
    for fn in CHECKS:
        try:
            fn()
            print(f"ok {fn.__name__}", flush=True)
        except Exception as e:                  # report every consumer, not the first failure alone
            failures += 1
            detail = "".join(traceback.format_exception_only(type(e), e)).strip()
            print(f"FAIL {fn.__name__}: {detail}\n{traceback.format_exc()}", flush=True)
    return failures


if __name__ == "__main__":
    sys.exit(main())
