// OCTAV: MSE-optimal clipping scalar for symmetric uniform quantization
// (Sakr et al., "Optimal Clipping and Magnitude-aware Differentiation for
// Improved Quantization-aware Training", ICML 2022).
//
// Model: quantizing with clip s and B bits costs, per element, clipping error
// (|x| - s)^2 where |x| > s, plus uniform rounding noise step^2 / 12 =
// 4^-B s^2 / 3 where 0 < |x| <= s (zeros are exact on a symmetric grid and
// cost nothing). Setting the derivative of that modelled MSE to zero (its smooth
// part: the small upward jump as an element crosses from clipped to rounded is
// ignored) gives the fixed point
//   s = sum_{|x|>s} |x|  /  (4^-B / 3 * #{0 < |x| <= s} + #{|x| > s})
// which octav_solve reaches by fixed-point iteration.
// How close that is to the best s (measured in the tests, Gaussian data): the
// modelled MSE at OCTAV's s is within 0.1% of its own minimum. The real B-bit
// quantizer below has 2^B levels, top positive level s - step, whereas the
// noise term 4^-B s^2 / 3 describes 2^B + 1 levels -2^(B-1)..2^(B-1); so its
// best s lies higher, ~5% at B = 4 (MSE +2%), and ~0.5% or less at B = 8.
//
// Quantizer (quantize_*, quantize_mse): step = s / 2^(B-1),
//   q = clamp(round_half_to_even(x / step), -2^(B-1), 2^(B-1) - 1),
// rounding done with std::nearbyint in double, under the default rounding mode
// (FE_TONEAREST: ties to even); a caller that changed the mode gets other ties.
// Dequantized value q * step.
//
// Domain and errors (std::invalid_argument, message names the function):
//   every function: n == 0, x null, any NaN or infinite element.
//   s (octav_step, quantize_*): s <= 0 or not finite. s0 likewise for octav_solve.
//   octav_step, octav_solve: a tensor with no non-zero element (nothing to clip).
//   bits: 2..16 for octav_next, octav_solve, quantize_mse and quantize_i16;
//         2..8 for quantize_i8.
//   octav_next: negative counts, sum_abs_above negative or not finite, or both
//   counts zero. octav_solve: max_iter < 1, rel_tol negative or not finite.
// quantize_* and quantize_mse accept an all-zero tensor (s is given).
#pragma once

#include <cstddef>
#include <cstdint>

namespace nnuelab::ref {

struct OctavSums {
    double sum_abs_above;  // sum of |x| over |x| > s
    int64_t count_small;   // #{0 < |x| <= s}
    int64_t count_above;   // #{|x| > s}
};

// The three sums for threshold s, in double / int64, elements taken as double.
OctavSums octav_step(const float* x, size_t n, double s);

// sum_abs_above / (4^-bits / 3 * count_small + count_above), in double.
double octav_next(const OctavSums& sums, int bits);

struct OctavResult {
    double s;        // the last iterate
    int iterations;  // number of octav_next evaluations performed
    bool converged;  // |s_next - s| <= rel_tol * s was reached within max_iter
};

// Iterates s <- octav_next(octav_step(x, n, s), bits) from s0 until
// |s_next - s| <= rel_tol * s, at most max_iter times. Before each step s is
// capped just below max|x| (the largest double under it): at or above max|x|
// nothing is clipped, the numerator is 0 and the iteration would collapse to
// s = 0, while the optimum never lies above max|x| (a larger clip clips nothing
// and only coarsens the step). The cap lets a start far above the answer work.
OctavResult octav_solve(const float* x, size_t n, int bits, double s0, int max_iter = 100,
                        double rel_tol = 1e-9);

// Mean over all n elements of (x - q * step)^2 with the quantizer above, in double.
double quantize_mse(const float* x, size_t n, double s, int bits);

// The quantizer above; out[i] = q. bits 2..8.
void quantize_i8(const float* x, size_t n, double s, int bits, int8_t* out);

// The quantizer above; out[i] = q. bits 2..16.
void quantize_i16(const float* x, size_t n, double s, int bits, int16_t* out);

}  // namespace nnuelab::ref
