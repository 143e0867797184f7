// NEON activation variants (kernels/<op>/neon.cpp; neon-emu on x86, native under
// qemu-aarch64): what the registry-wide suites do not pin down.
// - Every shift, not only the suites' sample: crelu32's qshrn form has one instantiation
//   per immediate shift (0..16), the sshl form claims all of 0..31, and the sqdmulh square
//   claims 4..8; each shift each variant accepts is byte-compared on its edge values.
// - The domain edges are real: the raw kernels (bypassing the refusal on purpose) agree at
//   the last accepted shift and diverge just past it, so a domain is not narrower or wider
//   than the registry says.
// A test that finds no NEON variant to run is skipped, never passed.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/crelu32/registry.h"
#include "kernels/crelu32_pair/registry.h"
#include "kernels/sqr_crelu32/registry.h"
#include "reference/crelu32.h"
#include "reference/crelu32_pair.h"
#include "reference/sqr_crelu32.h"
#include "tests/elementwise_tester.h"

namespace nnuelab::test {
namespace {

bool is_neon(const VariantInfo& info) { return info.isa.starts_with("neon") && info.available(); }

// Clip and square edges at one shift: the clamp edges scaled by 2^shift, the square's
// output steps near the clamp, int16 and int32 ends, -32768, powers of two.
std::vector<std::int32_t> shift_edges(int shift) {
  std::vector<std::int32_t> v = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0,     -1,    1,     32767,
                                 32768,     -32768,        -32769,    40000,         -40000, 65535, 65536, 46341};
  auto push = [&](std::int64_t x) {
    if (x >= INT32_MIN && x <= INT32_MAX) v.push_back(std::int32_t(x));
  };
  for (std::int64_t base : {std::int64_t(127) << shift, std::int64_t(128) << shift, std::int64_t(1) << shift})
    for (std::int64_t d = -2; d <= 2; ++d) push(base + d), push(-(base + d));
  for (int k : {1, 2, 63, 64, 126, 127, 128}) {
    const auto root = std::int64_t(std::sqrt(double(k) * std::ldexp(1.0, 2 * shift + 7)));
    for (std::int64_t d = -3; d <= 3; ++d) push(root + d), push(-(root + d));
  }
  for (int k = 0; k < 31; ++k) push((std::int64_t(1) << k) - 1), push(std::int64_t(1) << k), push(-(std::int64_t(1) << k));
  return v;
}

// Edges plus random values near the interesting range, through the checked entry.
template <class Tester>
void check_shift(Tester& t, int shift, const std::string& name) {
  auto diff = t.check(shift_edges(shift), name + " edges");
  ASSERT_FALSE(diff) << *diff;
  const std::int64_t near = std::min<std::int64_t>(std::int64_t(200) << std::min(shift, 23), INT32_MAX);
  diff = t.check(random_stream<std::int32_t>(shift + 1, 1024, -near, near), name + " random near the clamp");
  ASSERT_FALSE(diff) << *diff;
  diff = t.check(random_stream<std::int32_t>(shift + 1, 512, -40000, 40000), name + " random around int16");
  ASSERT_FALSE(diff) << *diff;
}

TEST(NeonElemShifts, Crelu32EveryAcceptedShift) {
  int checked = 0;
  for (const crelu32::Variant& v : crelu32::variants()) {
    if (!is_neon(v.info)) continue;
    for (int shift = 0; shift <= 31; ++shift) {
      const crelu32::Shape s{64, shift};
      if (!crelu32::why_unsupported(v, s).empty()) continue;
      ElementwiseTester<crelu32::Variant> t(
          v, s, [](const crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32(in, sh.n, sh.shift, out); },
          [](const crelu32::Variant& var, const crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
            crelu32::run(var, sh, in, out, b);
          });
      check_shift(t, shift, v.info.name + " shift " + std::to_string(shift));
      if (HasFatalFailure()) return;
      ++checked;
    }
  }
  if (!checked) GTEST_SKIP() << "no NEON crelu32 variant in this build";
  // qshrn (0..16, twice: plain and _bits), sshl (0..31), qmovn_shift_max (0..8).
  EXPECT_EQ(checked, 17 * 2 + 32 + 9);
}

TEST(NeonElemShifts, SqrCrelu32AndPairEveryAcceptedShift) {
  int checked = 0;
  for (const sqr_crelu32::Variant& v : sqr_crelu32::variants()) {
    if (!is_neon(v.info)) continue;
    for (int shift = 0; shift <= 28; ++shift) {
      const sqr_crelu32::Shape s{64, shift};
      if (!sqr_crelu32::why_unsupported(v, s).empty()) continue;
      ElementwiseTester<sqr_crelu32::Variant> t(
          v, s,
          [](const sqr_crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::sqr_crelu32(in, sh.n, sh.shift, out); },
          [](const sqr_crelu32::Variant& var, const sqr_crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out,
             std::uint64_t* b) { sqr_crelu32::run(var, sh, in, out, b); });
      check_shift(t, shift, v.info.name + " shift " + std::to_string(shift));
      if (HasFatalFailure()) return;
      ++checked;
    }
  }
  for (const crelu32_pair::Variant& v : crelu32_pair::variants()) {
    if (!is_neon(v.info)) continue;
    for (int shift = 0; shift <= 28; ++shift) {
      const crelu32_pair::Shape s{64, shift};
      if (!crelu32_pair::why_unsupported(v, s).empty()) continue;
      ElementwiseTester<crelu32_pair::Variant> t(
          v, s,
          [](const crelu32_pair::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32_pair(in, sh.n, sh.shift, out); },
          [](const crelu32_pair::Variant& var, const crelu32_pair::Shape& sh, const std::int32_t* in, std::uint8_t* out,
             std::uint64_t* b) { crelu32_pair::run(var, sh, in, out, b); },
          2 * s.n);
      check_shift(t, shift, v.info.name + " shift " + std::to_string(shift));
      if (HasFatalFailure()) return;
      ++checked;
    }
  }
  if (!checked) GTEST_SKIP() << "no NEON sqr_crelu32 / crelu32_pair variant in this build";
  // sqr: qmovn_mulhi 5..8, qmovn_qdmulh(_bits) 4..8; pair: shared_qmovn(_bits) 5..8,
  // shared_qmovn_qdmulh(_bits) 4..8.
  EXPECT_EQ(checked, 4 + 5 * 2 + 4 * 2 + 5 * 2);
}

// Runs the raw kernel (no refusal) on n copies of x at `shift`; returns output 0 and
// whether all n outputs equal the reference's.
template <class V, class Ref>
std::pair<int, bool> raw_run(const V& v, int shift, std::int32_t x, int out_per_in, Ref ref) {
  const int n = 64;
  std::vector<std::int32_t> in(n, x);
  std::vector<std::uint8_t> got(out_per_in * n), want(out_per_in * n);
  std::vector<std::uint64_t> bits(nnz_bitset_words(out_per_in * n));
  v.run({n, shift}, in.data(), got.data(), v.writes_bits ? bits.data() : nullptr);
  ref(in.data(), n, shift, want.data());
  return {got[0], !first_mismatch(got.data(), want.data(), got.size())};
}

TEST(NeonElemDomain, NarrowBeforeShiftFormsDivergeAboveShift8) {
  int checked = 0;
  for (const crelu32::Variant& v : crelu32::variants()) {
    if (!is_neon(v.info) || v.info.technique.find("qmovn_shift") == std::string::npos) continue;
    EXPECT_TRUE(raw_run(v, 8, 40000, 1, ref::crelu32).second) << v.info.name << " must agree at shift 8";
    EXPECT_EQ(raw_run(v, 9, 40000, 1, ref::crelu32).first, 63) << v.info.name;  // reference: 78
    ++checked;
  }
  for (const sqr_crelu32::Variant& v : sqr_crelu32::variants()) {
    if (!is_neon(v.info)) continue;
    EXPECT_TRUE(raw_run(v, 8, 40000, 1, ref::sqr_crelu32).second) << v.info.name << " must agree at shift 8";
    // reference: 40000^2 >> 25 = 47; narrowed 32767: 31 (mulhi and sqdmulh alike)
    EXPECT_EQ(raw_run(v, 9, 40000, 1, ref::sqr_crelu32).first, 31) << v.info.name;
    ++checked;
  }
  for (const crelu32_pair::Variant& v : crelu32_pair::variants()) {
    if (!is_neon(v.info)) continue;
    EXPECT_TRUE(raw_run(v, 8, 40000, 2, ref::crelu32_pair).second) << v.info.name << " must agree at shift 8";
    EXPECT_FALSE(raw_run(v, 9, 40000, 2, ref::crelu32_pair).second) << v.info.name << " must diverge at shift 9";
    ++checked;
  }
  if (!checked) GTEST_SKIP() << "no NEON narrowing variant in this build";
}

// The squares' lower edges (sqr_crelu32 and the pair's squared half): mulhi keeps x^2 >> 16 (shift >= 5), sqdmulh x^2 >> 15
// (shift >= 4). x = 200: x^2 = 40000, and 40000 >> 15 = 1 is lost by mulhi at shift 4;
// x = 100: 10000 >> 13 = 1 is lost by sqdmulh at shift 3.
TEST(NeonElemDomain, SquareLowerEdges) {
  int checked = 0;
  for (const sqr_crelu32::Variant& v : sqr_crelu32::variants()) {
    if (!is_neon(v.info)) continue;
    const bool qdmulh = v.info.technique.find("qdmulh") != std::string::npos;
    const int lowest = qdmulh ? 4 : 5;
    EXPECT_TRUE(sqr_crelu32::why_unsupported(v, {64, lowest}).empty()) << v.info.name;
    EXPECT_FALSE(sqr_crelu32::why_unsupported(v, {64, lowest - 1}).empty()) << v.info.name;
    for (std::int32_t x : {100, 200, 32767, -32768, 181, 182})
      EXPECT_TRUE(raw_run(v, lowest, x, 1, ref::sqr_crelu32).second) << v.info.name << " x=" << x;
    EXPECT_FALSE(raw_run(v, lowest - 1, qdmulh ? 100 : 200, 1, ref::sqr_crelu32).second)
        << v.info.name << " must diverge at shift " << lowest - 1;
    ++checked;
  }
  for (const crelu32_pair::Variant& v : crelu32_pair::variants()) {
    if (!is_neon(v.info)) continue;
    const bool qdmulh = v.info.technique.find("qdmulh") != std::string::npos;
    const int lowest = qdmulh ? 4 : 5;
    EXPECT_TRUE(crelu32_pair::why_unsupported(v, {64, lowest}).empty()) << v.info.name;
    EXPECT_FALSE(crelu32_pair::why_unsupported(v, {64, lowest - 1}).empty()) << v.info.name;
    for (std::int32_t x : {100, 200, 32767, -32768, 181, 182})
      EXPECT_TRUE(raw_run(v, lowest, x, 2, ref::crelu32_pair).second) << v.info.name << " x=" << x;
    EXPECT_FALSE(raw_run(v, lowest - 1, qdmulh ? 100 : 200, 2, ref::crelu32_pair).second)
        << v.info.name << " must diverge at shift " << lowest - 1;
    ++checked;
  }
  if (!checked) GTEST_SKIP() << "no NEON sqr_crelu32 / crelu32_pair variant in this build";
}

}  // namespace
}  // namespace nnuelab::test
