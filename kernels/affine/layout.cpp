// Weight layouts shared by several affine variants. Compiled without ISA flags.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

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

void pack_tiles4_x2(const Canonical& c, Packed& p, int group) {
  if (group != 2 && group != 4) throw std::invalid_argument("pack_tiles4_x2: group must be 2 or 4");
  pack_tiles4(c, p);
  const int in = c.shape.in, out = c.shape.out, chunks = in / 4;
  auto* heavy = static_cast<std::uint64_t*>(packed_alloc(p.blocks, 2, (std::size_t(chunks) / 64 + 2) * 8));
  constexpr int kBound = 258;  // 127 * 258 = 32766: the group's pair sums still fit int16
  std::vector<std::pair<int, int>> big;  // (|pair sum|, chunk) above kBound / group, per lane
  std::vector<int> rest;                 // the others' sums, largest first (group - 1 kept)
  for (int o = 0; o < out; ++o)
    for (int h = 0; h < 2; ++h)
      for (int sign : {1, -1}) {
        // Only a chunk above kBound / group can be the largest of `group` chunks that
        // exceed kBound together; its partners may be any chunks, so the group - 1 largest
        // of the others are kept as well.
        big.clear();
        rest.assign(group - 1, 0);
        for (int ch = 0; ch < chunks; ++ch) {
          const std::int8_t* w = c.weights + std::size_t(o) * in + 4 * ch + 2 * h;
          const int v = sign > 0 ? std::max<int>(w[0], 0) + std::max<int>(w[1], 0)
                                 : -(std::min<int>(w[0], 0) + std::min<int>(w[1], 0));
          if (v > kBound / group) {
            big.push_back({v, ch});
          } else if (v > rest.back()) {
            rest.back() = v;
            std::sort(rest.begin(), rest.end(), std::greater<>());
          }
        }
        std::sort(big.begin(), big.end(), std::greater<>());
        // Mark the largest while it and the group - 1 next largest exceed the bound (for
        // group 2: while the largest and the next one do).
        for (std::size_t k = 0; k < big.size(); ++k) {
          int sum = 0;
          for (int j = 0; j < group; ++j) {
            const std::size_t at = k + j;
            sum += at < big.size() ? big[at].first : rest[at - big.size()];
          }
          if (sum <= kBound) break;
          heavy[big[k].second / 64] |= std::uint64_t(1) << (big[k].second % 64);
        }
      }
  // Move each heavy chunk's tile out of slot 0 (left zero there: paired with any chunk it
  // adds nothing to the int16 sum) into slot 3, with its chunk index after the tiles.
  std::int64_t n = 0;
  for (int w = 0; w <= chunks / 64; ++w) n += __builtin_popcountll(heavy[w]);
  const std::size_t tile = std::size_t(out) * 4;
  auto* moved = static_cast<std::int8_t*>(packed_alloc(p.blocks, 3, std::size_t(n) * (tile + 4) + 4));
  auto* index = reinterpret_cast<std::uint32_t*>(moved + heavy_index_offset(n, out));
  auto* tiles = static_cast<std::int8_t*>(p.blocks.slot[0].data);
  std::int64_t k = 0;
  for (int ch = 0; ch < chunks; ++ch) {
    if (!((heavy[ch / 64] >> (ch % 64)) & 1)) continue;
    std::memcpy(moved + std::size_t(k) * tile, tiles + std::size_t(ch) * tile, tile);
    std::memset(tiles + std::size_t(ch) * tile, 0, tile);
    index[k++] = std::uint32_t(ch);
  }
  p.blocks.meta[0] = n;
}

void unpack_tiles4_x2(const Packed& p, std::int8_t* weights, std::int32_t* bias) {
  unpack_tiles4(p, weights, bias);  // heavy chunks read as zero here; put them back
  const int in = p.shape.in, out = p.shape.out;
  const HeavyChunks h = heavy_chunks(p);
  for (std::int64_t k = 0; k < h.n; ++k)
    for (int o = 0; o < out; ++o)
      for (int j = 0; j < 4; ++j)
        weights[std::size_t(o) * in + 4 * h.index[k] + j] = h.tiles[(std::size_t(k) * out + o) * 4 + j];
}

void throw_too_many_blocks(int chunk) {
  throw std::invalid_argument("weights are not block-sparse enough: input chunk " + std::to_string(chunk) +
                              " (bytes " + std::to_string(4 * chunk) + ".." + std::to_string(4 * chunk + 3) +
                              ") feeds more than 4 blocks of 16 outputs");
}

}  // namespace nnuelab::affine
