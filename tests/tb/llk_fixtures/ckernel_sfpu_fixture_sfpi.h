// Fixture kernels in the style of tt-llk's and tt-metal's SFPI kernels,
// written for the project's tests of the recording SFPI stand-in. Each
// computes something numpy can check independently.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

// y = x * 0.75 + 0.25: one fused SFPMAD, as SFPI's compiler emits.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_axpb() {
    sfpi::vFloat a = 0.75f;
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::dst_reg[0] = x * a + 0.25f;
        sfpi::dst_reg++;
    }
}

// relu with a threshold and a default: v_if / v_elseif / v_else.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_piecewise() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::vFloat y;
        v_if (x < 0.0f) {
            y = 0.0f;
        }
        v_elseif (x >= 4.0f) {
            y = 4.0f;
        }
        v_else {
            y = x * x;
        }
        v_endif;
        sfpi::dst_reg[0] = y;
        sfpi::dst_reg++;
    }
}

// Outside the band [-1, 1] the value is negated: an || condition.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_outside_band() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        v_if (x < -1.0f || x > 1.0f) {
            x = -x;
        }
        v_endif;
        sfpi::dst_reg[0] = x;
        sfpi::dst_reg++;
    }
}

// Integer work on the exponent: 2^floor(log2|x|) for normal x, through
// exexp, setexp and a comparison on integers.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_exponent() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::vInt e = sfpi::exexp(x);
        sfpi::vFloat r = sfpi::setexp(sfpi::vFloat(1.0f), e + 127);
        v_if (e < -10) {
            r = 0.0f;
        }
        v_endif;
        sfpi::dst_reg[0] = sfpi::setsgn(r, 0);
        sfpi::dst_reg++;
    }
}

// A helper in the style of tt-llk's rounding ops: TTI_ code between an
// l_reg write and an l_reg read, writing L1 and L2 behind SFPI's back.
sfpi_inline sfpi::vFloat fixture_negate_by_tti(sfpi::vFloat val) {
    sfpi::l_reg[sfpi::LRegs::LReg0] = val;
    TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
    TTI_SFPLOADI(p_sfpu::LREG2, sfpi::SFPLOADI_MOD0_SHORT, 7);
    return sfpi::l_reg[sfpi::LRegs::LReg1];
}

// x - (-x) = 2x, with x live across the TTI_ code: it must not sit in L0-L2.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_mixed() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::dst_reg[0] = x - fixture_negate_by_tti(x);
        sfpi::dst_reg++;
    }
}

// Nine values live at once: more than the eight LRegs.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_too_many_values() {
    sfpi::vFloat x = sfpi::dst_reg[0];
    sfpi::vFloat a = x * 2.0f, b = x * 3.0f, c = x * 5.0f, e = x * 7.0f, f = x * 9.0f, g = x * 11.0f,
                 h = x * 13.0f, i = x * 17.0f;
    sfpi::dst_reg[0] = a + b + c + e + f + g + h + i + x;
}

// Nine values live at once, two of them constants: as SFPI's compiler does, the stand-in gives a
// constant's register up and loads the constant again where it is next used.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_constants_reloaded() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::vFloat k = 0.375f, m = 1.5f;
        sfpi::vFloat a = x * 2.0f, b = x * 3.0f, c = x * 5.0f, e = x * 7.0f, f = x * 9.0f, g = x * 11.0f;
        sfpi::dst_reg[0] = (a + b + c + e + f + g + x) * k + m;
        sfpi::dst_reg++;
    }
}

// A variable holding a BF16-exact constant is folded into SFPADDI / SFPMULI, as the literal is (its
// own SFPLOADI stays: the stand-in loads a constant where it is made).
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_constant_variable() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::vFloat half = 0.5f, quarter = 0.25f;
        sfpi::vFloat y = (x + quarter) * half;
        sfpi::dst_reg[0] = y - quarter;
        sfpi::dst_reg++;
    }
}

// c - a*b: the product rounded, then subtracted (two roundings), as SFPI's compiler leaves it.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_minus_product() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::dst_reg[0] = 1.0f - x * x;
        sfpi::dst_reg++;
    }
}

// Eight values live, two of them updated under v_if: `y = y + a` and `s *= 0.5f` each write
// their variable's own register (one SFPADD, one SFPMULI; no ninth register, no SFPMOV), as
// SFPI's compiler emits a predicated assignment.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_masked_in_place() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::vFloat a = x * 2.0f, b = x * 3.0f, c = x * 5.0f, e = x * 7.0f, f = x * 9.0f;
        sfpi::vFloat y = x * 11.0f, s = x * 13.0f;
        v_if (x >= 0.0f) {
            y = y + a;
            s *= 0.5f;
        }
        v_endif;
        sfpi::dst_reg[0] = a + b + c + e + f + y + s;
        sfpi::dst_reg++;
    }
}

// The larger of x and x * 0.5 - 1: the operands die at the max, so SFPSWAP works on them in place.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_max_dead() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::vFloat y = x * 0.5f - 1.0f;
        sfpi::dst_reg[0] = sfpi::max(x, y);
        sfpi::dst_reg++;
    }
}

// The same max, then the sum of x and y: both are needed after the max, so it works on copies.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_max_live() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat x = sfpi::dst_reg[0];
        sfpi::vFloat y = x * 0.5f - 1.0f;
        sfpi::vFloat m = sfpi::max(x, y);
        sfpi::dst_reg[0] = m + (x + y);
        sfpi::dst_reg++;
    }
}

}  // namespace sfpu
}  // namespace ckernel
