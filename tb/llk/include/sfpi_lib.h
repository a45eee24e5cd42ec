// The recording SFPI stand-in, part 2: Dst, the LRegs by name, the constant
// registers and the library functions. Included by sfpi.h.
#pragma once

namespace sfpi {

// ---------------------------------------------------------------------------
// Dst: dst_reg[n] is row group n from the Dst counter; reading it is an
// SFPLOAD, assigning to it an SFPSTORE, in the format SFPI gives the type.

namespace impl_ {
constexpr unsigned kIntFormat = sfpi_record::kBlackhole ? SFPLOAD_MOD0_FMT_INT32 : SFPLOAD_MOD0_FMT_INT32_SM;

constexpr unsigned load_format(DataLayout layout, unsigned by_type) {
    switch (layout) {
        case DataLayout::FSrcB: return SFPLOAD_MOD0_FMT_SRCB;
        case DataLayout::F32: return SFPLOAD_MOD0_FMT_FP32;
        case DataLayout::F16a: return SFPLOAD_MOD0_FMT_FP16;
        case DataLayout::F16b: return SFPLOAD_MOD0_FMT_BF16;
        case DataLayout::I32: return SFPLOAD_MOD0_FMT_INT32;
        case DataLayout::U32: return SFPLOAD_MOD0_FMT_INT32;
        case DataLayout::U16: return SFPLOAD_MOD0_FMT_UINT16;
        case DataLayout::SM32: return kIntFormat;
        case DataLayout::SM16: return SFPLOAD_MOD0_FMT_INT16;
        case DataLayout::M32: return SFPLOAD_MOD0_FMT_INT32;
        case DataLayout::LO16: return SFPLOAD_MOD0_FMT_LO16;
        case DataLayout::HI16: return SFPLOAD_MOD0_FMT_HI16;
        default: return by_type;
    }
}
}  // namespace impl_

class DReg {
    int addr_;
    int addr_mode_;
    DataLayout layout_;

public:
    constexpr DReg(int addr, int addr_mode = -1, DataLayout layout = DataLayout::Default)
        : addr_(addr), addr_mode_(addr_mode), layout_(layout) {}
    template <DataLayout L = DataLayout::Default>
    constexpr DReg mode(int addr_mode = -1) const {
        return DReg(addr_, addr_mode >= 0 ? addr_mode : addr_mode_, L == DataLayout::Default ? layout_ : L);
    }
    impl_::Raw load(unsigned by_type) const {
        unsigned fmt = impl_::load_format(layout_, by_type);
        unsigned am = addr_mode_ < 0 ? SFPLOAD_ADDR_MODE_NOINC : addr_mode_;
        return impl_::fresh([&](int d) { return TT_OP_SFPLOAD(d, fmt, am, addr_); });
    }
    // An SFPSTORE from L12-L15 stores nothing (SFPSTORE.md: `VD < 12 || DISABLE_BACKDOOR_LOAD`), so
    // SFPI's compiler stores those constants (vConstFloatPrgm0-2, vConstIntPrgm0-2, vConstTileId) from
    // an LReg they are first copied into (SFPMOV Mod1 2, all lanes: its register-to-register move);
    // L8-L11 it stores directly (its store operand takes the constants below L12).
    void store(const impl_::vVal& v, unsigned by_type) const {
        unsigned fmt = impl_::load_format(layout_, by_type);
        unsigned am = addr_mode_ < 0 ? SFPSTORE_ADDR_MODE_NOINC : addr_mode_;
        if (v.slot()->value < 0 && v.slot()->reg >= 12) {
            impl_::vVal moved(impl_::fresh(
                [&](int d) { return TT_OP_SFPMOV(0, v.reg(), d, SFPMOV_MOD1_ALL_LANES_ENABLED); }));
            emit(TT_OP_SFPSTORE(moved.reg(), fmt, am, addr_));
            return;
        }
        emit(TT_OP_SFPSTORE(v.reg(), fmt, am, addr_));
    }
    SFPI_OP operator vFloat() const { SFPI_ENTRY; return vFloat(load(SFPLOAD_MOD0_FMT_SRCB)); }
    SFPI_OP operator vFloat16a() const { SFPI_ENTRY; return vFloat16a(load(SFPLOAD_MOD0_FMT_FP16)); }
    SFPI_OP operator vFloat16b() const { SFPI_ENTRY; return vFloat16b(load(SFPLOAD_MOD0_FMT_BF16)); }
    SFPI_OP operator vInt() const { SFPI_ENTRY; return vInt(load(impl_::kIntFormat)); }
    SFPI_OP operator vUInt() const { SFPI_ENTRY; return vUInt(load(SFPLOAD_MOD0_FMT_INT32)); }
    SFPI_OP operator vMag() const { SFPI_ENTRY; return vMag(load(SFPLOAD_MOD0_FMT_INT32)); }
    SFPI_OP operator vUInt16() const { SFPI_ENTRY; return vUInt16(load(SFPLOAD_MOD0_FMT_UINT16)); }
    SFPI_OP operator vSMag() const { SFPI_ENTRY; return vSMag(load(SFPLOAD_MOD0_FMT_INT32)); }
    SFPI_OP operator vSMag16() const { SFPI_ENTRY; return vSMag16(load(SFPLOAD_MOD0_FMT_INT16)); }
    SFPI_OP const DReg& operator=(const vFloat& v) const { SFPI_ENTRY; store(v, SFPSTORE_MOD0_FMT_SRCB); return *this; }
    SFPI_OP const DReg& operator=(const vFloat16a& v) const { SFPI_ENTRY; store(v, SFPSTORE_MOD0_FMT_FP16); return *this; }
    SFPI_OP const DReg& operator=(const vFloat16b& v) const { SFPI_ENTRY; store(v, SFPSTORE_MOD0_FMT_BF16); return *this; }
    SFPI_OP const DReg& operator=(const vInt& v) const { SFPI_ENTRY; store(v, impl_::kIntFormat); return *this; }
    SFPI_OP const DReg& operator=(const vUInt& v) const { SFPI_ENTRY; store(v, SFPSTORE_MOD0_FMT_INT32); return *this; }
    SFPI_OP const DReg& operator=(const vUInt16& v) const { SFPI_ENTRY; store(v, SFPSTORE_MOD0_FMT_UINT16); return *this; }
    SFPI_OP const DReg& operator=(const vSMag& v) const { SFPI_ENTRY; store(v, SFPSTORE_MOD0_FMT_INT32); return *this; }
    SFPI_OP const DReg& operator=(const vSMag16& v) const { SFPI_ENTRY; store(v, SFPSTORE_MOD0_FMT_INT16); return *this; }
    SFPI_OP const DReg& operator=(const MulExpr& m) const { SFPI_ENTRY; store(vFloat(m), SFPSTORE_MOD0_FMT_SRCB); return *this; }
    SFPI_OP const DReg& operator=(float f) const {
        SFPI_ENTRY;
        store(vFloat(impl_::constant(impl_::bits_of(f), true)), SFPSTORE_MOD0_FMT_SRCB);
        return *this;
    }
    SFPI_OP const DReg& operator=(const DReg& other) const {
        SFPI_ENTRY;
        store(vFloat(other.load(SFPLOAD_MOD0_FMT_SRCB)), SFPSTORE_MOD0_FMT_SRCB);
        return *this;
    }
};

// dst_reg++ moves the Dst counter by one row group (INCRWC), as SFPI's does.
struct DstRegFile {
    constexpr DReg operator[](int n) const { return DReg(n * (int)SFP_DESTREG_STRIDE); }
    SFPI_OP void operator++(int) const { SFPI_ENTRY; step(1); }
    SFPI_OP void operator++() const { SFPI_ENTRY; step(1); }
    SFPI_OP void operator+=(int rows) const { SFPI_ENTRY; step(rows); }
    static void step(int rows) {
        unsigned increment = rows * SFP_DESTREG_STRIDE;
        if (rows < 0 || increment > 15) fail("dst_reg += n with n outside 0..7 is not modelled");
#if defined(LLK_RV32)
        ::llk_record::push(TT_OP_INCRWC(0, increment, 0, 0));    // a .ttinsn where the count is a constant
#else
        char text[64];
        std::snprintf(text, sizeof text, "TTI_INCRWC(0, %u, 0, 0);", increment);
        ::llk_record::emit_at('T', text, sfpi_record::state.at);
#endif
    }
};
inline constexpr DstRegFile dst_reg;

// ---------------------------------------------------------------------------
// l_reg[LRegs::LRegN]: a fixed LReg, as kernels that mix TTI_ instructions
// with SFPI hand values over.

class LReg {
    int reg_;
public:
    constexpr explicit LReg(int r) : reg_(r) {}
    template <class T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>, int> = 0>
    SFPI_OP operator T() const {
        SFPI_ENTRY;
        sfpi_record::named_fixed(reg_);
        return T(impl_::Raw{sfpi_record::claim(reg_)});
    }
    SFPI_OP const LReg& operator=(const impl_::vVal& v) const {
        SFPI_ENTRY;
        sfpi_record::named_fixed(reg_);
        Slot* t = sfpi_record::claim(reg_);
        sfpi_record::copy(v.slot(), t, false);
        sfpi_record::release(t);
        sfpi_record::keep(reg_);
        return *this;
    }
    // A register-allocation hint: no instruction, but no value lives in the register across it.
    void in_use() const { sfpi_record::load(); sfpi_record::named_fixed(reg_); }
};
struct LRegFile {
    constexpr LReg operator[](LRegs r) const { return LReg((int)r); }
    constexpr LReg operator[](int r) const { return LReg(r); }
};
inline constexpr LRegFile l_reg;
struct lreg_pressure {     // a register-allocation hint: no instruction
    lreg_pressure() {}
};

// ---------------------------------------------------------------------------
// Constant registers. Reading one costs nothing; the programmable ones
// (L12-L14) are set with SFPCONFIG from L0 (lanes 0-7 of L0 to every lane).

namespace impl_ {
inline void set_constant(int index, const vVal& v) {
    if (index < 11 || index > 14) fail("assignment to a constant register that is not programmable");
    Placed p;                        // SFPCONFIG reads L0
    p.at(0, v);
    p.settle();
    emit(TT_OP_SFPCONFIG(0, index, 0));
}
}  // namespace impl_

template <class T>
class vConstReg : public T {
    int index_;
public:
    explicit vConstReg(int i) : T(impl_::Raw{sfpi_record::constant_slot(i)}), index_(i) {}
    SFPI_OP void operator=(const T& v) const { SFPI_ENTRY; impl_::set_constant(index_, v); }
    SFPI_OP void operator=(const MulExpr& m) const { SFPI_ENTRY; impl_::set_constant(index_, vFloat(m)); }
    template <class S, std::enable_if_t<std::is_arithmetic_v<S>, int> = 0>
    SFPI_OP void operator=(S s) const {
        SFPI_ENTRY;
        if constexpr (std::is_floating_point_v<S>)
            impl_::set_constant(index_, vFloat(impl_::constant(impl_::bits_of((float)s), false)));
        else
            impl_::set_constant(index_, vInt(impl_::constant((std::uint32_t)s, false)));
    }
};
inline const vConstReg<vFloat> vConst0p8373(8), vConst0(9), vConst1(10), vConstNeg1(11), vConstFloatPrgm0(12),
    vConstFloatPrgm1(13), vConstFloatPrgm2(14);
inline const vConstReg<vInt> vConstIntPrgm0(12), vConstIntPrgm1(13), vConstIntPrgm2(14), vConstTileId(15);

// ---------------------------------------------------------------------------
// Reinterpreting: the same register, another type.

template <class T, class F, std::enable_if_t<std::is_base_of_v<impl_::vVal, F>, int> = 0>
T as(const F& v) { return T(v.share()); }
template <class T, class F, std::enable_if_t<std::is_base_of_v<impl_::vVal, F>, int> = 0>
T reinterpret(const F& v) { return T(v.share()); }
template <class T>
T as(const MulExpr& m) { return as<T>(vFloat(m)); }
template <class T>
T reinterpret(const MulExpr& m) { return as<T>(vFloat(m)); }

// ---------------------------------------------------------------------------
// The library: each function is the instruction it wraps.

namespace impl_ {
template <class T, class F>
T simple(const vVal& v, F make) {          // VD fresh, VC = v
    return T(fresh([&](int d) { return make(v.reg(), d); }));
}
}  // namespace impl_

SFPI_OP inline vFloat abs(const vFloat& v) {
    SFPI_ENTRY;
    return impl_::simple<vFloat>(v, [](int c, int d) { return TT_OP_SFPABS(0, c, d, SFPABS_MOD1_FLOAT); });
}
SFPI_OP inline vMag abs(const vInt& v) {
    SFPI_ENTRY;
    return impl_::simple<vMag>(v, [](int c, int d) { return TT_OP_SFPABS(0, c, d, 0); });
}
SFPI_OP inline vMag abs(const vSMag& v) {
    SFPI_ENTRY;
    return impl_::simple<vMag>(v, [](int c, int d) { return TT_OP_SFPSETSGN(0, c, d, SFPSETSGN_MOD1_ARG_IMM); });
}

SFPI_OP inline vInt exexp(const vFloat& v, ExponentMode mode = ExponentMode::Unbiased) {
    SFPI_ENTRY;
    unsigned mod1 = mode == ExponentMode::Biased ? SFPEXEXP_MOD1_NODEBIAS : 0;
    return impl_::simple<vInt>(v, [&](int c, int d) { return TT_OP_SFPEXEXP(0, c, d, mod1); });
}
SFPI_OP inline vInt exexp_nodebias(const vFloat& v) {
    SFPI_ENTRY;
    return impl_::simple<vInt>(v, [](int c, int d) { return TT_OP_SFPEXEXP(0, c, d, SFPEXEXP_MOD1_NODEBIAS); });
}
SFPI_OP inline vMag exman(const vFloat& v, MantissaMode mode = MantissaMode::FractionOnly) {
    SFPI_ENTRY;
    unsigned mod1 = mode == MantissaMode::FractionOnly ? SFPEXMAN_MOD1_PAD9 : 0;
    return impl_::simple<vMag>(v, [&](int c, int d) { return TT_OP_SFPEXMAN(0, c, d, mod1); });
}
SFPI_OP inline vInt exman8(const vFloat& v) {
    SFPI_ENTRY;
    return impl_::simple<vInt>(v, [](int c, int d) { return TT_OP_SFPEXMAN(0, c, d, 0); });
}
SFPI_OP inline vInt exman9(const vFloat& v) {
    SFPI_ENTRY;
    return impl_::simple<vInt>(v, [](int c, int d) { return TT_OP_SFPEXMAN(0, c, d, SFPEXMAN_MOD1_PAD9); });
}

// SFPSETEXP/SETMAN/SETSGN with a vector take it in VD: a copy of it, or itself if a temporary.
namespace impl_ {
template <class T, class F>
T with_vd(const vVal& vd_value, const vVal& v, F make) {
    return T(in_place(vd_value, [&](int d) { return make(v.reg(), d); }));
}
}  // namespace impl_

SFPI_OP inline vFloat setexp(const vFloat& v, int e) {
    SFPI_ENTRY;
    return impl_::simple<vFloat>(v, [&](int c, int d) { return TT_OP_SFPSETEXP(e & 0xFF, c, d, SFPSETEXP_MOD1_ARG_IMM); });
}
template <class E, std::enable_if_t<is_int_vector<E>::value, int> = 0>
SFPI_OP vFloat setexp(const vFloat& v, const E& e) {
    SFPI_ENTRY;
    return impl_::with_vd<vFloat>(e, v, [](int c, int d) { return TT_OP_SFPSETEXP(0, c, d, 0); });
}
SFPI_OP inline vFloat copyexp(const vFloat& v, const vFloat& e) {
    SFPI_ENTRY;
    return impl_::with_vd<vFloat>(e, v, [](int c, int d) { return TT_OP_SFPSETEXP(0, c, d, SFPSETEXP_MOD1_ARG_EXPONENT); });
}
SFPI_OP inline vFloat addexp(const vFloat& v, int e) {
    SFPI_ENTRY;
    return impl_::simple<vFloat>(v, [&](int c, int d) { return TT_OP_SFPDIVP2(e & 0xFF, c, d, SFPDIVP2_MOD1_ADD); });
}
SFPI_OP inline vFloat ldexp(const vFloat& v, int e) { SFPI_ENTRY; return addexp(v, e); }
SFPI_OP inline vFloat setman(const vFloat& v, unsigned man) {
    SFPI_ENTRY;
    if ((man & 0x7FF) == 0 && man <= 0x7FFFFF)
        return impl_::simple<vFloat>(v, [&](int c, int d) { return TT_OP_SFPSETMAN(man >> 11, c, d, SFPSETMAN_MOD1_ARG_IMM); });
    vUInt m(impl_::constant(man, false));
    return impl_::with_vd<vFloat>(m, v, [](int c, int d) { return TT_OP_SFPSETMAN(0, c, d, 0); });
}
template <class M, std::enable_if_t<std::is_base_of_v<impl_::vVal, M>, int> = 0>
SFPI_OP vFloat setman(const vFloat& v, const M& man) {
    SFPI_ENTRY;
    return impl_::with_vd<vFloat>(man, v, [](int c, int d) { return TT_OP_SFPSETMAN(0, c, d, 0); });
}
SFPI_OP inline vFloat copyman(const vFloat& v, const vFloat& man) {
    SFPI_ENTRY;
    return impl_::with_vd<vFloat>(man, v, [](int c, int d) { return TT_OP_SFPSETMAN(0, c, d, 0); });
}
template <class T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>, int> = 0>
SFPI_OP T setsgn(const T& v, int sign) {
    SFPI_ENTRY;
    return impl_::simple<T>(v, [&](int c, int d) { return TT_OP_SFPSETSGN(sign & 1, c, d, SFPSETSGN_MOD1_ARG_IMM); });
}
SFPI_OP inline vFloat setsgn(const MulExpr& m, int sign) { SFPI_ENTRY; return setsgn(vFloat(m), sign); }
template <class T, class S, std::enable_if_t<std::is_base_of_v<impl_::vVal, T> && std::is_base_of_v<impl_::vVal, S>, int> = 0>
SFPI_OP T copysgn(const T& v, const S& sign) {
    SFPI_ENTRY;
    return impl_::with_vd<T>(sign, v, [](int c, int d) { return TT_OP_SFPSETSGN(0, c, d, 0); });
}
template <class T, class S, std::enable_if_t<std::is_base_of_v<impl_::vVal, T> && std::is_base_of_v<impl_::vVal, S>, int> = 0>
SFPI_OP T setsgn(const T& v, const S& sign) {
    SFPI_ENTRY;
    return copysgn(v, sign);
}

template <class T, std::enable_if_t<is_int_vector<T>::value, int> = 0>
SFPI_OP vMag lz(const T& v, LZMode mode = LZMode::All) {
    SFPI_ENTRY;
    unsigned mod1 = mode == LZMode::IgnoreSign ? SFPLZ_MOD1_NOSGN_MASK : 0;
    return impl_::simple<vMag>(v, [&](int c, int d) { return TT_OP_SFPLZ(0, c, d, mod1); });
}
SFPI_OP inline vMag lz(const vFloat& v, LZMode mode = LZMode::All) {
    SFPI_ENTRY;
    unsigned mod1 = mode == LZMode::IgnoreSign ? SFPLZ_MOD1_NOSGN_MASK : 0;
    return impl_::simple<vMag>(v, [&](int c, int d) { return TT_OP_SFPLZ(0, c, d, mod1); });
}
template <class T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>, int> = 0>
SFPI_OP vInt lz_nosgn(const T& v) {
    SFPI_ENTRY;
    return impl_::simple<vInt>(v, [](int c, int d) { return TT_OP_SFPLZ(0, c, d, SFPLZ_MOD1_NOSGN_MASK); });
}

template <class T, class A, std::enable_if_t<is_int_vector<T>::value && is_int_vector<A>::value, int> = 0>
SFPI_OP T shft(const T& v, const A& amount, ShiftMode mode = ShiftMode::Logical) {
    SFPI_ENTRY;
    return T(impl_::shift_vec(v, amount, mode == ShiftMode::Arithmetic));
}
template <class T, std::enable_if_t<is_int_vector<T>::value, int> = 0>
SFPI_OP T shft(const T& v, int amount, ShiftMode mode = ShiftMode::Logical) {
    SFPI_ENTRY;
    return T(impl_::shift_imm(v, amount, mode == ShiftMode::Arithmetic));
}

// Tests on floating-point values.
namespace impl_ {
inline vBool exponent_is_255(const vFloat& v) {
    return compare_int(vInt(simple<vInt>(v, [](int c, int d) { return TT_OP_SFPEXEXP(0, c, d, SFPEXEXP_MOD1_NODEBIAS); })),
                       (std::int64_t)255, 2);
}
}  // namespace impl_
SFPI_OP inline vBool is_inf(const vFloat& v) {
    SFPI_ENTRY;
    return impl_::exponent_is_255(v) && impl_::compare(exman(v), 2);
}
SFPI_OP inline vBool is_nan(const vFloat& v) {
    SFPI_ENTRY;
    return impl_::exponent_is_255(v) && impl_::compare(exman(v), 3);
}
SFPI_OP inline vBool is_finite(const vFloat& v) { SFPI_ENTRY; return !impl_::exponent_is_255(v); }
SFPI_OP inline vBool is_neg(const vFloat& v) { SFPI_ENTRY; return impl_::compare(v, 0); }
SFPI_OP inline vBool is_pos(const vFloat& v) { SFPI_ENTRY; return impl_::compare(v, 1); }

// Rounding and conversion: SFPSTOCHRND and SFPCAST.
namespace impl_ {
inline unsigned rnd(RoundMode mode) {
    if (mode == RoundMode::Zero && !sfpi_record::kBlackhole) fail("RoundMode::Zero is Blackhole's");
    return mode == RoundMode::Nearest ? SFPSTOCHRND_RND_EVEN : mode == RoundMode::Zero ? 2 : SFPSTOCHRND_RND_STOCH;
}
inline Raw stochrnd(const vVal& v, unsigned mod1, RoundMode mode) {
    unsigned r = rnd(mode);
    return fresh([&](int d) { return TT_OP_SFP_STOCH_RND(r, 0, 0, v.reg(), d, mod1); });
}
inline Raw cast(const vVal& v, RoundMode mode) {
    unsigned mod1 = mode == RoundMode::Nearest ? 0 : SFPCAST_MOD1_RND_STOCH;
    return fresh([&](int d) { return TT_OP_SFPCAST(v.reg(), d, mod1); });
}
// Two's complement to sign-magnitude (Wormhole has no SFPCAST for it):
// negative lanes become their magnitude with the sign set.
inline vSMag int_to_smag(const vInt& v);
inline vInt smag_to_int(const vSMag& v);
}  // namespace impl_

SFPI_OP inline vFloat int32_to_float(const vInt& v, RoundMode mode = RoundMode::NearestStochastic) {
    SFPI_ENTRY;
    return vFloat(impl_::cast(v, mode));
}
SFPI_OP inline vFloat float_to_fp16a(const vFloat& v, RoundMode mode = RoundMode::NearestStochastic) {
    SFPI_ENTRY;
    return vFloat(impl_::stochrnd(v, SFPSTOCHRND_MOD1_FP32_TO_FP16A, mode));
}
SFPI_OP inline vFloat float_to_fp16b(const vFloat& v, RoundMode mode = RoundMode::NearestStochastic) {
    SFPI_ENTRY;
    return vFloat(impl_::stochrnd(v, SFPSTOCHRND_MOD1_FP32_TO_FP16B, mode));
}
SFPI_OP inline vUInt float_to_uint16(const vFloat& v, RoundMode mode = RoundMode::NearestStochastic) {
    SFPI_ENTRY;
    return vUInt(impl_::stochrnd(v, SFPSTOCHRND_MOD1_FP32_TO_UINT16, mode));
}
SFPI_OP inline vInt float_to_int16(const vFloat& v, RoundMode mode = RoundMode::NearestStochastic) {
    SFPI_ENTRY;
    return vInt(impl_::stochrnd(v, SFPSTOCHRND_MOD1_FP32_TO_INT16, mode));
}
SFPI_OP inline vUInt float_to_uint8(const vFloat& v, RoundMode mode = RoundMode::NearestStochastic) {
    SFPI_ENTRY;
    return vUInt(impl_::stochrnd(v, SFPSTOCHRND_MOD1_FP32_TO_UINT8, mode));
}
SFPI_OP inline vInt float_to_int8(const vFloat& v, RoundMode mode = RoundMode::NearestStochastic) {
    SFPI_ENTRY;
    return vInt(impl_::stochrnd(v, SFPSTOCHRND_MOD1_FP32_TO_INT8, mode));
}

template <class To, class From>
SFPI_OP To convert(const From& v, RoundMode mode = RoundMode::NearestStochastic) {
    SFPI_ENTRY;
    if constexpr (std::is_same_v<To, From>) {
        return v;
    } else if constexpr (std::is_same_v<From, MulExpr>) {
        return convert<To>(vFloat(v), mode);
    } else if constexpr (std::is_base_of_v<vFloat, From>) {
        unsigned mod1 = std::is_same_v<To, vFloat16a> ? SFPSTOCHRND_MOD1_FP32_TO_FP16A
                      : std::is_same_v<To, vFloat16b> ? SFPSTOCHRND_MOD1_FP32_TO_FP16B
                      : std::is_same_v<To, vSMag16>   ? SFPSTOCHRND_MOD1_FP32_TO_INT16
                      : std::is_same_v<To, vUInt16>   ? SFPSTOCHRND_MOD1_FP32_TO_UINT16
                      : std::is_same_v<To, vSMag8>    ? SFPSTOCHRND_MOD1_FP32_TO_INT8
                      : std::is_same_v<To, vUInt8>    ? SFPSTOCHRND_MOD1_FP32_TO_UINT8
                                                      : ~0u;
        if (mod1 == ~0u) fail("convert<> from a float vector to this type is not an SFPU conversion");
        return To(impl_::stochrnd(v, mod1, mode));
    } else if constexpr (std::is_base_of_v<vSMag, From>) {
        if constexpr (std::is_base_of_v<vFloat, To>) {
            vFloat f(impl_::cast(v, mode));
            return convert<To>(f, mode);
        } else if constexpr (std::is_same_v<To, vInt>) {
            return impl_::smag_to_int(v);
        } else {
            fail("convert<> from sign-magnitude to this type is not modelled");
        }
    } else if constexpr (std::is_base_of_v<vInt, From>) {
        if constexpr (std::is_same_v<To, vSMag>) return impl_::int_to_smag(v);
        else return convert<To>(impl_::int_to_smag(v), mode);
    } else if constexpr (std::is_base_of_v<vUInt, From>) {
        return convert<To>(as<vSMag>(v), mode);
    } else {
        fail("convert<> between these types is not modelled");
    }
}

// SFPSWAP: min and max lane by lane.
namespace impl_ {
// Both values end in registers of their own, min in the first. SFPSWAP writes both of its
// registers, so an operand still needed later is copied first; one at its last use is swapped in
// place, as SFPI's compiler does (a constant register is always copied: a write to it is dropped).
inline Slot* swap_operand(Slot* s) {
    if (s->reg >= 0 && s->reg < sfpi_record::kGeneral) return sfpi_record::copy_of(s, false);
    Slot* x = sfpi_record::allocate();
    sfpi_record::copy(s, x, false);
    return x;
}
template <class T>
std::pair<T, T> min_max(const T& a, const T& b) {
    Slot* x = swap_operand(a.slot());
    Slot* y = swap_operand(b.slot());
    int c = sfpi_record::use(y), d = sfpi_record::use(x);
    emit(TT_OP_SFPSWAP(0, c, d, SFPSWAP_MOD1_VEC_MIN_MAX));
    return {T(Raw{x}), T(Raw{y})};
}
}  // namespace impl_
template <class T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T>, int> = 0>
SFPI_OP std::pair<T, T> min_max(const T& a, const T& b, std::uint32_t mask = 0) {
    SFPI_ENTRY;
    if (mask != 0 && mask != 0xF && mask != 0xFFFFFFFFu) fail("min_max with a per-subvector mask is not modelled");
    auto r = impl_::min_max(a, b);
    if (mask == 0) return r;
    return {r.second, r.first};
}
template <class T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T>, int> = 0>
SFPI_OP T min(const T& a, const T& b) { SFPI_ENTRY; return impl_::min_max(a, b).first; }
template <class T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T>, int> = 0>
SFPI_OP T max(const T& a, const T& b) { SFPI_ENTRY; return impl_::min_max(a, b).second; }
SFPI_OP inline vFloat min(const vFloat& a, float f) { SFPI_ENTRY; return min(a, vFloat(impl_::constant(impl_::bits_of(f), true))); }
SFPI_OP inline vFloat max(const vFloat& a, float f) { SFPI_ENTRY; return max(a, vFloat(impl_::constant(impl_::bits_of(f), true))); }
SFPI_OP inline vFloat clamp(const vFloat& v, float lo, float hi) { SFPI_ENTRY; return min(max(v, lo), hi); }
template <class T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T>, int> = 0>
SFPI_OP T clamp(const T& v, const T& lo, const T& hi) { SFPI_ENTRY; return min(max(v, lo), hi); }
SFPI_OP inline vFloat symmetric_clamp(const vFloat& v, float bound) {
    SFPI_ENTRY;
    return copysgn(min(abs(v), bound), v);
}
template <class T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>, int> = 0>
SFPI_OP void vec_min_max(T& a, T& b) {
    SFPI_ENTRY;
    auto r = impl_::min_max(a, b);
    a.assign(r.first);
    b.assign(r.second);
}
template <class T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>, int> = 0>
SFPI_OP void swap(T& a, T& b) {
    SFPI_ENTRY;
    T old = a;
    a.assign(b);
    b.assign(old);
}
template <class T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>, int> = 0>
SFPI_OP void vec_swap(T& a, T& b) { SFPI_ENTRY; swap(a, b); }

// SFPLUT: the table in L0-L2, the input in L3.
enum class LutSign { Update, Retain };
namespace impl_ {
inline vFloat lut(const vVal& v, const vVal& l0, const vVal& l1, const vVal& l2, bool retain_sign) {
    Placed p;
    p.at(0, l0);
    p.at(1, l1);
    p.at(2, l2);
    p.at(3, v);
    return vFloat(fresh([&](int d) {
        p.settle();
        return TT_OP_SFPLUT(d, retain_sign ? SFPLUT_MOD0_SGN_RETAIN : 0, 0);
    }));
}
// SFPLUTFP32 with six FP16 entries: slopes in L0-L2, intercepts in L4-L6, the input in L3.
inline vFloat lut6(const vVal& v, const vVal& s01, const vVal& i01, const vVal& s23, const vVal& i23,
                   const vVal& s45, const vVal& i45, bool retain_sign) {
    Placed p;
    p.at(0, s01);
    p.at(1, s23);
    p.at(2, s45);
    p.at(4, i01);
    p.at(5, i23);
    p.at(6, i45);
    p.at(3, v);
    unsigned mod1 = SFPLUTFP32_MOD1_FP16_6ENTRY_TABLE1 | (retain_sign ? SFPLUTFP32_MOD1_SGN_RETAIN : 0);
    return vFloat(fresh([&](int d) {
        p.settle();
        return TT_OP_SFPLUTFP32(d, mod1);
    }));
}
}  // namespace impl_
SFPI_OP inline vFloat lut(const vFloat& v, const vUInt& l0, const vUInt& l1, const vUInt& l2,
                          LutSign sign = LutSign::Retain) {
    SFPI_ENTRY;
    return impl_::lut(v, l0, l1, l2, sign == LutSign::Retain);
}
SFPI_OP inline vFloat lut_sign(const vFloat& v, const vUInt& l0, const vUInt& l1, const vUInt& l2) {
    SFPI_ENTRY;
    return impl_::lut(v, l0, l1, l2, false);
}
SFPI_OP inline vFloat lut(const vFloat& v, const vUInt& s01, const vUInt& i01, const vUInt& s23, const vUInt& i23,
                          const vUInt& s45, const vUInt& i45, LutSign sign = LutSign::Retain) {
    SFPI_ENTRY;
    return impl_::lut6(v, s01, i01, s23, i23, s45, i45, sign == LutSign::Retain);
}

// LUT coefficients. SFPLUT's byte format: sign, 3-bit exponent e, 4-bit
// mantissa m for (1 + m/16) * 2^-e, 0xFF for zero; converted as SFPI does
// (mantissa truncated, too large saturating, too small to zero). Slope in
// the high byte, intercept in the low one.
namespace impl_ {
inline std::uint32_t lut8(float f) {
    std::uint32_t b = bits_of(f);
    int e = 127 - (int)((b >> 23) & 0xFF);
    std::uint32_t byte = e < 0 ? 0x0F : e >= 8 ? 0xFF : ((std::uint32_t)e << 4) | ((b >> 19) & 0xF);
    return (b >> 31) << 7 | byte;
}
// SFPLUTFP32's 16-bit format, FP16 read without denormals: the FP32 to FP16a
// rounding of SFPI's scalar converter, except that zero is the format's own
// zero (exponent 31), as 0x0000 would read as 2^-15.
inline std::uint32_t lut16(float f) {
    if ((bits_of(f) & 0x7FFFFFFF) == 0) return (bits_of(f) >> 16) | 0x7C00;
    std::uint32_t b = bits_of(f) + 0x1000;
    std::uint32_t e = (b >> 23) & 0xFF, m = b & 0x7FFFFF;
    std::uint32_t out = (b >> 16) & 0x8000;
    if (e > 143) return out | 0x7FFF;
    if (e > 112) return out | (((e - 112) << 10) & 0x7C00) | (m >> 13);
    if (e > 101) return out | ((((0x7FF000 + m) >> (125 - e)) + 1) >> 1);
    return out;
}
}  // namespace impl_
struct vLut8si : vUInt {
    vLut8si(const vUInt& v) : vUInt(v) {}
    explicit vLut8si(impl_::Raw r) : vUInt(r) {}
    vLut8si(float slope, float intercept)
        : vUInt(vInt::make_constant(impl_::lut8(slope) << 8 | impl_::lut8(intercept), __builtin_return_address(0))) {}
};
// Two entries of the six-entry table: the first for the lower half of a range (low 16 bits).
struct vLut16 : vUInt {
    vLut16(const vUInt& v) : vUInt(v) {}
    explicit vLut16(impl_::Raw r) : vUInt(r) {}
    vLut16(float lower, float upper)
        : vUInt(vInt::make_constant(impl_::lut16(upper) << 16 | impl_::lut16(lower), __builtin_return_address(0))) {}
};
using vLut16ss = vLut16;
using vLut16ii = vLut16;

namespace impl_ {
inline vSMag int_to_smag(const vInt& v) {
    if constexpr (sfpi_record::kBlackhole)       // SFPCAST INT32_SM32, Blackhole's
        return vSMag(fresh([&](int d) { return TT_OP_SFPCAST(v.reg(), d, 3); }));
    vSMag res = as<vSMag>(v);
    CCScope cc;
    cc.push();
    cc.cond(compare(v, 0));
    res.assign(as<vSMag>(vInt(iadd(vInt(constant(0, false)), v, true))));
    res.assign(setsgn(res, 1));
    return res;
}
inline vInt smag_to_int(const vSMag& v) {
    vInt res = as<vInt>(v);
    CCScope cc;
    cc.push();
    cc.cond(compare(v, 0));
    vInt magnitude = as<vInt>(setsgn(v, 0));
    res.assign(vInt(iadd(vInt(constant(0, false)), magnitude, true)));
    return res;
}
}  // namespace impl_

// A hint to SFPI's compiler about where to evaluate a condition: nothing here.
inline vBool nearby(const vBool& c) { return c; }
template <class T, class S, std::enable_if_t<std::is_base_of_v<impl_::vVal, T> && std::is_base_of_v<impl_::vVal, S>, int> = 0>
SFPI_OP T setsgn2(const T& v, const S& sign) {      // the sign from bit 0 of `sign`
    SFPI_ENTRY;
    return copysgn(v, as<vSMag>(as<vUInt>(sign) << 31));
}
template <class S, std::enable_if_t<std::is_base_of_v<impl_::vVal, S>, int> = 0>
SFPI_OP vFloat copysgn(const MulExpr& m, const S& sign) { SFPI_ENTRY; return copysgn(vFloat(m), sign); }

// Blackhole's SFPARECIP: approximate 1/x, or e^x.
namespace impl_ {
inline vFloat arecip(const vFloat& v, unsigned mod1, const char* name) {
#ifdef TT_OP_SFPARECIP
    return vFloat(fresh([&](int d) { return TT_OP_SFPARECIP(0, v.reg(), d, mod1); }));
#else
    (void)v, (void)mod1;
    char why[96];
    std::snprintf(why, sizeof why, "sfpi::%s is Blackhole's (SFPARECIP)", name);
    fail(why);
#endif
}
}  // namespace impl_
template <bool unconditional = true>
SFPI_OP vFloat approx_recip(const vFloat& v, RecipMode mode = RecipMode::All) {
    SFPI_ENTRY;
    if (!unconditional || mode == RecipMode::IfNegative) fail("approx_recip of negative lanes only is not modelled");
    return impl_::arecip(v, 0, "approx_recip");
}
SFPI_OP inline vFloat approx_exp(const vFloat& v) { SFPI_ENTRY; return impl_::arecip(v, 2, "approx_exp"); }

// Blackhole's SFPMUL24: the low 23 bits of a * b, or (High) bits 45:23 of the
// product of their low 23 bits.
enum class FractionalHalf { Low, High };
template <class A, class B, std::enable_if_t<is_int_vector<A>::value && is_int_vector<B>::value, int> = 0>
SFPI_OP vMag fractional_mul(const A& a, const B& b, FractionalHalf half = FractionalHalf::Low) {
    SFPI_ENTRY;
#ifdef TT_OP_SFPMUL24
    unsigned mod1 = half == FractionalHalf::High ? 1 : 0;
    return vMag(impl_::fresh([&](int d) { return TT_OP_SFPMUL24(a.reg(), b.reg(), sfpi_record::kZero, d, mod1); }));
#else
    (void)a, (void)b, (void)half;
    fail("sfpi::fractional_mul is Blackhole's (SFPMUL24)");
#endif
}

// Cross-lane movement within the four rows of eight lanes of a value.
namespace impl_ {
// SFPTRANSP, as SFPI's compiler emits __builtin_rvtt_sfptransp: its four operands and results pinned to
// L0-L3, each operand a copy (SFPMOV, all lanes, into its register where free) where its value is read
// again, else its own register. Copied last to first, so that of one value in all four (block_max8's
// `row1 = row0, ...`) the first operand keeps the value's register: three copies, as the compiler's.
// The instruction writes only the enabled lanes, whose complement still holds each variable's value,
// so under v_if too each variable takes its register over, with no move.
inline void transp(vVal* const (&v)[4], const char* function) {
    vVal work[4];
    for (int i = 3; i >= 0; --i) work[i].take(Raw{sfpi_record::copy_of(v[i]->slot(), true, i)});
    Placed p;
    for (int i = 0; i < 4; ++i) p.at(i, work[i]);
    p.settle();
    sfpi_record::vacate_upper_bank(function);
    emit(TT_OP_SFPTRANSP(0, 0, 0, 0));
    for (int i = 0; i < 4; ++i) {
        sfpi_record::written(work[i].slot());
        v[i]->take(work[i].share());
    }
}
// SFPSHFT2's shuffles within each row of eight lanes (__builtin_rvtt_sfpshft2_subvec_shfl1): VC the
// value, VD a new register. SFPI's compiler puts an SFPNOP after each (a "static" delay: whatever
// follows); on Blackhole the front end's interlock rule puts the same one there, on Wormhole, where
// the next cycle's rules are SFPSHFT2.md's alone, the stand-in does.
inline void after_shfl1() {
    if constexpr (!sfpi_record::kBlackhole) emit(TT_OP_SFPNOP);
}
inline sfpu_t shfl1(const vVal& src, unsigned mod1) {
    sfpu_t r{vVal(fresh([&](int d) { return TT_OP_SFPSHFT2(0, src.reg(), d, mod1); }))};
    after_shfl1();
    return r;
}
}  // namespace impl_
template <class T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>, int> = 0>
SFPI_OP void subvec_transp(T& a, T& b, T& c, T& d) {
    SFPI_ENTRY;
    impl_::transp({&a, &b, &c, &d}, "subvec_transp");
}
SFPI_OP inline impl_::sfpu_t subvec_shflror1(const impl_::vVal& src) {
    SFPI_ENTRY;
    return impl_::shfl1(src, SFPSHFT2_MOD1_SUBVEC_SHFLROR1);
}
// Wormhole's shift brings into the first lane of each row what the last rotate read, not zero
// (SFPSHFT2.md's HardwareBug()); SFPI's compiler rotates the zero register L9 first, into L8, where
// nothing is written.
SFPI_OP inline impl_::sfpu_t subvec_shflshr1(const impl_::vVal& src) {
    SFPI_ENTRY;
    if constexpr (!sfpi_record::kBlackhole) {
        emit(TT_OP_SFPSHFT2(0, sfpi_record::kZero, 8, SFPSHFT2_MOD1_SUBVEC_SHFLROR1));
        impl_::after_shfl1();
    }
    return impl_::shfl1(src, SFPSHFT2_MOD1_SUBVEC_SHFLSHR1);
}

// Everything else SFPI offers compiles, and stops the run where it is used.
#define SFPI_NOT_MODELLED(name, R)                                                              \
    template <class... A>                                                                       \
    SFPI_OP R name(const A&...) {                                                               \
        SFPI_ENTRY;                                                                             \
        fail("sfpi::" #name " is not modelled yet");                                            \
    }
SFPI_NOT_MODELLED(lut2, vFloat)
SFPI_NOT_MODELLED(reduce_bool4, vBool)
SFPI_NOT_MODELLED(int32_to_uint8, vUInt)
SFPI_NOT_MODELLED(int32_to_int8, vInt)
#undef SFPI_NOT_MODELLED


}  // namespace sfpi

// The compiler builtin kernels call directly (unqualified, from any namespace).
SFPI_OP inline sfpi::impl_::sfpu_t __builtin_rvtt_sfpmad(const sfpi::impl_::sfpu_t& a, const sfpi::impl_::sfpu_t& b,
                                                         const sfpi::impl_::sfpu_t& c, unsigned mod1) {
    SFPI_ENTRY;
    return sfpi::impl_::sfpu_t{sfpi::impl_::vVal(sfpi::impl_::fresh([&](int d) {
        return TT_OP_SFPMAD(a.value.reg(), b.value.reg(), c.value.reg(), d, mod1);
    }))};
}

#ifdef TT_OP_SFPGT
// Blackhole's comparisons as builtins: VD = (a > b) or (a <= b) as -1 or 0
// (SET_VD), a in VD (a copy), b in VC, on the FP32 total order.
SFPI_OP inline sfpi::impl_::sfpu_t __builtin_rvtt_sfpgt(const sfpi::impl_::sfpu_t& a, const sfpi::impl_::sfpu_t& b,
                                                        unsigned mod1) {
    SFPI_ENTRY;
    return sfpi::impl_::sfpu_t{sfpi::impl_::vVal(sfpi::impl_::in_place(
        a.value, [&](int d) { return TT_OP_SFPGT(0, b.value.reg(), d, mod1); }))};
}
SFPI_OP inline sfpi::impl_::sfpu_t __builtin_rvtt_sfple(const sfpi::impl_::sfpu_t& a, const sfpi::impl_::sfpu_t& b,
                                                        unsigned mod1) {
    SFPI_ENTRY;
    return sfpi::impl_::sfpu_t{sfpi::impl_::vVal(sfpi::impl_::in_place(
        a.value, [&](int d) { return TT_OP_SFPLE(0, b.value.reg(), d, mod1); }))};
}
#endif
