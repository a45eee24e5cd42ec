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
from tensix_sfpu.tb.llk.frontend import CALLER, VECTOR_MODES, Request, caller_setup_lines, op_file, op_phase

HARNESSES = {
    "math-isolate": "MATH_ISOLATE's TILE_LOOP: the datacopy into Dst, then the SFPU call, per tile",
    "tile-loop": "the SFPU call alone per tile (start, call, done), as with unpack-to-dest",
}

# tt-llk's two builds of the test (tests/python_tests/helpers/test_config.py). The default one keeps
# LOOP_FACTOR, TILE_CNT and num_faces as run-time values: trisc.cpp's main copies them from L1 into a
# struct on the stack and calls run_kernel (its own translation unit, built without LTO) with a reference
# to it, so the RISC-V loads them and loops on them. `--speed-of-light` makes them constexpr.
BUILDS = {
    "default": "the suite's default build: loop counts are run-time parameters, read from L1",
    "speed-of-light": "tt-llk's --speed-of-light build: every harness parameter fixed at compile time",
}


@dataclass(frozen=True)
class Settings:
    """The harness's parameters (perf_eltwise_unary_sfpu.py's defaults)."""
    harness: str = "math-isolate"
    tiles: int = 8                     # TILE_CNT
    loop_factor: int = 16              # LOOP_FACTOR
    unpack_to_dest: bool = False       # Dst written by the unpacker: no datacopy on the math thread
    build: str = "default"             # one of BUILDS

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
DEST_HALF_ROWS = 512           # tt-llk's DEST_REGISTER_HALF_SIZE (both trees): the second half's first row


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
            # ckernel_helper.h's dest_offset_id (a plain global: the Dst half in use), which every
            # set_dst_write_addr reads through get_dest_buffer_base.
            "std::uint32_t perf_dest_offset_id = 0;",
            f"inline std::uint32_t perf_dst_index(std::uint32_t tile) {{ return (tile << 6) + "
            f"(perf_dest_offset_id != 0 ? {DEST_HALF_ROWS}u : 0u); }}",
            "inline void perf_tensix_sync() {",
            "#if defined(LLK_RV32)",
            f"    volatile std::uint32_t* pc_buf = reinterpret_cast<volatile std::uint32_t*>(0x{PC_BUF_BASE:08X}u);",
            "    pc_buf[1] = 0;",
            "    std::uint32_t done = pc_buf[1];",
            '    __asm__ __volatile__("" ::"r"(done));',
            "#endif",
            "}",
            *_runtime_parameters(settings),
            f"{KERNEL_SIGNATURE[settings.build]} {{", '::llk_record::phase("caller set-up");', f'#line 1 "{CALLER}"',
            *caller_setup_lines(),
            # The datacopy's init: its ADDR_MODs (0 and 2) and its MOP.
            "addr_mod_t{.srca = {.incr = 1}, .srcb = {.incr = 0}, .dest = {.incr = 1}}.set(ADDR_MOD_0);",
            "addr_mod_t{.srca = {.incr = 8}, .srcb = {.incr = 0}, .dest = {.incr = 8}}.set(ADDR_MOD_2);",
            *([] if base else ["addr_mod_t{}.set(ADDR_MOD_3);  // Blackhole's datacopy init also zeroes slot 3"]),
            "perf_program_mop();"]
        ops = request.ops
        chain = len(ops) > 1
        if not chain and ops[0].init:       # one op: its init runs once, before the zone, as the suite's does
            lines += _init_lines(1, ops[0].init)
        loop_factor, tiles = LOOP_BOUNDS[settings.build](settings)
        lines += ['::llk_record::phase("zone start");', f'#line 20 "{CALLER}"',
                  f"for (std::uint32_t loop = 0; loop < {loop_factor}; loop++) {{",
                  f"for (std::uint32_t block = 0; block < {tiles}; block += {max_tiles_dest}u) {{",
                  f"for (std::uint32_t tile = 0; tile < {tiles} - block && tile < {max_tiles_dest}u; "
                  "tile++) {"]
        if settings.datacopy:
            lines += ["TT_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, perf_dst_index(tile));", "perf_run_mop();",
                      "math::clear_dst_reg_addr();"]
        for k, op in enumerate(ops, start=1):
            if chain:
                # A chain re-inits each op on every tile, as a compute kernel chaining ops does: an op's init
                # (`_llk_math_eltwise_unary_sfpu_init_`, then its own) may undo what an earlier op's set up.
                lines += [f'#line {60 + 10 * k} "{CALLER}"', *caller_setup_lines()[1:]]
                if op.init:
                    lines += _init_lines(k, op.init)
            lines += _sfpu_params_lines(k, op.call, request.vector_mode, base)
        lines += ["}", "}", "}", "perf_tensix_sync();", '::llk_record::phase("zone end");',
                  *KERNEL_EPILOGUE[settings.build]]
        return "\n".join(lines) + "\n"
    return write


# The default build's kernel is trisc.cpp's run_kernel: not inlined, its parameters behind a reference.
KERNEL_SIGNATURE = {"default": "__attribute__((noinline)) void perf_run_kernel(const PerfRuntimeParams& params)",
                    "speed-of-light": "int main()"}
KERNEL_EPILOGUE = {"default": ["}", "int main() {", "PerfRuntimeParams params;",
                               "params.LOOP_FACTOR = perf_runtime_args.LOOP_FACTOR;",
                               "params.num_faces = perf_runtime_args.num_faces;",
                               "params.TILE_CNT = perf_runtime_args.TILE_CNT;",
                               "perf_run_kernel(params);", "return 0;", "}"],
                   "speed-of-light": ["return 0;", "}"]}
LOOP_BOUNDS = {"default": lambda s: ("params.LOOP_FACTOR", "params.TILE_CNT"),
               "speed-of-light": lambda s: (f"{s.loop_factor}u", f"{s.tiles}u")}


def splice_macro(phase_name: str) -> str:
    """The define with which the RISC-V build leaves out a phase's SFPI code (tb/perf/measure.py puts its
    pushes in at the phase's marker): LLK_RV32_SPLICE_INIT, ..._CALL, ..._OP_2_CALL."""
    return "LLK_RV32_SPLICE_" + "_".join("".join(c if c.isalnum() else " " for c in phase_name).upper().split())


def splice_phases(request: Request) -> list[str]:
    """The phases whose code may be SFPI and is then spliced: each op's init and call."""
    return [op_phase(k, name) for k in range(1, len(request.ops) + 1) for name in ("init", "call")]


def _init_lines(k: int, init: str) -> list[str]:
    """Op k's init. SFPI code's instructions are recorded on the host only: the RISC-V build leaves it out
    with the phase's splice macro."""
    name = op_phase(k, "init")
    return [f'::llk_record::phase("{name}");', f"#ifndef {splice_macro(name)}", f'#line 1 "{op_file("--init", k)}"',
            f"{init};", "#endif", f'::llk_record::phase("{op_phase(k, "init end")}");']


def _sfpu_params_lines(k: int, call: str, vector_mode: str, base: bool) -> list[str]:
    """`_llk_math_eltwise_unary_sfpu_params_` around op k's call: start (the Dst offset, on Wormhole the
    ADDR_MOD base, the SFPU's wait for the FPU), the call per face, done."""
    name = op_phase(k, "call")
    faces, incs, tail = VECTOR_MODES[vector_mode]
    once = [f'::llk_record::phase("{name}");', f"#ifndef {splice_macro(name)}", f'#line 1 "{op_file("--call", k)}"',
            f"{call};", "#endif", f'#line {40 + 100 * (k - 1)} "{CALLER}"', f'::llk_record::phase("{op_phase(k, "call end")}");']
    body = (once + ["math::inc_dst_addr<8>(); math::inc_dst_addr<8>();"] * incs) * faces
    body += ["math::inc_dst_addr<8>(); math::inc_dst_addr<8>();"] * tail
    lines = ["TT_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, perf_dst_index(tile));"]
    if base:
        lines.append("math::set_addr_mod_base();")
    lines += ["TTI_STALLWAIT(p_stall::STALL_SFPU, p_stall::MATH);", *body,
              f'#line {50 + 100 * (k - 1)} "{CALLER}"', "math::clear_dst_reg_addr();"]
    if base:
        lines += ["TTI_STALLWAIT(p_stall::STALL_CFG, p_stall::WAIT_SFPU);", "math::clear_addr_mod_base();"]
    return lines


def _runtime_parameters(settings: Settings) -> list[str]:
    """The default build's RuntimeParams and their copy in L1, which the host fills before the run."""
    if settings.build != "default":
        return []
    return ["struct PerfRuntimeParams { std::uint32_t LOOP_FACTOR; std::uint32_t num_faces; std::uint32_t TILE_CNT; };",
            "volatile PerfRuntimeParams perf_runtime_args = "
            f"{{{settings.loop_factor}u, 4u, {settings.tiles}u}};"]
