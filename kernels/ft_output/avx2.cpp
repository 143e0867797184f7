// ft_output with avx2 flags (pairwise.h's V256: 32 outputs per step).
#include "kernels/ft_output/steps.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using V = pairwise::V256;

NNUELAB_FT_WIDE_STEPS
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output

#undef NNUELAB_FT_STEP
#undef NNUELAB_FT_WIDE_STEPS
