// crelu32_pair with AVX-512BW flags (and, as avx512bw-emu, against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/crelu32_pair/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {

NNUELAB_CRELU32_PAIR_DEFINE(shared_packs_permute, act::X512, false)
NNUELAB_CRELU32_PAIR_DEFINE(shared_packs_permute_bits, act::X512, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
