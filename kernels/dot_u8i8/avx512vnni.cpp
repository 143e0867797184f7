// dot_u8i8 with AVX512-VNNI flags: vpdpbusd / vpdpbusds, one instruction per 4-byte group
// dot, EVEX-encoded at every width (the ymm and xmm forms need AVX512VL, in the flags).
#include "kernels/dot_u8i8/groups.h"
#include "kernels/dot_u8i8/peak_chains.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {
namespace {

inline __m512i dpbusd(__m512i acc, __m512i u, __m512i w) { return _mm512_dpbusd_epi32(acc, u, w); }
inline __m256i dpbusd(__m256i acc, __m256i u, __m256i w) { return _mm256_dpbusd_epi32(acc, u, w); }
inline __m128i dpbusd(__m128i acc, __m128i u, __m128i w) { return _mm_dpbusd_epi32(acc, u, w); }
inline __m512i dpbusds(__m512i acc, __m512i u, __m512i w) { return _mm512_dpbusds_epi32(acc, u, w); }
inline __m256i dpbusds(__m256i acc, __m256i u, __m256i w) { return _mm256_dpbusds_epi32(acc, u, w); }
inline __m128i dpbusds(__m128i acc, __m128i u, __m128i w) { return _mm_dpbusds_epi32(acc, u, w); }

#include "kernels/dot_u8i8/vnni_steps.inc"  // dpbusd_step, dpbusds_step, dpbusd_peak12

}  // namespace

NNUELAB_DOT_U8I8_DEFINE(dpbusd_zmm, kDpbusd, dpbusd_step, __m512i, __m256i, __m128i)
NNUELAB_DOT_U8I8_DEFINE(dpbusd_ymm, kDpbusd, dpbusd_step, __m256i, __m128i)
NNUELAB_DOT_U8I8_DEFINE(dpbusds_zmm, kDpbusds, dpbusds_step, __m512i, __m256i, __m128i)
NNUELAB_DOT_U8I8_PEAK(dpbusd, 12)

std::int64_t peak_dpbusd_chains12(std::int64_t rounds) {
  return dpbusd_peak12(rounds, _mm512_set1_epi8(3), _mm512_set1_epi8(-5));
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
