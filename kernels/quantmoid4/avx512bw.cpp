// quantmoid4 with AVX-512BW flags (and, as avx512bw-emu, against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/quantmoid4/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::quantmoid4 {

// Blend through a mask register (vpmovb2m + vpblendmb), then vpermq by index vector.
NNUELAB_QUANTMOID4_DEFINE(subs_mulhi_mask_blend_permute, act::X512, Blend, false)
NNUELAB_QUANTMOID4_DEFINE(subs_mulhi_mask_blend_permute_bits, act::X512, Blend, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::quantmoid4
