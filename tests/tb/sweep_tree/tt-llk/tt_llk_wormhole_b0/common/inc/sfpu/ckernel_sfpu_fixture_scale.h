// A fixture kernel for tests/tb/test_sweep.py, in the style of tt-llk's TTI_ kernels:
// x * (1 + 2**-8), exact in FP32 for a BF16 x (16 significant bits), so only the
// store and the packer round it.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"

namespace ckernel {
namespace sfpu {

template <bool APPROXIMATION_MODE, bool IS_FP32_DEST_ACC_EN, int ITERATIONS = 8>
inline void calculate_fixture_scale() {
    TTI_SFPLOADI(p_sfpu::LREG1, 0, 0x3B80);   // 2**-8 as BF16
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LREG1, p_sfpu::LREG0, p_sfpu::LREG0, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
    }
}

template <bool APPROXIMATION_MODE>
inline void fixture_scale_init() {
    addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_6);
}

}  // namespace sfpu
}  // namespace ckernel
