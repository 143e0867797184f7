// crelu16 with AVX2 flags.
#include "kernels/common/isa.h"
#include "kernels/crelu16/crelu16.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {
using namespace ::nnuelab::crelu16;

const char* packs_max_permute_supports(const Shape& s) {
  return s.n % 32 ? "needs n % 32 == 0 (two int16x16 vectors per output vector)" : nullptr;
}

void packs_max_permute_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  const __m256i zero = _mm256_setzero_si256();
  const auto* in = reinterpret_cast<const __m256i*>(input);
  auto* out = reinterpret_cast<__m256i*>(output);
  const int vectors = s.n / 32;
  for (int k = 0; k < vectors; ++k) {
    const __m256i a = _mm256_loadu_si256(in + 2 * k);      // x0..x15
    const __m256i b = _mm256_loadu_si256(in + 2 * k + 1);  // x16..x31
    // packs works per 128-bit lane: the result's qwords are a0-7, b16-23, a8-15, b24-31.
    // Saturation to -128..127 then max with 0 is exactly clamp(x, 0, 127).
    const __m256i packed = _mm256_max_epi8(_mm256_packs_epi16(a, b), zero);
    // Qwords 0,2,1,3 restore x0..x31 order.
    _mm256_storeu_si256(out + k, _mm256_permute4x64_epi64(packed, 0b11011000));
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
