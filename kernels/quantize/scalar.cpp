// quantize, no ISA flags.
#include <algorithm>
#include <cmath>

#include "kernels/common/isa.h"
#include "kernels/quantize/quantize.h"

namespace nnuelab::NNUELAB_ISA_NS::quantize {
using namespace ::nnuelab::quantize;

namespace {
template <class T>
void loop(const float* x, std::size_t n, const Params& p, T* out) {
  const float scale = p.scale, L = float(p.levels);
  // Clamp before rounding: same result (L is an integer), and the conversion stays in range.
  for (std::size_t i = 0; i < n; ++i) out[i] = T(std::nearbyint(std::clamp(x[i] * scale, -L, L)));
}
}  // namespace

void nearbyint_run_i8(const float* x, std::size_t n, const Params& p, std::int8_t* out) { loop(x, n, p, out); }
void nearbyint_run_i16(const float* x, std::size_t n, const Params& p, std::int16_t* out) { loop(x, n, p, out); }

}  // namespace nnuelab::NNUELAB_ISA_NS::quantize
