// pool_avg2, pool_max2, pool_product2 and ft_output: every registered variant x every
// supported shape, byte-compared with reference/pool.h over exhaustive pairs, boundary
// pairs and random streams (the tester also checks the nnz bitset of *_bits variants).
// Variants with a declared lane order are un-permuted through that order, and
// FtOutputLayout proves (permuted activation, next layer prepared with the same order)
// exact end to end through real affine kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "kernels/affine/registry.h"
#include "kernels/common/lane_order.h"
#include "kernels/ft_output/registry.h"
#include "kernels/pool_avg2/registry.h"
#include "kernels/pool_max2/registry.h"
#include "kernels/pool_product2/registry.h"
#include "nnuelab_config.h"
#include "reference/find_nnz.h"
#include "reference/pool.h"
#include "workloads/boundary.h"
#include "tests/elementwise_tester.h"
#include "tests/permuted_pair.h"

namespace nnuelab::test {
namespace {

constexpr long kMinOutputsPerTest = 10000;

// A stream that puts pair k = (a, b) at positions i and i + n/2 of one call of n inputs:
// the tester cuts the stream into calls of n, so every listed pair meets as a pair. The
// last call is completed by repeating the list from its start.
template <class T>
std::vector<T> paired_stream(int n, const std::vector<std::pair<T, T>>& pairs) {
  const int h = n / 2;
  const std::size_t calls = (pairs.size() + h - 1) / h;
  std::vector<T> out(calls * n);
  for (std::size_t c = 0; c < calls; ++c)
    for (int i = 0; i < h; ++i) {
      const auto& [a, b] = pairs[(c * h + i) % pairs.size()];
      out[c * n + i] = a;
      out[c * n + h + i] = b;
    }
  return out;
}

// Every (a, b) with a, b from `values`.
template <class T>
std::vector<std::pair<T, T>> all_pairs(const std::vector<T>& values) {
  std::vector<std::pair<T, T>> out;
  for (T a : values)
    for (T b : values) out.push_back({a, b});
  return out;
}

template <class T>
std::vector<T> range(int lo, int hi) {
  std::vector<T> v;
  for (int x = lo; x <= hi; ++x) v.push_back(T(x));
  return v;
}

// Mostly zeros (x <= 0 -> 0) with non-zero runs: chunks of both kinds for the bitsets.
template <class T>
std::vector<T> sparse_stream(std::uint64_t seed, std::size_t n, int lo, int hi) {
  auto v = random_stream<T>(seed, n, lo, hi);
  for (auto& x : v) x = std::max<T>(x, 0);
  return v;
}

// ---- pool_avg2 and pool_max2 (uint8) ----------------------------------------------------

const std::vector<int> kByteNs = {64, 128, 256, 2048, 3072, 2, 30, 96, 1000};
const std::vector<std::uint8_t> kByteEdges = workloads::boundary::edges<std::uint8_t>();

template <class V, class Ref, class Run>
void check_byte_pool(const ElementwiseCase<V>& c, Ref ref, Run run) {
  ElementwiseTester<V> t(*c.variant, c.shape, ref, run, c.shape.n / 2);
  const int n = c.shape.n;
  // Every uint8 pair: all odd sums (where rounding matters), 255 + 255 (the 9-bit sum).
  auto diff = t.check(paired_stream(n, all_pairs(range<std::uint8_t>(0, 255))), "every uint8 pair");
  ASSERT_FALSE(diff) << *diff;
  diff = t.check(paired_stream(n, all_pairs(kByteEdges)), "boundary pairs 0/1/127/128/254/255");
  ASSERT_FALSE(diff) << *diff;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    diff = t.check(random_stream<std::uint8_t>(seed, 8192, 0, 255), "random uint8, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
  EXPECT_GE(t.compared, kMinOutputsPerTest);
}

using Avg = pool_avg2::Variant;
class PoolAvg2 : public ::testing::TestWithParam<ElementwiseCase<Avg>> {};

TEST_P(PoolAvg2, MatchesReference) {
  NNUELAB_SKIP_IF_UNAVAILABLE(GetParam().variant->info);
  check_byte_pool(
      GetParam(), [](const pool_avg2::Shape& s, const std::uint8_t* in, std::uint8_t* out) { ref::pool_avg2(in, s.n, out); },
      [](const Avg& v, const pool_avg2::Shape& s, const std::uint8_t* in, std::uint8_t* out, std::uint64_t* bits) {
        pool_avg2::run(v, s, in, out, bits);
      });
}

std::vector<pool_avg2::Shape> avg_shapes() {
  std::vector<pool_avg2::Shape> out;
  for (int n : kByteNs) out.push_back({n});
  return out;
}
INSTANTIATE_TEST_SUITE_P(, PoolAvg2,
                         ::testing::ValuesIn(make_cases(pool_avg2::variants(), avg_shapes(),
                                                        [](const Avg& v, const pool_avg2::Shape& s) { return pool_avg2::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, pool_avg2::shape_name); });

using Max = pool_max2::Variant;
class PoolMax2 : public ::testing::TestWithParam<ElementwiseCase<Max>> {};

TEST_P(PoolMax2, MatchesReference) {
  NNUELAB_SKIP_IF_UNAVAILABLE(GetParam().variant->info);
  check_byte_pool(
      GetParam(), [](const pool_max2::Shape& s, const std::uint8_t* in, std::uint8_t* out) { ref::pool_max2(in, s.n, out); },
      [](const Max& v, const pool_max2::Shape& s, const std::uint8_t* in, std::uint8_t* out, std::uint64_t* bits) {
        pool_max2::run(v, s, in, out, bits);
      });
}

std::vector<pool_max2::Shape> max_shapes() {
  std::vector<pool_max2::Shape> out;
  for (int n : kByteNs) out.push_back({n});
  return out;
}
INSTANTIATE_TEST_SUITE_P(, PoolMax2,
                         ::testing::ValuesIn(make_cases(pool_max2::variants(), max_shapes(),
                                                        [](const Max& v, const pool_max2::Shape& s) { return pool_max2::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, pool_max2::shape_name); });

// ---- the pairwise ops' lane orders (pool_product2, ft_output: n / 2 output bytes) --------

// The declared orders of n / 2 output bytes: permutations of whole 8-byte groups
// (expect_lane_orders, tests/permuted_pair.h); `refused`, a shape the first variant refuses,
// must make the order throw.
template <class V, class Shape, class Why, class Order>
void expect_pairwise_orders(std::span<const V> all, const std::vector<Shape>& shapes, Why why, Order order,
                            const Shape& refused) {
  expect_lane_orders(all, shapes, why, order, [](const Shape& s) { return s.n / 2; }, 8, 1);
  EXPECT_THROW(order(all[0], refused), std::invalid_argument);
}

// End to end for one pairwise variant at shape s (n inputs, h = n / 2 outputs): the pair
// (variant, next layer h x 32 prepared with its declared order) is exact through real
// affine kernels (tests/permuted_pair.h): the bitset consumers, plus dense kernels through
// the plain run. fill(k, x) draws one input of call k; returns the pairs checked.
template <class V, class Shape, class Fill, class Ref, class Run>
int check_pairwise_layout(const V& v, const Shape& s, const std::string& name, std::vector<int> order, Fill fill,
                          Ref ref, Run run, workloads::Rng& rng, long& total) {
  const int h = s.n / 2;
  std::vector<std::int16_t> in(s.n);
  PermutedPairCheck c;
  c.producer = name;
  c.order = std::move(order);
  c.canonical = v.canonical_order();
  c.next = {h, 32};
  c.produce = [&](int k, std::uint8_t* canonical, std::uint8_t* produced, std::uint64_t* bits) {
    for (auto& x : in) fill(k, x);
    ref(s, in.data(), canonical);
    run(v, s, in.data(), produced, v.writes_bits ? bits : nullptr);
    if (!v.writes_bits) ref::nnz_chunk_bitset(produced, h, bits);  // what a consumer would scan
  };
  c.pick = [](const affine::Variant& av) {
    return av.run_bits || av.info.name == "affine/avx2/dense_blocked4" || av.info.name == "affine/scalar/dense_rows";
  };
  return check_permuted_pairs(c, rng, total);
}

// ---- pool_product2 (int16 in 0..127) ----------------------------------------------------

using Prod = pool_product2::Variant;
class PoolProduct2 : public ::testing::TestWithParam<ElementwiseCase<Prod>> {};

TEST_P(PoolProduct2, MatchesReferenceOnItsDomain) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  ElementwiseTester<Prod> t(
      *v, s, [](const pool_product2::Shape& sh, const std::int16_t* in, std::uint8_t* out) { ref::pool_product2(in, sh.n, out); },
      [](const Prod& var, const pool_product2::Shape& sh, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
        pool_product2::run(var, sh, in, out, bits);
      },
      s.n / 2);
  // A *_lanes variant is compared through its own declared order (the registry line's).
  if (!v->canonical_order()) t.set_output_order(pool_product2::output_order(*v, s));
  // The whole domain: every pair of 0..127 (127 * 127 = 16129, the largest product).
  auto diff = t.check(paired_stream(s.n, all_pairs(range<std::int16_t>(0, 127))), "every pair of 0..127");
  ASSERT_FALSE(diff) << *diff;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    diff = t.check(random_stream<std::int16_t>(seed, 8192, 0, 127), "random 0..127, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
    diff = t.check(sparse_stream<std::int16_t>(seed, 8192, -300, 127), "mostly zeros, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
  EXPECT_GE(t.compared, kMinOutputsPerTest);
  if (v->writes_bits) {
    EXPECT_GT(t.bits_compared, 0);
  }
}

std::vector<pool_product2::Shape> product_shapes() {
  std::vector<pool_product2::Shape> out;
  for (int n : kByteNs) out.push_back({n});
  return out;
}
INSTANTIATE_TEST_SUITE_P(, PoolProduct2,
                         ::testing::ValuesIn(make_cases(pool_product2::variants(), product_shapes(),
                                                        [](const Prod& v, const pool_product2::Shape& s) {
                                                          return pool_product2::why_unsupported(v, s);
                                                        })),
                         [](const auto& info) { return case_name(info.param, pool_product2::shape_name); });

// The checked entry documents the domain instead of scanning for it (the scan would cost
// as much as the op): out-of-domain input runs without an error, while the reference
// refuses it.
TEST(PoolProduct2Domain, CheckedEntryDoesNotScanTheInput) {
  std::vector<std::int16_t> in(256, 200);
  std::vector<std::uint8_t> out(128);
  std::vector<std::uint64_t> bits(nnz_bitset_words(128));
  EXPECT_THROW(ref::pool_product2(in.data(), 256, out.data()), std::invalid_argument);
  for (const Prod& v : pool_product2::variants()) {
    if (!v.info.available() || !pool_product2::why_unsupported(v, {256}).empty()) continue;
    EXPECT_NO_THROW(pool_product2::run(v, {256}, in.data(), out.data(), v.writes_bits ? bits.data() : nullptr)) << v.info.name;
  }
}

// ---- ft_output (any int16, two forms) ---------------------------------------------------

using Ft = ft_output::Variant;
const std::vector<std::int16_t> kAccEdges = {-32768, -32767, -257, -256, -129, -128, -1, 0,  1,   2,   126,
                                             127,    128,    129,  254,  255,  256,  257, 511, 512, 32766, 32767};

void ref_ft(const ft_output::Shape& s, const std::int16_t* acc, std::uint8_t* out) {
  if (s.form == ft_output::Form::kClamp127)
    ref::ft_output_clamp127(acc, s.n, out);
  else
    ref::ft_output_clamp255(acc, s.n, out);
}

ElementwiseTester<Ft> ft_tester(const Ft& v, const ft_output::Shape& s) {
  ElementwiseTester<Ft> t(
      v, s, &ref_ft,
      [](const Ft& var, const ft_output::Shape& sh, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
        ft_output::run(var, sh, in, out, bits);
      },
      s.n / 2);
  // A permuting variant is compared through its own declared order (from the registry
  // line, not from its code).
  if (!v.canonical_order()) t.set_output_order(ft_output::output_order(v, s));
  return t;
}

class FtOutput : public ::testing::TestWithParam<ElementwiseCase<Ft>> {};

TEST_P(FtOutput, MatchesReference) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  auto t = ft_tester(*v, s);
  // Both clamp edges (0, 127/128, 255/256) and the int16 ends, every pair.
  auto diff = t.check(paired_stream(s.n, all_pairs(kAccEdges)), "boundary pairs");
  ASSERT_FALSE(diff) << *diff;
  // Every pair around both clamp ranges: each product and each floor of >> 7 and >> 9.
  diff = t.check(paired_stream(s.n, all_pairs(range<std::int16_t>(-3, 259))), "every pair of -3..259");
  ASSERT_FALSE(diff) << *diff;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    diff = t.check(random_stream<std::int16_t>(seed, 8192, INT16_MIN, INT16_MAX), "random int16, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
    diff = t.check(random_stream<std::int16_t>(seed, 8192, -600, 600), "accumulator-like, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
  EXPECT_GE(t.compared, kMinOutputsPerTest);
  if (v->writes_bits) {
    EXPECT_GT(t.bits_compared, 0);
  }
}

std::vector<ft_output::Shape> ft_shapes() {
  std::vector<ft_output::Shape> out;
  for (auto form : {ft_output::Form::kClamp127, ft_output::Form::kClamp255})
    for (int n : kByteNs) out.push_back({n, form});
  return out;
}
INSTANTIATE_TEST_SUITE_P(, FtOutput,
                         ::testing::ValuesIn(make_cases(ft_output::variants(), ft_shapes(),
                                                        [](const Ft& v, const ft_output::Shape& s) { return ft_output::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, ft_output::shape_name); });

// The declared orders: permutations of whole 8-byte groups (expect_pairwise_orders).
TEST(FtOutputOrder, DeclaredOrdersArePermutationsOfWholeGroups) {
  expect_pairwise_orders(ft_output::variants(), ft_shapes(), &ft_output::why_unsupported, &ft_output::output_order,
                         ft_output::Shape{33, ft_output::Form::kClamp255});
}

// End to end: (ft_output variant, next layer's prepare) is exact, through real affine
// kernels (check_pairwise_layout). The production shape: 2 x 1024 -> 1024 -> affine 1024 x 32.
TEST(FtOutputLayout, PermutedActivationAndPreparedNextLayerAreExact) {
  workloads::Rng rng(42);
  int pairs = 0;
  long total = 0;
  for (const Ft& fv : ft_output::variants()) {
    if (!fv.info.available()) continue;
    for (auto form : {ft_output::Form::kClamp127, ft_output::Form::kClamp255}) {
      const ft_output::Shape fs{2048, form};
      if (!ft_output::why_unsupported(fv, fs).empty()) continue;
      pairs += check_pairwise_layout(
          fv, fs, fv.info.name + " " + ft_output::shape_name(fs), ft_output::output_order(fv, fs),
          [&](int k, std::int16_t& x) { x = std::int16_t(k % 3 == 2 ? rng.uniform(INT16_MIN, INT16_MAX) : rng.uniform(-600, 600)); },
          &ref_ft,
          [](const Ft& v, const ft_output::Shape& sh, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
            ft_output::run(v, sh, in, out, bits);
          },
          rng, total);
    }
  }
  EXPECT_GT(pairs, 0);
  EXPECT_GE(total, kMinOutputsPerTest);
}

// The same two checks for pool_product2's *_lanes forms (inputs in its domain, 0..127,
// every third call mostly zeros).
TEST(PoolProduct2Order, DeclaredOrdersArePermutationsOfWholeGroups) {
  expect_pairwise_orders(pool_product2::variants(), product_shapes(), &pool_product2::why_unsupported,
                         &pool_product2::output_order, pool_product2::Shape{33});
}

TEST(PoolProduct2Layout, PermutedActivationAndPreparedNextLayerAreExact) {
  workloads::Rng rng(43);
  int pairs = 0, permuted = 0;
  long total = 0;
  const pool_product2::Shape s{2048};
  for (const Prod& v : pool_product2::variants()) {
    if (!v.info.available() || !pool_product2::why_unsupported(v, s).empty()) continue;
    const int n = check_pairwise_layout(
        v, s, v.info.name + " " + pool_product2::shape_name(s), pool_product2::output_order(v, s),
        [&](int k, std::int16_t& x) { x = std::int16_t(k % 3 == 2 && rng.uniform(0, 3) ? 0 : rng.uniform(0, 127)); },
        [](const pool_product2::Shape& sh, const std::int16_t* in, std::uint8_t* out) { ref::pool_product2(in, sh.n, out); },
        [](const Prod& var, const pool_product2::Shape& sh, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
          pool_product2::run(var, sh, in, out, bits);
        },
        rng, total);
    pairs += n;
    if (!v.canonical_order()) permuted += n;
  }
  EXPECT_GT(pairs, 0);
  const auto all = pool_product2::variants();
  if (std::any_of(all.begin(), all.end(), [](const Prod& v) { return v.info.available() && !v.canonical_order(); })) {
    EXPECT_GT(permuted, 0);
  }
  EXPECT_GE(total, kMinOutputsPerTest);
}

// ---- refusals -----------------------------------------------------------------------------

// Every refused shape gets a reason, and the checked entry throws std::invalid_argument
// carrying it (no kernel runs). Bad buffers are refused too.
template <class V, class S, class Why, class Run>
int check_refusals(std::span<const V> all, const std::vector<S>& shapes, Why why, Run run) {
  std::vector<typename V::Input> in(4096);
  std::vector<std::uint8_t> out(4096);
  std::vector<std::uint64_t> bits(64);
  int refused = 0;
  for (const V& v : all) {
    if (!v.info.available()) continue;
    for (const S& s : shapes) {
      const std::string reason = why(v, s);
      if (reason.empty()) continue;
      ++refused;
      try {
        run(v, s, in.data(), out.data(), v.writes_bits ? bits.data() : nullptr);
        ADD_FAILURE() << v.info.name << " ran a refused shape";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(v.info.name), std::string::npos) << e.what();
      }
    }
    const auto ok_it = std::find_if(shapes.begin(), shapes.end(), [&](const S& s) { return why(v, s).empty(); });
    if (ok_it == shapes.end()) continue;
    const S ok = *ok_it;
    EXPECT_THROW(run(v, ok, static_cast<const typename V::Input*>(nullptr), out.data(), v.writes_bits ? bits.data() : nullptr), std::invalid_argument) << v.info.name;
    EXPECT_THROW(run(v, ok, in.data(), out.data(), v.writes_bits ? nullptr : bits.data()), std::invalid_argument)
        << v.info.name << ": a bits buffer must match writes_bits";
  }
  return refused;
}

TEST(PoolRefusals, OddAndUnsupportedShapesThrowWithTheReason) {
  // 256 (every variant supports it in one of the forms), then odd, empty, negative, too large, and sizes
  // that are not whole vector steps (2, 30, 96 for the 128-byte AVX-512 step).
  const std::vector<int> ns = {256, 33, 1, 0, -2, (1 << 20) + 2, 2, 30, 96};
  std::vector<pool_avg2::Shape> as;
  std::vector<pool_max2::Shape> ms;
  std::vector<pool_product2::Shape> ps;
  std::vector<ft_output::Shape> fs;
  for (int n : ns) {
    as.push_back({n});
    ms.push_back({n});
    ps.push_back({n});
  }
  for (auto form : {ft_output::Form::kClamp127, ft_output::Form::kClamp255})
    for (int n : ns) fs.push_back({n, form});
  fs.push_back({256, ft_output::Form(7)});
  int refused = 0;
  refused += check_refusals(pool_avg2::variants(), as, &pool_avg2::why_unsupported,
                            [](auto& v, auto& s, auto* i, auto* o, auto* b) { pool_avg2::run(v, s, i, o, b); });
  refused += check_refusals(pool_max2::variants(), ms, &pool_max2::why_unsupported,
                            [](auto& v, auto& s, auto* i, auto* o, auto* b) { pool_max2::run(v, s, i, o, b); });
  refused += check_refusals(pool_product2::variants(), ps, &pool_product2::why_unsupported,
                            [](auto& v, auto& s, auto* i, auto* o, auto* b) { pool_product2::run(v, s, i, o, b); });
  refused += check_refusals(ft_output::variants(), fs, &ft_output::why_unsupported,
                            [](auto& v, auto& s, auto* i, auto* o, auto* b) { ft_output::run(v, s, i, o, b); });
  EXPECT_GE(refused, 4 * 5);

  // The reasons say what is wrong.
  const auto& scalar = pool_avg2::variants()[0];
  EXPECT_NE(pool_avg2::why_unsupported(scalar, {33}).find("odd"), std::string::npos);
  // The size bound is exactly 2^20 for every pairing op and variant (a bound moved either
  // way fails here: 2^20 is taken by the scalar forms, 2^20 + 2 is refused by the bound
  // itself, not by some other check of the variant's).
  const std::string over = "n must be 2..1048576";
  const int big = 1 << 20;
  EXPECT_EQ(pool_avg2::why_unsupported(scalar, {big}), "");
  EXPECT_EQ(pool_max2::why_unsupported(pool_max2::variants()[0], {big}), "");
  EXPECT_EQ(pool_product2::why_unsupported(pool_product2::variants()[0], {big}), "");
  EXPECT_EQ(ft_output::why_unsupported(ft_output::variants()[0], {big, ft_output::Form::kClamp127}), "");
  auto refuses_over = [&](auto all, auto why, auto shape) {
    for (const auto& v : all) {
      if (v.info.available()) {
        EXPECT_NE(why(v, shape).find(over), std::string::npos) << v.info.name << ": " << why(v, shape);
      }
    }
  };
  refuses_over(pool_avg2::variants(), &pool_avg2::why_unsupported, pool_avg2::Shape{big + 2});
  refuses_over(pool_max2::variants(), &pool_max2::why_unsupported, pool_max2::Shape{big + 2});
  refuses_over(pool_product2::variants(), &pool_product2::why_unsupported, pool_product2::Shape{big + 2});
  refuses_over(ft_output::variants(), &ft_output::why_unsupported, ft_output::Shape{big + 2, ft_output::Form::kClamp127});
  for (const Ft& v : ft_output::variants())
    if (v.info.available() && v.info.name.find("clamp255") != std::string::npos) {
      EXPECT_NE(ft_output::why_unsupported(v, {256, ft_output::Form::kClamp127}).find("clamp255 only"), std::string::npos);
    }
  // The reference refuses odd n the same way.
  std::uint8_t b[4] = {};
  EXPECT_THROW(ref::pool_avg2(b, 3, b), std::invalid_argument);
}

TEST(PoolRegistry, EveryPoolOpHasAScalarVariantAndAvx2Forms) {
  auto has = [](auto all, const std::string& name) { return find_variant(all, name) != nullptr; };
  EXPECT_TRUE(has(pool_avg2::variants(), "pool_avg2/scalar/loop"));
  EXPECT_TRUE(has(pool_max2::variants(), "pool_max2/scalar/loop"));
  EXPECT_TRUE(has(pool_product2::variants(), "pool_product2/scalar/loop"));
  EXPECT_TRUE(has(ft_output::variants(), "ft_output/scalar/clamp_loop"));
  if (NNUELAB_HAS_avx2) {
    const Ft* bits = find_variant(ft_output::variants(), "ft_output/avx2/clamp255_mulhi_packus_interleaved_bits");
    ASSERT_TRUE(bits);
    EXPECT_TRUE(bits->writes_bits);
    EXPECT_EQ(bits->order_lanes, 2);
    const Prod* pb = find_variant(pool_product2::variants(), "pool_product2/avx2/mullo_srli_packus_permute_bits");
    ASSERT_TRUE(pb);
    EXPECT_TRUE(pb->writes_bits);
  }
}

}  // namespace
}  // namespace nnuelab::test
