// sqr_crelu32, crelu32_pair and quantmoid4: every registered variant x every supported
// shape, byte-compared with the references over random, exhaustive and boundary inputs
// (and, for *_bits variants, the nnz bitset of the output; see elementwise_tester.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "kernels/affine/registry.h"
#include "kernels/crelu32_pair/registry.h"
#include "kernels/quantmoid4/registry.h"
#include "kernels/sqr_crelu32/registry.h"
#include "reference/crelu32.h"
#include "reference/crelu32_pair.h"
#include "reference/quantmoid4.h"
#include "reference/sqr_crelu32.h"
#include "workloads/boundary.h"
#include "tests/elementwise_tester.h"
#include "tests/permuted_pair.h"
#include "nnuelab_config.h"

namespace nnuelab::test {
namespace {

constexpr long kMinOutputsPerTest = 10000;

// Shapes of the two int32-input ops: the SIMD widths, a long vector, odd sizes only the
// scalar forms take, and shifts across both SIMD domain edges (5 and 8) and beyond.
template <class Shape>
std::vector<Shape> shift_shapes() {
  std::vector<Shape> out;
  // 128: the largest n whose two crelu32_pair bit halves fit one word (the x86 kernels'
  // one-word path); 384: the halves share a word that the clipped stream completes inside
  // the loop (the merge after it). At 16..64 the NEON pair still merges a pending word.
  for (int n : {32, 64, 1024, 16, 1, 33, 128, 384})
    for (int shift : {0, 4, 5, 6, 7, 8, 9, 16, 28}) out.push_back({n, shift});
  return out;
}

// The inlined forms' shapes (run_many): every shift of both SIMD domains and past them at
// the hidden layers' widths 16 and 32 (each immediate shift is its own inlined loop), and
// the other widths (one-word and shared-word bitsets, long vectors) at the nets' shift 6.
template <class Shape>
std::vector<Shape> many_shapes() {
  std::vector<Shape> out;
  for (int n : {16, 32})
    for (int shift : {0, 4, 5, 6, 7, 8, 9, 28}) out.push_back({n, shift});
  for (int n : {64, 128, 384, 1024, 1, 33}) out.push_back({n, 6});
  return out;
}

// Where x*x >> (2s + 7) can go wrong: around each output step near the clamp (x^2 =
// k * 2^(2s+7) for k = 1, 126, 127, 128), the int16 saturation edges of a narrowing
// form, -32768, powers of two, the int32 ends (whose square needs all 62 bits).
std::vector<std::int32_t> sqr_edges(int shift) {
  std::vector<std::int32_t> v = workloads::boundary::int32_edges();
  v.insert(v.end(), {40000, -40000, 46341, -46341});
  for (int k : {1, 2, 63, 64, 126, 127, 128}) {
    const double root = std::sqrt(double(k) * std::ldexp(1.0, 2 * shift + 7));
    for (std::int64_t d = -3; d <= 3; ++d)
      for (std::int64_t sign : {1, -1})
        if (std::int64_t x = sign * (std::int64_t(root) + d); x >= INT32_MIN && x <= INT32_MAX) v.push_back(std::int32_t(x));
  }
  return v;
}

// Random int32 streams: the whole range, and the range where the output is not yet
// saturated at this shift (|x| below ~ 2^(shift + 4) for the square, 200 << shift for
// the clip), so most outputs are interesting.
template <class Tester>
void check_int32_streams(Tester& t, int shift, std::int64_t near) {
  auto diff = t.check(sqr_edges(shift), "edges");
  ASSERT_FALSE(diff) << *diff;
  near = std::min<std::int64_t>(near, INT32_MAX);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    diff = t.check(random_stream<std::int32_t>(seed, 4096, INT32_MIN, INT32_MAX), "random int32, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
    diff = t.check(random_stream<std::int32_t>(seed, 4096, -near, near), "random near the clamp, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
    diff = t.check(random_stream<std::int32_t>(seed, 2048, -40000, 40000), "random around int16, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
}

// ---- sqr_crelu32 ----------------------------------------------------------------------

using Sqr = sqr_crelu32::Variant;

ElementwiseTester<Sqr> sqr_tester(const Sqr& v, const sqr_crelu32::Shape& s) {
  ElementwiseTester<Sqr> t(
      v, s, [](const sqr_crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::sqr_crelu32(in, sh.n, sh.shift, out); },
      [](const Sqr& var, const sqr_crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits) {
        sqr_crelu32::run(var, sh, in, out, bits);
      });
  // A *_lanes variant is compared through its own declared order (from the registry line).
  if (!v.canonical_order()) t.set_output_order(sqr_crelu32::output_order(v, s));
  return t;
}

class SqrCrelu32 : public ::testing::TestWithParam<ElementwiseCase<Sqr>> {};

TEST_P(SqrCrelu32, MatchesReference) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  auto t = sqr_tester(*v, s);
  check_int32_streams(t, s.shift, std::int64_t(1) << std::min(s.shift + 5, 31));
  if (HasFatalFailure()) return;
  EXPECT_GE(t.compared, kMinOutputsPerTest);  if (v->writes_bits) {
    EXPECT_GT(t.bits_compared, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(, SqrCrelu32,
                         ::testing::ValuesIn(make_cases(sqr_crelu32::variants(), shift_shapes<sqr_crelu32::Shape>(),
                                                        [](const Sqr& v, const sqr_crelu32::Shape& s) { return sqr_crelu32::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, sqr_crelu32::shape_name); });

// The inlined form (run_many, benchmarked as <shape>+inlined), call by call against the
// reference (check_run_many): the edges and random int32.
class SqrCrelu32Many : public ::testing::TestWithParam<ElementwiseCase<Sqr>> {};

TEST_P(SqrCrelu32Many, EveryCallMatchesTheReference) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  ASSERT_NE(v->run_many, nullptr) << v->info.name << ": every sqr_crelu32 variant has an inlined form";
  long compared = 0;
  const auto diff = check_run_many(
      *v, s, s.n, v->canonical_order() ? std::vector<int>{} : sqr_crelu32::output_order(*v, s),
      [](const sqr_crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::sqr_crelu32(in, sh.n, sh.shift, out); },
      [v = v, &s = s](const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits, int count) { sqr_crelu32::run_many(*v, s, in, out, bits, count); },
      {sqr_edges(s.shift), random_stream<std::int32_t>(7, 7 * 1024 + 1, -40000, 40000)}, &compared);
  ASSERT_FALSE(diff) << *diff;
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(, SqrCrelu32Many,
                         ::testing::ValuesIn(make_cases(sqr_crelu32::variants(), many_shapes<sqr_crelu32::Shape>(),
                                                        [](const Sqr& v, const sqr_crelu32::Shape& s) { return sqr_crelu32::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, sqr_crelu32::shape_name); });

TEST(SqrCrelu32Refusals, RefusedShapesThrowWithTheReason) {
  std::uint8_t out[64];
  std::int32_t in[64] = {};
  int refused = 0;
  for (const Sqr& v : sqr_crelu32::variants()) {
    if (!v.info.available()) continue;
    for (sqr_crelu32::Shape s : {sqr_crelu32::Shape{32, 29}, sqr_crelu32::Shape{32, -1}, sqr_crelu32::Shape{0, 6},
                                 sqr_crelu32::Shape{31, 6}, sqr_crelu32::Shape{64, 9}, sqr_crelu32::Shape{64, 4}}) {
      const std::string why = sqr_crelu32::why_unsupported(v, s);
      if (why.empty()) continue;
      ++refused;
      try {
        sqr_crelu32::run(v, s, in, out);
        ADD_FAILURE() << v.info.name << " ran refused shape " << sqr_crelu32::shape_name(s);
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_GE(refused, 3);
}

// The packs + mulhi form is exact only for 5 <= shift <= 8. Prove both edges on the raw
// kernels (bypassing the refusal on purpose), for every such variant this CPU runs.
TEST(SqrCrelu32Domain, PacksMulhiIsExactOnlyForShift5To8) {
  int checked = 0;
  for (const Sqr& v : sqr_crelu32::variants()) {
    if (v.info.technique.find("packs_mulhi") == std::string::npos || !v.info.available()) continue;
    const int n = 64;  // a multiple of every SIMD width
    std::vector<std::int32_t> in(n, 40000);
    std::vector<std::uint8_t> got(n), want(n);
    std::vector<std::uint64_t> bits(nnz_bitset_words(n));
    std::uint64_t* b = v.writes_bits ? bits.data() : nullptr;
    // Shift 8: 40000 narrowed to 32767 still squares to >= 127 (32767^2 >> 23 = 127).
    ref::sqr_crelu32(in.data(), n, 8, want.data());
    v.run({n, 8}, in.data(), got.data(), b);
    EXPECT_EQ(want[0], 127);
    EXPECT_FALSE(first_mismatch(got.data(), want.data(), n)) << v.info.name << " must agree at shift 8";
    // Shift 9: the reference squares 40000 (1.6e9 >> 25 = 47), the narrowed 32767 gives 31.
    ref::sqr_crelu32(in.data(), n, 9, want.data());
    v.run({n, 9}, in.data(), got.data(), b);
    EXPECT_EQ(want[0], 47);
    EXPECT_EQ(got[0], 31) << v.info.name << ": int16 saturation precedes the square";
    EXPECT_THROW(sqr_crelu32::run(v, {n, 9}, in.data(), got.data(), b), std::invalid_argument);
    // Shift 5 works for small values (the low bits mulhi drops are below the shift) ...
    std::fill(in.begin(), in.end(), 1000);  // 10^6 >> 17 = 7
    ref::sqr_crelu32(in.data(), n, 5, want.data());
    v.run({n, 5}, in.data(), got.data(), b);
    EXPECT_EQ(want[0], 7);
    EXPECT_FALSE(first_mismatch(got.data(), want.data(), n)) << v.info.name << " must agree at shift 5";
    // ... shift 4 would need x*x >> 15, one bit of the low half: the form cannot express it.
    ref::sqr_crelu32(in.data(), n, 4, want.data());
    EXPECT_EQ(want[0], 30);  // 10^6 >> 15
    EXPECT_FALSE(sqr_crelu32::why_unsupported(v, {n, 4}).empty());
    EXPECT_THROW(sqr_crelu32::run(v, {n, 4}, in.data(), got.data(), b), std::invalid_argument);
    ++checked;
  }
  if (!checked) GTEST_SKIP() << "no packs_mulhi variant runs on this CPU";
}

// ---- crelu32_pair ---------------------------------------------------------------------

using Pair = crelu32_pair::Variant;

ElementwiseTester<Pair> pair_tester(const Pair& v, const crelu32_pair::Shape& s) {
  ElementwiseTester<Pair> t(
      v, s, [](const crelu32_pair::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32_pair(in, sh.n, sh.shift, out); },
      [](const Pair& var, const crelu32_pair::Shape& sh, const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits) {
        crelu32_pair::run(var, sh, in, out, bits);
      },
      2 * s.n);
  // A *_lanes variant is compared through its own declared order (from the registry line).
  if (!v.canonical_order()) t.set_output_order(crelu32_pair::output_order(v, s));
  return t;
}

class Crelu32Pair : public ::testing::TestWithParam<ElementwiseCase<Pair>> {};

TEST_P(Crelu32Pair, MatchesReference) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  auto t = pair_tester(*v, s);
  check_int32_streams(t, s.shift, std::int64_t(200) << s.shift);
  if (HasFatalFailure()) return;
  EXPECT_GE(t.compared, kMinOutputsPerTest);
  if (v->writes_bits) {
    EXPECT_GT(t.bits_compared, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(, Crelu32Pair,
                         ::testing::ValuesIn(make_cases(crelu32_pair::variants(), shift_shapes<crelu32_pair::Shape>(),
                                                        [](const Pair& v, const crelu32_pair::Shape& s) { return crelu32_pair::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, crelu32_pair::shape_name); });

// The inlined form of the pair (2n bytes per call; the bitset of both halves per call).
class Crelu32PairMany : public ::testing::TestWithParam<ElementwiseCase<Pair>> {};

TEST_P(Crelu32PairMany, EveryCallMatchesTheReference) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  ASSERT_NE(v->run_many, nullptr) << v->info.name << ": every crelu32_pair variant has an inlined form";
  long compared = 0;
  const auto diff = check_run_many(
      *v, s, 2 * s.n, v->canonical_order() ? std::vector<int>{} : crelu32_pair::output_order(*v, s),
      [](const crelu32_pair::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32_pair(in, sh.n, sh.shift, out); },
      [v = v, &s = s](const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits, int count) { crelu32_pair::run_many(*v, s, in, out, bits, count); },
      {sqr_edges(s.shift), random_stream<std::int32_t>(7, 7 * 1024 + 1, -40000, 40000)}, &compared);
  ASSERT_FALSE(diff) << *diff;
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(, Crelu32PairMany,
                         ::testing::ValuesIn(make_cases(crelu32_pair::variants(), many_shapes<crelu32_pair::Shape>(),
                                                        [](const Pair& v, const crelu32_pair::Shape& s) { return crelu32_pair::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, crelu32_pair::shape_name); });

// The reference is the two references side by side, squared half first.
TEST(Crelu32PairReference, IsSqrThenClipped) {
  const auto in = random_stream<std::int32_t>(7, 1000, -(1 << 15), 1 << 15);
  for (int shift : {0, 6, 9, 28}) {
    std::vector<std::uint8_t> pair(2000), sqr(1000), clip(1000);
    ref::crelu32_pair(in.data(), 1000, shift, pair.data());
    ref::sqr_crelu32(in.data(), 1000, shift, sqr.data());
    ref::crelu32(in.data(), 1000, shift, clip.data());
    EXPECT_FALSE(first_mismatch(pair.data(), sqr.data(), 1000)) << "shift " << shift;
    EXPECT_FALSE(first_mismatch(pair.data() + 1000, clip.data(), 1000)) << "shift " << shift;
  }
  std::uint8_t out[2];
  std::int32_t x = 0;
  EXPECT_THROW(ref::crelu32_pair(&x, 1, 29, out), std::invalid_argument);
  EXPECT_THROW(ref::crelu32_pair(&x, -1, 6, out), std::invalid_argument);
}

TEST(Crelu32PairRefusals, RefusedShapesThrowWithTheReason) {
  std::uint8_t out[128];
  std::int32_t in[64] = {};
  int refused = 0;
  for (const Pair& v : crelu32_pair::variants()) {
    if (!v.info.available()) continue;
    for (crelu32_pair::Shape s : {crelu32_pair::Shape{32, 29}, crelu32_pair::Shape{32, -1}, crelu32_pair::Shape{0, 6},
                                  crelu32_pair::Shape{31, 6}, crelu32_pair::Shape{64, 9}, crelu32_pair::Shape{64, 4}}) {
      const std::string why = crelu32_pair::why_unsupported(v, s);
      if (why.empty()) continue;
      ++refused;
      try {
        crelu32_pair::run(v, s, in, out);
        ADD_FAILURE() << v.info.name << " ran refused shape " << crelu32_pair::shape_name(s);
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_GE(refused, 3);
}

// The shared narrowing inherits both domains: at shift 9 both halves of 40000 diverge.
TEST(Crelu32PairDomain, SharedPacksDivergesAboveShift8InBothHalves) {
  int checked = 0;
  for (const Pair& v : crelu32_pair::variants()) {
    if (v.info.technique.find("shared_packs") == std::string::npos || !v.info.available()) continue;
    const int n = 64;
    std::vector<std::int32_t> in(n, 40000);
    std::vector<std::uint8_t> got(2 * n), want(2 * n);
    std::vector<std::uint64_t> bits(nnz_bitset_words(2 * n));
    std::uint64_t* b = v.writes_bits ? bits.data() : nullptr;
    ref::crelu32_pair(in.data(), n, 8, want.data());
    v.run({n, 8}, in.data(), got.data(), b);
    EXPECT_FALSE(first_mismatch(got.data(), want.data(), 2 * n)) << v.info.name << " must agree at shift 8";
    ref::crelu32_pair(in.data(), n, 9, want.data());
    v.run({n, 9}, in.data(), got.data(), b);  // the raw kernel, bypassing the refusal
    EXPECT_EQ(want[0], 47);
    EXPECT_EQ(got[0], 31) << v.info.name << " squared half";
    EXPECT_EQ(want[n], 78);
    EXPECT_EQ(got[n], 63) << v.info.name << " clipped half";
    EXPECT_THROW(crelu32_pair::run(v, {n, 9}, in.data(), got.data(), b), std::invalid_argument);
    ++checked;
  }
  if (!checked) GTEST_SKIP() << "no shared_packs variant runs on this CPU";
}

// ---- declared lane orders of the int32 activations (the *_lanes forms) -----------------

TEST(SqrCrelu32Order, DeclaredOrdersArePermutationsOfWholeChunks) {
  expect_declared_orders(sqr_crelu32::variants(), shift_shapes<sqr_crelu32::Shape>(), &sqr_crelu32::why_unsupported,
                         &sqr_crelu32::output_order, 1);
}

// 32 -> fc 32x32 and 64 -> 64x16, as crelu32's.
TEST(SqrCrelu32Layout, PermutedActivationAndPreparedNextLayerAreExact) {
  expect_permuted_layouts(
      sqr_crelu32::variants(), {affine::Shape{32, 32}, affine::Shape{64, 16}}, 1,
      [](int n) { return sqr_crelu32::Shape{n, 6}; }, fc_like_int32, &sqr_crelu32::why_unsupported,
      &sqr_crelu32::output_order,
      [](const Sqr& v, const sqr_crelu32::Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
        sqr_crelu32::run(v, s, in, out, b);
      },
      [](const sqr_crelu32::Shape& s, const std::int32_t* in, std::uint8_t* out) { ref::sqr_crelu32(in, s.n, s.shift, out); });
}

TEST(Crelu32PairOrder, DeclaredOrdersKeepTheHalvesAndWholeChunks) {
  expect_declared_orders(crelu32_pair::variants(), shift_shapes<crelu32_pair::Shape>(), &crelu32_pair::why_unsupported,
                         &crelu32_pair::output_order, 2);
}

// 2 x 32 -> 64 bytes -> 64x32 (the L2 input of a 32-wide fc_0), and 2 x 64 -> 128x16.
TEST(Crelu32PairLayout, PermutedActivationAndPreparedNextLayerAreExact) {
  expect_permuted_layouts(
      crelu32_pair::variants(), {affine::Shape{64, 32}, affine::Shape{128, 16}}, 2,
      [](int n) { return crelu32_pair::Shape{n, 6}; }, fc_like_int32, &crelu32_pair::why_unsupported,
      &crelu32_pair::output_order,
      [](const Pair& v, const crelu32_pair::Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
        crelu32_pair::run(v, s, in, out, b);
      },
      [](const crelu32_pair::Shape& s, const std::int32_t* in, std::uint8_t* out) { ref::crelu32_pair(in, s.n, s.shift, out); });
}

// ---- quantmoid4 -----------------------------------------------------------------------

using Q4 = quantmoid4::Variant;
const std::vector<quantmoid4::Shape> kQ4Shapes = {{32}, {64}, {1024}, {2048}, {16}, {48}, {1}, {7}, {33}, {1000}};

class Quantmoid4 : public ::testing::TestWithParam<ElementwiseCase<Q4>> {};

TEST_P(Quantmoid4, MatchesReferenceOnEveryInt16) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  ElementwiseTester<Q4> t(
      *v, s, [](const quantmoid4::Shape& sh, const std::int16_t* in, std::uint8_t* out) { ref::quantmoid4(in, sh.n, out); },
      [](const Q4& var, const quantmoid4::Shape& sh, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
        quantmoid4::run(var, sh, in, out, bits);
      });
  std::vector<std::int16_t> all;
  for (int x = INT16_MIN; x <= INT16_MAX; ++x) all.push_back(std::int16_t(x));
  auto diff = t.check(all, "every int16 in order");
  ASSERT_FALSE(diff) << *diff;
  for (std::uint64_t seed : {1u, 2u}) {
    diff = t.check(random_stream<std::int16_t>(seed, 8192, INT16_MIN, INT16_MAX), "random int16, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
    diff = t.check(random_stream<std::int16_t>(seed, 8192, -140, 140), "random on the curve, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
  diff = t.check(workloads::boundary::edges<std::int16_t>(), "saturation edges");
  ASSERT_FALSE(diff) << *diff;
  EXPECT_GE(t.compared, kMinOutputsPerTest);
}

INSTANTIATE_TEST_SUITE_P(, Quantmoid4,
                         ::testing::ValuesIn(make_cases(quantmoid4::variants(), kQ4Shapes,
                                                        [](const Q4& v, const quantmoid4::Shape& s) { return quantmoid4::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, quantmoid4::shape_name); });

TEST(Quantmoid4Refusals, RefusedShapesThrowWithTheReason) {
  std::uint8_t out[64];
  std::int16_t in[64] = {};
  int refused = 0;
  for (const Q4& v : quantmoid4::variants()) {
    if (!v.info.available()) continue;
    for (quantmoid4::Shape s : {quantmoid4::Shape{0}, quantmoid4::Shape{-4}, quantmoid4::Shape{31}, quantmoid4::Shape{(1 << 20) + 64}}) {
      const std::string why = quantmoid4::why_unsupported(v, s);
      if (why.empty()) continue;
      ++refused;
      try {
        quantmoid4::run(v, s, in, out);
        ADD_FAILURE() << v.info.name << " ran refused shape " << quantmoid4::shape_name(s);
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_GE(refused, 3);
  // A *_bits variant without a bits buffer, and a plain one with one, are refused too.
  for (const Q4& v : quantmoid4::variants()) {
    if (!v.info.available()) continue;
    std::uint64_t bits[1];
    EXPECT_THROW(quantmoid4::run(v, {64}, in, out, v.writes_bits ? nullptr : bits), std::invalid_argument) << v.info.name;
  }
}

}  // namespace
}  // namespace nnuelab::test
