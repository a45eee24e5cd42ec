"""The SFPLOADMACRO scheduler against the cycle-exact model: random
LoadMacroConfigs (sequence bytes, templates, delay kinds, store Mod0) and
random streams of SFPLOADMACROs, other instructions and idle cycles; in every
cycle the instruction each sub-unit receives must match the model's. Both
architectures: Blackhole's templates include its new instructions and
SFPAND/SFPOR with and without USE_VB, and its SFPLOADMACRO a 3-bit AddrMod."""

import numpy as np
import pytest
from amaranth.back import verilog

from tensix_sfpu.hdl.scheduler import MacroScheduler
from tensix_sfpu.model import isa
from tensix_sfpu.model.cycle import CycleModel
from tensix_sfpu.model.state import SfpuState
from tests.hdl.hdl_sim import run_clocked

UNITS = ("simple", "mad", "round", "store")
SCHEDULING_RULES = ("macro-select-reserved", "macro-template-invalid", "macro-store-not-sfpstore")

def templates(arch: isa.Arch) -> list[int]:
    enc = lambda mnemonic, **values: isa.encode(mnemonic, arch, **values)     # noqa: E731
    words = [
        enc("SFPMAD", va=12, vb=0, vc=13, vd=13),
        enc("SFPMULI", vd=3, imm16=0x4000),
        enc("SFPSHFT", vd=15, vc=0, imm12=15, mod1=1),
        enc("SFPIADD", vd=2, vc=5, imm12=7, mod1=5),
        enc("SFPSTOCHRND", vd=14, vb=1, vc=0, mod1=6, use_imm5=1),
        enc("SFPSHFT2", vd=1, vc=2, imm12=3, mod1=6),
        enc("SFPSTORE", vd=6, mod0=3),
        enc("SFPNOP"),
        enc("SFPAND", vd=4, vc=1),
        enc("SFPLOADI", vd=1, imm16=5),          # runs on no macro sub-unit: becomes SFPNOP
    ]
    if arch is isa.Arch.BLACKHOLE:
        words += [
            enc("SFPAND", vd=4, vc=1, vb=3, mod1=isa.AndOrMod1.USE_VB),    # VB from its field
            enc("SFPOR", vd=5, vc=2, vb=6),                     # VB field ignored: VD
            enc("SFPLE", vd=2, vc=7),
            enc("SFPMUL24", va=1, vb=2, vd=3),
            enc("SFPARECIP", vc=4, vd=1),
            0x9A00_0000,                                        # not an SFPU opcode
        ]
    else:
        words.append(0x9700_0000)                               # not an SFPU opcode (Blackhole's SFPGT)
    return words


def random_config(rng, arch: isa.Arch) -> SfpuState:
    state = SfpuState(arch=arch)
    words = templates(arch)
    for m in range(4):
        byte = lambda: int(rng.choice([0, 2, 3, 4, 5, 6, 7, 1], p=[.2, .1, .1, .15, .15, .13, .13, .04])) \
            | int(rng.integers(0, 8)) << 3 | int(rng.integers(0, 4)) << 6
        state.macro_sequences[m] = byte() | byte() << 8 | byte() << 16 | byte() << 24
        state.macro_templates[m] = int(rng.choice(words))
    state.macro_misc[:] = int(rng.integers(0, 1 << 12))
    return state


def random_stream(rng, length: int, arch: isa.Arch) -> list[int | None]:
    stream = []
    for _ in range(length):
        r = rng.random()
        if r < 0.45:
            stream.append(isa.encode("SFPLOADMACRO", arch, macro=int(rng.integers(0, 4)), vd=int(rng.integers(0, 8)),
                                     mod0=int(rng.choice([0, 3, 4])), offset=int(rng.integers(0, 512)) * 2))
        elif r < 0.8:
            stream.append(isa.encode("SFPNOP", arch))
        else:
            stream.append(None)                      # the thread presents nothing
    return stream


def model_run(state: SfpuState, stream):
    """Per cycle: (SFPLOADMACRO fields or None, accepted, macro instructions per sub-unit)."""
    model = CycleModel(state, strict=False)
    config = (state.macro_sequences[:, 0].copy(), state.macro_templates[:, 0].copy(), int(state.macro_misc[0]))
    cycles = []
    for word in stream + [None] * 12:
        record = model.step(word)
        issued = record.issued
        ins = isa.decode(issued, state.arch) if issued is not None else None
        macro = None
        if ins is not None and ins.mnemonic == "SFPLOADMACRO":
            macro = dict(macro=ins["macro"], vd=(ins["vd_hi"] << 2) | ins["vd_lo"], mod0=ins["mod0"],
                         imm10=(ins["imm9"] << 1) | ins["vd_hi"])
        due = {u: (a.word, a.vd, a.vb or 0, a.vc or 0, a.macro_cycle)
               for u, a in record.units.items() if a.origin == "macro"}
        scheduling = {(h.rule, h.unit) for h in record.hazards if h.rule in SCHEDULING_RULES}
        cycles.append((macro, issued is not None, due, scheduling))
    return config, cycles


@pytest.mark.parametrize("arch", list(isa.Arch), ids=lambda a: a.value)
@pytest.mark.parametrize("seed", range(6))
def test_matches_the_cycle_model(seed, arch):
    rng = np.random.default_rng(seed)
    state = random_config(rng, arch)
    (sequence, words, misc), cycles = model_run(state, random_stream(rng, 80, arch))
    dut = MacroScheduler(arch)
    got = []

    async def bench(ctx):
        for m in range(4):
            ctx.set(dut.sequence[m], int(sequence[m]))
            ctx.set(dut.templates[m], int(words[m]))
        ctx.set(dut.misc, misc)
        for cycle, (macro, accepted, _, _) in enumerate(cycles):
            ctx.set(dut.cycle, cycle)
            ctx.set(dut.accepted, int(accepted))
            ctx.set(dut.issue, int(macro is not None))
            if macro is not None:
                for name, value in macro.items():
                    ctx.set(getattr(dut, name), value)
                ctx.set(dut.address, macro["imm10"])   # RWC and offsets stay 0
            due = {}
            for i, unit in enumerate(UNITS):
                d = dut.due[i]
                if ctx.get(d.valid):
                    due[unit] = (ctx.get(d.word), ctx.get(d.vd), ctx.get(d.vb), ctx.get(d.vc),
                                 ctx.get(d.macro_cycle))
            flagged = {("macro-store-not-sfpstore", "store")} if ctx.get(dut.store_not_sfpstore) else set()
            for i, unit in enumerate(UNITS):
                if ctx.get(dut.select_reserved) >> i & 1:
                    flagged.add(("macro-select-reserved", unit))
                if ctx.get(dut.template_invalid) >> i & 1:
                    flagged.add(("macro-template-invalid", unit))
            got.append((due, flagged))
            await ctx.tick()

    run_clocked(dut, bench)
    for cycle, ((_, _, want, want_flags), (have, have_flags)) in enumerate(zip(cycles, got)):
        assert have == want, f"cycle {cycle}"
        assert have_flags == want_flags, f"cycle {cycle}"
    assert sum(len(d) for d, _ in got) > 20             # the stream really schedules work
    assert any(flags for _, flags in got)               # and reaches the scheduling hazards


@pytest.mark.parametrize("arch", list(isa.Arch), ids=lambda a: a.value)
def test_converts_to_verilog(arch):
    assert "module scheduler" in verilog.convert(MacroScheduler(arch), name="scheduler")
