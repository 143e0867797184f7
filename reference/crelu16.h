// Reference `crelu16`: ClippedReLU of the int16 feature-transformer accumulator.
//
//   out[i] = clamp(in[i], 0, 127)
//
// Types: int16[n] -> uint8[n], canonical order. Domain: every int16 value.
// SIMD forms saturate to int8 first (packs_epi16) and then take max with 0, which is the
// same function; packs interleaves 128-bit lanes, so AVX2 forms permute afterwards.
#pragma once
#include <cstdint>

namespace nnuelab::ref {

void crelu16(const std::int16_t* in, int n, std::uint8_t* out);

}  // namespace nnuelab::ref
