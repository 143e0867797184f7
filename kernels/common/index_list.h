// The u16 index list a sparse affine kernel builds before its dots (non-zero chunks or
// bytes, plus the slack the table and compress forms store past the count). It lives on
// the stack up to kStack entries, enough for every real net's layer (4096 inputs: 1088
// chunk entries, 2.2 KB; 4160 byte entries, 8.3 KB), and on the heap beyond: until
// 2026-11-25 every call put the op's largest list on the stack (65536 inputs: 32 KB for
// chunk lists, 128 KB for byte lists), more than a small thread stack holds.
// Included by ISA files, so it lands in that ISA's namespace like every kernel helper.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"

namespace nnuelab::NNUELAB_ISA_NS::nnz {

// Entries a list of `in` inputs needs: `in` (bytes) or in / 4 (chunks), plus 64 of slack.
constexpr std::size_t chunk_list_entries(int in) { return std::size_t(in) / 4 + 64; }
constexpr std::size_t byte_list_entries(int in) { return std::size_t(in) + 64; }

template <std::size_t kStack>
class IndexList {
 public:
  explicit IndexList(std::size_t entries) : heap_(entries > kStack ? new std::uint16_t[entries] : nullptr) {}
  ~IndexList() { delete[] heap_; }
  IndexList(const IndexList&) = delete;
  IndexList& operator=(const IndexList&) = delete;
  std::uint16_t* data() { return heap_ ? heap_ : stack_; }

 private:
  alignas(64) std::uint16_t stack_[kStack];
  std::uint16_t* heap_;
};

// The two list kinds, sized for inputs up to 4096 on the stack.
using ChunkList = IndexList<chunk_list_entries(4096)>;
using ByteList = IndexList<byte_list_entries(4096)>;

}  // namespace nnuelab::NNUELAB_ISA_NS::nnz
