#include "kernels/octav_step/registry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kernels/common/refusal.h"
#include "kernels/common/registry_macros.h"

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::octav_step {  \
  NNUELAB_OCTAV_STEP_KERNEL(tech)      \
  }
#include "kernels/octav_step/octav_step.inc"
#undef NNUELAB_ROW

namespace nnuelab::octav_step {

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note) Variant{make_variant_info("octav_step", #ns, #tech, note), &ns::octav_step::tech##_run},
  static const std::vector<Variant> table = []() NNUELAB_TABLE_BUILDER {
    return std::vector<Variant>{
#include "kernels/octav_step/octav_step.inc"
    };
  }();
#undef NNUELAB_ROW
  return table;
}

std::string why_invalid_tensor(const float* x, std::size_t n) {
  if (n == 0) return "empty tensor (n == 0)";
  if (!x) return "tensor pointer is null";
  bool any_nonzero = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) return non_finite_element(x, i);
    if (std::fabs(x[i]) > kMaxAbs)
      return "|x[" + std::to_string(i) + "]| = " + std::to_string(x[i]) + " exceeds 1e30 (float block sums could overflow)";
    any_nonzero |= x[i] != 0.0f;
  }
  if (!any_nonzero) return "every element is zero (nothing to clip: OCTAV's sums are all empty)";
  return {};
}

Sums run(const Variant& v, const float* x, std::size_t n, float s) {
  require_available(v.info);
  if (std::string why = why_invalid_tensor(x, n); !why.empty()) refuse_call(v.info.name, why);
  if (!std::isfinite(s) || s <= 0.0f) refuse_call(v.info.name, "s = " + std::to_string(s) + " must be finite and > 0");
  Sums out;
  v.run(x, n, s, &out);
  return out;
}

Solution solve(const Variant& v, const float* x, std::size_t n, double noise, double s0, int max_iter,
               double rel_tol) {
  require_available(v.info);
  if (std::string why = why_invalid_tensor(x, n); !why.empty()) refuse_call(v.info.name, why);
  if (!std::isfinite(s0) || s0 <= 0) refuse_call(v.info.name, "s0 = " + std::to_string(s0) + " must be finite and > 0");
  if (!std::isfinite(noise) || noise <= 0) refuse_call(v.info.name, "the noise coefficient must be finite and > 0");
  if (max_iter < 1) refuse_call(v.info.name, "max_iter must be >= 1");
  float max_abs = 0;
  for (std::size_t i = 0; i < n; ++i) max_abs = std::max(max_abs, std::fabs(x[i]));
  // The largest float below max|x|: it still clips the largest element, so the numerator
  // is never empty (max_abs > 0: the tensor has a non-zero element).
  const float cap = std::nextafter(max_abs, 0.0f);
  Solution sol;
  double s = s0;
  for (int it = 1; it <= max_iter; ++it) {
    // A float s for the kernel; the smallest positive float keeps s > 0 for s0 ~ 1e-46.
    const float sf = std::max(std::min(static_cast<float>(std::min(s, double(cap))), cap),
                              std::numeric_limits<float>::denorm_min());
    Sums sums;
    v.run(x, n, sf, &sums);
    const double next =
        sums.sum_abs_above / (noise * static_cast<double>(sums.count_small) + static_cast<double>(sums.count_above));
    const bool done = std::fabs(next - sf) <= rel_tol * sf;
    s = next;
    sol.iterations = it;
    if (done) { sol.converged = true; break; }
  }
  sol.s = s;
  return sol;
}

const Variant& active() { return active_variant(variants()); }

}  // namespace nnuelab::octav_step
