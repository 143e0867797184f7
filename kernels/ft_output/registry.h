// The ft_output registry: every variant of kernels/ft_output/ft_output.inc, their declared
// output orders, and checked entry points.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "kernels/common/elementwise.h"
#include "kernels/common/lane_order.h"
#include "kernels/ft_output/ft_output.h"

namespace nnuelab::ft_output {

// order_lanes (declared by NNUELAB_VARIANT_LANES lines): 1 = canonical output order;
// L > 1 = packus' order over L 128-bit lanes (packus_lane_order).
using Variant = ElementwiseVariant<Shape, std::int16_t, std::uint8_t>;

std::span<const Variant> variants();
std::string shape_name(const Shape& s);  // "clamp255_2048"
const char* form_name(Form f);           // "clamp127", "clamp255"
// Empty when supported, else the reason (the op's own limits: n even, 2..1048576, a
// known form).
std::string why_unsupported(const Variant& v, const Shape& s);
// Validates shape and buffers (std::invalid_argument with the reason), then runs.
// output: n / 2 bytes in output_order(v, s); bits: nnz_bitset_words(n / 2) words, for
// *_bits variants only, describing the bytes as produced.
void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output,
         std::uint64_t* bits = nullptr);

// For each produced output position p < n/2, the canonical index i (reference out[i]) it
// holds. The identity for in-order variants. Throws for a shape the variant refuses.
std::vector<int> output_order(const Variant& v, const Shape& s);

// The next layer's load-time half of a permuted pair: permute_next_layer_columns
// (kernels/common/lane_order.h) with this order.

}  // namespace nnuelab::ft_output
