// The x86 ft_output variants, written once for sse2.cpp, avx2.cpp and avx512bw.cpp: each
// file names its pairwise.h vector type (`using V = pairwise::V256;`) and defines its
// registry functions with NNUELAB_FT_STEP (sse2) or the list NNUELAB_FT_WIDE_STEPS (the
// 256- and 512-bit files, whose registry lines in ft_output.inc name the same
// techniques). Everything lands in the including ISA's namespace.
#pragma once
#include "kernels/common/isa.h"
#include "kernels/common/pairwise.h"
#include "kernels/ft_output/ft_output.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using namespace ::nnuelab::ft_output;
using pairwise::Product;

// A step takes one register of int16 from each half, so n / 2 must be a whole number of
// registers.
template <class V>
const char* step_supports(const Shape& s, Form form) {
  if (s.form != form)
    return form == Form::kClamp127 ? "computes form clamp127 only" : "computes form clamp255 only";
  if ((s.n / 2) % V::kBytes == 0) return nullptr;
  return V::kBytes == 16   ? "needs n % 32 == 0 (two 16-byte int16 registers from each half per step)"
         : V::kBytes == 32 ? "needs n % 64 == 0 (two 32-byte int16 registers from each half per step)"
                           : "needs n % 128 == 0 (two 64-byte int16 registers from each half per step)";
}

}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output

// One variant: the form it computes, the product (pairwise.h), whether the packus lane
// interleave is undone at run time, whether it writes the nnz bitset. Expanded inside the
// ISA's ft_output namespace, where V is the file's vector type.
#define NNUELAB_FT_STEP(tech, form, prod, unlace, bits)                                       \
  const char* tech##_supports(const Shape& s) { return step_supports<V>(s, Form::form); }  \
  void tech##_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* b) { \
    pairwise::words_pairwise<V, Product::prod, unlace, bits>(input, s.n, output, b);        \
  }

// The variants of the ISAs whose packus interleaves 128-bit lanes (avx2, avx512bw): the
// fix-up permute forms, and the forms that leave the bytes in packus order (declared per
// ISA in ft_output.inc, where the next layer's prepare permutes its weight columns).
#define NNUELAB_FT_WIDE_STEPS                                                                  \
  NNUELAB_FT_STEP(clamp127_mullo_packus_permute, kClamp127, kClamp127Mul7, true, false)        \
  NNUELAB_FT_STEP(clamp127_mullo_packus_permute_bits, kClamp127, kClamp127Mul7, true, true)    \
  NNUELAB_FT_STEP(clamp255_mulhi_packus_permute, kClamp255, kClamp255Mul9, true, false)        \
  NNUELAB_FT_STEP(clamp255_mulhi_packus_permute_bits, kClamp255, kClamp255Mul9, true, true)    \
  NNUELAB_FT_STEP(clamp255_mulhi_packus_interleaved, kClamp255, kClamp255Mul9, false, false)   \
  NNUELAB_FT_STEP(clamp255_mulhi_packus_interleaved_bits, kClamp255, kClamp255Mul9, false, true)
