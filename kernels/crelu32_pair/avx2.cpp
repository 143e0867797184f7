// crelu32_pair with AVX2 flags.
#include "kernels/common/isa.h"
#include "kernels/crelu32_pair/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {

// Per-lane packs; each half gets its own vpermd (act::X256::fix_packs32x2).
NNUELAB_CRELU32_PAIR_DEFINE(shared_packs_permute, act::X256, false)

const char* separate_packs_permute_supports(const Shape& s) { return shared_packs_domain<act::X256>(s); }
void separate_packs_permute_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
  separate_packs_run<act::X256>(s, in, out, b);
}
NNUELAB_CRELU32_PAIR_DEFINE(shared_packs_permute_bits, act::X256, true)
// The same with both shifts as immediates (vpsraw $s, vpsrlw $2s-9).
NNUELAB_CRELU32_PAIR_DEFINE_RUN(shared_packs_imm_permute, act::X256, false, shared_packs_imm_run)
NNUELAB_CRELU32_PAIR_DEFINE_RUN(shared_packs_imm_permute_bits, act::X256, true, shared_packs_imm_run)
// No vpermd: both halves stay in the packs' 2-lane order (declared by the registry line).
NNUELAB_CRELU32_PAIR_DEFINE_RUN(shared_packs_imm_lanes, act::X256, false, shared_packs_imm_lanes_run)
NNUELAB_CRELU32_PAIR_DEFINE_RUN(shared_packs_imm_lanes_bits, act::X256, true, shared_packs_imm_lanes_run)

NNUELAB_CRELU32_PAIR_RUN_MANY(separate_packs_permute)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
