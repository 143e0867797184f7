// Lane helpers for 256-bit integer kernels. Included by AVX2-class ISA files only; every
// definition lands in the including ISA's namespace (nnuelab::avx2, nnuelab::avxvnni, ...).
#pragma once
#include "kernels/common/isa.h"

namespace nnuelab::NNUELAB_ISA_NS::x256 {

// acc += 4-byte group dots of u (uint8) and w (int8) per int32 lane, the AVX2 way:
// maddubs forms int16 pair sums u0*w0 + u1*w1 with *signed saturation*, then madd with
// ones widens adjacent pairs to int32 exactly. Equal to vpdpbusd only while no pair sum
// leaves int16: true for u <= 127 (|sum| <= 2*127*128 = 32512), the affine domain.
inline __m256i dot_u8i8_madd(__m256i acc, __m256i u, __m256i w) {
  const __m256i pairs = _mm256_maddubs_epi16(u, w);
  return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
}

// The x2 trick: two inputs' maddubs pair sums added with paddw (wrapping at int16; paddw,
// not paddsw: callers prove the sum fits, and on Intel paddw also issues on port 5, which
// does no multiplies) before one widening madd: 3 multiplies for 2 inputs instead of 4.
// Exact only while the int16 sum of four products fits (the callers' domains).
inline __m256i dot_u8i8_x2_madd(__m256i acc, __m256i u, __m256i w, __m256i u2, __m256i w2) {
  const __m256i pairs = _mm256_add_epi16(_mm256_maddubs_epi16(u, w), _mm256_maddubs_epi16(u2, w2));
  return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
}

// The x4 form of the same trick: four inputs' pair sums added in int16 (a tree of three
// paddw) before one madd: 5 multiplies for 4 inputs instead of 8. Exact only while the
// int16 sum of eight products fits (pack_tiles4_x2 with group 4 proves it per lane).
inline __m256i dot_u8i8_x4_madd(__m256i acc, __m256i u0, __m256i w0, __m256i u1, __m256i w1, __m256i u2, __m256i w2,
                                __m256i u3, __m256i w3) {
  const __m256i p01 = _mm256_add_epi16(_mm256_maddubs_epi16(u0, w0), _mm256_maddubs_epi16(u1, w1));
  const __m256i p23 = _mm256_add_epi16(_mm256_maddubs_epi16(u2, w2), _mm256_maddubs_epi16(u3, w3));
  return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_add_epi16(p01, p23), _mm256_set1_epi16(1)));
}

// Horizontal sums of four int32x8 accumulators -> {sum(a0), sum(a1), sum(a2), sum(a3)}.
// hadd works within each 128-bit lane, so after two rounds lane 0 holds the low halves'
// partial sums of a0..a3 and lane 1 the high halves'; adding the two lanes finishes it.
inline __m128i haddx4(__m256i a0, __m256i a1, __m256i a2, __m256i a3) {
  const __m256i s01 = _mm256_hadd_epi32(a0, a1);
  const __m256i s23 = _mm256_hadd_epi32(a2, a3);
  const __m256i s = _mm256_hadd_epi32(s01, s23);
  return _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
}

inline std::int32_t hsum(__m256i a) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01001110));  // swap 64-bit halves
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10110001));  // swap neighbours
  return _mm_cvtsi128_si32(s);
}

// One bit per non-zero 4-byte chunk of 32 bytes (8 bits). A signed compare: a chunk
// whose top byte is >= 128 reads as negative and is missed; activations are 0..127.
inline unsigned nonzero_chunks8(const std::uint8_t* p) {
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(x, _mm256_setzero_si256()))));
}

// The vector interface the shared affine techniques are written against
// (kernels/affine/techniques.h): 8 int32 lanes, maddubs+madd dot.
struct Maddubs {
  using reg = __m256i;
  static constexpr int kBytes = 32;
  static reg zero() { return _mm256_setzero_si256(); }
  static reg load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
  static void store(void* p, reg v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
  static reg add(reg a, reg b) { return _mm256_add_epi32(a, b); }
  static reg bcast32(std::int32_t x) { return _mm256_set1_epi32(x); }
  static reg dot(reg acc, reg u, reg w) { return dot_u8i8_madd(acc, u, w); }
  // Two inputs into the same lanes with one widening (the two-chunk techniques).
  static reg dot2(reg acc, reg u, reg w, reg u2, reg w2) { return dot_u8i8_x2_madd(acc, u, w, u2, w2); }
  // Four inputs into the same lanes with one widening (the four-chunk techniques).
  static reg dot4(reg acc, reg u0, reg w0, reg u1, reg w1, reg u2, reg w2, reg u3, reg w3) {
    return dot_u8i8_x4_madd(acc, u0, w0, u1, w1, u2, w2, u3, w3);
  }
  static std::int32_t hsum(reg a) { return x256::hsum(a); }
  static __m128i haddx4(reg a0, reg a1, reg a2, reg a3) { return x256::haddx4(a0, a1, a2, a3); }
  // Bit i set when 4-byte chunk i of p[0 .. kBytes) is non-zero.
  static unsigned nonzero_chunks(const std::uint8_t* p) { return nonzero_chunks8(p); }
  // The same for 32 chunks (128 bytes) with one movemask: the four compare results are
  // packed to bytes (packs works per 128-bit lane, leaving the 4-chunk groups in dword
  // order 0,2,4,6,1,3,5,7 of the wanted 0..7), a dword permute restores it.
  static std::uint32_t nonzero_chunks32(const std::uint8_t* p) {
    const __m256i z = _mm256_setzero_si256();
    auto cmp = [&](int i) {
      return _mm256_cmpgt_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p) + i), z);
    };
    const __m256i bytes = _mm256_packs_epi16(_mm256_packs_epi32(cmp(0), cmp(1)), _mm256_packs_epi32(cmp(2), cmp(3)));
    const __m256i ordered = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    return std::uint32_t(_mm256_movemask_epi8(ordered));
  }
  // Bit i set when byte i is non-zero (signed compare: 128..255 read as negative).
  static std::uint64_t nonzero_bytes(const std::uint8_t* p) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    return std::uint32_t(_mm256_movemask_epi8(_mm256_cmpgt_epi8(x, _mm256_setzero_si256())));
  }
  // int16 lanes: interleave two weight rows per 128-bit lane, multiply-add pairs.
  static reg unpacklo16(reg a, reg b) { return _mm256_unpacklo_epi16(a, b); }
  static reg unpackhi16(reg a, reg b) { return _mm256_unpackhi_epi16(a, b); }
  static reg unpacklo8(reg a, reg b) { return _mm256_unpacklo_epi8(a, b); }
  static reg unpackhi8(reg a, reg b) { return _mm256_unpackhi_epi8(a, b); }
  static reg madd16(reg a, reg b) { return _mm256_madd_epi16(a, b); }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::x256
