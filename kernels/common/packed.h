// Load-time buffers that a variant's prepare() fills and its run() reads.
//
// This header is included by ISA-compiled kernel files, so it holds plain data and
// out-of-line functions only: an inline function or template defined here would be
// compiled with AVX2 flags in the AVX2 object and could be the copy the linker keeps
// for everyone (DESIGN.md, "ISA builds").
#pragma once
#include <cstddef>
#include <cstdint>

namespace nnuelab {

struct Block {
  void* data = nullptr;  // 64-byte aligned, zero-filled at allocation
  std::size_t bytes = 0;
};

struct PackedBlocks {
  static constexpr int kSlots = 4;
  Block slot[kSlots];
  std::int64_t meta[8] = {};  // small per-variant facts found at prepare time
  const void* prepared_by = nullptr;  // the registry entry whose prepare() filled it

  PackedBlocks();
  ~PackedBlocks();
  PackedBlocks(PackedBlocks&& other) noexcept;
  PackedBlocks& operator=(PackedBlocks&& other) noexcept;
  PackedBlocks(const PackedBlocks&) = delete;
  PackedBlocks& operator=(const PackedBlocks&) = delete;
};

// (Re)allocates slot `index` with `bytes` zero-filled bytes, 64-byte aligned (rounded up
// to a whole cache line so kernels may read a full vector past a tail), and returns it.
void* packed_alloc(PackedBlocks& p, int index, std::size_t bytes);

}  // namespace nnuelab
