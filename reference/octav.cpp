#include "reference/octav.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace nnuelab::ref {
namespace {

[[noreturn]] void fail(const char* op, const std::string& what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
}

void check_tensor(const char* op, const float* x, size_t n) {
    if (n == 0) fail(op, "n == 0 (empty tensor)");
    if (x == nullptr) fail(op, "x is null");
    for (size_t i = 0; i < n; ++i) {
        if (!std::isfinite(x[i])) fail(op, "x[" + std::to_string(i) + "] is NaN or infinite");
    }
}

void check_nonzero(const char* op, const float* x, size_t n) {
    if (std::all_of(x, x + n, [](float v) { return v == 0.0f; }))
        fail(op, "tensor has no non-zero element (nothing to clip)");
}

void check_clip(const char* op, const char* name, double s) {
    if (!std::isfinite(s) || s <= 0.0)
        fail(op, std::string(name) + " = " + std::to_string(s) + " must be finite and > 0");
}

void check_bits(const char* op, int bits, int max_bits) {
    if (bits < 2 || bits > max_bits)
        fail(op, "bits = " + std::to_string(bits) + " is outside 2.." + std::to_string(max_bits));
}

// The clamp happens in double, before the conversion to an integer type, so a
// huge x / step can never make the conversion undefined.
double quantize_one(float x, double step, double qmin, double qmax) {
    return std::clamp(std::nearbyint(static_cast<double>(x) / step), qmin, qmax);
}

template <typename T>
void quantize_to(const char* op, const float* x, size_t n, double s, int bits, int max_bits,
                 T* out) {
    check_tensor(op, x, n);
    check_clip(op, "s", s);
    check_bits(op, bits, max_bits);
    if (out == nullptr) fail(op, "out is null");
    const double half = std::ldexp(1.0, bits - 1);  // 2^(B-1), exact
    const double step = s / half;
    for (size_t i = 0; i < n; ++i) {
        out[i] = static_cast<T>(quantize_one(x[i], step, -half, half - 1.0));
    }
}

}  // namespace

OctavSums octav_step(const float* x, size_t n, double s) {
    const char* op = "octav_step";
    check_tensor(op, x, n);
    check_nonzero(op, x, n);
    check_clip(op, "s", s);
    OctavSums sums{0.0, 0, 0};
    for (size_t i = 0; i < n; ++i) {
        const double a = std::fabs(static_cast<double>(x[i]));
        if (a > s) {
            sums.sum_abs_above += a;
            ++sums.count_above;
        } else if (a > 0.0) {
            ++sums.count_small;
        }
    }
    return sums;
}

double octav_next(const OctavSums& sums, int bits) {
    const char* op = "octav_next";
    check_bits(op, bits, 16);
    if (sums.count_small < 0 || sums.count_above < 0) fail(op, "negative count");
    if (!std::isfinite(sums.sum_abs_above) || sums.sum_abs_above < 0.0)
        fail(op, "sum_abs_above must be finite and >= 0");
    if (sums.count_small == 0 && sums.count_above == 0)
        fail(op, "both counts are zero (tensor has no non-zero element)");
    // 4^-B / 3: the rounding noise of a step s / 2^(B-1) is step^2 / 12.
    const double noise = std::ldexp(1.0, -2 * bits) / 3.0;
    return sums.sum_abs_above /
           (noise * static_cast<double>(sums.count_small) + static_cast<double>(sums.count_above));
}

OctavResult octav_solve(const float* x, size_t n, int bits, double s0, int max_iter,
                        double rel_tol) {
    const char* op = "octav_solve";
    check_tensor(op, x, n);
    check_nonzero(op, x, n);
    check_bits(op, bits, 16);
    check_clip(op, "s0", s0);
    if (max_iter < 1) fail(op, "max_iter = " + std::to_string(max_iter) + " must be >= 1");
    if (!std::isfinite(rel_tol) || rel_tol < 0.0) fail(op, "rel_tol must be finite and >= 0");

    double max_abs = 0.0;
    for (size_t i = 0; i < n; ++i) max_abs = std::max(max_abs, std::fabs(static_cast<double>(x[i])));
    // Largest s that still clips the element(s) of largest magnitude (see header).
    const double s_cap = std::nextafter(max_abs, 0.0);

    double s = s0;
    for (int it = 1; it <= max_iter; ++it) {
        s = std::min(s, s_cap);
        // s > 0 holds: the cap is > 0 and every iterate is the mean-like ratio of
        // a non-empty set of positive |x| (count_above >= 1 below the cap).
        const double next = octav_next(octav_step(x, n, s), bits);
        const bool done = std::fabs(next - s) <= rel_tol * s;
        s = next;
        if (done) return {s, it, true};
    }
    return {s, max_iter, false};
}

double quantize_mse(const float* x, size_t n, double s, int bits) {
    const char* op = "quantize_mse";
    check_tensor(op, x, n);
    check_clip(op, "s", s);
    check_bits(op, bits, 16);
    const double half = std::ldexp(1.0, bits - 1);
    const double step = s / half;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double err = static_cast<double>(x[i]) - quantize_one(x[i], step, -half, half - 1.0) * step;
        sum += err * err;
    }
    return sum / static_cast<double>(n);
}

void quantize_i8(const float* x, size_t n, double s, int bits, int8_t* out) {
    quantize_to("quantize_i8", x, n, s, bits, 8, out);
}

void quantize_i16(const float* x, size_t n, double s, int bits, int16_t* out) {
    quantize_to("quantize_i16", x, n, s, bits, 16, out);
}

}  // namespace nnuelab::ref
