// Lookup tables for listing set bits 8 at a time: for a byte b, kNnzLut[b] holds the
// positions of b's set bits (ascending, then zeros) and kNnzCount[b] how many there are.
// Data only; defined in nnz_tables.cpp (no ISA flags), read by ISA kernels.
#pragma once
#include <cstdint>

namespace nnuelab {

extern const std::uint16_t kNnzLut[256][8];
extern const std::uint8_t kNnzCount[256];

// The same lists indexed by a zero mask z (bit i set when element i is zero, what an
// equality compare with zero gives): row[z] holds the positions of z's clear bits as
// bytes (ascending, then zeros), count[z] how many there are. Half kNnzLut's size; a
// reader widens a row with one pmovzxbw.
struct ZeroLut8 {
  std::uint8_t row[256][8];
  std::uint8_t count[256];
};
extern const ZeroLut8 kZeroLut8;

}  // namespace nnuelab
