"""GTKWave translate filter: instruction words shown as assembly.

GTKWave starts the filter once (`sfpu-mnemonic`, `sfpu-mnemonic-blackhole` for
a Blackhole waveform, or `python -m tb.waves.mnemonic [--arch NAME]`)
and keeps it open, writing the displayed value of a trace, one per line (hex,
as the trace's format gives it), and reading one line back for each. So every
answer is flushed at once, and nothing a waveform can hold (X, Z, a word that
is no SFPU instruction) may stop the process: such values come back as hex.
The text comes from `model.asm.disassemble`, i.e. from the ISA table. A
value of at most two hex digits is an opcode field (as the Verilog backends'
waves show it) and comes back as its mnemonic.
"""

from __future__ import annotations

import sys
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


def main(argv: list[str] | None = None, arch: isa.Arch | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if arch is None:
        try:
            arch = isa.Arch.parse(argv[1]) if argv[:1] == ["--arch"] and len(argv) == 2 else (
                isa.Arch.WORMHOLE if not argv else None)
        except ValueError as e:
            print(f"sfpu-mnemonic: {e}", file=sys.stderr)
            return 2
        if arch is None:
            print("usage: sfpu-mnemonic [--arch wormhole|blackhole]", file=sys.stderr)
            return 2
    try:
        serve(sys.stdin, sys.stdout, arch)
    except (BrokenPipeError, KeyboardInterrupt):     # GTKWave closed
        pass
    return 0


def main_blackhole() -> int:
    """`sfpu-mnemonic-blackhole`: GTKWave runs a filter without arguments."""
    return main([], isa.Arch.BLACKHOLE)


if __name__ == "__main__":
    sys.exit(main())
