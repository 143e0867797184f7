// crelu16 with SSE4.1 flags (pmaxsb).
#include "kernels/common/isa.h"
#include "kernels/crelu16/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {

NNUELAB_CRELU16_DEFINE(packs_max, act::X128, PacksMax, false)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
