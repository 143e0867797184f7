// 2 -> 1 pooling, and the fused feature-transformer output forms.
//
// Pairing (all functions): element i is paired with element i + n/2, for
// i in 0..n/2-1, and the result goes to out[i]. Halves rather than neighbours,
// because a vector kernel then combines two whole registers with no shuffle.
// n must be even and >= 0; out has n/2 bytes.
//
// Errors (std::invalid_argument): n < 0, n odd, null pointer with n > 0, and
// for pool_product2 an input outside 0..127.
#pragma once

#include <cstdint>

namespace nnuelab::ref {

// out[i] = (a + b + 1) >> 1 on uint8 (a = in[i], b = in[i + n/2]): the average
// rounded half up, exactly avg_epu8 / vrhaddq_u8 (the sum is formed in 9 bits,
// so 255 and 255 give 255). Differs from the truncating (a + b) / 2 whenever
// a + b is odd.
void pool_avg2(const uint8_t* in, int n, uint8_t* out);

// out[i] = max(a, b) on uint8 (max_epu8).
void pool_max2(const uint8_t* in, int n, uint8_t* out);

// in int16[n] with every value in 0..127 (the output of a ClippedReLU kept in
// int16). out[i] = (a * b) >> 7, in 0..126: 127 stands for 1.0 and the product
// is divided by 128, not 127, so 1.0 * 1.0 = 126 (floor). In this domain
// a * b <= 16129 fits int16, so mullo_epi16 + srli_epi16(7) is exact.
void pool_product2(const int16_t* in, int n, uint8_t* out);

// Fused form 1 (ClippedReLU 0..127 then product pooling), any int16 input:
//   a = clamp(acc[i], 0, 127), b = clamp(acc[i + n/2], 0, 127),
//   out[i] = (a * b) >> 7                                          in 0..126
void ft_output_clamp127(const int16_t* acc, int n, uint8_t* out);

// Fused form 2 (clamp to 0..255, a wider range with 255 standing for 1.0):
//   a = clamp(acc[i], 0, 255), b = clamp(acc[i + n/2], 0, 255),
//   out[i] = (a * b) >> 9                                          in 0..127
// Kernels typically compute it as mulhi_epi16(a << 7, b); (a << 7) <= 32640
// fits int16, and mulhi's >> 16 of (a * 128 * b) is the same floor.
// Forms 1 and 2 are different functions of the accumulator (e.g. a = b = 127
// gives 126 in form 1 and 31 in form 2): a net is trained for one of them, and
// they must never be compared with each other, only each with its own variants.
void ft_output_clamp255(const int16_t* acc, int n, uint8_t* out);

}  // namespace nnuelab::ref
