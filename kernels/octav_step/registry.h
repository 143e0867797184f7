// The octav_step registry: every variant of kernels/octav_step/octav_step.inc, the checked
// entry point, and OCTAV's fixed-point solver running on any variant.
#pragma once
#include <cstddef>
#include <span>
#include <string>

#include "kernels/common/variant.h"
#include "kernels/octav_step/octav_step.h"

namespace nnuelab::octav_step {

struct Variant {
  VariantInfo info;
  void (*run)(const float* x, std::size_t n, float s, Sums* out);
};

std::span<const Variant> variants();

// Empty when x[0..n) is a valid tensor for octav_step (n >= 1, not null, every element
// finite with |x| <= kMaxAbs, at least one non-zero), else the reason, naming the first
// bad index. One pass over the data: the solver checks once, then iterates unchecked.
std::string why_invalid_tensor(const float* x, std::size_t n);

// Validates (std::invalid_argument naming the variant and the reason: empty, all-zero,
// NaN/Inf or out-of-domain element, s not finite or <= 0, null out) and runs.
Sums run(const Variant& v, const float* x, std::size_t n, float s);

struct Solution {
  double s = 0;         // the last iterate (s*)
  int iterations = 0;   // octav_step passes made
  bool converged = false;
};

// OCTAV's fixed point s <- sum_abs_above / (noise * count_small + count_above) with the
// variant's sums, from s0 until |s' - s| <= rel_tol * s (at most max_iter passes). As in
// ref::octav_solve, s is capped below max|x| before each pass (at or above it nothing is
// clipped and the iteration would collapse to 0), and the kernel sees s rounded to float.
// noise: ref::octav_noise(bits, ...). Throws std::invalid_argument on a bad tensor (see
// why_invalid_tensor), s0 or noise not finite and > 0, max_iter < 1.
Solution solve(const Variant& v, const float* x, std::size_t n, double noise, double s0,
               int max_iter = 100, double rel_tol = 1e-6);

// The variant a program should use (NNUELAB_FORCE_VARIANT's, or the best available native one).
const Variant& active();

}  // namespace nnuelab::octav_step
