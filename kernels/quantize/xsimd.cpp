// quantize through xsimd (the portable column). Until the xsimd ISA rows land, compiled with
// the avx2 row's flags as nnuelab::xsimd_avx2 (see kernels/octav_step/octav_step.inc).
#include <algorithm>
#include <cmath>
#include <xsimd/xsimd.hpp>

#include "kernels/common/isa.h"
#include "kernels/quantize/quantize.h"

namespace nnuelab::NNUELAB_ISA_NS::quantize {
using namespace ::nnuelab::quantize;

namespace {

// flatten: no xsimd:: instance compiled with these flags escapes as a weak symbol.
template <class T>
[[gnu::flatten]] void loop(const float* x, std::size_t n, const Params& p, T* out) {
  using B = xsimd::batch<float>;
  constexpr std::size_t W = B::size;
  const B scale(p.scale), lo(-float(p.levels)), hi(float(p.levels));
  alignas(64) std::int32_t q[W];
  std::size_t i = 0;
  for (; i + W <= n; i += W) {
    // xsimd::nearbyint is ties-to-even (round_ps NEAREST_INT on x86); clip first keeps the
    // conversion exact and in range.
    const B y = xsimd::nearbyint(xsimd::clip(B::load_unaligned(x + i) * scale, lo, hi));
    xsimd::to_int(y).store_aligned(q);
    // No saturating narrow in xsimd 8.1: scalar narrowing stores (values are in -L..L).
    for (std::size_t k = 0; k < W; ++k) out[i + k] = T(q[k]);
  }
  const float L = float(p.levels);
  for (; i < n; ++i) out[i] = T(std::nearbyint(std::clamp(x[i] * p.scale, -L, L)));
}

}  // namespace

void xsimd_nearbyint_run_i8(const float* x, std::size_t n, const Params& p, std::int8_t* out) { loop(x, n, p, out); }
void xsimd_nearbyint_run_i16(const float* x, std::size_t n, const Params& p, std::int16_t* out) { loop(x, n, p, out); }

}  // namespace nnuelab::NNUELAB_ISA_NS::quantize
