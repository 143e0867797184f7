// Fuzz target of the FEN parser (workloads/chess.h): any string parses to a position whose
// HalfKAv2_hm features are in range (one per piece, kings included, per perspective) or
// fails with FenError; nothing else.
#include <string>

#include "fuzz/driver.h"
#include "workloads/chess.h"
#include "workloads/nnue.h"

namespace {
using namespace nnuelab;

int one_input(const std::uint8_t* data, std::size_t size) {
  const std::string fen(reinterpret_cast<const char*>(data), size);
  workloads::Position p;
  try {
    p = workloads::parse_fen(fen);
  } catch (const workloads::FenError&) {
    return 0;
  }
  if (p.pieces < 2 || p.pieces > 32) fuzz::fail("parsed FEN with " + std::to_string(p.pieces) + " pieces: " + fen);
  for (workloads::Color c : {workloads::kWhite, workloads::kBlack}) {
    std::uint32_t feats[workloads::kMaxActiveFeatures];
    const int n = workloads::halfka_v2_hm_features(p, c, feats);
    if (n != p.pieces) fuzz::fail("feature count " + std::to_string(n) + " != pieces " + std::to_string(p.pieces) + ": " + fen);
    for (int j = 0; j < n; ++j)
      if (feats[j] >= std::uint32_t(workloads::kHalfKAv2Features)) fuzz::fail("feature out of range: " + fen);
    if (workloads::layer_bucket(p) < 0 || workloads::layer_bucket(p) >= workloads::kLayerStacks) fuzz::fail("layer bucket out of range: " + fen);
  }
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
