// pool_avg2 over xsimd::batch, compiled once per xsimd arch and once as the xsimd::dispatch
// front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/pool_avg2/pool_avg2.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(pool_avg2, NNUELAB_POOL_AVG2_KERNEL(or_xor_shift))
namespace nnuelab::xsimd::pool_avg2 {
using namespace ::nnuelab::pool_avg2;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(pool_avg2, or_xor_shift, std::uint8_t, std::uint8_t)
}  // namespace nnuelab::xsimd::pool_avg2
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::pool_avg2 {
using namespace ::nnuelab::pool_avg2;
NNUELAB_POOL_AVG2_KERNEL(or_xor_shift)

using V = B<std::uint8_t>;

const char* or_xor_shift_supports(const Shape& s) { return xops::need_multiple(s.n / 2, V::size); }

// xsimd 8.1 has no rounding average (pavgb / vrhadd): (a + b + 1) >> 1 without a carry out
// of 8 bits is (a | b) - ((a ^ b) >> 1).
void or_xor_shift_run(const Shape& s, const std::uint8_t* in, std::uint8_t* out, std::uint64_t*) {
  const int half = s.n / 2;
  for (int i = 0; i < half; i += int(V::size)) {
    const V a = V::load_unaligned(in + i), b = V::load_unaligned(in + half + i);
    ((a | b) - ((a ^ b) >> 1)).store_unaligned(out + i);
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_avg2
#endif
