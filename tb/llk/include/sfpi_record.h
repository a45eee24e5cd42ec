// The machinery behind the recording SFPI stand-in (sfpi.h): where records
// go, the LReg allocator, and the lane-predication bookkeeping.
//
// Where. Every SFPI operation a kernel calls is an entry point: it takes the
// return address of its caller (a line of the kernel's C++) and every
// instruction it records carries that address, which the front end turns
// into file:line with addr2line. An entry point reached from another one
// (a library function built on operators) keeps the outermost address.
//
// Registers. A vector value lives in one of L0-L7. Values are shared, not
// copied: every handle to a value counts as one reference, and the register
// is free again when the last one goes (C++ destroys temporaries at the end
// of their full expression, as SFPI's compiler frees them). A value is a
// `Slot`, so a value can move to another register (to make room for an
// instruction with fixed registers) without its handles noticing. The
// constant registers L8-L15 are slots that are never freed or written.
//
// Predication. `depth` counts the v_if/v_block scopes open; inside one, an
// instruction writes only the enabled lanes, so a variable that already has
// a value is updated in its own register rather than rebound.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ckernel_ops.h"
#include "llk_names.h"
#include "llk_record.h"

namespace sfpi_record {

constexpr int kGeneral = 8;       // L0-L7: what the allocator hands out

struct Slot {
    int reg;        // the LReg holding the value
    int refs;       // handles to it; constants are never freed
    bool constant;  // L8-L15, or a fixed register read through l_reg
};

struct State {
    const void* at = nullptr;     // the kernel line of the outermost entry point
    int entries = 0;
    Slot* owner[kGeneral] = {};   // which value each general register holds
    int depth = 0;                // open v_if / v_block scopes
};
inline State state;

// An instruction the stand-in chose ('V': the front end may add SFPNOPs around it).
inline void emit(std::uint32_t word) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", word);
    ::llk_record::emit_at('V', text, state.at);
}

inline void note(const char* text) { ::llk_record::emit_at('S', text, state.at); }

[[noreturn]] inline void fail(const char* text) {
    char message[320];
    std::snprintf(message, sizeof message, "SFPI: %s", text);
    ::llk_record::stop_at(message, state.at);
}

// Marks an entry point: `Entry e(__builtin_return_address(0));` first thing.
struct Entry {
    explicit Entry(const void* at) {
        if (state.entries++ == 0) state.at = at;
    }
    ~Entry() { --state.entries; }
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;
};
#define SFPI_ENTRY ::sfpi_record::Entry sfpi_entry_(__builtin_return_address(0))

// The constant registers, one slot each, never freed.
inline Slot* constant_slot(int reg) {
    static Slot slots[16];
    Slot* s = &slots[reg];
    s->reg = reg;
    s->refs = 1;
    s->constant = true;
    return s;
}
constexpr int kZero = 9, kOne = 10, kMinusOne = 11;

inline Slot* allocate() {
    for (int r = 0; r < kGeneral; ++r) {
        if (state.owner[r] == nullptr) {
            Slot* s = new Slot{r, 1, false};
            state.owner[r] = s;
            return s;
        }
    }
    fail("more than 8 vector values are live at once (L0-L7): the kernel needs more registers than the "
         "SFPU has; SFPI's compiler would spill nothing either");
}

inline void retain(Slot* s) {
    if (s != nullptr) ++s->refs;
}

inline void release(Slot* s) {
    if (s == nullptr || s->constant) return;
    if (--s->refs == 0) {
        if (state.owner[s->reg] == s) state.owner[s->reg] = nullptr;
        delete s;
    }
}

// SFPMOV, the copy the allocator uses. All lanes (Mod1 2) when a value moves
// or is split from a shared register, so that no lane's old value is lost.
inline void move(int from, int to, bool all_lanes) {
    emit(TT_OP_SFPMOV(0, from, to, all_lanes ? sfpi::SFPMOV_MOD1_ALL_LANES_ENABLED : 0));
}

// Empties general register `reg` by moving its value elsewhere (for an
// instruction with fixed registers).
inline void evict(int reg) {
    Slot* s = state.owner[reg];
    if (s == nullptr) return;
    state.owner[reg] = nullptr;
    for (int r = 0; r < kGeneral; ++r) {
        if (r != reg && state.owner[r] == nullptr) {
            move(reg, r, true);
            s->reg = r;
            state.owner[r] = s;
            return;
        }
    }
    state.owner[reg] = s;
    fail("no free register to move a live value to, for an instruction that needs fixed registers");
}

// Claims general register `reg` for a new value, moving what it holds away.
inline Slot* claim(int reg) {
    evict(reg);
    Slot* s = new Slot{reg, 1, false};
    state.owner[reg] = s;
    return s;
}

}  // namespace sfpi_record
