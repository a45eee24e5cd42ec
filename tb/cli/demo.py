"""`make demo [ARCH=blackhole]`: tt-llk's fast-exp SFPLOADMACRO kernel (of
Wormhole, or Blackhole's) on one 32 x 32 FP32 tile, run on the RTL elaborated
for that architecture in Amaranth's simulator in lock-step with the golden
model. It prints the pipeline's timeline from the RTL's own trace, the cycles
per row group, the results against numpy's exp and a bit-for-bit comparison
with the kernel's non-macro twin, and writes the waveform with a GTKWave save
file."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import numpy as np

from tensix_sfpu import kernels
from tensix_sfpu.tb.cli import table, timeline
from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch
from tensix_sfpu.tb.cli.options import WIDE_HELP, add_arch_option, out_path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "demo"
KERNEL = "exp_fast"
TOP_ONLY = 2     # the waveform holds the top's signals (ports, per-unit issue, LRegs), not the sub-units' insides


def _shown(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def _is_compute_macro(text: str) -> bool:
    """An SFPLOADMACRO of macro 0 (the computing sequence; 1 is the sanitising one)."""
    return text.startswith("TTI_SFPLOADMACRO(") and int(text.split("(")[1].split(",")[0]) < 4


def run_on_rtl(kernel: kernels.Kernel, vcd: Path):
    """The kernel on the RTL (Amaranth's simulator, elaborated for the
    kernel's architecture) with the model in lock-step."""
    from tensix_sfpu.hdl.sfpu import Sfpu
    from tensix_sfpu.tb.env.amaranth_cocotb import simulate
    from tensix_sfpu.tb.env.sfpu_env import SfpuEnv

    program, state, _ = kernels.prepared(kernel)
    runs = []

    async def lockstep(dut):
        env = SfpuEnv(dut, arch=kernel.arch)
        runs.append(await env.run(program, name=kernel.name, strict=kernel.strict, dst=state.dst))

    outcome, = simulate([(kernel.name, lockstep)], make_top=lambda: Sfpu(kernel.arch), vcd=vcd,
                        vcd_depth=TOP_ONLY)
    return outcome, (runs[0] if runs else None)


def run_demo(out: Path = OUT, width: int | None = table.WIDTH, arch: Arch = DEFAULT_ARCH) -> int:
    sys.set_int_max_str_digits(0)
    def say(text: str, **kw) -> None:
        """Prose, wrapped to `width` (kept as it is when None)."""
        print("\n".join(textwrap.fill(p, width, break_on_hyphens=False) if width and p else p
                        for p in text.split("\n")), **kw)

    defined = kernels.all_kernels(arch)
    kernel = defined[KERNEL]
    model = kernels.run_kernel(kernel)
    twin = kernels.run_kernel(defined[kernel.twin]) if kernel.twin else None

    out.mkdir(parents=True, exist_ok=True)
    vcd = out / f"exp_fast{arch.tagged('_{}')}.vcd"
    say(f"{_shown(kernel.path)}: {kernel.llk}\n"
          f"one 32 x 32 FP32 tile (32 row groups of 32 lanes) on the {arch.title} RTL in Amaranth's simulator, "
          "in lock-step with the golden model ...", flush=True)
    started = time.monotonic()
    outcome, rtl = run_on_rtl(kernel, vcd)
    seconds = time.monotonic() - started
    if not outcome.passed or rtl is None:
        print(f"FAIL: the RTL and the golden model differ\n{outcome.message}")
        return 1
    say(f"PASS: {rtl.cycles} cycles compared, every sub-unit, LReg, flag and Dst write identical, "
          f"and the final state equal ({seconds:.0f} s with elaboration)\n")

    # The first face's computing phase, from the RTL's trace.
    compute = [c for c, item in sorted(model.result.issued_from.items()) if _is_compute_macro(item.text)]
    first, last = compute[0], compute[7] + 5
    say(f"First face, computing phase: SFPLOADMACROs in cycles {compute[0]}-{compute[7]} "
          "(load, MAD, Round, Simple shift, Store of one row group each), RTL trace:")
    print(timeline.format_table(rtl.rtl_trace, first, last, width, arch))
    full = [c for c in timeline.full_cycles(rtl.rtl_trace) if first <= c <= last]
    if full:
        print(f"All five sub-units busy in cycles {full[0]}-{full[-1]}.")

    body = (f"\nBody: {model.body_cycles} cycles for {kernel.rows} row groups = {model.cycles_per_row:.3f} "
            "cycles per row group (sanitise, compute, and two SETRWCs per face)")
    say(body + (f"; the non-macro twin takes {twin.body_cycles} = {twin.cycles_per_row:.3f} per row group."
                if twin is not None else "."))

    x = model.inputs.astype(np.float64)
    y = model.outputs.astype(np.float64)
    ref = model.expected
    normal = ref >= np.finfo(np.float32).tiny
    rel = np.abs(y - ref) / np.where(normal, ref, 1.0)
    print(f"\n{'x':>10} {'sfpu exp(x)':>14} {'numpy exp(x)':>14} {'rel. error':>11}")
    order = np.argsort(x)
    for i in order[np.linspace(0, len(order) - 1, 12).astype(int)]:
        err = f"{rel[i]:11.2e}" if normal[i] else f"{'subnormal *':>11}"
        print(f"{x[i]:10.4f} {y[i]:14.6g} {ref[i]:14.6g} {err}")
    ok, how = kernels.check_accuracy(model)
    clamped = x < -88.5
    tiny = np.finfo(np.float32).tiny
    say(f"* x is clamped to -88.5 first, as tt-llk's kernel does, and exp(-88.5) = {np.exp(-88.5):.3g} is below "
        f"FP32's smallest normal number ({tiny:.3g}), where Schraudolph's method gives no relative accuracy: "
        f"treat such results as zero (their absolute error here is at most "
        f"{np.max(np.abs(y - ref)[~normal], initial=0):.3g}, inside the tolerance's absolute {tiny:.3g}).")
    say(f"against numpy: {'within' if ok else 'OUTSIDE'} {kernel.accuracy.describe()} ({how}, over the "
        f"{int(normal.sum())} results that are normal FP32; {int(clamped.sum())} inputs below -88.5 are clamped)")
    same = twin is not None and np.array_equal(model.result.state.dst, twin.result.state.dst)
    if twin is not None:
        print(f"macro kernel and non-macro twin leave Dst {'bit-identical' if same else 'DIFFERENT'}")

    from tensix_sfpu.tb.cli.sim import point_latest
    from tensix_sfpu.tb.env.sfpu_env import CLOCK_NS
    from tensix_sfpu.tb.waves.gtkw import write_for_run
    gtkw = vcd.with_suffix(".gtkw")
    write_for_run(vcd, gtkw, CLOCK_NS, arch=arch)
    point_latest(gtkw)
    print(f"\nwaveform: {_shown(vcd)}\nsave file: {_shown(gtkw)} (`make waves` opens it)")
    return 0 if ok and (twin is None or same) else 1


def cmd_demo(args) -> int:
    out = Path(args.out) if args.out else OUT
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"{out}: cannot make the folder: {e.strerror or e}") from None
    return run_demo(out, width=None if args.wide else table.WIDTH, arch=args.arch or DEFAULT_ARCH)


def register(sub) -> None:
    p = sub.add_parser("demo", help="the fast-exp SFPLOADMACRO kernel on the RTL (Amaranth's simulator) in "
                                    "lock-step with the golden model, with its timeline and waveform")
    p.add_argument("--out", metavar="DIR", type=out_path,
                   help="where the waveform and save file go (default build/demo)")
    p.add_argument("--wide", action="store_true", help=WIDE_HELP)
    add_arch_option(p, "the kernel's and the RTL's", programs=False)
    p.set_defaults(func=cmd_demo)
