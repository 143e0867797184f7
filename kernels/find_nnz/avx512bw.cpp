// find_nnz with AVX-512 (F/BW/VL/DQ) flags, also built against SIMDe as avx512bw-emu:
// vpcompressd packs the int32 indices of the set mask bits, 16 at a time.
#include "kernels/find_nnz/blocks.h"

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {

namespace {

alignas(64) constexpr std::int32_t kLanes32[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

// Per 16 mask bits: compress the indices first..first+15 to the bottom (int32 lanes),
// truncate them to u16 (vpmovdw) and store all 16; advance by the popcount. Writes at most
// 16 entries past the count. The index lanes run on from mask to mask.
// Merge-masked, with the index vector itself as the merge source: the zero-masked form
// (maskz) carries a false dependency on its destination register on AMD Zen 4/5, which
// chains every compress to the previous one (2-4x slower on the Zen 5 measured here). The
// lanes past the count then hold leftover indices instead of zeros: nobody reads them.
struct CompressdAppender {
  std::uint16_t* out;
  int count = 0;
  __m512i index = _mm512_load_si512(kLanes32);
  NNUELAB_FIND_NNZ_INLINE void operator()(std::uint64_t m, int len) {
    for (int k = 0; k < len; k += 16) {
      const __mmask16 m16 = __mmask16(m >> k);
      const __m512i packed = _mm512_mask_compress_epi32(index, m16, index);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + count), _mm512_cvtepi32_epi16(packed));
      count += __builtin_popcount(unsigned(m16));
      index = _mm512_add_epi32(index, _mm512_set1_epi32(16));
    }
  }
};

template <Form F>
NNUELAB_FIND_NNZ_INLINE int compressd(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  CompressdAppender append{out};
  if constexpr (F == Form::kBytes)
    for_each_group<F, Test::kUnsigned, 64>(in, n_elements, test_bytes512, append);
  else
    for_each_group<F, Test::kUnsigned, 16>(in, n_elements, test_chunks512, append);
  return append.count;
}

}  // namespace

const char* compressd_supports(const Shape&) { return nullptr; }

int compressd_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? compressd<Form::kBytes>(in, elements(s), out)
                                : compressd<Form::kChunks>(in, elements(s), out);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
