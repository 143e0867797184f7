// crelu16 with AVX2 flags.
#include "kernels/common/isa.h"
#include "kernels/crelu16/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {

// packs per 128-bit lane, then vpermq (act::X256::fix_packs16) restores x0..x31.
NNUELAB_CRELU16_DEFINE(packs_max_permute, act::X256, PacksMax, false)
NNUELAB_CRELU16_DEFINE(packs_max_permute_bits, act::X256, PacksMax, true)
// No vpermq: the bytes stay in packs' 2-lane order (declared by the registry line).
NNUELAB_CRELU16_DEFINE_ORDER(packs_max_lanes, act::X256, PacksMax, false, false)
NNUELAB_CRELU16_DEFINE_ORDER(packs_max_lanes_bits, act::X256, PacksMax, true, false)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
