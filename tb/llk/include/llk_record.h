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
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

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

}  // namespace llk_record
