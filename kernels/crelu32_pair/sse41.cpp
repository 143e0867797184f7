// crelu32_pair with SSE4.1 flags (pmaxsb for the clip).
#include "kernels/common/isa.h"
#include "kernels/crelu32_pair/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {

NNUELAB_CRELU32_PAIR_DEFINE(shared_packs, act::X128, false)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
