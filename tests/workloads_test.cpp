// The benchmark workloads' memory: workloads::Buffer's page modes and huge_page_bytes'
// reading of /proc/self/smaps (on a fabricated file, so every branch is checked whatever
// this system's transparent huge page policy is).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "workloads/synthetic.h"

namespace nnuelab::test {
namespace {

using workloads::Buffer;
using workloads::kHugePageBytes;
using workloads::Pages;

TEST(WorkloadBuffer, SmallPagesAreLineAlignedZeroedAndHaveASpareLine) {
  Buffer<std::int16_t> b(1000);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 64, 0u);
  EXPECT_EQ(b.size(), 1000u);
  EXPECT_EQ(b.bytes() % 64, 0u);
  EXPECT_GE(b.bytes(), 1000 * sizeof(std::int16_t) + 64);
  const auto* bytes = reinterpret_cast<const unsigned char*>(b.data());
  for (std::size_t i = 0; i < b.bytes(); ++i) ASSERT_EQ(bytes[i], 0) << "byte " << i;
}

TEST(WorkloadBuffer, HugePagesAreWholeAlignedPagesZeroed) {
  // 3 MiB + 2 bytes of data: two whole 2 MiB pages.
  Buffer<std::uint8_t> b(3 * (std::size_t(1) << 20) + 2, Pages::kHuge);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % kHugePageBytes, 0u);
  EXPECT_EQ(b.bytes(), 2 * kHugePageBytes);
  const unsigned char* p = b.data();
  for (std::size_t i = 0; i < b.bytes(); i += 4093) ASSERT_EQ(p[i], 0) << "byte " << i;
  EXPECT_EQ(p[b.bytes() - 1], 0);
  // What the kernel granted depends on the system; it is at most the buffer, and counted
  // in whole 2 MiB pages.
  const std::size_t granted = workloads::huge_page_bytes(b.data(), b.bytes());
  EXPECT_LE(granted, b.bytes());
  EXPECT_EQ(granted % kHugePageBytes, 0u);
}

// A file in smaps' format: two mappings' headers and fields.
std::string write_smaps(const std::string& text) {
  const std::string path = ::testing::TempDir() + "nnuelab_smaps_test.txt";
  std::FILE* f = std::fopen(path.c_str(), "w");
  EXPECT_NE(f, nullptr);
  std::fputs(text.c_str(), f);
  std::fclose(f);
  return path;
}

TEST(HugePageBytes, CountsTheMappingsARangeOverlapsAndNoMore) {
  const std::string path = write_smaps(
      "7f0000000000-7f0000600000 rw-p 00000000 00:00 0 \n"
      "Size:               6144 kB\n"
      "AnonHugePages:      4096 kB\n"
      "FilePmdMapped:         0 kB\n"
      "VmFlags: rd wr mr mw me ac hg\n"
      "7f0000800000-7f0000a00000 rw-p 00000000 00:00 0                          [heap]\n"
      "Size:               2048 kB\n"
      "AnonHugePages:      2048 kB\n");
  const auto at = [](std::uintptr_t a) { return reinterpret_cast<const void*>(a); };
  constexpr std::size_t kMiB = std::size_t(1) << 20;
  // Inside the first mapping: its 4 MiB, at most the range.
  EXPECT_EQ(workloads::huge_page_bytes(at(0x7f0000000000), 6 * kMiB, path.c_str()), 4 * kMiB);
  EXPECT_EQ(workloads::huge_page_bytes(at(0x7f0000100000), 1 * kMiB, path.c_str()), 1 * kMiB);
  // Over both mappings: both counted.
  EXPECT_EQ(workloads::huge_page_bytes(at(0x7f0000000000), 10 * kMiB, path.c_str()), 6 * kMiB);
  // Between them (the gap 7f0000600000-7f0000800000) and past both: nothing.
  EXPECT_EQ(workloads::huge_page_bytes(at(0x7f0000600000), 2 * kMiB, path.c_str()), 0u);
  EXPECT_EQ(workloads::huge_page_bytes(at(0x7f0000a00000), 2 * kMiB, path.c_str()), 0u);
  std::remove(path.c_str());
}

TEST(HugePageBytes, AMissingFileCountsNothing) {
  int x = 0;
  EXPECT_EQ(workloads::huge_page_bytes(&x, sizeof x, "/nonexistent/nnuelab/smaps"), 0u);
}

}  // namespace
}  // namespace nnuelab::test
