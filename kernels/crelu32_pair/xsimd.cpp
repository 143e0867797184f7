// crelu32_pair over xsimd::batch, compiled once per xsimd arch and once as the
// xsimd::dispatch front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/crelu32_pair/crelu32_pair.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(crelu32_pair, NNUELAB_CRELU32_PAIR_KERNEL(shared_load_narrow))
namespace nnuelab::xsimd::crelu32_pair {
using namespace ::nnuelab::crelu32_pair;
NNUELAB_XSIMD_FORWARD_ELEMENTWISE(crelu32_pair, shared_load_narrow, std::int32_t, std::uint8_t)
NNUELAB_XSIMD_FORWARD_MANY(crelu32_pair, shared_load_narrow, std::int32_t, std::uint8_t)
}  // namespace nnuelab::xsimd::crelu32_pair
#else
#include "kernels/common/run_many.h"
#include "kernels/common/xsimd_ops.h"
#include "kernels/common/xsimd_sqr.h"
namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {
using namespace ::nnuelab::crelu32_pair;
NNUELAB_CRELU32_PAIR_KERNEL(shared_load_narrow)

using V = B<std::int32_t>;

const char* shared_load_narrow_supports(const Shape& s) {
  if (const char* why = xops::sqr_shift_supported(s.shift)) return why;
  return xops::need_multiple(s.n, V::size);
}

// One load feeds both halves: the squared form (xsimd_sqr.h) and the shifted clip.
void shared_load_narrow_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t*) {
  const xops::SqrClip sq(s.shift);
  const int shift = s.shift;
  xops::Narrower<std::int32_t> squared, clipped;
  xops::for_blocks<std::int32_t>(
      s.n,
      [&squared, &clipped, in, sq, shift](int i, int j) {
        const V x = V::load_unaligned(in + i);
        squared.put(j, sq(x));
        clipped.put(j, xs::clip(x >> shift, V(0), V(127)));
      },
      [&squared, &clipped, out, n = s.n](int i0, int count) {
        squared.write(out + i0, count);
        clipped.write(out + n + i0, count);
      });
}

NNUELAB_CRELU32_PAIR_RUN_MANY(shared_load_narrow)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
#endif
