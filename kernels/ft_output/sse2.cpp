// ft_output with sse2 flags (pairwise.h's V128: 16 outputs per step).
#include "kernels/ft_output/steps.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using V = pairwise::V128;

NNUELAB_FT_STEP(clamp127_mullo_packus, kClamp127, kClamp127Mul7, true, false)
NNUELAB_FT_STEP(clamp127_mullo_packus_bits, kClamp127, kClamp127Mul7, true, true)
NNUELAB_FT_STEP(clamp255_mulhi_packus, kClamp255, kClamp255Mul9, true, false)
NNUELAB_FT_STEP(clamp255_mulhi_packus_bits, kClamp255, kClamp255Mul9, true, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output

#undef NNUELAB_FT_STEP
