// crelu32 with SSE4.1 flags (packusdw, pminuw, pmaxsb).
#include "kernels/common/isa.h"
#include "kernels/crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32 {

NNUELAB_CRELU32_DEFINE(packus_shift_min, act::X128, PackusMin, packus_domain, false)
NNUELAB_CRELU32_DEFINE(packs_shift_max, act::X128, PacksMax, packs_domain, false)
NNUELAB_CRELU32_DEFINE(packs_shift_max_bits, act::X128, PacksMax, packs_domain, true)
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_max, act::X128, PacksMax, packs_domain, false, run_loop_imm)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32
