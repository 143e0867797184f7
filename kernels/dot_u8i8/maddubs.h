// ISA-side vector forms of the maddubs techniques at every width the including ISA has
// (128 bits from SSSE3, 256 from AVX2, 512 from AVX-512BW; all of them under SIMDe).
// Included by kernels/dot_u8i8/<isa>.cpp only; see groups.h for the namespace rule.
#pragma once
#include "kernels/common/sse.h"
#include "kernels/dot_u8i8/groups.h"
#if NNUELAB_EMULATED || defined(__AVX2__)
#include "kernels/common/avx2.h"
#endif
#if NNUELAB_EMULATED || defined(__AVX512BW__)
#include "kernels/common/avx512.h"
#endif

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {
namespace {

// acc + madd(maddubs(u, w), 1), the shared helpers of kernels/common: pmaddubsw's int16
// pair sums saturate (the maddubs semantics), pmaddwd with ones widens pairs exactly.
inline __m128i maddubs_madd(__m128i acc, __m128i u, __m128i w) { return x128::dot_u8i8_madd(acc, u, w); }

// The x2 trick (kernels/common: both inputs' pair sums added with paddw before one
// widening madd), exact while the int16 sum of four products fits: u, u2 <= 64
// (reference/dot_u8i8.h).
inline __m128i maddubs_x2_madd(__m128i acc, __m128i u, __m128i w, __m128i u2, __m128i w2) {
  return x128::dot_u8i8_x2_madd(acc, u, w, u2, w2);
}

#if NNUELAB_EMULATED || defined(__AVX2__)
inline __m256i maddubs_madd(__m256i acc, __m256i u, __m256i w) { return x256::dot_u8i8_madd(acc, u, w); }

inline __m256i maddubs_x2_madd(__m256i acc, __m256i u, __m256i w, __m256i u2, __m256i w2) {
  return x256::dot_u8i8_x2_madd(acc, u, w, u2, w2);
}
#endif

#if NNUELAB_EMULATED || defined(__AVX512BW__)
inline __m512i maddubs_madd(__m512i acc, __m512i u, __m512i w) { return x512::dot_u8i8_madd(acc, u, w); }

inline __m512i maddubs_x2_madd(__m512i acc, __m512i u, __m512i w, __m512i u2, __m512i w2) {
  return x512::dot_u8i8_x2_madd(acc, u, w, u2, w2);
}
#endif

// One vector of groups, both inputs: maddubs semantics.
template <class V>
void maddubs_step(const Groups& p) {
  two_inputs<V>(p, [](V acc, V u, V w) { return maddubs_madd(acc, u, w); });
}

// One vector of groups, both inputs: maddubs_x2 semantics.
template <class V>
void maddubs_x2_step(const Groups& p) {
  storeu(p.acc, maddubs_x2_madd(loadu<V>(p.acc), loadu<V>(p.u), loadu<V>(p.w), loadu<V>(p.u2), loadu<V>(p.w2)));
}

}  // namespace
}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
