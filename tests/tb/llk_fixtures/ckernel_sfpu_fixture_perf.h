// Fixture kernels for `sfpu perf`, written for the project's tests: one body
// pushed by the RISC-V on every iteration, the same body replayed, and two
// kernels that cannot be timed.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

// Copies a datum per lane: SFPLOAD, SFPSTORE and two SFPNOPs, pushed each iteration.
template <int ITERATIONS = 32>
inline void calculate_fixture_perf_pushed() {
#pragma GCC unroll 0
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
        TTI_SFPNOP;
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
    }
}

// The same four instructions, recorded once into the replay buffer and replayed.
template <int ITERATIONS = 32>
inline void calculate_fixture_perf_replayed() {
    lltt::record<lltt::Exec>(0, 4);
    TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
    TTI_SFPNOP;
    TTI_SFPNOP;
    TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
#pragma GCC unroll 0
    for (int d = 1; d < ITERATIONS; d++) {
        lltt::replay(0, 4);
    }
}

// The identity, as SFPI's compiler emits `dst_reg[0] = dst_reg[0]; dst_reg++;`: a load, a store and the
// Dst counter stepped by two rows.
template <int ITERATIONS = 32>
inline void calculate_fixture_perf_identity() {
#pragma GCC unroll 0
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        TTI_INCRWC(0, 2, 0, 0);
    }
}

// The same in TTI_ instructions with SFPI's dst_reg++ (as tt-llk's TTI kernels often step Dst).
template <int ITERATIONS = 32>
inline void calculate_fixture_perf_identity_dst_reg() {
#pragma GCC unroll 0
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        sfpi::dst_reg++;
    }
}

inline void fixture_perf_init() {
    addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_6);
}

}  // namespace sfpu
}  // namespace ckernel
