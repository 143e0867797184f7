// affine on armv8 NEON without a dot instruction: the NEON techniques with the widening
// vmull_s8 + vpadalq_s16 dot (exact on the 0..127 input domain, x read as int8).
#include "kernels/affine/neon_techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using D = Smull;
NNUELAB_AFFINE_NEON_TECHNIQUES
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
