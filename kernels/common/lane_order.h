// Declared output orders of variants that leave their bytes lane-interleaved on purpose
// (the next layer's weights absorb the permutation at prepare time). Scalar-side header:
// computed from the number the registry line declares (ElementwiseVariant::order_lanes),
// never by calling ISA code.
#pragma once
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace nnuelab {

// The order per-128-bit-lane narrowing leaves when `regs` canonical registers of `lanes`
// lanes each are packed into one output register without a fix-up permute: output lane L
// holds lane L of every register in turn, `group` bytes from each. So in every block of
// regs * lanes * group output bytes, the produced group k holds canonical group
// (k % regs) * lanes + k / regs. lanes = 1 is the identity, for any length.
// Returns, for each produced byte position p < out_bytes, the canonical index it holds.
inline std::vector<int> lane_interleave_order(int lanes, int regs, int group, int out_bytes) {
  if (lanes == 1 && out_bytes >= 0) {  // canonical order
    std::vector<int> identity(out_bytes);
    std::iota(identity.begin(), identity.end(), 0);
    return identity;
  }
  const int block = regs * lanes * group;
  if (lanes < 1 || regs < 1 || group < 1 || out_bytes < 0 || out_bytes % block != 0)
    throw std::invalid_argument("lane order: " + std::to_string(out_bytes) + " bytes is not a whole number of " +
                                std::to_string(lanes) + "-lane blocks of " + std::to_string(block) + " bytes");
  std::vector<int> order(out_bytes);
  for (int p = 0; p < out_bytes; ++p) {
    const int base = p / block * block, k = p % block / group, byte = p % group;
    order[p] = base + ((k % regs) * lanes + k / regs) * group + byte;
  }
  return order;
}

// packus_epi16 of two int16 registers (ft_output's *_interleaved forms): 8-byte groups.
// Whole 8-byte groups move, so every 4-byte chunk stays one chunk: an nnz bitset of the
// produced bytes is the canonical chunks' bits in the same order.
inline std::vector<int> packus_lane_order(int lanes, int out_bytes) {
  return lane_interleave_order(lanes, 2, 8, out_bytes);
}

// packs_epi32 of registers (0,1) and (2,3) then one packs_epi16 (crelu32's *_lanes forms):
// four int32 registers narrowed to one byte register, 4-byte groups, which are the nnz
// bitset's chunks themselves.
inline std::vector<int> packs32x2_lane_order(int lanes, int out_bytes) {
  return lane_interleave_order(lanes, 4, 4, out_bytes);
}

// The next layer's load-time half of a permuted pair: canonical int8 weights W[out][in]
// (in = the activation's output count) with column p taken from canonical column
// order[p], so that sum_p W'[o][p] * produced[p] = sum_i W[o][i] * canonical[i]. Prepare
// the result with any affine variant; feed it the produced bytes (and their bitset).
inline std::vector<std::int8_t> permute_next_layer_columns(const std::int8_t* weights, int in, int out,
                                                           const std::vector<int>& order) {
  if (int(order.size()) != in)
    throw std::invalid_argument("permute_next_layer_columns: the order has " + std::to_string(order.size()) +
                                " positions, the layer " + std::to_string(in) + " inputs");
  std::vector<std::int8_t> w(std::size_t(in) * out);
  for (int o = 0; o < out; ++o)
    for (int p = 0; p < in; ++p) w[std::size_t(o) * in + p] = weights[std::size_t(o) * in + order[p]];
  return w;
}

}  // namespace nnuelab
