// Lookup tables for listing set bits 8 at a time: for a byte b, kNnzLut[b] holds the
// positions of b's set bits (ascending, then zeros) and kNnzCount[b] how many there are.
// Data only; defined in nnz_tables.cpp (no ISA flags), read by ISA kernels.
#pragma once
#include <cstdint>

namespace nnuelab {

extern const std::uint16_t kNnzLut[256][8];
extern const std::uint8_t kNnzCount[256];

// The same lists as bytes (half kNnzLut's size; a reader widens a row with one
// pmovzxbw), with their counts: row[b] holds the listed positions of byte b (ascending,
// then zeros), count[b] how many there are.
struct ByteLut8 {
  std::uint8_t row[256][8];
  std::uint8_t count[256];
};
// Indexed by a non-zero mask (a producer's bitset byte): the positions of b's set bits.
extern const ByteLut8 kSetLut8;
// Indexed by a zero mask z (bit i set when element i is zero, what an equality compare
// with zero gives): the positions of z's clear bits.
extern const ByteLut8 kZeroLut8;

}  // namespace nnuelab
