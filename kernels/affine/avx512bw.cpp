// affine with AVX-512BW flags: the shared techniques on 16 int32 lanes with the maddubs+madd dot.
#include "kernels/common/avx512.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x512::Maddubs;
NNUELAB_AFFINE_X86_TECHNIQUES
NNUELAB_AFFINE_X2_TECHNIQUES
NNUELAB_AFFINE_DEFINE(sparse_bso_lut, SparseBso<V, nnz::Lut>)
NNUELAB_AFFINE_DEFINE(sparse_lsb_i16, SparseLsbI16<V>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress_acc2, SparseBlocked4<V, nnz::Compress32, 2>)
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
