// The sqr_crelu32 registry: every variant of kernels/sqr_crelu32/sqr_crelu32.inc, plus checked entry points.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "kernels/sqr_crelu32/sqr_crelu32.h"
#include "kernels/common/elementwise.h"

namespace nnuelab::sqr_crelu32 {

// order_lanes (declared by NNUELAB_VARIANT_LANES lines, the *_lanes forms): 1 = canonical
// output order; L > 1 = the packs' order over L 128-bit lanes (packs32x2_lane_order).
using Variant = ElementwiseVariant<Shape, std::int32_t, std::uint8_t>;

std::span<const Variant> variants();
std::string shape_name(const Shape& s);
// Empty when supported, else the reason (the op's own limits included).
std::string why_unsupported(const Variant& v, const Shape& s);
// Validates shape and buffers (std::invalid_argument with the reason), then runs.
// output: n bytes in output_order(v, s); bits: their nnz bitset (nnz_bitset_words(s.n)
// words, describing the bytes as produced), for *_bits variants only.
void run(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output,
         std::uint64_t* bits = nullptr);

// The inlined form (Variant::run_many): `count` calls back to back, call c reading
// input + c * n and writing output + c * n (and, *_bits, bits + c * nnz_bitset_words(n));
// the same checks as run, and count >= 0. Every sqr_crelu32 variant has it.
void run_many(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t* bits,
              int count);

// Runs the variant a program should use (NNUELAB_FORCE_VARIANT's, or the best available
// native one) and returns it, so callers and tests can see which one ran. Never a *_bits
// or *_lanes variant unless forced.
const Variant& run_active(const Shape& s, const std::int32_t* input, std::uint8_t* output);

// For each produced output position p < n, the canonical index i it holds (the identity
// for in-order variants). Throws for a shape the variant refuses. The next layer absorbs it
// with permute_next_layer_columns (kernels/common/lane_order.h).
std::vector<int> output_order(const Variant& v, const Shape& s);

}  // namespace nnuelab::sqr_crelu32
