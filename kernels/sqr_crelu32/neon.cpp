// sqr_crelu32 with NEON (native aarch64, and as neon-emu against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/sqr_crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32 {

// The x86 form on act::N128: sqxtn to int16, mulhi (smull, smull2, uzp2), ushl right by
// 2s + 7 - 16, sqxtn to int8. Same domain as on x86: 5 <= shift <= 8.
NNUELAB_SQR_CRELU32_DEFINE(qmovn_mulhi, act::N128, false)

// NEON's own square: sqdmulh(x, x) = sat((2 x x) >> 16) = floor(x^2 / 2^15) in one
// instruction (smull, smull2, uzp2 for pmulhw's floor(x^2 / 2^16)). It keeps one bit more,
// so the rest of the shift is 2s + 7 - 15 = 2s - 8 and the domain grows to 4 <= shift <= 8:
//   - x = sat16(input); for |input| < 32768 the square is < 2^30, 2 x^2 < 2^31: no
//     saturation, and floor(floor(x^2 / 2^15) / 2^(2s-8)) = floor(x^2 / 2^(2s+7)) exactly;
//   - |input| >= 32768 narrows to 32767 or -32768; the reference gives >= 2^30 >> 23 = 128
//     -> 127, and sqdmulh gives 32766 (or 32767, the one saturating case -32768^2), which
//     shifted by 2s - 8 <= 8 is still >= 127 -> 127;
//   - the squares are >= 0, so sqxtn to int8 saturates at 127: the reference's min.
// shift > 8 fails like the mulhi form (32767 narrowed squares to less than 127); shift < 4
// needs bits below 2^15.
static const char* qdmulh_domain(const Shape& s) {
  if (s.n % 16) return "needs n % 16 == 0 (four int32x4 vectors per output vector)";
  if (s.shift > 8) return "needs shift <= 8 (it saturates to int16 before squaring)";
  if (s.shift < 4) return "needs shift >= 4 (sqdmulh keeps x*x >> 15; 2*shift + 7 < 15 needs the low half)";
  return nullptr;
}

template <bool kBits>
static void qdmulh_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits) {
  const int16x8_t right = vdupq_n_s16(std::int16_t(-(2 * s.shift - 8)));
  neon::store_vectors<kBits>(s.n / 16, out, bits, [&](int k) {
    const std::int32_t* p = in + 16 * k;
    const int16x8_t x01 = neon::qmovn2(vld1q_s32(p), vld1q_s32(p + 4));
    const int16x8_t x23 = neon::qmovn2(vld1q_s32(p + 8), vld1q_s32(p + 12));
    const int16x8_t q01 = vshlq_s16(vqdmulhq_s16(x01, x01), right);
    const int16x8_t q23 = vshlq_s16(vqdmulhq_s16(x23, x23), right);
    return neon::u8(neon::qmovn2(q01, q23));
  });
}

const char* qmovn_qdmulh_supports(const Shape& s) { return qdmulh_domain(s); }
void qmovn_qdmulh_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
  qdmulh_run<false>(s, in, out, b);
}
const char* qmovn_qdmulh_bits_supports(const Shape& s) { return qdmulh_domain(s); }
void qmovn_qdmulh_bits_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
  qdmulh_run<true>(s, in, out, b);
}

NNUELAB_SQR_CRELU32_RUN_MANY(qmovn_qdmulh)
NNUELAB_SQR_CRELU32_RUN_MANY(qmovn_qdmulh_bits)

}  // namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32
