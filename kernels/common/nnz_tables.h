// Lookup tables for listing set bits 8 at a time: for a byte b, kNnzLut[b] holds the
// positions of b's set bits (ascending, then zeros) and kNnzCount[b] how many there are.
// Data only; defined in nnz_tables.cpp (no ISA flags), read by ISA kernels.
#pragma once
#include <cstdint>

namespace nnuelab {

extern const std::uint16_t kNnzLut[256][8];
extern const std::uint8_t kNnzCount[256];

}  // namespace nnuelab
