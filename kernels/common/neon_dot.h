// NEON helpers shared by the dot_u8i8, find_nnz and affine NEON variants (armv8, dotprod,
// i8mm; native on aarch64, or through SIMDe as <isa>-emu on x86). Included by
// kernels/<op>/neon*.cpp only, after kernels/common/isa.h: everything lands in that ISA's
// namespace (DESIGN.md, "ISA builds"), inside an anonymous namespace.
//
// The three dot primitives, and where each equals vpdpbusd (u uint8, w int8):
//   smull  vmull_s8 / vmull_high_s8 of u read as int8, vpadalq_s16 into int32 lanes that
//          each hold the sum of one byte pair. Products of int8 x int8 fit int16
//          (|p| <= 16384) and vpadalq widens before adding, so the form is the exact sum of
//          int8(u) * w: equal to dpbusd for u in 0..127 (the NNUE domain); u = 128 reads
//          as -128. Two int32 lanes per 4-byte group: vpaddq_s32 folds them at the end.
//   sdot   vdotq_s32 (FEAT_DotProd): int8 x int8 only, so the same int8(u) domain.
//   usdot  vusdotq_s32 (FEAT_I8MM): uint8 x int8, the true dpbusd analogue on 0..255.
// and the armv8 form exact on the whole domain (dot_u8i8 only): u widened to int16 with
// vmovl_u8, w with vmovl_s8; u * w lies in -32640..32385, so one vmulq_s16 is exact, and
// vpadalq_s16 adds the pairs into int32.
#pragma once
#include <cstring>

#include "kernels/common/isa.h"
#include "kernels/common/nnz_tables.h"
#include "kernels/common/nnz_walk.h"

namespace nnuelab::NNUELAB_ISA_NS::neon_dot {
namespace {

// ---- the dot primitives -------------------------------------------------------------------

// acc_pairs[i] += p[2i] + p[2i+1] for the 16 int8 x int8 products of a and b, bytes 0..7
// into lo, 8..15 into hi: lane i of lo then holds the sum of byte pair i (groups 0, 1), of
// hi byte pair i of bytes 8..15 (groups 2, 3). fold_pairs(lo, hi) gives the 4 group sums.
inline void smull_padal(int32x4_t& lo, int32x4_t& hi, int8x16_t a, int8x16_t b) {
  lo = vpadalq_s16(lo, vmull_s8(vget_low_s8(a), vget_low_s8(b)));
  hi = vpadalq_s16(hi, vmull_high_s8(a, b));
}
inline int32x4_t fold_pairs(int32x4_t lo, int32x4_t hi) { return vpaddq_s32(lo, hi); }

// The exact u8 x i8 form: products in int16 (|u * w| <= 32640 fits), pairs into int32.
inline void widen16_padal(int32x4_t& lo, int32x4_t& hi, uint8x16_t u, int8x16_t w) {
  const int16x8_t u_lo = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(u)));
  const int16x8_t u_hi = vreinterpretq_s16_u16(vmovl_high_u8(u));
  lo = vpadalq_s16(lo, vmulq_s16(u_lo, vmovl_s8(vget_low_s8(w))));
  hi = vpadalq_s16(hi, vmulq_s16(u_hi, vmovl_high_s8(w)));
}

#if NNUELAB_EMULATED || defined(__ARM_FEATURE_DOTPROD)
inline int32x4_t sdot(int32x4_t acc, int8x16_t a, int8x16_t b) { return vdotq_s32(acc, a, b); }
#endif
#if NNUELAB_EMULATED || defined(__ARM_FEATURE_MATMUL_INT8)
inline int32x4_t usdot(int32x4_t acc, uint8x16_t u, int8x16_t w) { return vusdotq_s32(acc, u, w); }
#endif

// A 4-byte chunk in every 32-bit lane.
inline uint8x16_t bcast_chunk(const std::uint8_t* p) {
  std::uint32_t x;
  std::memcpy(&x, p, 4);
  return vreinterpretq_u8_u32(vdupq_n_u32(x));
}

// ---- nnz masks ----------------------------------------------------------------------------
// All compares are vtst(x, x): "any bit set", so every byte value 1..255 counts (no signed
// compare as on x86's pcmpgt). A mask byte is 0xFF per non-zero element.

// 16 chunks (64 bytes) -> 16 mask bytes. vqmovn saturates: a non-zero u32 stays non-zero
// through u32 -> u16 -> u8, so one vtst on the narrowed bytes marks the chunks.
inline uint8x16_t chunk_bytes16(const std::uint8_t* p) {
  const uint32x4_t c0 = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p));
  const uint32x4_t c1 = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p + 16));
  const uint32x4_t c2 = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p + 32));
  const uint32x4_t c3 = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p + 48));
  const uint16x8_t h01 = vqmovn_high_u32(vqmovn_u32(c0), c1);
  const uint16x8_t h23 = vqmovn_high_u32(vqmovn_u32(c2), c3);
  const uint8x16_t b = vqmovn_high_u16(vqmovn_u16(h01), h23);
  return vtstq_u8(b, b);
}

inline uint8x16_t byte_bytes16(const std::uint8_t* p) {
  const uint8x16_t v = vld1q_u8(p);
  return vtstq_u8(v, v);
}

// The "movemask" of 16 mask bytes by vshrn: each byte's top and bottom nibble pair become
// one nibble, 4 bits per element in a 64-bit word (element e at bits 4e..4e+3).
inline std::uint64_t nibble_mask(uint8x16_t m) {
  return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(m), 4)), 0);
}

// 64 mask bytes -> one bit per element: each byte keeps its bit (1, 2, ..., 128 within
// each 8 bytes), then three rounds of pairwise adds sum each 8 bytes into one.
inline std::uint64_t bit_mask64(uint8x16_t m0, uint8x16_t m1, uint8x16_t m2, uint8x16_t m3) {
  static constexpr std::uint8_t kBits[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  const uint8x16_t bits = vld1q_u8(kBits);
  const uint8x16_t p01 = vpaddq_u8(vandq_u8(m0, bits), vandq_u8(m1, bits));
  const uint8x16_t p23 = vpaddq_u8(vandq_u8(m2, bits), vandq_u8(m3, bits));
  const uint8x16_t p = vpaddq_u8(p01, p23);
  return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(p, p)), 0);
}

inline bool chunk_nonzero(const std::uint8_t* p) {
  std::uint32_t x;
  std::memcpy(&x, p, 4);
  return x != 0;
}

// Bits of chunks [first, first + 64) of a row of `chunks` (fewer at the end).
inline std::uint64_t chunk_mask64(const std::uint8_t* in, int first, int chunks) {
  const int n = chunks - first < 64 ? chunks - first : 64;
  const std::uint8_t* p = in + 4 * std::size_t(first);
  if (n == 64)
    return bit_mask64(chunk_bytes16(p), chunk_bytes16(p + 64), chunk_bytes16(p + 128), chunk_bytes16(p + 192));
  std::uint64_t m = 0;
  for (int c = 0; c < n; ++c) m |= std::uint64_t(chunk_nonzero(p + 4 * c)) << c;
  return m;
}

// Bits of the 64 bytes at p, one per byte (its only caller, find_nnz's block walk, asks for
// whole 64-byte blocks and handles a row's tail itself).
inline std::uint64_t byte_mask64(const std::uint8_t* p) {
  return bit_mask64(byte_bytes16(p), byte_bytes16(p + 16), byte_bytes16(p + 32), byte_bytes16(p + 48));
}

// ---- index lists --------------------------------------------------------------------------

// The low `len` bits of m, 8 per lookup: the kNnzLut row + base as one 128-bit store,
// advanced by kNnzCount (no popcount instruction on the general registers of armv8).
inline int emit_lut(std::uint64_t m, int len, int first, std::uint16_t* out, int count) {
  uint16x8_t base = vdupq_n_u16(std::uint16_t(first));
  for (int k = 0; k < len; k += 8) {
    const unsigned b = unsigned(m >> k) & 0xFF;
    vst1q_u16(out + count, vaddq_u16(vld1q_u16(::nnuelab::kNnzLut[b]), base));
    count += ::nnuelab::kNnzCount[b];
    base = vaddq_u16(base, vdupq_n_u16(8));
  }
  return count;
}

// The non-zero chunks of a row of `chunks` chunks as an ascending list (64 slack entries).
struct Lsb {
  static int chunks(const std::uint8_t* in, int chunks, std::uint16_t* out) {
    int count = 0;
    for (int b = 0; b < chunks; b += 64) count += nnz::emit_lsb(chunk_mask64(in, b, chunks), b, out + count);
    return count;
  }
};
struct Lut {
  static int chunks(const std::uint8_t* in, int chunks, std::uint16_t* out) {
    int count = 0;
    for (int b = 0; b < chunks; b += 64) {
      const int len = chunks - b < 64 ? chunks - b : 64;
      count = emit_lut(chunk_mask64(in, b, chunks), len, b, out, count);
    }
    return count;
  }
  // The same list from a producer's bitset (bit c of word c / 64 set when chunk c is
  // non-zero; bits from `chunks` on are ignored): no input scan.
  static int from_bits(const std::uint64_t* words, int chunks, std::uint16_t* out) {
    int count = 0;
    for (int b = 0; b < chunks; b += 64) {
      const int len = chunks - b < 64 ? chunks - b : 64;
      const std::uint64_t m = len < 64 ? words[b / 64] & ((std::uint64_t(1) << len) - 1) : words[b / 64];
      count = emit_lut(m, len, b, out, count);
    }
    return count;
  }
};

}  // namespace
}  // namespace nnuelab::NNUELAB_ISA_NS::neon_dot
