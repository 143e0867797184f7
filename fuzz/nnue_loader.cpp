// Fuzz target of the .nnue loader (workloads/nnue.h): any byte string either loads as a
// whole, consistent net or fails with NetError; nothing else (no other exception, no
// crash, no allocation beyond what the file's own size can justify: ./lab fuzz runs this
// target with -malloc_limit_mb).
//
// The first byte picks the mode. 0: the rest is the file image as is. Otherwise the rest
// describes a synthetic net (L1, raw or LEB128, seed) that is built whole and then edited
// (byte patches, a declared size overwritten, truncation, trailing bytes), so small
// corpus files reach every section of a full-size image.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>

#include "fuzz/driver.h"
#include "workloads/nnue.h"

namespace {
using namespace nnuelab;

void check(std::span<const std::uint8_t> image) {
  try {
    const workloads::Network net = workloads::parse_network(image, "fuzz.nnue");
    const std::size_t l1 = std::size_t(net.l1);
    if (net.ft_bias.size() != l1 || net.ft_weights.size() != l1 * workloads::kHalfKAv2Features ||
        net.psqt_weights.size() != std::size_t(workloads::kPsqtBuckets) * workloads::kHalfKAv2Features)
      fuzz::fail("a loaded net has arrays of the wrong size (L1 = " + std::to_string(net.l1) + ")");
    for (const auto& st : net.stacks)
      if (st.w0.size() != workloads::kFc0Out * l1 || st.w1.size() != std::size_t(workloads::kFc1Out) * workloads::kFc1In)
        fuzz::fail("a loaded net has a layer stack of the wrong size");
  } catch (const workloads::NetError& e) {
    if (std::string(e.what()).rfind("fuzz.nnue: ", 0) != 0) fuzz::fail(std::string("NetError without the file name: ") + e.what());
  }
}

int one_input(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] == 0) {
    check({data + 1, size - 1});
    return 0;
  }
  FuzzedDataProvider fdp(data + 1, size - 1);
  const int l1 = 16 * fdp.ConsumeIntegralInRange<int>(1, 4);
  const bool leb128 = fdp.ConsumeBool();
  std::vector<std::uint8_t> image = workloads::synthetic_network_image(l1, leb128, fdp.ConsumeIntegral<std::uint64_t>());
  // Offsets either in the first 64 bytes (header, hashes, magic, counts) or anywhere.
  auto offset = [&] {
    return fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<std::size_t>(0, 63)
                             : fdp.ConsumeIntegralInRange<std::size_t>(0, image.size() - 1);
  };
  for (int edits = fdp.ConsumeIntegralInRange<int>(0, 6); edits > 0 && !image.empty(); --edits) {
    switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: image[std::min(offset(), image.size() - 1)] ^= fdp.ConsumeIntegralInRange<std::uint8_t>(1, 255); break;
      case 1: {  // a little-endian u32 written over a declared size, hash or count
        const std::size_t at = std::min(offset(), image.size() - 4);
        const std::uint32_t v = fdp.ConsumeIntegral<std::uint32_t>();
        for (int b = 0; b < 4; ++b) image[at + b] = std::uint8_t(v >> (8 * b));
        break;
      }
      case 2: image.resize(std::min(offset(), image.size())); break;
      default: image.resize(image.size() + fdp.ConsumeIntegralInRange<std::size_t>(1, 64), fdp.ConsumeIntegral<std::uint8_t>()); break;
    }
  }
  check(image);
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
