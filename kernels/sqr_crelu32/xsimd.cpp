// sqr_crelu32 over xsimd::batch, compiled once per xsimd arch and once as the
// xsimd::dispatch front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/sqr_crelu32/sqr_crelu32.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(sqr_crelu32, NNUELAB_SQR_CRELU32_KERNEL(clip_square_narrow))
namespace nnuelab::xsimd::sqr_crelu32 {
using namespace ::nnuelab::sqr_crelu32;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(sqr_crelu32, clip_square_narrow, std::int32_t, std::uint8_t)
NNUELAB_XSIMD_FORWARD_MANY(sqr_crelu32, clip_square_narrow, std::int32_t, std::uint8_t)
}  // namespace nnuelab::xsimd::sqr_crelu32
#else
#include "kernels/common/run_many.h"
#include "kernels/common/xsimd_ops.h"
#include "kernels/common/xsimd_sqr.h"
namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32 {
using namespace ::nnuelab::sqr_crelu32;
NNUELAB_SQR_CRELU32_KERNEL(clip_square_narrow)

using V = B<std::int32_t>;

const char* clip_square_narrow_supports(const Shape& s) {
  if (const char* why = xops::sqr_shift_supported(s.shift)) return why;
  return xops::need_multiple(s.n, V::size);
}

void clip_square_narrow_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t*) {
  const xops::SqrClip sq(s.shift);
  xops::narrow_each<std::int32_t>(s.n, out, [in, sq](int i) { return sq(V::load_unaligned(in + i)); });
}

NNUELAB_SQR_CRELU32_RUN_MANY(clip_square_narrow)

}  // namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32
#endif
