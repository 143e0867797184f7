// octav_step over xsimd::batch (the portable column), compiled once per xsimd arch and once as
// the xsimd::dispatch front end (kernels/common/xsimd_arch.h, kernels/common/xsimd_dispatch.h).
#include <algorithm>
#include <cmath>

#include "kernels/common/xsimd_arch.h"
#include "kernels/octav_step/octav_step.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(octav_step, NNUELAB_OCTAV_STEP_KERNEL(select))
namespace nnuelab::xsimd::octav_step {
using namespace ::nnuelab::octav_step;
void select_run(const float* x, std::size_t n, float s, Sums* out) {
  NNUELAB_XSIMD_CALL(octav_step, select_run, x, n, s, out);
}
}  // namespace nnuelab::xsimd::octav_step
#else
namespace nnuelab::NNUELAB_ISA_NS::octav_step {
using namespace ::nnuelab::octav_step;

// flatten: every xsimd helper is inlined into this function, so no xs:: template
// instance compiled with this ISA's flags is emitted as a weak symbol another object
// could pick (tests/check_isa_symbols.sh checks it).
[[gnu::flatten]] void select_run(const float* x, std::size_t n, float s, Sums* out) {
  using B = B<float>;
  constexpr std::size_t W = B::size;
  const B vs(s), zero(0.0f), one(1.0f);
  double sum = 0;
  std::int64_t small = 0, above = 0;
  for (std::size_t b = 0; b < n; b += kBlock) {
    const std::size_t end = std::min(n, b + kBlock);
    B acc0 = zero, acc1 = zero, cnt_small = zero, cnt_above = zero;
    std::size_t i = b;
    auto step = [&](const B& v, B& acc) {
      const B a = xs::abs(v);
      const auto hi = a > vs;
      const auto lo = (a > zero) & !hi;
      acc += xs::select(hi, a, zero);
      // Float counts: exact, at most kBlock / W per lane and block, far below 2^24.
      cnt_above += xs::select(hi, one, zero);
      cnt_small += xs::select(lo, one, zero);
    };
    // Bounds fixed before the loops, as in avx2.cpp: no copy of i kept for the next loop.
    const std::size_t end2w = end - (end - b) % (2 * W), endw = end - (end - b) % W;
    for (; i < end2w; i += 2 * W) {
      step(B::load_unaligned(x + i), acc0);
      step(B::load_unaligned(x + i + W), acc1);
    }
    for (; i < endw; i += W) step(B::load_unaligned(x + i), acc0);
    float tail = 0;
    for (; i < end; ++i) {
      const float a = std::fabs(x[i]);
      if (a > s) { tail += a; ++above; }
      else if (a > 0.0f) ++small;
    }
    sum += double(xs::hadd(acc0 + acc1)) + double(tail);
    small += std::int64_t(xs::hadd(cnt_small));
    above += std::int64_t(xs::hadd(cnt_above));
  }
  *out = Sums{sum, small, above};
}

}  // namespace nnuelab::NNUELAB_ISA_NS::octav_step
#endif
