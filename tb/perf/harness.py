"""tt-llk's perf harness around an SFPU call, as the math thread runs it.

`perf_eltwise_unary_sfpu.py` measures the math thread's TILE_LOOP zone
(tests/sources/eltwise_unary_sfpu_perf.cpp) and divides it by
LOOP_FACTOR x TILE_CNT. Per tile the math thread pushes the datacopy into
Dst (a SETC16 of the Dst offset, a MOP the expander turns into two MOVA2D -
or ELWADD with a 32-bit Dst - and a SETRWC per face, then a SETRWC), then
`_llk_math_eltwise_unary_sfpu_params_`: start (the Dst offset, on Wormhole
the ADDR_MOD base, and a STALLWAIT of the SFPU on the FPU), the call, done
(a SETRWC, and on Wormhole a STALLWAIT of configuration on the SFPU and the
ADDR_MOD base cleared). The zone ends after `tensix_sync()`, once the
coprocessor has drained. `driver` writes that as C++, one source for both
builds: the host one that records the SFPU-side listing and the RISC-V one
that times it (tb/perf/rv32.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tensix_sfpu.model import isa
from tensix_sfpu.tb.llk.frontend import CALLER, VECTOR_MODES, Request, caller_setup_lines

HARNESSES = {
    "math-isolate": "MATH_ISOLATE's TILE_LOOP: the datacopy into Dst, then the SFPU call, per tile",
    "tile-loop": "the SFPU call alone per tile (start, call, done), as with unpack-to-dest",
}


@dataclass(frozen=True)
class Settings:
    """The harness's parameters (perf_eltwise_unary_sfpu.py's defaults)."""
    harness: str = "math-isolate"
    tiles: int = 8                     # TILE_CNT
    loop_factor: int = 16              # LOOP_FACTOR
    unpack_to_dest: bool = False       # Dst written by the unpacker: no datacopy on the math thread

    @property
    def datacopy(self) -> bool:
        return self.harness == "math-isolate" and not self.unpack_to_dest

    @property
    def total_tiles(self) -> int:
        return self.tiles * self.loop_factor


# What differs in tt-llk's llk_math_eltwise_sfpu_common.h between the two trees (data, cited):
# Wormhole's start sets ADDR_MOD_SET_Base (its SFPU AddrMod is 2 bits) and its done waits for the
# SFPU with configuration blocked, then clears the base; Blackhole's does neither.
def _addr_mod_base(arch: isa.Arch) -> bool:
    return arch.features.addr_mod_bits < 3


MOP_CFG_BASE = 0xFFB80000      # TENSIX_MOP_CFG_BASE (MOPExpander.md, tt-llk's ckernel_template.h)
PC_BUF_BASE = 0xFFE80000       # tensix_sync: a store then a load at +4 (BabyRISCV/TTSync.md)
INSTRN_BUF_BASE = 0xFFE40000   # BabyRISCV/PushTensixInstruction.md


def driver(settings: Settings, fp32_dest: bool):
    """A function writing the driver's C++ for `frontend.compile_call`."""
    def write(request: Request, header_path: Path, preincluded: list[Path]) -> str:
        arch = isa.Arch(request.arch)
        base = _addr_mod_base(arch)
        max_tiles_dest = 4 if fp32_dest else 8
        # Only the opcode of the moves matters to the issue path (their unit and latency).
        copy_op = f"({isa.ELWADD if fp32_dest else isa.MOVA2D:#04x}u << 24)"
        lines = ['#include "llk_stand_in.h"'] + [f'#include "{p}"' for p in preincluded] + [
            f'#include "{header_path}"', "using namespace ckernel;", "using namespace ckernel::sfpu;",
            "using namespace sfpi;",
            # The datacopy's MOP (tt-llk's eltwise_unary_configure_mop, A2D): template 1, four faces of
            # two 8-row moves and a SETRWC handing SrcA/SrcB back. Only the RISC-V build pushes the MOP:
            # the host records what of it reaches the SFPU's issue slot, the SETRWCs.
            f"#define PERF_COPY_OP {copy_op}",
            f"#define MOP_TEMPLATE_1 ({isa.MOP:#04x}u << 24 | 1u << 23)",
            "#define PERF_SETRWC_AB TT_OP_SETRWC(p_setrwc::CLR_AB, 0, 0, 0, 0, p_setrwc::SET_AB)",
            "inline void perf_program_mop() {",
            "#if defined(LLK_RV32)",
            f"    volatile std::uint32_t* cfg = reinterpret_cast<volatile std::uint32_t*>(0x{MOP_CFG_BASE:08X}u);",
            f"    const std::uint32_t nop = {isa.NOP:#04x}u << 24;",
            "    const std::uint32_t words[9] = {4, 2, nop, PERF_SETRWC_AB, nop, PERF_COPY_OP, nop, PERF_COPY_OP,",
            "                                    PERF_COPY_OP};",
            "    for (int i = 0; i < 9; i++) cfg[i] = words[i];",
            "#endif",
            "}",
            "inline void perf_run_mop() {",
            "#if defined(LLK_RV32)",
            "    ::llk_record::push(MOP_TEMPLATE_1);   // TTI_MOP(1, 0, 0)",
            "#else",
            "    for (int face = 0; face < 4; face++) TTI_SETRWC(p_setrwc::CLR_AB, 0, 0, 0, 0, p_setrwc::SET_AB);",
            "#endif",
            "}",
            "inline void perf_tensix_sync() {",
            "#if defined(LLK_RV32)",
            f"    volatile std::uint32_t* pc_buf = reinterpret_cast<volatile std::uint32_t*>(0x{PC_BUF_BASE:08X}u);",
            "    pc_buf[1] = 0;",
            "    std::uint32_t done = pc_buf[1];",
            '    __asm__ __volatile__("" ::"r"(done));',
            "#endif",
            "}",
            "int main() {", '::llk_record::phase("caller set-up");', f'#line 1 "{CALLER}"',
            *caller_setup_lines(),
            # The datacopy's init: its ADDR_MODs (0 and 2) and its MOP.
            "addr_mod_t{.srca = {.incr = 1}, .srcb = {.incr = 0}, .dest = {.incr = 1}}.set(ADDR_MOD_0);",
            "addr_mod_t{.srca = {.incr = 8}, .srcb = {.incr = 0}, .dest = {.incr = 8}}.set(ADDR_MOD_2);",
            *([] if base else ["addr_mod_t{}.set(ADDR_MOD_3);  // Blackhole's datacopy init also zeroes slot 3"]),
            "perf_program_mop();"]
        # SFPI code's instructions are recorded on the host only: with LLK_RV32_SPLICE_INIT or _CALL the
        # RISC-V build leaves that part out, and tb/perf/measure.py puts its pushes in at the markers.
        if request.init:
            lines += ['::llk_record::phase("init");', "#ifndef LLK_RV32_SPLICE_INIT", '#line 1 "--init"',
                      f"{request.init};", "#endif", '::llk_record::phase("init end");']
        faces, incs, tail = VECTOR_MODES[request.vector_mode]
        call = ['::llk_record::phase("call");', "#ifndef LLK_RV32_SPLICE_CALL", '#line 1 "--call"', f"{request.call};",
                "#endif", f'#line 40 "{CALLER}"', '::llk_record::phase("call end");']
        per_face = call + ["math::inc_dst_addr<8>(); math::inc_dst_addr<8>();"] * incs
        body = per_face * faces + ["math::inc_dst_addr<8>(); math::inc_dst_addr<8>();"] * tail
        lines += ['::llk_record::phase("zone start");', f'#line 20 "{CALLER}"',
                  f"for (std::uint32_t loop = 0; loop < {settings.loop_factor}u; loop++) {{",
                  f"for (std::uint32_t block = 0; block < {settings.tiles}u; block += {max_tiles_dest}u) {{",
                  f"for (std::uint32_t tile = 0; tile < {settings.tiles}u - block && tile < {max_tiles_dest}u; "
                  "tile++) {"]
        if settings.datacopy:
            lines += ["TT_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, tile * 64);", "perf_run_mop();",
                      "math::clear_dst_reg_addr();"]
        lines += ["TT_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, tile * 64);"]
        if base:
            lines.append("math::set_addr_mod_base();")
        lines += ["TTI_STALLWAIT(p_stall::STALL_SFPU, p_stall::MATH);"] + body + [
            f'#line 50 "{CALLER}"', "math::clear_dst_reg_addr();"]
        if base:
            lines += ["TTI_STALLWAIT(p_stall::STALL_CFG, p_stall::WAIT_SFPU);", "math::clear_addr_mod_base();"]
        lines += ["}", "}", "}", "perf_tensix_sync();", '::llk_record::phase("zone end");', "return 0;", "}"]
        return "\n".join(lines) + "\n"
    return write
