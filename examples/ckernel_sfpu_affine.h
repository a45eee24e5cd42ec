// An example SFPU kernel in the style of tt-llk's TTI_ kernels, written for
// this project: y = 2x + 1 on FP32 Dst. By default one SFPLOADMACRO per row
// group (the macro schedules the MAD and the store); with
// -D DISABLE_SFPLOADMACRO the same arithmetic as SFPLOAD, SFPMAD, SFPNOP,
// SFPSTORE. examples/test_my_kernel.py checks that both give the same bits.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

template <bool APPROXIMATION_MODE>
inline void affine_init() {
    addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_6);
    // L12 = 2.0 (the scale) and L13 = 1.0 (the offset), built in L0 and copied by SFPCONFIG.
    TTI_SFPLOADI(0, 0xA, 0x0000);
    TTI_SFPLOADI(0, 0x8, 0x4000);
    TTI_SFPCONFIG(0, 12, 0);
    TTI_SFPLOADI(0, 0xA, 0x0000);
    TTI_SFPLOADI(0, 0x8, 0x3F80);
    TTI_SFPCONFIG(0, 13, 0);
#ifndef DISABLE_SFPLOADMACRO
    TTI_SFPMAD(12, 0, 13, 13, 0);    // backdoor: InstructionTemplate[1] is L = L12 * L + L13
    TTI_SFPLOADI(0, 0xA, 0x8500);    // Sequence[0]: MAD runs template 1 at delay 0 on the loaded register,
    TTI_SFPLOADI(0, 0x8, 0x1300);    // Store stores the loaded register at delay 2
    TTI_SFPCONFIG(0, 4, 0);
    TTI_SFPCONFIG(0x010, 8, 1);      // Misc: macro 0 stores with its load's format; delays count cycles
#endif
}

template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_affine() {
#ifndef DISABLE_SFPLOADMACRO
    // Four registers in turn: each holds its row group until the macro's store, three cycles on.
    for (int d = 0; d < ITERATIONS; d += 4) {
        TTI_SFPLOADMACRO((0 << 2) | 0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
        TTI_SFPLOADMACRO((0 << 2) | 1, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
        TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
        TTI_SFPLOADMACRO((0 << 2) | 3, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
    }
#else
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
        TTI_SFPMAD(p_sfpu::LREG12, p_sfpu::LREG0, p_sfpu::LREG13, p_sfpu::LREG0, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
    }
#endif
}

}  // namespace sfpu
}  // namespace ckernel
