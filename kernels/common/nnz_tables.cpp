#include "kernels/common/nnz_tables.h"

namespace nnuelab {
namespace {

constexpr ByteLut8 kSetRows = make_byte_lut8(kListSet);

}  // namespace

alignas(64) constinit const ByteLut8 kSetLut8 = kSetRows;
alignas(64) constinit const ByteLut8 kZeroLut8 = make_byte_lut8(kListClear);

// kSetRows' rows widened to u16, spelled out row by row (an array member cannot be
// initialised from a constexpr function's array result).
alignas(64) const std::uint16_t kNnzLut[256][8] = {
#define ROW(b) {kSetRows.row[b][0], kSetRows.row[b][1], kSetRows.row[b][2], kSetRows.row[b][3], \
                kSetRows.row[b][4], kSetRows.row[b][5], kSetRows.row[b][6], kSetRows.row[b][7]}
#define ROW4(b) ROW(b), ROW(b + 1), ROW(b + 2), ROW(b + 3)
#define ROW16(b) ROW4(b), ROW4(b + 4), ROW4(b + 8), ROW4(b + 12)
    ROW16(0),   ROW16(16),  ROW16(32),  ROW16(48),  ROW16(64),  ROW16(80),  ROW16(96),  ROW16(112),
    ROW16(128), ROW16(144), ROW16(160), ROW16(176), ROW16(192), ROW16(208), ROW16(224), ROW16(240),
#undef ROW16
#undef ROW4
#undef ROW
};

}  // namespace nnuelab
