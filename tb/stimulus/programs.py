"""Programs named by short specs, so a test run can be told what to run in
one environment variable (SFPU_PROGRAMS) or on the command line.

    directed:NAME[:ARCH]   a program of tb.stimulus.directed (NAME `*` for all of them)
    mutant:NAME[:ARCH]     a program of tb.stimulus.mutant_programs (NAME `*` for all of them)
    macro:SEEDS[:ARCH]     random SFPLOADMACRO programs of tb.stimulus.directed
    example:FILE           examples/FILE
    file:PATH[@DST]        an assembly file; DST: Dst before it (uint16 rows, numpy.save)
    random:KIND:SEEDS[:CYCLES[:ARCH]]   tb.stimulus.generator programs; SEEDS is N or A-B, ARCH wormhole
                           (the default) or blackhole
    kernel:NAME[:SEED[:ARCH]]   a kernel of the kernels package on its inputs (NAME `*` for all)

Random programs of the kinds that obey every rule run with the model in
strict mode, so a rule the generator broke by mistake stops the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tensix_sfpu.examples import FOLDER as EXAMPLES
from tensix_sfpu.model.asm import AsmError, Program, assemble_file
from tensix_sfpu.model.isa import DEFAULT_ARCH, Arch

DEFAULT_CYCLES = 200


class SpecError(ValueError):
    """A spec that names nothing; the message says which part is wrong."""


@dataclass
class ProgramSpec:
    name: str
    program: Program
    seed: int | None = None
    strict: bool = False
    kind: str = ""
    expect_rule: str | None = None      # a `break` program: the rule the model must report
    dst: np.ndarray | None = None        # Dst before the program (raw uint16 rows); zero when None


def seeds(text: str) -> list[int]:
    try:
        if "-" in text:
            first, last = (int(x) for x in text.split("-", 1))
            if last < first:
                raise ValueError
            return list(range(first, last + 1))
        return [int(text)]
    except ValueError:
        raise SpecError(f"{text!r} is not a seed or a range of seeds A-B") from None


def _dst(spec: str, path: Path) -> np.ndarray:
    """Dst before a `file:PATH@DST` program: raw uint16 rows saved with numpy.save."""
    from tensix_sfpu.model.dst_io import DstFileError, load_dst
    try:
        return load_dst(str(path))
    except DstFileError as e:
        raise SpecError(f"{spec}: {e}") from None


def _cycles(spec: str, text: str) -> int:
    if not text.isdigit() or int(text) < 10:
        raise SpecError(f"{spec}: CYCLES {text!r} is not a whole number of at least 10")
    return int(text)


def _arch(spec: str, text: str) -> Arch:
    try:
        return Arch.parse(text)
    except ValueError as e:
        raise SpecError(f"{spec}: ARCH: {e}") from None


def arch_tail(arch: Arch) -> str:
    """The tail that names `arch` at the end of a spec: empty for the default architecture."""
    return arch.tagged(":{}")


def _arch_tail(spec: str, rest: str) -> tuple[str, Arch, str]:
    """`NAME[:ARCH]` -> (NAME, the architecture, the tail that names it in a spec)."""
    name, colon, arch_text = rest.partition(":")
    arch = _arch(spec, arch_text) if colon else DEFAULT_ARCH
    return name, arch, arch_tail(arch)


def resolve(spec: str) -> list[ProgramSpec]:
    try:
        return _resolve(spec)
    except SpecError as e:
        message = str(e)
        raise SpecError(message if message.startswith(spec) else f"{spec}: {message}") from None


def _named(spec: str, rest: str, kind: str, programs_of) -> list[ProgramSpec]:
    """`KIND:NAME[:ARCH]` or `KIND:*[:ARCH]` of a table of named programs (`programs_of(arch=)`)."""
    rest, arch, tail = _arch_tail(spec, rest)
    programs = programs_of(arch=arch)
    names = list(programs) if rest == "*" else [rest]
    for name in names:
        if name not in programs:
            raise SpecError(f"{spec}: no {kind} program {name!r} (there are {', '.join(programs)})")
    return [ProgramSpec(f"{kind}:{n}{tail}", programs[n], kind=kind) for n in names]


def _resolve(spec: str) -> list[ProgramSpec]:
    kind, _, rest = spec.partition(":")
    if kind == "directed":
        from tensix_sfpu.tb.stimulus.directed import directed_programs
        return _named(spec, rest, kind, directed_programs)
    if kind == "mutant":
        from tensix_sfpu.tb.stimulus.mutant_programs import mutant_programs
        return _named(spec, rest, kind, mutant_programs)
    if kind == "macro":
        from tensix_sfpu.tb.stimulus.directed import macro_programs
        rest, arch, tail = _arch_tail(spec, rest)
        return [ProgramSpec(f"macro:{s}{tail}", p, s, kind="macro-break")
                for s, p in zip(seeds(rest), macro_programs(seeds(rest), arch=arch).values())]
    if kind in ("example", "file"):
        rest, _, dst_file = rest.partition("@") if kind == "file" else (rest, "", "")
        path = EXAMPLES / rest if kind == "example" else Path(rest)
        if not path.is_file():
            raise SpecError(f"{spec}: no such file {path}")
        dst = _dst(spec, Path(dst_file)) if dst_file else None
        try:
            return [ProgramSpec(spec, assemble_file(str(path)), kind=kind, dst=dst)]
        except AsmError as e:
            raise SpecError(str(e)) from None
    if kind == "random":
        from tensix_sfpu.tb.stimulus import generator
        parts = rest.split(":")
        if len(parts) not in (2, 3, 4) or parts[0] not in generator.KINDS:
            raise SpecError(f"{spec}: expected random:KIND:SEEDS[:CYCLES[:ARCH]] with KIND one of "
                            f"{', '.join(generator.KINDS)}")
        cycles = _cycles(spec, parts[2]) if len(parts) >= 3 else DEFAULT_CYCLES
        _, arch, tail = _arch_tail(spec, "".join(f":{p}" for p in parts[3:]))
        out = []
        for seed in seeds(parts[1]):
            if parts[0] == "break":
                program, rule = generator.generate_break(seed, cycles, arch=arch)
                out.append(ProgramSpec(f"random:break:{seed}:{cycles}{tail}", program, seed, False, "break", rule))
            else:
                program = generator.generate(parts[0], seed, cycles, arch=arch)
                out.append(ProgramSpec(f"random:{parts[0]}:{seed}:{cycles}{tail}", program, seed, True, parts[0]))
        return out
    if kind == "kernel":
        from tensix_sfpu import kernels
        name, _, rest = rest.partition(":")
        seed_text, arch, tail = _arch_tail(spec, rest)
        seed = seeds(seed_text)[0] if seed_text else 0
        table = kernels.all_kernels(arch)
        names = list(table) if name == "*" else [name]
        for n in names:
            if n not in table:
                raise SpecError(f"no kernel {n!r} (there are {', '.join(table)})")
        out = []
        for n in names:
            program, state, _ = kernels.prepared(table[n], seed)
            out.append(ProgramSpec(f"kernel:{n}:{seed}{tail}", program, seed, table[n].strict, "kernel", dst=state.dst))
        return out
    raise SpecError("expected directed:, mutant:, macro:, example:, file:, random: or kernel:")


def absolute(spec: str) -> str:
    """`spec` with a `file:` path made absolute, so that it names the same file
    for a simulator that runs in another folder (tb.sims.runner)."""
    kind, _, rest = spec.partition(":")
    if kind != "file":
        return spec
    listing, at, dst = rest.partition("@")
    return f"file:{Path(listing).resolve()}" + (f"@{Path(dst).resolve()}" if at else "")


def resolve_all(specs: str) -> list[ProgramSpec]:
    return [p for spec in specs.split() for p in resolve(spec)]
