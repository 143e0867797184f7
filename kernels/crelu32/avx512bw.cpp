// crelu32 with AVX-512BW flags (and, as avx512bw-emu, against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32 {

// Two per-lane packs over four lanes, then permutexvar_epi32 (act::X512::fix_packs32x2).
NNUELAB_CRELU32_DEFINE(packs_shift_permute, act::X512, PacksMax, packs_domain, false)
NNUELAB_CRELU32_DEFINE(packs_shift_permute_bits, act::X512, PacksMax, packs_domain, true)
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_permute, act::X512, PacksMax, packs_domain, false, run_loop_imm)
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_permute_bits, act::X512, PacksMax, packs_domain, true, run_loop_imm)
// No permutexvar: the output stays in the packs' 4-lane order (declared by the registry
// line), one cross-lane uop fewer per 64 bytes.
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_lanes, act::X512, PacksMax, packs_domain, false, run_loop_imm_lanes)
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_lanes_bits, act::X512, PacksMax, packs_domain, true, run_loop_imm_lanes)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32
