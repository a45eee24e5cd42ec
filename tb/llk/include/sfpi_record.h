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
// copied: every handle to a value counts as one reference (a `Slot`), and a
// value is split off (SFPMOV) only when one handle writes it under
// predication. A register is free again right after the last instruction
// that refers to its value, as a compiler's register allocator frees it.
// The C++ cannot know that moment while it runs, so the front end runs the
// kernel twice: the survey run (SFPI_SURVEY=FILE) numbers every value and
// writes the index of the last instruction naming each; the second run
// (SFPI_LAST_USE=FILE) frees each register there. Both runs issue the same
// instructions in the same order: nothing the stand-in decides depends on
// which register a value got, only the moves that make room for an
// instruction with fixed registers (SFPLUT, SFPCONFIG, l_reg), which are not
// counted. The constant registers L8-L15 are slots never freed or written.
// A constant an SFPLOADI made, not written since, gives its register up when
// a ninth value needs one, and is loaded again where it is next used (not
// counted either), as SFPI's compiler rematerialises constants.
//
// Fixed registers. Kernels mix TTI_ instructions, which name LRegs directly,
// with SFPI values; as SFPI's compiler keeps a value out of a register that
// an `l_reg[]` access or `in_use()` names while the value is live, the
// allocator keeps it out of every register a TTI_ instruction, `l_reg[]` or
// `in_use()` names while it is live: the survey run notes where each of
// those falls among the stand-in's instructions. After `l_reg[N] = v`, LN
// keeps v for a later `l_reg[N]` read.
//
// Predication. `depth` counts the v_if/v_block scopes open; inside one, an
// instruction writes only the enabled lanes, so a variable that already has
// a value is updated in its own register rather than rebound: the new value
// is made in a register of its own and moved in (SFPMOV). Where the value is
// made by the instruction just before that move and read by nothing else,
// SFPI's compiler has that instruction write the variable's register itself.
// The survey notes those pairs (`merges`); the second run makes such a value
// in the variable's register and counts the move without issuing it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ckernel_ops.h"
#include "llk_names.h"
#include "llk_record.h"

namespace sfpi_record {

constexpr int kGeneral = 8;       // L0-L7: what the allocator hands out

struct Slot {
    int reg;        // the LReg holding the value; -1 once its last instruction has passed,
                    // kReloadable while a constant is out of the registers (second run)
    int value;      // the value's number, the same in both runs (-1: a constant register)
    int refs;       // handles to it; constants are never freed
    const void* at; // the kernel line that made it
    // A constant loaded by SFPLOADI and not written since: the loads that make it again
    // (Mod0, Imm16 each), so that it can give up its register, as SFPI's compiler
    // rematerialises a constant rather than keep it live.
    int loads = 0;
    std::uint16_t mod0[2] = {}, imm16[2] = {};
    bool transient = false;   // reloaded under v_if: only the enabled lanes hold it, for one instruction
    bool merged = false;      // made in the register of the variable it is assigned to next (second run)
};

constexpr int kReloadable = -2;

struct State {
    const void* at = nullptr;     // the kernel line of the outermost entry point
    int entries = 0;
    Slot* owner[kGeneral] = {};   // which value each general register holds
    bool kept[kGeneral] = {};     // written through l_reg, held for a later l_reg read
    int depth = 0;                // open v_if / v_block scopes
    int values = 0;               // values numbered so far
    int index = 0;                // instructions issued so far (moves that make room excluded)
    std::vector<int> named;       // the values the instruction being built names
    std::vector<int> last_use;    // per value: the index of the last instruction naming it
    std::vector<int> fixed[kGeneral];  // per register: where TTI_, l_reg or in_use name it
    std::vector<int> made_at;     // survey: per value, the index of the instruction that made it
    std::vector<int> moves;       // survey: (value, variable's value, index) per move under v_if
    std::vector<int> merge_into;  // per value: the variable's value whose register it is made in, or -1
    bool survey = false;
    const char* survey_file = nullptr;
    bool loaded = false;
};
inline State state;

[[noreturn]] inline void fail(const char* text) {
    char message[320];
    std::snprintf(message, sizeof message, "SFPI: %s", text);
    ::llk_record::stop_at(message, state.at);
}

// The survey: the number of values and each one's last instruction, then per
// register the number of places it is named and those places.
inline void write_survey() {
    if (FILE* f = std::fopen(state.survey_file, "w")) {
        std::fprintf(f, "%zu\n", state.last_use.size());
        for (int v : state.last_use) std::fprintf(f, "%d\n", v);
        for (const auto& at : state.fixed) {
            std::fprintf(f, "%zu\n", at.size());
            for (int i : at) std::fprintf(f, "%d\n", i);
        }
        // The moves a merge replaces: of a value read by nothing after, made by the instruction
        // just before, or just before the variable's split (own()) where that split moves a
        // register nothing reads again (the second run then issues no split either), into a
        // variable made before the value.
        std::vector<int> merge_into(state.last_use.size(), -1);
        auto made = [](int v) { return v >= 0 && v < (int)state.made_at.size() ? state.made_at[v] : -1; };
        for (std::size_t i = 0; i + 3 < state.moves.size(); i += 4) {
            int v = state.moves[i], before = state.moves[i + 1], to = state.moves[i + 2], at = state.moves[i + 3];
            if (v < 0 || before < 0 || v >= (int)merge_into.size() || state.last_use[v] != at ||
                made(before) >= made(v))
                continue;
            bool direct = to == before && made(v) == at - 1;
            bool split = to != before && made(to) == at - 1 && made(v) == at - 2 && state.last_use[before] == at - 1;
            if (direct || split) merge_into[v] = before;
        }
        std::fprintf(f, "%zu\n", merge_into.size());
        for (int w : merge_into) std::fprintf(f, "%d\n", w);
        std::fclose(f);
    }
}

inline void read_list(FILE* f, std::vector<int>& into) {
    std::size_t n = 0;
    int v;
    if (std::fscanf(f, "%zu", &n) != 1) return;
    for (std::size_t i = 0; i < n && std::fscanf(f, "%d", &v) == 1; ++i) into.push_back(v);
}

inline void named_fixed(int reg) {
    if (state.survey && reg >= 0 && reg < kGeneral) state.fixed[reg].push_back(state.index);
}

inline void tti_issued(std::initializer_list<::llk_record::Arg> args) {
    for (const auto& a : args)
        if (a.name[0] == 'l' && a.name[1] == 'r' && a.name[2] == 'e' && a.name[3] == 'g') named_fixed((int)a.value);
}

inline void load() {
    if (state.loaded) return;
    state.loaded = true;
    ::llk_record::on_issue = tti_issued;
    if (const char* path = std::getenv("SFPI_SURVEY")) {
        state.survey = true;
        state.survey_file = path;
        std::atexit(write_survey);
    } else if (const char* path = std::getenv("SFPI_LAST_USE")) {
        if (FILE* f = std::fopen(path, "r")) {
            read_list(f, state.last_use);
            for (auto& at : state.fixed) read_list(f, at);
            read_list(f, state.merge_into);
            std::fclose(f);
        }
    }
}

// Whether register `reg` is named by TTI_, l_reg or in_use while value
// `value` is live: after now and up to its last instruction.
inline bool named_while_live(int reg, int value) {
    int last = value < (int)state.last_use.size() ? state.last_use[value] : -1;
    for (int i : state.fixed[reg])
        if (i > state.index && i <= last) return true;
    return false;
}

// A register for value `value`: free, not kept for l_reg, not named while it lives.
inline int free_register(int value, int except = -1) {
    for (int r = 0; r < kGeneral; ++r)
        if (r != except && state.owner[r] == nullptr && !state.kept[r] && !named_while_live(r, value)) return r;
    for (int r = 0; r < kGeneral; ++r)       // none such: any free one
        if (r != except && state.owner[r] == nullptr && !state.kept[r]) return r;
    return -1;
}

inline void print(char kind, std::uint32_t word) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", word);
    ::llk_record::emit_at(kind, text, state.at);
}

inline bool named_now(int value) {
    for (int v : state.named)
        if (v == value) return true;
    return false;
}

// A register held by a reloadable constant that the instruction being built does not name:
// emptied (second run only; nothing is issued, the constant is loaded again where it is next used).
inline int drop_constant() {
    for (int r = 0; r < kGeneral; ++r) {
        Slot* s = state.owner[r];
        if (s != nullptr && s->loads > 0 && !s->transient && !state.kept[r] && !named_now(s->value)) {
            state.owner[r] = nullptr;
            s->reg = kReloadable;
            return r;
        }
    }
    return -1;
}

// The loads of a constant that gave up its register, into register `reg` (not counted, like
// the moves that make room). Under v_if they reach only the enabled lanes, so the register
// holds the constant for the instruction being built only.
inline void reload(Slot* s, int reg) {
    for (int i = 0; i < s->loads; ++i) print('V', TT_OP_SFPLOADI(reg, s->mod0[i], s->imm16[i]));
    s->reg = reg;
    state.owner[reg] = s;
    s->transient = state.depth > 0;
}

// The register of `s` for the instruction being built, noting the reference.
inline int use(Slot* s) {
    if (s->value < 0) return s->reg;
    if (s->reg == kReloadable) {
        int r = free_register(s->value);
        if (r < 0) r = drop_constant();
        if (r < 0) fail("no register to load a constant into again: more than 8 vector values are live at once");
        reload(s, r);
    }
    if (s->reg < 0) fail("internal: a value is used after its last use in the survey run");
    state.named.push_back(s->value);
    return s->reg;
}

// After a write into `s`'s register: it no longer holds the constant it was loaded with.
inline void written(Slot* s) {
    s->loads = 0;
    s->transient = false;
}

// An instruction the stand-in chose ('V': the front end may add SFPNOPs
// around it). Afterwards the registers whose values it named for the last
// time are free.
inline void emit(std::uint32_t word) {
    load();
    print('V', word);
    for (int v : state.named) {
        if (state.survey) {
            if ((int)state.last_use.size() <= v) state.last_use.resize(v + 1, -1);
            state.last_use[v] = state.index;
        } else if (v < (int)state.last_use.size() && state.last_use[v] == state.index) {
            for (int r = 0; r < kGeneral; ++r) {
                Slot* s = state.owner[r];
                if (s != nullptr && s->value == v) {
                    state.owner[r] = nullptr;
                    s->reg = -1;
                }
            }
        }
    }
    state.named.clear();
    ++state.index;
    for (int r = 0; r < kGeneral; ++r) {     // constants reloaded under v_if give their register up again
        Slot* s = state.owner[r];
        if (s != nullptr && s->transient) {
            state.owner[r] = nullptr;
            s->reg = kReloadable;
            s->transient = false;
        }
    }
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
#if defined(LLK_RV32)
#define SFPI_ENTRY ((void)0)
#else
#define SFPI_ENTRY ::sfpi_record::Entry sfpi_entry_(__builtin_return_address(0))
#endif

// The constant registers, one slot each, never freed.
inline Slot* constant_slot(int reg) {
    static Slot slots[16];
    Slot* s = &slots[reg];
    *s = Slot{reg, -1, 1, nullptr};
    return s;
}
constexpr int kZero = 9, kOne = 10, kMinusOne = 11;

inline Slot* take(int reg) {
    load();
    Slot* s = new Slot{reg, state.values++, 1, state.at};
    if (state.survey) {
        if ((int)state.made_at.size() <= s->value) state.made_at.resize(s->value + 1, -1);
        state.made_at[s->value] = state.index;
    } else {
        state.owner[reg] = s;
    }
    return s;
}

// The register of the variable the value about to be made is merged into (second run), or -1.
inline int merge_register() {
    int v = state.values;
    int w = v < (int)state.merge_into.size() ? state.merge_into[v] : -1;
    if (w < 0 || state.depth == 0) return -1;
    for (int r = 0; r < kGeneral; ++r)
        if (state.owner[r] != nullptr && state.owner[r]->value == w && !state.kept[r])
            return r;
    return -1;
}

// `prefer`: a register to take if it is free, as one an instruction with fixed registers reads.
inline Slot* allocate(int prefer = -1) {
    load();
    if (state.survey) return take(0);
    int merged = merge_register();
    if (merged >= 0) {
        Slot* s = new Slot{merged, state.values++, 1, state.at};
        s->merged = true;
        return s;
    }
    bool preferred = prefer >= 0 && state.owner[prefer] == nullptr && !state.kept[prefer];
    int r0 = preferred ? prefer : free_register(state.values);
    if (r0 >= 0) return take(r0);
    // A register whose value the instruction being built reads for the last
    // time: the instruction reads it before it writes its result.
    for (int r = 0; r < kGeneral; ++r) {
        if (state.owner[r] == nullptr) continue;
        int v = state.owner[r]->value;
        if (v < (int)state.last_use.size() && state.last_use[v] == state.index) return take(r);
    }
    // A constant that can be loaded again where it is next used.
    int dropped = drop_constant();
    if (dropped >= 0) return take(dropped);
    // Where each live value was made, for the message (the front end adds them to it).
    for (int r = 0; r < kGeneral; ++r) {
        char text[48];
        std::snprintf(text, sizeof text, state.owner[r] ? "live: L%d" : "live: L%d, kept for l_reg", r);
        ::llk_record::emit_at('N', text, state.owner[r] ? state.owner[r]->at : state.at);
    }
    fail("more than 8 vector values are live at once (L0-L7), which the SFPU's registers cannot hold");
}

inline void retain(Slot* s) {
    if (s != nullptr) ++s->refs;
}

inline void release(Slot* s) {
    if (s == nullptr || s->value < 0) return;
    if (--s->refs == 0) {
        if (s->reg >= 0 && state.owner[s->reg] == s) state.owner[s->reg] = nullptr;
        delete s;
    }
}

inline void copy(Slot* from, Slot* to, bool all_lanes);

// `to = from` inside v_if (`before`: the variable's value before own() split it off): the enabled
// lanes of `from` moved into `to`'s register, or, for a value made there (a merge), the move
// counted and not issued.
inline void assign_masked(Slot* from, Slot* to, int before) {
    load();
    if (state.survey) {
        state.moves.insert(state.moves.end(), {from->value, before, to->value, state.index});
    } else if (from->merged && from->reg == to->reg) {
        written(to);
        from->reg = -1;
        from->merged = false;
        if (to->value < (int)state.last_use.size() && state.last_use[to->value] == state.index) {
            state.owner[to->reg] = nullptr;       // the move was the variable's last use as well
            to->reg = -1;
        }
        ++state.index;
        return;
    }
    copy(from, to, false);
}

// SFPMOV between two values. All lanes (Mod1 2) when a value is split from
// a shared register or placed for an instruction, so that no lane is lost.
inline void copy(Slot* from, Slot* to, bool all_lanes) {
    int c = use(from);
    int d = use(to);
    written(to);
    emit(TT_OP_SFPMOV(0, c, d, all_lanes ? sfpi::SFPMOV_MOD1_ALL_LANES_ENABLED : 0));
}

// A copy of `src` as a new value (SFPMOV), except in the second run where the
// copy would be the last instruction to name `src`: the new value takes over
// src's register and no copy is issued. The index still counts the copy, so
// both runs number the same instructions. `prefer`: the register to copy into where it is free.
inline Slot* copy_of(Slot* src, bool all_lanes, int prefer = -1) {
    load();
    int v = src->value;
    if (!state.survey && v >= 0 && src->reg >= 0 && state.named.empty() && v < (int)state.last_use.size() &&
        state.last_use[v] == state.index) {
        Slot* s = new Slot{src->reg, state.values++, 1, state.at};
        state.owner[src->reg] = s;
        src->reg = -1;
        ++state.index;
        return s;
    }
    Slot* s = allocate(prefer);
    copy(src, s, all_lanes);
    return s;
}

// A constant loaded by SFPLOADI in general register `reg` gives it up, to be loaded again where
// it is next used (second run): whether it did.
inline bool give_up_constant(int reg) {
    Slot* s = state.owner[reg];
    if (s == nullptr || s->loads == 0 || s->transient) return false;
    state.owner[reg] = nullptr;
    s->reg = kReloadable;
    return true;
}

// Empties general register `reg` (second run only) by moving its value to a
// free one: a move the survey run does not see, so it is not counted.
inline void evict(int reg) {
    if (state.survey) return;
    Slot* s = state.owner[reg];
    if (s == nullptr || give_up_constant(reg)) return;
    int r = free_register(s->value, reg);
    if (r < 0) fail("no free register to move a live value to, for an instruction that needs fixed registers");
    print('V', TT_OP_SFPMOV(0, reg, r, sfpi::SFPMOV_MOD1_ALL_LANES_ENABLED));
    state.owner[reg] = nullptr;
    s->reg = r;
    state.owner[r] = s;
}

// Before SFPTRANSP, which permutes L4-L7 as well as the L0-L3 it is given (second run only): a
// constant there gives its register up; a value still to be read there would be scrambled, and no
// allocation avoids it (L0-L3 hold the instruction's own four), so the run stops, as where a ninth
// value needs a register.
inline void vacate_upper_bank(const char* function) {
    if (state.survey) return;
    for (int r = 4; r < kGeneral; ++r) {
        Slot* s = state.owner[r];
        if (s == nullptr || give_up_constant(r)) continue;
        char live[16], why[160];
        std::snprintf(live, sizeof live, "live: L%d", r);
        ::llk_record::emit_at('N', live, s->at);
        std::snprintf(why, sizeof why, "a vector value is live in L%d across %s, whose SFPTRANSP permutes L4-L7 "
                      "as well as L0-L3", r, function);
        fail(why);
    }
}

// A new value in general register `reg`, moving what it holds away.
inline Slot* claim(int reg) {
    load();
    evict(reg);
    state.kept[reg] = false;
    return take(reg);
}

// After an l_reg write: the register keeps that value for a later l_reg read
// (the kernel's init sets LUT coefficients that its calculation reads back).
inline void keep(int reg) { state.kept[reg] = true; }

// Moves value `s` itself into general register `reg` for an instruction that
// reads it there (second run only, not counted): the value there moves to a
// free register, or, with none free, the two swap (SFPSWAP Mod1 0).
inline void relocate(Slot* s, int reg) {
    if (state.survey || s->reg == reg) return;
    if (s->reg == kReloadable) {              // a constant out of the registers: load it there
        evict(reg);
        if (state.owner[reg] != nullptr) fail("no register to load a constant into again");
        reload(s, reg);
        return;
    }
    if (state.owner[reg] != nullptr) {
        bool free = false;
        for (int r = 0; r < kGeneral; ++r) free = free || (r != s->reg && state.owner[r] == nullptr && !state.kept[r]);
        if (!free) {
            Slot* other = state.owner[reg];
            print('V', TT_OP_SFPSWAP(0, s->reg, reg, sfpi::SFPSWAP_MOD1_SWAP));
            other->reg = s->reg;
            state.owner[s->reg] = other;
            s->reg = reg;
            state.owner[reg] = s;
            return;
        }
        evict(reg);
    }
    print('V', TT_OP_SFPMOV(0, s->reg, reg, sfpi::SFPMOV_MOD1_ALL_LANES_ENABLED));
    state.owner[s->reg] = nullptr;
    s->reg = reg;
    state.owner[reg] = s;
}

}  // namespace sfpi_record
