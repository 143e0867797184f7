// quantmoid4: the quantized piece-wise quadratic approximation of sigmoid(4x)
// used as an NNUE activation, output 0..126 with 63 (the midpoint) at x = 0.
//
//   d      = 127 - min(|x|, 127)          in 0..127, |x| taken in int32
//   m      = (d * d) >> 8                 in 0..63   (floor of d^2 / 256)
//   out[i] = x < 0 ? m : 126 - m          in 0..126
//
// Types: in int16[n] (every value -32768..32767 is valid), out uint8[n], n >= 0.
// Properties that follow: 0 for x <= -127, 126 for x >= 127, monotonic
// non-decreasing, and out(x) + out(-x) == 126 for every x in -32767..32767
// (odd symmetry about 63; -32768 has no mirror but gives 0 like -127).
//
// Source: the AVX2 implementation in nnue-pytorch's docs/nnue.md, section
// "Optimized implementation / Quantmoid4". This is the integer function that
// code computes on every int16 input, step by step:
//   sign  = packs_epi16(x)                 int8 with x's sign: selects the branch
//   d     = subs_epu16(127, abs_epi16(x))  abs(-32768) is 0x8000 = 32768 unsigned,
//                                          so d = 0 there, like any |x| >= 127
//   m     = mulhi_epi16(d << 4, d << 4)    (256 d^2) >> 16 = d^2 >> 8, exact
//   m     = packs_epi16(m)                 0..63, no saturation
//   out   = blendv_epi8(subs_epi8(126, m), m, sign)   126 - m never saturates
// The exact scalar emulation of those steps lives in the tests and is compared
// against this reference on all 65,536 inputs.
//
// Errors (std::invalid_argument): n < 0, null pointer with n > 0.
#pragma once

#include <cstdint>

namespace nnuelab::ref {

void quantmoid4(const int16_t* in, int n, uint8_t* out);

}  // namespace nnuelab::ref
