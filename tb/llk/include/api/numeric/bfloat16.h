// Stand-in of tt-metal's api/numeric/bfloat16.h for the `sfpu llk` front end.
#pragma once
#include <cstdint>
#include <cstring>

#include "llk_stand_in.h"

// A float's bit pattern as two 16-bit halves, for SFPLOADI's 16-bit immediates.
struct FloatBits {
    std::uint16_t high16;
    std::uint16_t low16;
    explicit FloatBits(float value) {
        std::uint32_t word;
        std::memcpy(&word, &value, sizeof word);
        high16 = static_cast<std::uint16_t>(word >> 16);
        low16 = static_cast<std::uint16_t>(word & 0xFFFF);
    }
};
