// Stand-in for the SFPI library, for the `sfpu llk` front end (tb/llk).
//
// SFPI kernels are C++ over vector types; SFPI's own compiler turns them into
// SFPU instructions. This stand-in runs the kernel's C++ on the host instead
// and *records* an instruction for every operation as it happens, so that an
// SFPI kernel becomes a listing like a TTI_ kernel's, each instruction with
// its C++ line. The machinery (registers, locations, predication depth) is
// in sfpi_record.h; docs/llk.md says which constructs are modelled.
//
// What the recording chooses, where SFPI's compiler may choose otherwise:
//   - registers: the lowest free of L0-L7; a value is shared by its copies
//     and split (SFPMOV) only when one of them is written under predication;
//   - a*b+c and a*b-c are one SFPMAD (never two roundings), a*2.0f+c too (the
//     literal loaded), but c-a*b is SFPMUL then the subtraction; a+b is SFPADD
//     with L10 (1.0), a*b SFPMUL with L9 (0.0), a-b is b*L11(-1.0)+a; a literal that is exact in BF16 becomes SFPADDI, or
//     SFPMULI where the product is not added to anything;
//   - constants 0, 1.0, -1.0 and 0.8373 are read from L9, L10, L11 and L8,
//     others are loaded with SFPLOADI each time they are used;
//   - a comparison computes a difference (SFPMAD, SFPADDI or SFPIADD) and
//     v_if narrows the lane flags with SFPSETCC on its sign or zero; ||
//     uses SFPPUSHC/SFPCOMPC/SFPPOPC, ! inverts the tests;
//   - no scheduling: where an instruction reads a result still in flight the
//     front end inserts the SFPNOP (tb/llk/frontend.py).
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include "llk_names.h"
#include "llk_record.h"
#include "sfpi_record.h"

#define sfpi_inline inline

namespace sfpi {

using sfpi_record::Slot;
using sfpi_record::emit;
using sfpi_record::fail;

enum class RoundMode { NearestEven, Nearest = NearestEven, NearestAway = NearestEven, Stochastic,
                       NearestStochastic = Stochastic, Zero };
enum class ExponentMode { Unbiased, Debiased = Unbiased, Biased, NoDebias = Biased };
enum class MantissaMode { FractionOnly, WithUnitBit, ImplicitOne = WithUnitBit, NoImplicitOne = FractionOnly };
enum class ShiftMode { Logical, Arithmetic };
enum class LZMode { All, IgnoreSign };
enum class RecipMode { All, IfNegative };
enum class DataLayout { Default, FSrcB, F32, F16a, F16b, I32, U32, U16, SM32, SM16, M32, LO16, HI16, TILE,
                        ROW_MAJOR };
enum class LRegs { LReg0, LReg1, LReg2, LReg3, LReg4, LReg5, LReg6, LReg7, LRegCount };

namespace impl_ {

struct Raw {       // a freshly made value, handed to a vector type's constructor
    Slot* slot;
};

class vVal {
protected:
    mutable Slot* s_ = nullptr;
    // A value not issued yet (a product with a float literal, MulLitExpr): issued where it is first
    // read, which a fused multiply-add never does.
    Slot* (*issue_)(const vVal&) = nullptr;
    Slot* ready() const {
        if (s_ == nullptr && issue_ != nullptr) s_ = issue_(*this);
        return s_;
    }

public:
    vVal() = default;
    explicit vVal(Raw r) : s_(r.slot) {}
    vVal(const vVal& o) : s_(o.ready()) { sfpi_record::retain(s_); }
    bool pending() const { return s_ == nullptr && issue_ != nullptr; }
    vVal& operator=(const vVal& o) {
        SFPI_ENTRY;
        assign(o);
        return *this;
    }
    ~vVal() { sfpi_record::release(s_); }

    Slot* slot() const {
        if (ready() == nullptr) fail("a vector variable is read before it is given a value");
        return s_;
    }
    int reg() const { return sfpi_record::use(slot()); }
    Raw share() const {
        sfpi_record::retain(slot());
        return Raw{s_};
    }
    // SFPI's raw handle, for kernels that call the compiler's builtins.
    struct sfpu_t get() const;

    // x = y. Outside v_if every lane takes the new value, so x just refers to
    // y's register. Inside, only the enabled lanes do: x keeps its register
    // (split from any other value sharing it) and the new value moves in.
    void assign(const vVal& src) {
        Slot* from = src.slot();
        if (from == s_) return;
        if (s_ == nullptr || sfpi_record::state.depth == 0) {
            sfpi_record::retain(from);
            sfpi_record::release(s_);
            s_ = from;
            return;
        }
        int before = s_->value;
        own();
        sfpi_record::assign_masked(from, s_, before);
    }
    // x = r where r's register held x's value in every lane before an instruction wrote r's enabled
    // lanes (SFPTRANSP): its disabled lanes hold x's, so x takes the register over, under v_if too.
    void take(Raw r) {
        sfpi_record::release(s_);
        s_ = r.slot;
    }
    // x op= immediate for an instruction that reads and writes VD (SFPMULI, SFPADDI): inside
    // v_if it writes x's own register, whose disabled lanes keep their value, as the compiler
    // emits it; outside, as x = x op immediate.
    template <class F>
    void update_in_place(F make);
    // Makes this handle the only one on its register, as a write in place needs.
    void own() {
        if (s_ == nullptr) fail("a vector variable is updated before it is given a value");
        if (s_->refs == 1 && s_->value >= 0) return;
        Slot* mine = sfpi_record::copy_of(s_, true);
        sfpi_record::release(s_);
        s_ = mine;
    }
};

// A value as the compiler's builtins pass it.
struct sfpu_t {
    vVal value;
};
inline sfpu_t vVal::get() const { return sfpu_t{*this}; }

// A new register, written by the instruction `make(vd)` returns.
template <class F>
Raw fresh(F make) {
    Slot* s = sfpi_record::allocate();
    emit(make(sfpi_record::use(s)));
    return Raw{s};
}

// For instructions that read and write VD: a copy of `v` to work on, or `v`'s
// own register where nothing reads `v` afterwards (sfpi_record::copy_of).
template <class F>
Raw in_place(const vVal& v, F make) {
    Slot* s = sfpi_record::copy_of(v.slot(), false);
    emit(make(sfpi_record::use(s)));
    return Raw{s};
}

template <class F>
void vVal::update_in_place(F make) {
    if (sfpi_record::state.depth == 0) {
        assign(vVal(in_place(*this, make)));
        return;
    }
    own();
    emit(make(sfpi_record::use(s_)));
    sfpi_record::written(s_);
}

inline std::uint32_t bits_of(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

// A 32-bit constant in a register: a constant register where one holds it.
inline Raw constant(std::uint32_t bits, bool is_float) {
    if (bits == 0) return Raw{sfpi_record::constant_slot(sfpi_record::kZero)};
    if (is_float && bits == 0x3F800000u) return Raw{sfpi_record::constant_slot(sfpi_record::kOne)};
    if (is_float && bits == 0xBF800000u) return Raw{sfpi_record::constant_slot(sfpi_record::kMinusOne)};
    if (is_float && bits == 0x3F56594Bu) return Raw{sfpi_record::constant_slot(8)};
    Slot* s = sfpi_record::allocate();
    std::int32_t v = (std::int32_t)bits;
    auto load = [&](unsigned mod0, std::uint32_t imm) {
        emit(TT_OP_SFPLOADI(sfpi_record::use(s), mod0, imm));
        s->mod0[s->loads] = (std::uint16_t)mod0;
        s->imm16[s->loads++] = (std::uint16_t)imm;
    };
    if (!is_float && v >= -32768 && v <= 32767) {
        load(SFPLOADI_MOD0_SHORT, bits & 0xFFFF);
    } else if (!is_float && bits <= 0xFFFF) {
        load(SFPLOADI_MOD0_USHORT, bits);
    } else if ((bits & 0xFFFF) == 0) {
        load(SFPLOADI_MOD0_FLOATB, bits >> 16);
    } else {
        load(SFPLOADI_MOD0_UPPER, bits >> 16);
        load(SFPLOADI_MOD0_LOWER, bits & 0xFFFF);
    }
    // Loaded under v_if it holds the constant in the enabled lanes only: not one to load again.
    if (sfpi_record::state.depth > 0) sfpi_record::written(s);
    return Raw{s};
}

// Values in the fixed registers an instruction reads them from, each its own
// value moved there (an instruction that only reads them leaves them intact),
// or a copy where one value is wanted in two registers or is a constant.
class Placed {
    Slot* slots_[8] = {};
public:
    void at(int reg, const vVal& v) {
        Slot* s = v.slot();
        bool twice = false;
        for (Slot* t : slots_) twice = twice || t == s;
        if (twice || s->value < 0) {
            s = sfpi_record::claim(reg);
            sfpi_record::copy(v.slot(), s, true);
        } else {
            sfpi_record::retain(s);
        }
        slots_[reg] = s;
    }
    // Just before the instruction: everything where it belongs, and named.
    void settle() {
        for (int r = 0; r < 8; ++r)
            if (slots_[r] != nullptr) sfpi_record::relocate(slots_[r], r);
        for (Slot* s : slots_)
            if (s != nullptr) sfpi_record::use(s);
    }
    ~Placed() {
        for (Slot* s : slots_) sfpi_record::release(s);
    }
};

}  // namespace impl_

class vFloat;
class vInt;
class vUInt;
class vMag;
class sFloat16a;
class sFloat16b;

// Every vector type: a handle on a value in an LReg.
#define SFPI_VECTOR_BASICS(T, Base)                                   \
    T() = default;                                                    \
    T(const T&) = default;                                            \
    explicit T(impl_::Raw r) : Base(r) {}                             \
    T(const impl_::sfpu_t& raw) : Base(raw.value.share()) {}          \
    T& operator=(const T& o) {                                        \
        SFPI_ENTRY;                                                   \
        assign(o);                                                    \
        return *this;                                                 \
    }

class vFloat : public impl_::vVal {
public:
    SFPI_VECTOR_BASICS(vFloat, impl_::vVal)
    template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
    vFloat(T value) : vVal(make_constant((float)value, __builtin_return_address(0))) {}
    vFloat(const sFloat16a& h);
    vFloat(const sFloat16b& h);
    static __attribute__((noinline)) impl_::Raw make_constant(float value, const void* at) {
        sfpi_record::Entry e(at);
        return impl_::constant(impl_::bits_of(value), true);
    }
    vFloat& operator+=(const vFloat& o);
    vFloat& operator-=(const vFloat& o);
    vFloat& operator*=(const vFloat& o);
    // With a float literal, as `v = v op f` (SFPADDI / SFPMULI where f is exact in BF16): no
    // register for the literal, as SFPI's compiler folds it into the immediate.
    vFloat& operator+=(float f);
    vFloat& operator-=(float f);
    vFloat& operator*=(float f);
    vFloat operator++(int);
    vFloat& operator++();
    vFloat operator--(int);
    vFloat& operator--();
};

class vInt : public impl_::vVal {
public:
    SFPI_VECTOR_BASICS(vInt, impl_::vVal)
    template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
    vInt(T value) : vVal(make_constant((std::uint32_t)(std::int64_t)value, __builtin_return_address(0))) {}
    explicit vInt(const vUInt& v);
    vInt(const vMag& v);
    static __attribute__((noinline)) impl_::Raw make_constant(std::uint32_t value, const void* at) {
        sfpi_record::Entry e(at);
        return impl_::constant(value, false);
    }
    operator vUInt() const;
    vInt& operator+=(const vInt& o);
    vInt& operator-=(const vInt& o);
    vInt& operator&=(const vInt& o);
    vInt& operator|=(const vInt& o);
    vInt& operator^=(const vInt& o);
    vInt& operator<<=(unsigned n);
    vInt& operator>>=(unsigned n);
    vInt& operator++();
    vInt operator++(int);
    vInt& operator--();
    vInt operator--(int);
};

class vUInt : public impl_::vVal {
public:
    SFPI_VECTOR_BASICS(vUInt, impl_::vVal)
    template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
    vUInt(T value) : vVal(vInt::make_constant((std::uint32_t)value, __builtin_return_address(0))) {}
    explicit vUInt(const vInt& v) : vVal(v) {}
    vUInt& operator+=(const vUInt& o);
    vUInt& operator-=(const vUInt& o);
    vUInt& operator&=(const vUInt& o);
    vUInt& operator|=(const vUInt& o);
    vUInt& operator^=(const vUInt& o);
    vUInt& operator<<=(unsigned n);
    vUInt& operator>>=(unsigned n);
    vUInt& operator++();
    vUInt operator++(int);
    vUInt& operator--();
    vUInt operator--(int);
};

inline vInt::vInt(const vUInt& v) : vVal(v) {}
inline vInt::operator vUInt() const { return vUInt(share()); }

class vSMag : public impl_::vVal {
public:
    SFPI_VECTOR_BASICS(vSMag, impl_::vVal)
};

// The narrow types SFPI keeps in the same 32 bits: only the Dst format differs.
#define SFPI_NARROW(T, Base)                           \
    class T : public Base {                            \
    public:                                            \
        SFPI_VECTOR_BASICS(T, Base)                    \
        T(const Base& v) : Base(v) {}                  \
    };
SFPI_NARROW(vFloat16a, vFloat)
SFPI_NARROW(vFloat16b, vFloat)
SFPI_NARROW(vMag, vUInt)
SFPI_NARROW(vUInt16, vMag)
SFPI_NARROW(vUInt8, vUInt16)
SFPI_NARROW(vSMag16, vSMag)
SFPI_NARROW(vSMag8, vSMag16)
#undef SFPI_NARROW
inline vInt::vInt(const vMag& v) : vVal(v) {}

// Scalars that SFPI turns into immediates.
class sFloat16a {
    std::uint16_t v_;
public:
    explicit constexpr sFloat16a(std::uint32_t v) : v_(v) {}
    explicit constexpr sFloat16a(int v) : v_(v) {}
    explicit sFloat16a(float f) : v_(0) { fail("sFloat16a from a float is not modelled: give the FP16a bits"); (void)f; }
    explicit sFloat16a(double f) : sFloat16a((float)f) {}
    constexpr std::uint32_t get() const { return v_; }
};
class sFloat16b {
    std::uint16_t v_;
public:
    explicit sFloat16b(float f) : v_(impl_::bits_of(f) >> 16) {}
    explicit sFloat16b(double f) : sFloat16b((float)f) {}
    explicit constexpr sFloat16b(std::uint32_t v) : v_(v) {}
    explicit constexpr sFloat16b(int v) : v_(v) {}
    constexpr std::uint32_t get() const { return v_; }
};
using s2vFloat16a = sFloat16a;
using s2vFloat16b = sFloat16b;

namespace impl_ {
__attribute__((noinline)) inline Raw load_half(std::uint32_t bits, unsigned mod0, const void* at) {
    sfpi_record::Entry e(at);
    return fresh([&](int d) { return TT_OP_SFPLOADI(d, mod0, bits); });
}
}  // namespace impl_
inline vFloat::vFloat(const sFloat16a& h)
    : vVal(impl_::load_half(h.get(), SFPLOADI_MOD0_FLOATA, __builtin_return_address(0))) {}
inline vFloat::vFloat(const sFloat16b& h)
    : vVal(impl_::load_half(h.get(), SFPLOADI_MOD0_FLOATB, __builtin_return_address(0))) {}

// ---------------------------------------------------------------------------
// Floating-point arithmetic. A product is kept unevaluated until it is used,
// so that a*b+c becomes one SFPMAD.

class MulExpr {
public:
    vFloat a, b;
    MulExpr(const vFloat& x, const vFloat& y) : a(x), b(y) {}
    __attribute__((noinline)) operator vFloat() const;
};

namespace impl_ {
inline vFloat mad(const vFloat& a, const vFloat& b, const vFloat& c) {
    return vFloat(fresh([&](int d) { return TT_OP_SFPMAD(a.reg(), b.reg(), c.reg(), d, 0); }));
}
inline vFloat negate(const vFloat& v) {
    return vFloat(fresh([&](int d) { return TT_OP_SFPMOV(0, v.reg(), d, SFPMOV_MOD1_NEGATE); }));
}
inline bool bf16_exact(float f) { return (bits_of(f) & 0xFFFF) == 0; }
// Whether `v` holds a constant one SFPLOADI made from a BF16 (not written since), and which: SFPI's
// compiler folds such a value into SFPADDI/SFPMULI as it does the literal itself
// (`vFloat C = 8388608.0f; ... hi + C`).
inline bool bf16_constant(const vFloat& v, float* f) {
    Slot* s = v.slot();
    if (s->value < 0 || s->loads != 1 || s->mod0[0] != SFPLOADI_MOD0_FLOATB) return false;
    std::uint32_t bits = std::uint32_t(s->imm16[0]) << 16;
    std::memcpy(f, &bits, 4);
    return true;
}
inline vFloat add(const vFloat& a, float f);
inline vFloat add(const vFloat& a, const vFloat& b) {
    float f;
    if (bf16_constant(b, &f) && f != 0.0f) return add(a, f);
    if (bf16_constant(a, &f) && f != 0.0f) return add(b, f);
    return vFloat(fresh([&](int d) { return TT_OP_SFPADD(a.reg(), sfpi_record::kOne, b.reg(), d, 0); }));
}
inline vFloat add(const vFloat& a, float f) {
    if (bf16_exact(f) && f != 0.0f)
        return vFloat(in_place(a, [&](int d) { return TT_OP_SFPADDI(bits_of(f) >> 16, d, 0); }));
    return add(a, vFloat(constant(bits_of(f), true)));
}
inline vFloat sub(const vFloat& a, const vFloat& b) {      // b * -1.0 + a
    float f;
    if (bf16_constant(b, &f) && f != 0.0f) return add(a, -f);
    return vFloat(fresh([&](int d) { return TT_OP_SFPMAD(b.reg(), sfpi_record::kMinusOne, a.reg(), d, 0); }));
}
inline MulExpr mul(const vFloat& a, float f) { return MulExpr(a, vFloat(constant(bits_of(f), true))); }
inline vFloat mul_now(const vFloat& a, float f) {
    if (bf16_exact(f))
        return vFloat(in_place(a, [&](int d) { return TT_OP_SFPMULI(bits_of(f) >> 16, d, 0); }));
    return vFloat(mul(a, f));
}
}  // namespace impl_

inline MulExpr::operator vFloat() const {
    SFPI_ENTRY;
    float f;
    if (impl_::bf16_constant(b, &f)) return impl_::mul_now(a, f);
    if (impl_::bf16_constant(a, &f)) return impl_::mul_now(b, f);
    return vFloat(impl_::fresh([&](int d) { return TT_OP_SFPMUL(a.reg(), b.reg(), sfpi_record::kZero, d, 0); }));
}

// A product with a float literal, kept unissued as MulExpr is: added to a value it becomes the
// literal's load and one SFPMAD, rounded once, as SFPI's compiler fuses `v + j * P0`
// (ckernel_sfpu_trigonometry.h's Cody-Waite steps say so); read as a value it is issued then,
// SFPMULI for a literal exact in BF16, else the literal's SFPLOADI and SFPMUL.
class MulLitExpr : public vFloat {
public:
    vFloat a;
    float f = 0.0f;
    MulLitExpr(const vFloat& x, float y) : a(x), f(y) { issue_ = &issue; }
    explicit MulLitExpr(impl_::Raw r) : vFloat(r) {}     // a result some function returns as this type
    MulLitExpr(const MulLitExpr& o) = default;
    using vFloat::operator=;

private:
    static Slot* issue(const vVal& self) {
        const MulLitExpr& m = static_cast<const MulLitExpr&>(self);
        vFloat v = impl_::mul_now(m.a, m.f);
        return v.share().slot;
    }
};

namespace impl_ {
inline vFloat literal(float f) { return vFloat(constant(bits_of(f), true)); }
// m + c, fused where m is still an unissued product with a literal.
inline vFloat plus(const MulLitExpr& m, const vFloat& c) {
    return m.pending() ? mad(m.a, literal(m.f), c) : add(m, c);
}
inline vFloat minus_from(const vFloat& c, const MulLitExpr& m) {     // c - m
    return m.pending() ? mad(m.a, literal(-m.f), c) : sub(c, m);
}
}  // namespace impl_

#if defined(LLK_RV32)
// On the RISC-V only dst_reg++ of SFPI code runs timed (tb/perf): inline, as the SFPI compiler makes it.
#define SFPI_OP __attribute__((always_inline))
#else
#define SFPI_OP __attribute__((noinline))
#endif
SFPI_OP inline MulExpr operator*(const vFloat& a, const vFloat& b) { return MulExpr(a, b); }
SFPI_OP inline MulLitExpr operator*(const vFloat& a, float f) { SFPI_ENTRY; return MulLitExpr(a, f); }
SFPI_OP inline MulLitExpr operator*(float f, const vFloat& a) { SFPI_ENTRY; return MulLitExpr(a, f); }
SFPI_OP inline vFloat operator+(const MulLitExpr& m, const vFloat& c) { SFPI_ENTRY; return impl_::plus(m, c); }
SFPI_OP inline vFloat operator+(const vFloat& c, const MulLitExpr& m) { SFPI_ENTRY; return impl_::plus(m, c); }
SFPI_OP inline vFloat operator-(const vFloat& c, const MulLitExpr& m) { SFPI_ENTRY; return impl_::minus_from(c, m); }
SFPI_OP inline vFloat operator-(const MulLitExpr& m, const vFloat& c) {
    SFPI_ENTRY;
    return impl_::plus(m, impl_::negate(c));
}
SFPI_OP inline vFloat operator+(const MulLitExpr& m, float g) { SFPI_ENTRY; return impl_::plus(m, impl_::literal(g)); }
SFPI_OP inline vFloat operator+(float g, const MulLitExpr& m) { SFPI_ENTRY; return impl_::plus(m, impl_::literal(g)); }
SFPI_OP inline vFloat operator-(const MulLitExpr& m, float g) { SFPI_ENTRY; return impl_::plus(m, impl_::literal(-g)); }
SFPI_OP inline vFloat operator-(float g, const MulLitExpr& m) {
    SFPI_ENTRY;
    return impl_::minus_from(impl_::literal(g), m);
}
SFPI_OP inline vFloat operator+(const MulLitExpr& m, const MulLitExpr& n) {
    SFPI_ENTRY;
    return impl_::plus(m, vFloat(n));
}
SFPI_OP inline vFloat operator-(const MulLitExpr& m, const MulLitExpr& n) {
    SFPI_ENTRY;
    return impl_::plus(m, impl_::negate(n));
}
SFPI_OP inline vFloat operator+(const vFloat& a, const vFloat& b) { SFPI_ENTRY; return impl_::add(a, b); }
SFPI_OP inline vFloat operator+(const vFloat& a, float f) { SFPI_ENTRY; return impl_::add(a, f); }
SFPI_OP inline vFloat operator+(float f, const vFloat& a) { SFPI_ENTRY; return impl_::add(a, f); }
SFPI_OP inline vFloat operator-(const vFloat& a, const vFloat& b) { SFPI_ENTRY; return impl_::sub(a, b); }
SFPI_OP inline vFloat operator-(const vFloat& a, float f) { SFPI_ENTRY; return impl_::add(a, -f); }
SFPI_OP inline vFloat operator-(float f, const vFloat& a) {
    SFPI_ENTRY;
    return impl_::sub(vFloat(impl_::constant(impl_::bits_of(f), true)), a);
}
SFPI_OP inline vFloat operator-(const vFloat& a) { SFPI_ENTRY; return impl_::negate(a); }
SFPI_OP inline vFloat operator+(const vFloat& a) { return a; }
// The fused forms.
SFPI_OP inline vFloat operator+(const MulExpr& m, const vFloat& c) { SFPI_ENTRY; return impl_::mad(m.a, m.b, c); }
SFPI_OP inline vFloat operator+(const vFloat& c, const MulExpr& m) { SFPI_ENTRY; return impl_::mad(m.a, m.b, c); }
SFPI_OP inline vFloat operator+(const MulExpr& m, const MulExpr& n) {
    SFPI_ENTRY;
    return impl_::mad(m.a, m.b, vFloat(n));
}
SFPI_OP inline vFloat operator+(const MulExpr& m, float f) {
    SFPI_ENTRY;
    return impl_::mad(m.a, m.b, vFloat(impl_::constant(impl_::bits_of(f), true)));
}
SFPI_OP inline vFloat operator+(float f, const MulExpr& m) {
    SFPI_ENTRY;
    return impl_::mad(m.a, m.b, vFloat(impl_::constant(impl_::bits_of(f), true)));
}
SFPI_OP inline vFloat operator-(const MulExpr& m, const vFloat& c) {
    SFPI_ENTRY;
    return impl_::mad(m.a, m.b, impl_::negate(c));
}
SFPI_OP inline vFloat operator-(const MulExpr& m, float f) {
    SFPI_ENTRY;
    return impl_::mad(m.a, m.b, vFloat(impl_::constant(impl_::bits_of(-f), true)));
}
// c - a*b is not fused: the product is rounded (SFPMUL), then subtracted, as SFPI's compiler
// leaves it (no MAD negates its product on Wormhole). The accuracy sweep shows it: Erfinv's
// `1.0f - x * x` reproduces the hardware's Float32 maximum only so (docs/llk.md).
SFPI_OP inline vFloat operator-(const vFloat& c, const MulExpr& m) {
    SFPI_ENTRY;
    return impl_::sub(c, vFloat(m));
}
SFPI_OP inline vFloat operator-(float f, const MulExpr& m) {
    SFPI_ENTRY;
    return impl_::sub(vFloat(impl_::constant(impl_::bits_of(f), true)), vFloat(m));
}
SFPI_OP inline vFloat operator-(const MulExpr& m, const MulExpr& n) {
    SFPI_ENTRY;
    return impl_::mad(m.a, m.b, impl_::negate(vFloat(n)));
}
SFPI_OP inline vFloat operator+(const MulExpr& n, const MulLitExpr& m) { SFPI_ENTRY; return impl_::mad(n.a, n.b, m); }
SFPI_OP inline vFloat operator+(const MulLitExpr& m, const MulExpr& n) { SFPI_ENTRY; return impl_::plus(m, vFloat(n)); }
SFPI_OP inline vFloat operator-(const MulExpr& n, const MulLitExpr& m) {
    SFPI_ENTRY;
    return impl_::mad(n.a, n.b, impl_::negate(m));
}
SFPI_OP inline vFloat operator-(const MulLitExpr& m, const MulExpr& n) {
    SFPI_ENTRY;
    return impl_::plus(m, impl_::negate(vFloat(n)));
}
SFPI_OP inline MulExpr operator*(const MulExpr& m, const vFloat& c) { SFPI_ENTRY; return MulExpr(vFloat(m), c); }
SFPI_OP inline MulExpr operator*(const vFloat& c, const MulExpr& m) { SFPI_ENTRY; return MulExpr(c, vFloat(m)); }
SFPI_OP inline MulExpr operator*(const MulExpr& m, const MulExpr& n) {
    SFPI_ENTRY;
    return MulExpr(vFloat(m), vFloat(n));
}
SFPI_OP inline vFloat operator*(const MulExpr& m, float f) { SFPI_ENTRY; return impl_::mul_now(vFloat(m), f); }
SFPI_OP inline vFloat operator*(float f, const MulExpr& m) { SFPI_ENTRY; return impl_::mul_now(vFloat(m), f); }
SFPI_OP inline vFloat operator-(const MulExpr& m) {
    SFPI_ENTRY;
    return vFloat(impl_::fresh([&](int d) {
        return TT_OP_SFPMUL(m.a.reg(), impl_::negate(m.b).reg(), sfpi_record::kZero, d, 0);
    }));
}

inline vFloat& vFloat::operator+=(const vFloat& o) { SFPI_ENTRY; assign(impl_::add(*this, o)); return *this; }
inline vFloat& vFloat::operator-=(const vFloat& o) { SFPI_ENTRY; assign(impl_::sub(*this, o)); return *this; }
inline vFloat& vFloat::operator*=(const vFloat& o) { SFPI_ENTRY; assign(vFloat(MulExpr(*this, o))); return *this; }
inline vFloat& vFloat::operator+=(float f) {
    SFPI_ENTRY;
    if (impl_::bf16_exact(f) && f != 0.0f)
        update_in_place([&](int d) { return TT_OP_SFPADDI(impl_::bits_of(f) >> 16, d, 0); });
    else
        assign(impl_::add(*this, f));
    return *this;
}
inline vFloat& vFloat::operator-=(float f) { return *this += -f; }
inline vFloat& vFloat::operator*=(float f) {
    SFPI_ENTRY;
    if (impl_::bf16_exact(f))
        update_in_place([&](int d) { return TT_OP_SFPMULI(impl_::bits_of(f) >> 16, d, 0); });
    else
        assign(impl_::mul_now(*this, f));
    return *this;
}
inline vFloat& vFloat::operator++() { SFPI_ENTRY; assign(impl_::add(*this, 1.0f)); return *this; }
inline vFloat vFloat::operator++(int) { SFPI_ENTRY; vFloat old = *this; assign(impl_::add(*this, 1.0f)); return old; }
inline vFloat& vFloat::operator--() { SFPI_ENTRY; assign(impl_::add(*this, -1.0f)); return *this; }
inline vFloat vFloat::operator--(int) { SFPI_ENTRY; vFloat old = *this; assign(impl_::add(*this, -1.0f)); return old; }

// ---------------------------------------------------------------------------
// Integer arithmetic: SFPIADD, SFPAND/OR/XOR/NOT, SFPSHFT.

template <class T> struct is_int_vector : std::bool_constant<std::is_base_of_v<vInt, T> || std::is_base_of_v<vUInt, T> ||
                                                             std::is_base_of_v<vSMag, T>> {};
// As SFPI: vInt with vInt or vMag is vInt; with vUInt, vUInt; vUInt with vUInt or vMag, vUInt.
template <class A, class B> struct int_result {
    static constexpr bool signed_a = std::is_base_of_v<vInt, A>, signed_b = std::is_base_of_v<vInt, B>;
    static constexpr bool mag_a = std::is_base_of_v<vMag, A>, mag_b = std::is_base_of_v<vMag, B>;
    using type = std::conditional_t<
        std::is_base_of_v<vSMag, A>, vSMag,
        std::conditional_t<(signed_a && (signed_b || mag_b)) || (signed_b && mag_a), vInt, vUInt>>;
};
template <class A, class B> using int_result_t = typename int_result<std::decay_t<A>, std::decay_t<B>>::type;
template <class A, class B>
using if_ints = std::enable_if_t<is_int_vector<std::decay_t<A>>::value && is_int_vector<std::decay_t<B>>::value, int>;
template <class A, class S>
using if_int_scalar = std::enable_if_t<is_int_vector<std::decay_t<A>>::value && std::is_integral_v<S>, int>;

namespace impl_ {
inline bool fits_imm12(std::int64_t v) { return v >= -2048 && v <= 2047; }
inline Raw iadd(const vVal& a, const vVal& b, bool subtract) {
    // SFPIADD: VD = VC + VD, or VC - VD with ARG_2SCOMP_LREG_DST.
    return in_place(b, [&](int d) {
        return TT_OP_SFPIADD(0, a.reg(), d, SFPIADD_MOD1_CC_NONE | (subtract ? SFPIADD_MOD1_ARG_2SCOMP_LREG_DST : 0));
    });
}
inline Raw iadd_imm(const vVal& a, std::int64_t k) {
    if (fits_imm12(k))
        return fresh([&](int d) {
            return TT_OP_SFPIADD((std::uint32_t)k & 0xFFF, a.reg(), d, SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_NONE);
        });
    vInt c(constant((std::uint32_t)k, false));
    return iadd(a, c, false);
}
enum Bitwise { AND, OR, XOR };
inline Raw bitwise(Bitwise op, const vVal& a, const vVal& b) {
    return in_place(a, [&](int d) {
        return op == AND ? TT_OP_SFPAND(0, b.reg(), d, 0)
             : op == OR  ? TT_OP_SFPOR(0, b.reg(), d, 0)
                         : TT_OP_SFPXOR(0, b.reg(), d, 0);
    });
}
// SFPSHFT: left for a positive amount, right for a negative one; the right
// shift copies the sign bit where `arithmetic` (Blackhole's Mod1 bit 1).
constexpr unsigned kArithmetic = 2;
inline unsigned shift_mode(bool arithmetic) {
    if (arithmetic && !sfpi_record::kBlackhole) fail("arithmetic shifts are Blackhole's; Wormhole's SFPSHFT is logical");
    return arithmetic ? kArithmetic : 0;
}
inline Raw shift_imm(const vVal& a, int amount, bool arithmetic = false) {
    if (!fits_imm12(amount)) fail("shift amount outside -2048..2047");
    unsigned mod1 = SFPSHFT_MOD1_ARG_IMM | shift_mode(arithmetic);
    return in_place(a, [&](int d) { return TT_OP_SFPSHFT((std::uint32_t)amount & 0xFFF, 0, d, mod1); });
}
inline Raw shift_vec(const vVal& a, const vVal& amount, bool arithmetic = false) {
    unsigned mod1 = shift_mode(arithmetic);
    return in_place(a, [&](int d) { return TT_OP_SFPSHFT(0, amount.reg(), d, mod1); });
}
}  // namespace impl_

#define SFPI_INT_BINARY(op, body_vec, body_scalar)                                                    \
    template <class A, class B, if_ints<A, B> = 0>                                                    \
    SFPI_OP int_result_t<A, B> operator op(const A& a, const B& b) {                                 \
        SFPI_ENTRY;                                                                                   \
        return int_result_t<A, B>(body_vec);                                                          \
    }                                                                                                 \
    template <class A, class S, if_int_scalar<A, S> = 0>                                              \
    SFPI_OP int_result_t<A, A> operator op(const A& a, S s) {                                        \
        SFPI_ENTRY;                                                                                   \
        std::int64_t k = (std::int64_t)s;                                                             \
        return int_result_t<A, A>(body_scalar);                                                       \
    }
SFPI_INT_BINARY(+, impl_::iadd(a, b, false), impl_::iadd_imm(a, k))
SFPI_INT_BINARY(-, impl_::iadd(a, b, true), impl_::iadd_imm(a, -k))
SFPI_INT_BINARY(&, impl_::bitwise(impl_::AND, a, b), impl_::bitwise(impl_::AND, a, vInt(impl_::constant((std::uint32_t)k, false))))
SFPI_INT_BINARY(|, impl_::bitwise(impl_::OR, a, b), impl_::bitwise(impl_::OR, a, vInt(impl_::constant((std::uint32_t)k, false))))
SFPI_INT_BINARY(^, impl_::bitwise(impl_::XOR, a, b), impl_::bitwise(impl_::XOR, a, vInt(impl_::constant((std::uint32_t)k, false))))
SFPI_INT_BINARY(<<, impl_::shift_vec(a, b), impl_::shift_imm(a, (int)k))
#undef SFPI_INT_BINARY
template <class S, class B, std::enable_if_t<std::is_integral_v<S> && is_int_vector<B>::value, int> = 0>
SFPI_OP int_result_t<B, B> operator+(S s, const B& b) { SFPI_ENTRY; return int_result_t<B, B>(impl_::iadd_imm(b, (std::int64_t)s)); }
template <class S, class B, std::enable_if_t<std::is_integral_v<S> && is_int_vector<B>::value, int> = 0>
SFPI_OP int_result_t<B, B> operator-(S s, const B& b) {
    SFPI_ENTRY;
    vInt c(impl_::constant((std::uint32_t)s, false));
    return int_result_t<B, B>(impl_::iadd(c, b, true));
}
#define SFPI_INT_SCALAR_FIRST(op)                                                                  \
    template <class S, class B, std::enable_if_t<std::is_integral_v<S> && is_int_vector<B>::value, int> = 0> \
    SFPI_OP int_result_t<B, B> operator op(S s, const B& b) { return b op s; }
SFPI_INT_SCALAR_FIRST(&)
SFPI_INT_SCALAR_FIRST(|)
SFPI_INT_SCALAR_FIRST(^)
#undef SFPI_INT_SCALAR_FIRST
// Right shifts: SFPSHFT by a negative amount; logical, except a vInt's on
// Blackhole, which is arithmetic as SFPI's (Wormhole's SFPI has no vInt >>).
template <class A>
constexpr bool arithmetic_right = sfpi_record::kBlackhole && std::is_base_of_v<vInt, A>;
template <class A, class S, if_int_scalar<A, S> = 0>
SFPI_OP int_result_t<A, A> operator>>(const A& a, S s) {
    SFPI_ENTRY;
    return int_result_t<A, A>(impl_::shift_imm(a, -(int)s, arithmetic_right<A>));
}
template <class A, class B, if_ints<A, B> = 0>
SFPI_OP int_result_t<A, A> operator>>(const A& a, const B& b) {
    SFPI_ENTRY;
    vInt negated(impl_::iadd(vInt(impl_::constant(0, false)), b, true));
    return int_result_t<A, A>(impl_::shift_vec(a, negated, arithmetic_right<A>));
}
template <class A, std::enable_if_t<is_int_vector<A>::value, int> = 0>
SFPI_OP A operator~(const A& a) {
    SFPI_ENTRY;
    return A(impl_::fresh([&](int d) { return TT_OP_SFPNOT(0, a.reg(), d, 0); }));
}
template <class A, std::enable_if_t<is_int_vector<A>::value, int> = 0>
SFPI_OP A operator-(const A& a) {
    SFPI_ENTRY;
    return A(impl_::iadd(vInt(impl_::constant(0, false)), a, true));
}

#define SFPI_INT_COMPOUND(T)                                                                        \
    inline T& T::operator+=(const T& o) { SFPI_ENTRY; assign(T(*this + o)); return *this; }          \
    inline T& T::operator-=(const T& o) { SFPI_ENTRY; assign(T(*this - o)); return *this; }          \
    inline T& T::operator&=(const T& o) { SFPI_ENTRY; assign(T(*this & o)); return *this; }          \
    inline T& T::operator|=(const T& o) { SFPI_ENTRY; assign(T(*this | o)); return *this; }          \
    inline T& T::operator^=(const T& o) { SFPI_ENTRY; assign(T(*this ^ o)); return *this; }          \
    inline T& T::operator<<=(unsigned n) { SFPI_ENTRY; assign(T(*this << n)); return *this; }        \
    inline T& T::operator>>=(unsigned n) { SFPI_ENTRY; assign(T(*this >> n)); return *this; }        \
    inline T& T::operator++() { SFPI_ENTRY; assign(T(*this + 1)); return *this; }                    \
    inline T T::operator++(int) { SFPI_ENTRY; T old = *this; assign(T(*this + 1)); return old; }     \
    inline T& T::operator--() { SFPI_ENTRY; assign(T(*this - 1)); return *this; }                    \
    inline T T::operator--(int) { SFPI_ENTRY; T old = *this; assign(T(*this - 1)); return old; }
SFPI_INT_COMPOUND(vInt)
SFPI_INT_COMPOUND(vUInt)
#undef SFPI_INT_COMPOUND

// ---------------------------------------------------------------------------
// Conditions. A vBool is a tree of tests on values already computed; a
// v_if narrows the lane flags by it (sfpi_record.h's depth counts scopes).

class vBool {
public:
    enum Kind { LEAF, AND, OR, NOT };
    Kind kind;
    impl_::vVal value;          // LEAF: the value tested
    unsigned test = 0;          // LEAF: SFPSETCC Mod1 (LT0, NE0, GTE0, EQ0)
    std::shared_ptr<vBool> l, r;
    vBool(impl_::vVal v, unsigned t) : kind(LEAF), value(v), test(t) {}
    vBool(Kind k, const vBool& a, const vBool& b)
        : kind(k), l(std::make_shared<vBool>(a)), r(std::make_shared<vBool>(b)) {}
    vBool(const vInt& v);
    vBool(const vUInt& v);
};

namespace impl_ {
inline vBool leaf(const vVal& v, unsigned test) { return vBool(v, test); }
// "difference < 0" and friends, for a difference d = a - b already computed.
inline vBool compare(const vVal& d, int cond) {
    switch (cond) {
        case 0: return leaf(d, SFPSETCC_MOD1_LREG_LT0);                       // <
        case 1: return leaf(d, SFPSETCC_MOD1_LREG_GTE0);                      // >=
        case 2: return leaf(d, SFPSETCC_MOD1_LREG_EQ0);                       // ==
        case 3: return leaf(d, SFPSETCC_MOD1_LREG_NE0);                       // !=
        case 4: return vBool(vBool::AND, leaf(d, SFPSETCC_MOD1_LREG_GTE0), leaf(d, SFPSETCC_MOD1_LREG_NE0));  // >
        default: return vBool(vBool::OR, leaf(d, SFPSETCC_MOD1_LREG_LT0), leaf(d, SFPSETCC_MOD1_LREG_EQ0));   // <=
    }
}
inline vBool compare_float(const vFloat& a, const vFloat& b, int cond) { return compare(sub(a, b), cond); }
inline vBool compare_float(const vFloat& a, float f, int cond) {
    if (f == 0.0f) return compare(a, cond);
    return compare(add(a, -f), cond);
}
inline vBool compare_int(const vVal& a, const vVal& b, int cond) { return compare(vInt(iadd(a, b, true)), cond); }
inline vBool compare_int(const vVal& a, std::int64_t k, int cond) {
    if (k == 0) return compare(a, cond);
    return compare(vInt(iadd_imm(a, -k)), cond);
}
// Unsigned order: flip both sign bits, then compare as signed.
inline vBool compare_uint(const vVal& a, const vVal& b, int cond) {
    if (cond == 2 || cond == 3) return compare_int(a, b, cond);
    vInt sign(constant(0x80000000u, false));
    vInt fa(bitwise(XOR, a, sign)), fb(bitwise(XOR, b, sign));
    return compare_int(fa, fb, cond);
}
}  // namespace impl_

inline vBool::vBool(const vInt& v) : vBool(impl_::compare(v, 3)) {}
inline vBool::vBool(const vUInt& v) : vBool(impl_::compare(v, 3)) {}

#define SFPI_COMPARE(op, cond)                                                                                  \
    SFPI_OP inline vBool operator op(const vFloat& a, const vFloat& b) { SFPI_ENTRY; return impl_::compare_float(a, b, cond); } \
    SFPI_OP inline vBool operator op(const vFloat& a, float f) { SFPI_ENTRY; return impl_::compare_float(a, f, cond); }         \
    template <class A, class B, if_ints<A, B> = 0>                                                              \
    SFPI_OP vBool operator op(const A& a, const B& b) {                                                        \
        SFPI_ENTRY;                                                                                             \
        if constexpr (std::is_base_of_v<vUInt, A>) return impl_::compare_uint(a, b, cond);                      \
        else return impl_::compare_int(a, b, cond);                                                             \
    }                                                                                                           \
    template <class A, class S, if_int_scalar<A, S> = 0>                                                        \
    SFPI_OP vBool operator op(const A& a, S s) {                                                               \
        SFPI_ENTRY;                                                                                             \
        if constexpr (std::is_base_of_v<vUInt, A>)                                                              \
            return impl_::compare_uint(a, vInt(impl_::constant((std::uint32_t)s, false)), cond);               \
        else return impl_::compare_int(a, (std::int64_t)s, cond);                                               \
    }
SFPI_COMPARE(<, 0)
SFPI_COMPARE(>=, 1)
SFPI_COMPARE(==, 2)
SFPI_COMPARE(!=, 3)
SFPI_COMPARE(>, 4)
SFPI_COMPARE(<=, 5)
#undef SFPI_COMPARE
SFPI_OP inline vBool operator<(float f, const vFloat& a) { SFPI_ENTRY; return impl_::compare_float(a, f, 4); }
SFPI_OP inline vBool operator>(float f, const vFloat& a) { SFPI_ENTRY; return impl_::compare_float(a, f, 0); }
SFPI_OP inline vBool operator<=(float f, const vFloat& a) { SFPI_ENTRY; return impl_::compare_float(a, f, 1); }
SFPI_OP inline vBool operator>=(float f, const vFloat& a) { SFPI_ENTRY; return impl_::compare_float(a, f, 5); }
SFPI_OP inline vBool operator==(float f, const vFloat& a) { SFPI_ENTRY; return impl_::compare_float(a, f, 2); }
SFPI_OP inline vBool operator!=(float f, const vFloat& a) { SFPI_ENTRY; return impl_::compare_float(a, f, 3); }
inline vBool operator&&(const vBool& a, const vBool& b) { return vBool(vBool::AND, a, b); }
inline vBool operator||(const vBool& a, const vBool& b) { return vBool(vBool::OR, a, b); }
inline vBool operator!(const vBool& a) { return vBool(vBool::NOT, a, a); }

namespace impl_ {

// Narrows the enabled lanes to those where `c` holds (negated: where it does
// not). And is one test after the other. Or(a, b) is not(not a and not b): a
// stack entry keeps the lanes from before, SFPCOMPC complements within them,
// and the entry goes again with the result kept in a register (1.0 where
// enabled), so that an enclosing || or v_else finds its own entry on top.
inline void narrow(const vBool& c, bool negated) {
    switch (c.kind) {
        case vBool::LEAF: {
            unsigned test = c.test;
            if (negated) {   // LT0 <-> GTE0, NE0 <-> EQ0
                test = test == SFPSETCC_MOD1_LREG_LT0 ? SFPSETCC_MOD1_LREG_GTE0
                     : test == SFPSETCC_MOD1_LREG_GTE0 ? SFPSETCC_MOD1_LREG_LT0
                     : test == SFPSETCC_MOD1_LREG_NE0 ? SFPSETCC_MOD1_LREG_EQ0
                                                      : SFPSETCC_MOD1_LREG_NE0;
            }
            emit(TT_OP_SFPSETCC(0, c.value.reg(), 0, test));
            return;
        }
        case vBool::NOT:
            narrow(*c.l, !negated);
            return;
        case vBool::AND:
        case vBool::OR:
            if ((c.kind == vBool::AND) != negated) {
                narrow(*c.l, negated);
                narrow(*c.r, negated);
                return;
            }
            emit(TT_OP_SFPPUSHC(0, 0, 0, 0));
            narrow(*c.l, !negated);
            narrow(*c.r, !negated);
            emit(TT_OP_SFPCOMPC(0, 0, 0, 0));
            vFloat keep(fresh([&](int d) {
                return TT_OP_SFPMOV(0, sfpi_record::kZero, d, SFPMOV_MOD1_ALL_LANES_ENABLED);
            }));
            emit(TT_OP_SFPMOV(0, sfpi_record::kOne, keep.reg(), 0));
            emit(TT_OP_SFPPOPC(0, 0, 0, 0));
            emit(TT_OP_SFPSETCC(0, keep.reg(), 0, SFPSETCC_MOD1_LREG_NE0));
            return;
    }
}

}  // namespace impl_

// The scope of a v_if / v_block: one SFPPUSHC per level, popped at the end.
class CCScope {
    int depth_ = 0;
public:
    __attribute__((noinline)) CCScope() {}
    __attribute__((noinline)) ~CCScope() {
        SFPI_ENTRY;
        for (int i = 0; i < depth_; ++i) emit(TT_OP_SFPPOPC(0, 0, 0, 0));
        sfpi_record::state.depth -= depth_ > 0 ? 1 : 0;
    }
    __attribute__((noinline)) void push() {
        SFPI_ENTRY;
        if (depth_ == 0) ++sfpi_record::state.depth;
        ++depth_;
        emit(TT_OP_SFPPUSHC(0, 0, 0, 0));
    }
    __attribute__((noinline)) void cond(const vBool& c) {
        SFPI_ENTRY;
        impl_::narrow(c, false);
    }
    __attribute__((noinline)) void else_() {
        SFPI_ENTRY;
        emit(TT_OP_SFPCOMPC(0, 0, 0, 0));
    }

};

}  // namespace sfpi

#define v_if(c) { ::sfpi::CCScope sfpi_cc_; sfpi_cc_.push(); sfpi_cc_.cond(c); {
#define v_elseif(c) } sfpi_cc_.else_(); sfpi_cc_.push(); sfpi_cc_.cond(c); {
#define v_else } sfpi_cc_.else_(); {
#define v_endif } }
#define v_block { ::sfpi::CCScope sfpi_cc_; sfpi_cc_.push(); {
#define v_and(c) sfpi_cc_.cond(c)
#define v_endblock } }

#include "sfpi_lib.h"
