// A fixture kernel in the style of tt-metal's Wormhole reduce header, written for the
// project's tests: the FP32 column sum and mean of one 32 x 32 tile into its first row,
// adding in the order of the 0.81.1 header (four rows of a face per register, folded across
// registers, the upper and lower faces joined, then one transpose and a fold of the four
// lane rows), under the calls the kernels of kernels/ name.
#pragma once

#include <cstdint>

#include "ckernel.h"
#include "ckernel_defs.h"
#include "lltt.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

// dst = dst + other (SFPADD: a * 1.0 + c).
#define FIXTURE_ADD(dst, other) TTI_SFPADD(dst, p_sfpu::LCONST_1, other, dst, 0)

template <PoolType pool_type, ReduceDim reduce_dim, DataFormat format, bool fp32_dest>
inline void calculate_reduce(std::uint32_t block_ct_dim = 1, std::uint32_t block_rt_dim = 1) {
    static_assert(reduce_dim == ReduceDim::REDUCE_COL && (pool_type == PoolType::SUM || pool_type == PoolType::AVG),
                  "the fixture has the column sum and mean only");
    for (std::uint32_t pass = 0; pass < 4; pass++) {
        const std::uint32_t upper = (pass / 2) * 16 + (pass % 2) * 2;   // face 0 or 1, even or odd columns
        const std::uint32_t lower = upper + 32;                           // face 2 or 3
        for (std::uint32_t k = 0; k < 4; k++) {
            TT_SFPLOAD(k, InstrModLoadStore::DEFAULT, ADDR_MOD_3, upper + 4 * k);
            TT_SFPLOAD(4 + k, InstrModLoadStore::DEFAULT, ADDR_MOD_3, lower + 4 * k);
        }
        lltt::replay(0, 6);          // L0 = r0 + (r1 + (r2 + r3)), L4 likewise
        TTI_SFPNOP;
        FIXTURE_ADD(p_sfpu::LREG0, p_sfpu::LREG4);
        TTI_SFPNOP;
        TTI_SFPTRANSP(0, 0, 0, 0);   // lane row j of L0 to lane row 0 of Lj
        FIXTURE_ADD(p_sfpu::LREG2, p_sfpu::LREG3);
        FIXTURE_ADD(p_sfpu::LREG0, p_sfpu::LREG1);
        TTI_SFPNOP;
        FIXTURE_ADD(p_sfpu::LREG0, p_sfpu::LREG2);
        TTI_SFPNOP;
        if constexpr (pool_type == PoolType::AVG) {
            TTI_SFPMUL(p_sfpu::LREG0, p_sfpu::LREG12, p_sfpu::LCONST_0, p_sfpu::LREG0, 0);
            TTI_SFPNOP;
        }
        TT_SFPSTORE(p_sfpu::LREG0, InstrModLoadStore::DEFAULT, ADDR_MOD_3, upper);
    }
}

template <PoolType pool_type, DataFormat format, bool fp32_dest>
inline void init_reduce(std::uint32_t block_ct_dim = 1) {
    if constexpr (pool_type == PoolType::AVG) {
        sfpi::vConstFloatPrgm0 = 0.03125f;
    }
    // The two faces' folds interleaved, so that no add reads the one before it.
    lltt::record(0, 6);
    FIXTURE_ADD(p_sfpu::LREG2, p_sfpu::LREG3);
    FIXTURE_ADD(p_sfpu::LREG6, p_sfpu::LREG7);
    FIXTURE_ADD(p_sfpu::LREG1, p_sfpu::LREG2);
    FIXTURE_ADD(p_sfpu::LREG5, p_sfpu::LREG6);
    FIXTURE_ADD(p_sfpu::LREG0, p_sfpu::LREG1);
    FIXTURE_ADD(p_sfpu::LREG4, p_sfpu::LREG5);
}

#undef FIXTURE_ADD

}  // namespace sfpu
}  // namespace ckernel
