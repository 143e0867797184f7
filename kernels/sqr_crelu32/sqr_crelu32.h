// Op `sqr_crelu32`: squared clipped ReLU of an int32 affine output (Stockfish's
// SqrClippedReLU), see reference/sqr_crelu32.h:
//   out[i] = min(127, (x * x) >> (2 * shift + 7))   x = in[i] as int64; shift 0..28
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::sqr_crelu32 {

struct Shape {
  int n = 0;      // elements
  int shift = 0;  // the layer's weight-scale shift (0..28; Stockfish: 6)
};

}  // namespace nnuelab::sqr_crelu32

#define NNUELAB_SQR_CRELU32_KERNEL(tech)                                          \
  const char* tech##_supports(const ::nnuelab::sqr_crelu32::Shape& shape);         \
  void tech##_run(const ::nnuelab::sqr_crelu32::Shape& shape, const std::int32_t* input, \
                  std::uint8_t* output, std::uint64_t* bits);
