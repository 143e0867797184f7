#include "reference/sqr_crelu32.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace nnuelab::ref {
namespace {

[[noreturn]] void fail(const std::string& what) {
    throw std::invalid_argument("sqr_crelu32: " + what);
}

}  // namespace

void sqr_crelu32(const int32_t* in, int n, int shift, uint8_t* out) {
    if (n < 0) fail("n is negative (" + std::to_string(n) + ")");
    if (shift < 0 || shift > 28) fail("shift = " + std::to_string(shift) + " is outside 0..28");
    if (n > 0 && (in == nullptr || out == nullptr)) fail("null pointer with n > 0");

    for (int i = 0; i < n; ++i) {
        const int64_t x = in[i];
        const int64_t sq = (x * x) >> (2 * shift + 7);  // x * x >= 0: floor division
        out[i] = static_cast<uint8_t>(std::min<int64_t>(127, sq));
    }
}

}  // namespace nnuelab::ref
