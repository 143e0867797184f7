// The pool_product2 registry: every variant of kernels/pool_product2/pool_product2.inc,
// plus checked entry points.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "kernels/common/elementwise.h"
#include "kernels/pool_product2/pool_product2.h"

namespace nnuelab::pool_product2 {

// order_lanes (declared by NNUELAB_VARIANT_LANES lines, the *_lanes forms): 1 = canonical
// output order; L > 1 = packus' order over L 128-bit lanes (packus_lane_order).
using Variant = ElementwiseVariant<Shape, std::int16_t, std::uint8_t>;

std::span<const Variant> variants();
std::string shape_name(const Shape& s);
// Empty when supported, else the reason (the op's own limits: n even, 2..1048576).
std::string why_unsupported(const Variant& v, const Shape& s);
// Validates shape and buffers (std::invalid_argument with the reason), then runs. Does
// not scan the input: values outside 0..127 give unspecified output (see pool_product2.h).
// output: n / 2 bytes in output_order(v, s); bits: nnz_bitset_words(n / 2) words, for
// *_bits variants only, describing the bytes as produced.
void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output,
         std::uint64_t* bits = nullptr);

// For each produced output position p < n/2, the canonical index i (reference out[i]) it
// holds: the identity for in-order variants. Throws for a shape the variant refuses. The
// next layer absorbs it with permute_next_layer_columns (kernels/common/lane_order.h).
std::vector<int> output_order(const Variant& v, const Shape& s);

}  // namespace nnuelab::pool_product2
