// The crelu32_pair registry: every variant of kernels/crelu32_pair/crelu32_pair.inc, plus checked entry points.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "kernels/crelu32_pair/crelu32_pair.h"
#include "kernels/common/elementwise.h"

namespace nnuelab::crelu32_pair {

// order_lanes (declared by NNUELAB_VARIANT_LANES lines, the *_lanes forms): 1 = canonical
// output order; L > 1 = each half in the packs' order over L 128-bit lanes.
using Variant = ElementwiseVariant<Shape, std::int32_t, std::uint8_t>;

std::span<const Variant> variants();
std::string shape_name(const Shape& s);
// Empty when supported, else the reason (the op's own limits included).
std::string why_unsupported(const Variant& v, const Shape& s);
// Validates shape and buffers (std::invalid_argument with the reason), then runs.
// output: 2 * s.n bytes (the squared half, then the clipped half), in output_order(v, s).
// bits: the output's nnz bitset (nnz_bitset_words(2 * s.n) words, describing the bytes as
// produced), for *_bits variants only.
void run(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output /* 2n */,
         std::uint64_t* bits = nullptr);

// The inlined form (Variant::run_many): `count` calls back to back, call c reading
// input + c * n and writing output + c * 2n, (*_bits) bits + c * nnz_(*_bits) bitset_words(2n);
// the same checks as run, and count >= 0. Every crelu32_pair variant has it.
void run_many(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t* bits,
              int count);

// Runs the variant a program should use (NNUELAB_FORCE_VARIANT's, or the best available
// native one) and returns it, so callers and tests can see which one ran. Never a *_bits
// or *_lanes variant unless forced.
const Variant& run_active(const Shape& s, const std::int32_t* input, std::uint8_t* output);

// For each produced output position p < 2n, the canonical index (reference out[i]) it
// holds: the identity for in-order variants; for *_lanes ones each half's packs order,
// the halves in place. Throws for a shape the variant refuses. The next layer absorbs it
// with permute_next_layer_columns (kernels/common/lane_order.h).
std::vector<int> output_order(const Variant& v, const Shape& s);

}  // namespace nnuelab::crelu32_pair
