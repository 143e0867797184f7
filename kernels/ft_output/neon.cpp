// ft_output with NEON (native aarch64, and as neon-emu against SIMDe). Every variant
// writes the canonical order: NEON narrows two registers into one in order (xtn, xtn2),
// so there is no packus lane interleave to declare (registry lanes = 1).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/ft_output/ft_output.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using namespace ::nnuelab::ft_output;
using pairwise::Product;

static const char* step_supports(const Shape& s, Form form) {
  if (s.form != form)
    return form == Form::kClamp127 ? "computes form clamp127 only" : "computes form clamp255 only";
  return (s.n / 2) % 16 ? "needs n % 32 == 0 (two 16-byte int16 registers from each half per step)" : nullptr;
}

// The x86 forms on pairwise::N128 (smax/smin clamps, mul or the smull+uzp2 mulhi, sqxtun).
#define NNUELAB_FT_STEP(tech, form, prod)                                                              \
  const char* tech##_supports(const Shape& s) { return step_supports(s, Form::form); }               \
  void tech##_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* b) { \
    pairwise::words_pairwise<pairwise::N128, Product::prod, true, false>(input, s.n, output, b);       \
  }
NNUELAB_FT_STEP(clamp127_mul_qmovun, kClamp127, kClamp127Mul7)
NNUELAB_FT_STEP(clamp255_mulhi_qmovun, kClamp255, kClamp255Mul9)
#undef NNUELAB_FT_STEP

// NEON's own forms: the clamp is the narrow. sqxtun saturates every int16 to 0..255, which
// is exactly clamp(x, 0, 255), so both halves become bytes before the multiply, and the
// widening umull of two bytes (<= 255 * 255 = 65025) cannot overflow uint16.
//   clamp255: p = umull(a8, b8); (p >> 9) = ushr(shrn(p, 8), 1) (shrn's immediate stops at
//             8; floor(floor(p / 256) / 2) = floor(p / 512) <= 127)
//   clamp127: a8, b8 capped with umin 127 first; p <= 16129, shrn(p, 7) <= 126.
// 16 outputs from 4 narrows, 2 or 0 umin, 2 umull, 2 shrn (+1 ushr) instead of 8 int16
// clamps, 2 multiplies, 2 shifts and 2 narrows.
template <Form kForm, bool kBits>
static void qmovun_umull(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
  const std::int16_t* a = in;
  const std::int16_t* b = in + s.n / 2;
  const uint8x16_t k127 = vdupq_n_u8(127);
  neon::store_vectors<kBits>(s.n / 32, out, bits, [&](int k) {
    uint8x16_t a8 = neon::qmovun2(vld1q_s16(a + 16 * k), vld1q_s16(a + 16 * k + 8));
    uint8x16_t b8 = neon::qmovun2(vld1q_s16(b + 16 * k), vld1q_s16(b + 16 * k + 8));
    if constexpr (kForm == Form::kClamp127) {
      a8 = vminq_u8(a8, k127);
      b8 = vminq_u8(b8, k127);
    }
    const uint16x8_t p0 = vmull_u8(vget_low_u8(a8), vget_low_u8(b8));
    const uint16x8_t p1 = vmull_u8(vget_high_u8(a8), vget_high_u8(b8));
    if constexpr (kForm == Form::kClamp127) return vcombine_u8(vshrn_n_u16(p0, 7), vshrn_n_u16(p1, 7));
    else return vshrq_n_u8(vcombine_u8(vshrn_n_u16(p0, 8), vshrn_n_u16(p1, 8)), 1);
  });
}

#define NNUELAB_FT_NEON(tech, form, bits)                                                              \
  const char* tech##_supports(const Shape& s) { return step_supports(s, Form::form); }               \
  void tech##_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* b) { \
    qmovun_umull<Form::form, bits>(s, input, output, b);                                              \
  }
NNUELAB_FT_NEON(clamp127_qmovun_umull_shrn, kClamp127, false)
NNUELAB_FT_NEON(clamp127_qmovun_umull_shrn_bits, kClamp127, true)
NNUELAB_FT_NEON(clamp255_qmovun_umull_shrn, kClamp255, false)
NNUELAB_FT_NEON(clamp255_qmovun_umull_shrn_bits, kClamp255, true)
#undef NNUELAB_FT_NEON

}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output
