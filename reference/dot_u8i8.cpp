#include "reference/dot_u8i8.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace nnuelab::ref {
namespace {

void check(const char* op, const int32_t* acc, const uint8_t* u, const int8_t* w, int groups) {
    if (groups < 0)
        throw std::invalid_argument(std::string(op) + ": groups is negative (" +
                                    std::to_string(groups) + ")");
    if (groups > 0 && (acc == nullptr || u == nullptr || w == nullptr))
        throw std::invalid_argument(std::string(op) + ": null pointer with groups > 0");
}

int32_t product(const uint8_t* u, const int8_t* w, int j) { return int32_t{u[j]} * int32_t{w[j]}; }

// C++20 defines narrowing conversions of integers as reduction modulo 2^N.
int32_t wrap32(int64_t v) { return static_cast<int32_t>(v); }
int16_t wrap16(int32_t v) { return static_cast<int16_t>(v); }

int32_t sat16(int32_t v) { return std::clamp<int32_t>(v, -32768, 32767); }

int32_t sat32(int64_t v) {
    return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                    std::numeric_limits<int32_t>::max()));
}

int32_t group_sum(const uint8_t* u, const int8_t* w) {
    return product(u, w, 0) + product(u, w, 1) + product(u, w, 2) + product(u, w, 3);
}

// pmaddubsw's saturated sum of the pair (2k, 2k+1).
int32_t pair_sum(const uint8_t* u, const int8_t* w, int k) {
    return sat16(product(u, w, 2 * k) + product(u, w, 2 * k + 1));
}

}  // namespace

void dot_u8i8_dpbusd(int32_t* acc, const uint8_t* u, const int8_t* w, int groups) {
    check("dot_u8i8_dpbusd", acc, u, w, groups);
    for (int g = 0; g < groups; ++g) {
        acc[g] = wrap32(int64_t{acc[g]} + group_sum(u + 4 * g, w + 4 * g));
    }
}

void dot_u8i8_dpbusds(int32_t* acc, const uint8_t* u, const int8_t* w, int groups) {
    check("dot_u8i8_dpbusds", acc, u, w, groups);
    for (int g = 0; g < groups; ++g) {
        acc[g] = sat32(int64_t{acc[g]} + group_sum(u + 4 * g, w + 4 * g));
    }
}

void dot_u8i8_maddubs(int32_t* acc, const uint8_t* u, const int8_t* w, int groups) {
    check("dot_u8i8_maddubs", acc, u, w, groups);
    for (int g = 0; g < groups; ++g) {
        const uint8_t* ug = u + 4 * g;
        const int8_t* wg = w + 4 * g;
        acc[g] = wrap32(int64_t{acc[g]} + pair_sum(ug, wg, 0) + pair_sum(ug, wg, 1));
    }
}

void dot_u8i8_maddubs_x2(int32_t* acc, const uint8_t* u, const int8_t* w, const uint8_t* u2,
                         const int8_t* w2, int groups) {
    const char* op = "dot_u8i8_maddubs_x2";
    check(op, acc, u, w, groups);
    check(op, acc, u2, w2, groups);
    for (int g = 0; g < groups; ++g) {
        const uint8_t *ua = u + 4 * g, *ub = u2 + 4 * g;
        const int8_t *wa = w + 4 * g, *wb = w2 + 4 * g;
        int64_t sum = acc[g];
        for (int k = 0; k < 2; ++k) {
            // The int16 add (paddw) wraps: this is the step that narrows the domain.
            sum += wrap16(pair_sum(ua, wa, k) + pair_sum(ub, wb, k));
        }
        acc[g] = wrap32(sum);
    }
}

void dot_u8i8_sdot(int32_t* acc, const uint8_t* u, const int8_t* w, int groups) {
    check("dot_u8i8_sdot", acc, u, w, groups);
    for (int g = 0; g < groups; ++g) {
        int32_t sum = 0;
        for (int j = 0; j < 4; ++j) sum += int32_t{static_cast<int8_t>(u[4 * g + j])} * int32_t{w[4 * g + j]};
        acc[g] = wrap32(int64_t{acc[g]} + sum);
    }
}

}  // namespace nnuelab::ref
