// ft_output with avx512bw flags (pairwise.h's V512: 64 outputs per step).
#include "kernels/common/isa.h"
#include "kernels/common/pairwise.h"
#include "kernels/ft_output/ft_output.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using namespace ::nnuelab::ft_output;
using pairwise::Product;

static const char* step_supports(const Shape& s, Form form) {
  if (s.form != form)
    return form == Form::kClamp127 ? "computes form clamp127 only" : "computes form clamp255 only";
  return (s.n / 2) % 64 ? "needs n % 128 == 0 (two 64-byte int16 registers from each half per step)" : nullptr;
}

// One variant: the form it computes, the product (pairwise.h), whether the packus lane
// interleave is undone at run time, whether it writes the nnz bitset.
#define NNUELAB_FT_STEP(tech, form, prod, unlace, bits)                                       \
  const char* tech##_supports(const Shape& s) { return step_supports(s, Form::form); }      \
  void tech##_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* b) { \
    pairwise::words_pairwise<pairwise::V512, Product::prod, unlace, bits>(input, s.n, output, b); \
  }

NNUELAB_FT_STEP(clamp127_mullo_packus_permute, kClamp127, kClamp127Mul7, true, false)
NNUELAB_FT_STEP(clamp127_mullo_packus_permute_bits, kClamp127, kClamp127Mul7, true, true)
NNUELAB_FT_STEP(clamp255_mulhi_packus_permute, kClamp255, kClamp255Mul9, true, false)
NNUELAB_FT_STEP(clamp255_mulhi_packus_permute_bits, kClamp255, kClamp255Mul9, true, true)
// No fix-up permute: the bytes stay in packus per-lane order, declared in ft_output.inc.
NNUELAB_FT_STEP(clamp255_mulhi_packus_interleaved, kClamp255, kClamp255Mul9, false, false)
NNUELAB_FT_STEP(clamp255_mulhi_packus_interleaved_bits, kClamp255, kClamp255Mul9, false, true)

#undef NNUELAB_FT_STEP

}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output
