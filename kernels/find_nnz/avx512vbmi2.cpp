// find_nnz with AVX-512 VBMI2 flags, also built against SIMDe as avx512vbmi2-emu:
// vpcompressw packs the u16 indices of the set mask bits, 32 at a time.
#include "kernels/find_nnz/blocks.h"

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {

namespace {

alignas(64) constexpr std::uint16_t kLanes16[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                                    11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                                    22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

// Two vectors of chunks make one 32-bit mask: one vpcompressw.
constexpr auto test_chunks32 = [](const std::uint8_t* in, int e) {
  return test_chunks512(in, e) | test_chunks512(in, e + 16) << 16;
};

// Per 32 mask bits: the indices first..first+31 as u16 lanes, compressed either in a
// register and stored whole (up to 32 entries past the count; merge-masked for the reason
// given in avx512bw.cpp), or straight to memory (exactly the count). The lanes are first | 0..31, not an add: first is a multiple of 32,
// so no carry is lost, and no lane arithmetic can overflow (SIMDe's portable add_epi16 is a
// signed vector add, which UBSan rejects once indices pass 32767).
template <bool kToMemory>
struct CompresswAppender {
  std::uint16_t* out;
  int count = 0;
  int first = 0;
  NNUELAB_FIND_NNZ_INLINE void operator()(std::uint64_t m, int len) {
    const __m512i lanes = _mm512_load_si512(kLanes16);
    for (int k = 0; k < len; k += 32, first += 32) {
      const __m512i index = _mm512_or_si512(lanes, _mm512_set1_epi16(short(first)));
      const __mmask32 m32 = __mmask32(m >> k);
      if constexpr (kToMemory)
        _mm512_mask_compressstoreu_epi16(out + count, m32, index);
      else
        _mm512_storeu_si512(out + count, _mm512_mask_compress_epi16(index, m32, index));
      count += __builtin_popcount(unsigned(m32));
    }
  }
};

template <Form F, bool kToMemory>
NNUELAB_FIND_NNZ_INLINE int compressw(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  CompresswAppender<kToMemory> append{out};
  if constexpr (F == Form::kBytes)
    for_each_group<F, Test::kUnsigned, 64>(in, n_elements, test_bytes512, append);
  else
    for_each_group<F, Test::kUnsigned, 32>(in, n_elements, test_chunks32, append);
  return append.count;
}

}  // namespace

const char* compressw_supports(const Shape&) { return nullptr; }

int compressw_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? compressw<Form::kBytes, false>(in, elements(s), out)
                                : compressw<Form::kChunks, false>(in, elements(s), out);
}

const char* compressstorew_supports(const Shape&) { return nullptr; }

int compressstorew_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? compressw<Form::kBytes, true>(in, elements(s), out)
                                : compressw<Form::kChunks, true>(in, elements(s), out);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
