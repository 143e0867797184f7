// dot_u8i8 with SSSE3 flags: 128-bit pmaddubsw, the oldest x86 form of the dot.
#include "kernels/dot_u8i8/maddubs.h"
#include "kernels/dot_u8i8/peak_chains.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {

NNUELAB_DOT_U8I8_DEFINE(maddubs, kMaddubs, maddubs_step, __m128i)
NNUELAB_DOT_U8I8_DEFINE(maddubs_x2, kMaddubsX2, maddubs_x2_step, __m128i)
NNUELAB_DOT_U8I8_PEAK(maddubs_madd, 8)

// The accumulator chain is only the paddd (maddubs and madd read u and w alone), so 8 chains
// are plenty; more would not fit 16 xmm registers with the inputs, ones and a temporary.
std::int64_t peak_maddubs_madd_chains8(std::int64_t rounds) {
  return peak_chains<8>(rounds, _mm_set1_epi8(3), _mm_set1_epi8(-5),
                        [](__m128i acc, __m128i u, __m128i w) { return maddubs_madd(acc, u, w); });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
