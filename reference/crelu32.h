// Reference `crelu32`: ClippedReLU of an int32 affine output, scaled by 2^-shift.
//
//   out[i] = clamp(in[i] >> shift, 0, 127)
//
// Types: int32[n] -> uint8[n]. The shift is arithmetic (floor division by 2^shift, so
// -1 >> s = -1 -> 0). Domain: every int32 value, shift 0..31 (Stockfish: 6).
// The production AVX2 form saturates to int16 (packs_epi32) *before* shifting; that is
// the same function only while 32767 >> shift >= 127, i.e. shift <= 8.
#pragma once
#include <cstdint>

namespace nnuelab::ref {

void crelu32(const std::int32_t* in, int n, int shift, std::uint8_t* out);

}  // namespace nnuelab::ref
