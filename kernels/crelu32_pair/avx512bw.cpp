// crelu32_pair with AVX-512BW flags (and, as avx512bw-emu, against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/crelu32_pair/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {

NNUELAB_CRELU32_PAIR_DEFINE(shared_packs_permute, act::X512, false)
NNUELAB_CRELU32_PAIR_DEFINE(shared_packs_permute_bits, act::X512, true)
// The same with both shifts as immediates (vpsraw $s, vpsrlw $2s-9).
NNUELAB_CRELU32_PAIR_DEFINE_RUN(shared_packs_imm_permute, act::X512, false, shared_packs_imm_run)
NNUELAB_CRELU32_PAIR_DEFINE_RUN(shared_packs_imm_permute_bits, act::X512, true, shared_packs_imm_run)
// No permutexvar: both halves stay in the packs' 4-lane order (declared by the registry line).
NNUELAB_CRELU32_PAIR_DEFINE_RUN(shared_packs_imm_lanes, act::X512, false, shared_packs_imm_lanes_run)
NNUELAB_CRELU32_PAIR_DEFINE_RUN(shared_packs_imm_lanes_bits, act::X512, true, shared_packs_imm_lanes_run)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
