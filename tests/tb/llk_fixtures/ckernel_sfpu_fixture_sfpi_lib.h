// Fixture kernels for the SFPI stand-in's constant stores, written for the
// project's tests (tests/tb/test_llk_sfpi_lib.py). Each result is one the test
// works out from the instruction pages, not from the model.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

// The programmable constants the store kernels below read.
inline void fixture_prgm_init() {
    sfpi::vConstFloatPrgm0 = 2.5f;
    sfpi::vConstIntPrgm1 = 1234567;
}

// Every row group of the face takes a constant register: WHICH 0 vConstFloatPrgm0 (L12), 1
// vConstIntPrgm1 (L13, an integer), 2 vConstNeg1 (L11, below L12).
template <int WHICH, int ITERATIONS = 8>
inline void calculate_fixture_store_constant() {
    for (int d = 0; d < ITERATIONS; d++) {
        if constexpr (WHICH == 0) {
            sfpi::dst_reg[0] = sfpi::vConstFloatPrgm0;
        } else if constexpr (WHICH == 1) {
            sfpi::dst_reg[0] = sfpi::vConstIntPrgm1;
        } else {
            sfpi::dst_reg[0] = sfpi::vConstNeg1;
        }
        sfpi::dst_reg++;
    }
}

}  // namespace sfpu
}  // namespace ckernel
