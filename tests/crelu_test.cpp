// crelu16 and crelu32: every registered variant x every supported shape, byte-compared
// with the references over random, exhaustive and boundary inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "kernels/crelu16/registry.h"
#include "kernels/affine/registry.h"
#include "kernels/common/lane_order.h"
#include "kernels/crelu32/registry.h"
#include "nnuelab_config.h"
#include "reference/crelu16.h"
#include "reference/crelu32.h"
#include "workloads/boundary.h"
#include "tests/elementwise_tester.h"
#include "tests/permuted_pair.h"

namespace nnuelab::test {
namespace {

constexpr long kMinOutputsPerTest = 10000;

// ---- crelu16 --------------------------------------------------------------------------

using C16 = crelu16::Variant;
const std::vector<crelu16::Shape> kC16Shapes = {{32}, {1024}, {2048}, {3072}, {64}, {96}, {1}, {7}, {31}, {33}, {1000}};

ElementwiseTester<C16> c16_tester(const ElementwiseCase<C16>& c) {
  ElementwiseTester<C16> t(
      *c.variant, c.shape, [](const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out) { ref::crelu16(in, s.n, out); },
      [](const C16& v, const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) { crelu16::run(v, s, in, out, bits); });
  // A *_lanes variant is compared through its own declared order (from the registry line).
  if (!c.variant->canonical_order()) t.set_output_order(crelu16::output_order(*c.variant, c.shape));
  return t;
}

class Crelu16 : public ::testing::TestWithParam<ElementwiseCase<C16>> {};

TEST_P(Crelu16, MatchesReferenceOnEveryInt16) {
  NNUELAB_SKIP_IF_UNAVAILABLE(GetParam().variant->info);
  auto t = c16_tester(GetParam());
  std::vector<std::int16_t> all;
  for (int x = INT16_MIN; x <= INT16_MAX; ++x) all.push_back(std::int16_t(x));
  auto diff = t.check(all, "every int16 in order");
  ASSERT_FALSE(diff) << *diff;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    diff = t.check(random_stream<std::int16_t>(seed, 8192, INT16_MIN, INT16_MAX), "random int16, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
    diff = t.check(random_stream<std::int16_t>(seed, 8192, -300, 300), "random near 0..127, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
  diff = t.check(workloads::boundary::edges<std::int16_t>(), "saturation edges");
  ASSERT_FALSE(diff) << *diff;
  EXPECT_GE(t.compared, kMinOutputsPerTest);
}

INSTANTIATE_TEST_SUITE_P(, Crelu16,
                         ::testing::ValuesIn(make_cases(crelu16::variants(), kC16Shapes,
                                                        [](const C16& v, const crelu16::Shape& s) { return crelu16::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, crelu16::shape_name); });

// Refused shapes get a reason and a clear error, never a run.
TEST(Crelu16Refusals, RefusedShapesThrowWithTheReason) {
  std::uint8_t out[64];
  std::int16_t in[64] = {};
  int refused = 0;
  for (const C16& v : crelu16::variants()) {
    if (!v.info.available()) continue;
    for (crelu16::Shape s : {crelu16::Shape{0}, crelu16::Shape{-1}, crelu16::Shape{31}, crelu16::Shape{48}, crelu16::Shape{(1 << 20) + 64}}) {
      const std::string why = crelu16::why_unsupported(v, s);
      if (why.empty()) continue;
      ++refused;
      try {
        crelu16::run(v, s, in, out);
        ADD_FAILURE() << v.info.name << " ran refused shape " << crelu16::shape_name(s);
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_GE(refused, 3);
}

// ---- crelu32 --------------------------------------------------------------------------

using C32 = crelu32::Variant;
std::vector<crelu32::Shape> c32_shapes() {
  std::vector<crelu32::Shape> out;
  for (int n : {32, 64, 1024, 16, 48, 8, 1, 33})
    for (int shift : {0, 1, 6, 7, 8, 9, 10, 16, 31}) out.push_back({n, shift});
  // Every other shift up to 16 at two widths: the immediate-shift forms compile one loop
  // per shift (x86 packs_shift_imm_*: 0..8; NEON qshrn_qmovun_min*: 0..16), and each one
  // is tested.
  for (int n : {32, 64})
    for (int shift : {2, 3, 4, 5, 11, 12, 13, 14, 15}) out.push_back({n, shift});
  return out;
}

ElementwiseTester<C32> c32_tester(const C32& v, const crelu32::Shape& s) {
  ElementwiseTester<C32> t(
      v, s, [](const crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32(in, sh.n, sh.shift, out); },
      [](const C32& var, const crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits) { crelu32::run(var, sh, in, out, bits); });
  // A *_lanes variant is compared through its own declared order (from the registry line,
  // not from its code); its bitset is checked against the bytes as produced.
  if (!v.canonical_order()) t.set_output_order(crelu32::output_order(v, s));
  return t;
}

// The values where a shift-then-clamp can go wrong: the clamp edges scaled by 2^shift,
// the int16 saturation edges (a form that packs to int16 first), powers of two, int32 ends.
std::vector<std::int32_t> c32_edges(int shift) {
  std::vector<std::int32_t> v = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0, -1, 1,
                                 32767, 32768, -32768, -32769, 40000, -40000, 65535, 65536};
  for (std::int64_t base : {std::int64_t(127) << shift, std::int64_t(128) << shift, std::int64_t(1) << shift})
    for (std::int64_t d = -2; d <= 2; ++d)
      for (std::int64_t sign : {1, -1})
        if (std::int64_t x = sign * (base + d); x >= INT32_MIN && x <= INT32_MAX) v.push_back(std::int32_t(x));
  for (int k = 0; k < 31; ++k)
    for (std::int32_t x : {(1 << k) - 1, 1 << k, -(1 << k)}) v.push_back(x);
  return v;
}

class Crelu32 : public ::testing::TestWithParam<ElementwiseCase<C32>> {};

TEST_P(Crelu32, MatchesReference) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  auto t = c32_tester(*v, s);
  auto diff = t.check(c32_edges(s.shift), "edges");
  ASSERT_FALSE(diff) << *diff;
  const std::int64_t near = std::int64_t(200) << s.shift;  // the interesting range at this shift
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    diff = t.check(random_stream<std::int32_t>(seed, 4096, INT32_MIN, INT32_MAX), "random int32, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
    diff = t.check(random_stream<std::int32_t>(seed, 4096, -std::min<std::int64_t>(near, INT32_MAX), std::min<std::int64_t>(near, INT32_MAX)),
                   "random near the clamp, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
  EXPECT_GE(t.compared, kMinOutputsPerTest);
  if (v->writes_bits) {
    EXPECT_GT(t.bits_compared, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(, Crelu32,
                         ::testing::ValuesIn(make_cases(crelu32::variants(), c32_shapes(),
                                                        [](const C32& v, const crelu32::Shape& s) { return crelu32::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, crelu32::shape_name); });

// The inlined form (run_many, which the benchmarks time as <shape>+inlined), call by call
// against the reference (check_run_many), over the edges and random int32.
// Shapes: every shift 0..16 and 31 at 32 and 64 elements (each immediate shift is its own
// inlined loop), and the other widths at the nets' shift 6.
std::vector<crelu32::Shape> c32_many_shapes() {
  std::vector<crelu32::Shape> out;
  for (int n : {32, 64}) {
    for (int shift = 0; shift <= 16; ++shift) out.push_back({n, shift});
    out.push_back({n, 31});
  }
  for (int n : {16, 48, 1024, 8, 1, 33}) out.push_back({n, 6});
  return out;
}

class Crelu32Many : public ::testing::TestWithParam<ElementwiseCase<C32>> {};

TEST_P(Crelu32Many, EveryCallMatchesTheReference) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  ASSERT_NE(v->run_many, nullptr) << v->info.name << ": every crelu32 variant has an inlined form";
  long compared = 0;
  const auto diff = check_run_many(
      *v, s, s.n, v->canonical_order() ? std::vector<int>{} : crelu32::output_order(*v, s),
      [](const crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32(in, sh.n, sh.shift, out); },
      [v = v, &s = s](const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits, int count) { crelu32::run_many(*v, s, in, out, bits, count); },
      {c32_edges(s.shift), random_stream<std::int32_t>(7, 7 * 1024 + 1, INT32_MIN, INT32_MAX)}, &compared);
  ASSERT_FALSE(diff) << *diff;
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(, Crelu32Many,
                         ::testing::ValuesIn(make_cases(crelu32::variants(), c32_many_shapes(),
                                                        [](const C32& v, const crelu32::Shape& s) { return crelu32::why_unsupported(v, s); })),
                         [](const auto& info) { return case_name(info.param, crelu32::shape_name); });

// run_many refuses what run refuses, and a negative count; count 0 with null buffers is fine.
TEST(Crelu32ManyRefusals, RefusesBadShapesAndCounts) {
  std::int32_t in[64] = {};
  std::uint8_t out[64];
  int checked = 0;
  for (const C32& v : crelu32::variants()) {
    if (!v.info.available()) continue;
    std::uint64_t bits[2];
    std::uint64_t* b = v.writes_bits ? bits : nullptr;
    EXPECT_THROW(crelu32::run_many(v, {32, 32}, in, out, b, 1), std::invalid_argument) << v.info.name;
    EXPECT_THROW(crelu32::run_many(v, {64, 6}, in, out, b, -1), std::invalid_argument) << v.info.name;
    EXPECT_THROW(crelu32::run_many(v, {64, 6}, nullptr, out, b, 1), std::invalid_argument) << v.info.name;
    EXPECT_THROW(crelu32::run_many(v, {64, 6}, in, out, v.writes_bits ? nullptr : bits, 1), std::invalid_argument) << v.info.name;
    EXPECT_NO_THROW(crelu32::run_many(v, {64, 6}, nullptr, nullptr, nullptr, 0)) << v.info.name;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// Refused shapes get a reason and a clear error, never a run.
TEST(Crelu32Refusals, RefusedShapesThrowWithTheReason) {
  std::uint8_t out[64];
  std::int32_t in[64] = {};
  int refused = 0;
  for (const C32& v : crelu32::variants()) {
    if (!v.info.available()) continue;
    for (crelu32::Shape s : {crelu32::Shape{32, 32}, crelu32::Shape{32, -1}, crelu32::Shape{0, 0}, crelu32::Shape{31, 9}}) {
      const std::string why = crelu32::why_unsupported(v, s);
      if (why.empty()) continue;
      ++refused;
      try {
        crelu32::run(v, s, in, out);
        ADD_FAILURE() << v.info.name << " ran refused shape " << crelu32::shape_name(s);
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_GE(refused, 3);
}

// The pack-before-shift technique is exact only for shift <= 8, which is why it refuses
// 9 and up. Prove both sides: equal at 8 on the value that breaks it at 9, different at 9.
TEST(Crelu32Domain, PackBeforeShiftDivergesAboveShift8) {
  const C32* v = find_variant(crelu32::variants(), "crelu32/avx2/packs_shift_permute");
  if (!v) GTEST_SKIP() << "crelu32/avx2/packs_shift_permute is not built in this configuration";
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  std::int32_t in[32];
  std::fill_n(in, 32, 40000);  // 40000 >> 9 = 78, but int16-saturated 32767 >> 9 = 63
  std::uint8_t got[32], want[32];
  ref::crelu32(in, 32, 8, want);
  v->run({32, 8}, in, got, nullptr);
  EXPECT_FALSE(first_mismatch(got, want, 32)) << "must agree at shift 8";
  EXPECT_EQ(want[0], 127);
  ref::crelu32(in, 32, 9, want);
  v->run({32, 9}, in, got, nullptr);  // the raw kernel, bypassing the refusal on purpose
  EXPECT_EQ(want[0], 78);
  EXPECT_EQ(got[0], 63) << "the technique saturates to int16 before shifting";
  EXPECT_THROW(crelu32::run(*v, {32, 9}, in, got), std::invalid_argument);
}

// The packus form saturates to uint16 instead: exact one shift further (shift <= 9), and
// refused from 10. Both sides on the value that breaks it: 70000 >> 10 = 68, but the
// uint16-saturated 65535 >> 10 = 63; at 9 both give 127.
TEST(Crelu32Domain, PackusBeforeShiftDivergesAboveShift9) {
  int checked = 0;
  for (const C32& v : crelu32::variants()) {
    if (v.info.technique.find("packus_shift") == std::string::npos || !v.info.available()) continue;
    std::int32_t in[64];
    std::fill_n(in, 64, 70000);
    std::uint8_t got[64], want[64];
    ref::crelu32(in, 64, 9, want);
    v.run({64, 9}, in, got, nullptr);
    EXPECT_EQ(want[0], 127);
    EXPECT_FALSE(first_mismatch(got, want, 64)) << v.info.name << " must agree at shift 9";
    ref::crelu32(in, 64, 10, want);
    v.run({64, 10}, in, got, nullptr);  // the raw kernel, bypassing the refusal on purpose
    EXPECT_EQ(want[0], 68);
    EXPECT_EQ(got[0], 63) << v.info.name << ": uint16 saturation precedes the shift";
    EXPECT_THROW(crelu32::run(v, {64, 10}, in, got), std::invalid_argument);
    ++checked;
  }
  if (!checked) GTEST_SKIP() << "no packus_shift variant runs on this CPU";
}

// Every packs-before-shift variant (SSE2 adds/subs clip, SSE4.1, AVX2, AVX-512) has the
// same domain edge: agree at 8, diverge at 9 on 40000.
TEST(Crelu32Domain, EveryPacksBeforeShiftFormDivergesAboveShift8) {
  int checked = 0;
  for (const C32& v : crelu32::variants()) {
    if (v.info.technique.find("packs_shift") == std::string::npos || !v.info.available()) continue;
    std::int32_t in[64];
    std::fill_n(in, 64, 40000);
    std::uint8_t got[64], want[64];
    std::uint64_t bits[1];
    std::uint64_t* b = v.writes_bits ? bits : nullptr;
    ref::crelu32(in, 64, 8, want);
    v.run({64, 8}, in, got, b);
    EXPECT_FALSE(first_mismatch(got, want, 64)) << v.info.name << " must agree at shift 8";
    v.run({64, 9}, in, got, b);
    EXPECT_EQ(got[0], 63) << v.info.name;  // the reference gives 78
    ++checked;
  }
  if (!checked) GTEST_SKIP() << "no packs_shift variant runs on this CPU";
}


// ---- crelu32 declared lane orders -----------------------------------------------------

// The declared orders (tests/permuted_pair.h: permutations of whole chunks, the identity
// exactly for in-order variants, a runnable *_lanes variant really permutes). For crelu32
// the formula is also checked against the two permutes the in-order forms apply (vpermd
// 0,4,1,5,2,6,3,7 at 256 bits; 0,4,8,12,1,... at 512): the *_lanes bytes put through that
// permute are the canonical ones.
TEST(Crelu32Order, DeclaredOrdersArePermutationsOfWholeChunks) {
  expect_declared_orders(crelu32::variants(), c32_shapes(), &crelu32::why_unsupported, &crelu32::output_order, 1);
  // The fix-up permutes' dword indices: produced chunk idx[j] holds canonical chunk j.
  const int vpermd256[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  const int vpermd512[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
  const auto o2 = packs32x2_lane_order(2, 32), o4 = packs32x2_lane_order(4, 64);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(o2[4 * vpermd256[j]], 4 * j) << "2-lane chunk " << j;
  for (int j = 0; j < 16; ++j) EXPECT_EQ(o4[4 * vpermd512[j]], 4 * j) << "4-lane chunk " << j;
  for (const C32& v : crelu32::variants())
    if (!v.canonical_order() && v.info.available()) {
      EXPECT_THROW(crelu32::output_order(v, {33, 6}), std::invalid_argument) << v.info.name;
    }
}

// crelu16's *_lanes order against vpermq 0,2,1,3 (256 bits) and permutexvar_epi64
// 0,2,4,6,1,3,5,7 (512 bits): produced qword idx[j] holds canonical qword j.
TEST(Crelu16Order, DeclaredOrdersArePermutationsOfWholeGroups) {
  expect_declared_orders(crelu16::variants(), kC16Shapes, &crelu16::why_unsupported, &crelu16::output_order, 1, 8);
  const int vpermq256[4] = {0, 2, 1, 3};
  const int vpermq512[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  const auto o2 = packus_lane_order(2, 32), o4 = packus_lane_order(4, 64);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(o2[8 * vpermq256[j]], 8 * j) << "2-lane group " << j;
  for (int j = 0; j < 8; ++j) EXPECT_EQ(o4[8 * vpermq512[j]], 8 * j) << "4-lane group " << j;
}

// End to end (tests/permuted_pair.h), every affine variant that takes the shape, fed the
// produced bytes and bitset. crelu32: crelu of fc_1's 32 outputs -> fc_2 (32 -> 1), 32 ->
// 32 as an fc_1-sized layer, and 64 -> 16, a whole 512-bit vector. crelu16: 32 -> 32 and
// 128 -> 16.
TEST(Crelu32Layout, PermutedActivationAndPreparedNextLayerAreExact) {
  expect_permuted_layouts(
      crelu32::variants(), {affine::Shape{32, 1}, affine::Shape{32, 32}, affine::Shape{64, 16}}, 1,
      [](int n) { return crelu32::Shape{n, 6}; }, fc_like_int32, &crelu32::why_unsupported, &crelu32::output_order,
      [](const C32& v, const crelu32::Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
        crelu32::run(v, s, in, out, b);
      },
      [](const crelu32::Shape& s, const std::int32_t* in, std::uint8_t* out) { ref::crelu32(in, s.n, s.shift, out); },
      kMinOutputsPerTest);
}

TEST(Crelu16Layout, PermutedActivationAndPreparedNextLayerAreExact) {
  expect_permuted_layouts(
      crelu16::variants(), {affine::Shape{32, 32}, affine::Shape{128, 16}}, 1, [](int n) { return crelu16::Shape{n}; },
      // accumulator-like int16 around the clamp, every third call mostly negative
      [](int call, workloads::Rng& rng) { return std::int16_t(call % 3 == 2 ? rng.uniform(-600, 100) : rng.uniform(-200, 300)); },
      &crelu16::why_unsupported, &crelu16::output_order,
      [](const C16& v, const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) {
        crelu16::run(v, s, in, out, b);
      },
      [](const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out) { ref::crelu16(in, s.n, out); },
      kMinOutputsPerTest);
}

// run_active never picks a *_lanes form on its own (its caller expects canonical bytes):
// the variant it ran is in order, and its output is the reference's.
TEST(Crelu32Order, RunActivePicksAnInOrderVariant) {
  for (int n : {32, 64, 1024}) {
    const crelu32::Shape s{n, 6};
    std::vector<std::int32_t> in(n);
    workloads::Rng rng(n);
    for (auto& x : in) x = std::int32_t(rng.uniform(-9000, 9000));
    std::vector<std::uint8_t> got(n), want(n);
    ref::crelu32(in.data(), n, 6, want.data());
    const C32& ran = crelu32::run_active(s, in.data(), got.data());
    if (!forced_variant()) {
      EXPECT_TRUE(ran.canonical_order()) << ran.info.name;
      EXPECT_FALSE(ran.writes_bits) << ran.info.name;
    }
    if (ran.canonical_order()) {
      auto diff = compare(got.data(), want.data(), n, ran.info.name + " via run_active");
      EXPECT_FALSE(diff) << *diff;
    }
  }
}

}  // namespace
}  // namespace nnuelab::test
