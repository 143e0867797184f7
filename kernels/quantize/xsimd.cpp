// quantize over xsimd::batch (the portable column), compiled once per xsimd arch and once as
// the xsimd::dispatch front end (kernels/common/xsimd_arch.h, kernels/common/xsimd_dispatch.h).
#include <algorithm>
#include <cmath>

#include "kernels/common/xsimd_arch.h"
#include "kernels/quantize/quantize.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(quantize, NNUELAB_QUANTIZE_KERNEL(nearbyint))
namespace nnuelab::xsimd::quantize {
using namespace ::nnuelab::quantize;
void nearbyint_run_i8(const float* x, std::size_t n, const Params& p, std::int8_t* out) {
  NNUELAB_XSIMD_CALL(quantize, nearbyint_run_i8, x, n, p, out);
}
void nearbyint_run_i16(const float* x, std::size_t n, const Params& p, std::int16_t* out) {
  NNUELAB_XSIMD_CALL(quantize, nearbyint_run_i16, x, n, p, out);
}
}  // namespace nnuelab::xsimd::quantize
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::quantize {
using namespace ::nnuelab::quantize;

namespace {

// flatten: no xs:: instance compiled with these flags escapes as a weak symbol.
// always_inline: the loop is the body of each entry point (tests/expected_instructions.txt
// looks for its vroundps there); since the block narrowing GCC kept it out of line.
template <class T>
[[gnu::flatten, gnu::always_inline]] inline void loop(const float* x, std::size_t n, const Params& p, T* out) {
  using B = B<float>;
  constexpr std::size_t W = B::size;
  const B scale(p.scale), lo(-float(p.levels)), hi(float(p.levels));
  // No saturating narrow in xsimd 8.1: the int32 lanes (in -L..L) go through a block of 64
  // and one plain narrowing loop per block (xops::Narrower), which GCC vectorises.
  xops::Narrower<std::int32_t, T> block;
  constexpr std::size_t K = std::size_t(xops::Narrower<std::int32_t, T>::kBlock);
  std::size_t i = 0;
  while (n - i >= W) {
    const std::size_t count = std::min(K, (n - i) / W * W);  // whole batches
    for (std::size_t j = 0; j < count; j += W) {
      // xs::nearbyint is ties-to-even (round_ps NEAREST_INT on x86); clip first keeps the
      // conversion exact and in range.
      const B y = xs::nearbyint(xs::clip(B::load_unaligned(x + i + j) * scale, lo, hi));
      block.put(int(j), xs::to_int(y));
    }
    block.write(out + i, int(count));
    i += count;
  }
  const float L = float(p.levels);
  for (; i < n; ++i) out[i] = T(std::nearbyint(std::clamp(x[i] * p.scale, -L, L)));
}

}  // namespace

void nearbyint_run_i8(const float* x, std::size_t n, const Params& p, std::int8_t* out) { loop(x, n, p, out); }
void nearbyint_run_i16(const float* x, std::size_t n, const Params& p, std::int16_t* out) { loop(x, n, p, out); }

}  // namespace nnuelab::NNUELAB_ISA_NS::quantize
#endif
