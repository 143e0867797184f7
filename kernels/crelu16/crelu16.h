// Op `crelu16`: ClippedReLU of the int16 feature-transformer accumulator.
//   out[i] = clamp(in[i], 0, 127)        int16 -> uint8, for every int16 input
// Output in canonical order (a variant that permutes lanes must declare it).
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::crelu16 {

struct Shape {
  int n = 0;  // elements

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::crelu16

#define NNUELAB_CRELU16_KERNEL(tech)                                          \
  const char* tech##_supports(const ::nnuelab::crelu16::Shape& shape);         \
  void tech##_run(const ::nnuelab::crelu16::Shape& shape, const std::int16_t* input, \
                  std::uint8_t* output, std::uint64_t* bits);
