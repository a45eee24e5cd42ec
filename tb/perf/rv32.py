"""Build a kernel driver for the math thread's baby RISC-V (RV32IM).

The same driver source and stand-in headers as the host build of `sfpu llk`
(tb/llk/frontend.py), compiled with `-DLLK_RV32`: a `TTI_` instruction is
then the documented `.ttinsn` word and a `TT_` one a store to
INSTRN_BUF_BASE (tb/llk/include/llk_record.h). The compiler is Debian's
bare-metal GCC (`gcc-riscv64-unknown-elf`, with its rv32im/ilp32 libgcc),
given the C++ library headers of Debian's riscv64 cross packages: only
their header-only parts are used, and `tb/perf/rv32_runtime.cpp` provides
start-up and the few C functions the stand-ins' host-only paths name.
tt-llk's own harness builds with SFPI's GCC 15 at -O3; docs/perf.md says
what that difference may cost.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tensix_sfpu.tb.llk.frontend import LlkError, Request, compile_with, prepare

from .harness import INSTRN_BUF_BASE

COMPILER = "riscv64-unknown-elf-g++"
CXX_HEADERS = Path("/usr/riscv64-linux-gnu/include/c++/12")
C_HEADERS = Path("/usr/riscv64-linux-gnu/include")
PACKAGES = "gcc-riscv64-unknown-elf libstdc++-12-dev-riscv64-cross libc6-dev-riscv64-cross"
RUNTIME = Path(__file__).resolve().parent / "rv32_runtime.cpp"
TEXT_BASE = 0x1000
# tt-llk's harness flags (tests/python_tests/helpers/test_config.py) that GCC 12 also has.
FLAGS = ["-std=gnu++17", "-march=rv32im", "-mabi=ilp32", "-O3", "-g", "-ffreestanding", "-fno-exceptions",
         "-fno-rtti", "-fno-threadsafe-statics", "-fno-use-cxa-atexit", "-ffast-math", "-fno-finite-math-only",
         "-fsigned-zeros", "-fno-associative-math", "-nostdlib", "-w", "-fmax-errors=5"]


def missing() -> str | None:
    """What is missing to build for the RISC-V, with the command that installs it; None if nothing."""
    if shutil.which(COMPILER) is None or not (CXX_HEADERS / "type_traits").is_file() \
            or not (C_HEADERS / "stdint.h").is_file():
        return f"the RV32 cross compiler is not installed (Debian: apt-get install {PACKAGES})"
    return None


def build(request: Request, work: Path, driver, defines: tuple[str, ...] = ()) -> tuple[Path, dict[Path, Path]]:
    """The driver compiled and linked for the math thread's RISC-V (with `defines`, each NAME or
    NAME=VALUE): the ELF's path, and the kernel folders' shadow copies (for naming the C++ lines of errors)."""
    problem = missing()
    if problem:
        raise LlkError(problem)
    source, flags, shadows = prepare(request, work, driver)
    # glibc's headers name a stub file per ABI; the riscv64 packages have only the 64-bit ones.
    stubs = work / "rv32-stubs" / "gnu"
    stubs.mkdir(parents=True, exist_ok=True)
    (stubs / "stubs-ilp32.h").write_text("/* rv32 ilp32: no stubs */\n")
    elf = work / "driver.elf"
    command = [COMPILER, *FLAGS, "-DLLK_RV32",
               *(f"-D{d}" for d in defines), *flags,
               "-isystem", str(CXX_HEADERS), "-isystem", str(CXX_HEADERS / "riscv64-linux-gnu"),
               "-isystem", str(work / "rv32-stubs"), "-isystem", str(C_HEADERS),
               f"-Wl,-Ttext=0x{TEXT_BASE:X}", f"-Wl,--defsym=llk_rv32_instrn_buffer=0x{INSTRN_BUF_BASE:08X}", "-Wl,-e,_start", str(source), str(RUNTIME), "-lgcc", "-o", str(elf)]
    compile_with(command, str(request.header), work, shadows, target="RV32, for the math thread's RISC-V")
    return elf, shadows
