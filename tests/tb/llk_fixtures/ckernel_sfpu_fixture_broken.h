// A fixture header with a C++ error on line 7.
#pragma once
#include "ckernel.h"
namespace ckernel::sfpu {
inline void calculate_fixture_broken() {
    TTI_SFPNOP;
    this_is_not_declared(3);
}
}  // namespace ckernel::sfpu
