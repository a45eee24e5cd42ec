// A Blackhole fixture kernel in the style of tt-llk's TTI_ kernels, written for
// the project's tests: the low 23 bits of x * x for every int32 datum of a face,
// with SFPMUL24 (new in Blackhole) and the 3-bit AddrMod (ADDR_MOD_7 and _6 name
// their slots directly). No SFPNOP after the multiply: Blackhole's hardware
// stalls the dependent store.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_square_low() {
#pragma GCC unroll 0
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_7, 0);
        TTI_SFPMUL24(p_sfpu::LREG0, p_sfpu::LREG0, p_sfpu::LCONST_0, p_sfpu::LREG1, sfpi::SFPMUL24_MOD1_LOWER);
        TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::INT32, ADDR_MOD_6, 0);
    }
}

template <bool APPROXIMATION_MODE>
inline void fixture_square_low_init() {
    addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_6);
}

// Blackhole-only tt-llk helpers: a replay buffer loaded through load_replay_buf
// and played once per further row group, and the integer-form SFPCAST helper.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_to_sign_magnitude() {
    load_replay_buf<Exec>(0, 4, [] {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_7, 0);
        apply_sign_magnitude_conversion(p_sfpu::LREG0, p_sfpu::LREG1, InstrModCast::INT32_2S_COMP_TO_INT_SIGN_MAGN);
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_6, 0);
    });
    for (int d = 1; d < ITERATIONS; d++) {
        lltt::replay(0, 4);
    }
}

}  // namespace sfpu
}  // namespace ckernel
