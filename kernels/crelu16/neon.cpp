// crelu16 with NEON (native aarch64, and as neon-emu against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/crelu16/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {

// The x86 techniques on act::N128: sqxtn saturates to -128..127, smax 0 clips below
// (PacksMax); narrowing keeps the order, so fix_packs16 is empty. The _bits form takes one
// vtst bitset reduction per output vector (act::N128::nnz).
NNUELAB_CRELU16_DEFINE(qmovn_max, act::N128, PacksMax, false)
NNUELAB_CRELU16_DEFINE(qmovn_max_bits, act::N128, PacksMax, true)

// NEON's own form: sqxtun saturates every int16 to 0..255 (negatives -> 0) in the narrow
// itself, umin 127 caps: clamp(x, 0, 127) for every int16. The _bits form collects the
// vtst masks of four output vectors and reduces them once (neon::nnz64).
template <bool kBits>
static void qmovun_min(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
  const uint8x16_t k127 = vdupq_n_u8(127);
  neon::store_vectors<kBits>(s.n / 16, out, bits, [&](int k) {
    return vminq_u8(neon::qmovun2(vld1q_s16(in + 16 * k), vld1q_s16(in + 16 * k + 8)), k127);
  });
}

const char* qmovun_min_supports(const Shape& s) { return whole_vectors<act::N128>(s); }
void qmovun_min_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) {
  qmovun_min<false>(s, in, out, b);
}
const char* qmovun_min_bits_supports(const Shape& s) { return whole_vectors<act::N128>(s); }
void qmovun_min_bits_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) {
  qmovun_min<true>(s, in, out, b);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
