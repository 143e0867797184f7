// sqr_crelu32 with AVX2 flags.
#include "kernels/common/isa.h"
#include "kernels/sqr_crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32 {

// Two per-lane packs, then vpermd (act::X256::fix_packs32x2) restores the order.
NNUELAB_SQR_CRELU32_DEFINE(packs_mulhi_permute, act::X256, false)
NNUELAB_SQR_CRELU32_DEFINE(packs_mulhi_permute_bits, act::X256, true)
// The same with the post shift as an immediate (vpsrlw $p).
NNUELAB_SQR_CRELU32_DEFINE_RUN(packs_mulhi_imm_permute, act::X256, false, packs_mulhi_imm_run)
NNUELAB_SQR_CRELU32_DEFINE_RUN(packs_mulhi_imm_permute_bits, act::X256, true, packs_mulhi_imm_run)
// No vpermd: the output stays in the packs' 2-lane order (declared by the registry line).
NNUELAB_SQR_CRELU32_DEFINE_RUN(packs_mulhi_imm_lanes, act::X256, false, packs_mulhi_imm_lanes_run)
NNUELAB_SQR_CRELU32_DEFINE_RUN(packs_mulhi_imm_lanes_bits, act::X256, true, packs_mulhi_imm_lanes_run)

}  // namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32
