// affine with FEAT_I8MM: the NEON techniques with vusdotq_s32 (uint8 x int8, the vpdpbusd
// analogue: exact on every input byte 0..255).
#include "kernels/affine/neon_techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using D = Usdot;
NNUELAB_AFFINE_NEON_TECHNIQUES
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
