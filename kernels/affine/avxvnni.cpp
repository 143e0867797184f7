// affine with AVX-VNNI flags (VEX vpdpbusd): the shared techniques on 8 int32 lanes, exact dot.
#include "kernels/common/avxvnni.h"
#include "kernels/affine/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using V = x256::Vnni;
NNUELAB_AFFINE_X86_TECHNIQUES
NNUELAB_AFFINE_DEFINE(sparse_bso_lut, SparseBso<V, nnz::Lut>)
}  // namespace nnuelab::NNUELAB_ISA_NS::affine
