// Fixture kernels for the SFPI stand-in's constant stores and cross-lane
// functions (subvec_transp, subvec_shflror1, subvec_shflshr1), written for the
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

// Four values back to the four row groups they came from, then on to the next four.
template <class T>
inline void fixture_store4(const T& a, const T& b, const T& c, const T& e) {
    sfpi::dst_reg[0] = a;
    sfpi::dst_reg[1] = b;
    sfpi::dst_reg[2] = c;
    sfpi::dst_reg[3] = e;
    sfpi::dst_reg += 4;
}

// Four row groups at a time (two blocks a face) transposed as SFPTRANSP does it. MODE 0: all
// lanes; 1: under v_if, only the lanes where the first row group is negative; 2: with a fifth
// value live across the transpose, which SFPTRANSP would permute too.
template <int MODE, int ITERATIONS = 2>
inline void calculate_fixture_transp() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat a = sfpi::dst_reg[0];
        sfpi::vFloat b = sfpi::dst_reg[1];
        sfpi::vFloat c = sfpi::dst_reg[2];
        sfpi::vFloat e = sfpi::dst_reg[3];
        if constexpr (MODE == 0) {
            sfpi::subvec_transp(a, b, c, e);  // all lanes
        } else if constexpr (MODE == 1) {
            v_if (a < 0.0f) {
                sfpi::subvec_transp(a, b, c, e);
            }
            v_endif;
        } else {
            sfpi::vFloat keep = a * b;
            sfpi::subvec_transp(a, b, c, e);  // keep is in L4-L7 here
            a = a + keep;
        }
        fixture_store4(a, b, c, e);
    }
}

// One value transposed with three copies of itself, as tt-llk's block_max8
// gathers a row: register i ends with row i of the value in every row.
template <int ITERATIONS = 2>
inline void calculate_fixture_transp_copies() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vUInt a = sfpi::dst_reg[0];
        sfpi::vUInt b = a, c = a, e = a;
        sfpi::subvec_transp(a, b, c, e);
        fixture_store4(a, b, c, e);
    }
}

// Each row of eight lanes rotated right by one lane; with SHIFT, plus the row
// shifted right by one lane (zero in the first). The rotation comes first, so a
// Wormhole shift without SFPI's fix would bring the rotated lanes in, not zero.
template <bool SHIFT, int ITERATIONS = 8>
inline void calculate_fixture_shfl() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat v = sfpi::dst_reg[0];
        sfpi::vFloat r = sfpi::subvec_shflror1(v);
        if constexpr (SHIFT) {
            sfpi::vFloat s = sfpi::subvec_shflshr1(v);
            r = s + r;
        }
        sfpi::dst_reg[0] = r;
        sfpi::dst_reg++;
    }
}

}  // namespace sfpu
}  // namespace ckernel
