// Table-driven extraction, 8 elements per lookup (the tables: see find_nnz.h). 128-bit
// code for SSE4.1 and AVX2 files alike (the latter get VEX encodings): a mask byte's table
// row plus the slice's base index in every u16 lane is one store of 8 indices; the count
// advances by the number of valid ones. No branch on the data: the same cost at every
// density.
#pragma once
#include "kernels/common/nnz_tables.h"
#include "kernels/common/nnz_x86.h"
#include "kernels/find_nnz/blocks.h"

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {

enum class Lut {
  k16Popcnt,  // kNnzLut rows as they are, count from popcnt
  k8Popcnt,   // kSetLut8 rows widened by pmovzxbw (half the table), count from popcnt
  k8Counted,  // kLut8Counted rows widened, count read from the row (no popcnt needed)
};

// Stores base + the positions of m8's set bits at out (all 8 slots), returns how many are valid.
template <Lut L>
NNUELAB_FIND_NNZ_INLINE int lut_slice(std::uint16_t* out, unsigned m8, __m128i base) {
  if constexpr (L == Lut::k16Popcnt) {
    nnz::store_lut_row(out, m8, base);  // the affine kernels' own table step
  } else {
    const std::uint8_t* row = L == Lut::k8Popcnt ? ::nnuelab::kSetLut8.row[m8] : kLut8Counted.entry[m8];
    const __m128i pos = _mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(row)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_add_epi16(pos, base));
  }
  if constexpr (L == Lut::k8Counted)
    return kLut8Counted.entry[m8][kLut8CountByte];
  else
    return __builtin_popcount(m8);
}

// Appends the set bits of consecutive masks, 8 bits per table lookup. The u16 base lanes
// run on from mask to mask (every mask but the last covers a multiple of 8 elements).
// The write position is a pointer advanced by each row's count (an int count cost a sign
// extension per row).
template <Lut L>
struct LutAppender {
  std::uint16_t* const out;
  std::uint16_t* at = out;
  __m128i base = _mm_setzero_si128();
  NNUELAB_FIND_NNZ_INLINE void operator()(std::uint64_t m, int len) {
    for (int k = 0; k < len; k += 8) {
      at += lut_slice<L>(at, unsigned(m >> k) & 0xFF, base);
      base = _mm_add_epi16(base, _mm_set1_epi16(8));
    }
  }
  NNUELAB_FIND_NNZ_INLINE int count() const { return int(at - out); }
};

// The chunk form, 32 chunks per step: the step's four 8-chunk masks first, then their four
// table rows (fewer loop instructions per row than one mask and one row at a time: 12-30%
// faster on AVX2, A/B 2026-11-25); the rest 8 chunks at a time, then the tail. mask8(in, e)
// gives chunks e..e+7 (one AVX2 vector, or two SSE vectors). The affine kernels' own list
// keeps one step per row: kernels/common/nnz_x86.h says why.
template <Lut L, class Mask8>
NNUELAB_FIND_NNZ_INLINE int lut_chunks_by32(const std::uint8_t* in, int n_chunks, std::uint16_t* out, Mask8 mask8) {
  LutAppender<L> append{out};
  int e = 0;
  for (; n_chunks - e >= 32; e += 32) {
    unsigned b[4];
    NNUELAB_UNROLL
    for (int k = 0; k < 4; ++k) b[k] = mask8(in, e + 8 * k);
    NNUELAB_UNROLL
    for (int k = 0; k < 4; ++k) append(b[k], 8);
  }
  for_each_group<Form::kChunks, Test::kUnsigned, 8>(in + 4 * e, n_chunks - e, mask8, append);
  return append.count();
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
