// The pool_max2 registry: every variant of kernels/pool_max2/pool_max2.inc, plus checked entry points.
#pragma once
#include <span>
#include <string>

#include "kernels/common/elementwise.h"
#include "kernels/pool_max2/pool_max2.h"

namespace nnuelab::pool_max2 {

using Variant = ElementwiseVariant<Shape, std::uint8_t, std::uint8_t>;

std::span<const Variant> variants();
std::string shape_name(const Shape& s);
// Empty when supported, else the reason (the op's own limits: n even, 2..1048576).
std::string why_unsupported(const Variant& v, const Shape& s);
// Validates shape and buffers (std::invalid_argument with the reason), then runs.
// output: n / 2 bytes.
void run(const Variant& v, const Shape& s, const std::uint8_t* input, std::uint8_t* output,
         std::uint64_t* bits = nullptr);

}  // namespace nnuelab::pool_max2
