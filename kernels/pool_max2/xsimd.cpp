// pool_max2 over xsimd::batch, compiled once per xsimd arch and once as the xsimd::dispatch
// front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/pool_max2/pool_max2.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(pool_max2, NNUELAB_POOL_MAX2_KERNEL(max))
namespace nnuelab::xsimd::pool_max2 {
using namespace ::nnuelab::pool_max2;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(pool_max2, max, std::uint8_t, std::uint8_t)
}  // namespace nnuelab::xsimd::pool_max2
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::pool_max2 {
using namespace ::nnuelab::pool_max2;
NNUELAB_POOL_MAX2_KERNEL(max)

using V = B<std::uint8_t>;

const char* max_supports(const Shape& s) { return xops::need_multiple(s.n / 2, V::size); }

// The one op xsimd expresses directly: unsigned byte max (pmaxub / umax).
void max_run(const Shape& s, const std::uint8_t* in, std::uint8_t* out, std::uint64_t*) {
  const int half = s.n / 2;
  for (int i = 0; i < half; i += int(V::size))
    xs::max(V::load_unaligned(in + i), V::load_unaligned(in + half + i)).store_unaligned(out + i);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_max2
#endif
