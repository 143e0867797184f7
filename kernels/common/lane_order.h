// Declared output orders of variants that leave their bytes lane-interleaved on purpose
// (the next layer's weights absorb the permutation at prepare time). Scalar-side header:
// computed from the number the registry line declares, never by calling ISA code.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace nnuelab {

// The order packus_epi16 leaves when it narrows two int16 registers of `lanes` 128-bit
// lanes each without a fix-up permute: in every block of 16 * lanes output bytes, the
// produced 8-byte group k holds canonical group (k % 2) * lanes + k / 2 (lane L of the
// result is the first register's lane L, then the second's). lanes = 1 is the identity.
// Returns, for each produced byte position p < out_bytes, the canonical index it holds.
// Groups of 8 bytes move whole, so every 4-byte chunk stays one chunk: an nnz bitset of
// the produced bytes is the canonical chunks' bits in the same order.
inline std::vector<int> packus_lane_order(int lanes, int out_bytes) {
  if (lanes == 1 && out_bytes >= 0) {  // canonical order, for any length
    std::vector<int> identity(out_bytes);
    for (int p = 0; p < out_bytes; ++p) identity[p] = p;
    return identity;
  }
  if (lanes < 1 || out_bytes < 0 || out_bytes % (16 * lanes) != 0)
    throw std::invalid_argument("packus_lane_order: " + std::to_string(out_bytes) + " bytes is not a whole number of " +
                                std::to_string(lanes) + "-lane blocks");
  std::vector<int> order(out_bytes);
  const int block = 16 * lanes;
  for (int p = 0; p < out_bytes; ++p) {
    const int base = p / block * block, k = p % block / 8, byte = p % 8;
    order[p] = base + ((k % 2) * lanes + k / 2) * 8 + byte;
  }
  return order;
}

// x[order[p]] -> out[p]: canonical data in the produced order (order from above).
template <class T>
std::vector<T> to_produced_order(const T* canonical, const std::vector<int>& order) {
  std::vector<T> out(order.size());
  for (std::size_t p = 0; p < order.size(); ++p) out[p] = canonical[order[p]];
  return out;
}

}  // namespace nnuelab
