// The quantmoid4 registry: every variant of kernels/quantmoid4/quantmoid4.inc, plus checked entry points.
#pragma once
#include <span>
#include <string>

#include "kernels/quantmoid4/quantmoid4.h"
#include "kernels/common/elementwise.h"

namespace nnuelab::quantmoid4 {

using Variant = ElementwiseVariant<Shape, std::int16_t, std::uint8_t>;

std::span<const Variant> variants();
std::string shape_name(const Shape& s);
// Empty when supported, else the reason (the op's own limits included).
std::string why_unsupported(const Variant& v, const Shape& s);
// Validates shape and buffers (std::invalid_argument with the reason), then runs.
// bits: the output's nnz bitset (nnz_bitset_words(s.n) words), for *_bits variants only.
void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output,
         std::uint64_t* bits = nullptr);

// Runs the variant a program should use (NNUELAB_FORCE_VARIANT's, or the best available
// native one) and returns it, so callers and tests can see which one ran. Never a *_bits
// variant unless forced.
const Variant& run_active(const Shape& s, const std::int16_t* input, std::uint8_t* output);

}  // namespace nnuelab::quantmoid4
