// Lookup tables for listing set bits 8 at a time, all built by make_byte_lut8 below from
// one bit loop. kNnzLut[b] holds the positions of b's set bits as u16 (ascending, then
// zeros), kNnzCount[b] how many there are. Data only; defined in nnz_tables.cpp (no ISA
// flags), read by ISA kernels.
#pragma once
#include <cstdint>

namespace nnuelab {

// The lists as bytes (half kNnzLut's size; a reader widens a row with one pmovzxbw), with
// their counts: row[b] holds the listed positions of byte b (ascending, then zeros),
// count[b] how many there are.
struct ByteLut8 {
  std::uint8_t row[256][8];
  std::uint8_t count[256];
};

// The one builder of every table here (and of find_nnz's counted table): listed(i, b)
// says whether position i of byte b is listed.
template <class Listed>
constexpr ByteLut8 make_byte_lut8(Listed listed) {
  ByteLut8 t{};
  for (int b = 0; b < 256; ++b) {
    int n = 0;
    for (int i = 0; i < 8; ++i)
      if (listed(i, b)) t.row[b][n++] = std::uint8_t(i);
    t.count[b] = std::uint8_t(n);
  }
  return t;
}
// Listed when set: a non-zero mask (a producer's bitset byte, a movemask of a != 0 test).
inline constexpr auto kListSet = [](int i, int b) { return (b >> i & 1) != 0; };
// Listed when clear: a zero mask (bit i set when element i is zero, what an equality
// compare with zero gives).
inline constexpr auto kListClear = [](int i, int z) { return (z >> i & 1) == 0; };

// Indexed by a non-zero mask: the positions of b's set bits.
extern const ByteLut8 kSetLut8;
// Indexed by a zero mask z: the positions of z's clear bits.
extern const ByteLut8 kZeroLut8;

// The same positions as u16 (the readers that add a u16 base without widening).
extern const std::uint16_t kNnzLut[256][8];
// The set-bit counts are kSetLut8's (one table, not two copies).
inline constexpr const std::uint8_t (&kNnzCount)[256] = kSetLut8.count;

}  // namespace nnuelab
