// kernels/common/page.h: where the sparse kernels' index lists start in their buffers, so
// that their vector stores never straddle a 4 KiB page boundary when the list fits in a
// page.
#include "kernels/common/page.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>

namespace nnuelab {
namespace {

std::size_t in_page(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kPageBytes; }

TEST(Page, ListRoomNeverStraddlesAPageWhenItFitsInOne) {
  // Four pages, and every 2-byte start in the first: the u16 lists' own alignment.
  constexpr std::size_t kBuffer = 4 * kPageBytes;
  std::unique_ptr<std::uint16_t, decltype(&std::free)> buffer(
      static_cast<std::uint16_t*>(std::aligned_alloc(kPageBytes, kBuffer)), &std::free);
  ASSERT_NE(buffer, nullptr);
  // Rooms of the lists at 64, 1024, 1536 and 3072 chunk-form inputs and of the largest
  // stack lists (4096 inputs: 1088 chunk entries; 4160 byte entries), one page, one more.
  for (const std::size_t bytes : {2u * 80, 2u * 320, 2u * 448, 2u * 832, 2u * 1088, 4096u, 4098u, 2u * 4160})
    for (std::size_t start = 0; start < kPageBytes; start += 2) {
      std::uint16_t* const p = buffer.get() + start / 2;
      std::uint16_t* const q = within_a_page(p, bytes);
      ASSERT_GE(q, p) << bytes << " bytes from " << start;
      ASSERT_LE(std::size_t(q - p) * 2, kPageBytes - 2) << bytes << " bytes from " << start;  // the spare room
      if (bytes <= kPageBytes) {
        ASSERT_LE(in_page(q) + bytes, kPageBytes) << bytes << " bytes from " << start << " start at " << in_page(q);
      } else {
        ASSERT_EQ(in_page(q), 0u) << bytes << " bytes from " << start;  // the fewest boundaries
      }
      // A start that already keeps the room within its page is kept.
      if (in_page(p) + bytes <= kPageBytes) {
        ASSERT_EQ(q, p) << bytes << " bytes from " << start;
      }
    }
}

}  // namespace
}  // namespace nnuelab
