// Op `ft_output`: the fused feature-transformer output, i.e. ClippedReLU of the int16
// accumulator then 2 -> 1 product pooling of i with i + n/2 (reference/pool.h), in two
// forms that are different functions (a net is trained for one of them):
//   clamp127:  out[i] = (clamp(a, 0, 127) * clamp(b, 0, 127)) >> 7    in 0..126
//   clamp255:  out[i] = (clamp(a, 0, 255) * clamp(b, 0, 255)) >> 9    in 0..127
// for every int16 input. int16[n] -> uint8[n/2], n even.
//
// Output order: canonical, unless the registry line declares packus lanes > 1
// (NNUELAB_VARIANT_LANES): then the bytes stay in packus' per-128-bit-lane order, given by
// packus_lane_order (kernels/common/lane_order.h) and ft_output::output_order, and the
// next layer's prepare absorbs it (permute_next_layer_columns). *_bits variants also
// write the nnz bitset of the bytes as produced.
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::ft_output {

enum class Form : int { kClamp127 = 0, kClamp255 = 1 };

struct Shape {
  int n = 0;  // accumulator elements (even); n / 2 outputs
  Form form = Form::kClamp127;

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::ft_output

#define NNUELAB_FT_OUTPUT_KERNEL(tech)                                                            \
  const char* tech##_supports(const ::nnuelab::ft_output::Shape& shape);                          \
  void tech##_run(const ::nnuelab::ft_output::Shape& shape, const std::int16_t* input, std::uint8_t* output, \
                  std::uint64_t* bits);
