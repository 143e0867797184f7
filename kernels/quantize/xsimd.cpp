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
namespace nnuelab::NNUELAB_ISA_NS::quantize {
using namespace ::nnuelab::quantize;

namespace {

// flatten: no xs:: instance compiled with these flags escapes as a weak symbol.
template <class T>
[[gnu::flatten]] void loop(const float* x, std::size_t n, const Params& p, T* out) {
  using B = B<float>;
  constexpr std::size_t W = B::size;
  const B scale(p.scale), lo(-float(p.levels)), hi(float(p.levels));
  alignas(64) std::int32_t q[W];
  std::size_t i = 0;
  for (; i + W <= n; i += W) {
    // xs::nearbyint is ties-to-even (round_ps NEAREST_INT on x86); clip first keeps the
    // conversion exact and in range.
    const B y = xs::nearbyint(xs::clip(B::load_unaligned(x + i) * scale, lo, hi));
    xs::to_int(y).store_aligned(q);
    // No saturating narrow in xsimd 8.1: scalar narrowing stores (values are in -L..L).
    for (std::size_t k = 0; k < W; ++k) out[i + k] = T(q[k]);
  }
  const float L = float(p.levels);
  for (; i < n; ++i) out[i] = T(std::nearbyint(std::clamp(x[i] * p.scale, -L, L)));
}

}  // namespace

void nearbyint_run_i8(const float* x, std::size_t n, const Params& p, std::int8_t* out) { loop(x, n, p, out); }
void nearbyint_run_i16(const float* x, std::size_t n, const Params& p, std::int16_t* out) { loop(x, n, p, out); }

}  // namespace nnuelab::NNUELAB_ISA_NS::quantize
#endif
