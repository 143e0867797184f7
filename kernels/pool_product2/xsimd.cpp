// pool_product2 over xsimd::batch, compiled once per xsimd arch and once as the
// xsimd::dispatch front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/pool_product2/pool_product2.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(pool_product2, NNUELAB_POOL_PRODUCT2_KERNEL(mul_shift_narrow))
namespace nnuelab::xsimd::pool_product2 {
using namespace ::nnuelab::pool_product2;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(pool_product2, mul_shift_narrow, std::int16_t, std::uint8_t)
}  // namespace nnuelab::xsimd::pool_product2
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::pool_product2 {
using namespace ::nnuelab::pool_product2;
NNUELAB_POOL_PRODUCT2_KERNEL(mul_shift_narrow)

using V = B<std::uint16_t>;

const char* mul_shift_narrow_supports(const Shape& s) { return xops::need_multiple(s.n / 2, V::size); }

// Inputs 0..127: the product (<= 16129) fits 16 bits, so the low-half multiply (mullo)
// is the whole product; >> 7 gives 0..126, narrowed without packus.
void mul_shift_narrow_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t*) {
  const int half = s.n / 2;
  const auto* u = reinterpret_cast<const std::uint16_t*>(in);
  xops::narrow_each<std::uint16_t>(half, out, [u, half](int i) { return (V::load_unaligned(u + i) * V::load_unaligned(u + half + i)) >> 7; });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_product2
#endif
