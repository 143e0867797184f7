// Op `find_nnz`: the ascending indices of the non-zero entries of an activation vector,
// the first step of every sparse-input affine kernel.
//   bytes form:  every i < n with in[i] != 0
//   chunks form: every c < n/4 with any of in[4c..4c+3] != 0 (what blocked kernels skip by)
// Returns the count; writes indices as uint16, ascending (reference/find_nnz.h).
// Input domain: bytes 0..127 (NNUE activations): variants may use signed compares, which
// read 128..255 as negative (see the README's semantics table).
// Output capacity: count_max + kOutputSlack entries, where count_max is n (bytes) or n/4
// (chunks): vector kernels may store whole registers past the count.
//
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::find_nnz {

enum class Form : int { kBytes = 0, kChunks = 1 };

struct Shape {
  int n = 0;  // input bytes (a multiple of 4 for the chunks form)
  Form form = Form::kBytes;

  friend bool operator==(const Shape&, const Shape&) = default;
};

inline constexpr int kOutputSlack = 64;

// Lookup tables of the table-driven variants. Row m lists the positions (0..7) of the set
// bits of the 8-bit mask m in ascending order; slots past popcount(m) hold 0. A kernel adds
// the slice's base index, stores all 8 slots, then advances by the count, so the extra
// slots are overwritten later or lie within the output slack. The u16 rows are
// ::nnuelab::kNnzLut and the u8 rows (2 KiB, widened to u16 on load by pmovzxbw)
// ::nnuelab::kSetLut8.row (kernels/common/nnz_tables.h, shared with affine's sparse
// kernels); the counted form below is defined in kernels/find_nnz/layout.cpp (no ISA
// flags: data only).
struct Lut8Counted {  // 4 KiB: bytes 0..7 the u8 positions, byte 8 popcount(m), 9..15 zero
  alignas(64) std::uint8_t entry[256][16];
};
inline constexpr int kLut8CountByte = 8;
extern const Lut8Counted kLut8Counted;

}  // namespace nnuelab::find_nnz

#define NNUELAB_FIND_NNZ_KERNEL(tech)                                              \
  const char* tech##_supports(const ::nnuelab::find_nnz::Shape& shape);            \
  int tech##_run(const ::nnuelab::find_nnz::Shape& shape, const std::uint8_t* input, \
                 std::uint16_t* indices);
