// Blackhole-only parts of tt-llk that SFPU kernels call, for the `sfpu llk`
// front end (included through the generated llk_arch.h for --arch blackhole).
#pragma once
#include <cstdint>
#include <utility>

namespace ckernel {

// SFPCAST's Mod1 values as tt-llk's Blackhole llk_defs.h names them.
enum class InstrModCast {
    INT32_TO_FP32_NEAREST_EVEN = 0,
    INT32_TO_FP32_STOCHASTIC = 1,
    INT32_2S_COMP_TO_INT_SIGN_MAGN = 2,
    INT_SIGN_MAGN_TO_INT32_2S_COMP = 3,
};
constexpr std::uint32_t operator<<(InstrModCast mod, int shift) { return static_cast<std::uint32_t>(mod) << shift; }

// Record `len` instructions into the replay buffer at `start` (issuing them too
// with Exec), the ones `callable` issues.
// tt-llk spells the flag as its own unscoped enum in namespace ckernel.
enum ExecBool : bool { NoExec, Exec };
template <ExecBool E = NoExec, typename Callable, typename... Args>
inline void load_replay_buf(std::uint32_t start, std::uint32_t len, Callable&& callable, Args&&... args) {
    lltt::record<lltt::ExecBool(E)>(start, len, __builtin_FILE(), __builtin_LINE());
    callable(std::forward<Args>(args)...);
}

// tt-llk's SFPCAST between the integer forms, followed by the SFPSETSGN its
// Blackhole code issues after it; recorded at the caller's line.
inline void apply_sign_magnitude_conversion(std::uint32_t src, std::uint32_t dst, InstrModCast cast_mode,
                                            const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::llk_record::issue("SFPCAST", TT_OP_SFPCAST(src, dst, static_cast<std::uint32_t>(cast_mode)),
                        {{"lreg_src_c", (long long)src, 16}, {"lreg_dest", (long long)dst, 4},
                         {"instr_mod1", (long long)cast_mode, 4}}, file, line);
    ::llk_record::issue("SFPSETSGN", TT_OP_SFPSETSGN(0, dst, src, 0),
                        {{"lreg_c", (long long)dst, 4}, {"lreg_dest", (long long)src, 4}}, file, line);
}

}  // namespace ckernel
