// crelu16 over xsimd::batch, compiled once per xsimd arch (xsimd-sse41, xsimd-avx2,
// xsimd-neon) and once as the xsimd::dispatch front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/crelu16/crelu16.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(crelu16, NNUELAB_CRELU16_KERNEL(clip_narrow))
namespace nnuelab::xsimd::crelu16 {
using namespace ::nnuelab::crelu16;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(crelu16, clip_narrow, std::int16_t, std::uint8_t)
}  // namespace nnuelab::xsimd::crelu16
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::crelu16 {
using namespace ::nnuelab::crelu16;
NNUELAB_CRELU16_KERNEL(clip_narrow)

using V = B<std::int16_t>;

const char* clip_narrow_supports(const Shape& s) { return xops::need_multiple(s.n, V::size); }

// clip in int16 (exact for every int16), then narrow: xsimd has no packs/packus.
void clip_narrow_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t*) {
  xops::narrow_each<std::int16_t>(s.n, out, [in](int i) { return xs::clip(V::load_unaligned(in + i), V(0), V(127)); });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
#endif
