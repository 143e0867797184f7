// Op `octav_step`: one pass of OCTAV (optimally clipped tensors and vectors) over a float
// tensor for a clipping scalar s, the three sums of the fixed point
//   s' = sum_abs_above / (c * count_small + count_above):
//   sum_abs_above = sum of |x| over |x| > s
//   count_small   = #{0 < |x| <= s}      (zeros are exact on a symmetric grid: excluded)
//   count_above   = #{|x| > s}
// The comparisons are exact in float, so the counts are bit-exact across variants. The sum
// is accumulated in float, with every float partial sum covering at most kBlock = 1024
// consecutive elements of one aligned block (x[1024k .. 1024k+1023]), and the block sums
// added in double. All terms are >= 0, so each block sum is within (1023 u) / (1 - 1023 u)
// ~ 6.1e-5 (u = 2^-24) of its exact value, and so is the total: variants are checked
// against the double reference with relative tolerance kSumRelTol = 1e-4.
// Domain (enforced by the checked entry, octav_step::run): n >= 1, finite x with
// |x| <= 1e30 (1024 of them cannot overflow a float partial sum), s finite and > 0.
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstddef>
#include <cstdint>

namespace nnuelab::octav_step {

constexpr std::size_t kBlock = 1024;
constexpr double kSumRelTol = 1e-4;
constexpr float kMaxAbs = 1e30f;

struct Sums {
  double sum_abs_above = 0;
  std::int64_t count_small = 0;
  std::int64_t count_above = 0;
};

}  // namespace nnuelab::octav_step

#define NNUELAB_OCTAV_STEP_KERNEL(tech) \
  void tech##_run(const float* x, std::size_t n, float s, ::nnuelab::octav_step::Sums* out);
