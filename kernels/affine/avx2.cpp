// affine with AVX2 (+BMI1/2, FMA, POPCNT) flags: the shared techniques on 8 int32 lanes
// with the maddubs+madd dot (exact on the 0..127 input domain).
#include "kernels/common/avx2.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x256::Maddubs;
NNUELAB_AFFINE_X86_TECHNIQUES
NNUELAB_AFFINE_X2_TECHNIQUES
NNUELAB_AFFINE_DEFINE(sparse_bso_lut, SparseBso<V, nnz::Lut>)
NNUELAB_AFFINE_DEFINE(sparse_lsb_i16, SparseLsbI16<V>)
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
