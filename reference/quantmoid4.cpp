#include "reference/quantmoid4.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace nnuelab::ref {

void quantmoid4(const int16_t* in, int n, uint8_t* out) {
    if (n < 0) throw std::invalid_argument("quantmoid4: n is negative (" + std::to_string(n) + ")");
    if (n > 0 && (in == nullptr || out == nullptr))
        throw std::invalid_argument("quantmoid4: null pointer with n > 0");

    for (int i = 0; i < n; ++i) {
        const int32_t x = in[i];
        // Distance from the saturation point: the curve is flat beyond |x| = 127.
        const int32_t d = 127 - std::min(x < 0 ? -x : x, int32_t{127});
        // Half of the curve: a parabola from 0 (at |x| >= 127) up to 63 (at x = 0).
        const int32_t m = (d * d) >> 8;
        // Negative inputs take the lower half, the rest its mirror image.
        out[i] = static_cast<uint8_t>(x < 0 ? m : 126 - m);
    }
}

}  // namespace nnuelab::ref
