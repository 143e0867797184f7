// affine with AVX512-VNNI flags: the shared techniques on 16 int32 lanes, one vpdpbusd per dot.
#include "kernels/common/avx512.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x512::Vnni;
NNUELAB_AFFINE_DEFINE(dense_rows4, DenseRows4<V>)
NNUELAB_AFFINE_DEFINE(dense_blocked4, DenseBlocked4<V>)
NNUELAB_AFFINE_DEFINE(dot1, Dot1<V>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_acc1, SparseBlocked4<V, nnz::Lsb, 1>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_acc2, SparseBlocked4<V, nnz::Lsb, 2>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_acc3, SparseBlocked4<V, nnz::Lsb, 3>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_lut_acc1, SparseBlocked4<V, nnz::Lut, 1>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_lut_acc2, SparseBlocked4<V, nnz::Lut, 2>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_lut_acc3, SparseBlocked4<V, nnz::Lut, 3>)
NNUELAB_AFFINE_DEFINE(sparse_lut_i8_tile64, SparseLutI8Tile64<V>)
NNUELAB_AFFINE_DEFINE(sparse_bso_lut, SparseBso<V, nnz::Lut>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress_acc1, SparseBlocked4<V, nnz::Compress32, 1>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress_acc2, SparseBlocked4<V, nnz::Compress32, 2>)
NNUELAB_AFFINE_DEFINE(sparse_blocked4_compress_acc3, SparseBlocked4<V, nnz::Compress32, 3>)
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
