"""GTKWave translate filter: instruction words shown as assembly.

GTKWave starts the filter once (`sfpu-mnemonic`, or `python -m tb.waves.mnemonic`)
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

from model import isa
from model.asm import disassemble


def translate(value: str) -> str:
    """One value as GTKWave sends it (e.g. `840C0DD0`) to the text to show."""
    text = value.strip()
    try:
        digits = text.removeprefix("0x").removeprefix("0X")
        value = int(digits, 16)
        if len(digits) <= 2:
            return isa.BY_OPCODE[value].mnemonic if value in isa.BY_OPCODE else text
        return disassemble(value)
    except (ValueError, isa.DecodeError):
        return text


def serve(stdin: TextIO, stdout: TextIO) -> None:
    for line in stdin:
        stdout.write(translate(line) + "\n")
        stdout.flush()


def main() -> int:
    try:
        serve(sys.stdin, sys.stdout)
    except (BrokenPipeError, KeyboardInterrupt):     # GTKWave closed
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
