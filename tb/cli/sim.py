"""`sfpu sim`: run programs on the RTL in lock-step with the golden model on
one backend (tb.sims.runner), optionally with a waveform and its GTKWave save file.

With `--waves` the wave file (a VCD, from every backend) and a `.gtkw`
(tb.waves.gtkw) go into the output folder, and build/waves/latest.gtkw points
at the save file, which `make waves` opens. Writing them needs no GTKWave;
viewing them does.
"""

from __future__ import annotations

import os
from pathlib import Path

from tensix_sfpu.tb.sims import runner
from tensix_sfpu.tb.cli.errors import CliError
from tensix_sfpu.model.isa import Arch
from tensix_sfpu.tb.cli.options import add_arch_option, one_arch

ROOT = Path(__file__).resolve().parents[2]
WAVES = ROOT / "build" / "waves"
LATEST = WAVES / "latest.gtkw"


def _specs(items: list[str], arch: Arch | None) -> tuple[list[str], Arch]:
    """Program specs (tb.stimulus.programs), where a path to an existing file stands for
    `file:PATH`; paths are taken from the folder the command runs in and made
    absolute, as the simulator runs in another. Also the one architecture
    they (and `--arch`, if given) agree on."""
    from tensix_sfpu.tb.stimulus.programs import SpecError, absolute, resolve
    specs, archs = [], []
    for item in items:
        if ":" not in item and not Path(item).is_file():
            raise CliError(f"{item}: no such file (nor a spec such as example:FILE or directed:NAME)")
        spec = absolute(f"file:{item}" if Path(item).is_file() else item)
        try:
            programs = resolve(spec)
        except SpecError as e:
            raise CliError(str(e)) from None
        archs += [(p.name, p.program.arch) for p in programs]
        specs.append(spec)
    return specs, one_arch(arch, archs)


def point_latest(gtkw: Path | None) -> None:
    """build/waves/latest.gtkw, which `make waves` opens, made to point at
    `gtkw` (None: at nothing, so that a run that writes no save file does not
    leave it on an older run's)."""
    LATEST.parent.mkdir(parents=True, exist_ok=True)
    LATEST.unlink(missing_ok=True)
    if gtkw is None:
        return
    try:
        LATEST.symlink_to(os.path.relpath(gtkw.resolve(), LATEST.parent))
    except OSError:                 # a file system without symlinks
        LATEST.write_text(gtkw.read_text())


def with_cxx_lines(message: str) -> str:
    """A run's report with the C++ file and line added wherever it names a
    line of a listing `sfpu llk` wrote (its `# file:line` comments)."""
    from tensix_sfpu.tb.llk.frontend import with_cxx_location
    return "\n".join(with_cxx_location(line) for line in message.splitlines())


def cmd_sim(args) -> int:
    specs, arch = _specs(args.specs, args.arch)
    shown = " ".join(args.specs)
    out = Path(args.out) if args.out else (WAVES / args.backend if args.waves else None)
    env = {"SFPU_PROGRAMS": " ".join(specs)}
    if args.waves:
        point_latest(None)
    try:
        outcomes = runner.run(args.backend, ["lockstep"], env, waves=args.waves, work=out, arch=arch)
    except runner.RunnerError as e:
        raise CliError(str(e)) from None
    passed = bool(outcomes) and all(o.passed for o in outcomes)
    for outcome in outcomes:
        print(f"{'PASS' if outcome.passed else 'FAIL'}: {shown} on {args.backend} "
              f"({outcome.seconds:.1f} s)")
        if outcome.message:
            print(with_cxx_lines(outcome.message))
    if args.waves:
        from tensix_sfpu.tb.env.sfpu_env import CLOCK_NS
        from tensix_sfpu.tb.waves.gtkw import WaveError, write_for_run
        wave = runner.wave_file(args.backend, out or runner.BUILD / "runs" / args.backend)
        if not wave.is_file():
            raise CliError(f"the {args.backend} run wrote no waveform ({wave})")
        gtkw = wave.with_suffix(".gtkw")
        try:
            write_for_run(wave, gtkw, CLOCK_NS, arch=arch)
        except WaveError as e:
            raise CliError(str(e)) from None
        point_latest(gtkw)
        print(f"waveform: {wave}\nsave file: {gtkw} (`make waves` opens it)")
    return 0 if passed else 1


def register(sub) -> None:
    s = sub.add_parser("sim", help="run programs on the RTL in lock-step with the model, optionally with waveforms")
    s.add_argument("specs", nargs="+", metavar="SPEC",
                   help="a program spec (example:FILE, file:PATH, directed:NAME, random:KIND:SEEDS) or a .s file")
    s.add_argument("--backend", choices=runner.BACKENDS, default="amaranth",
                   help="the simulator the RTL runs on (default %(default)s)")
    s.add_argument("--waves", action="store_true",
                   help="write a VCD and a GTKWave save file (build/waves/latest.gtkw points at it)")
    s.add_argument("--out", metavar="DIR", help="where the run's files go (default build/waves/BACKEND with --waves)")
    add_arch_option(s, "the RTL's and the programs'")
    s.set_defaults(func=cmd_sim)
