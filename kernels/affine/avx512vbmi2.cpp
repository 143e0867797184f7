// affine with AVX512-VBMI2 (+VNNI) flags: blocked sparse input whose chunk list comes
// from vpcompressw (32 u16 indices per instruction), one vpdpbusd per dot.
#include "kernels/common/avx512.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x512::Vnni;
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress16_acc1, SparseBlocked4<V, nnz::Compress16, 1>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress16_acc2, SparseBlocked4<V, nnz::Compress16, 2>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress16_acc3, SparseBlocked4<V, nnz::Compress16, 3>)
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
