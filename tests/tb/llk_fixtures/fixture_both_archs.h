// For the project's fixture kernels that compile for both architectures: the
// ADDR_MOD slots tt-llk's unary SFPU kernels load and store with on each
// (Wormhole's 2-bit AddrMod with the base set, Blackhole's 3-bit slot number),
// and an init that makes the store's slot step one row group.
#pragma once

#include "ckernel.h"

namespace ckernel {
namespace sfpu {

#if defined(FIXTURE_BLACKHOLE)
constexpr std::uint32_t LOAD_AM = ADDR_MOD_7, STORE_AM = ADDR_MOD_6;
#else
constexpr std::uint32_t LOAD_AM = ADDR_MOD_3, STORE_AM = ADDR_MOD_2;
#endif

inline void fixture_store_steps_init() {
    addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_6);
}

}  // namespace sfpu
}  // namespace ckernel
