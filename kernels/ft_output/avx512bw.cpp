// ft_output with avx512bw flags (pairwise.h's V512: 64 outputs per step).
#include "kernels/ft_output/steps.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using V = pairwise::V512;

NNUELAB_FT_WIDE_STEPS
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output

#undef NNUELAB_FT_STEP
#undef NNUELAB_FT_WIDE_STEPS
