// dot_u8i8 with AVX-VNNI flags: the VEX-encoded {vex} vpdpbusd / vpdpbusds on ymm and xmm.
// A CPU feature of its own (CPUID 7.1:EAX bit 4), not part of AVX512-VNNI: Alder Lake and
// later client cores have it without any AVX-512, so this is their dot.
#include "kernels/dot_u8i8/groups.h"
#include "kernels/dot_u8i8/peak_chains.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {
namespace {

inline __m256i dpbusd(__m256i acc, __m256i u, __m256i w) { return _mm256_dpbusd_avx_epi32(acc, u, w); }
inline __m128i dpbusd(__m128i acc, __m128i u, __m128i w) { return _mm_dpbusd_avx_epi32(acc, u, w); }
inline __m256i dpbusds(__m256i acc, __m256i u, __m256i w) { return _mm256_dpbusds_avx_epi32(acc, u, w); }
inline __m128i dpbusds(__m128i acc, __m128i u, __m128i w) { return _mm_dpbusds_avx_epi32(acc, u, w); }

#include "kernels/dot_u8i8/vnni_steps.inc"  // dpbusd_step, dpbusds_step, dpbusd_peak12

}  // namespace

NNUELAB_DOT_U8I8_DEFINE(dpbusd_ymm, kDpbusd, dpbusd_step, __m256i, __m128i)
NNUELAB_DOT_U8I8_DEFINE(dpbusds_ymm, kDpbusds, dpbusds_step, __m256i, __m128i)
NNUELAB_DOT_U8I8_PEAK(dpbusd, 12)

// 12 accumulators and the two inputs fit the 16 ymm registers AVX-VNNI has without AVX-512.
std::int64_t peak_dpbusd_chains12(std::int64_t rounds) {
  return dpbusd_peak12(rounds, _mm256_set1_epi8(3), _mm256_set1_epi8(-5));
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
