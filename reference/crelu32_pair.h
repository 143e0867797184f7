// Reference `crelu32_pair`: the two activations Stockfish's second layer reads, both from
// the same int32 affine output, stored back to back (squared half first, as Stockfish's
// L2 input buffer holds them: SqrClippedReLU outputs, then the ClippedReLU outputs copied
// after them):
//
//   out[0 .. n)   = ref::sqr_crelu32(in, n, shift)   min(127, x*x >> (2*shift + 7))
//   out[n .. 2n)  = ref::crelu32(in, n, shift)       clamp(x >> shift, 0, 127)
//
// Types: int32[n] -> uint8[2n]. Domain: every int32 value; shift 0..28 (sqr_crelu32's
// range, inside crelu32's 0..31); n >= 0. Stockfish: shift 6.
// Where techniques agree: a SIMD form that narrows once with packs_epi32 and feeds the
// int16 values to both halves inherits both domains: the clipped half needs shift <= 8,
// the squared half (mulhi of the int16 value) 5 <= shift <= 8.
//
// Errors (std::invalid_argument): n < 0, shift outside 0..28, null pointer with n > 0.
#pragma once
#include <cstdint>

namespace nnuelab::ref {

void crelu32_pair(const std::int32_t* in, int n, int shift, std::uint8_t* out);

}  // namespace nnuelab::ref
