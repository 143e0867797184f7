// quantmoid4 with NEON (native aarch64, and as neon-emu against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/quantmoid4/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::quantmoid4 {

// The seed's formulation on act::N128: the blend is one bsl on the sign mask (cmlt #0 of
// the narrowed input), the mulhi of d << 4 is smull, smull2, uzp2.
NNUELAB_QUANTMOID4_DEFINE(subs_mulhi_bsl, act::N128, Blend, false)

// NEON's own form: the half curve in bytes with a widening multiply and a narrowing shift.
//   d  = uqsub(127, |x|)          0..127 (abs(-32768) wraps to 0x8000 = 32768 unsigned: 0)
//   d8 = xtn(d)                   exact, d <= 127
//   m  = shrn(umull(d8, d8), 8)   d^2 <= 16129 fits uint16; >> 8 gives 0..63, fits a byte
//   out = bsl(x < 0, m, 126 - m)  the sign from sqxtn(x) (saturation keeps sign and 0)
// No mulhi emulation, no shift of d, and the square is done on 16 lanes per umull pair.
template <bool kBits>
static void umull_shrn_bsl(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
  const uint16x8_t k127 = vdupq_n_u16(127);
  const uint8x16_t k126 = vdupq_n_u8(126);
  neon::store_vectors<kBits>(s.n / 16, out, bits, [&](int k) {
    const int16x8_t x0 = vld1q_s16(in + 16 * k), x1 = vld1q_s16(in + 16 * k + 8);
    const uint16x8_t d0 = vqsubq_u16(k127, vreinterpretq_u16_s16(vabsq_s16(x0)));
    const uint16x8_t d1 = vqsubq_u16(k127, vreinterpretq_u16_s16(vabsq_s16(x1)));
    const uint8x16_t d8 = vcombine_u8(vmovn_u16(d0), vmovn_u16(d1));
    const uint8x16_t m = vcombine_u8(vshrn_n_u16(vmull_u8(vget_low_u8(d8), vget_low_u8(d8)), 8),
                                     vshrn_n_u16(vmull_u8(vget_high_u8(d8), vget_high_u8(d8)), 8));
    const uint8x16_t negative = vcltzq_s8(neon::qmovn2(x0, x1));
    return vbslq_u8(negative, m, vsubq_u8(k126, m));
  });
}

const char* umull_shrn_bsl_supports(const Shape& s) { return whole_vectors<act::N128>(s); }
void umull_shrn_bsl_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) {
  umull_shrn_bsl<false>(s, in, out, b);
}
const char* umull_shrn_bsl_bits_supports(const Shape& s) { return whole_vectors<act::N128>(s); }
void umull_shrn_bsl_bits_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) {
  umull_shrn_bsl<true>(s, in, out, b);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::quantmoid4
