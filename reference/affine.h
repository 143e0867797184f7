// Reference `affine`: the int8 linear layer of NNUE networks.
//
//   out[o] = bias[o] + sum_{i < in} W[o][i] * x[i]        for o < out
//
// Types: x uint8[in], W int8[out][in] row-major (as a trainer writes it: row o holds the
// weights of output o), bias int32[out], out int32[out].
// Domain: x in 0..127 (the activations are ClippedReLU outputs). On that domain the SIMD
// techniques agree: maddubs' int16 pair sums stay within |2*127*128| = 32512, so the
// maddubs+madd fallback equals vpdpbusd exactly. The reference itself is exact for any
// uint8 x; the products and sums are formed in int64 and must fit int32 (they do for
// in <= 65536 on the domain: 65536*127*128 < 2^31).
#pragma once
#include <cstdint>

namespace nnuelab::ref {

void affine(const std::int8_t* weights, const std::int32_t* bias, int in, int out,
            const std::uint8_t* x, std::int32_t* y);

}  // namespace nnuelab::ref
