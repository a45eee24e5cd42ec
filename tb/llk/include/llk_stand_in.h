// The Tensix environment around an SFPU kernel, as the `sfpu llk` front end
// (tb/llk) models it: tt-llk's names (ckernel.h, ckernel_defs.h,
// ckernel_addrmod.h, cmath_common.h, lltt.h, ...) with every register write
// the SFPU reads recorded as a directive, the synchronisation instructions
// recorded as no-ops with a note, and anything else stopping the run with
// the C++ line that used it. Every stand-in header includes this one.
#pragma once
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <utility>

#include "ckernel_ops.h"
#include "llk_names.h"
#include "llk_record.h"
#include "sfpi.h"
#if __has_include("llk_sfpu_types.h")
#include "llk_sfpu_types.h"
#endif

#define TT_ALWAYS_INLINE inline
#define tt_l1_ptr
#define tt_reg_ptr
#define ALWI inline
#define LLK_ASSERT(condition, message) ((void)0)
#define TT_LLK_DUMP(...) ((void)0)

// L1 for a kernel that reads what its caller left in L1 through an argument holding an L1
// address (reshuffle_rows' mask): 64 KiB of host memory at a 32-bit address (the driver is
// built -no-pie), zero unless the --init or --call expression writes it (llk_l1[i] = ...).
inline std::uint8_t llk_l1[1 << 16];
inline std::uint32_t llk_l1_address(std::uint32_t offset = 0) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(llk_l1) + offset;
    if (at > UINT32_MAX || offset >= sizeof(llk_l1)) {
        std::fprintf(stderr, "llk_l1_address(%u): not a 32-bit address inside llk_l1\n", offset);
        std::exit(2);
    }
    return static_cast<std::uint32_t>(at);
}

namespace ckernel {

using uint = std::uint32_t;

// A tile's geometry, as tt-llk's ckernel_defs.h names it: 32x32 datums in four 16x16 faces.
constexpr std::uint32_t TILE_HEIGHT = 32, TILE_WIDTH = 32, FACE_HEIGHT = 16, FACE_WIDTH = 16;
constexpr std::uint32_t TILE_R_DIM = TILE_HEIGHT, TILE_C_DIM = TILE_WIDTH;
constexpr std::uint32_t FACE_R_DIM = FACE_HEIGHT, FACE_C_DIM = FACE_WIDTH;
constexpr std::uint32_t TILE_NUM_FACES = (TILE_R_DIM * TILE_C_DIM) / (FACE_R_DIM * FACE_C_DIM);

// ADDR_MOD slots: addr_mod_t{...}.set(ADDR_MOD_n) becomes an .addr_mod directive.
struct addr_mod_t {
    struct addr_mod_src_t {
        std::uint8_t incr = 0;
        std::uint8_t clr = 0;
        std::uint8_t cr = 0;
    };
    struct addr_mod_dest_t {
        std::int16_t incr = 0;
        std::uint8_t clr = 0;
        std::uint8_t cr = 0;
        std::uint8_t c_to_cr = 0;
    };
    struct addr_mod_fidelity_t {
        std::uint8_t incr = 0;
        std::uint8_t clr = 0;
    };
    struct addr_mod_bias_t {
        std::uint8_t incr = 0;
        std::uint8_t clr = 0;
    };
    addr_mod_src_t srca = {};
    addr_mod_src_t srcb = {};
    addr_mod_dest_t dest = {};
    addr_mod_fidelity_t fidelity = {};
    addr_mod_bias_t bias = {};
    addr_mod_src_t pack_ysrc = {};
    addr_mod_src_t pack_ydst = {};

    void set(const std::uint8_t mod_index, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        if (mod_index > 7) {
            ::llk_record::stop("addr_mod_t::set of a slot outside 0..7", file, line);
        }
        char text[256];
        std::snprintf(text, sizeof text,
                      ".addr_mod %u dst_incr=%d dst_cr=%u dst_clear=%u dst_c_to_cr=%u srca_incr=%u srca_cr=%u "
                      "srca_clear=%u srcb_incr=%u srcb_cr=%u srcb_clear=%u bias_incr=%u bias_clear=%u",
                      mod_index, dest.incr & 0x3FF, dest.cr, dest.clr, dest.c_to_cr, srca.incr, srca.cr, srca.clr,
                      srcb.incr, srcb.cr, srcb.clr, bias.incr, bias.clr);
        ::llk_record::directive(text, file, line);
    }
};

// p_stall (STALLWAIT's bits) is generated per architecture into llk_names.h.

// Configuration registers the SFPU reads, as tags of this stand-in (not the
// hardware's addresses): cfg_reg_rmw_tile of Fp32 Dst mode becomes .fp32_dest.
constexpr std::uint32_t ALU_ACC_CTRL_SFPU_Fp32_enabled_ADDR32 = 0x7F000001;
constexpr std::uint32_t ALU_ACC_CTRL_SFPU_Fp32_enabled_SHAMT = 0;
constexpr std::uint32_t ALU_ACC_CTRL_SFPU_Fp32_enabled_MASK = 1;

template <std::uint32_t CfgAddr32, std::uint32_t Shamt, std::uint32_t Mask>
inline void cfg_reg_rmw_tile(std::uint32_t value, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    if constexpr (CfgAddr32 == ALU_ACC_CTRL_SFPU_Fp32_enabled_ADDR32) {
        ::llk_record::directive(value ? ".fp32_dest 1" : ".fp32_dest 0", file, line);
    } else {
        ::llk_record::stop("cfg_reg_rmw_tile of a configuration register the SFPU model does not read", file, line);
    }
}

enum class VectorMode { None = 0, R = 1, C = 2, RC = 4, RC_custom = 6, Invalid = 0xFF };
using sfpi::DataLayout;
enum SortDir : bool { ArgMax = false, ArgMin = true };
enum class DstSync { SyncHalf = 0, SyncFull = 1 };
enum class BroadcastType { NONE = 0, COL = 1, ROW = 2, SCALAR = 3 };
enum class ReduceDim { REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR };
enum class PoolType { SUM, AVG, MAX, MIN };
enum class EltwiseBinaryType { ELWMUL, ELWDIV, ELWADD, ELWSUB, ELWLESS };
enum class DataFormat : std::uint8_t {
    Float32 = 0, Float16 = 1, Bfp8 = 2, Bfp4 = 3, Tf32 = 4, Float16_b = 5, Bfp8_b = 6, Bfp4_b = 7,
    Int32 = 8, UInt16 = 9, Lf8 = 10, Bfp2 = 11, Int8 = 14, Bfp2_b = 15, UInt32 = 24, UInt8 = 30,
    RawUInt8 = 0xf0, RawUInt16 = 0xf1, RawUInt32 = 0xf2, Invalid = 0xff
};
enum DstTileShape { Tile32x32 = 0, Tile32x16 = 1, Tile16x16 = 2 };     // unscoped, as tt-llk's: it indexes arrays
// log2 of the Dst rows a tile of each shape takes (ckernel.h)
constexpr std::uint32_t DstTileSizeLog2[3] = {6, 5, 4};
enum class UnpackDestination { SrcRegs = 0, DestReg = 1 };
enum class StochRndType { None = 0, Fpu = 1, Pack = 2, All = 0xf };
enum class ActivationType { Celu = 0, Elu = 1, Gelu = 2, Hardtanh = 3, Hardsigmoid = 4 };
enum class RoundingMode : std::uint8_t { None = 0, Trunc = 1, Floor = 2 };
enum class DstRoundingMode : std::uint8_t { Default = 0, NearestEven = 1 };
// Template selectors of the binary kernels: only their names matter here.
enum class BinaryOp : std::uint8_t {
    ADD, SUB, MUL, DIV, RSUB, POW, XLOGY, RSHFT, LSHFT, LOGICAL_RSHFT, ADD_TOP_ROW, LT, GT, LE, GE, EQ, NE, MAX,
    MIN, FMOD, REMAINDER, BITWISE_AND, BITWISE_OR, BITWISE_XOR, DIV_INT32, DIV_INT32_FLOOR, GCD, LCM, RSUB_INT32,
    MASK, ATAN2, MUL_INT32, ISCLOSE, LOGSIGMOID, NEXTAFTER, NEXTAFTER_BF16
};

// The 32-bit integer load/store modes (INT32_2S_COMP, INT32, LO16) the integer kernels accept.
inline constexpr bool is_valid_instruction_mode(InstrModLoadStore mode) {
    return mode == InstrModLoadStore::INT32_2S_COMP || mode == InstrModLoadStore::INT32 ||
           mode == InstrModLoadStore::LO16;
}

// The SFPLOAD/SFPSTORE mode for a Dst data format (tt-llk's llk_defs.h): 32-bit Dst keeps
// FP16/BF16 data as FP32 and UInt16 as the low half of a 32-bit word.
template <DataFormat format, bool is_fp32_dest_acc_en = false>
constexpr InstrModLoadStore GetSfpLoadStoreInstrMod() {
    switch (format) {
        case DataFormat::Float32:
        case DataFormat::Tf32: return InstrModLoadStore::FP32;
        case DataFormat::Float16: return is_fp32_dest_acc_en ? InstrModLoadStore::FP32 : InstrModLoadStore::FP16A;
        case DataFormat::Float16_b: return is_fp32_dest_acc_en ? InstrModLoadStore::FP32 : InstrModLoadStore::FP16B;
        case DataFormat::Int8:
        case DataFormat::UInt8: return InstrModLoadStore::INT8;
        case DataFormat::UInt16: return is_fp32_dest_acc_en ? InstrModLoadStore::INT32 : InstrModLoadStore::LO16;
        case DataFormat::Int32:
        case DataFormat::UInt32: return InstrModLoadStore::INT32;
        default: return InstrModLoadStore::DEFAULT;
    }
}

// The math thread's half of Dst: the model runs on the first.
inline std::uint32_t get_dest_buffer_base() { return 0; }

// The PRNG seed is a configuration register (.prng_seed); tt-llk then waits 600 SFPNOPs.
inline void init_prng_seed(const std::uint32_t seed, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    char text[48];
    std::snprintf(text, sizeof text, ".prng_seed %u", seed);
    ::llk_record::directive(text, file, line);
    for (int i = 0; i < 600; i++) {
        ::llk_record::issue("SFPNOP", 0x8Fu << 24, {}, file, line);
    }
}

// Tensix instructions outside the model stop the run. The waits and semaphores
// (TTI_STALLWAIT, TTI_SEMWAIT, ...) come from the generated ckernel_ops.h: they
// are listed as instructions, which the SFPU-alone model honours where it can
// see the condition (model/waits.py) and the RISC-V build pushes as the
// hardware takes them, for the issue path's wait gate (model/issue_path.py).
// A raw instruction word pushed to the instruction buffer, as an SFPU instruction of that encoding.
#define TT_INSN(ENCODING) ::llk_record::issue_run("INSN", static_cast<std::uint32_t>(ENCODING), {}, __FILE__, __LINE__)
// A Tensix NOP (not SFPNOP): one cycle of the thread's issue slot, nothing for the SFPU.
#define TTI_NOP ::llk_record::tensix("NOP", TT_OP_NOP(), {}, __FILE__, __LINE__)
#define TTI_WRCFG(...) ::llk_record::stop("TTI_WRCFG of a configuration register is not modelled", __FILE__, __LINE__)
#define TTI_RMWCIB0(...) ::llk_record::stop("TTI_RMWCIB0 of a configuration register is not modelled", __FILE__, __LINE__)
#define TTI_RMWCIB1(...) ::llk_record::stop("TTI_RMWCIB1 of a configuration register is not modelled", __FILE__, __LINE__)
#define TTI_RMWCIB2(...) ::llk_record::stop("TTI_RMWCIB2 of a configuration register is not modelled", __FILE__, __LINE__)
#define TTI_RMWCIB3(...) ::llk_record::stop("TTI_RMWCIB3 of a configuration register is not modelled", __FILE__, __LINE__)
#define TTI_SETDMAREG(...) ::llk_record::stop("TTI_SETDMAREG is not modelled", __FILE__, __LINE__)
#define TTI_ZEROACC(...) ::llk_record::stop("TTI_ZEROACC is not modelled", __FILE__, __LINE__)

namespace math {
inline void set_addr_mod_base(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::llk_record::tensix("SETC16", TT_OP_SETC16(ADDR_MOD_SET_Base_ADDR32, 1),
                         {{"setc16_reg", ADDR_MOD_SET_Base_ADDR32, 8}, {"setc16_value", 1, 16}}, file, line);
}
inline void clear_addr_mod_base(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::llk_record::tensix("SETC16", TT_OP_SETC16(ADDR_MOD_SET_Base_ADDR32, 0),
                         {{"setc16_reg", ADDR_MOD_SET_Base_ADDR32, 8}, {"setc16_value", 0, 16}}, file, line);
}
inline void reset_counters(const std::uint32_t setrwc, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::llk_record::tensix("SETRWC", TT_OP_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, setrwc),
                         {{"clear_ab_vld", p_setrwc::CLR_NONE, 2}, {"rwc_cr", 0, 4}, {"rwc_d", 0, 4},
                          {"rwc_b", 0, 4}, {"rwc_a", 0, 4}, {"BitMask", setrwc, 6}}, file, line);
}
template <std::uint32_t num_rows = 8>
inline void inc_dst_addr(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::llk_record::tensix("SETRWC", TT_OP_SETRWC(p_setrwc::CLR_NONE, p_setrwc::CR_D, num_rows, 0, 0, p_setrwc::SET_D),
                         {{"clear_ab_vld", p_setrwc::CLR_NONE, 2}, {"rwc_cr", p_setrwc::CR_D, 4},
                                       {"rwc_d", num_rows, 4}, {"rwc_b", 0, 4}, {"rwc_a", 0, 4},
                                       {"BitMask", p_setrwc::SET_D, 6}}, file, line);
}
inline void clear_dst_reg_addr(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::llk_record::tensix("SETRWC", TT_OP_SETRWC(p_setrwc::CLR_NONE, 0, 0, 0, 0, p_setrwc::SET_D),
                         {{"clear_ab_vld", p_setrwc::CLR_NONE, 2}, {"rwc_cr", 0, 4}, {"rwc_d", 0, 4},
                          {"rwc_b", 0, 4}, {"rwc_a", 0, 4}, {"BitMask", p_setrwc::SET_D, 6}}, file, line);
}
}  // namespace math

}  // namespace ckernel

// tt-llk's _init_sfpu_config_reg, from its own header when the source tree has it.
#if __has_include("sfpu/ckernel_sfpu_load_config.h")
#include "sfpu/ckernel_sfpu_load_config.h"
#else
namespace ckernel::sfpu {
inline void _init_sfpu_config_reg() { TTI_SFPCONFIG(0, 0xF, 1); }
}  // namespace ckernel::sfpu
#endif

// The replay buffer: record the next instructions, replay recorded ones (TTI_REPLAY).
namespace lltt {
enum ExecBool : bool { NoExec = false, Exec = true };
template <ExecBool E = NoExec>
inline void record(unsigned start, unsigned length, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::llk_record::tensix("REPLAY", TT_OP_REPLAY(start, length, E ? 1 : 0, 1),
                         {{"start_idx", start, 5}, {"len", length, 6},
                          {"execute_while_loading", E ? 1 : 0, 1}, {"load_mode", 1, 1}}, file, line);
}
inline void replay(unsigned start, unsigned length, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::llk_record::tensix("REPLAY", TT_OP_REPLAY(start, length, 0, 0),
                         {{"start_idx", start, 5}, {"len", length, 6},
                          {"execute_while_loading", 0, 1}, {"load_mode", 0, 1}}, file, line);
}
}  // namespace lltt
#include "llk_arch.h"   // generated per architecture (tb/llk/headers.py)
