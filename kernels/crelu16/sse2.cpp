// crelu16 with SSE2 flags.
#include "kernels/common/isa.h"
#include "kernels/crelu16/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {

NNUELAB_CRELU16_DEFINE(packus_min, act::X128, PackusMin, false)
NNUELAB_CRELU16_DEFINE(packus_min_bits, act::X128, PackusMin, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
