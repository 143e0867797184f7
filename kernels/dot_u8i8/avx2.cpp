// dot_u8i8 with AVX2 flags: 256-bit vpmaddubsw, the common fallback before VNNI.
#include "kernels/dot_u8i8/maddubs.h"
#include "kernels/dot_u8i8/peak_chains.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {

NNUELAB_DOT_U8I8_DEFINE(maddubs, kMaddubs, maddubs_step, __m256i, __m128i)
NNUELAB_DOT_U8I8_DEFINE(maddubs_x2, kMaddubsX2, maddubs_x2_step, __m256i, __m128i)
NNUELAB_DOT_U8I8_PEAK(maddubs_madd, 8)

// The accumulator chain is only the vpaddd, so 8 chains saturate the multipliers.
std::int64_t peak_maddubs_madd_chains8(std::int64_t rounds) {
  return peak_chains<8>(rounds, _mm256_set1_epi8(3), _mm256_set1_epi8(-5),
                        [](__m256i acc, __m256i u, __m256i w) { return maddubs_madd(acc, u, w); });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
