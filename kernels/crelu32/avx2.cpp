// crelu32 with AVX2 flags.
#include "kernels/common/isa.h"
#include "kernels/crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32 {

// Two per-lane packs, then vpermd (act::X256::fix_packs32x2) restores 0..31.
NNUELAB_CRELU32_DEFINE(packs_shift_permute, act::X256, PacksMax, packs_domain, false)
NNUELAB_CRELU32_DEFINE(packs_shift_permute_bits, act::X256, PacksMax, packs_domain, true)
NNUELAB_CRELU32_DEFINE(packus_shift_permute, act::X256, PackusMin, packus_domain, false)
// The same with the shift as an immediate (vpsraw $s: one uop, where vpsraw %xmm is two).
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_permute, act::X256, PacksMax, packs_domain, false, run_loop_imm)
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_permute_bits, act::X256, PacksMax, packs_domain, true, run_loop_imm)
// No vpermd: the output stays in the packs' 2-lane order (declared by the registry line):
// 3 port-5 uops per 32 bytes instead of 4.
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_lanes, act::X256, PacksMax, packs_domain, false, run_loop_imm_lanes)
NNUELAB_CRELU32_DEFINE_LOOP(packs_shift_imm_lanes_bits, act::X256, PacksMax, packs_domain, true, run_loop_imm_lanes)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32
