// Shared skeleton of the x86 find_nnz kernels (included by kernels/find_nnz/<isa>.cpp, so
// every definition lands in that ISA's namespace). A kernel is two small pieces:
//   mask(in, e)    one vector's (or a few vectors') mask: bit j set when element e + j is
//                  non-zero, with the variant's compare (signed or not, see Test)
//   extract        appends e + j for every set bit j of the mask, ascending
// The lsb loop walks the input in blocks of 64 elements (for_each_block: one 64-bit mask,
// fewer loop exits when sparse); tables and compress consume each group of W elements as it
// comes (for_each_group). Tails need no special kernel: the last block or group is shorter,
// and what no whole vector covers is tested one element at a time with the same compare the
// vectors use, never reading past the input.
#pragma once
#include <cstring>

#include "kernels/common/isa.h"
#include "kernels/find_nnz/find_nnz.h"

#define NNUELAB_FIND_NNZ_INLINE [[gnu::always_inline]] inline

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {
using namespace ::nnuelab::find_nnz;

// What "non-zero" means to a variant. kSigned is what cmpgt(x, 0) computes: a byte, or a
// little-endian int32 chunk, counts only when positive, so bytes >= 128 and chunks whose
// byte 3 is >= 128 are missed (exact on the NNUE domain 0..127). kUnsigned (cmpeq with zero
// then invert, vptestm) is exact on every byte value.
enum class Test { kSigned, kUnsigned };

// Elements of a shape: bytes, or 4-byte chunks.
NNUELAB_FIND_NNZ_INLINE int elements(const Shape& s) { return s.form == Form::kBytes ? s.n : s.n / 4; }

template <Form F, Test T>
NNUELAB_FIND_NNZ_INLINE bool nonzero(const std::uint8_t* in, int e) {
  if constexpr (F == Form::kBytes) {
    return T == Test::kSigned ? std::int8_t(in[e]) > 0 : in[e] != 0;
  } else {
    std::uint32_t w;  // x86 is little-endian: byte 3 is the int32's sign byte, as in cmpgt_epi32
    std::memcpy(&w, in + 4 * e, 4);
    return T == Test::kSigned ? std::int32_t(w) > 0 : w != 0;
  }
}

// Mask of elements [first, first + len), len <= 64: whole vectors of W elements, then the
// rest one element at a time. With len == 64 (every block but the last) the vector loop has
// a constant trip count and the scalar part vanishes.
template <Form F, Test T, int W, class VecMask>
NNUELAB_FIND_NNZ_INLINE std::uint64_t block_mask(const std::uint8_t* in, int first, int len, VecMask vec_mask) {
  static_assert(64 % W == 0);
  std::uint64_t m = 0;
  int j = 0;
  for (; j + W <= len; j += W) m |= std::uint64_t(vec_mask(in, first + j)) << j;
  for (; j < len; ++j) m |= std::uint64_t(nonzero<F, T>(in, first + j)) << j;
  return m;
}

// Runs extract(mask, first, len) over the input's 64-element blocks, in order.
template <Form F, Test T, int W, class VecMask, class Extract>
NNUELAB_FIND_NNZ_INLINE void for_each_block(const std::uint8_t* in, int n_elements, VecMask vec_mask, Extract extract) {
  int e = 0;
  for (; e + 64 <= n_elements; e += 64) extract(block_mask<F, T, W>(in, e, 64, vec_mask), e, 64);
  if (e < n_elements) extract(block_mask<F, T, W>(in, e, n_elements - e, vec_mask), e, n_elements - e);
}

// Runs extract(mask, len) over consecutive groups of W elements (one or a few vectors), for
// the techniques that consume a vector's mask directly (tables, compress). The extractor
// keeps its running base index, so W must be a multiple of what it takes per step (8 mask
// bits per table row, 16 or 32 per compress). The last group is shorter and tested one
// element at a time.
template <Form F, Test T, int W, class GroupMask, class Extract>
NNUELAB_FIND_NNZ_INLINE void for_each_group(const std::uint8_t* in, int n_elements, GroupMask group_mask, Extract& extract) {
  static_assert(W <= 64);
  int e = 0;
  for (; e + W <= n_elements; e += W) extract(std::uint64_t(group_mask(in, e)), W);
  if (e < n_elements) {
    std::uint64_t m = 0;
    for (int j = 0; e + j < n_elements; ++j) m |= std::uint64_t(nonzero<F, T>(in, e + j)) << j;
    extract(m, n_elements - e);
  }
}

#if defined(__AVX512BW__) || NNUELAB_EMULATED
// The AVX-512 group masks (avx512bw.cpp, avx512vbmi2.cpp): vptestm sets a mask bit for
// every non-zero lane, exact for every byte value (Test::kUnsigned). 64 bytes, or 16
// chunks, per vector.
constexpr auto test_bytes512 = [](const std::uint8_t* in, int e) {
  const __m512i v = _mm512_loadu_si512(in + e);
  return std::uint64_t(_mm512_test_epi8_mask(v, v));
};
constexpr auto test_chunks512 = [](const std::uint8_t* in, int e) {
  const __m512i v = _mm512_loadu_si512(in + 4 * e);
  return std::uint64_t(_mm512_test_epi32_mask(v, v));
};
#endif

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
