// affine with SSSE3 flags: the shared techniques on 4 int32 lanes with the maddubs+madd dot.
#include "kernels/common/sse.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x128::Maddubs;
NNUELAB_AFFINE_X86_TECHNIQUES
NNUELAB_AFFINE_X2_TECHNIQUES
NNUELAB_AFFINE_DEFINE(sparse_bso_lut, SparseBso<V, nnz::Lut>)
NNUELAB_AFFINE_DEFINE(sparse_lsb_i16, SparseLsbI16<V>)
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
