// crelu32_pair with NEON (native aarch64, and as neon-emu against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/crelu32_pair/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {

// The shared-narrowing technique on act::N128: one sqxtn pair per four input vectors
// feeds both halves (mulhi square; sshl + sqxtn + smax clip). No permutes: narrowing keeps
// the order. 5 <= shift <= 8 (the int16 saturation and mulhi's dropped low half).
NNUELAB_CRELU32_PAIR_DEFINE(shared_qmovn, act::N128, false)
NNUELAB_CRELU32_PAIR_DEFINE(shared_qmovn_bits, act::N128, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
