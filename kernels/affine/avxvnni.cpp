// affine with AVX-VNNI flags (VEX vpdpbusd): the shared techniques on 8 int32 lanes, exact dot.
#include "kernels/common/avxvnni.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x256::Vnni;
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
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
