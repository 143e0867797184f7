// Op `pool_product2`: 2 -> 1 product pooling of ClippedReLU outputs kept in int16
// (reference/pool.h).
//   out[i] = (in[i] * in[i + n/2]) >> 7      int16[n] in 0..127 -> uint8[n/2] in 0..126
// Domain: every input in 0..127. The reference throws outside it; the kernels' checked
// entry does not scan the input (that would cost as much as the op): outside the domain
// the output is unspecified (mullo keeps only the low 16 bits of the product).
// Output in canonical order. *_bits variants also write the output's nnz bitset.
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::pool_product2 {

struct Shape {
  int n = 0;  // input elements (even); n / 2 outputs

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::pool_product2

#define NNUELAB_POOL_PRODUCT2_KERNEL(tech)                                                        \
  const char* tech##_supports(const ::nnuelab::pool_product2::Shape& shape);                      \
  void tech##_run(const ::nnuelab::pool_product2::Shape& shape, const std::int16_t* input, std::uint8_t* output, \
                  std::uint64_t* bits);
