// ft_output with avx512bw flags (pairwise.h's V512: 64 outputs per step).
#include "kernels/ft_output/steps.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using V = pairwise::V512;

NNUELAB_FT_STEP(clamp127_mullo_packus_permute, kClamp127, kClamp127Mul7, true, false)
NNUELAB_FT_STEP(clamp127_mullo_packus_permute_bits, kClamp127, kClamp127Mul7, true, true)
NNUELAB_FT_STEP(clamp255_mulhi_packus_permute, kClamp255, kClamp255Mul9, true, false)
NNUELAB_FT_STEP(clamp255_mulhi_packus_permute_bits, kClamp255, kClamp255Mul9, true, true)
// No fix-up permute: the bytes stay in packus per-lane order, declared in ft_output.inc.
NNUELAB_FT_STEP(clamp255_mulhi_packus_interleaved, kClamp255, kClamp255Mul9, false, false)
NNUELAB_FT_STEP(clamp255_mulhi_packus_interleaved_bits, kClamp255, kClamp255Mul9, false, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output

#undef NNUELAB_FT_STEP
