// affine with FEAT_DotProd: the NEON techniques with vdotq_s32 (int8 x int8: exact on the
// 0..127 input domain, x read as int8).
#include "kernels/affine/neon_techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using D = Sdot;
NNUELAB_AFFINE_NEON_TECHNIQUES
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
