// quantmoid4 with SSSE3 flags (pabsw, psignb).
#include "kernels/common/isa.h"
#include "kernels/quantmoid4/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::quantmoid4 {

NNUELAB_QUANTMOID4_DEFINE(subs_mulhi_sign, act::X128, Sign, false)

}  // namespace nnuelab::NNUELAB_ISA_NS::quantmoid4
