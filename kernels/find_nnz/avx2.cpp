// find_nnz with AVX2 flags (BMI1 and POPCNT included): the lsb loop, the lookup-table forms
// (three of find_nnz's own, and the affine kernels' zero-mask list) and the two-pass
// bitset, on 256-bit compares.
#include "kernels/find_nnz/lut.h"

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {

namespace {

// ---- masks (one 256-bit vector each; four for ne_chunks32) --------------------------------
// Signed (vpcmpgt against zero): 32 bytes or 8 chunks.
constexpr auto gt_bytes = [](const std::uint8_t* in, int e) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + e));
  return unsigned(_mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_setzero_si256())));
};
constexpr auto gt_chunks = [](const std::uint8_t* in, int e) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 4 * e));
  return unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, _mm256_setzero_si256()))));
};
// Unsigned (vpcmpeq with zero, mask inverted): every byte value.
constexpr auto ne_bytes = [](const std::uint8_t* in, int e) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + e));
  return ~unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())));
};
constexpr auto ne_chunks = [](const std::uint8_t* in, int e) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 4 * e));
  return ~unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256())))) & 0xFF;
};
// 32 chunks (128 bytes) per movemask: the four compares are narrowed to one byte per chunk
// with two saturating packs (0/-1 survive them). packs works within 128-bit lanes, leaving
// the dwords of chunk bytes in the order 0-3, 8-11, 16-19, 24-27, 4-7, 12-15, 20-23, 28-31;
// vpermd with 0,4,1,5,2,6,3,7 restores chunk order.
constexpr auto ne_chunks32 = [](const std::uint8_t* in, int e) {
  const __m256i zero = _mm256_setzero_si256();
  const auto* p = reinterpret_cast<const __m256i*>(in + 4 * e);
  const __m256i z0 = _mm256_cmpeq_epi32(_mm256_loadu_si256(p + 0), zero);
  const __m256i z1 = _mm256_cmpeq_epi32(_mm256_loadu_si256(p + 1), zero);
  const __m256i z2 = _mm256_cmpeq_epi32(_mm256_loadu_si256(p + 2), zero);
  const __m256i z3 = _mm256_cmpeq_epi32(_mm256_loadu_si256(p + 3), zero);
  const __m256i packed = _mm256_packs_epi16(_mm256_packs_epi32(z0, z1), _mm256_packs_epi32(z2, z3));
  const __m256i ordered = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  return ~unsigned(_mm256_movemask_epi8(ordered));
};

// ---- techniques -----------------------------------------------------------------------------
template <Form F>
NNUELAB_FIND_NNZ_INLINE int lsb(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  int count = 0;
  auto extract = [&](std::uint64_t m, int first, int) { count += nnz::emit_lsb(m, first, out + count); };
  if constexpr (F == Form::kBytes)
    for_each_block<F, Test::kSigned, 32>(in, n_elements, gt_bytes, extract);
  else
    for_each_block<F, Test::kSigned, 8>(in, n_elements, gt_chunks, extract);
  return count;
}

template <Form F, Lut L>
NNUELAB_FIND_NNZ_INLINE int lut(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  if constexpr (F == Form::kChunks) {
    return lut_chunks_by32<L>(in, n_elements, out, ne_chunks);  // 4 registers a step
  } else {
    LutAppender<L> append{out};
    for_each_group<F, Test::kUnsigned, 32>(in, n_elements, ne_bytes, append);
    return append.count();
  }
}

template <Lut L>
NNUELAB_FIND_NNZ_INLINE int lut_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? lut<Form::kBytes, L>(in, elements(s), out) : lut<Form::kChunks, L>(in, elements(s), out);
}

// The affine kernels' own 256-bit list (nnz::Lut::zero_rows256, kernels/common/nnz_x86.h),
// and its byte form (zero_bytes256, the list of the byte-sparse affine kernels), so this op
// times what those kernels run: a vpcmpeq with zero takes its load as an operand, the zero
// mask (bit set for a zero element) indexes kZeroLut8, whose rows list the clear bits (no
// inversion), widened by vpmovzxbw, and the count is the table's count byte (no popcnt).
// Whole groups (8 chunks, 32 bytes) go through those functions, the last few elements one
// at a time.
template <Form F>
NNUELAB_FIND_NNZ_INLINE int lut8_zero(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  const int whole = F == Form::kChunks ? n_elements & ~7 : n_elements & ~31;
  std::uint16_t* o = out;
  o += F == Form::kChunks ? nnz::Lut::zero_rows256(in, whole, out) : nnz::Lut::zero_bytes256(in, whole, out);
  for (int e = whole; e < n_elements; ++e)  // the tail: under 8 chunks or 32 bytes
    if (nonzero<F, Test::kUnsigned>(in, e)) *o++ = std::uint16_t(e);
  return int(o - out);
}

}  // namespace

const char* lsb_supports(const Shape&) { return nullptr; }

int lsb_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? lsb<Form::kBytes>(in, elements(s), out) : lsb<Form::kChunks>(in, elements(s), out);
}

const char* lut16_popcnt_supports(const Shape&) { return nullptr; }
int lut16_popcnt_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) { return lut_run<Lut::k16Popcnt>(s, in, out); }

const char* lut8_popcnt_supports(const Shape&) { return nullptr; }
int lut8_popcnt_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) { return lut_run<Lut::k8Popcnt>(s, in, out); }

const char* lut8_count_supports(const Shape&) { return nullptr; }
int lut8_count_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) { return lut_run<Lut::k8Counted>(s, in, out); }

const char* lut8_zero_supports(const Shape&) { return nullptr; }
int lut8_zero_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? lut8_zero<Form::kBytes>(in, elements(s), out)
                                : lut8_zero<Form::kChunks>(in, elements(s), out);
}

// Pass 1 writes the whole bitset (one bit per chunk, 64 per word), as a producer such as a
// fused activation could while it stores its output; pass 2 reads it back with tzcnt/blsr.
const char* bitset_lsb_supports(const Shape& s) {
  return s.form == Form::kChunks ? nullptr : "chunks form only: the bitset holds one bit per 4-byte chunk";
}

int bitset_lsb_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  std::uint64_t bits[65536 / 4 / 64];  // the op's largest input: 16384 chunks
  const int chunks = elements(s);
  for_each_block<Form::kChunks, Test::kUnsigned, 32>(in, chunks, ne_chunks32,
                                                     [&](std::uint64_t m, int first, int) { bits[first / 64] = m; });
  int count = 0;
  for (int w = 0; w * 64 < chunks; ++w) count += nnz::emit_lsb(bits[w], w * 64, out + count);
  return count;
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
