// Weight layouts shared by several affine variants. Compiled without ISA flags.
#include <cstring>

#include "kernels/affine/affine.h"

namespace nnuelab::affine {

void pack_row_major(const Canonical& c, Packed& p) {
  const std::size_t n = std::size_t(c.shape.in) * c.shape.out;
  std::memcpy(packed_alloc(p.blocks, 0, n), c.weights, n);
  std::memcpy(packed_alloc(p.blocks, 1, std::size_t(c.shape.out) * 4), c.bias,
              std::size_t(c.shape.out) * 4);
}

void unpack_row_major(const Packed& p, std::int8_t* weights, std::int32_t* bias) {
  std::memcpy(weights, p.blocks.slot[0].data, std::size_t(p.shape.in) * p.shape.out);
  std::memcpy(bias, p.blocks.slot[1].data, std::size_t(p.shape.out) * 4);
}

}  // namespace nnuelab::affine
