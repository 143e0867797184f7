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

template <class V>
void dpbusd_step(const Groups& p) {
  two_inputs<V>(p, [](V acc, V u, V w) { return dpbusd(acc, u, w); });
}

template <class V>
void dpbusds_step(const Groups& p) {
  two_inputs<V>(p, [](V acc, V u, V w) { return dpbusds(acc, u, w); });
}

}  // namespace

NNUELAB_DOT_U8I8_KERNEL(dpbusd_zmm)
NNUELAB_DOT_U8I8_KERNEL(dpbusd_ymm)
NNUELAB_DOT_U8I8_KERNEL(dpbusds_zmm)
NNUELAB_DOT_U8I8_PEAK(dpbusd, 12)

const char* dpbusd_zmm_supports(const Shape&) { return nullptr; }

void dpbusd_zmm_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                    const std::uint8_t* u2, const std::int8_t* w2) {
  const int n = s.groups;  // a local: the stores to acc could alias s.groups
  const Groups p{acc, u, w, u2, w2};
  int g = cover<__m512i>(p, 0, n, dpbusd_step<__m512i>);
  g = cover<__m256i>(p, g, n, dpbusd_step<__m256i>);
  g = cover<__m128i>(p, g, n, dpbusd_step<__m128i>);
  scalar_tail<Semantics::kDpbusd>(p, g, n);
}

const char* dpbusd_ymm_supports(const Shape&) { return nullptr; }

void dpbusd_ymm_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                    const std::uint8_t* u2, const std::int8_t* w2) {
  const int n = s.groups;  // a local: the stores to acc could alias s.groups
  const Groups p{acc, u, w, u2, w2};
  int g = cover<__m256i>(p, 0, n, dpbusd_step<__m256i>);
  g = cover<__m128i>(p, g, n, dpbusd_step<__m128i>);
  scalar_tail<Semantics::kDpbusd>(p, g, n);
}

const char* dpbusds_zmm_supports(const Shape&) { return nullptr; }

void dpbusds_zmm_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                     const std::uint8_t* u2, const std::int8_t* w2) {
  const int n = s.groups;  // a local: the stores to acc could alias s.groups
  const Groups p{acc, u, w, u2, w2};
  int g = cover<__m512i>(p, 0, n, dpbusds_step<__m512i>);
  g = cover<__m256i>(p, g, n, dpbusds_step<__m256i>);
  g = cover<__m128i>(p, g, n, dpbusds_step<__m128i>);
  scalar_tail<Semantics::kDpbusds>(p, g, n);
}

// vpdpbusd reads its accumulator: 12 chains cover its latency at two per cycle.
std::int64_t peak_dpbusd_chains12(std::int64_t rounds) {
  return peak_chains<12>(rounds, _mm512_set1_epi8(3), _mm512_set1_epi8(-5),
                         [](__m512i acc, __m512i u, __m512i w) { return dpbusd(acc, u, w); });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
