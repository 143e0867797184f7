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
    return octav_next_with(sums, octav_noise(bits, OctavNoise::kWritten));
}

double octav_next_with(const OctavSums& sums, double noise) {
    const char* op = "octav_next";
    if (!std::isfinite(noise) || noise <= 0.0) fail(op, "noise coefficient must be finite and > 0");
    if (sums.count_small < 0 || sums.count_above < 0) fail(op, "negative count");
    if (!std::isfinite(sums.sum_abs_above) || sums.sum_abs_above < 0.0)
        fail(op, "sum_abs_above must be finite and >= 0");
    if (sums.count_small == 0 && sums.count_above == 0)
        fail(op, "both counts are zero (tensor has no non-zero element)");
    return sums.sum_abs_above /
           (noise * static_cast<double>(sums.count_small) + static_cast<double>(sums.count_above));
}

double octav_noise(int bits, OctavNoise noise) {
    check_bits("octav_noise", bits, 16);
    if (noise == OctavNoise::kWritten) {
        // 4^-B / 3: the rounding noise of a step s / 2^(B-1) is step^2 / 12.
        return std::ldexp(1.0, -2 * bits) / 3.0;
    }
    const double levels = std::ldexp(1.0, bits - 1) - 1.0;  // step s / L
    return 1.0 / (12.0 * levels * levels);
}

const char* octav_noise_name(OctavNoise noise) {
    return noise == OctavNoise::kWritten ? "written" : "symmetric";
}

OctavResult octav_solve(const float* x, size_t n, int bits, double s0, int max_iter,
                        double rel_tol) {
    check_bits("octav_solve", bits, 16);
    return octav_solve_with(x, n, octav_noise(bits, OctavNoise::kWritten), s0, max_iter, rel_tol);
}

OctavResult octav_solve_with(const float* x, size_t n, double noise, double s0, int max_iter,
                             double rel_tol) {
    const char* op = "octav_solve";
    check_tensor(op, x, n);
    check_nonzero(op, x, n);
    if (!std::isfinite(noise) || noise <= 0.0) fail(op, "noise coefficient must be finite and > 0");
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
        const double next = octav_next_with(octav_step(x, n, s), noise);
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


// ------------------------------------------------------------------ symmetric quantizer

int quantize_sym_levels(int bits) { return (1 << (bits - 1)) - 1; }

float quantize_sym_scale(const char* op, float s, int bits, int max_bits) {
    check_bits(op, bits, max_bits);
    if (!std::isfinite(s) || s <= 0.0f)
        fail(op, "s = " + std::to_string(s) + " must be finite and > 0");
    const float scale = static_cast<float>(quantize_sym_levels(bits)) / s;
    if (!std::isfinite(scale))
        fail(op, "s = " + std::to_string(s) + " is so small that L / s overflows float");
    return scale;
}

namespace {

// roundeven(x * scale) clamped to -L..L, all in float. Clamping before rounding gives the
// same result (L is an integer) and keeps the conversion in range. std::nearbyint rounds
// ties to even under the default rounding mode, which the lab never changes.
float quantize_sym_one(float x, float scale, float levels) {
    return std::nearbyint(std::clamp(x * scale, -levels, levels));
}

template <typename T>
void quantize_sym_to(const char* op, const float* x, size_t n, float s, int bits, int max_bits, T* out) {
    check_tensor(op, x, n);
    const float scale = quantize_sym_scale(op, s, bits, max_bits);
    if (out == nullptr) fail(op, "out is null");
    const float levels = static_cast<float>(quantize_sym_levels(bits));
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<T>(quantize_sym_one(x[i], scale, levels));
}

}  // namespace

void quantize_sym_i8(const float* x, size_t n, float s, int bits, int8_t* out) {
    quantize_sym_to("quantize_sym_i8", x, n, s, bits, 8, out);
}

void quantize_sym_i16(const float* x, size_t n, float s, int bits, int16_t* out) {
    quantize_sym_to("quantize_sym_i16", x, n, s, bits, 16, out);
}

namespace {

// The same value as quantize_sym_one, vectorisable (the sweep calls this thousands of
// times): for |y| <= L <= 32767 < 2^22, adding and subtracting 1.5 * 2^23 rounds y to an
// integer, ties to even, in the default rounding mode (no -ffast-math here). A test checks
// quantize_sym_mse against quantize_sym_i16's q.
double sym_mse_unchecked(const float* x, size_t n, float s, float scale, float levels) {
    const double step = static_cast<double>(s) / levels;
    const float magic = 0x1.8p23f;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const float y = std::min(std::max(x[i] * scale, -levels), levels);
        const float q = (y + magic) - magic;
        const double err = static_cast<double>(x[i]) - static_cast<double>(q) * step;
        sum += err * err;
    }
    return sum;
}

}  // namespace

double quantize_sym_mse(const float* x, size_t n, float s, int bits) {
    const char* op = "quantize_sym_mse";
    check_tensor(op, x, n);
    const float scale = quantize_sym_scale(op, s, bits, 16);
    const float levels = static_cast<float>(quantize_sym_levels(bits));
    return sym_mse_unchecked(x, n, s, scale, levels) / static_cast<double>(n);
}

SweepResult quantize_sym_sweep(const float* x, size_t n, int bits, double hi, int coarse, int fine) {
    const char* op = "quantize_sym_sweep";
    check_tensor(op, x, n);
    check_bits(op, bits, 16);
    if (!std::isfinite(hi) || hi <= 0.0) fail(op, "hi must be finite and > 0");
    if (coarse < 1 || fine < 1) fail(op, "coarse and fine must be >= 1");
    const float levels = static_cast<float>(quantize_sym_levels(bits));
    SweepResult best;
    best.mse = std::numeric_limits<double>::infinity();
    auto eval = [&](double sd) {
        const float s = static_cast<float>(sd);
        const float scale = levels / s;
        if (!(s > 0.0f) || !std::isfinite(scale)) return;
        const double mse = sym_mse_unchecked(x, n, s, scale, levels) / static_cast<double>(n);
        ++best.evaluations;
        if (mse < best.mse) best.mse = mse, best.s = s;
    };
    const double h = hi / coarse;
    for (int k = 1; k <= coarse; ++k) eval(h * k);
    const double center = best.s;
    for (int k = 0; k <= fine; ++k) eval(center - h + 2.0 * h * k / fine);
    return best;
}

}  // namespace nnuelab::ref
