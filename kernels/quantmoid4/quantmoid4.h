// Op `quantmoid4`: the piece-wise quadratic sigmoid(4x) of nnue-pytorch, see
// reference/quantmoid4.h:
//   d = 127 - min(|x|, 127);  m = (d * d) >> 8;  out = x < 0 ? m : 126 - m
// int16[n] -> uint8[n] in 0..126, for every int16 input.
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::quantmoid4 {

struct Shape {
  int n = 0;  // elements

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::quantmoid4

#define NNUELAB_QUANTMOID4_KERNEL(tech)                                          \
  const char* tech##_supports(const ::nnuelab::quantmoid4::Shape& shape);         \
  void tech##_run(const ::nnuelab::quantmoid4::Shape& shape, const std::int16_t* input, \
                  std::uint8_t* output, std::uint64_t* bits);
