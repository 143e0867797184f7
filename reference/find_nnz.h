// find_nnz: the index list that sparse affine kernels iterate over.
//
// Both functions write indices in strictly ascending order and return how many
// they wrote; out must have room for the worst case (every element non-zero).
// Indices are uint16, which bounds the input length (see each function).
//
// Domain where SIMD techniques agree. The reference counts every non-zero
// byte, 1..255 alike. A SIMD variant that builds its mask with a *signed*
// compare against zero (pcmpgtb / _mm256_cmpgt_epi8(x, 0), or
// _mm256_cmpgt_epi32(x, 0) per 4-byte chunk) reads a byte >= 128 as negative,
// and a chunk whose most significant byte (byte 3, little-endian) is >= 128 as
// a negative int32, and so drops it. Such variants equal the reference only when
// every byte is in 0..127; NNUE keeps its activations in 0..127 (ClippedReLU,
// product pooling, quantmoid4 all end at <= 127) for exactly this reason.
// Variants using an unsigned test (cmpeq with zero then invert, vtstq_u8, test
// of the whole chunk) agree on all of 0..255.
//
// Errors (std::invalid_argument): negative or too large length, a length not a
// multiple of 4 for the chunk form, a null pointer with a non-zero length.
#pragma once

#include <cstdint>

namespace nnuelab::ref {

// in: uint8[n], 0 <= n <= 65536. Writes i for every i with in[i] != 0.
int find_nnz_bytes(const uint8_t* in, int n, uint16_t* out);

// in: uint8[n_bytes], n_bytes a multiple of 4, 0 <= n_bytes <= 4 * 65536.
// Chunk c is in[4c .. 4c+3]; writes c for every chunk with any non-zero byte.
int find_nnz_chunks(const uint8_t* in, int n_bytes, uint16_t* out);
// The fused producers' form of the chunk list: bit c of bits[c / 64] is set iff any of
// in[4c .. min(4c + 3, n_bytes - 1)] is non-zero (a last partial chunk counts), for
// c < ceil(n_bytes / 4); the remaining bits of the last word are 0. Writes
// ceil(ceil(n_bytes / 4) / 64) words. 0 <= n_bytes <= 4 * 65536.
void nnz_chunk_bitset(const uint8_t* in, int n_bytes, uint64_t* bits);

}  // namespace nnuelab::ref
