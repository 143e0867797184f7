// sqr_crelu32 with SSE2 flags (packssdw, pmulhw, psrlw, packsswb: all SSE2).
#include "kernels/common/isa.h"
#include "kernels/sqr_crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32 {

NNUELAB_SQR_CRELU32_DEFINE(packs_mulhi, act::X128, false)
NNUELAB_SQR_CRELU32_DEFINE(packs_mulhi_bits, act::X128, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32
