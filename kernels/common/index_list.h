// The u16 index list a sparse affine kernel builds before its dots (non-zero chunks or
// bytes, plus the slack the table and compress forms store past the count). It lives on
// the stack up to kStack entries, enough for every real net's layer (4096 inputs: 1088
// chunk entries, 2.2 KB; 4160 byte entries, 8.3 KB), and on the heap beyond: until
// 2026-11-25 every call put the op's largest list on the stack (65536 inputs: 32 KB for
// chunk lists, 128 KB for byte lists), more than a small thread stack holds.
// Both start on a 4 KiB page boundary, so the list's vector stores straddle no page
// boundary until it outgrows a page (2048 entries): a store across one costs about 20
// times another (kernels/common/page.h). The stack list's alignment costs no instruction
// (the frame's realignment masks more bits) and up to 4 KB more stack (since 2026-12-07).
// Included by ISA files, so it lands in that ISA's namespace like every kernel helper.
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>

#include "kernels/common/isa.h"
#include "kernels/common/page.h"

namespace nnuelab::NNUELAB_ISA_NS::nnz {

// A list of the inputs' non-zero entries: kInputsPerEntry = 4 for 4-byte chunks, 1 for
// bytes. Sized for `inputs` / kInputsPerEntry entries plus 64 of slack.
template <int kInputsPerEntry>
class IndexList {
 public:
  static constexpr std::size_t entries(int inputs) { return std::size_t(inputs) / kInputsPerEntry + 64; }
  explicit IndexList(int inputs)
      : heap_(entries(inputs) > kStack ? new (kPage) std::uint16_t[entries(inputs)] : nullptr) {}
  ~IndexList() {
    if (heap_) ::operator delete[](heap_, kPage);
  }
  IndexList(const IndexList&) = delete;
  IndexList& operator=(const IndexList&) = delete;
  std::uint16_t* data() { return heap_ ? heap_ : stack_; }

 private:
  static constexpr std::size_t kStack = entries(4096);  // every real net's layer
  static constexpr std::align_val_t kPage{kPageBytes};
  alignas(kPageBytes) std::uint16_t stack_[kStack];
  std::uint16_t* heap_;
};

using ChunkList = IndexList<4>;
using ByteList = IndexList<1>;

}  // namespace nnuelab::NNUELAB_ISA_NS::nnz
