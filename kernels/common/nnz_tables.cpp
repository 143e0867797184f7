#include "kernels/common/nnz_tables.h"

#include <array>

namespace nnuelab {
namespace {

struct Tables {
  std::uint16_t lut[256][8];
  std::uint8_t count[256];
};

constexpr Tables make_tables() {
  Tables t{};
  for (int b = 0; b < 256; ++b) {
    int n = 0;
    for (int i = 0; i < 8; ++i)
      if (b >> i & 1) t.lut[b][n++] = std::uint16_t(i);
    t.count[b] = std::uint8_t(n);
  }
  return t;
}

constexpr Tables kTables = make_tables();

}  // namespace

alignas(64) const std::uint16_t kNnzLut[256][8] = {
#define ROW(b) {kTables.lut[b][0], kTables.lut[b][1], kTables.lut[b][2], kTables.lut[b][3], \
                kTables.lut[b][4], kTables.lut[b][5], kTables.lut[b][6], kTables.lut[b][7]}
#define ROW4(b) ROW(b), ROW(b + 1), ROW(b + 2), ROW(b + 3)
#define ROW16(b) ROW4(b), ROW4(b + 4), ROW4(b + 8), ROW4(b + 12)
    ROW16(0),   ROW16(16),  ROW16(32),  ROW16(48),  ROW16(64),  ROW16(80),  ROW16(96),  ROW16(112),
    ROW16(128), ROW16(144), ROW16(160), ROW16(176), ROW16(192), ROW16(208), ROW16(224), ROW16(240),
};
#define C(b) kTables.count[b]
#define C4(b) C(b), C(b + 1), C(b + 2), C(b + 3)
#define C16(b) C4(b), C4(b + 4), C4(b + 8), C4(b + 12)
alignas(64) const std::uint8_t kNnzCount[256] = {
    C16(0),   C16(16),  C16(32),  C16(48),  C16(64),  C16(80),  C16(96),  C16(112),
    C16(128), C16(144), C16(160), C16(176), C16(192), C16(208), C16(224), C16(240),
};

// listed(i, b): whether position i of byte b is listed.
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
alignas(64) constinit const ByteLut8 kSetLut8 = make_byte_lut8([](int i, int b) { return (b >> i & 1) != 0; });
alignas(64) constinit const ByteLut8 kZeroLut8 = make_byte_lut8([](int i, int z) { return (z >> i & 1) == 0; });

}  // namespace nnuelab
