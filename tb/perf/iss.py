"""Run a driver built for the baby RISC-V on an instruction-set simulator.

Unicorn (QEMU's RV32 core, from PyPI) executes the ELF; per-instruction and
memory hooks record what the timing needs (`model.issue_path.RvInstr`):
each retired instruction's kind and registers, whether a branch was taken,
every push into the instruction FIFO (a `.ttinsn` word or a store to
INSTRN_BUF_BASE), the MOP configuration when a MOP is pushed, TTSync loads,
and the front end's marker stores. The timing itself is the issue path's
(model/issue_path.py); the functions of tb/perf/rv32_runtime.cpp are not
recorded.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from elftools.elf.elffile import ELFFile
from unicorn import (UC_ARCH_RISCV, UC_HOOK_CODE, UC_HOOK_MEM_INVALID, UC_HOOK_MEM_READ, UC_HOOK_MEM_WRITE,
                     UC_MODE_RISCV32, Uc, UcError)
from unicorn.riscv_const import UC_RISCV_REG_PC, UC_RISCV_REG_X0

from tensix_sfpu.model import isa
from tensix_sfpu.model.issue_path import RvInstr, RvKind

from .harness import INSTRN_BUF_BASE, MOP_CFG_BASE, PC_BUF_BASE

RAM_SIZE = 1 << 20                 # code, data and stack at 0 (the stack starts below 0xFFFF0)
MMIO_PAGES = (0xFFB00000, 0xFFE00000, 0xFFFFF000)   # MOP config; instruction buffer and PC buffer; markers
MMIO_SIZES = (0x100000, 0x100000, 0x1000)
MARKS = {0xFFFFFFFC: "phase", 0xFFFFFFF8: "directive", 0xFFFFFFF4: "stop"}   # llk_record.h's MARK_* offsets
RISCV_NOP = 0x00000013
RUNTIME_FUNCTIONS = {"__cxa_atexit", "memset", "memcpy", "memmove", "strlen", "snprintf", "printf", "fprintf",
                     "fflush", "fopen", "fclose", "getenv", "exit", "abort", "llk_rv32_start", "_start",
                     "_Znwj", "_Znaj", "_ZdlPv", "_ZdlPvj", "_ZdaPv", "_ZdaPvj"}
MAX_INSTRUCTIONS = 5_000_000


@dataclass
class LineTable:
    """The C++ file:line of a code address, from the ELF's DWARF line program."""
    addresses: list[int] = field(default_factory=list)
    places: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, elf: ELFFile) -> "LineTable":
        rows: list[tuple[int, str]] = []
        if elf.has_dwarf_info():
            dwarf = elf.get_dwarf_info()
            for cu in dwarf.iter_CUs():
                program = dwarf.line_program_for_CU(cu)
                if program is None:
                    continue
                files = program["file_entry"]
                dirs = program["include_directory"]
                version = program.header["version"]
                for entry in program.get_entries():
                    state = entry.state
                    if state is None or state.end_sequence:
                        continue
                    index = state.file if version >= 5 else state.file - 1
                    if not 0 <= index < len(files):
                        continue
                    f = files[index]
                    name = f.name.decode(errors="replace")
                    d = f.dir_index if version >= 5 else f.dir_index - 1
                    if not name.startswith("/") and 0 <= d < len(dirs) and f.dir_index:
                        name = f"{dirs[d].decode(errors='replace')}/{name}"
                    rows.append((state.address, f"{name}:{state.line}"))
        rows.sort()
        return cls([a for a, _ in rows], [p for _, p in rows])

    def at(self, address: int) -> str:
        i = bisect.bisect_right(self.addresses, address) - 1
        return self.places[i] if i >= 0 else f"0x{address:08X}"


@dataclass
class RvRun:
    instrs: list[RvInstr]
    lines: LineTable
    executed: int                      # every instruction the simulator ran, the runtime's included

    def where(self, index: int) -> str:
        return self.lines.at(self.instrs[index].pc)


class IssError(Exception):
    """The driver did something the simulated RISC-V cannot take; the message names the C++ line."""


# RV32IM major opcodes (the RISC-V unprivileged spec's table, in its binary spelling).
OP, OP_IMM, LUI, AUIPC, LOAD, STORE = 0b0110011, 0b0010011, 0b0110111, 0b0010111, 0b0000011, 0b0100011
BRANCH, JAL, JALR, MISC_MEM, SYSTEM = 0b1100011, 0b1101111, 0b1100111, 0b0001111, 0b1110011
MULDIV = 0b0000001           # funct7 of the M extension


def _decode(word: int) -> tuple[RvKind, int, tuple[int, ...]]:
    """The kind, destination and source registers of an RV32IM instruction word."""
    opcode, rd, rs1, rs2 = word & 0x7F, (word >> 7) & 31, (word >> 15) & 31, (word >> 20) & 31
    funct3, funct7 = (word >> 12) & 7, word >> 25
    if opcode == OP and funct7 == MULDIV:
        return (RvKind.MUL if funct3 < 4 else RvKind.DIV), rd, (rs1, rs2)
    if opcode == OP:
        return RvKind.ALU, rd, (rs1, rs2)
    if opcode in (OP_IMM, SYSTEM):
        return RvKind.ALU, rd, (rs1,)
    if opcode in (LUI, AUIPC):
        return RvKind.ALU, rd, ()
    if opcode == LOAD:
        return RvKind.LOAD, rd, (rs1,)
    if opcode == STORE:
        return RvKind.STORE, 0, (rs1, rs2)
    if opcode == BRANCH:
        return RvKind.BRANCH, 0, (rs1, rs2)
    if opcode == JAL:
        return RvKind.JAL, rd, ()
    if opcode == JALR:
        return RvKind.JALR, rd, (rs1,)
    return RvKind.ALU, 0, ()      # MISC_MEM (fence: a no-op on Wormhole) and anything else


def _snapshot(cfg: list) -> tuple[int, ...]:
    """MopCfg as a MOP pushed now would find it; empty until all nine words were written."""
    return () if None in cfg else tuple(cfg)


def _div_cycles(dividend: int, divisor: int) -> int:
    """BabyRISCV/README.md: 2 cycles for a divisor of 0 or 1 (and INT_MIN / -1), else 6 to 33 by
    the dividend's size; one cycle per significant bit is assumed (docs/perf.md)."""
    if divisor in (0, 1) or (dividend == 0x80000000 and divisor == 0xFFFFFFFF):
        return 2
    magnitude = dividend if dividend < 0x80000000 else (1 << 32) - dividend
    return max(6, min(33, 1 + magnitude.bit_length()))


def run(elf_path: Path, max_instructions: int = MAX_INSTRUCTIONS) -> RvRun:
    with open(elf_path, "rb") as f:
        elf = ELFFile(f)
        lines = LineTable.of(elf)
        uc = Uc(UC_ARCH_RISCV, UC_MODE_RISCV32)
        uc.mem_map(0, RAM_SIZE)
        for base, size in zip(MMIO_PAGES, MMIO_SIZES):
            uc.mem_map(base, size)
        for segment in elf.iter_segments():
            if segment["p_type"] == "PT_LOAD":
                if segment["p_vaddr"] + segment["p_memsz"] > RAM_SIZE:
                    raise IssError(f"{elf_path}: the driver does not fit the {RAM_SIZE >> 10} KiB the simulator maps")
                uc.mem_write(segment["p_vaddr"], segment.data())
        ttinsn: dict[int, int] = {}
        code: list[tuple[int, int]] = []
        for section in elf.iter_sections():
            if section["sh_flags"] & 0x4 and section["sh_size"]:      # SHF_EXECINSTR
                data, base = section.data(), section["sh_addr"]
                code.append((base, base + len(data)))
                for offset in range(0, len(data) - 3, 4):
                    w = int.from_bytes(data[offset:offset + 4], "little")
                    if w & 3 != 3:          # not a 32-bit RISC-V encoding: a .ttinsn (PushTensixInstruction.md)
                        ttinsn[base + offset] = ((w >> 2) | (w << 30)) & 0xFFFFFFFF
                        uc.mem_write(base + offset, RISCV_NOP.to_bytes(4, "little"))
        symbols = elf.get_section_by_name(".symtab")
        free: list[tuple[int, int]] = []
        entry = elf["e_entry"]
        stop_at = main_at = None
        for s in symbols.iter_symbols() if symbols else ():
            if s.name == "main":
                main_at = s["st_value"]
            if s.name in RUNTIME_FUNCTIONS and s["st_info"]["type"] == "STT_FUNC":
                free.append((s["st_value"], s["st_value"] + max(4, s["st_size"])))
            if s.name == "_start":
                stop_at = s["st_value"] + s["st_size"] - 4      # its ebreak
    if stop_at is None or main_at is None:
        raise IssError(f"{elf_path}: no _start or main (not built by tb/perf/rv32.py)")

    pcs: list[int] = []
    effects: dict[int, tuple] = {}             # index into pcs -> what it did besides computing
    decoded: dict[int, tuple[RvKind, int, tuple[int, ...]]] = {}
    div_cycles: dict[int, int] = {}
    mop_cfg = [None] * 9
    in_free = [False]
    started = [False]                          # main reached: start-up (global constructors) is not timed
    problem: list[str] = []

    def is_free(pc: int) -> bool:
        if not started[0]:
            started[0] = pc == main_at
            if not started[0]:
                return True
        return any(a <= pc < b for a, b in free)

    def on_code(uc, pc, size, _):
        if len(pcs) >= max_instructions:
            problem.append(f"the kernel's C++ ran {max_instructions:,} RISC-V instructions without returning "
                           f"(last at {lines.at(pc)}): a loop that never ends?")
            uc.emu_stop()
            return
        free_now = is_free(pc)
        in_free[0] = free_now
        if free_now:
            return
        pcs.append(pc)
        kind = decoded.get(pc)
        if kind is None:
            word = int.from_bytes(uc.mem_read(pc, 4), "little")
            kind = decoded[pc] = _decode(word)
        word = ttinsn.get(pc)
        if word is not None and isa.opcode_of(word) == isa.MOP:
            effects[len(pcs) - 1] = ("cfg", _snapshot(mop_cfg))
        if kind[0] is RvKind.DIV:
            regs = [uc.reg_read(UC_RISCV_REG_X0 + r) if r else 0 for r in kind[2]]
            div_cycles[len(pcs) - 1] = _div_cycles(regs[0], regs[1])

    def on_write(uc, access, address, size, value, _):
        if in_free[0]:
            return
        index = len(pcs) - 1
        value &= 0xFFFFFFFF
        if address in MARKS:
            effects[index] = ("mark", MARKS[address])
        elif INSTRN_BUF_BASE <= address < INSTRN_BUF_BASE + 0x10000:
            if address != INSTRN_BUF_BASE or size != 4:
                problem.append(f"{lines.at(pcs[index])}: a {size}-byte store to 0x{address:08X}: the math thread "
                               f"pushes instructions with 4-byte stores to INSTRN_BUF_BASE (0x{INSTRN_BUF_BASE:08X}) "
                               "only (PushTensixInstruction.md)")
                uc.emu_stop()
                return
            effects[index] = ("push", value, _snapshot(mop_cfg) if isa.opcode_of(value) == isa.MOP else ())
        elif MOP_CFG_BASE <= address < MOP_CFG_BASE + 36:
            mop_cfg[(address - MOP_CFG_BASE) // 4] = value
        elif PC_BUF_BASE <= address < PC_BUF_BASE + 0x1000:
            pass                                # tensix_sync's store orders earlier pushes before its load
        elif address >= RAM_SIZE:
            problem.append(f"{lines.at(pcs[index])}: a store to 0x{address:08X}, a register the model does not have")
            uc.emu_stop()

    def on_read(uc, access, address, size, value, _):
        if in_free[0] or address < RAM_SIZE:
            return
        index = len(pcs) - 1
        effects[index] = ("sync",) if address == PC_BUF_BASE + 4 else ("mmio",)

    def on_invalid(uc, access, address, size, value, _):
        pc = uc.reg_read(UC_RISCV_REG_PC)
        problem.append(f"{lines.at(pc)}: an access to 0x{address:08X}, which is not mapped (the kernel read or "
                       "wrote memory its caller would provide?)")
        return False

    text_lo = min(a for a, _ in code)
    text_hi = max(b for _, b in code)
    uc.hook_add(UC_HOOK_CODE, on_code, begin=text_lo, end=text_hi)
    uc.hook_add(UC_HOOK_MEM_WRITE, on_write)
    uc.hook_add(UC_HOOK_MEM_READ, on_read, begin=0xFFB00000, end=0xFFFFFFFF)
    uc.hook_add(UC_HOOK_MEM_INVALID, on_invalid)
    try:
        uc.emu_start(entry, stop_at)
    except UcError as e:
        if not problem:
            pc = uc.reg_read(UC_RISCV_REG_PC)
            problem.append(f"{lines.at(pc)}: the RISC-V stopped: {e}")
    if problem:
        raise IssError(problem[0])

    instrs: list[RvInstr] = []
    for i, pc in enumerate(pcs):
        kind, rd, rs = decoded[pc]
        effect = effects.get(i)
        nxt = pcs[i + 1] if i + 1 < len(pcs) else pc + 4
        if pc in ttinsn:
            instrs.append(RvInstr(pc, RvKind.PUSH, words=(ttinsn[pc],), ttinsn=True,
                                  mop_cfg=effect[1] if effect is not None else ()))
            continue
        if effect is not None and effect[0] == "push":
            instrs.append(RvInstr(pc, RvKind.PUSH, rs=rs, words=(effect[1],), mop_cfg=effect[2]))
        elif effect is not None and effect[0] == "mark":
            instrs.append(RvInstr(pc, RvKind.MARK, words=(effect[1],)))
        elif effect is not None and effect[0] == "sync":
            instrs.append(RvInstr(pc, RvKind.SYNC, rd, rs))
        elif kind is RvKind.LOAD:
            instrs.append(RvInstr(pc, kind, rd, rs, mmio=effect is not None))
        elif kind is RvKind.BRANCH:
            instrs.append(RvInstr(pc, kind, rd, rs, taken=nxt != pc + 4))
        elif kind is RvKind.JALR:
            instrs.append(RvInstr(pc, kind, rd, rs, target=nxt))
        elif kind is RvKind.DIV:
            instrs.append(RvInstr(pc, kind, rd, rs, div_cycles=div_cycles[i]))
        else:
            instrs.append(RvInstr(pc, kind, rd, rs))
    return RvRun(instrs, lines, len(pcs))
