// NEON (AArch64 Advanced SIMD) implementations of the shared vector interfaces, so the
// techniques written once for x86 instantiate for NEON too:
//   act::N128       activation ops (kernels/common/activation.h)
//   pairwise::N128  pooling and ft_output (kernels/common/pairwise.h)
//   ft::N128        feature transformer (kernels/ft_refresh/ft_tiles.h)
// and the NEON-only pieces the neon.cpp techniques share (namespace neon: the vtst nnz
// bitset of four output vectors, a store loop that writes it).
//
// Included by kernels/<op>/neon.cpp only (native aarch64, or the neon-emu build against
// SIMDe): everything lands in the including ISA's namespace.
//
// Two NEON facts shape everything below:
// - Narrowing keeps the order. vqmovn/vqmovun write the low half of a register and their
//   "high" forms (sqxtn2, sqxtun2; written here as vcombine of two narrows, which GCC
//   fuses) the upper half, so two consecutive inputs narrow to consecutive outputs: there
//   is no 128-bit-lane interleave to undo, fix_packs16/fix_packs32x2/unlace are identities
//   and ft_output's NEON variants declare the canonical order.
// - Shifts by a run-time count are vshl by a register of per-lane counts (negative =
//   right shift), so act::N128::count holds the left and the right count vectors.
#pragma once
#include <cstdint>

#include "kernels/common/activation.h"
#include "kernels/common/isa.h"
#include "kernels/common/pairwise.h"
#include "kernels/ft_refresh/ft_tiles.h"

#if defined(__aarch64__) || NNUELAB_EMULATED

namespace nnuelab::NNUELAB_ISA_NS::neon {

// Reinterprets (free: same register, another element type).
inline int8x16_t s8(int16x8_t v) { return vreinterpretq_s8_s16(v); }
inline int8x16_t s8(uint16x8_t v) { return vreinterpretq_s8_u16(v); }
inline int8x16_t s8(int32x4_t v) { return vreinterpretq_s8_s32(v); }
inline int8x16_t s8(uint8x16_t v) { return vreinterpretq_s8_u8(v); }
inline int8x16_t s8(uint32x4_t v) { return vreinterpretq_s8_u32(v); }
inline int8x16_t s8(int8x16_t v) { return v; }
inline int16x8_t s16(int8x16_t v) { return vreinterpretq_s16_s8(v); }
inline uint16x8_t u16(int8x16_t v) { return vreinterpretq_u16_s8(v); }
inline int32x4_t s32(int8x16_t v) { return vreinterpretq_s32_s8(v); }
inline uint32x4_t u32(int8x16_t v) { return vreinterpretq_u32_s8(v); }
inline uint32x4_t u32(uint8x16_t v) { return vreinterpretq_u32_u8(v); }
inline uint8x16_t u8(int8x16_t v) { return vreinterpretq_u8_s8(v); }

// Saturating narrows of two registers into one, in order (sqxtn + sqxtn2 etc.).
inline int16x8_t qmovn2(int32x4_t a, int32x4_t b) { return vcombine_s16(vqmovn_s32(a), vqmovn_s32(b)); }
inline uint16x8_t qmovun2(int32x4_t a, int32x4_t b) { return vcombine_u16(vqmovun_s32(a), vqmovun_s32(b)); }
inline int8x16_t qmovn2(int16x8_t a, int16x8_t b) { return vcombine_s8(vqmovn_s16(a), vqmovn_s16(b)); }
inline uint8x16_t qmovun2(int16x8_t a, int16x8_t b) { return vcombine_u8(vqmovun_s16(a), vqmovun_s16(b)); }

// ---- the vtst nnz bitset --------------------------------------------------------------
// vtst (x & x != 0 per lane) is an exact non-zero test for any byte values, unlike the
// x86 interfaces' signed compare with 0 (which relies on outputs 0..127).
//
// One output vector: 4 bits (chunk j of 16 bytes -> bit j): mask, weight, add across.
inline std::uint64_t nnz16(uint8x16_t o) {
  alignas(16) static constexpr std::uint32_t kWeights[4] = {1, 2, 4, 8};
  return vaddvq_u32(vandq_u32(vtstq_u32(u32(o), u32(o)), vld1q_u32(kWeights)));
}

// Four output vectors (64 bytes, 16 chunks) -> 16 bits: the four 32-bit masks narrow
// (xtn, xtn2, twice) to one byte per chunk in order, each byte keeps its own bit
// weight, and two byte-adds across the halves give the two bytes of the result. One
// narrow tree and two reductions per 64 bytes instead of four reductions.
inline std::uint64_t nnz64(uint8x16_t o0, uint8x16_t o1, uint8x16_t o2, uint8x16_t o3) {
  alignas(16) static constexpr std::uint8_t kWeights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  const uint16x8_t m01 = vcombine_u16(vmovn_u32(vtstq_u32(u32(o0), u32(o0))), vmovn_u32(vtstq_u32(u32(o1), u32(o1))));
  const uint16x8_t m23 = vcombine_u16(vmovn_u32(vtstq_u32(u32(o2), u32(o2))), vmovn_u32(vtstq_u32(u32(o3), u32(o3))));
  const uint8x16_t w = vandq_u8(vcombine_u8(vmovn_u16(m01), vmovn_u16(m23)), vld1q_u8(kWeights));
  return std::uint64_t(vaddv_u8(vget_low_u8(w))) | std::uint64_t(vaddv_u8(vget_high_u8(w))) << 8;
}

// Stores `vectors` output vectors of 16 bytes, vector k = step(k) at out + 16 k; with
// kBits also writes their nnz bitset through act::BitWriter (first_chunk as there): 16
// bits per group of four vectors (nnz64), 4 bits per vector of the tail.
// Every push is at a multiple of its own size, so none straddles a 64-bit word.
template <bool kBits, class Step>
inline void store_vectors(int vectors, std::uint8_t* out, std::uint64_t* bits, Step&& step, int first_chunk = 0) {
  act::BitWriter w(kBits ? bits : nullptr, first_chunk);
  int k = 0;
  if constexpr (kBits) {
    if (first_chunk % 16 == 0) {
      for (; k + 4 <= vectors; k += 4) {
        const uint8x16_t o0 = step(k), o1 = step(k + 1), o2 = step(k + 2), o3 = step(k + 3);
        vst1q_u8(out + 16 * k, o0);
        vst1q_u8(out + 16 * k + 16, o1);
        vst1q_u8(out + 16 * k + 32, o2);
        vst1q_u8(out + 16 * k + 48, o3);
        w.push(nnz64(o0, o1, o2, o3), 16);
      }
    }
  }
  for (; k < vectors; ++k) {
    const uint8x16_t o = step(k);
    vst1q_u8(out + 16 * k, o);
    if constexpr (kBits) w.push(nnz16(o), 4);
  }
  if constexpr (kBits) w.finish();
}

}  // namespace nnuelab::NNUELAB_ISA_NS::neon

namespace nnuelab::NNUELAB_ISA_NS::act {

// The activation interface on one 128-bit NEON register (the byte view is the register
// type; members reinterpret as they need).
struct N128 {
  using reg = int8x16_t;
  static constexpr int kBytes = 16;
  struct count {
    int16x8_t left, right;  // +s and -s in every lane: vshl shifts left by +s, right by -s
  };
  static count shift_count(int s) { return {vdupq_n_s16(std::int16_t(s)), vdupq_n_s16(std::int16_t(-s))}; }
  static reg load(const void* p) { return vld1q_s8(static_cast<const std::int8_t*>(p)); }
  static void store(void* p, reg v) { vst1q_s8(static_cast<std::int8_t*>(p), v); }
  static reg zero() { return vdupq_n_s8(0); }
  static reg set1_8(std::int8_t x) { return vdupq_n_s8(x); }
  static reg set1_16(std::int16_t x) { return neon::s8(vdupq_n_s16(x)); }
  // packs/packus: saturating narrows, in order (no interleave, see the top of the file).
  static reg packs32(reg a, reg b) { return neon::s8(neon::qmovn2(neon::s32(a), neon::s32(b))); }
  static reg packus32(reg a, reg b) { return neon::s8(neon::qmovun2(neon::s32(a), neon::s32(b))); }
  static reg packs16(reg a, reg b) { return neon::qmovn2(neon::s16(a), neon::s16(b)); }
  static reg packus16(reg a, reg b) { return neon::s8(neon::qmovun2(neon::s16(a), neon::s16(b))); }
  // vshl by a negative count is a right shift (arithmetic on signed lanes, logical on
  // unsigned ones); counts >= 16 give all sign bits or 0, as psraw/psrlw do.
  static reg sra16(reg a, count c) { return neon::s8(vshlq_s16(neon::s16(a), c.right)); }
  static reg srl16(reg a, count c) { return neon::s8(vshlq_u16(neon::u16(a), c.right)); }
  static reg sll16(reg a, count c) { return neon::s8(vshlq_s16(neon::s16(a), c.left)); }
  // pmulhw has no NEON twin (sqdmulh doubles and saturates): the full 32-bit products
  // (smull, smull2), then uzp2 keeps the odd halfwords = the high halves. Exact for every
  // int16 pair.
  static reg mulhi16(reg a, reg b) {
    const int16x8_t x = neon::s16(a), y = neon::s16(b);
    const int32x4_t lo = vmull_s16(vget_low_s16(x), vget_low_s16(y));
    const int32x4_t hi = vmull_s16(vget_high_s16(x), vget_high_s16(y));
    return neon::s8(vuzp2q_s16(vreinterpretq_s16_s32(lo), vreinterpretq_s16_s32(hi)));
  }
  static reg subs_epu16(reg a, reg b) { return neon::s8(vqsubq_u16(neon::u16(a), neon::u16(b))); }
  // abs(-32768) wraps to -32768 (0x8000) like pabsw; subs_epu16 then reads it as 32768.
  static reg abs16(reg a) { return neon::s8(vabsq_s16(neon::s16(a))); }
  static reg subs8(reg a, reg b) { return vqsubq_s8(a, b); }
  static reg max8(reg a, reg b) { return vmaxq_s8(a, b); }
  // b where the sign byte is negative, else a: bsl with the sign mask (cmlt #0).
  static reg blend_neg8(reg a, reg b, reg sign) { return vbslq_s8(vcltzq_s8(sign), b, a); }
  // Narrowing keeps the order: nothing to fix.
  static reg fix_packs16(reg r) { return r; }
  static reg fix_packs32x2(reg r) { return r; }
  static std::uint64_t nnz(reg r) { return neon::nnz16(neon::u8(r)); }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::act

namespace nnuelab::NNUELAB_ISA_NS::pairwise {

struct N128 {
  using reg = int16x8_t;  // the int16 view; byte ops reinterpret
  static constexpr int kBytes = 16;
  static constexpr int kLanes = 1;
  static reg load(const void* p) { return vreinterpretq_s16_u8(vld1q_u8(static_cast<const std::uint8_t*>(p))); }
  static void store(void* p, reg v) { vst1q_u8(static_cast<std::uint8_t*>(p), vreinterpretq_u8_s16(v)); }
  static reg zero() { return vdupq_n_s16(0); }
  static reg set1_16(short x) { return vdupq_n_s16(x); }
  // urhadd: (a + b + 1) >> 1 with the 9-bit sum inside the instruction, as pavgb.
  static reg avg_u8(reg a, reg b) {
    return vreinterpretq_s16_u8(vrhaddq_u8(vreinterpretq_u8_s16(a), vreinterpretq_u8_s16(b)));
  }
  static reg max_u8(reg a, reg b) { return vreinterpretq_s16_u8(vmaxq_u8(vreinterpretq_u8_s16(a), vreinterpretq_u8_s16(b))); }
  static reg max16(reg a, reg b) { return vmaxq_s16(a, b); }
  static reg min16(reg a, reg b) { return vminq_s16(a, b); }
  // mul keeps the low 16 bits of each product, as pmullw.
  static reg mullo16(reg a, reg b) {
    return vreinterpretq_s16_u16(vmulq_u16(vreinterpretq_u16_s16(a), vreinterpretq_u16_s16(b)));
  }
  static reg mulhi16(reg a, reg b) {
    const int32x4_t lo = vmull_s16(vget_low_s16(a), vget_low_s16(b));
    const int32x4_t hi = vmull_s16(vget_high_s16(a), vget_high_s16(b));
    return vuzp2q_s16(vreinterpretq_s16_s32(lo), vreinterpretq_s16_s32(hi));
  }
  static reg srli7(reg a) { return vreinterpretq_s16_u16(vshrq_n_u16(vreinterpretq_u16_s16(a), 7)); }
  static reg slli7(reg a) { return vreinterpretq_s16_u16(vshlq_n_u16(vreinterpretq_u16_s16(a), 7)); }
  static reg packus16(reg a, reg b) { return vreinterpretq_s16_u8(neon::qmovun2(a, b)); }
  static reg unlace(reg x) { return x; }  // narrowing keeps the order
  static unsigned zero_chunks(reg x) {
    alignas(16) static constexpr std::uint32_t kWeights[4] = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(vceqq_u32(vreinterpretq_u32_s16(x), vdupq_n_u32(0)), vld1q_u32(kWeights)));
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::pairwise

namespace nnuelab::NNUELAB_ISA_NS::ft {

// add/sub wrap mod 2^16 (NEON integer add/sub never saturate unless asked: sqadd).
struct N128 {
  using reg = int16x8_t;
  static constexpr int kLanes = 8;
  static constexpr const char* kWidthReason = "needs l1 % 8 == 0 (whole NEON registers of 8 int16)";
  static reg load(const std::int16_t* p) { return vld1q_s16(p); }
  static void store(std::int16_t* p, reg v) { vst1q_s16(p, v); }
  static reg add(reg a, reg b) {
    return vreinterpretq_s16_u16(vaddq_u16(vreinterpretq_u16_s16(a), vreinterpretq_u16_s16(b)));
  }
  static reg sub(reg a, reg b) {
    return vreinterpretq_s16_u16(vsubq_u16(vreinterpretq_u16_s16(a), vreinterpretq_u16_s16(b)));
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::ft

#endif
