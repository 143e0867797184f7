// dot_u8i8 with AVX-512BW flags: 512-bit vpmaddubsw, the dot of AVX-512 CPUs without VNNI
// (Skylake-X). Tails step down through ymm and xmm before the scalar remainder.
#include "kernels/dot_u8i8/maddubs.h"
#include "kernels/dot_u8i8/peak_chains.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {

NNUELAB_DOT_U8I8_KERNEL(maddubs)
NNUELAB_DOT_U8I8_KERNEL(maddubs_x2)
NNUELAB_DOT_U8I8_PEAK(maddubs_madd, 8)

const char* maddubs_supports(const Shape&) { return nullptr; }

void maddubs_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                 const std::uint8_t* u2, const std::int8_t* w2) {
  const int n = s.groups;  // a local: the stores to acc could alias s.groups
  const Groups p{acc, u, w, u2, w2};
  int g = cover<__m512i>(p, 0, n, maddubs_step<__m512i>);
  g = cover<__m256i>(p, g, n, maddubs_step<__m256i>);
  g = cover<__m128i>(p, g, n, maddubs_step<__m128i>);
  scalar_tail<Semantics::kMaddubs>(p, g, n);
}

const char* maddubs_x2_supports(const Shape&) { return nullptr; }

void maddubs_x2_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                    const std::uint8_t* u2, const std::int8_t* w2) {
  const int n = s.groups;  // a local: the stores to acc could alias s.groups
  const Groups p{acc, u, w, u2, w2};
  int g = cover<__m512i>(p, 0, n, maddubs_x2_step<__m512i>);
  g = cover<__m256i>(p, g, n, maddubs_x2_step<__m256i>);
  g = cover<__m128i>(p, g, n, maddubs_x2_step<__m128i>);
  scalar_tail<Semantics::kMaddubsX2>(p, g, n);
}

// The accumulator chain is only the vpaddd, so 8 chains saturate the multipliers.
std::int64_t peak_maddubs_madd_chains8(std::int64_t rounds) {
  return peak_chains<8>(rounds, _mm512_set1_epi8(3), _mm512_set1_epi8(-5),
                        [](__m512i acc, __m512i u, __m512i w) { return maddubs_madd(acc, u, w); });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
