// The recorder behind the stand-in headers of `sfpu llk` (tb/llk): every
// instruction, Tensix register write and note a kernel makes is written to
// standard output, one record per line, with the C++ file and line it came
// from. tb/llk/frontend.py turns the records into a listing.
//
//   I <word>  <file> <line>   an SFPU instruction word
//   V <word>  <file> <line>   an SFPU instruction word the SFPI stand-in chose
//   T <text>  <file> <line>   a Tensix instruction modelled around the SFPU, in its TTI_ spelling
//   D <text>  <file> <line>   a directive (a Tensix register the SFPU reads)
//   N <text>  <file> <line>   something recorded as a no-op, with why
//   S <text>  <file> <line>   an SFPI construct the front end turned into instructions
//   X <text>  <file> <line>   something not modelled: the run stops here
//   P <phase>                 where the caller, the init and the call begin
//
// A location may be "@0x..." (a return address) where C++ gives no
// __FILE__/__LINE__, e.g. inside an operator; the front end resolves it
// with addr2line.
#pragma once
#include <cstdint>
#include <initializer_list>

#if defined(LLK_RV32)
// The same interface compiled for the baby RISC-V by `sfpu perf` (tb/perf): an
// instruction is pushed as the firmware pushes it, a `.ttinsn` word (the
// instruction rotated left by two bits) when its value is known at compile
// time and a store to the instruction buffer otherwise (always for TT_); the
// other records are one-instruction marker stores below address 0 that the
// instruction-set simulator reads and does not time (tb/perf/iss.py).
namespace llk_record {

struct Arg {
    const char* name;
    long long value;
    int width;
};

// No "memory" clobber: like a pushed .ttinsn, a marker keeps its place among the pushes (volatile asm and
// volatile stores stay in order) without making the compiler reload the kernel's variables around it, which
// tt-llk's code, having no markers, does not do.
#define LLK_RV32_MARK(offset) __asm__ __volatile__("sw zero, %0(zero)" ::"i"(offset))
constexpr int MARK_PHASE = -4, MARK_DIRECTIVE = -8, MARK_STOP = -12;

// A declared object, as tt-llk's __instrn_buffer is (its address given to the linker), so that the compiler
// knows a push does not write the kernel's own variables, as it does for tt-llk's code.
extern "C" volatile std::uint32_t llk_rv32_instrn_buffer[];
inline volatile std::uint32_t* const instrn_buffer = llk_rv32_instrn_buffer;

__attribute__((always_inline)) inline void push(std::uint32_t word) {
    if (__builtin_constant_p(word)) {
        __asm__ __volatile__(".word %0" ::"i"((word << 2) | (word >> 30)));
    } else {
        *instrn_buffer = word;
    }
}

__attribute__((always_inline)) inline void push_store(std::uint32_t word) { *instrn_buffer = word; }

inline void (*on_issue)(std::initializer_list<Arg> args) = nullptr;

__attribute__((always_inline)) inline bool fits(const char*, std::initializer_list<Arg>, const char*, int) {
    return true;
}
__attribute__((always_inline)) inline void issue(const char*, std::uint32_t word, std::initializer_list<Arg>,
                                                 const char*, int) {
    push(word);
}
__attribute__((always_inline)) inline void issue_run(const char*, std::uint32_t word, std::initializer_list<Arg>,
                                                     const char*, int) {
    push_store(word);
}
__attribute__((always_inline)) inline void tensix(const char*, std::uint32_t word, std::initializer_list<Arg>,
                                                  const char*, int) {
    push(word);
}
__attribute__((always_inline)) inline void tensix_run(const char*, std::uint32_t word, std::initializer_list<Arg>,
                                                      const char*, int) {
    push_store(word);
}
__attribute__((always_inline)) inline void emit(char, const char*, const char*, int) {}
__attribute__((always_inline)) inline void emit_at(char, const char*, const void*) {}
__attribute__((always_inline)) inline void phase(const char*) { LLK_RV32_MARK(MARK_PHASE); }
__attribute__((always_inline)) inline void directive(const char*, const char*, int) { LLK_RV32_MARK(MARK_DIRECTIVE); }
__attribute__((always_inline)) inline void note(const char*, const char*, int) {}
[[noreturn]] inline void stop(const char*, const char*, int) {
    LLK_RV32_MARK(MARK_STOP);
    __builtin_trap();
}
[[noreturn]] inline void stop_at(const char*, const void*) {
    LLK_RV32_MARK(MARK_STOP);
    __builtin_trap();
}

}  // namespace llk_record
#else
#include <cstdio>
#include <cstdlib>

namespace llk_record {

struct Arg {
    const char* name;
    long long value;
    int width;
};

inline void emit(char kind, const char* text, const char* file, int line) {
    std::printf("%c\t%s\t%s\t%d\n", kind, text, file, line);
}

inline void emit_at(char kind, const char* text, const void* address) {
    std::printf("%c\t%s\t@%p\t0\n", kind, text, address);
}

[[noreturn]] inline void stop(const char* text, const char* file, int line) {
    emit('X', text, file, line);
    std::fflush(stdout);
    std::exit(3);
}

[[noreturn]] __attribute__((noinline)) inline void stop_at(const char* text, const void* address) {
    emit_at('X', text, address);
    std::fflush(stdout);
    std::exit(3);
}

inline void phase(const char* name) { std::printf("P\t%s\n", name); }

inline bool fits(const char* macro, std::initializer_list<Arg> args, const char* file, int line) {
    for (const Arg& a : args) {
        long long limit = (1LL << a.width) - 1;
        if (a.value < 0 || a.value > limit) {
            char text[256];
            std::snprintf(text, sizeof text, "TT_%s argument %s=%lld out of range 0..%lld", macro, a.name, a.value,
                          limit);
            stop(text, file, line);
        }
    }
    return true;
}

// Told of every TTI_ SFPU instruction's arguments (the SFPI stand-in's
// register allocator keeps its values out of the LRegs they name).
inline void (*on_issue)(std::initializer_list<Arg> args) = nullptr;

inline void issue(const char* macro, std::uint32_t word, std::initializer_list<Arg> args, const char* file,
                  int line) {
    fits(macro, args, file, line);
    if (on_issue != nullptr) on_issue(args);
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", word);
    emit('I', text, file, line);
}
// A TT_ instruction: on the RISC-V a store of a word built at run time; recorded the same here.
inline void issue_run(const char* macro, std::uint32_t word, std::initializer_list<Arg> args, const char* file,
                      int line) {
    issue(macro, word, args, file, line);
}

inline void tensix(const char* macro, std::uint32_t, std::initializer_list<Arg> args, const char* file, int line) {
    fits(macro, args, file, line);
    char text[256];
    int n = std::snprintf(text, sizeof text, "TTI_%s(", macro);
    bool first = true;
    for (const Arg& a : args) {
        n += std::snprintf(text + n, sizeof text - n, "%s%lld", first ? "" : ", ", a.value);
        first = false;
    }
    if (args.size() == 0)
        std::snprintf(text + n - 1, sizeof text - n + 1, ";");   // TTI_NOP; as tt-llk writes it
    else
        std::snprintf(text + n, sizeof text - n, ");");
    emit('T', text, file, line);
}

inline void directive(const char* text, const char* file, int line) { emit('D', text, file, line); }
inline void note(const char* text, const char* file, int line) { emit('N', text, file, line); }

inline void tensix_run(const char* macro, std::uint32_t word, std::initializer_list<Arg> args, const char* file,
                       int line) {
    tensix(macro, word, args, file, line);
}
}  // namespace llk_record
#endif
