// quantmoid4 with SSE4.1 flags (pblendvb).
#include "kernels/common/isa.h"
#include "kernels/quantmoid4/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::quantmoid4 {

NNUELAB_QUANTMOID4_DEFINE(subs_mulhi_blendv, act::X128, Blend, false)

}  // namespace nnuelab::NNUELAB_ISA_NS::quantmoid4
