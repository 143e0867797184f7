// sqr_crelu32: squared clipped ReLU from the int32 output of an affine layer.
//
//   out[i] = min(127, (x * x) >> (2 * shift + 7)),  x = in[i] as int64
//
// Types: in int32[n], out uint8[n], n >= 0, shift in 0..28.
// Integer semantics: the square is exact in int64 (x * x <= 2^62 < 2^63) and the
// shift count 2*shift + 7 <= 63 stays below 64, which is why shift stops at 28;
// the shift of a non-negative value is a plain floor division by 2^(2s+7).
// Negative x squares to the same value as -x (no clamp at 0 first: squaring is
// the non-linearity). Output 0..127.
// Why 2*shift + 7: x carries 2^shift of weight scale, x*x carries it twice, and
// the extra 7 puts 1.0 * 1.0 at 127 on the same 0..127 activation scale.
//
// Where techniques agree: a SIMD variant that first narrows x to int16 with
// saturation (packs_epi32) and then squares (mulhi_epi16 + shift) equals the
// reference for every int32 x only when shift <= 8: then any |x| >= 32767 already
// maps to 127 both ways. For shift >= 9 a large |x| narrowed to 32767 can give
// less than 127 while the reference gives 127.
//
// Errors (std::invalid_argument): n < 0, shift outside 0..28, null pointer with n > 0.
#pragma once

#include <cstdint>

namespace nnuelab::ref {

void sqr_crelu32(const int32_t* in, int n, int shift, uint8_t* out);

}  // namespace nnuelab::ref
