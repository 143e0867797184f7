// find_nnz with SSE4.1 flags: the lookup-table technique as a pre-POPCNT CPU runs it (the
// sse41 build has no -mpopcnt), with the count stored in the table row.
#include "kernels/find_nnz/lut.h"

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {

namespace {

// cmpeq with zero, then invert the mask: exact for every byte value (Test::kUnsigned).
constexpr auto mask16_bytes = [](const std::uint8_t* in, int e) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + e));
  return ~unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()))) & 0xFFFF;
};

constexpr auto mask4_chunks = [](const std::uint8_t* in, int e) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 4 * e));
  return ~unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, _mm_setzero_si128())))) & 0xF;
};

// Two vectors of chunks make one 8-bit mask: one table row.
constexpr auto mask8_chunks = [](const std::uint8_t* in, int e) {
  return mask4_chunks(in, e) | mask4_chunks(in, e + 4) << 4;
};

template <Form F>
NNUELAB_FIND_NNZ_INLINE int lut8_count(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  // Chunks: 32 a step (eight registers, four table rows), as on AVX2.
  if constexpr (F == Form::kChunks) {
    return lut_chunks_by32<Lut::k8Counted>(in, n_elements, out, mask8_chunks);
  } else {
    LutAppender<Lut::k8Counted> append{out};
    for_each_group<F, Test::kUnsigned, 16>(in, n_elements, mask16_bytes, append);
    return append.count();
  }
}

}  // namespace

const char* lut8_count_supports(const Shape&) { return nullptr; }

int lut8_count_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? lut8_count<Form::kBytes>(in, elements(s), out)
                                : lut8_count<Form::kChunks>(in, elements(s), out);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
