// The benchmark workloads: workloads::Buffer's page modes, huge_page_bytes' reading of
// /proc/self/smaps (on a fabricated file, so every branch is checked whatever this system's
// transparent huge page policy is), the pools' nnz bitsets and lists, and which files of
// the traces folder are taken for recordings, and the benchmarks' staging copy.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/common/elementwise.h"
#include "workloads/data.h"
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

// The benchmarks' staging copy: every byte of the source at every length around its 64-byte
// step and tail (0..200, and the staged sizes 1024 .. 4096 + 13), from and to every offset
// within a line, and not one byte before or after the destination range.
TEST(StageCopy, CopiesEveryByteAndNothingAround) {
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 200; ++n) lengths.push_back(n);
  for (std::size_t n : {1024u, 1536u, 2111u, 2112u, 3072u, 4096u, 4109u}) lengths.push_back(n);
  workloads::Rng rng(77);
  std::vector<unsigned char> src(4109 + 128), dst(4109 + 256);
  for (auto& b : src) b = static_cast<unsigned char>(rng.uniform(0, 255));
  for (std::size_t n : lengths)
    for (std::size_t from : {0u, 1u, 15u, 33u, 63u})
      for (std::size_t to : {0u, 7u, 16u, 61u}) {
        std::fill(dst.begin(), dst.end(), 0xa5);
        workloads::stage_copy(dst.data() + 64 + to, src.data() + from, n);
        for (std::size_t i = 0; i < dst.size(); ++i) {
          const bool inside = i >= 64 + to && i < 64 + to + n;
          const unsigned char want = inside ? src[from + i - 64 - to] : 0xa5;
          ASSERT_EQ(dst[i], want) << "length " << n << ", from +" << from << ", to +" << to << ", byte " << i;
        }
      }
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

// pool_nnz_bitsets / pool_nnz_lists: per input of the pool, its own row (input i's at
// i * the row's length), naming exactly the 4-byte chunks with a non-zero byte; the
// list's row is the count, then the chunks in increasing order. Checked against the pool's
// bytes directly, at chunk counts that do and do not fill the bitset's last word.
TEST(PoolNnz, BitsetsAndListsNameEachInputsNonZeroChunks) {
  for (const int n : {1536, 260, 4}) {
    for (const char* density : {"chunk:0", "chunk:15", "dense:100"}) {
      SCOPED_TRACE(std::to_string(n) + " " + density);
      const auto pool = workloads::make_input_pool(n, workloads::parse_density(density), 5, 1234 + n);
      const std::vector<std::uint64_t> bits = workloads::pool_nnz_bitsets(pool);
      const std::vector<std::uint16_t> lists = workloads::pool_nnz_lists(pool);
      const std::size_t words = std::size_t(nnz_bitset_words(n)), stride = workloads::pool_list_stride(pool);
      ASSERT_EQ(stride, std::size_t(n / 4 + 1));
      ASSERT_EQ(bits.size(), words * 5);
      ASSERT_EQ(lists.size(), stride * 5);
      for (int i = 0; i < 5; ++i) {
        const std::uint8_t* in = pool.get(i);
        std::vector<std::uint16_t> expected;
        for (int c = 0; c < n / 4; ++c)
          if (in[4 * c] | in[4 * c + 1] | in[4 * c + 2] | in[4 * c + 3]) expected.push_back(std::uint16_t(c));
        const std::uint16_t* row = lists.data() + i * stride;
        ASSERT_EQ(row[0], expected.size()) << "input " << i;
        EXPECT_EQ(std::vector<std::uint16_t>(row + 1, row + 1 + row[0]), expected) << "input " << i;
        std::vector<std::uint64_t> expected_bits(words, 0);
        for (const std::uint16_t c : expected) expected_bits[c / 64] |= std::uint64_t(1) << (c % 64);
        EXPECT_EQ(std::vector<std::uint64_t>(bits.begin() + i * words, bits.begin() + (i + 1) * words), expected_bits)
            << "input " << i;
      }
    }
  }
}

TEST(PoolNnz, AListNeedsWholeChunks) {
  const auto pool = workloads::make_input_pool(258, workloads::parse_density("chunk:50"), 2, 7);
  EXPECT_EQ(workloads::pool_nnz_bitsets(pool).size(), std::size_t(nnz_bitset_words(258)) * 2);
  EXPECT_THROW(workloads::pool_nnz_lists(pool), std::invalid_argument);
}

// A recording's width is the whole text between ".L1-" and ".u8": a name whose width is
// no number, overflows an int (std::atoi's undefined case), is 0 or has text after it is
// passed over, not read with a wrong width.
TEST(FindTraces, TakesOnlyNamesWithAWholePositiveWidth) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("nnuelab-traces-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* name : {"nn-a.L1-1536.u8", "nn-b.L1-99999999999999.u8", "nn-c.L1-12x.u8", "nn-d.L1-.u8",
                           "nn-e.L1-0.u8", "nn-f.L1-64.bin", "nn-g.L1--64.u8", "nn-h.L1-64.u8.u8"})
    std::ofstream(dir / name) << "x";
  auto saved = [](const char* var) -> std::optional<std::string> {
    const char* v = std::getenv(var);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const auto traces = saved("NNUELAB_TRACES"), data = saved("NNUELAB_DATA");
  ::setenv("NNUELAB_TRACES", dir.c_str(), 1);
  ::setenv("NNUELAB_DATA", (dir / "no-data-folder").c_str(), 1);  // no Stockfish recordings
  const auto found = workloads::find_traces();
  for (const auto& [var, value] : {std::pair{"NNUELAB_TRACES", traces}, std::pair{"NNUELAB_DATA", data}})
    value ? ::setenv(var, value->c_str(), 1) : ::unsetenv(var);
  fs::remove_all(dir);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].net, "nn-a");
  EXPECT_EQ(found[0].tag, "a");
  EXPECT_EQ(found[0].width, 1536);
}

}  // namespace
}  // namespace nnuelab::test
