// Fixture kernels written for the project's tests, in the style of tt-llk's
// TTI_ kernels: each bug class the silent-effect rules catch, beside its fixed
// twin, for both architectures (fixture_both_archs.h).
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"
#include "fixture_both_archs.h"

namespace ckernel {
namespace sfpu {

inline void fixture_silent_init() { fixture_store_steps_init(); }

// dropped-write: the negation is sent to L9 (a constant register), then L9 is stored.
inline void calculate_fixture_dropped_write() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LCONST_0, 1);
        TTI_SFPSTORE(p_sfpu::LCONST_0, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}
inline void calculate_fixture_dropped_write_fixed() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 1);
        TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}

// store-from-constant: "fill with the programmable constant" straight from L12.
inline void calculate_fixture_store_constant() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPSTORE(p_sfpu::LREG12, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}
inline void calculate_fixture_store_constant_fixed() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPMOV(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}

// store-half-datum: a BF16 store where the caller's Dst holds FP32 data.
inline void calculate_fixture_store_bf16() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP16B, STORE_AM, 0);
    }
}
inline void calculate_fixture_store_bf16_fixed() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}

// clobbered-live: the init keeps a scale in L4; SFPTRANSP, meant for L0-L3, permutes L4-L7 too.
inline void fixture_scale_init() {
    fixture_silent_init();
    TTI_SFPLOADI(p_sfpu::LREG4, 0, 0x4000);    // 2.0
}
inline void calculate_fixture_transpose_scale() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPTRANSP(0, 0, 0, 0);
        TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG4, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}
inline void calculate_fixture_transpose_scale_fixed() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPTRANSP(0, 0, 0, 0);
        TTI_SFPLOADI(p_sfpu::LREG4, 0, 0x4000);    // the scale again, after the transpose
        TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG4, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}

// clobbered-live: a floor at a threshold the init keeps in L1. SFPSWAP (VEC_MIN_MAX) puts the
// max in VC, here the threshold's register, and the min in VD.
inline void fixture_threshold_init() {
    fixture_silent_init();
    TTI_SFPLOADI(p_sfpu::LREG1, 0, 0x3F00);    // 0.5
}
inline void calculate_fixture_swap_threshold() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG0, 1);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::FP32, STORE_AM, 0);  // the max, in the threshold's LReg
    }
}
inline void calculate_fixture_swap_threshold_fixed() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
        TTI_SFPMOV(0, p_sfpu::LREG1, p_sfpu::LREG2, 0);
        TTI_SFPSWAP(0, p_sfpu::LREG2, p_sfpu::LREG0, 1);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG2, InstrModLoadStore::FP32, STORE_AM, 0);
    }
}

// A STALLWAIT before a Dst reload: the macro's store of the row must land first.
inline void calculate_fixture_reload_wait() {
    TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 0);
    TTI_SFPNOP;
    TTI_STALLWAIT(p_stall::STALL_SFPU, p_stall::WAIT_SFPU);
    TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::FP32, LOAD_AM, 0);
}

// A Dst offset past the 10-bit field: the encoding keeps its low 10 bits (row 4, not 1028).
inline void calculate_fixture_wide_offset() {
    TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 1024 + 4);
    TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, STORE_AM, 0);
}
inline void calculate_fixture_wide_offset_fixed() {
    TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::FP32, LOAD_AM, 4);
    TTI_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::FP32, STORE_AM, 0);
}

}  // namespace sfpu
}  // namespace ckernel
