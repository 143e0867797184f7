// octav_step with AVX2 flags.
#include <algorithm>
#include <cmath>

#include "kernels/common/isa.h"
#include "kernels/octav_step/octav_step.h"

namespace nnuelab::NNUELAB_ISA_NS::octav_step {
using namespace ::nnuelab::octav_step;

namespace {

inline double hsum_ps(__m256 v) {
  __m128 x = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  x = _mm_add_ps(x, _mm_movehl_ps(x, x));
  x = _mm_add_ss(x, _mm_movehdup_ps(x));
  return _mm_cvtss_f32(x);
}

inline std::int64_t hsum_epi32(__m256i v) {
  __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
  x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
  return _mm_cvtsi128_si32(x);
}

}  // namespace

void cmp_mask4_run(const float* x, std::size_t n, float s, Sums* out) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 vs = _mm256_set1_ps(s);
  const __m256 zero = _mm256_setzero_ps();
  double sum = 0;
  std::int64_t small = 0, above = 0;
  for (std::size_t b = 0; b < n; b += kBlock) {
    const std::size_t end = std::min(n, b + kBlock);
    // Four independent float accumulators hide the 3-cycle add latency; counts are int32
    // lanes that subtract the cmp masks (all-ones = -1): at most 1024 / 8 per lane and block.
    __m256 acc[4] = {zero, zero, zero, zero};
    __m256i cnt_small = _mm256_setzero_si256(), cnt_above = _mm256_setzero_si256();
    auto step = [&](__m256 v, int k) {
      const __m256 a = _mm256_andnot_ps(sign, v);
      const __m256 hi = _mm256_cmp_ps(a, vs, _CMP_GT_OQ);
      // 0 < a <= s: a > 0 and not above (a is never NaN: the checked entry refuses NaN).
      const __m256 lo = _mm256_andnot_ps(hi, _mm256_cmp_ps(a, zero, _CMP_GT_OQ));
      acc[k] = _mm256_add_ps(acc[k], _mm256_and_ps(hi, a));
      cnt_above = _mm256_sub_epi32(cnt_above, _mm256_castps_si256(hi));
      cnt_small = _mm256_sub_epi32(cnt_small, _mm256_castps_si256(lo));
    };
    // Bounds fixed before the loops (not `i + 32 <= end`): GCC then keeps no copy of i
    // for the loops after it, one instruction fewer per step (the instruction gate).
    const std::size_t end32 = end - (end - b) % 32, end8 = end - (end - b) % 8;
    std::size_t i = b;
    for (; i < end32; i += 32) {
      step(_mm256_loadu_ps(x + i), 0);
      step(_mm256_loadu_ps(x + i + 8), 1);
      step(_mm256_loadu_ps(x + i + 16), 2);
      step(_mm256_loadu_ps(x + i + 24), 3);
    }
    for (; i < end8; i += 8) step(_mm256_loadu_ps(x + i), 0);
    // The tail (fewer than 8 elements, last block only) in scalar float, into the block sum.
    float tail = 0;
    for (; i < end; ++i) {
      const float a = std::fabs(x[i]);
      if (a > s) { tail += a; ++above; }
      else if (a > 0.0f) ++small;
    }
    const __m256 acc01 = _mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3]));
    sum += hsum_ps(acc01) + double(tail);
    small += hsum_epi32(cnt_small);
    above += hsum_epi32(cnt_above);
  }
  *out = Sums{sum, small, above};
}

}  // namespace nnuelab::NNUELAB_ISA_NS::octav_step
