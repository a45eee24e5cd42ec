"""`sfpu kernels`: every kernel of the kernels package measured on the golden model (and,
with `--rtl`, run in lock-step on an RTL backend; tb.kernel_measure), as a table;
`--doc` writes docs/kernels.md from the same measurements."""

from __future__ import annotations

from pathlib import Path

from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch
from tensix_sfpu.tb.cli import table, timeline
from tensix_sfpu.tb.cli.errors import CliError, from_api
from tensix_sfpu.tb.cli.options import add_arch_option
from tensix_sfpu.tb.kernel_measure import Measured

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "kernels.md"


def _cycles(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}".rstrip("0").rstrip(".")


def summary_rows(measured: list[Measured]) -> list[list[str]]:
    rows = []
    for m in measured:
        k = m.kernel
        twin = "–" if m.twin_same is None else f"{k.twin}: {'bit-identical' if m.twin_same else 'DIFFERENT'}"
        rows.append([k.name, _cycles(m.run.cycles_per_row), _cycles(k.claimed_cycles_per_row),
                     _agreement(m), twin, m.rtl])
    return rows


SUMMARY_HEADER = ["kernel", "cycles/row", "claimed", "vs numpy", "twin", "RTL"]


def format_table(measured: list[Measured], width: int | None = table.WIDTH) -> str:
    """The summary for a terminal: the error measured against numpy (its
    tolerance too with `width` None), twins and RTL runs by outcome, and under
    a kernel whose numbers need a reason, its one-line summary."""
    rows = []
    for m, row in zip(measured, summary_rows(measured)):
        twin = "–" if m.twin_same is None else "bit-identical" if m.twin_same else "DIFFERENT"
        rtl = "identical" if m.rtl.startswith("identical") else m.rtl
        rows.append(row[:3] + ([row[3]] if width is None or not m.accurate or m.kernel.accuracy.exact
                               else [m.accuracy]) + [twin, rtl])
    notes = {i: "└ " + m.kernel.summary for i, m in enumerate(measured) if m.kernel.summary}
    return table.format_table(SUMMARY_HEADER, rows, width, notes=notes)


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    esc = [[c.replace("|", "\\|") for c in r] for r in [header] + rows]
    return "\n".join(["| " + " | ".join(esc[0]) + " |", "|" + "---|" * len(header)] +
                     ["| " + " | ".join(r) + " |" for r in esc[1:]])


def _agreement(m: Measured) -> str:
    k = m.kernel
    if not m.accurate:
        return f"FAILS: {m.accuracy}"
    if k.compare is not None:
        return f"passes its own check: {m.accuracy}"
    return "bit-exact" if k.accuracy.exact else f"within {k.accuracy.describe()}: {m.accuracy}"


def kernel_section(m: Measured) -> str:
    k, r = m.kernel, m.run
    lines = [f"### {k.name}", "",
             f"`kernels/{k.source}`, after tt-llk's {k.llk}.", ""]
    if k.notes:
        lines += [k.notes.strip(), ""]
    facts = [["instructions", ", ".join(m.instructions)],
             ["row groups in the body", str(k.rows)],
             ["body cycles (from `.mark body` to the last write)", str(r.body_cycles)],
             ["cycles per row group", f"{_cycles(r.cycles_per_row)} measured, {_cycles(k.cycles_per_row)} by our "
                                      f"count of the schedule, {_cycles(k.claimed_cycles_per_row)} claimed"
                                      + (f" ({k.claim})" if k.claim else "")],
             ["against numpy", _agreement(m)]]
    if k.accuracy.why:
        facts.append(["why that tolerance", k.accuracy.why])
    if k.llk_source is not None:
        facts.append(["from its C++ source", f"`{k.llk_source.call}` in `{k.llk_source.header}`"
                      + (f" ({', '.join('-D ' + d for d in k.llk_source.defines)})" if k.llk_source.defines else "")
                      + (f": {k.llk_source.regenerated}" if k.llk_source.regenerated else "")])
    if k.twin:
        facts.append(["non-macro twin", f"`{k.twin}`, Dst {'bit-identical' if m.twin_same else 'DIFFERENT'}"])
    facts.append(["RTL", m.rtl])
    if k.timing_note:
        facts.append(["timing", k.timing_note])
    lines += [_md_table(["", ""], facts), ""]
    if k.source_schedule:
        lines += ["The source's schedule:", "", k.source_schedule.strip(), ""]
    if k.timeline:
        base = r.result.marks["body"]
        first, last = base + k.timeline[0], base + k.timeline[1]
        lines += [f"Our timeline, body cycles {k.timeline[0]}-{k.timeline[1]} (absolute {first}-{last}; "
                  "`@T` marks an instruction scheduled by the SFPLOADMACRO of cycle T):", "", "```",
                  timeline.format_table(r.result.trace, first, last), "```", ""]
    return "\n".join(lines)


INTRO = """# Kernels

Real SFPU kernels: programs in our assembly (`kernels/*.s`) that reproduce the
instruction schedules of tt-llk's Wormhole kernels
(`tt_llk_wormhole_b0/common/inc/sfpu/`). Each runs on the golden model and on
the RTL in lock-step (identical traces and final state), is compared with
numpy, and is timed in cycles per 32-lane row group. Their definitions (inputs,
numpy reference, tolerance and its reason, twin, claims) are in the `kernels` package;
`tests/kernels/test_kernels.py` checks accuracy, twins and cycle counts on the
model, and `tests/tb/test_backends.py` runs all of them in lock-step on
Verilator.

This file is written by `sfpu kernels --rtl verilator --doc docs/kernels.md`;
edit the kernels' definitions, not this file.

Each SFPLOADMACRO kernel and its twin also names the C++ call it comes from:
`sfpu kernels --src DIR` runs them compiled from a tt-metal tree by `sfpu llk`
instead of from their listings, and `python -m tb.llk.regenerate DIR` compares
the two ([llk.md](llk.md)); the row "from its C++ source" says what that gave
with the ttnn 0.81.1 wheel's headers. Where that header changed since the source
a listing follows (a layout, a rounding, an order of additions), the kernel run
from source is read and checked against its own reference (`LlkSource.result`,
`LlkSource.reference`), not the listing's.

## The Tensix context around the SFPU

Modelled (`model/tensix.py`, `hdl/tensix.py`):
- the thread's read/write counters (Dst, SrcA, SrcB, each with its carry
  register) and the eight ADDR_MOD slots that SFPLOAD and SFPSTORE apply;
- `TTI_SETRWC` and `TTI_INCRWC`: issued by the thread like any instruction,
  one issue slot each, changing the counters at the end of that cycle; they
  do not count as SFPU instructions for SFPLOADMACRO's instruction-kind
  delays, and the SFPSWAP interlock holds them like any word but SFPNOP;
- `TTI_REPLAY`: the front end's Replay Expander, in the assembler: a loading
  REPLAY records (and with Exec also issues) the next instructions, a playing
  one issues the recorded ones one per cycle and takes no cycle itself;
- `TTI_SETC16` of the ADDR_MOD registers (`ADDR_MOD_AB_SEC<n>`,
  `ADDR_MOD_DST_SEC<n>`, `ADDR_MOD_BIAS_SEC<n>`), `ADDR_MOD_SET_Base` and
  `DEST_TARGET_REG_CFG_MATH_Offset`, at their Wormhole addresses: a
  directive for the configuration unit, taking no SFPU cycle;
- the Fp32 Dst mode and the SrcB format, by the `.fp32_dest` and
  `.srcb_format` directives.

Not modelled: the Matrix Unit's side of SETRWC (SrcA/SrcB bank flips,
fidelity phase); the RISC-V that issues the instructions (a `TT_` loop is
written out, back to back, with no issue gaps); MOP expansion; `WRCFG` and
`RMWCIB`, whose register addresses and bit positions for
`ALU_ACC_CTRL_SFPU_Fp32_enabled` and the SrcB format were not in the sources
we could check, so the directives stand for them; other Tensix instructions
are an assembler error.
"""


BLACKHOLE_INTRO = """# Blackhole kernels

tt-llk's Blackhole kernels, each compiled from the C++ call its Wormhole
kernel names, from the Blackhole headers of the ttnn 0.81.1 wheel, by
`python -m tb.llk.regenerate --arch blackhole --write DIR NAME`
(`kernels/blackhole/*.s`, every instruction naming its C++ line). Each runs on
the Blackhole model with its Wormhole kernel's inputs, numpy reference and
tolerance, its macro version is compared with its non-macro twin bit for bit,
and its cycles per row group are set beside the Blackhole source's own claim.
Their definitions are in `kernels/blackhole.py`; `tests/kernels/test_kernels_bh.py`
checks them. `sfpu kernels --arch blackhole --rtl BACKEND` also runs each in
lock-step on the RTL elaborated for Blackhole.

This file is written by `sfpu kernels --arch blackhole --doc docs/kernels-blackhole.md`;
edit the kernels' definitions, not this file.
"""
# Each architecture's page opens with its own introduction.
INTROS = {Arch.WORMHOLE: INTRO, Arch.BLACKHOLE: BLACKHOLE_INTRO}


def write_doc(measured: list[Measured], path: Path = DOC, arch: Arch = DEFAULT_ARCH) -> None:
    parts = [INTROS[arch], "## Summary", "",
             "Cycles per row group count from `.mark body` to the cycle the last result is written, "
             "divided by the row groups processed.", "",
             _md_table(SUMMARY_HEADER, summary_rows(measured)), ""]
    parts += ["## The kernels", ""] + [kernel_section(m) for m in measured]
    path.write_text("\n".join(parts).rstrip() + "\n")


def cmd_kernels(args) -> int:
    from tensix_sfpu.tb import api
    arch = args.arch or DEFAULT_ARCH
    try:
        measured = api.measure_kernels(args.names or None, arch=arch.value, src=args.src,
                                       backend=args.rtl or "model")
    except api.ApiError as e:
        raise from_api(e) from None
    if args.src:
        from_source = [m.kernel.name for m in measured if m.from_source]
        print(f"from source ({args.src}): {', '.join(from_source) or 'none'}; the others from their hand listings")
    print(format_table(measured, None if args.wide else table.WIDTH))
    if args.doc:
        try:
            write_doc(measured, Path(args.doc), arch)
        except OSError as e:
            raise CliError(f"{args.doc}: cannot write: {e.strerror or e}") from None
        print(f"wrote {args.doc}")
    bad = [m for m in measured if not m.accurate or m.twin_same is False or m.rtl.startswith("DIFFERS")]
    return 1 if bad else 0


def register(sub) -> None:
    from tensix_sfpu.tb.sims import runner
    s = sub.add_parser("kernels", help="measure the kernels of kernels/ (accuracy, twins, cycles per row)")
    s.add_argument("names", nargs="*", metavar="NAME", help="only these kernels")
    s.add_argument("--rtl", choices=runner.BACKENDS, help="also run each in lock-step on this RTL backend")
    s.add_argument("--doc", metavar="PATH", help="write the markdown report (docs/kernels.md)")
    s.add_argument("--src", metavar="DIR", help="run the kernels that name their C++ call from the headers under "
                                                "DIR (sfpu llk) instead of their hand listings")
    s.add_argument("--wide", action="store_true",
                   help=f"print the table in full, however wide (default: fit {table.WIDTH} columns)")
    add_arch_option(s, "the kernels' (Blackhole's are generated from tt-llk's Blackhole headers, kernels/blackhole/)",
                    programs=False)
    s.set_defaults(func=cmd_kernels)
