// A fixture for tests/tb/test_sweep.py: x * 0.5, compiling only after
// ckernel_sfpu_fixture_base.h (unqualified `vFloat`, `dst_reg` and FIXTURE_HALF), with a
// `static_assert(false, ...)` in a branch `if constexpr` discards.
#pragma once

namespace ckernel {
namespace sfpu {

template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_half() {
    if constexpr (ITERATIONS > 0) {
        for (int d = 0; d < ITERATIONS; d++) {
            vFloat v = dst_reg[0];
            dst_reg[0] = v * FIXTURE_HALF;
            dst_reg++;
        }
    } else {
        static_assert(false, "ITERATIONS must be positive");
    }
}

// A 6-entry LUT table in the form tt-metal's tanh_derivative_init loads one, out of order.
template <bool APPROXIMATION_MODE>
inline void fixture_lut_init() {
    sfpi::l_reg[sfpi::LRegs::LReg4] = sfpi::vLut16ii(0.0f, 0.25f);
    sfpi::l_reg[sfpi::LRegs::LReg0] = sfpi::vLut16ss(1.0f, 0.5f);
    sfpi::l_reg[sfpi::LRegs::LReg1] = sfpi::vLut16ss(0.125f, 2.0f);
    sfpi::l_reg[sfpi::LRegs::LReg5] = sfpi::vLut16ii(0.75f, 1.5f);
    sfpi::l_reg[sfpi::LRegs::LReg2] = sfpi::vLut16ss(4.0f, 0.0f);
    sfpi::l_reg[sfpi::LRegs::LReg6] = sfpi::vLut16ii(3.0f, 1.0f);
}

}  // namespace sfpu
}  // namespace ckernel
