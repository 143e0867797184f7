// ft_output over xsimd::batch, compiled once per xsimd arch and once as the xsimd::dispatch
// front end (kernels/common/xsimd_arch.h). Output in canonical order.
#include "kernels/common/xsimd_arch.h"
#include "kernels/ft_output/ft_output.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(ft_output, NNUELAB_FT_OUTPUT_KERNEL(clamp127_mul_narrow) NNUELAB_FT_OUTPUT_KERNEL(clamp255_mul_narrow))
namespace nnuelab::xsimd::ft_output {
using namespace ::nnuelab::ft_output;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(ft_output, clamp127_mul_narrow, std::int16_t, std::uint8_t)
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(ft_output, clamp255_mul_narrow, std::int16_t, std::uint8_t)
}  // namespace nnuelab::xsimd::ft_output
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using namespace ::nnuelab::ft_output;
NNUELAB_FT_OUTPUT_KERNEL(clamp127_mul_narrow)
NNUELAB_FT_OUTPUT_KERNEL(clamp255_mul_narrow)

using V = B<std::int16_t>;
using U = B<std::uint16_t>;

static const char* form_supports(const Shape& s, Form form) {
  if (s.form != form)
    return form == Form::kClamp127 ? "computes form clamp127 only" : "computes form clamp255 only";
  return xops::need_multiple(s.n / 2, V::size);
}

const char* clamp127_mul_narrow_supports(const Shape& s) { return form_supports(s, Form::kClamp127); }
const char* clamp255_mul_narrow_supports(const Shape& s) { return form_supports(s, Form::kClamp255); }

// clamp127: both factors 0..127, the product <= 16129 fits int16; >> 7.
void clamp127_mul_narrow_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t*) {
  const int half = s.n / 2;
  xops::narrow_each<std::int16_t>(half, out, [in, half](int i) {
    const V a = xs::clip(V::load_unaligned(in + i), V(0), V(127));
    const V b = xs::clip(V::load_unaligned(in + half + i), V(0), V(127));
    return (a * b) >> 7;
  });
}

// clamp255: the product (<= 65025) overflows int16 but fits uint16, so the factors are
// reinterpreted as uint16 and the whole product shifted logically by 9 (the intrinsic form
// needs psllw 7 + pmulhw to reach the high half; xsimd has no mulhi).
void clamp255_mul_narrow_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t*) {
  const int half = s.n / 2;
  xops::narrow_each<std::uint16_t>(half, out, [in, half](int i) {
    const U a = xs::bitwise_cast<U>(xs::clip(V::load_unaligned(in + i), V(0), V(255)));
    const U b = xs::bitwise_cast<U>(xs::clip(V::load_unaligned(in + half + i), V(0), V(255)));
    return (a * b) >> 9;
  });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output
#endif
