// Fixture kernels in the style of tt-metal's Wormhole typecast header, written for the
// project's tests. They give the results the 0.81.1 headers give, under the calls the
// kernels of kernels/ name: a uint16 stored with the LO16 mode (the high half of the
// 32-bit Dst datum), a BF16 rounding kept as FP32 in 32-bit Dst, and uint32 -> FP32 with
// one rounding. Only int32 -> uint16 has an SFPLOADMACRO path here.
#pragma once

#include <cstdint>

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

// SFPSTORE Mod0 9 (LO16): the LReg rotated by 16 is written as the raw Dst32b datum.
constexpr std::uint32_t FIXTURE_STORE_ROTATED = 9;

inline void fixture_typecast_caller_setup() {
    addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_6);
    math::reset_counters(p_setrwc::SET_ABD_F);
}

// int32 -> uint16, clamped to 0..65535: cast (the word read as sign-magnitude, so every
// negative int32 becomes a negative float), max with 0.0, round to uint16 (which saturates).
template <bool APPROXIMATION_MODE, int ITERATIONS>
inline void calculate_typecast_int32_to_uint16() {
#ifdef DISABLE_SFPLOADMACRO
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
        TTI_SFPCAST(p_sfpu::LREG0, p_sfpu::LREG0, 0);
        TTI_SFPSWAP(0, p_sfpu::LCONST_0, p_sfpu::LREG0, 9);
        TTI_SFP_STOCH_RND(0, 0, 0, p_sfpu::LREG0, p_sfpu::LREG0, sfpi::SFPSTOCHRND_MOD1_FP32_TO_UINT16);
        TTI_SFPSTORE(p_sfpu::LREG0, FIXTURE_STORE_ROTATED, ADDR_MOD_2, 0);
    }
#else
    // The macro loads into L0 or L1 and schedules max (Simple), the round into L16 and the
    // store of L16 in the macro's store mode; the thread casts in between.
#pragma GCC unroll 8
    for (int d = 0; d < ITERATIONS; d++) {
        const int v = d & 1;
        TT_SFPLOADMACRO(v, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
        TT_SFPCAST(v, v, 0);
        TTI_SFPNOP;
    }
    TTI_SFPNOP;
    TTI_SFPNOP;
    TTI_SFPNOP;
#endif
}

template <bool APPROXIMATION_MODE>
inline void init_typecast_int32_to_uint16() {
    fixture_typecast_caller_setup();
#ifndef DISABLE_SFPLOADMACRO
    TTI_SFPSWAP(0, p_sfpu::LCONST_0, 12, 0xf);                                       // template 0: max(0, v)
    TTI_SFP_STOCH_RND(0, 0, 0, 0, 13, sfpi::SFPSTOCHRND_MOD1_FP32_TO_UINT16);        // template 1
    // Macro 0's sequence bytes: Simple runs template 0 one cycle after the load, on VD;
    // Round runs template 1 three cycles after, into L16; Store stores L16 a cycle later.
    constexpr std::uint32_t simple = 0x80 | (1 << 3) | 4;
    constexpr std::uint32_t round = 0x40 | (3 << 3) | 5;
    constexpr std::uint32_t store = 0x40 | (4 << 3) | 3;
    TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_LOWER, simple);
    TTI_SFPLOADI(0, sfpi::SFPLOADI_MOD0_UPPER, (store << 8) | round);
    TTI_SFPCONFIG(0, 4, 0);
    // Misc: the macro's store in the LO16 mode, delays counted in issued instructions.
    TTI_SFPCONFIG(0x100 | FIXTURE_STORE_ROTATED, 8, 1);
#endif
}

// FP32 -> BF16, to nearest, ties to even, by integer addition on the bit pattern; the
// result stays in 32-bit Dst as FP32 with the low half cleared.
template <bool APPROXIMATION_MODE, int ITERATIONS>
inline void calculate_typecast_fp32_to_fp16b() {
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG1, InstrModLoadStore::DEFAULT, ADDR_MOD_3, 0);
        TTI_SFPMOV(0, p_sfpu::LREG1, p_sfpu::LREG0, 0);
        TTI_SFPSHFT((-16) & 0xFFF, 0, p_sfpu::LREG0, 1);                            // the lowest kept bit
        TTI_SFPAND(0, p_sfpu::LREG12, p_sfpu::LREG0, 0);
        TTI_SFPIADD(0, p_sfpu::LREG13, p_sfpu::LREG1, sfpi::SFPIADD_MOD1_CC_NONE);  // + 0x7FFF
        TTI_SFPIADD(0, p_sfpu::LREG0, p_sfpu::LREG1, sfpi::SFPIADD_MOD1_CC_NONE);   // + that bit
        TTI_SFPAND(0, p_sfpu::LREG14, p_sfpu::LREG1, 0);                            // & 0xFFFF0000
        TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
    }
}

template <bool APPROXIMATION_MODE>
inline void init_typecast_fp32_to_fp16b() {
    fixture_typecast_caller_setup();
    sfpi::vConstIntPrgm0 = 1;
    sfpi::vConstIntPrgm1 = 0x7fff;
    sfpi::vConstIntPrgm2 = 0xffff0000;
}

// uint32 -> FP32 with one rounding: x = h * 2^23 + l, with h - 1 and 2^23 + l exact in FP32,
// then (h - 1) * 2^23 + (2^23 + l) in one MAD.
template <bool APPROXIMATION_MODE, int ITERATIONS>
inline void calculate_typecast_uint32_to_fp32() {
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
        TTI_SFPMOV(0, p_sfpu::LREG0, p_sfpu::LREG1, 0);
        TTI_SFPSHFT((-23) & 0xFFF, 0, p_sfpu::LREG0, 1);           // h
        TTI_SFPCAST(p_sfpu::LREG0, p_sfpu::LREG0, 0);
        TTI_SFPADDI(0xbf80, p_sfpu::LREG0, 0);                      // h - 1.0
        TTI_SFPSETMAN(0, p_sfpu::LREG13, p_sfpu::LREG1, 0);         // 2^23 with l as its mantissa
        TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LREG13, p_sfpu::LREG1, p_sfpu::LREG1, 0);
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG1, InstrModLoadStore::FP32, ADDR_MOD_2, 0);
    }
}

template <bool APPROXIMATION_MODE>
inline void init_typecast_uint32_to_fp32() {
    fixture_typecast_caller_setup();
    sfpi::vConstFloatPrgm1 = 8388608.0f;
}

}  // namespace sfpu
}  // namespace ckernel
