// crelu16 with AVX-512BW flags (and, as avx512bw-emu, against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/crelu16/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {

// packs per 128-bit lane (four lanes), then vpermq with an index vector
// (act::X512::fix_packs16) restores x0..x63.
NNUELAB_CRELU16_DEFINE(packs_max_permute, act::X512, PacksMax, false)
NNUELAB_CRELU16_DEFINE(packs_max_permute_bits, act::X512, PacksMax, true)
// No permutexvar: the bytes stay in packs' 4-lane order (declared by the registry line).
NNUELAB_CRELU16_DEFINE_ORDER(packs_max_lanes, act::X512, PacksMax, false, false)
NNUELAB_CRELU16_DEFINE_ORDER(packs_max_lanes_bits, act::X512, PacksMax, true, false)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
