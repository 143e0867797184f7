// The counted u8 lookup table of find_nnz (declared in find_nnz.h; the plain u8 and u16
// ones are kSetLut8 and kNnzLut, kernels/common/nnz_tables.h).
// Compiled without ISA flags: data that every ISA build reads. Built by constexpr code and
// constinit, so no static initialiser runs.
#include "kernels/find_nnz/find_nnz.h"

namespace nnuelab::find_nnz {
namespace {

// For every 8-bit mask m: put(t, m, slot, bit) for its k-th set bit (slot k), then
// count(t, m, popcount(m)).
template <class Table, class Put, class Count>
constexpr Table build(Put put, Count count) {
  Table t{};
  for (int m = 0; m < 256; ++m) {
    int slot = 0;
    for (int bit = 0; bit < 8; ++bit)
      if (m >> bit & 1) put(t, m, slot++, bit);
    count(t, m, slot);
  }
  return t;
}

}  // namespace

constinit const Lut8Counted kLut8Counted = build<Lut8Counted>(
    [](Lut8Counted& t, int m, int slot, int bit) { t.entry[m][slot] = std::uint8_t(bit); },
    [](Lut8Counted& t, int m, int bits) { t.entry[m][kLut8CountByte] = std::uint8_t(bits); });

}  // namespace nnuelab::find_nnz
