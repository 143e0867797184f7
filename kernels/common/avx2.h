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

// Horizontal sums of four int32x8 accumulators -> {sum(a0), sum(a1), sum(a2), sum(a3)}.
// hadd works within each 128-bit lane, so after two rounds lane 0 holds the low halves'
// partial sums of a0..a3 and lane 1 the high halves'; adding the two lanes finishes it.
inline __m128i haddx4(__m256i a0, __m256i a1, __m256i a2, __m256i a3) {
  const __m256i s01 = _mm256_hadd_epi32(a0, a1);
  const __m256i s23 = _mm256_hadd_epi32(a2, a3);
  const __m256i s = _mm256_hadd_epi32(s01, s23);
  return _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
}

}  // namespace nnuelab::NNUELAB_ISA_NS::x256
