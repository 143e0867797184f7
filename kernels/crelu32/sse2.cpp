// crelu32 with SSE2 flags.
#include "kernels/common/isa.h"
#include "kernels/crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32 {

NNUELAB_CRELU32_DEFINE(packs_shift_addsubs, act::X128, PacksAddsSubs, packs_domain, false)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32
