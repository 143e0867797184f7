// affine with AVX512-VNNI flags: the shared techniques on 16 int32 lanes, one vpdpbusd per dot.
#include "kernels/common/avx512.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x512::Vnni;
NNUELAB_AFFINE_X86_TECHNIQUES
NNUELAB_AFFINE_DEFINE(sparse_bso_lut, SparseBso<V, nnz::Lut>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress_acc1, SparseBlocked4<V, nnz::Compress32, 1>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress_acc2, SparseBlocked4<V, nnz::Compress32, 2>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress_acc3, SparseBlocked4<V, nnz::Compress32, 3>)
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
