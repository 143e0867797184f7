#include "reference/affine.h"

#include <stdexcept>

namespace nnuelab::ref {

void affine(const std::int8_t* weights, const std::int32_t* bias, int in, int out,
            const std::uint8_t* x, std::int32_t* y) {
  if (in < 1 || out < 1) throw std::invalid_argument("ref::affine: in and out must be >= 1");
  for (int o = 0; o < out; ++o) {
    std::int64_t sum = bias[o];
    for (int i = 0; i < in; ++i) sum += std::int64_t(weights[std::int64_t(o) * in + i]) * x[i];
    if (sum < INT32_MIN || sum > INT32_MAX)
      throw std::invalid_argument("ref::affine: output leaves int32 (input outside the domain?)");
    y[o] = std::int32_t(sum);
  }
}

}  // namespace nnuelab::ref
