// A fixture for `sfpu perf`, written for the project's tests: a kernel the host
// compiler builds and the math thread's RV32 compiler does not (no 128-bit integers there).
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"

namespace ckernel {
namespace sfpu {

inline void calculate_fixture_perf_int128() {
    volatile __int128 wide = 1;
    if (wide > 0) {
        TTI_SFPNOP;
    }
}

}  // namespace sfpu
}  // namespace ckernel
