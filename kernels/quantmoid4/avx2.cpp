// quantmoid4 with AVX2 flags.
#include "kernels/common/isa.h"
#include "kernels/quantmoid4/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::quantmoid4 {

// Per-lane packs of both m and the sign; one vpermq (act::X256::fix_packs16) at the end.
NNUELAB_QUANTMOID4_DEFINE(subs_mulhi_sign_permute, act::X256, Sign, false)
NNUELAB_QUANTMOID4_DEFINE(subs_mulhi_blendv_permute_bits, act::X256, Blend, true)
NNUELAB_QUANTMOID4_DEFINE(subs_mulhi_blendv_permute, act::X256, Blend, false)

}  // namespace nnuelab::NNUELAB_ISA_NS::quantmoid4
