// Fixture kernels for `sfpu race`, written for the project's tests in the
// style of tt-llk's TTI_ kernels. The init programs one macro: Simple runs
// InstructionTemplate[0] (VD = VC + 1) two cycles after the load (cycle-kind
// delay 2), in the register the SFPLOADMACRO loaded.
#pragma once

#include "ckernel.h"
#include "ckernel_defs.h"
#include "sfpi.h"

namespace ckernel {
namespace sfpu {

template <bool APPROXIMATION_MODE>
inline void fixture_macro_race_init() {
    addr_mod_t{.srca = {.incr = 0}, .srcb = {.incr = 0}, .dest = {.incr = 2}}.set(ADDR_MOD_6);
    TTI_SFPIADD(1, p_sfpu::LREG0, 12, 5);           // backdoor: InstructionTemplate[0] = VD = VC + 1
    TTI_SFPLOADI(0, 10, 0x0014);                     // Sequence[0]: Simple = template 0 at delay 2
    TTI_SFPLOADI(0, 8, 0x0000);
    TTI_SFPCONFIG(0, 4, 0);
    TTI_SFPCONFIG(0, 8, 1);                          // Misc = 0: every delay counts cycles
}

// The thread stores the loaded register three instructions after the
// SFPLOADMACRO: with no idle cycle that is the increment's own cycle, so it
// stores the value before the increment; one idle cycle earlier in the row
// lets the increment land first. Timing-dependent.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_macro_race() {
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
        TTI_SFPNOP;
        TTI_SFPNOP;
        TTI_SFPSTORE(p_sfpu::LREG2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
    }
}

// The same row of four instructions recorded once and played from the
// replay buffer: a playback issues back to back, so no idle cycle can come
// between the SFPLOADMACRO and the store. Deterministic.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_macro_race_replayed() {
    lltt::record(0, 4);
    TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
    TTI_SFPNOP;
    TTI_SFPNOP;
    TTI_SFPSTORE(p_sfpu::LREG2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
    for (int d = 0; d < ITERATIONS; d++) {
        lltt::replay(0, 4);
    }
    TTI_SFPNOP;
    TTI_SFPNOP;
}

// The same row with a STALLWAIT on the SFPU before the store: the thread waits
// for the macro's increment to land, whatever the spacing. Deterministic.
template <bool APPROXIMATION_MODE, int ITERATIONS = 8>
inline void calculate_fixture_macro_race_waited() {
    for (int d = 0; d < ITERATIONS; d++) {
        TTI_SFPLOADMACRO((0 << 2) | 2, InstrModLoadStore::INT32, ADDR_MOD_3, 0);
        TTI_STALLWAIT(p_stall::STALL_SFPU, p_stall::WAIT_SFPU);
        TTI_SFPSTORE(p_sfpu::LREG2, InstrModLoadStore::INT32, ADDR_MOD_2, 0);
    }
}

}  // namespace sfpu
}  // namespace ckernel
