// The quantize registry: every variant of kernels/quantize/quantize.inc and the checked
// entry points.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "kernels/common/variant.h"
#include "kernels/quantize/quantize.h"

namespace nnuelab::quantize {

struct Variant {
  VariantInfo info;
  void (*run_i8)(const float* x, std::size_t n, const Params& p, std::int8_t* out);
  void (*run_i16)(const float* x, std::size_t n, const Params& p, std::int16_t* out);
};

std::span<const Variant> variants();

// Params for a clip s and bits (std::invalid_argument: bits outside 2..max_bits, s not
// finite or <= 0, float(L) / s not finite).
Params params(float s, int bits, int max_bits);

// Validate (std::invalid_argument naming the variant: empty tensor, null buffers, NaN or
// Inf element with its index, bad s or bits), then run. bits 2..8 / 2..16.
void run_i8(const Variant& v, const float* x, std::size_t n, float s, int bits, std::int8_t* out);
void run_i16(const Variant& v, const float* x, std::size_t n, float s, int bits, std::int16_t* out);

// The variant a program should use (NNUELAB_FORCE_VARIANT's, or the best available native one).
const Variant& active();

}  // namespace nnuelab::quantize
