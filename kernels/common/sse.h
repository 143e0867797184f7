// 128-bit helpers for the SSSE3/SSE4.1 ISA files (pmaddubsw is SSSE3).
#pragma once
#include "kernels/common/isa.h"

namespace nnuelab::NNUELAB_ISA_NS::x128 {

// acc += 4-byte group dots: maddubs (int16 pair sums, saturating; exact for u <= 127)
// then madd with ones (exact widening).
inline __m128i dot_u8i8_madd(__m128i acc, __m128i u, __m128i w) {
  return _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(u, w), _mm_set1_epi16(1)));
}

// The x2 trick (see x256::dot_u8i8_x2_madd).
inline __m128i dot_u8i8_x2_madd(__m128i acc, __m128i u, __m128i w, __m128i u2, __m128i w2) {
  const __m128i pairs = _mm_add_epi16(_mm_maddubs_epi16(u, w), _mm_maddubs_epi16(u2, w2));
  return _mm_add_epi32(acc, _mm_madd_epi16(pairs, _mm_set1_epi16(1)));
}

// The x4 trick (see x256::dot_u8i8_x4_madd).
inline __m128i dot_u8i8_x4_madd(__m128i acc, __m128i u0, __m128i w0, __m128i u1, __m128i w1, __m128i u2, __m128i w2,
                                __m128i u3, __m128i w3) {
  const __m128i p01 = _mm_add_epi16(_mm_maddubs_epi16(u0, w0), _mm_maddubs_epi16(u1, w1));
  const __m128i p23 = _mm_add_epi16(_mm_maddubs_epi16(u2, w2), _mm_maddubs_epi16(u3, w3));
  return _mm_add_epi32(acc, _mm_madd_epi16(_mm_add_epi16(p01, p23), _mm_set1_epi16(1)));
}

inline __m128i haddx4(__m128i a0, __m128i a1, __m128i a2, __m128i a3) {
  return _mm_hadd_epi32(_mm_hadd_epi32(a0, a1), _mm_hadd_epi32(a2, a3));
}

inline std::int32_t hsum(__m128i s) {
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01001110));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10110001));
  return _mm_cvtsi128_si32(s);
}

// 4 int32 lanes, maddubs+madd dot (see kernels/affine/techniques.h).
struct Maddubs {
  using reg = __m128i;
  static constexpr int kBytes = 16;
  static reg zero() { return _mm_setzero_si128(); }
  static reg load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
  static void store(void* p, reg v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
  static reg add(reg a, reg b) { return _mm_add_epi32(a, b); }
  static reg bcast32(std::int32_t x) { return _mm_set1_epi32(x); }
  static reg dot(reg acc, reg u, reg w) { return dot_u8i8_madd(acc, u, w); }
  // Two inputs into the same lanes with one widening (the two-chunk techniques).
  static reg dot2(reg acc, reg u, reg w, reg u2, reg w2) { return dot_u8i8_x2_madd(acc, u, w, u2, w2); }
  static reg dot4(reg acc, reg u0, reg w0, reg u1, reg w1, reg u2, reg w2, reg u3, reg w3) {
    return dot_u8i8_x4_madd(acc, u0, w0, u1, w1, u2, w2, u3, w3);
  }
  static std::int32_t hsum(reg a) { return x128::hsum(a); }
  static __m128i haddx4(reg a0, reg a1, reg a2, reg a3) { return x128::haddx4(a0, a1, a2, a3); }
  // Signed compare: chunks with a top byte >= 128 are missed (activations are 0..127).
  static unsigned nonzero_chunks(const std::uint8_t* p) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(x, _mm_setzero_si128()))));
  }
  static std::uint64_t nonzero_bytes(const std::uint8_t* p) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return std::uint32_t(_mm_movemask_epi8(_mm_cmpgt_epi8(x, _mm_setzero_si128())));
  }
  static reg unpacklo16(reg a, reg b) { return _mm_unpacklo_epi16(a, b); }
  static reg unpackhi16(reg a, reg b) { return _mm_unpackhi_epi16(a, b); }
  static reg unpacklo8(reg a, reg b) { return _mm_unpacklo_epi8(a, b); }
  static reg unpackhi8(reg a, reg b) { return _mm_unpackhi_epi8(a, b); }
  static reg madd16(reg a, reg b) { return _mm_madd_epi16(a, b); }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::x128
