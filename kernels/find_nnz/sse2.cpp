// find_nnz with SSE2 flags: the lsb loop on 128-bit vectors (no BMI1 here: bsf and m & (m - 1)).
#include "kernels/common/nnz_walk.h"
#include "kernels/find_nnz/blocks.h"

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {

namespace {

// pcmpgtb/pcmpgtd against zero are signed: see Test::kSigned.
constexpr auto mask16_bytes = [](const std::uint8_t* in, int e) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + e));
  return unsigned(_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_setzero_si128())));
};

constexpr auto mask4_chunks = [](const std::uint8_t* in, int e) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 4 * e));
  return unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(v, _mm_setzero_si128()))));
};

template <Form F>
NNUELAB_FIND_NNZ_INLINE int lsb(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  int count = 0;
  auto extract = [&](std::uint64_t m, int first, int) { count += nnz::emit_lsb(m, first, out + count); };
  if constexpr (F == Form::kBytes)
    for_each_block<F, Test::kSigned, 16>(in, n_elements, mask16_bytes, extract);
  else
    for_each_block<F, Test::kSigned, 4>(in, n_elements, mask4_chunks, extract);
  return count;
}

}  // namespace

const char* lsb_supports(const Shape&) { return nullptr; }

int lsb_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? lsb<Form::kBytes>(in, elements(s), out) : lsb<Form::kChunks>(in, elements(s), out);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
