// A fixture kernel in the style of tt-llk's TTI_ kernels, written for the
// project's tests: adds 1.0 to every FP32 datum of a face.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_add_one() {
#pragma GCC unroll 0
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32,
                    ADDR_MOD_3, 0);
        TTI_SFPADD(p_sfpu::LCONST_1, p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG0, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
    }
}

template <bool APPROXIMATION_MODE>
inline void fixture_add_one_init() {
    addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_6);
}

// The same kernel with the SFPNOP left out: SFPSTORE reads the SFPADD result too early.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_add_one_hazard() {
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
        TTI_SFPADD(p_sfpu::LCONST_1, p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG0, 0);
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
    }
}

// Loads in the caller's Dst format (DEFAULT): needs the caller's Fp32 Dst mode.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_copy_default() {
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_2, 0);
    }
}

// SFPI code with a library function the stand-in does not model: it compiles,
// and stops the run where it is called.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_sfpi() {
    for (int d = 0; d < ITERATIONS; d++) {
        sfpi::vFloat v = sfpi::dst_reg[0];
        sfpi::vUInt table = 0;
        sfpi::dst_reg[0] = sfpi::lut2(v, table, table, table);
        sfpi::dst_reg++;
    }
}

// Reads a count its caller left in L1, through the L1 address it is given: one SFPNOP per unit.
inline void calculate_fixture_l1_count(uint count_addr) {
    volatile tt_l1_ptr std::uint8_t* count = reinterpret_cast<volatile tt_l1_ptr std::uint8_t*>(count_addr);
    for (std::uint8_t i = 0; i < count[4]; i++) {
        TTI_SFPNOP;
    }
}

// An argument that does not fit its field.
inline void calculate_fixture_bad_register() {
    TTI_SFPMOV(0, 17, p_sfpu::LREG0, 0);
}

// A Tensix NOP between two SFPU instructions: one issue cycle with nothing for the SFPU.
inline void calculate_fixture_tensix_nop() {
    TTI_SFPLOADI(p_sfpu::LREG1, 2, 7);
    TTI_NOP;
    TTI_SFPNOP;
}

// A configuration write the model does not have.
inline void calculate_fixture_wrcfg() {
    TTI_WRCFG(0, 0, 0);
}

// A replay: one row group recorded while it runs, then replayed seven times.
template <bool APPROXIMATION_MODE>
inline void calculate_fixture_replay() {
    lltt::record<lltt::Exec>(0, 4);
    TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_3, 0);
    TTI_SFPADD(p_sfpu::LCONST_1, p_sfpu::LREG0, p_sfpu::LCONST_1, p_sfpu::LREG0, 0);
    TTI_SFPNOP;
    TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
    for (int d = 1; d < 8; d++) {
        lltt::replay(0, 4);
    }
}

// Sets a programmable constant the SFPI way, then uses it with TTI_ instructions.
template <bool APPROXIMATION_MODE>
inline void fixture_constant_init() {
    sfpi::vConstFloatPrgm0 = 3.0f;
}

}  // namespace sfpu
}  // namespace ckernel
