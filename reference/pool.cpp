#include "reference/pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace nnuelab::ref {
namespace {

[[noreturn]] void fail(const char* op, const std::string& what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
}

void check_shape(const char* op, const void* in, int n, const void* out) {
    if (n < 0) fail(op, "n is negative (" + std::to_string(n) + ")");
    if (n % 2 != 0) fail(op, "n = " + std::to_string(n) + " is odd (inputs are paired)");
    if (n > 0 && (in == nullptr || out == nullptr)) fail(op, "null pointer with n > 0");
}

int32_t clamp_to(int16_t x, int32_t hi) { return std::clamp<int32_t>(x, 0, hi); }

}  // namespace

void pool_avg2(const uint8_t* in, int n, uint8_t* out) {
    check_shape("pool_avg2", in, n, out);
    const int h = n / 2;
    for (int i = 0; i < h; ++i) {
        // int arithmetic holds the 9-bit sum, as the instruction does internally.
        out[i] = static_cast<uint8_t>((in[i] + in[i + h] + 1) >> 1);
    }
}

void pool_max2(const uint8_t* in, int n, uint8_t* out) {
    check_shape("pool_max2", in, n, out);
    const int h = n / 2;
    for (int i = 0; i < h; ++i) out[i] = std::max(in[i], in[i + h]);
}

void pool_product2(const int16_t* in, int n, uint8_t* out) {
    const char* op = "pool_product2";
    check_shape(op, in, n, out);
    // Validate everything first so a bad input leaves out untouched.
    for (int i = 0; i < n; ++i) {
        if (in[i] < 0 || in[i] > 127)
            fail(op, "in[" + std::to_string(i) + "] = " + std::to_string(in[i]) +
                         " is outside 0..127");
    }
    const int h = n / 2;
    for (int i = 0; i < h; ++i) out[i] = static_cast<uint8_t>((in[i] * in[i + h]) >> 7);
}

void ft_output_clamp127(const int16_t* acc, int n, uint8_t* out) {
    check_shape("ft_output_clamp127", acc, n, out);
    const int h = n / 2;
    for (int i = 0; i < h; ++i) {
        out[i] = static_cast<uint8_t>((clamp_to(acc[i], 127) * clamp_to(acc[i + h], 127)) >> 7);
    }
}

void ft_output_clamp255(const int16_t* acc, int n, uint8_t* out) {
    check_shape("ft_output_clamp255", acc, n, out);
    const int h = n / 2;
    for (int i = 0; i < h; ++i) {
        out[i] = static_cast<uint8_t>((clamp_to(acc[i], 255) * clamp_to(acc[i + h], 255)) >> 9);
    }
}

}  // namespace nnuelab::ref
