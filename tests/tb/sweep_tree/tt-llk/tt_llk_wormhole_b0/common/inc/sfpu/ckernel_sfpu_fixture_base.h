// A fixture for tests/tb/test_sweep.py: declarations a later kernel header uses without
// including this one, as tt-llk's test dispatch lets it (a global `using namespace sfpi`,
// a constant).
#pragma once

#include "sfpi.h"

using namespace sfpi;

namespace ckernel {
namespace sfpu {
constexpr float FIXTURE_HALF = 0.5f;
}  // namespace sfpu
}  // namespace ckernel
