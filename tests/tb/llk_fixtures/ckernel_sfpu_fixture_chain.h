// Fixture kernels for a chain of two ops on one thread, written for the
// project's tests in the style of tt-llk's TTI_ kernels: an exp-like op whose
// init keeps its coefficient in L11, then a frac-like op that, as SFPI code
// does, relies on L11 holding -1.0 (vConstNeg1). The bug is exp's, and it
// breaks only frac; the fixed exp keeps its coefficient in L12.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"
#include "fixture_both_archs.h"

namespace ckernel {
namespace sfpu {

// x * log2(e), the coefficient in a programmable constant register.
inline void fixture_exp_init() {
    fixture_store_steps_init();
    TTI_SFPLOADI(p_sfpu::LREG0, 0, 0x3FB8);                       // 1.4375
    TTI_SFPCONFIG(0, 11, 0);                                      // L11: SFPI's -1.0
}
inline void fixture_exp_init_fixed() {
    fixture_store_steps_init();
    TTI_SFPLOADI(p_sfpu::LREG0, 0, 0x3FB8);
    TTI_SFPCONFIG(0, 12, 0);                                      // L12: vConstFloatPrgm0
}
template <std::uint32_t COEFFICIENT>
inline void calculate_fixture_exp_with() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPMUL(p_sfpu::LREG0, COEFFICIENT, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}
inline void calculate_fixture_exp() { calculate_fixture_exp_with<p_sfpu::LREG11>(); }
inline void calculate_fixture_exp_fixed() { calculate_fixture_exp_with<p_sfpu::LREG12>(); }

// x - 1, as the SFPI compiler emits it: x * 1.0 + L11.
inline void fixture_frac_init() { fixture_store_steps_init(); }
inline void calculate_fixture_frac() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG11, p_sfpu::LREG0, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}

}  // namespace sfpu
}  // namespace ckernel
