// crelu16 with AVX-512BW flags (and, as avx512bw-emu, against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/crelu16/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {

// packs per 128-bit lane (four lanes), then vpermq with an index vector
// (act::X512::fix_packs16) restores x0..x63.
NNUELAB_CRELU16_DEFINE(packs_max_permute, act::X512, PacksMax, false)
NNUELAB_CRELU16_DEFINE(packs_max_permute_bits, act::X512, PacksMax, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
