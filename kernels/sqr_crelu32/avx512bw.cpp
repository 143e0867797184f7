// sqr_crelu32 with AVX-512BW flags (and, as avx512bw-emu, against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/sqr_crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32 {

// Two per-lane packs over four lanes, then permutexvar_epi32 (act::X512::fix_packs32x2).
NNUELAB_SQR_CRELU32_DEFINE(packs_mulhi_permute, act::X512, false)
NNUELAB_SQR_CRELU32_DEFINE(packs_mulhi_permute_bits, act::X512, true)
// The same with the post shift as an immediate (vpsrlw $p).
NNUELAB_SQR_CRELU32_DEFINE_RUN(packs_mulhi_imm_permute, act::X512, false, packs_mulhi_imm_run)
NNUELAB_SQR_CRELU32_DEFINE_RUN(packs_mulhi_imm_permute_bits, act::X512, true, packs_mulhi_imm_run)
// No permutexvar: the output stays in the packs' 4-lane order (declared by the registry line).
NNUELAB_SQR_CRELU32_DEFINE_RUN(packs_mulhi_imm_lanes, act::X512, false, packs_mulhi_imm_lanes_run)
NNUELAB_SQR_CRELU32_DEFINE_RUN(packs_mulhi_imm_lanes_bits, act::X512, true, packs_mulhi_imm_lanes_run)

}  // namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32
