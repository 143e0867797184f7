// quantmoid4 over xsimd::batch, compiled once per xsimd arch and once as the
// xsimd::dispatch front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/quantmoid4/quantmoid4.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(quantmoid4, NNUELAB_QUANTMOID4_KERNEL(select_narrow))
namespace nnuelab::xsimd::quantmoid4 {
using namespace ::nnuelab::quantmoid4;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(quantmoid4, select_narrow, std::int16_t, std::uint8_t)
}  // namespace nnuelab::xsimd::quantmoid4
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::quantmoid4 {
using namespace ::nnuelab::quantmoid4;
NNUELAB_QUANTMOID4_KERNEL(select_narrow)

using V = B<std::int16_t>;

const char* select_narrow_supports(const Shape& s) { return xops::need_multiple(s.n, V::size); }

// Clip to -127..127 before the absolute value, so -32768 cannot overflow; d * d <= 16129
// fits int16 (no mulhi needed: the whole product is kept and shifted); a select instead of
// blendv / psignb.
void select_narrow_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t*) {
  xops::narrow_each<std::int16_t>(s.n, out, [in](int i) {
    const V x = V::load_unaligned(in + i);
    const V c = xs::clip(x, V(-127), V(127));
    const V d = V(127) - xs::max(c, -c);
    const V m = (d * d) >> 8;
    return xs::select(x < V(0), m, V(126) - m);
  });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::quantmoid4
#endif
