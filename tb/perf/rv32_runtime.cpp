// The start-up and the few C/C++ runtime functions a kernel driver built for
// the baby RISC-V links against (tb/perf/rv32.py). The stand-in headers'
// host-only paths (record texts, the SFPI stand-in's tables) reference them;
// nothing a timed kernel pushes runs through them. All of it sits in the
// section `.text.llk_free`, whose instructions the simulator does not time.
#include <cstddef>
#include <cstdint>

#define FREE __attribute__((section(".text.llk_free"), used))

extern "C" {
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
int main();

void* __dso_handle = nullptr;
static unsigned char heap[1 << 16];
static std::size_t heap_used = 0;

FREE int __cxa_atexit(void (*)(void*), void*, void*) { return 0; }
FREE void* memset(void* to, int value, std::size_t n) {
    auto* p = static_cast<unsigned char*>(to);
    for (std::size_t i = 0; i < n; i++) p[i] = static_cast<unsigned char>(value);
    return to;
}
FREE void* memcpy(void* to, const void* from, std::size_t n) {
    auto* d = static_cast<unsigned char*>(to);
    const auto* s = static_cast<const unsigned char*>(from);
    for (std::size_t i = 0; i < n; i++) d[i] = s[i];
    return to;
}
FREE void* memmove(void* to, const void* from, std::size_t n) {
    auto* d = static_cast<unsigned char*>(to);
    const auto* s = static_cast<const unsigned char*>(from);
    if (d < s) {
        for (std::size_t i = 0; i < n; i++) d[i] = s[i];
    } else {
        for (std::size_t i = n; i > 0; i--) d[i - 1] = s[i - 1];
    }
    return to;
}
FREE std::size_t strlen(const char* s) {
    std::size_t n = 0;
    while (s[n]) n++;
    return n;
}
// Record texts are the host run's business: here they are left empty.
FREE int snprintf(char* to, std::size_t size, const char*, ...) {
    if (size) to[0] = 0;
    return 0;
}
FREE int printf(const char*, ...) { return 0; }
FREE int fprintf(void*, const char*, ...) { return 0; }
FREE int fflush(void*) { return 0; }
FREE void* fopen(const char*, const char*) { return nullptr; }
FREE int fclose(void*) { return 0; }
FREE char* getenv(const char*) { return nullptr; }
FREE void exit(int) { __builtin_trap(); }
FREE void abort() { __builtin_trap(); }

FREE void llk_rv32_start() {
    for (auto* f = __init_array_start; f != __init_array_end; f++) (*f)();
    main();
}

// The stack sits at the top of the 1 MiB the simulator maps at 0; gp is the linker's small-data base.
__attribute__((naked, section(".text.start"))) void _start() {
    __asm__ volatile(".option push\n .option norelax\n la gp, __global_pointer$\n .option pop\n"
                     "li sp, 0xFFFF0\n call llk_rv32_start\n ebreak\n");
}
}

FREE void* operator new(std::size_t n) {
    void* p = heap + heap_used;
    heap_used += (n + 7) & ~std::size_t(7);
    if (heap_used > sizeof heap) __builtin_trap();
    return p;
}
FREE void* operator new[](std::size_t n) { return operator new(n); }
FREE void operator delete(void*) noexcept {}
FREE void operator delete(void*, std::size_t) noexcept {}
FREE void operator delete[](void*) noexcept {}
FREE void operator delete[](void*, std::size_t) noexcept {}
