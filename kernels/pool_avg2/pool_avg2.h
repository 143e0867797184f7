// Op `pool_avg2`: 2 -> 1 average pooling of uint8 activations (reference/pool.h).
//   out[i] = (in[i] + in[i + n/2] + 1) >> 1      uint8[n] -> uint8[n/2], n even
// Rounds half up, exactly avg_epu8. Output in canonical order.
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::pool_avg2 {

struct Shape {
  int n = 0;  // input elements (even); n / 2 outputs

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::pool_avg2

#define NNUELAB_POOL_AVG2_KERNEL(tech)                                                           \
  const char* tech##_supports(const ::nnuelab::pool_avg2::Shape& shape);                          \
  void tech##_run(const ::nnuelab::pool_avg2::Shape& shape, const std::uint8_t* input, std::uint8_t* output, \
                  std::uint64_t* bits);
