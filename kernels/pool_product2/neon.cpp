// pool_product2 with NEON (native aarch64, and as neon-emu against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/pool_product2/pool_product2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_product2 {
using namespace ::nnuelab::pool_product2;
using pairwise::Product;

static const char* step_supports(const Shape& s) {
  return (s.n / 2) % 16 ? "needs n % 32 == 0 (two 16-byte int16 registers from each half per step)" : nullptr;
}

// The x86 form on pairwise::N128: mul, ushr 7, sqxtun of two results (in order).
const char* mul_ushr_qmovun_supports(const Shape& s) { return step_supports(s); }
void mul_ushr_qmovun_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  pairwise::words_pairwise<pairwise::N128, Product::kMul7, /*unlace=*/true, /*kBits=*/false>(input, s.n, output, nullptr);
}

// NEON's own form: shrn #7 shifts and narrows in one instruction. In the op's domain
// (inputs 0..127) a * b <= 16129 fits the uint16 product and (a * b) >> 7 <= 126 fits a
// byte, so the truncating narrow is exact; no saturation step is needed. Outside the
// domain the output is unspecified, as for every variant (pool_product2.h).
template <bool kBits>
static void mul_shrn(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
  const std::uint16_t* a = reinterpret_cast<const std::uint16_t*>(in);
  const std::uint16_t* b = a + s.n / 2;
  neon::store_vectors<kBits>(s.n / 32, out, bits, [&](int k) {
    const uint16x8_t p0 = vmulq_u16(vld1q_u16(a + 16 * k), vld1q_u16(b + 16 * k));
    const uint16x8_t p1 = vmulq_u16(vld1q_u16(a + 16 * k + 8), vld1q_u16(b + 16 * k + 8));
    return vcombine_u8(vshrn_n_u16(p0, 7), vshrn_n_u16(p1, 7));
  });
}

const char* mul_shrn_supports(const Shape& s) { return step_supports(s); }
void mul_shrn_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) {
  mul_shrn<false>(s, in, out, b);
}
const char* mul_shrn_bits_supports(const Shape& s) { return step_supports(s); }
void mul_shrn_bits_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) {
  mul_shrn<true>(s, in, out, b);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_product2
