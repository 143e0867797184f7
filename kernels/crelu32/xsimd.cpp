// crelu32 over xsimd::batch, compiled once per xsimd arch and once as the xsimd::dispatch
// front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/crelu32/crelu32.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(crelu32, NNUELAB_CRELU32_KERNEL(shift_clip_narrow))
namespace nnuelab::xsimd::crelu32 {
using namespace ::nnuelab::crelu32;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(crelu32, shift_clip_narrow, std::int32_t, std::uint8_t)
NNUELAB_XSIMD_FORWARD_MANY(crelu32, shift_clip_narrow, std::int32_t, std::uint8_t)
}  // namespace nnuelab::xsimd::crelu32
#else
#include "kernels/common/run_many.h"
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::crelu32 {
using namespace ::nnuelab::crelu32;
NNUELAB_CRELU32_KERNEL(shift_clip_narrow)

using V = B<std::int32_t>;

const char* shift_clip_narrow_supports(const Shape& s) { return xops::need_multiple(s.n, V::size); }

// Shift and clip in int32 lanes: no int16 saturation step, so exact for every int32 and
// every shift 0..31 (the intrinsic packs forms are limited to shift <= 8 or 9).
void shift_clip_narrow_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t*) {
  const int shift = s.shift;
  xops::narrow_each<std::int32_t>(s.n, out, [in, shift](int i) { return xs::clip(V::load_unaligned(in + i) >> shift, V(0), V(127)); });
}
NNUELAB_CRELU32_RUN_MANY(shift_clip_narrow)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32
#endif
