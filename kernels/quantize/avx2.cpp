// quantize with AVX2 flags.
#include <algorithm>
#include <cmath>

#include "kernels/common/isa.h"
#include "kernels/quantize/quantize.h"

namespace nnuelab::NNUELAB_ISA_NS::quantize {
using namespace ::nnuelab::quantize;

namespace {

struct Lanes {
  __m256 scale, lo, hi;
  explicit Lanes(const Params& p)
      : scale(_mm256_set1_ps(p.scale)), lo(_mm256_set1_ps(-float(p.levels))), hi(_mm256_set1_ps(float(p.levels))) {}
  // Clamp, then round with an explicit mode: ties to even whatever MXCSR holds. The value is
  // integral and within -L..L, so cvtps_epi32 converts it exactly.
  __m256i q(const float* x) const {
    const __m256 y = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_loadu_ps(x), scale), lo), hi);
    return _mm256_cvtps_epi32(_mm256_round_ps(y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
};

template <class T>
void tail(const float* x, std::size_t i, std::size_t n, const Params& p, T* out) {
  const float L = float(p.levels);
  for (; i < n; ++i) out[i] = T(std::nearbyint(std::clamp(x[i] * p.scale, -L, L)));
}

}  // namespace

void round_packs_run_i16(const float* x, std::size_t n, const Params& p, std::int16_t* out) {
  const Lanes l(p);
  // The loop runs to a bound fixed before it (not `i + 16 <= n`), so GCC need not keep a
  // copy of i for the tail: one instruction fewer per 16 outputs (the instruction gate).
  const std::size_t whole = n - n % 16;
  std::size_t i = 0;
  for (; i < whole; i += 16) {
    // packs_epi32 packs per 128-bit lane: qwords a.lo b.lo a.hi b.hi; 0xD8 puts them in order.
    const __m256i v = _mm256_packs_epi32(l.q(x + i), l.q(x + i + 8));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_permute4x64_epi64(v, 0xD8));
  }
  tail(x, i, n, p, out);
}

void round_packs_run_i8(const float* x, std::size_t n, const Params& p, std::int8_t* out) {
  const Lanes l(p);
  // After two levels of per-lane packs the dwords hold groups r0lo r1lo r2lo r3lo | r0hi
  // r1hi r2hi r3hi (4 outputs each); this permutation restores 0..31.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const std::size_t whole = n - n % 32;  // as in the int16 form
  std::size_t i = 0;
  for (; i < whole; i += 32) {
    const __m256i a = _mm256_packs_epi32(l.q(x + i), l.q(x + i + 8));
    const __m256i b = _mm256_packs_epi32(l.q(x + i + 16), l.q(x + i + 24));
    const __m256i v = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(a, b), order);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), v);
  }
  tail(x, i, n, p, out);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::quantize
