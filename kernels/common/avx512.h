// 512-bit helpers for the AVX-512 ISA files (avx512bw, avx512vnni, avx512vbmi2). All of
// them are built with AVX512F/BW/VL/DQ (and AVX2), so the 256-bit helpers apply too.
#pragma once
#include "kernels/common/avx2.h"

namespace nnuelab::NNUELAB_ISA_NS::x512 {

inline __m512i dot_u8i8_madd(__m512i acc, __m512i u, __m512i w) {
  return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(u, w), _mm512_set1_epi16(1)));
}

// The x2 trick (see x256::dot_u8i8_x2_madd).
inline __m512i dot_u8i8_x2_madd(__m512i acc, __m512i u, __m512i w, __m512i u2, __m512i w2) {
  const __m512i pairs = _mm512_add_epi16(_mm512_maddubs_epi16(u, w), _mm512_maddubs_epi16(u2, w2));
  return _mm512_add_epi32(acc, _mm512_madd_epi16(pairs, _mm512_set1_epi16(1)));
}

// The x4 trick (see x256::dot_u8i8_x4_madd).
inline __m512i dot_u8i8_x4_madd(__m512i acc, __m512i u0, __m512i w0, __m512i u1, __m512i w1, __m512i u2, __m512i w2,
                                __m512i u3, __m512i w3) {
  const __m512i p01 = _mm512_add_epi16(_mm512_maddubs_epi16(u0, w0), _mm512_maddubs_epi16(u1, w1));
  const __m512i p23 = _mm512_add_epi16(_mm512_maddubs_epi16(u2, w2), _mm512_maddubs_epi16(u3, w3));
  return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_add_epi16(p01, p23), _mm512_set1_epi16(1)));
}

// Folds the 512-bit accumulators to 256 bits (adding halves) and reuses the AVX2 haddx4.
inline __m128i haddx4(__m512i a0, __m512i a1, __m512i a2, __m512i a3) {
  auto fold = [](__m512i a) { return _mm256_add_epi32(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64(a, 1)); };
  return x256::haddx4(fold(a0), fold(a1), fold(a2), fold(a3));
}

// 16 int32 lanes, maddubs+madd dot (see kernels/affine/techniques.h).
struct Maddubs {
  using reg = __m512i;
  static constexpr int kBytes = 64;
  static reg zero() { return _mm512_setzero_si512(); }
  static reg load(const void* p) { return _mm512_loadu_si512(p); }
  static void store(void* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg add(reg a, reg b) { return _mm512_add_epi32(a, b); }
  static reg bcast32(std::int32_t x) { return _mm512_set1_epi32(x); }
  static reg dot(reg acc, reg u, reg w) { return dot_u8i8_madd(acc, u, w); }
  // Two inputs into the same lanes with one widening (the two-chunk techniques).
  static reg dot2(reg acc, reg u, reg w, reg u2, reg w2) { return dot_u8i8_x2_madd(acc, u, w, u2, w2); }
  static reg dot4(reg acc, reg u0, reg w0, reg u1, reg w1, reg u2, reg w2, reg u3, reg w3) {
    return dot_u8i8_x4_madd(acc, u0, w0, u1, w1, u2, w2, u3, w3);
  }
  static std::int32_t hsum(reg a) { return _mm512_reduce_add_epi32(a); }
  static __m128i haddx4(reg a0, reg a1, reg a2, reg a3) { return x512::haddx4(a0, a1, a2, a3); }
  // Signed compare, like the narrower forms: 16 bits for 64 bytes.
  static unsigned nonzero_chunks(const std::uint8_t* p) {
    return unsigned(_mm512_cmpgt_epi32_mask(_mm512_loadu_si512(p), _mm512_setzero_si512()));
  }
  static std::uint64_t nonzero_bytes(const std::uint8_t* p) {
    return std::uint64_t(_mm512_cmpgt_epi8_mask(_mm512_loadu_si512(p), _mm512_setzero_si512()));
  }
  static reg unpacklo16(reg a, reg b) { return _mm512_unpacklo_epi16(a, b); }
  static reg unpackhi16(reg a, reg b) { return _mm512_unpackhi_epi16(a, b); }
  static reg unpacklo8(reg a, reg b) { return _mm512_unpacklo_epi8(a, b); }
  static reg unpackhi8(reg a, reg b) { return _mm512_unpackhi_epi8(a, b); }
  static reg madd16(reg a, reg b) { return _mm512_madd_epi16(a, b); }
};

#if defined(__AVX512VNNI__) || NNUELAB_EMULATED
// The same with one vpdpbusd per dot: exact over the whole uint8 x int8 range.
struct Vnni : Maddubs {
  static reg dot(reg acc, reg u, reg w) { return _mm512_dpbusd_epi32(acc, u, w); }
  // The whole dot (vpdpbusd: 5 cycles on Intel cores) lies on the accumulator's chain,
  // where maddubs+madd leave only the 1-cycle add on it: a technique with few
  // accumulators needs more independent sets (techniques.h, DenseBlocked4).
  static constexpr bool kDotInChain = true;
  // No two- or four-chunk dot: they save madds, and vpdpbusd has none to save. Deleted so
  // that the x2 and x4 techniques cannot be instantiated on a VNNI ISA by mistake.
  static reg dot2(reg, reg, reg, reg, reg) = delete;
  static reg dot4(reg, reg, reg, reg, reg, reg, reg, reg, reg) = delete;
};
#endif

}  // namespace nnuelab::NNUELAB_ISA_NS::x512
