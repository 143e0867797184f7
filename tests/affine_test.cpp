// affine: every registered variant x every supported shape, byte-compared with
// ref::affine over densities, seeds and boundary inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <vector>

#include "nnuelab_config.h"
#include "kernels/affine/registry.h"
#include "reference/affine.h"
#include "reference/find_nnz.h"
#include "tests/support.h"
#include "workloads/synthetic.h"

namespace nnuelab::test {
namespace {

using affine::Shape;
using workloads::Buffer;
using workloads::Density;
using workloads::DensityKind;
using workloads::Rng;

// Shapes of real nets first (Stockfish L1 -> 16/32, the small layers), then tails.
const std::vector<Shape> kShapes = {
    {1024, 32}, {1536, 16}, {3072, 16}, {512, 32}, {64, 32}, {32, 32}, {32, 1}, {128, 1},
    {4, 1},     {31, 3},    {33, 5},    {96, 15},  {100, 17}, {64, 4}, {1, 1},  {2048, 8},
    {256, 160},  // wider than any register budget: several output slabs
    {512, 64}, {64, 192},  // out % 64 == 0: the AVX-512 tile64 forms' only shapes (1 and 3 row registers)
    {512, 128},  // 8 AVX-512 output registers: the pipelined blocked forms' widest body (run_r<8>) at 512 bits
    {36, 32},  {52, 16},  // hidden widths with chunk counts (9, 13) no accumulator-set count divides
    {256, 48}, {128, 24}, {64, 12},  // 3 or 6 output registers: the pipelined blocked forms' fallback to two passes (every width)
    {252, 32}, {1264, 16},  // 63 and 4 x 64 + 60 chunks: a last bitset word 57-63 chunks long (its 8th byte partial)
};

const std::vector<Density> kDensities = {
    {DensityKind::kDense, 100}, {DensityKind::kByte, 0},   {DensityKind::kByte, 1},
    {DensityKind::kByte, 5},    {DensityKind::kByte, 15},  {DensityKind::kByte, 50},
    {DensityKind::kChunk, 1},   {DensityKind::kChunk, 15}, {DensityKind::kChunk, 50},
    {DensityKind::kChunk, 100},
};

// Every test compares at least this many outputs (the foundation's bar is 10,000 per op).
constexpr long kMinOutputsPerTest = 10000;

struct Case {
  const affine::Variant* variant;
  Shape shape;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.variant->info.name << "/" << affine::shape_name(c.shape); }

// A set of canonical weights with its own storage.
struct Weights {
  Shape shape;
  std::vector<std::int8_t> w;
  std::vector<std::int32_t> b;
  affine::Canonical canonical() const { return {shape, w.data(), b.data()}; }
};

// Block-sparse-output variants (technique sparse_bso_*) take only weights where each
// 4-byte input chunk feeds at most 4 blocks of 16 outputs.
bool needs_block_sparse(const affine::Variant& v) { return v.info.technique.starts_with("sparse_bso"); }

// Two- and four-chunk (x2, x4) variants add chunks' pair sums in int16 where the weights
// allow it (affine.h); they get weights where both happen too: net-like ones (a few heavy
// chunks among many light). chunk_group: chunks per int16 sum (1 for the other variants).
int chunk_group(const affine::Variant& v) {
  return v.info.technique.ends_with("_x2") ? 2 : v.info.technique.ends_with("_x4") ? 4 : 1;
}
bool pairs_chunks(const affine::Variant& v) { return chunk_group(v) > 1; }

// For every input chunk, the 16-output blocks its weights may use: 0 to 4 random blocks
// (every chunk when not block-sparse). keep(o, i) says whether W[o][i] may be non-zero.
struct BlockMask {
  bool all = true;
  int in = 0;
  std::vector<std::vector<int>> blocks;  // per chunk
  bool keep(int o, int i) const {
    if (all) return true;
    for (int b : blocks[i / 4])
      if (o / 16 == b) return true;
    return false;
  }
};
BlockMask block_mask(Shape s, bool block_sparse, Rng& rng) {
  BlockMask m;
  if (!block_sparse) return m;
  m.all = false;
  m.in = s.in;
  const int nblocks = s.out / 16;
  m.blocks.resize((s.in + 3) / 4);
  for (auto& chosen : m.blocks) {
    const int n = int(rng.uniform(0, std::min(4, nblocks)));
    while (int(chosen.size()) < n) {
      const int b = int(rng.uniform(0, nblocks - 1));
      if (std::find(chosen.begin(), chosen.end(), b) == chosen.end()) chosen.push_back(b);
    }
  }
  return m;
}

Weights random_weights(Shape s, Rng& rng, bool block_sparse = false) {
  Weights x{s, std::vector<std::int8_t>(std::size_t(s.in) * s.out), std::vector<std::int32_t>(s.out)};
  const BlockMask m = block_mask(s, block_sparse, rng);
  for (int o = 0; o < s.out; ++o)
    for (int i = 0; i < s.in; ++i)
      x.w[std::size_t(o) * s.in + i] = m.keep(o, i) ? std::int8_t(rng.uniform(-128, 127)) : 0;
  for (auto& v : x.b) v = std::int32_t(rng.uniform(-(1 << 20), 1 << 20));
  return x;
}

// Runs one variant and the reference on `inputs` (count rows of shape.in bytes); returns
// a description of the first difference, if any.
class AffineChecker {
 public:
  AffineChecker(const affine::Variant& v, const Weights& w)
      : v_(v), w_(w), packed_(affine::prepare(v, w.canonical())), got_(w.shape.out), want_(w.shape.out),
        in_(w.shape.in) {
    poison_tail(got_);
    poison_tail(in_);  // non-zero bytes after the input: a variant may load them, never count them
  }

  std::optional<std::string> check(const std::uint8_t* x, const std::string& context) {
    std::copy_n(x, w_.shape.in, in_.data());  // aligned, exact-length input buffer
    std::fill_n(got_.data(), w_.shape.out, INT32_MIN + 7);  // poison: every output must be written
    ref::affine(w_.w.data(), w_.b.data(), w_.shape.in, w_.shape.out, in_.data(), want_.data());
    affine::run(v_, packed_, in_.data(), got_.data());
    compared += w_.shape.out;
    if (auto diff = outputs(context)) return diff;
    if (!v_.run_bits) return std::nullopt;
    // Variants that can take a producer's nnz bitset: the same output from the bitset
    // of this input (as a fused activation writes it) instead of their own scan.
    // Exactly the words run_with_bits' contract names (ceil(in / 4 / 64)): a read past them
    // is a heap overflow that the AddressSanitizer builds report.
    std::vector<std::uint64_t> bits(((w_.shape.in + 3) / 4 + 63) / 64);
    ref::nnz_chunk_bitset(in_.data(), w_.shape.in, bits.data());
    std::fill_n(got_.data(), w_.shape.out, INT32_MIN + 7);
    affine::run_with_bits(v_, packed_, in_.data(), bits.data(), got_.data());
    compared += w_.shape.out;
    if (auto diff = outputs(context + " (run_with_bits)")) return diff;
    if (!v_.run_list) return std::nullopt;
    // The list techniques' walk given the list of non-zero chunks (the reference's), and
    // given every chunk (zero ones included: each adds nothing), which must agree too.
    std::vector<std::uint16_t> list(std::size_t(w_.shape.in / 4) + 1);
    const int count = ref::find_nnz_chunks(in_.data(), w_.shape.in, list.data());
    std::fill_n(got_.data(), w_.shape.out, INT32_MIN + 7);
    affine::run_with_list(v_, packed_, in_.data(), list.data(), count, got_.data());
    compared += w_.shape.out;
    if (auto diff = outputs(context + " (run_with_list)")) return diff;
    for (int c = 0; c < w_.shape.in / 4; ++c) list[c] = std::uint16_t(c);
    std::fill_n(got_.data(), w_.shape.out, INT32_MIN + 7);
    affine::run_with_list(v_, packed_, in_.data(), list.data(), w_.shape.in / 4, got_.data());
    compared += w_.shape.out;
    return outputs(context + " (run_with_list, every chunk)");
  }
  long compared = 0;

 private:
  // The outputs against the reference's, then the bytes after them (still poisoned).
  std::optional<std::string> outputs(const std::string& context) {
    if (auto diff = compare(got_.data(), want_.data(), w_.shape.out, context)) return diff;
    return tail_written(got_, context);
  }

  const affine::Variant& v_;
  const Weights& w_;
  affine::Packed packed_;
  Buffer<std::int32_t> got_, want_;
  Buffer<std::uint8_t> in_;
};

class Affine : public ::testing::TestWithParam<Case> {};

TEST_P(Affine, MatchesReferenceOnRandomInputs) {
  const auto& [v, shape] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  long compared = 0;
  // Enough calls that every test compares >= kMinOutputsPerTest outputs.
  const int calls = std::max<int>(2, int(kMinOutputsPerTest / (long(shape.out) * kDensities.size() * 2)) + 1);
  // (seeds 1 and 2 alone reach kMinOutputsPerTest; seed 3 adds block-sparse weights,
  // seed 4 net-like ones for the two-chunk variants: uniform int8 weights leave them
  // almost nothing they may pair)
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    // Seed 3 draws block-sparse weights (when the shape has 16-output blocks): what the
    // block-sparse-output variants need, and one more weight pattern for the others.
    const bool block_sparse = needs_block_sparse(*v) || (seed == 3 && shape.out % 16 == 0);
    if (seed == 3 && !block_sparse) continue;
    if (seed == 4 && !pairs_chunks(*v)) continue;
    Rng wrng(seed * 7919 + shape.in * 31 + shape.out);
    Weights w = random_weights(shape, wrng, block_sparse);
    if (seed == 4) workloads::fill_net_like_weights(wrng, w.w.data(), w.w.size());
    AffineChecker checker(*v, w);
    for (const Density& d : kDensities) {
      Rng rng(seed * 1000003 + shape.in);
      Buffer<std::uint8_t> x(shape.in);
      for (int call = 0; call < calls; ++call) {
        workloads::fill_activations(rng, x.data(), shape.in, d, 127);
        const auto diff = checker.check(x.data(), v->info.name + "/" + affine::shape_name(shape) + " " +
                                                      d.name() + " seed " + std::to_string(seed) +
                                                      " call " + std::to_string(call));
        ASSERT_FALSE(diff) << *diff;
      }
    }
    compared += checker.compared;
  }
  EXPECT_GE(compared, kMinOutputsPerTest);
}

// Inputs at the edges of the domain: zeros, the maximum 127 against the extreme weights
// (the largest maddubs pair sums, 2*127*(-128) = -32512 and 2*127*127), alternating
// patterns, and one-hot inputs at every position (tails and block edges).
TEST_P(Affine, MatchesReferenceOnBoundaryInputs) {
  const auto& [v, shape] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  Rng rng(99);
  std::vector<std::function<std::int8_t(int, int)>> weight_patterns = {
      [](int, int) { return std::int8_t(-128); },
      [](int, int) { return std::int8_t(127); },
      [](int o, int i) { return std::int8_t((o + i) % 2 ? 127 : -128); },
      [&](int, int) { return std::int8_t(rng.uniform(-128, 127)); },
  };
  if (pairs_chunks(*v)) {
    // At the two-chunk bound (pair sums 129 = 127 + 2 and -129 = -128 - 1: two chunks at
    // all-127 inputs give +-32766, the int16 edge; every chunk light) and one past it (130:
    // every chunk but one heavy), by output.
    weight_patterns.push_back([](int o, int i) { return std::int8_t(o % 2 ? (i % 2 ? 2 : 127) : (i % 2 ? -1 : -128)); });
    weight_patterns.push_back([](int o, int i) { return std::int8_t(o % 2 ? (i % 2 ? 3 : 127) : (i % 2 ? -2 : -128)); });
    // The four-chunk bound: pair sums 64 = 63 + 1 and -64 (4 x 64 = 256 <= 258, every chunk
    // light for x4) and 66 = 63 + 3 (4 x 66 = 264: all but three heavy).
    weight_patterns.push_back([](int o, int i) { return std::int8_t(o % 2 ? (i % 2 ? 1 : 63) : (i % 2 ? -1 : -63)); });
    weight_patterns.push_back([](int o, int i) { return std::int8_t(o % 2 ? (i % 2 ? 3 : 63) : (i % 2 ? -3 : -63)); });
  }
  Rng mrng(7);
  const BlockMask mask = block_mask(shape, needs_block_sparse(*v), mrng);  // keeps all for the others
  for (std::size_t pi = 0; pi < weight_patterns.size(); ++pi) {
    Weights w{shape, std::vector<std::int8_t>(std::size_t(shape.in) * shape.out), std::vector<std::int32_t>(shape.out)};
    for (int o = 0; o < shape.out; ++o) {
      for (int i = 0; i < shape.in; ++i)
        w.w[std::size_t(o) * shape.in + i] = mask.keep(o, i) ? weight_patterns[pi](o, i) : std::int8_t(0);
      w.b[o] = o % 3 == 0 ? (1 << 30) : o % 3 == 1 ? -(1 << 30) : 0;  // far from zero, no overflow
    }
    AffineChecker checker(*v, w);
    std::vector<std::uint8_t> x(shape.in);
    // (v and shape are structured bindings: clang before 16 only captures them by name.)
    auto check = [&, v = v, &shape = shape](const std::string& what) {
      const auto diff = checker.check(x.data(), v->info.name + "/" + affine::shape_name(shape) +
                                                    " weights pattern " + std::to_string(pi) + " input " + what);
      ASSERT_FALSE(diff) << *diff;
    };
    std::fill(x.begin(), x.end(), 0);
    check("all zero");
    std::fill(x.begin(), x.end(), 127);
    check("all 127");
    for (int i = 0; i < shape.in; ++i) x[i] = i % 2 ? 127 : 0;
    check("127/0 alternating");
    for (int i = 0; i < shape.in; ++i) x[i] = i % 4 == 3 ? 127 : 0;
    check("every 4th byte 127");
    // Every position of small layers, 128 spread over the larger ones; under ASan 32. The
    // sanitizers look for reads and writes out of bounds, which 32 positions from the first
    // to the last reach as the 128 do (the release suite checks the values at the 128).
#ifdef NNUELAB_UNDER_ASAN
    constexpr int kPositions = 32;
#else
    constexpr int kPositions = 128;
#endif
    const int step = std::max(1, shape.in / kPositions);
    for (int pos = 0; pos < shape.in; pos += step) {
      std::fill(x.begin(), x.end(), 0);
      x[pos] = 127;
      check("one-hot at " + std::to_string(pos));
      x[shape.in - 1 - pos] = 1;
      check("two-hot at " + std::to_string(pos));
    }
  }
}

TEST_P(Affine, LayoutRoundTrips) {
  const auto& [v, shape] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);  // prepare is ISA code too
  Rng rng(5);
  const Weights w = random_weights(shape, rng, needs_block_sparse(*v));
  const affine::Packed packed = affine::prepare(*v, w.canonical());
  // 64 poisoned guard elements after each: unpack writes the canonical arrays and nothing after them.
  constexpr std::size_t kGuard = 64;
  std::vector<std::int8_t> w2(w.w.size() + kGuard, 0x55);
  std::vector<std::int32_t> b2(w.b.size() + kGuard, 0x55);
  v->unpack(packed, w2.data(), b2.data());
  EXPECT_FALSE(first_mismatch(w2.data(), w.w.data(), w.w.size())) << "weights differ after prepare + unpack";
  EXPECT_FALSE(first_mismatch(b2.data(), w.b.data(), w.b.size())) << "bias differs after prepare + unpack";
  const auto poisoned = [](auto first, auto last) { return std::all_of(first, last, [](auto x) { return x == 0x55; }); };
  EXPECT_TRUE(poisoned(w2.begin() + std::ptrdiff_t(w.w.size()), w2.end())) << "unpack wrote past the last weight";
  EXPECT_TRUE(poisoned(b2.begin() + std::ptrdiff_t(w.b.size()), b2.end())) << "unpack wrote past the last bias";
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const affine::Variant* v : variants_under_test(affine::variants())) {
    // No function of a variant this CPU lacks may run, supports() included (it is ISA
    // code): such a variant gets one case, which reports the skip.
    if (!v->info.available()) {
      out.push_back({v, Shape{0, 0}});
      continue;
    }
    for (const Shape& s : kShapes)
      if (affine::why_unsupported(*v, s).empty()) out.push_back({v, s});
  }
  check_every_variant_has_a_case("Affine", affine::variants(), out);
  return out;
}

INSTANTIATE_TEST_SUITE_P(, Affine, ::testing::ValuesIn(cases()), [](const auto& info) {
  const Case& c = info.param;
  return param_name(c.variant->info.name + "/" +
                    (c.variant->info.available() ? affine::shape_name(c.shape) : "unavailable"));
});

// Every shape a variant refuses gets a reason and a clear error, never a run.
TEST(AffineRefusals, UnsupportedShapesAreRefusedWithAReason) {
  std::vector<Shape> shapes = kShapes;
  for (Shape bad : {Shape{0, 1}, Shape{1, 0}, Shape{-32, 32}, Shape{65537, 1}, Shape{32, 70000}}) shapes.push_back(bad);
  int refused = 0;
  for (const affine::Variant& v : affine::variants()) {
    if (!v.info.available()) continue;
    for (const Shape& s : shapes) {
      const std::string why = affine::why_unsupported(v, s);
      if (why.empty()) continue;
      ++refused;
      std::vector<std::int8_t> w(std::size_t(std::max(s.in, 1)) * std::max(s.out, 1));
      std::vector<std::int32_t> b(std::max(s.out, 1));
      try {
        affine::prepare(v, {s, w.data(), b.data()});
        ADD_FAILURE() << v.info.name << " prepared unsupported shape " << affine::shape_name(s);
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(v.info.name), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_GE(refused, 5);  // at least the op-limit shapes, for every variant
}

// The pipelined blocked forms (sparse_blocked4_<nnz>_pipe<K>) keep every output in
// registers for the whole call: of the shapes their two-pass form takes, they take exactly
// those whose output registers times K accumulator sets fit in half the register file (16
// registers below AVX-512, 32 with it), and refuse the rest with a reason. The shapes at
// that bound exactly (1024x32 with 2 sets on AVX2: 4 x 2 = 8) are the real nets' and the
// ones a refusal would lose without any output test noticing.
TEST(AffineShapes, PipelinedFormsTakeEveryShapeTheirRegistersHold) {
  int checked = 0, at_bound = 0;
  for (const affine::Variant& v : affine::variants()) {
    const std::string& t = v.info.technique;
    const auto pipe = t.find("_pipe");
    if (pipe == std::string::npos || !v.info.available()) continue;
    SCOPED_TRACE(v.info.name);
    const std::string sets_text = t.substr(pipe + 5);  // "_pipe2": 2 sets, as its two-pass form's "_acc2"
    const affine::Variant* two_pass = find_variant(
        affine::variants(), v.info.op + "/" + v.info.isa + "/" + t.substr(0, pipe) + "_acc" + sets_text);
    ASSERT_NE(two_pass, nullptr) << "no two-pass form beside it";
    const int sets = std::stoi(sets_text), lanes = isa_vector_bytes(v.info.isa) / 4;
    ASSERT_GT(lanes, 0);
    const int budget = (lanes == 16 ? 32 : 16) / 2;
    for (const Shape& s : kShapes) {
      if (!affine::why_unsupported(*two_pass, s).empty()) continue;
      const int regs = s.out / lanes * sets;
      EXPECT_EQ(affine::why_unsupported(v, s).empty(), regs <= budget)
          << affine::shape_name(s) << ": " << regs << " accumulator registers, budget " << budget;
      ++checked;
      at_bound += regs == budget;
    }
  }
  if (checked == 0) GTEST_SKIP() << "no pipelined blocked form is available on this CPU";
  EXPECT_GT(at_bound, 0) << "no shape of the suite sits at a pipelined form's register bound";
}

// The op's largest input (65,536 bytes: 16,384 chunks) fills the index lists of the
// list-building variants to their last entry: every chunk non-zero, and half of them. So do
// 4096 inputs, the most a list holds on the stack (kernels/common/index_list.h), and 4160,
// the first on the heap.
// With uniform int8 weights nearly every chunk is heavy for the two-chunk variants (their
// heavy pass then skips the zero input chunks); net-like weights leave a few. Under the sanitizer
// build an overrun is reported; everywhere the outputs are compared with the reference.
TEST(AffineLimits, LargestInputFillsEveryList) {
  int ran = 0;
  for (const affine::Variant* v : variants_under_test(affine::variants()))
    for (const int in : {4096, 4160, 65536}) {
      if (!v->info.available()) continue;
      Shape s{in, 16};
      if (!affine::why_unsupported(*v, s).empty()) s = Shape{in, 32};
      if (!affine::why_unsupported(*v, s).empty()) continue;
      ++ran;
      for (const bool net_like : {false, true}) {
        if (net_like && !pairs_chunks(*v)) continue;
        Rng rng(net_like ? 17 : 13);
        Weights w = random_weights(s, rng, needs_block_sparse(*v));
        if (net_like) workloads::fill_net_like_weights(rng, w.w.data(), w.w.size());
        AffineChecker checker(*v, w);
        Buffer<std::uint8_t> x(s.in);
        for (const Density d : {Density{DensityKind::kChunk, 100}, Density{DensityKind::kChunk, 50}}) {
          workloads::fill_activations(rng, x.data(), s.in, d, 127);
          const auto diff = checker.check(x.data(), v->info.name + "/" + affine::shape_name(s) + " " + d.name() +
                                                        (net_like ? " net-like weights" : " uniform weights"));
          ASSERT_FALSE(diff) << *diff;
        }
      }
    }
  EXPECT_GT(ran, 0) << "no variant runs the op's largest input";
}

TEST(AffineRefusals, BlockSparseOutputRefusesWeightsThatDoNotFit) {
  int checked = 0;
  for (const affine::Variant& v : affine::variants()) {
    const Shape s{64, 96};  // 6 blocks of 16 outputs
    if (!needs_block_sparse(v) || !affine::why_unsupported(v, s).empty()) continue;
    ++checked;
    Rng rng(11);
    Weights w = random_weights(s, rng, true);
    // Chunk 5 (inputs 20..23) now feeds all six blocks: one weight in each.
    for (int b = 0; b < 6; ++b) w.w[std::size_t(b * 16 + 3) * s.in + 21] = 1;
    try {
      affine::prepare(v, w.canonical());
      ADD_FAILURE() << v.info.name << " accepted weights with 6 blocks for one chunk";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("input chunk 5 (bytes 20..23) feeds more than 4 blocks"), std::string::npos)
          << e.what();
    }
  }
  // The block-sparse-output technique exists on x86 (ssse3 and up) only: elsewhere, say so.
  if (checked == 0 && !NNUELAB_HAS_ssse3) GTEST_SKIP() << "no block-sparse-output affine variant in this build (x86 only)";
  EXPECT_GE(checked, 1);
}

TEST(AffineRefusals, NullBuffersAndForeignPackingAreErrors) {
  const affine::Variant& v = affine::variants()[0];
  const Shape s{32, 4};
  std::vector<std::int8_t> w(128);
  std::vector<std::int32_t> b(4);
  EXPECT_THROW(affine::prepare(v, {s, nullptr, b.data()}), std::invalid_argument);
  const affine::Packed p = affine::prepare(v, {s, w.data(), b.data()});
  std::vector<std::int32_t> out(4);
  EXPECT_THROW(affine::run(v, p, nullptr, out.data()), std::invalid_argument);
  affine::Packed never_prepared;
  std::vector<std::uint8_t> in(32);
  EXPECT_THROW(affine::run(v, never_prepared, in.data(), out.data()), std::invalid_argument);
  for (const affine::Variant& other : affine::variants())
    if (&other != &v && other.info.available()) {
      EXPECT_THROW(affine::run(other, p, in.data(), out.data()), std::invalid_argument);
    }
}

}  // namespace
}  // namespace nnuelab::test

namespace nnuelab::test {
namespace {

// Outside the 0..127 domain the techniques part ways, for two different reasons:
// the maddubs+madd dot saturates an int16 pair sum (255*127*2 = 64770 -> 32767), and a
// byte-wise signed compare (the byte nnz lists but the 256-bit table's) reads 128..255 as
// negative and skips them.
// vpdpbusd and the int16 madd are exact. This table says which applies to each variant;
// the test proves it both ways (equal inside the domain, different where stated).
struct DomainFacts {
  bool saturating_dot;  // maddubs pair sums
  bool byte_nnz;        // skips bytes >= 128
  bool int8_dot = false;  // NEON vmull_s8 / vdotq_s32: x read as int8, 128..255 as x - 256
};
DomainFacts facts(const affine::Variant& v) {
  const std::string& t = v.info.technique;
  const std::string isa = v.info.isa.substr(0, v.info.isa.find("-emu"));
  const bool vnni = isa == "avxvnni" || isa == "avx512vnni" || isa == "avx512vbmi2";
  // The 256-bit byte table list (AVX2, AVX-VNNI) tests equality with zero: every byte counts.
  const bool byte_nnz =
      t == "sparse_lsb_i16" || (t == "sparse_lut_i8_tile64" && isa != "avx2" && isa != "avxvnni");
  const bool madd16 = t == "sparse_lsb_i16";  // int16 products, exact
  if (isa == "neon" || isa == "neon-dotprod") return {false, false, true};
  if (isa == "neon-i8mm") return {false, false, false};  // vusdotq_s32: uint8 x int8, exact
  return {isa != "scalar" && !vnni && !madd16, byte_nnz};
}

TEST(AffineDomain, MaddubsSaturatesAbove128AndByteNnzSkipsNegativeBytes) {
  int checked = 0;
  for (const affine::Variant& v : affine::variants()) {
    const Shape s{64, 32};
    if (!affine::why_unsupported(v, s).empty() || needs_block_sparse(v)) continue;  // all-127 weights are dense
    ++checked;
    Weights w{s, std::vector<std::int8_t>(64 * 32, 127), std::vector<std::int32_t>(32, 0)};
    const affine::Packed packed = affine::prepare(v, w.canonical());
    auto run = [&](std::uint8_t hi, std::int32_t* got, std::int32_t* want) {
      // Chunks (hi, hi, 0, 1): a positive int32, so chunk-wise nnz keeps them.
      workloads::Buffer<std::uint8_t> x(64);
      for (int c = 0; c < 16; ++c) {
        x[4 * c] = hi;
        x[4 * c + 1] = hi;
        x[4 * c + 3] = 1;
      }
      ref::affine(w.w.data(), w.b.data(), 64, 32, x.data(), want);
      affine::run(v, packed, x.data(), got);
    };
    std::int32_t got[32], want[32];
    for (std::uint8_t inside : {std::uint8_t(1), std::uint8_t(64), std::uint8_t(127)}) {
      run(inside, got, want);
      EXPECT_FALSE(first_mismatch(got, want, 32)) << v.info.name << " must be exact at input " << int(inside);
    }
    const DomainFacts f = facts(v);
    // 128: maddubs pair sums still fit (2*128*127 = 32512); a signed byte compare drops it.
    run(128, got, want);
    EXPECT_EQ(bool(first_mismatch(got, want, 32)), f.byte_nnz || f.int8_dot) << v.info.name << " at input 128";
    if (f.int8_dot) {
      // 16 chunks (128, 128, 0, 1) x weights 127, read as (-128, -128, 0, 1).
      EXPECT_EQ(got[0], 16 * 127 * (-256 + 1)) << v.info.name << ": 128 read as -128";
    }
    // 255: the pair sum 64770 saturates maddubs; signed byte compares drop it too.
    run(255, got, want);
    EXPECT_EQ(bool(first_mismatch(got, want, 32)), f.byte_nnz || f.saturating_dot || f.int8_dot)
        << v.info.name << " at input 255";
    if (f.saturating_dot && !f.byte_nnz) {
      if (v.info.technique == "sparse_lut_i8_tile64") {
        // maddubs pairs consecutive *listed* bytes: 255, 255, 1 per chunk, 24 pairs in all,
        // 8 of (255, 255) saturated to 32767 and 16 of (1, 255) or (255, 1) = 127 + 32385.
        EXPECT_EQ(got[0], 8 * 32767 + 16 * (127 + 255 * 127)) << v.info.name << ": the saturated sum";
      } else {
        EXPECT_EQ(got[0], 16 * (32767 + 127)) << v.info.name << ": the saturated sum";
      }
    }
  }
  EXPECT_GE(checked, 3);
}

}  // namespace
}  // namespace nnuelab::test

namespace nnuelab::test {
namespace {

// Runs `check` on every two- and four-chunk (x2, x4) variant that takes shape s; where the
// build has none (x86 only) the test is skipped, otherwise all six must have run.
template <class Check>
void for_each_chunk_group_variant(const Shape& s, Check check) {
  int checked = 0;
  for (const affine::Variant& v : affine::variants()) {
    if (!pairs_chunks(v) || !affine::why_unsupported(v, s).empty()) continue;
    ++checked;
    check(v);
  }
  if (checked == 0 && !NNUELAB_HAS_ssse3) GTEST_SKIP() << "no two-chunk affine variant in this build (x86 only)";
  EXPECT_GE(checked, 6);
}

// The two- and four-chunk (x2, x4) variants: prepare marks exactly the chunks that cannot
// share an int16 sum, and that marking is what keeps them exact (planted: with the marks
// erased the shared int16 sum wraps, at the first weight past the bound); outside the
// input domain (128) even light chunks wrap, where the one-chunk maddubs dot is still exact.
TEST(AffineX2, HeavyChunksAreExactlyTheOnesThatCouldLeaveInt16) {
  const Shape s{256, 32};  // 64 chunks: one heavy-bitset word
  for_each_chunk_group_variant(s, [&](const affine::Variant& v) {
    const bool x4 = chunk_group(v) == 4;
    // Every chunk at the bound: odd outputs (127, 2) -> P = 129 (x4: (63, 1) -> 64), even
    // ones (-128, -1) -> N = -129 (x4: (-63, -1) -> -64), in both halves (opposite halves
    // would cancel each other's int16 wrap in the madd, hiding it). A group's sum at
    // all-127 inputs is then 127 * 258 = 32766 (x4: 127 * 256 = 32512).
    const int hi = x4 ? 63 : 127, lo = x4 ? 1 : 2, nhi = x4 ? -63 : -128;
    Weights w{s, std::vector<std::int8_t>(std::size_t(s.in) * s.out), std::vector<std::int32_t>(s.out, 0)};
    for (int o = 0; o < s.out; ++o)
      for (int i = 0; i < s.in; ++i)
        w.w[std::size_t(o) * s.in + i] = std::int8_t(o % 2 ? (i % 2 ? lo : hi) : (i % 2 ? -1 : nhi));
    workloads::Buffer<std::uint8_t> x(s.in);
    std::vector<std::int32_t> got(s.out), want(s.out);
    auto run = [&](const affine::Packed& p, std::uint8_t value) {
      std::fill_n(x.data(), s.in, value);
      ref::affine(w.w.data(), w.b.data(), s.in, s.out, x.data(), want.data());
      affine::run(v, p, x.data(), got.data());
      return !first_mismatch(got.data(), want.data(), s.out);
    };
    {
      const affine::Packed p = affine::prepare(v, w.canonical());
      EXPECT_EQ(p.blocks.meta[0], 0) << v.info.name << ": weights at the bound need no heavy chunk";
      EXPECT_TRUE(run(p, 127)) << v.info.name << " at the bound, all-127 inputs";
      // Input 128 is outside the domain: 2 * 128 * 129 = 33024 (x4: 4 * 128 * 64 = 32768)
      // wraps in the shared sum (a one-chunk maddubs pair, 128 * 129 = 16512, would not).
      EXPECT_FALSE(run(p, 128)) << v.info.name << " must wrap at input 128 with grouped chunks";
    }
    // One weight past the bound in chunk 5 of output 7 (P = 130, x4: 67 with three others
    // at 64, 259 in all): exactly chunk 5 is heavy.
    w.w[std::size_t(7) * s.in + 4 * 5 + 1] = std::int8_t(x4 ? 4 : 3);
    affine::Packed p = affine::prepare(v, w.canonical());
    EXPECT_EQ(p.blocks.meta[0], 1) << v.info.name;
    EXPECT_EQ(static_cast<const std::uint64_t*>(p.blocks.slot[2].data)[0], std::uint64_t(1) << 5) << v.info.name;
    // Its tile moved to slot 3 (index 5 behind it) and is zero in slot 0.
    const std::size_t tile = std::size_t(s.out) * 4;
    auto* tiles = static_cast<std::int8_t*>(p.blocks.slot[0].data);
    const auto* moved = static_cast<const std::int8_t*>(p.blocks.slot[3].data);
    EXPECT_EQ(std::count(tiles + 5 * tile, tiles + 6 * tile, 0), std::ptrdiff_t(tile)) << v.info.name;
    EXPECT_EQ(reinterpret_cast<const std::uint32_t*>(moved + tile)[0], 5u) << v.info.name;
    EXPECT_TRUE(run(p, 127)) << v.info.name << " one past the bound, all-127 inputs";
    // Planted: put the tile back among the paired ones and forget the heavy chunk, and
    // chunk 5 is grouped again; 127 * (130 + 129) = 127 * (67 + 3 * 64) = 32893 wraps.
    std::memcpy(tiles + 5 * tile, moved, tile);
    p.blocks.meta[0] = 0;
    EXPECT_FALSE(run(p, 127)) << v.info.name << " with the heavy chunk paired must go wrong";
  });
}

// The marking at its boundary with unequal chunks. Above, every chunk sits at kBound / group,
// which never enters the marking loop (only a chunk above it can lead a group past kBound);
// here one or two chunks do. Output 7's first pair lane only (its bytes 4 * ch and
// 4 * ch + 1, every other weight zero), P per chunk: a group summing to exactly kBound = 258
// needs no heavy chunk (x2: 130 + 128; x4: 66 + 3 x 64, and 65 + 65 + 64 + 63 with two
// chunks above 64), one more and the leading chunk alone is heavy (x4: 67 + 66 + 64 + 63
// = 260, then 66 + 64 + 63 + 63 = 256 fits); all-127 inputs stay exact.
TEST(AffineX2, GroupsSummingToExactlyTheBoundNeedNoHeavyChunk) {
  struct Lane {
    std::vector<std::pair<int, int>> p;  // (chunk, P) where P differs from `others`
    int others;
    std::uint64_t heavy;  // the expected heavy-chunk bits
  };
  const std::vector<Lane> x2 = {{{{5, 130}}, 128, 0}, {{{5, 131}}, 128, std::uint64_t(1) << 5}};
  const std::vector<Lane> x4 = {{{{5, 66}}, 64, 0},
                                {{{5, 65}, {9, 65}, {12, 64}}, 63, 0},
                                {{{5, 67}}, 64, std::uint64_t(1) << 5},
                                {{{5, 67}, {9, 66}, {12, 64}}, 63, std::uint64_t(1) << 5}};
  const Shape s{256, 32};  // 64 chunks: one heavy-bitset word
  for_each_chunk_group_variant(s, [&](const affine::Variant& v) {
    const bool is_x4 = chunk_group(v) == 4;
    for (const Lane& lane : is_x4 ? x4 : x2) {
      Weights w{s, std::vector<std::int8_t>(std::size_t(s.in) * s.out, 0), std::vector<std::int32_t>(s.out, 0)};
      const int first = is_x4 ? 63 : 127;  // P = first + second, both non-negative
      auto set = [&](int ch, int p) {
        w.w[std::size_t(7) * s.in + 4 * ch] = std::int8_t(first);
        w.w[std::size_t(7) * s.in + 4 * ch + 1] = std::int8_t(p - first);
      };
      for (int ch = 0; ch < s.in / 4; ++ch) set(ch, lane.others);
      for (const auto& [ch, p] : lane.p) set(ch, p);
      const affine::Packed p = affine::prepare(v, w.canonical());
      const std::string what = v.info.name + ": chunk 5 at " + std::to_string(lane.p[0].second) + ", others at " +
                               std::to_string(lane.others);
      EXPECT_EQ(static_cast<const std::uint64_t*>(p.blocks.slot[2].data)[0], lane.heavy) << what;
      EXPECT_EQ(p.blocks.meta[0], __builtin_popcountll(lane.heavy)) << what;
      workloads::Buffer<std::uint8_t> x(s.in);
      std::fill_n(x.data(), s.in, 127);
      std::vector<std::int32_t> got(s.out), want(s.out);
      ref::affine(w.w.data(), w.b.data(), s.in, s.out, x.data(), want.data());
      affine::run(v, p, x.data(), got.data());
      EXPECT_FALSE(first_mismatch(got.data(), want.data(), s.out)) << what << ", all-127 inputs";
    }
  });
}

}  // namespace
}  // namespace nnuelab::test
