// Weight layouts shared by several affine variants. Compiled without ISA flags.
#include <cstring>
#include <stdexcept>
#include <string>

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

void pack_tiles4(const Canonical& c, Packed& p) {
  const int in = c.shape.in, out = c.shape.out;
  auto* tiles = static_cast<std::int8_t*>(packed_alloc(p.blocks, 0, std::size_t(in) * out));
  for (int o = 0; o < out; ++o)
    for (int i = 0; i < in; ++i) tiles[(std::size_t(i / 4) * out + o) * 4 + i % 4] = c.weights[std::size_t(o) * in + i];
  std::memcpy(packed_alloc(p.blocks, 1, std::size_t(out) * 4), c.bias, std::size_t(out) * 4);
}

void unpack_tiles4(const Packed& p, std::int8_t* weights, std::int32_t* bias) {
  const int in = p.shape.in, out = p.shape.out;
  const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
  for (int o = 0; o < out; ++o)
    for (int i = 0; i < in; ++i) weights[std::size_t(o) * in + i] = tiles[(std::size_t(i / 4) * out + o) * 4 + i % 4];
  std::memcpy(bias, p.blocks.slot[1].data, std::size_t(out) * 4);
}

void throw_too_many_blocks(int chunk) {
  throw std::invalid_argument("weights are not block-sparse enough: input chunk " + std::to_string(chunk) +
                              " (bytes " + std::to_string(4 * chunk) + ".." + std::to_string(4 * chunk + 3) +
                              ") feeds more than 4 blocks of 16 outputs");
}

}  // namespace nnuelab::affine
