// Op `pool_max2`: 2 -> 1 max pooling of uint8 activations (reference/pool.h).
//   out[i] = max(in[i], in[i + n/2])      uint8[n] -> uint8[n/2], n even
// Exactly max_epu8. Output in canonical order.
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::pool_max2 {

struct Shape {
  int n = 0;  // input elements (even); n / 2 outputs

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::pool_max2

#define NNUELAB_POOL_MAX2_KERNEL(tech)                                                           \
  const char* tech##_supports(const ::nnuelab::pool_max2::Shape& shape);                          \
  void tech##_run(const ::nnuelab::pool_max2::Shape& shape, const std::uint8_t* input, std::uint8_t* output, \
                  std::uint64_t* bits);
