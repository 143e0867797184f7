// crelu32 with AVX2 flags.
#include "kernels/common/isa.h"
#include "kernels/crelu32/crelu32.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32 {
using namespace ::nnuelab::crelu32;

const char* packs_shift_permute_supports(const Shape& s) {
  if (s.n % 32) return "needs n % 32 == 0 (four int32x8 vectors per output vector)";
  // packs_epi32 saturates to int16 before the shift. For x > 32767 the result is
  // 32767 >> s, which still clamps to 127 only while 32767 >> s >= 127, i.e. s <= 8.
  if (s.shift > 8) return "needs shift <= 8 (it saturates to int16 before shifting)";
  return nullptr;
}

void packs_shift_permute_run(const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t*) {
  const __m256i zero = _mm256_setzero_si256();
  // After two per-lane packs the dwords hold inputs 0-3, 8-11, 16-19, 24-27 (lane 0) and
  // 4-7, 12-15, 20-23, 28-31 (lane 1); this dword permutation restores 0..31.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const __m128i shift = _mm_cvtsi32_si128(s.shift);
  const auto* in = reinterpret_cast<const __m256i*>(input);
  auto* out = reinterpret_cast<__m256i*>(output);
  const int vectors = s.n / 32;
  for (int k = 0; k < vectors; ++k) {
    const __m256i x01 = _mm256_packs_epi32(_mm256_loadu_si256(in + 4 * k), _mm256_loadu_si256(in + 4 * k + 1));
    const __m256i x23 = _mm256_packs_epi32(_mm256_loadu_si256(in + 4 * k + 2), _mm256_loadu_si256(in + 4 * k + 3));
    const __m256i y01 = _mm256_sra_epi16(x01, shift);
    const __m256i y23 = _mm256_sra_epi16(x23, shift);
    const __m256i bytes = _mm256_max_epi8(_mm256_packs_epi16(y01, y23), zero);
    _mm256_storeu_si256(out + k, _mm256_permutevar8x32_epi32(bytes, order));
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32
