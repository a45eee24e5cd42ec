// Stand-in for the SFPI library, for the `sfpu llk` front end (tb/llk).
//
// The front end runs kernels written with TTI_ macros. Their headers also
// hold SFPI code (helpers, other entry points, a kernel's non-macro path),
// which must compile but cannot be run here: every SFPI vector value,
// operator and function below compiles for any operands and, if it is ever
// executed, stops the run naming the C++ line that used it. Two SFPI
// constructs are modelled because TTI_ kernels use them around their
// instructions: `dst_reg++` (INCRWC of the Dst counter by one row group) and
// the assignment of a constant to a programmable constant register
// (vConstFloatPrgm0 = 1.5f: SFPLOADI into L0, then SFPCONFIG).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "llk_names.h"
#include "llk_record.h"

#define sfpi_inline inline
#define SFPI_STOP(what) \
    ::llk_record::stop_at("SFPI " what " is not modelled: the front end runs TTI_ kernels", \
                          __builtin_return_address(0))

namespace sfpi {

struct sfpi_value {};     // everything below that SFPI would turn into instructions
template <class T>
using is_sfpi = std::is_base_of<sfpi_value, std::decay_t<T>>;
template <class... T>
constexpr bool any_sfpi = (is_sfpi<T>::value || ...);

template <int Kind>
struct vec : sfpi_value {
    vec() {}
    vec(const vec&) = default;
    template <class T>
    __attribute__((noinline)) vec(const T&) { SFPI_STOP("vector value"); }
    template <class T>
    __attribute__((noinline)) vec& operator=(const T&) { SFPI_STOP("vector assignment"); }
    __attribute__((noinline)) vec& operator=(const vec&) { SFPI_STOP("vector assignment"); }
    template <class T>
    __attribute__((noinline)) vec& operator+=(const T&) { SFPI_STOP("operator +="); }
    template <class T>
    __attribute__((noinline)) vec& operator-=(const T&) { SFPI_STOP("operator -="); }
    template <class T>
    __attribute__((noinline)) vec& operator*=(const T&) { SFPI_STOP("operator *="); }
    template <class T>
    __attribute__((noinline)) vec& operator&=(const T&) { SFPI_STOP("operator &="); }
    template <class T>
    __attribute__((noinline)) vec& operator|=(const T&) { SFPI_STOP("operator |="); }
    template <class T>
    __attribute__((noinline)) vec& operator^=(const T&) { SFPI_STOP("operator ^="); }
    template <class T>
    __attribute__((noinline)) vec& operator<<=(const T&) { SFPI_STOP("operator <<="); }
    template <class T>
    __attribute__((noinline)) vec& operator>>=(const T&) { SFPI_STOP("operator >>="); }
    __attribute__((noinline)) vec& operator++() { SFPI_STOP("operator ++"); }
    __attribute__((noinline)) vec operator++(int) { SFPI_STOP("operator ++"); }
    __attribute__((noinline)) vec& operator--() { SFPI_STOP("operator --"); }
    __attribute__((noinline)) vec operator--(int) { SFPI_STOP("operator --"); }
    __attribute__((noinline)) vec operator-() const { SFPI_STOP("operator -"); }
    __attribute__((noinline)) vec operator~() const { SFPI_STOP("operator ~"); }
    __attribute__((noinline)) int get() const { SFPI_STOP("get()"); }
};

using vFloat = vec<0>;
using vInt = vec<1>;
using vUInt = vec<2>;
using vMag = vec<3>;
using vSMag = vec<4>;
using vSMag8 = vec<5>;
using vSMag16 = vec<6>;
using vUInt8 = vec<7>;
using vUInt16 = vec<8>;
using vFloat16a = vec<9>;
using vFloat16b = vec<10>;
using vLut8si = vec<11>;
using vLut16ss = vec<12>;
using vLut16ii = vec<13>;
using vLut16 = vec<14>;

struct vCond : sfpi_value {
    template <class T>
    __attribute__((noinline)) vCond(const T&) { SFPI_STOP("condition"); }
    vCond() {}
};
using vBool = vCond;

template <class A, class B>
struct result {
    using type = vFloat;
};
template <int K, class B>
struct result<vec<K>, B> {
    using type = vec<K>;
};
template <class A, int K>
struct result<A, vec<K>> {
    using type = vec<K>;
};
template <int K, int J>
struct result<vec<K>, vec<J>> {
    using type = vec<K>;
};
template <class A, class B>
using result_t = typename result<std::decay_t<A>, std::decay_t<B>>::type;

#define SFPI_BINARY(op, ...)                                                     \
    template <class A, class B, std::enable_if_t<any_sfpi<A, B>, int> = 0>       \
    __attribute__((noinline)) __VA_ARGS__ operator op(const A&, const B&) { SFPI_STOP("operator " #op); }
SFPI_BINARY(+, result_t<A, B>)
SFPI_BINARY(-, result_t<A, B>)
SFPI_BINARY(*, result_t<A, B>)
SFPI_BINARY(/, result_t<A, B>)
SFPI_BINARY(&, result_t<A, B>)
SFPI_BINARY(|, result_t<A, B>)
SFPI_BINARY(^, result_t<A, B>)
SFPI_BINARY(<<, result_t<A, B>)
SFPI_BINARY(>>, result_t<A, B>)
SFPI_BINARY(<, vCond)
SFPI_BINARY(>, vCond)
SFPI_BINARY(<=, vCond)
SFPI_BINARY(>=, vCond)
SFPI_BINARY(==, vCond)
SFPI_BINARY(!=, vCond)
SFPI_BINARY(&&, vCond)
SFPI_BINARY(||, vCond)
#undef SFPI_BINARY
template <class A, std::enable_if_t<is_sfpi<A>::value, int> = 0>
__attribute__((noinline)) vCond operator!(const A&) { SFPI_STOP("operator !"); }

// Scalars SFPI turns into immediates: plain values here.
struct sFloat16b {
    constexpr sFloat16b(float) {}
    constexpr sFloat16b(int) {}
    constexpr sFloat16b(unsigned) {}
    constexpr sFloat16b(double) {}
};
struct sFloat16a {
    constexpr sFloat16a(float) {}
    constexpr sFloat16a(int) {}
    constexpr sFloat16a(double) {}
};
using s2vFloat16b = sFloat16b;
using s2vFloat16a = sFloat16a;
struct sFloat {
    constexpr sFloat(float) {}
};

enum class RoundMode { NearestEven, Nearest = NearestEven, Stochastic, NearestStochastic = Stochastic };
enum class ExponentMode { Debiased, Biased };
enum class MantissaMode { ImplicitOne, NoImplicitOne };
enum class ShiftMode { Logical, Arithmetic };
enum class DataLayout { Default, FSrcB, I32, U16, U32, SM32, TILE, ROW_MAJOR };
enum class LRegs { LReg0, LReg1, LReg2, LReg3, LReg4, LReg5, LReg6, LReg7, LRegCount };

// Functions: any arguments with an SFPI value among them, or a result type named explicitly.
#define SFPI_FN(name, R)                                                                      \
    template <class... A, std::enable_if_t<any_sfpi<A...> || sizeof...(A) == 0, int> = 0>     \
    __attribute__((noinline)) R name(const A&...) { SFPI_STOP("sfpi::" #name); }
SFPI_FN(abs, vFloat)
SFPI_FN(min, vFloat)
SFPI_FN(max, vFloat)
SFPI_FN(min_max, void)
SFPI_FN(clamp, vFloat)
SFPI_FN(symmetric_clamp, vFloat)
SFPI_FN(exexp, vInt)
SFPI_FN(exexp_nodebias, vInt)
SFPI_FN(exman, vMag)
SFPI_FN(exman8, vInt)
SFPI_FN(exman9, vInt)
SFPI_FN(setexp, vFloat)
SFPI_FN(setman, vFloat)
SFPI_FN(setsgn, vFloat)
SFPI_FN(setsgn2, vFloat)
SFPI_FN(addexp, vFloat)
SFPI_FN(copysgn, vFloat)
SFPI_FN(copyman, vFloat)
SFPI_FN(shft, vInt)
SFPI_FN(lz, vInt)
SFPI_FN(lz_nosgn, vInt)
SFPI_FN(lut, vFloat)
SFPI_FN(lut_sign, vFloat)
SFPI_FN(lut2, vFloat)
SFPI_FN(lut2_sign, vFloat)
SFPI_FN(is_inf, vCond)
SFPI_FN(is_nan, vCond)
SFPI_FN(is_finite, vCond)
SFPI_FN(is_pos, vCond)
SFPI_FN(is_neg, vCond)
SFPI_FN(nearby, vFloat)
SFPI_FN(int32_to_float, vFloat)
SFPI_FN(float_to_fp16a, vFloat)
SFPI_FN(float_to_fp16b, vFloat)
SFPI_FN(float_to_uint8, vUInt)
SFPI_FN(float_to_int8, vInt)
SFPI_FN(float_to_uint16, vUInt)
SFPI_FN(float_to_int16, vInt)
SFPI_FN(int32_to_uint8, vUInt)
SFPI_FN(int32_to_int8, vInt)
SFPI_FN(subvec_transp, void)
SFPI_FN(subvec_shflror1, vFloat)
SFPI_FN(subvec_shflshr1, vFloat)
SFPI_FN(vec_swap, void)
SFPI_FN(vec_min_max, void)
SFPI_FN(reduce_bool4, vCond)
SFPI_FN(approx_recip, vFloat)
SFPI_FN(approx_exp, vFloat)
SFPI_FN(mul_u24, vUInt)
#undef SFPI_FN
inline void lreg_pressure(...) {}

template <class R, class... A>
__attribute__((noinline)) R as(const A&...) { SFPI_STOP("sfpi::as"); }
template <class R, class... A>
__attribute__((noinline)) R reinterpret(const A&...) { SFPI_STOP("sfpi::reinterpret"); }
template <class R, class... A>
__attribute__((noinline)) R convert(const A&...) { SFPI_STOP("sfpi::convert"); }

// The Dst window: dst_reg++ moves the Dst counter by one row group, as SFPI's does.
struct dreg : sfpi_value {
    template <auto Layout>
    __attribute__((noinline)) vUInt mode() const { SFPI_STOP("dst_reg view"); }
    template <class T>
    __attribute__((noinline)) dreg& operator=(const T&) { SFPI_STOP("dst_reg store"); }
    __attribute__((noinline)) dreg& operator=(const dreg&) { SFPI_STOP("dst_reg store"); }
};
struct dst_reg_t {
    __attribute__((noinline)) dreg operator[](int) const { return dreg{}; }
    __attribute__((noinline)) void operator++(int) { step(1, __builtin_return_address(0)); }
    __attribute__((noinline)) void operator++() { step(1, __builtin_return_address(0)); }
    __attribute__((noinline)) void operator+=(int rows) { step(rows, __builtin_return_address(0)); }
    static void step(int rows, const void* at) {
        unsigned increment = rows * SFP_DESTREG_STRIDE;
        if (rows < 0 || increment > 15) {
            ::llk_record::stop_at("SFPI dst_reg += n with n outside 0..7 is not modelled", at);
        }
        char text[64];
        std::snprintf(text, sizeof text, "TTI_INCRWC(0, %u, 0, 0);", increment);
        ::llk_record::emit_at('S', "dst_reg++: INCRWC by one row group", at);
        ::llk_record::emit_at('T', text, at);
    }
};
inline dst_reg_t dst_reg;

struct lreg : sfpi_value {
    void in_use() const {}     // a register-allocation hint: no instruction
    template <class T>
    __attribute__((noinline)) lreg& operator=(const T&) { SFPI_STOP("l_reg assignment"); }
};
struct l_reg_t {
    lreg operator[](LRegs) const { return lreg{}; }
    lreg operator[](int) const { return lreg{}; }
};
inline l_reg_t l_reg;

// Constant registers. The programmable ones (L12-L14) can be assigned a
// constant: SFPLOADI of its two halves into L0, then SFPCONFIG from L0.
struct vConstReg : sfpi_value {
    unsigned index;
    constexpr vConstReg(unsigned i) : index(i) {}
    __attribute__((noinline)) const vConstReg& operator=(float value) const {
        std::uint32_t bits;
        std::memcpy(&bits, &value, 4);
        load(bits, __builtin_return_address(0));
        return *this;
    }
    __attribute__((noinline)) const vConstReg& operator=(int value) const {
        load((std::uint32_t)value, __builtin_return_address(0));
        return *this;
    }
    __attribute__((noinline)) const vConstReg& operator=(unsigned value) const {
        load(value, __builtin_return_address(0));
        return *this;
    }
    __attribute__((noinline)) const vConstReg& operator=(double value) const {
        float f = (float)value;
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        load(bits, __builtin_return_address(0));
        return *this;
    }
    template <class T>
    __attribute__((noinline)) const vConstReg& operator=(const T&) const {
        SFPI_STOP("constant register set from a vector");
    }
    void load(std::uint32_t bits, const void* at) const {
        if (index < 12 || index > 14) {
            ::llk_record::stop_at("SFPI assignment to a fixed constant register", at);
        }
        char text[96];
        std::snprintf(text, sizeof text, "vConst L%u = 0x%08X: SFPLOADI L0 (low, high), SFPCONFIG L%u", index,
                      bits, index);
        ::llk_record::emit_at('S', text, at);
        std::snprintf(text, sizeof text, "0x%08X", (0x71u << 24) | (SFPLOADI_MOD0_LOWER << 16) | (bits & 0xFFFF));
        ::llk_record::emit_at('I', text, at);
        std::snprintf(text, sizeof text, "0x%08X", (0x71u << 24) | (SFPLOADI_MOD0_UPPER << 16) | (bits >> 16));
        ::llk_record::emit_at('I', text, at);
        std::snprintf(text, sizeof text, "0x%08X", (0x91u << 24) | (index << 4));
        ::llk_record::emit_at('I', text, at);
    }
};
inline const vConstReg vConst0p8373{8}, vConst0{9}, vConst1{10}, vConstNeg1{11}, vConstFloatPrgm0{12},
    vConstFloatPrgm1{13}, vConstFloatPrgm2{14}, vConstIntPrgm0{12}, vConstIntPrgm1{13}, vConstIntPrgm2{14},
    vConstTileId{15};

}  // namespace sfpi

#define v_if(c) { ::sfpi::cc_scope sfpi_cc_(__builtin_FILE(), __builtin_LINE()); sfpi_cc_.test(c); {
#define v_elseif(c) } sfpi_cc_.test(c); {
#define v_else } sfpi_cc_.otherwise(); {
#define v_endif } }
#define v_block { ::sfpi::cc_scope sfpi_cc_(__builtin_FILE(), __builtin_LINE()); {
#define v_endblock } }
#define v_and(c) sfpi_cc_.test(c)

namespace sfpi {
struct cc_scope {
    cc_scope(const char* file, int line) { ::llk_record::stop("SFPI v_if/v_block is not modelled: the front end runs TTI_ kernels", file, line); }
    template <class T>
    void test(const T&) {}
    void otherwise() {}
};
}  // namespace sfpi
