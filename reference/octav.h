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


// ---------------------------------------------------------------------------------------
// The symmetric quantizer of the `quantize` op, and OCTAV matched to it.
//
// Why a second quantizer: the one above (2^B levels, top positive level s - step) is not
// the one OCTAV's noise term describes, so its brute-force optimum sits ~5% above OCTAV's
// s at B = 4 (MSE +2%). The `quantize` op instead implements NNUE's own form:
//   L = 2^(B-1) - 1 positive levels, q in -L..L (2^B - 1 levels, symmetric, so the clip is
//   exactly s on both sides and zero is a level), step = s / L,
//   scale = float(L) / s              one IEEE float division (so every variant agrees)
//   q = clamp(roundeven(x * scale), -L, L)   float multiply, ties to even.
// At B = 8 and s = 127/64, scale is exactly 64 and this is Stockfish's hidden-layer
// quantizer round(w * 64) in -127..127; at B = 16 and s = 32767/127 it is the transformer's
// round(w * 127). Its rounding noise is step^2 / 12 = s^2 / (12 L^2), so the OCTAV fixed
// point matched to it uses the noise coefficient 1 / (12 L^2) in place of 4^-B / 3 =
// 1 / (12 (L + 1)^2) (the formula, which models 2^B + 1 levels).
// Domain: finite x; s finite, > 0, and float(L) / s finite; bits 2..8 (i8) or 2..16 (i16).

enum class OctavNoise {
    kWritten,    // 4^-B / 3: the formula as published (step s * 2^(1-B))
    kSymmetric,  // 1 / (12 L^2), L = 2^(B-1) - 1: the step of quantize_sym (s / L)
};
// The noise coefficient c of s = sum / (c * count_small + count_above). bits 2..16.
double octav_noise(int bits, OctavNoise noise);
const char* octav_noise_name(OctavNoise noise);  // "written" / "symmetric"

// sum_abs_above / (noise * count_small + count_above), in double; the checks of octav_next.
double octav_next_with(const OctavSums& sums, double noise);

// octav_solve with an explicit noise coefficient (octav_solve uses octav_noise(bits, kWritten)).
OctavResult octav_solve_with(const float* x, size_t n, double noise, double s0, int max_iter = 100,
                             double rel_tol = 1e-9);

// L = 2^(bits-1) - 1.
int quantize_sym_levels(int bits);
// float(L) / s, after the domain checks (std::invalid_argument naming `op`).
float quantize_sym_scale(const char* op, float s, int bits, int max_bits);
// The symmetric quantizer, element by element (the executable spec of the `quantize` op).
void quantize_sym_i8(const float* x, size_t n, float s, int bits, int8_t* out);
void quantize_sym_i16(const float* x, size_t n, float s, int bits, int16_t* out);
// Mean over n of (x - q * s / L)^2 in double, q as quantize_sym_* computes it. bits 2..16.
double quantize_sym_mse(const float* x, size_t n, float s, int bits);

// Brute force: quantize_sym_mse at s = hi * k / coarse for k = 1..coarse, then at `fine`
// evenly spaced points over the two coarse intervals around the best one (s rounded to
// float, as the quantizer takes it). The best (s, mse) seen; evaluations = calls made.
struct SweepResult {
    double s = 0, mse = 0;
    int evaluations = 0;
};
SweepResult quantize_sym_sweep(const float* x, size_t n, int bits, double hi, int coarse = 1000,
                               int fine = 1000);

}  // namespace nnuelab::ref
