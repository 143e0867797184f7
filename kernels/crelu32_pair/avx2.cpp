// crelu32_pair with AVX2 flags.
#include "kernels/common/isa.h"
#include "kernels/crelu32_pair/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {

// Per-lane packs; each half gets its own vpermd (act::X256::fix_packs32x2).
NNUELAB_CRELU32_PAIR_DEFINE(shared_packs_permute, act::X256, false)
NNUELAB_CRELU32_PAIR_DEFINE(shared_packs_permute_bits, act::X256, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
