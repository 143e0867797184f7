#include "kernels/common/packed.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <utility>

namespace nnuelab {

PackedBlocks::PackedBlocks() = default;

PackedBlocks::~PackedBlocks() {
  for (Block& b : slot) std::free(b.data);
}

PackedBlocks::PackedBlocks(PackedBlocks&& other) noexcept { *this = std::move(other); }

PackedBlocks& PackedBlocks::operator=(PackedBlocks&& other) noexcept {
  if (this != &other) {
    for (int i = 0; i < kSlots; ++i) {
      std::free(slot[i].data);
      slot[i] = other.slot[i];
      other.slot[i] = Block{};
    }
    for (int i = 0; i < 8; ++i) meta[i] = other.meta[i];
    prepared_by = other.prepared_by;
    other.prepared_by = nullptr;
  }
  return *this;
}

void* packed_alloc(PackedBlocks& p, int index, std::size_t bytes) {
  if (index < 0 || index >= PackedBlocks::kSlots)
    throw std::invalid_argument("packed_alloc: slot index out of range");
  Block& b = p.slot[index];
  std::free(b.data);
  b = Block{};
  const std::size_t rounded = (bytes + 63) / 64 * 64 + 64;
  void* data = std::aligned_alloc(64, rounded);
  if (!data) throw std::bad_alloc();
  std::memset(data, 0, rounded);
  b.data = data;
  b.bytes = bytes;
  return data;
}

}  // namespace nnuelab
