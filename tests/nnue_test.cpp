// Real nets on real positions: the .nnue loader, FEN parsing, HalfKAv2_hm features and the
// reference forward pass, checked against the values Stockfish computed
// (../shared/data/expected); and the parsers' errors on corrupt nets and bad FENs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "workloads/chess.h"
#include "workloads/data.h"
#include "kernels/affine/registry.h"
#include "kernels/crelu32/registry.h"
#include "kernels/ft_output/registry.h"
#include "kernels/ft_refresh/registry.h"
#include "kernels/sqr_crelu32/registry.h"
#include "workloads/engine.h"
#include "workloads/eval.h"
#include "workloads/nnue.h"
#include "workloads/synthetic.h"

namespace nnuelab::test {
namespace {
using namespace workloads;

#define NNUELAB_NEED_DATA(dir)                                                           \
  std::string why_missing;                                                               \
  const auto dir = workloads::data_dir(&why_missing);                                    \
  if (!dir) GTEST_SKIP() << "needs ../shared/data (real nets, positions and Stockfish's values): " << why_missing \
                         << "; on a fresh machine ./lab nets exports the L1 = 1024 net from Debian's stockfish package"

// Nets are tens of MB: load each once per process.
const Network& net(int l1) {
  static std::map<int, Network> cache;
  auto it = cache.find(l1);
  if (it == cache.end()) it = cache.emplace(l1, load_network(*data_dir() + "/nets/" + net_file_for_l1(l1))).first;
  return it->second;
}

std::vector<std::vector<std::string>> read_tsv(const std::string& path, bool header = true) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  if (header) std::getline(f, line);
  while (std::getline(f, line)) {
    std::vector<std::string> cols;
    std::istringstream in(line);
    for (std::string c; std::getline(in, c, '\t');) cols.push_back(c);
    rows.push_back(cols);
  }
  return rows;
}

struct NetCase {
  int l1;
  const char* expected;  // file in expected/
  bool divided;          // psqt and positional columns already divided by 16 (the L1 = 128 file)
};
const NetCase kNets[] = {{1024, "sf15.1-nn-ad9b42354671.tsv", false},
                         {1536, "sf16-nn-5af11540bbfe.tsv", false},
                         {3072, "sf17.1-nn-1c0000000000.tsv", false},
                         {128, "sf17-nn-37f18f62d772.tsv", true}};

TEST(NnueLoad, EveryNetLoadsWithItsL1AndHashes) {
  NNUELAB_NEED_DATA(dir);
  for (const NetCase& c : kNets) {
    const Network& n = net(c.l1);
    EXPECT_EQ(n.l1, c.l1);
    EXPECT_EQ(n.header_hash, n.ft_hash ^ n.stack_hash);
    EXPECT_EQ(n.ft_bias.size(), std::size_t(c.l1));
    EXPECT_EQ(n.ft_weights.size(), std::size_t(c.l1) * kHalfKAv2Features);
    for (const LayerStack& s : n.stacks) {
      EXPECT_EQ(s.w0.size(), std::size_t(kFc0Out) * c.l1);
      EXPECT_EQ(s.w1.size(), std::size_t(kFc1Out) * kFc1In);  // columns 30, 31 meet zero inputs
    }
  }
  EXPECT_FALSE(net(1024).compressed);  // raw arrays
  EXPECT_TRUE(net(1536).compressed);   // COMPRESSED_LEB128
}

// Every position of expected/: Stockfish's bucket, psqt and positional, exactly.
TEST(NnueEval, ReferencePathMatchesStockfishOnEveryNet) {
  NNUELAB_NEED_DATA(dir);
  for (const NetCase& c : kNets) {
    int checked = 0;
    for (const auto& row : read_tsv(*dir + "/expected/" + c.expected)) {
      const Evaluation e = evaluate_reference(net(c.l1), parse_fen(row[0]));
      const std::string where = std::string(c.expected) + ": " + row[0];
      if (c.divided) {  // fen, printed eval, stm, bucket, psqt/16, positional/16, value
        if (row[4] == "NA") continue;  // in check: Stockfish printed no evaluation
        ASSERT_EQ(e.bucket, std::stoi(row[3])) << where;
        ASSERT_EQ(e.psqt / 16, std::stoi(row[4])) << where;
        ASSERT_EQ(e.positional / 16, std::stoi(row[5])) << where;
        ASSERT_EQ(e.psqt / 16 + e.positional / 16, std::stoi(row[6])) << where;
      } else {  // fen, stm, bucket, psqt, positional, value
        ASSERT_EQ(e.bucket, std::stoi(row[2])) << where;
        ASSERT_EQ(e.psqt, std::stoi(row[3])) << where;
        ASSERT_EQ(e.positional, std::stoi(row[4])) << where;
        if (c.l1 == 3072) {  // Stockfish 17.1: (125 p + 131 q) / 128 of the /16 parts
          ASSERT_EQ((125 * (e.psqt / 16) + 131 * (e.positional / 16)) / 128, std::stoi(row[5])) << where;
        } else {
          ASSERT_EQ(e.value, std::stoi(row[5])) << where;
        }
      }
      ++checked;
    }
    EXPECT_GE(checked, c.divided ? 50 : 300) << c.expected;
  }
}

// The forward pass composed of the fastest native variants gives Stockfish's numbers too.
TEST(NnueEngine, FastPresetMatchesStockfishOnEveryNet) {
  NNUELAB_NEED_DATA(dir);
  for (const NetCase& c : kNets) {
    const Engine engine(net(c.l1), layer_preset("fast"));
    EXPECT_NE(engine.choice().at("fc0"), "reference");
    int checked = 0;
    for (const auto& row : read_tsv(*dir + "/expected/" + c.expected)) {
      if (c.divided && row[4] == "NA") continue;
      const Position pos = parse_fen(row[0]);
      const Evaluation got = engine.evaluate(pos), want = evaluate_reference(net(c.l1), pos);
      const std::string where = engine.choice().at("fc0") + " on " + c.expected + ": " + row[0];
      ASSERT_EQ(got.positional, want.positional) << where;
      ASSERT_EQ(got.psqt, want.psqt) << where;
      ASSERT_EQ(got.ft_out, want.ft_out) << where;
      ASSERT_EQ(got.positional, c.divided ? got.positional : std::stoi(row[4])) << where;
      ++checked;
    }
    EXPECT_GE(checked, 50);
  }
}

// Any affine variant can be plugged into any fc layer: every one that supports the layer's
// shape (emulated ones included) reproduces the reference pass on real positions.
TEST(NnueEngine, EveryAffineVariantPluggedIntoEachLayerIsExact) {
  NNUELAB_NEED_DATA(dir);
  const Network& n = net(1536);
  const auto rows = read_tsv(*dir + "/expected/sf16-nn-5af11540bbfe.tsv");
  int plugged = 0;
  for (const affine::Variant& v : affine::variants()) {
    if (!v.info.available()) continue;
    for (const auto& [layer, shape] : {std::pair<const char*, affine::Shape>{"fc0", {1536, 16}}, {"fc1", {32, 32}}, {"fc2", {32, 1}}}) {
      if (!affine::why_unsupported(v, shape).empty()) {
        EXPECT_THROW(Engine(n, {{layer, v.info.name}}), std::invalid_argument) << v.info.name << " in " << layer;
        continue;
      }
      const Engine engine(n, {{layer, v.info.name}});
      ++plugged;
      for (std::size_t i = 0; i < rows.size(); i += v.info.emulated ? 60 : 15) {
        const Position pos = parse_fen(rows[i][0]);
        ASSERT_EQ(engine.evaluate(pos).positional, std::stoi(rows[i][4])) << v.info.name << " in " << layer << ": " << rows[i][0];
      }
    }
  }
  EXPECT_GT(plugged, 10);
}

// A layer variant plugged into `engine`: every 25th row of `rows` (every 100th for an
// emulated variant) must give Stockfish's positional value, and the engine's `bytes`
// (the canonical activation the variant produced) the reference path's.
template <class Bytes>
void expect_plugged_engine_exact(const Engine& engine, const Network& n, const std::vector<std::vector<std::string>>& rows,
                                 const VariantInfo& variant, const char* next_layer, Bytes Evaluation::*bytes) {
  for (std::size_t i = 0; i < rows.size(); i += variant.emulated ? 100 : 25) {
    const Position pos = parse_fen(rows[i][0]);
    const Evaluation e = engine.evaluate(pos);
    ASSERT_EQ(e.positional, std::stoi(rows[i][4])) << variant.name << " -> " << engine.choice().at(next_layer) << ": " << rows[i][0];
    ASSERT_EQ(e.*bytes, evaluate_reference(n, pos).*bytes) << variant.name;
  }
}

// Every ft_output variant (lane-ordered and *_bits producers included) in front of fc_0:
// the engine permutes fc_0's columns to the declared order and feeds the bitset to a
// bitset-reading fc_0; the values and the canonical bytes stay Stockfish's.
TEST(NnueEngine, EveryFtOutputVariantPluggedInIsExact) {
  NNUELAB_NEED_DATA(dir);
  const Network& n = net(1536);
  const auto rows = read_tsv(*dir + "/expected/sf16-nn-5af11540bbfe.tsv");
  int plugged = 0;
  for (const ft_output::Variant& v : ft_output::variants()) {
    if (!v.info.available() || !ft_output::why_unsupported(v, {1536, ft_output::Form::kClamp127}).empty()) continue;
    // An explicit dense fc_0 next to "best" (sparse) and the reference: the x86 or the
    // NEON one, whichever this build has and this CPU runs.
    // nullptr: fc_0 not chosen at all (the reference), as a caller naming one layer does.
    for (const char* fc0 : {"best", "reference", "affine/avx2/dense_blocked4", "affine/neon/dense_blocked4", (const char*)nullptr}) {
      if (fc0 && std::string(fc0).starts_with("affine/")) {
        const affine::Variant* named = find_variant(affine::variants(), fc0);
        if (!named || !named->info.available()) continue;
      }
      const Engine engine = fc0 ? Engine(n, {{"ft_out", v.info.name}, {"fc0", fc0}}) : Engine(n, {{"ft_out", v.info.name}});
      ++plugged;
      // A bitset producer in front of an fc_0 that cannot read the bitset runs as its plain
      // sibling (the kernels are called unchecked: a *_bits one would write through no buffer).
      const affine::Variant* consumer = find_variant(affine::variants(), engine.choice().at("fc0"));
      if (v.writes_bits) {
        EXPECT_EQ(engine.choice().at("ft_out") + (consumer && consumer->run_bits ? "" : "_bits"), v.info.name)
            << "fc0 " << engine.choice().at("fc0");
      }
      expect_plugged_engine_exact(engine, n, rows, v.info, "fc0", &Evaluation::ft_out);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(plugged, 6);
}

// Every crelu32 variant that takes 32 elements in crelu1 (the *_lanes forms included):
// for a lane-ordered one the engine permutes fc_2's columns, in its packed weights or in
// the reference fc_2's copy; the values and the canonical ac1 bytes stay Stockfish's.
TEST(NnueEngine, EveryCrelu32VariantPluggedIntoCrelu1IsExact) {
  NNUELAB_NEED_DATA(dir);
  const Network& n = net(1536);
  const auto rows = read_tsv(*dir + "/expected/sf16-nn-5af11540bbfe.tsv");
  int plugged = 0, lane_ordered = 0;
  for (const crelu32::Variant& v : crelu32::variants()) {
    if (!v.info.available() || v.writes_bits || !crelu32::why_unsupported(v, {32, 6}).empty()) continue;
    for (const char* fc2 : {"best", "reference"}) {
      const Engine engine(n, {{"crelu1", v.info.name}, {"fc2", fc2}});
      ++plugged;
      lane_ordered += !v.canonical_order();
      expect_plugged_engine_exact(engine, n, rows, v.info, "fc2", &Evaluation::ac1);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(plugged, 4);
  const auto all = crelu32::variants();
  // (Under an emulated CPU without AVX2 only the 512-bit *_lanes forms run, and they refuse 32.)
  if (std::any_of(all.begin(), all.end(), [](const crelu32::Variant& v) {
        return v.info.available() && !v.writes_bits && !v.canonical_order() && crelu32::why_unsupported(v, {32, 6}).empty();
      })) {
    EXPECT_GT(lane_ordered, 0);
  }
  // crelu0's bytes share fc_1's row with sqr0's: a lane order there is refused by name.
  for (const crelu32::Variant& v : all)
    if (!v.canonical_order()) {
      EXPECT_THROW(Engine(n, {{"crelu0", v.info.name}}), std::invalid_argument) << v.info.name;
    }
}

// sqr0 and crelu0 run a variant over all 16 of fc_0's outputs (the vector forms take
// n % 16 == 0, none the 15 fc_1 reads): fc_1's input must still be the 15 squared bytes,
// the 15 clipped ones and two zeros, with a variant on either side or both. A lane-ordered
// sqr_crelu32 form is refused there by name, as crelu32's are for crelu0.
TEST(NnueEngine, EverySqr0AndCrelu0VariantPluggedInIsExact) {
  NNUELAB_NEED_DATA(dir);
  const Network& n = net(1536);
  const auto rows = read_tsv(*dir + "/expected/sf16-nn-5af11540bbfe.tsv");
  int plugged = 0, vector_forms = 0;
  // Every available form of `variants` taking n = 16 in `layer`, with `other` (the layer
  // sharing fc_1's row) best or the reference.
  auto plug = [&](const auto& variants, auto why_unsupported, const char* layer, const char* other) {
    for (const auto& v : variants) {
      if (!v.info.available() || v.writes_bits || !why_unsupported(v, {16, 6}).empty()) continue;
      if (!v.canonical_order()) {  // refused by name: its bytes would land out of fc_1's order
        try {
          const Engine refused(n, {{layer, v.info.name}});
          ADD_FAILURE() << v.info.name << " was plugged into " << layer;
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("leaves a lane order"), std::string::npos) << e.what();
        }
        continue;
      }
      for (const char* o : {"best", "reference"}) {
        const Engine engine(n, {{layer, v.info.name}, {other, o}});
        ++plugged;
        vector_forms += v.info.isa != "scalar";
        expect_plugged_engine_exact(engine, n, rows, v.info, other, &Evaluation::ac0);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  };
  plug(sqr_crelu32::variants(), &sqr_crelu32::why_unsupported, "sqr0", "crelu0");
  if (HasFatalFailure()) return;
  plug(crelu32::variants(), &crelu32::why_unsupported, "crelu0", "sqr0");
  if (HasFatalFailure()) return;
  EXPECT_GT(plugged, 4);
#if defined(__x86_64__) || defined(__aarch64__)
  EXPECT_GT(vector_forms, 0);  // SSE2 (x86-64's baseline) or NEON forms take n = 16
#endif
  // Every lane-ordered sqr_crelu32 form is refused in sqr0: today's (avx2/avx512bw) refuse
  // n = 16 as a shape, so the by-name refusal above is what a form taking 16 would meet.
  for (const sqr_crelu32::Variant& v : sqr_crelu32::variants())
    if (!v.canonical_order()) {
      EXPECT_THROW(Engine(n, {{"sqr0", v.info.name}}), std::invalid_argument) << v.info.name;
    }
}

// Every ft_refresh variant building both accumulators in one call (emulated ones included).
TEST(NnueEngine, EveryFtRefreshVariantPluggedInIsExact) {
  NNUELAB_NEED_DATA(dir);
  const auto rows = read_tsv(*dir + "/expected/sf17-nn-37f18f62d772.tsv");  // the L1 = 128 net: emulation stays fast
  int plugged = 0;
  for (const ft_refresh::Variant& v : ft_refresh::variants()) {
    if (!v.info.available() || !ft_refresh::why_unsupported(v, {128, kHalfKAv2Features, 32, 2}).empty()) continue;
    const Engine engine(net(128), {{"ft", v.info.name}});
    ++plugged;
    for (std::size_t i = 0; i < rows.size(); i += 7) {
      const Position pos = parse_fen(rows[i][0]);
      ASSERT_EQ(engine.evaluate(pos).ft_out, evaluate_reference(net(128), pos).ft_out) << v.info.name << ": " << rows[i][0];
    }
  }
  EXPECT_GE(plugged, 4);
}

TEST(NnueEngine, BadChoicesAreClearErrors) {
  NNUELAB_NEED_DATA(dir);
  const Network& n = net(128);
  EXPECT_THROW(Engine(n, {{"fc9", "reference"}}), std::invalid_argument);
  EXPECT_THROW(Engine(n, {{"fc0", "affine/avx2/no_such_technique"}}), std::invalid_argument);
  EXPECT_THROW(Engine(n, {{"fc2", "affine/scalar/dense_rows"}, {"fc0", "crelu32/scalar/clamp"}}), std::invalid_argument);
  EXPECT_THROW(layer_preset("fastest"), std::invalid_argument);
}

// The feature-transformer bytes (the first affine layer's input) of the first 60 positions.
TEST(NnueEval, FeatureTransformerBytesMatchStockfish) {
  NNUELAB_NEED_DATA(dir);
  for (int l1 : {1024, 1536, 3072}) {
    const std::string file = "ft-output-" + net_file_for_l1(l1).substr(0, 15) + ".tsv";
    int checked = 0;
    for (const auto& row : read_tsv(*dir + "/expected/" + file, false)) {
      const Evaluation e = evaluate_reference(net(l1), parse_fen(row[0]));
      ASSERT_EQ(row[1].size(), std::size_t(2 * l1)) << file;
      for (int i = 0; i < l1; ++i)
        ASSERT_EQ(e.ft_out[i], std::stoi(row[1].substr(2 * i, 2), nullptr, 16)) << file << " " << row[0] << " byte " << i;
      ++checked;
    }
    EXPECT_EQ(checked, 60) << file;
  }
}

// All 3,048 positions through the fast forward pass give exactly the first-layer inputs
// Stockfish recorded (../shared/data/traces): every byte of every row.
TEST(NnueEval, FastPathReproducesStockfishTracesOnAllPositions) {
  NNUELAB_NEED_DATA(dir);
  std::ifstream epd(*dir + "/positions.epd");
  std::vector<std::string> fens;
  for (std::string line; std::getline(epd, line);)
    if (!line.empty()) fens.push_back(line);
  ASSERT_EQ(fens.size(), 3048u);
  for (int l1 : {1536, 3072}) {
    const std::string name = net_file_for_l1(l1);
    const auto trace = [&] {
      std::ifstream f(*dir + "/traces/" + name.substr(0, name.size() - 5) + ".u8", std::ios::binary);
      return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }();
    ASSERT_EQ(trace.size(), fens.size() * l1) << name;
    const Engine engine(net(l1), layer_preset("fast"));
    for (std::size_t i = 0; i < fens.size(); ++i) {
      const Evaluation e = engine.evaluate(parse_fen(fens[i]));
      ASSERT_TRUE(std::equal(e.ft_out.begin(), e.ft_out.end(), trace.begin() + i * l1)) << name << " row " << i << ": " << fens[i];
    }
  }
}

// "Helping the odds": neurons regrouped by co-activation (from the recorded trace) change which
// bytes share a chunk, never the evaluation; and they lower the chunk density.
TEST(NnueEval, CoactivationPermutationIsOutputIdenticalAndSparser) {
  NNUELAB_NEED_DATA(dir);
  const Network& orig = net(1536);
  std::ifstream f(*dir + "/traces/nn-5af11540bbfe.u8", std::ios::binary);
  const std::vector<std::uint8_t> trace{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  ASSERT_EQ(trace.size(), 3048u * 1536);
  // The order comes from positions 300..3047 and is judged on positions 0..299 (out of sample).
  Network perm = orig;
  permute_ft_neurons(perm, neurons_by_activity(std::vector<std::uint8_t>(trace.begin() + 300 * 1536, trace.end()), 1536));
  auto chunk_density = [](const std::vector<std::uint8_t>& b) {
    long on = 0;
    for (std::size_t c = 0; c < b.size(); c += 4) on += (b[c] | b[c + 1] | b[c + 2] | b[c + 3]) != 0;
    return double(on) / double(b.size() / 4);
  };
  double before = 0, after = 0;
  int n = 0;
  for (const auto& row : read_tsv(*dir + "/expected/sf16-nn-5af11540bbfe.tsv")) {
    const Position pos = parse_fen(row[0]);
    const Evaluation a = evaluate_reference(orig, pos), b = evaluate_reference(perm, pos);
    ASSERT_EQ(b.positional, a.positional) << row[0];
    ASSERT_EQ(b.psqt, a.psqt) << row[0];
    ASSERT_NE(a.ft_out, b.ft_out) << "the permutation did not move any byte";
    before += chunk_density(a.ft_out);
    after += chunk_density(b.ft_out);
    ++n;
  }
  std::printf("chunk density over %d held-out positions: %.2f%% -> %.2f%% after the co-activation permutation\n", n, 100 * before / n, 100 * after / n);
  EXPECT_LT(after, before);
  std::vector<int> bad(768, 0);
  EXPECT_THROW(permute_ft_neurons(perm, bad), std::invalid_argument);
}

// ---- bad input: clear errors, never a crash or a partial load --------------------------

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void expect_net_error(const std::vector<std::uint8_t>& bytes, const std::string& needle, const std::string& what) {
  try {
    parse_network(bytes, "mutated.nnue");
    ADD_FAILURE() << what << ": loaded without an error";
  } catch (const NetError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << what << ": " << e.what();
  }
}

TEST(NnueLoad, TruncatedCorruptAndPaddedFilesGiveClearErrors) {
  NNUELAB_NEED_DATA(dir);
  const auto good = file_bytes(*dir + "/nets/" + net_file_for_l1(128));  // LEB128, 3.5 MB
  ASSERT_NO_THROW(parse_network(good, "good.nnue"));
  // Truncated anywhere: in the header, inside LEB128 data, inside a layer stack, at the end.
  for (std::size_t len : {std::size_t(0), std::size_t(3), std::size_t(11), std::size_t(200), good.size() / 3,
                          good.size() - 100, good.size() - 1}) {
    expect_net_error(std::vector<std::uint8_t>(good.begin(), good.begin() + len), "", "truncated to " + std::to_string(len));
  }
  expect_net_error(std::vector<std::uint8_t>(good.begin(), good.end() - 1), "layer stack 7", "one byte short");
  auto longer = good;
  longer.push_back(0);
  expect_net_error(longer, "unexpected bytes after the last layer stack", "one byte too many");
  auto version = good;
  version[0] ^= 1;
  expect_net_error(version, "version", "wrong version");
  auto header = good;
  header[4] ^= 0x10;
  expect_net_error(header, "header hash", "header hash");
  // The feature transformer hash sits after the description.
  const std::size_t desc = good[8] | good[9] << 8 | good[10] << 16 | std::size_t(good[11]) << 24;
  auto ft = good;
  ft[12 + desc] ^= 0x01;  // hash ^ (2 * L1) becomes odd: not a HalfKAv2_hm transformer
  expect_net_error(ft, "not a HalfKAv2_hm feature transformer", "feature transformer hash");
  auto count = good;
  count[12 + desc + 4 + 17] ^= 0x01;  // the first LEB128 byte count
  expect_net_error(count, "feature transformer", "LEB128 byte count");
}

// A folder, a missing path and an empty file, through every reader of a whole file: a
// clear error naming the path (a folder used to surface as libstdc++'s "basic_filebuf::
// underflow" from the first read), never a net or trace of no bytes.
TEST(NnueLoad, FoldersAndMissingFilesGiveClearErrors) {
  const std::string folder = ::testing::TempDir();
  const std::string missing = folder + "/nnuelab-no-such-file.nnue";
  const std::string empty = folder + "/nnuelab-empty-file.u8";
  { std::ofstream(empty, std::ios::binary); }
  const auto expect_error = [](auto&& call, const std::string& needle, const std::string& what) {
    try {
      call();
      ADD_FAILURE() << what << ": no error";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << what << ": " << e.what();
    }
  };
  expect_error([&] { load_network(folder); }, "net " + folder + ": is a folder, not a file", "net: a folder");
  expect_error([&] { load_network(missing); }, "net " + missing + ": no such file", "net: missing");
  expect_error([&] { load_network(empty); }, "truncated", "net: empty");
  expect_error([&] { workloads::load_trace_file(folder, 1024); }, "trace " + folder + ": is a folder", "trace: a folder");
  expect_error([&] { workloads::load_trace_file(missing, 1024); }, "no such file", "trace: missing");
  expect_error([&] { workloads::load_trace_file(empty, 1024); }, "holds 0 bytes", "trace: empty");
  EXPECT_TRUE(workloads::read_file_bytes(empty, "file").empty());
  std::remove(empty.c_str());
}

// ---- fuzz-style: thousands of mutated nets and FENs, never a crash --------------------

// A small valid net of this family (L1 = 16, workloads' synthetic image), so thousands of
// mutations parse in seconds; the real nets' LEB128 form is mutated below too.
std::vector<std::uint8_t> tiny_net(Rng& rng, bool leb128) { return synthetic_network_image(16, leb128, rng.next()); }

TEST(Fuzz, MutatedNetsLoadOrFailCleanly) {
  Rng rng(0xf022);
  int loaded = 0, refused = 0;
  for (bool leb128 : {false, true}) {
    const std::vector<std::uint8_t> good = tiny_net(rng, leb128);
    const Network n = parse_network(good, "tiny.nnue");  // the unmutated file is valid
    ASSERT_EQ(n.l1, 16);
    ASSERT_EQ(n.compressed, leb128);
    for (int i = 0; i < 1500; ++i) {
      std::vector<std::uint8_t> m = good;
      switch (rng.uniform(0, 4)) {
        case 0:  // flip bytes, biased towards the header and section boundaries
          for (int k = int(rng.uniform(1, 4)); k > 0; --k) {
            const std::size_t at = std::size_t(rng.uniform(0, 3) == 0 ? rng.uniform(0, 80) : rng.uniform(0, std::int64_t(m.size()) - 1));
            m[std::min(at, m.size() - 1)] ^= std::uint8_t(rng.uniform(1, 255));
          }
          break;
        case 1: m.resize(std::size_t(rng.uniform(0, std::int64_t(m.size()) - 1))); break;                              // truncate
        case 2: m.insert(m.begin() + long(rng.uniform(0, std::int64_t(m.size()))), std::uint8_t(rng.next())); break;  // insert
        case 3: m.erase(m.begin() + long(rng.uniform(0, std::int64_t(m.size()) - 1))); break;             // delete
        default: m.resize(m.size() + std::size_t(rng.uniform(1, 64)), std::uint8_t(rng.next())); break;  // trailing bytes
      }
      try {
        const Network x = parse_network(m, "mutated.nnue");
        // A mutation the format cannot see (a weight byte): still a whole, consistent net.
        EXPECT_EQ(x.ft_weights.size(), std::size_t(x.l1) * kHalfKAv2Features);
        ++loaded;
      } catch (const NetError& e) {
        EXPECT_NE(std::string(e.what()).find("mutated.nnue: "), std::string::npos) << e.what();
        ++refused;
      }
    }
  }
  EXPECT_GT(refused, 1000);
  EXPECT_GT(loaded, 100);
}

TEST(Fuzz, MutatedFensParseOrFailCleanly) {
  NNUELAB_NEED_DATA(dir);
  std::ifstream epd(*dir + "/positions.epd");
  std::vector<std::string> fens;
  for (std::string line; std::getline(epd, line);) fens.push_back(line);
  Rng rng(0xfe4);
  const std::string alphabet = "pnbrqkPNBRQK12345678/ wb-KQkq09x";
  int parsed = 0, refused = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string f = fens[std::size_t(rng.uniform(0, std::int64_t(fens.size()) - 1))];
    for (int k = int(rng.uniform(1, 3)); k > 0; --k) {
      const std::size_t at = std::size_t(rng.uniform(0, std::int64_t(f.size())));
      switch (rng.uniform(0, 2)) {
        case 0: if (at < f.size()) f[at] = alphabet[std::size_t(rng.uniform(0, std::int64_t(alphabet.size()) - 1))]; break;
        case 1: f.insert(at, 1, alphabet[std::size_t(rng.uniform(0, std::int64_t(alphabet.size()) - 1))]); break;
        default: if (at < f.size()) f.erase(at, 1); break;
      }
    }
    try {
      const Position p = parse_fen(f);
      std::uint32_t feats[kMaxActiveFeatures];
      for (Color c : {kWhite, kBlack}) {
        const int n = halfka_v2_hm_features(p, c, feats);
        ASSERT_EQ(n, p.pieces) << f;
        for (int j = 0; j < n; ++j) ASSERT_LT(feats[j], std::uint32_t(kHalfKAv2Features)) << f;
      }
      ++parsed;
    } catch (const FenError& e) {
      EXPECT_NE(std::string(e.what()).find("bad FEN"), std::string::npos);
      ++refused;
    }
  }
  EXPECT_GT(parsed, 100);
  EXPECT_GT(refused, 1000);
}

TEST(Fen, ParsesBoardSideAndCounts) {
  const Position p = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 10");
  EXPECT_EQ(p.side_to_move, kBlack);
  EXPECT_EQ(p.pieces, 32);
  EXPECT_EQ(p.king[kWhite], 4);   // e1
  EXPECT_EQ(p.king[kBlack], 60);  // e8
  EXPECT_EQ(layer_bucket(p), 7);
  EXPECT_EQ(parse_fen("8/8/8/8/8/8/8/K6k w").pieces, 2);  // move fields are optional
  // Each optional field in every form it takes: castling rights as KQkq or as rook files
  // (Shredder-FEN, Chess960), en passant on the side to move's rank, counters or an EPD
  // line's operations after en passant.
  for (const char* fen : {"8/8/8/8/8/8/8/K6k w -", "8/8/8/8/8/8/8/K6k w KQkq", "8/8/8/8/8/8/8/K6k w HFhf -",
                          "8/8/8/8/8/8/8/K6k w Kq c6", "8/8/8/8/8/8/8/K6k b - e3 0", "8/8/8/8/8/8/8/K6k w - - 99 120",
                          "8/8/8/8/8/8/8/K6k w - - bm Ka2; id \"x 1\";", "8/8/8/8/8/8/8/K6k b Qk - 0 1",
                          "8/8/8/8/8/8/8/K6k w - - 0 1 c0 \"after the counters\";"})
    EXPECT_NO_THROW(parse_fen(fen)) << fen;
}

TEST(Fen, BadFensGiveClearErrors) {
  const std::pair<const char*, const char*> bad[] = {
      {"", "empty"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "no side-to-move"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1", "8 ranks"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1", "more than 8 ranks"},
      {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "more than 8 squares"},
      {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "7 squares"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQXBNR w - - 0 1", "unexpected character 'X'"},
      {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "exactly one king"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", "two white kings"},
      {"Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "pawn on rank 8"},
      {"rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w - - 0 1", "more than 32 pieces"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling field \"KQxq\" has 'x'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1", "gives 'K' twice"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQA - 0 1", "gives white more than two rights"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant field \"e9\" is not - or a square on rank 6"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "on rank 6 (white to move)"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1", "on rank 3 (black to move)"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0x 1", "half-move clock \"0x\""},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "move number \"0\" is not a whole number >= 1"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "move number \"-1\""},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "half-move clock \"-1\""},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +5 1", "half-move clock \"+5\""},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 7", "\"7\" after the move number"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;", "neither the end nor an EPD operation"},
  };
  for (const auto& [fen, needle] : bad) {
    try {
      parse_fen(fen);
      ADD_FAILURE() << "accepted \"" << fen << "\"";
    } catch (const FenError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  }
}

TEST(Features, HalfKAv2HmMirrorsAndSharesTheKingPlane) {
  // Start position, white's view: king e1 (files e-h: no mirror), bucket 4*7 + 3 = 31.
  const Position p = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  std::uint32_t w[32], b[32];
  ASSERT_EQ(halfka_v2_hm_features(p, kWhite, w), 32);
  ASSERT_EQ(halfka_v2_hm_features(p, kBlack, b), 32);
  for (int i = 0; i < 32; ++i) {
    EXPECT_LT(w[i], std::uint32_t(kHalfKAv2Features));
    EXPECT_LT(b[i], std::uint32_t(kHalfKAv2Features));
  }
  // a1 = white rook = own rook: plane 6, square 0, bucket 31.
  EXPECT_EQ(w[0], 0u + 64 * 6 + 704 * 31);
  // The symmetric start position looks the same from both sides: same feature set.
  std::sort(w, w + 32);
  std::sort(b, b + 32);
  EXPECT_TRUE(std::equal(w, w + 32, b));
  // A king on d1 mirrors files: the white rook on a1 becomes h1 (square 7).
  const Position m = parse_fen("4k3/8/8/8/8/8/8/R2K4 w - - 0 1");
  std::uint32_t f[3];
  ASSERT_EQ(halfka_v2_hm_features(m, kWhite, f), 3);
  EXPECT_EQ(f[0], 7u + 64 * 6 + 704 * 31);   // rook a1 -> h1, own rook, king d1 -> bucket 31
  EXPECT_EQ(f[1], 4u + 64 * 10 + 704 * 31);  // own king d1 -> e1 on the shared king plane
}

}  // namespace
}  // namespace nnuelab::test
