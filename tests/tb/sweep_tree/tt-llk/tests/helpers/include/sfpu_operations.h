// A fixture dispatch for tests/tb/test_sweep.py, shaped like tt-llk's test helper:
// per SfpuType an init and a call, chosen by `if constexpr` on the template arguments.
#pragma once

#include "llk_sfpu/llk_math_eltwise_unary_sfpu_macros.h"
#include "sfpu/ckernel_sfpu_fixture_scale.h"
#include "sfpu/ckernel_sfpu_fixture_base.h"
#include "sfpu/ckernel_sfpu_fixture_half.h"

namespace ckernel::sfpu
{
// A loop wrapper of the harness's own, as tt-llk's dispatch defines some.
template <bool APPROXIMATION_MODE, int ITERATIONS>
inline void calculate_fixture_wrapped()
{
    calculate_fixture_half<APPROXIMATION_MODE, ITERATIONS>();
}
} // namespace ckernel::sfpu

namespace test_utils
{

constexpr int FIXTURE_FACE_ITERATIONS = 8;

template <SfpuType OPERATION, bool APPROX_MODE, bool is_fp32_dest_acc_en, int ITERATIONS, bool FAST_MODE = false,
          bool STABLE_SORT = false, bool CLAMP_NEGATIVE = false>
void call_unary_sfpu_operation_init(std::uint32_t math_format)
{
    if constexpr (OPERATION == SfpuType::fixture_scale)
    {
        llk_math_eltwise_unary_sfpu_init<OPERATION>(fixture_scale_init<APPROX_MODE>);
    }
    else
    {
        llk_math_eltwise_unary_sfpu_init<OPERATION>();
    }
}

template <DstSync DST_SYNC_MODE, bool DST_ACCUM_MODE, SfpuType OPERATION, bool APPROX_MODE, bool is_fp32_dest_acc_en,
          int ITERATIONS, bool FAST_MODE = false, bool STABLE_SORT = false, bool CLAMP_NEGATIVE = false>
void call_unary_sfpu_operation(std::uint32_t dst_index, std::uint32_t math_format = 0, VectorMode vector_mode = VectorMode::None)
{
    if constexpr (OPERATION == SfpuType::fixture_half)
    {
        SFPU_UNARY_CALL(DST_SYNC_MODE, DST_ACCUM_MODE, calculate_fixture_half, (APPROX_MODE, ITERATIONS), dst_index, vector_mode);
    }
    else if constexpr (OPERATION == SfpuType::fixture_wrapped)
    {
        SFPU_UNARY_CALL(DST_SYNC_MODE, DST_ACCUM_MODE, calculate_fixture_wrapped, (APPROX_MODE, ITERATIONS), dst_index, vector_mode);
    }
    else if constexpr (OPERATION == SfpuType::fixture_scale && APPROX_MODE)
    {
        // per face, as a kernel hand-unrolled for 8 rows is called
        SFPU_UNARY_CALL(DST_SYNC_MODE, DST_ACCUM_MODE, calculate_fixture_scale,
                        (APPROX_MODE, is_fp32_dest_acc_en, FIXTURE_FACE_ITERATIONS), dst_index, VectorMode::RC);
    }
    else if constexpr (OPERATION == SfpuType::fixture_scale)
    {
        if (math_format == ckernel::to_underlying(DataFormat::Int32))
        {
            SFPU_UNARY_CALL(DST_SYNC_MODE, DST_ACCUM_MODE, calculate_fixture_missing, (APPROX_MODE, ITERATIONS), dst_index, vector_mode);
        }
        else
        {
#ifdef ARCH_WORMHOLE
            SFPU_UNARY_CALL(DST_SYNC_MODE, DST_ACCUM_MODE, calculate_fixture_scale, (APPROX_MODE, is_fp32_dest_acc_en, ITERATIONS), dst_index, vector_mode);
#else
            SFPU_UNARY_CALL(DST_SYNC_MODE, DST_ACCUM_MODE, calculate_fixture_blackhole_only, (APPROX_MODE, ITERATIONS), dst_index, vector_mode);
#endif
        }
    }
}

} // namespace test_utils
