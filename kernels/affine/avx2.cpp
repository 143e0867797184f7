// affine with AVX2 (+BMI1/2, FMA, POPCNT) flags: the shared techniques on 8 int32 lanes
// with the maddubs+madd dot (exact on the 0..127 input domain).
#include "kernels/common/avx2.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x256::Maddubs;
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
NNUELAB_AFFINE_DEFINE(sparse_lsb_i16, SparseLsbI16<V>)
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
