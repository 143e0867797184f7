// octav_step, no ISA flags.
#include <algorithm>
#include <cmath>

#include "kernels/common/isa.h"
#include "kernels/octav_step/octav_step.h"

namespace nnuelab::NNUELAB_ISA_NS::octav_step {
using namespace ::nnuelab::octav_step;

void blocked_run(const float* x, std::size_t n, float s, Sums* out) {
  double sum = 0;
  std::int64_t small = 0, above = 0;
  for (std::size_t b = 0; b < n; b += kBlock) {
    const std::size_t end = std::min(n, b + kBlock);
    float block = 0;  // one float partial sum per block: the error bound of octav_step.h
    for (std::size_t i = b; i < end; ++i) {
      const float a = std::fabs(x[i]);
      const bool hi = a > s;
      block += hi ? a : 0.0f;
      above += hi;
      small += !hi && a > 0.0f;
    }
    sum += block;
  }
  *out = Sums{sum, small, above};
}

}  // namespace nnuelab::NNUELAB_ISA_NS::octav_step
