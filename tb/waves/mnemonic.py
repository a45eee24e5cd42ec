"""GTKWave translate filter: instruction words shown as assembly.

GTKWave starts the filter once (`sfpu-mnemonic`, `sfpu-mnemonic-blackhole` for
a Blackhole waveform, or `python -m tb.waves.mnemonic [--arch NAME]`: GTKWave
passes a filter no arguments, so a name `sfpu-mnemonic-ARCH` says the
architecture, `Arch.tagged`) and keeps it open, writing the displayed value of a trace, one per line (hex,
as the trace's format gives it), and reading one line back for each. So every
answer is flushed at once, and nothing a waveform can hold (X, Z, a word that
is no SFPU instruction) may stop the process: such values come back as hex.
The text comes from `model.asm.disassemble`, i.e. from the ISA table. A
value of at most two hex digits is an opcode field (as the Verilog backends'
waves show it) and comes back as its mnemonic.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from tensix_sfpu.model import isa
from tensix_sfpu.model.asm import disassemble


def translate(value: str, arch: isa.Arch) -> str:
    """One value as GTKWave sends it (e.g. `840C0DD0`) to the text to show."""
    text = value.strip()
    try:
        digits = text.removeprefix("0x").removeprefix("0X")
        value = int(digits, 16)
        if len(digits) <= 2:
            by_opcode = isa.ISA[arch].by_opcode
            return by_opcode[value].mnemonic if value in by_opcode else text
        return disassemble(value, arch=arch)
    except (ValueError, isa.DecodeError):
        return text


def serve(stdin: TextIO, stdout: TextIO, arch: isa.Arch) -> None:
    for line in stdin:
        stdout.write(translate(line, arch) + "\n")
        stdout.flush()


FILTER_NAME = "sfpu-mnemonic"


def invoked_arch(program: str) -> isa.Arch:
    """The architecture a filter's name says: `sfpu-mnemonic-ARCH`, or the
    default for `sfpu-mnemonic` (and `python -m`)."""
    tail = Path(program).name.removeprefix(FILTER_NAME).removeprefix("-")
    if not Path(program).name.startswith(FILTER_NAME) or not tail:
        return isa.DEFAULT_ARCH
    return isa.Arch.parse(tail)


def main(argv: list[str] | None = None) -> int:
    """`sfpu-mnemonic [--arch NAME]`; `sfpu-mnemonic-ARCH` takes the architecture from its name."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["--arch"] and len(argv) == 2:
            arch = isa.Arch.parse(argv[1])
        elif not argv:
            arch = invoked_arch(sys.argv[0])
        else:
            print(f"usage: {FILTER_NAME} [--arch {'|'.join(a.value for a in isa.Arch)}]", file=sys.stderr)
            return 2
    except ValueError as e:
        print(f"{FILTER_NAME}: {e}", file=sys.stderr)
        return 2
    try:
        serve(sys.stdin, sys.stdout, arch)
    except (BrokenPipeError, KeyboardInterrupt):     # GTKWave closed
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
