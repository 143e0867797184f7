// The counted u8 lookup table of find_nnz (declared in find_nnz.h; the plain u8 and u16
// ones are kSetLut8 and kNnzLut, kernels/common/nnz_tables.h).
// Compiled without ISA flags: data that every ISA build reads. Built by constexpr code and
// constinit, so no static initialiser runs.
#include "kernels/find_nnz/find_nnz.h"

#include "kernels/common/nnz_tables.h"

namespace nnuelab::find_nnz {
namespace {

// make_byte_lut8's rows and counts (the one bit loop, nnz_tables.h) in 16-byte entries.
constexpr Lut8Counted counted() {
  constexpr ByteLut8 set = make_byte_lut8(kListSet);
  Lut8Counted t{};
  for (int m = 0; m < 256; ++m) {
    for (int slot = 0; slot < 8; ++slot) t.entry[m][slot] = set.row[m][slot];
    t.entry[m][kLut8CountByte] = set.count[m];
  }
  return t;
}

}  // namespace

constinit const Lut8Counted kLut8Counted = counted();

}  // namespace nnuelab::find_nnz
