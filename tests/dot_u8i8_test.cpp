// dot_u8i8: every registered variant x group counts, compared lane for lane with the
// reference of its own semantics over the whole input range, and with the dpbusd reference
// on the domain where the two must agree; then the domain proofs of the README's semantics
// table (where maddubs, the x2 trick and dpbusds part ways with dpbusd), and the peak kernels.
#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/dot_u8i8/registry.h"
#include "nnuelab_config.h"
#include "reference/dot_u8i8.h"
#include "tests/support.h"
#include "workloads/synthetic.h"

namespace nnuelab::test {
namespace {

using dot_u8i8::Semantics;
using dot_u8i8::Shape;
using V = dot_u8i8::Variant;
using workloads::Rng;

constexpr long kMinLanesPerTest = 10000;
const std::vector<int> kGroups = {1, 3, 4, 8, 15, 16, 17, 32, 64, 256};
// Where the techniques part ways: maddubs saturates from 129, the x2 sum wraps from 65.
const std::vector<int> kBoundaryU = {0, 1, 63, 64, 65, 127, 128, 129, 255};
const std::vector<int> kBoundaryW = {-128, -1, 0, 1, 127};

const char* semantics_name(Semantics s) {
  switch (s) {
    case Semantics::kDpbusd: return "dpbusd";
    case Semantics::kDpbusds: return "dpbusds";
    case Semantics::kMaddubs: return "maddubs";
    case Semantics::kMaddubsX2: return "maddubs_x2";
    case Semantics::kSdot: return "sdot";
  }
  return "?";
}

// The largest u for which a technique equals dpbusd (reference/dot_u8i8.h): dpbusds
// everywhere when acc cannot overflow, maddubs while no pair sum saturates, x2 while the
// int16 sum of four products fits.
int dpbusd_domain_umax(Semantics s) {
  switch (s) {
    case Semantics::kDpbusd:
    case Semantics::kDpbusds: return 255;
    case Semantics::kMaddubs: return 128;
    case Semantics::kMaddubsX2: return 64;
    case Semantics::kSdot: return 127;
  }
  return 0;
}

// The reference of a semantics in the variants' calling form: input A, then input B.
void reference(Semantics s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w, const std::uint8_t* u2,
               const std::int8_t* w2, int groups) {
  switch (s) {
    case Semantics::kDpbusd:
      ref::dot_u8i8_dpbusd(acc, u, w, groups);
      ref::dot_u8i8_dpbusd(acc, u2, w2, groups);
      return;
    case Semantics::kDpbusds:
      ref::dot_u8i8_dpbusds(acc, u, w, groups);
      ref::dot_u8i8_dpbusds(acc, u2, w2, groups);
      return;
    case Semantics::kMaddubs:
      ref::dot_u8i8_maddubs(acc, u, w, groups);
      ref::dot_u8i8_maddubs(acc, u2, w2, groups);
      return;
    case Semantics::kMaddubsX2: ref::dot_u8i8_maddubs_x2(acc, u, w, u2, w2, groups); return;
    case Semantics::kSdot:
      ref::dot_u8i8_sdot(acc, u, w, groups);
      ref::dot_u8i8_sdot(acc, u2, w2, groups);
      return;
  }
}

std::int32_t wrap32(std::int64_t x) { return std::int32_t(x); }  // mod 2^32 (C++20)

// ---- input streams ---------------------------------------------------------------------

using U4 = std::array<std::uint8_t, 4>;
using W4 = std::array<std::int8_t, 4>;

// A stream of int32 lanes, each with its two 4-byte input groups A = (u, w), B = (u2, w2).
struct Lanes {
  std::vector<std::int32_t> acc;
  std::vector<std::uint8_t> u, u2;
  std::vector<std::int8_t> w, w2;
  std::size_t size() const { return acc.size(); }
  void push(std::int32_t a, const U4& ua, const W4& wa, const U4& ub, const W4& wb) {
    acc.push_back(a);
    u.insert(u.end(), ua.begin(), ua.end());
    w.insert(w.end(), wa.begin(), wa.end());
    u2.insert(u2.end(), ub.begin(), ub.end());
    w2.insert(w2.end(), wb.begin(), wb.end());
  }
  std::string describe(std::size_t i) const {
    std::string s = "acc " + std::to_string(acc[i]) + ", u/w";
    for (int b = 0; b < 4; ++b) s += " " + std::to_string(u[4 * i + b]) + "/" + std::to_string(w[4 * i + b]);
    s += ", u2/w2";
    for (int b = 0; b < 4; ++b) s += " " + std::to_string(u2[4 * i + b]) + "/" + std::to_string(w2[4 * i + b]);
    return s;
  }
};

U4 u4(int x) { return {std::uint8_t(x), std::uint8_t(x), std::uint8_t(x), std::uint8_t(x)}; }
W4 w4(int x) { return {std::int8_t(x), std::int8_t(x), std::int8_t(x), std::int8_t(x)}; }

// Uniform u, u2 in 0..umax, w, w2 in -128..127, acc in [acc_lo, acc_hi].
Lanes random_lanes(std::uint64_t seed, int n, int umax, std::int64_t acc_lo, std::int64_t acc_hi) {
  Rng rng(seed);
  Lanes l;
  for (int i = 0; i < n; ++i) {
    U4 ua, ub;
    W4 wa, wb;
    for (int b = 0; b < 4; ++b) {
      ua[b] = std::uint8_t(rng.uniform(0, umax));
      wa[b] = std::int8_t(rng.uniform(-128, 127));
      ub[b] = std::uint8_t(rng.uniform(0, umax));
      wb[b] = std::int8_t(rng.uniform(-128, 127));
    }
    l.push(std::int32_t(rng.uniform(acc_lo, acc_hi)), ua, wa, ub, wb);
  }
  return l;
}

// Boundary values up to umax: every (u, w) x (u2, w2) with all four bytes of a group equal
// (the extreme pair sums), then 4,096 lanes whose every byte is a random boundary value.
Lanes boundary_lanes(std::uint64_t seed, int umax) {
  std::vector<int> us;
  for (int x : kBoundaryU)
    if (x <= umax) us.push_back(x);
  Rng rng(seed);
  auto acc = [&] { return std::int32_t(rng.uniform(-(1 << 20), 1 << 20)); };
  Lanes l;
  for (int ua : us)
    for (int wa : kBoundaryW)
      for (int ub : us)
        for (int wb : kBoundaryW) l.push(acc(), u4(ua), w4(wa), u4(ub), w4(wb));
  auto pick_u = [&] { return std::uint8_t(us[rng.uniform(0, std::int64_t(us.size()) - 1)]); };
  auto pick_w = [&] { return std::int8_t(kBoundaryW[rng.uniform(0, std::int64_t(kBoundaryW.size()) - 1)]); };
  for (int i = 0; i < 4096; ++i) {
    U4 ua, ub;
    W4 wa, wb;
    for (int b = 0; b < 4; ++b) {
      ua[b] = pick_u();
      wa[b] = pick_w();
      ub[b] = pick_u();
      wb[b] = pick_w();
    }
    l.push(acc(), ua, wa, ub, wb);
  }
  return l;
}

// Accumulators within 300,000 of INT32_MAX or INT32_MIN (two groups add at most +-261,120),
// half with random inputs, half with the extreme all-255 x all-127 / all -128 groups: where
// dpbusd and maddubs wrap and dpbusds saturates, after either input.
Lanes near_limit_lanes(std::uint64_t seed, int n) {
  Rng rng(seed);
  Lanes l;
  for (int i = 0; i < n; ++i) {
    const std::int64_t d = rng.uniform(0, 300000);
    const std::int32_t acc = std::int32_t(rng.chance(0.5) ? std::int64_t(INT32_MAX) - d : std::int64_t(INT32_MIN) + d);
    U4 ua, ub;
    W4 wa, wb;
    if (i % 2) {
      ua = u4(255), ub = u4(255);
      wa = w4(rng.chance(0.5) ? 127 : -128);
      wb = w4(rng.chance(0.5) ? 127 : -128);
    } else {
      for (int b = 0; b < 4; ++b) {
        ua[b] = std::uint8_t(rng.uniform(0, 255));
        wa[b] = std::int8_t(rng.uniform(-128, 127));
        ub[b] = std::uint8_t(rng.uniform(0, 255));
        wb[b] = std::int8_t(rng.uniform(-128, 127));
      }
    }
    l.push(acc, ua, wa, ub, wb);
  }
  return l;
}

// ---- the tester ------------------------------------------------------------------------

// Runs a variant over a stream of lanes, shape.groups lanes per call through the checked
// entry point, and compares every lane with a reference. Inputs sit in exact-length heap
// buffers (an over-read is an ASan report in the sanitizer preset), and guard lanes after
// acc catch a write past the last group.
class DotTester {
 public:
  static constexpr int kGuard = 16;
  static constexpr std::int32_t kGuardValue = 0x5A5A5A5A;

  DotTester(const V& v, Shape s)
      : v_(v), s_(s), acc_(s.groups + kGuard), want_(s.groups), u_(4 * s.groups), u2_(4 * s.groups),
        w_(4 * s.groups), w2_(4 * s.groups) {}

  // The last call of a stream that does not fill it wraps around to the stream's start.
  std::optional<std::string> check(const Lanes& l, Semantics semantics, const std::string& what) {
    const int n = s_.groups;
    for (std::size_t start = 0; start < l.size(); start += n) {
      std::vector<std::size_t> at(n);
      for (int g = 0; g < n; ++g) {
        const std::size_t i = at[g] = (start + g) % l.size();
        acc_[g] = l.acc[i];
        for (int b = 0; b < 4; ++b) {
          u_[4 * g + b] = l.u[4 * i + b];
          w_[4 * g + b] = l.w[4 * i + b];
          u2_[4 * g + b] = l.u2[4 * i + b];
          w2_[4 * g + b] = l.w2[4 * i + b];
        }
      }
      std::fill_n(acc_.begin() + n, kGuard, kGuardValue);
      std::copy_n(acc_.begin(), n, want_.begin());
      reference(semantics, want_.data(), u_.data(), w_.data(), u2_.data(), w2_.data(), n);
      dot_u8i8::run(v_, s_, acc_.data(), u_.data(), w_.data(), u2_.data(), w2_.data());
      compared += n;
      const std::string where = v_.info.name + " groups " + std::to_string(n) + ", " + what + " at stream offset " +
                                std::to_string(start) + ", vs the " + semantics_name(semantics) + " reference";
      if (auto diff = compare(acc_.data(), want_.data(), n, where))
        return *diff + "; that lane's input: " + l.describe(at[*first_mismatch(acc_.data(), want_.data(), n)]);
      for (int k = 0; k < kGuard; ++k)
        if (acc_[n + k] != kGuardValue) return where + ": wrote acc[" + std::to_string(n + k) + "], past the last group";
    }
    return std::nullopt;
  }
  long compared = 0;

 private:
  const V& v_;
  Shape s_;
  std::vector<std::int32_t> acc_, want_;
  std::vector<std::uint8_t> u_, u2_;
  std::vector<std::int8_t> w_, w2_;
};

// ---- every variant x every group count -------------------------------------------------

struct DotCase {
  const V* variant;
  Shape shape;
};
void PrintTo(const DotCase& c, std::ostream* os) { *os << c.variant->info.name << " groups=" << c.shape.groups; }

// Every supported shape of every available variant; ONE case for a variant this CPU cannot
// run, which skips without calling any of its code (supports() is ISA code too).
std::vector<DotCase> cases() {
  std::vector<DotCase> out;
  for (const V* v : variants_under_test(dot_u8i8::variants())) {
    if (!v->info.available()) {
      out.push_back({v, {}});
      continue;
    }
    for (int g : kGroups)
      if (dot_u8i8::why_unsupported(*v, {g}).empty()) out.push_back({v, {g}});
  }
  check_every_variant_has_a_case("DotU8i8", dot_u8i8::variants(), out);
  return out;
}

std::string case_name(const DotCase& c) {
  return param_name(c.variant->info.name + "/" +
                    (c.variant->info.available() ? dot_u8i8::shape_name(c.shape) : std::string("unavailable")));
}

class DotU8i8 : public ::testing::TestWithParam<DotCase> {};

// Its own semantics over the whole range: u 0..255, w -128..127, any accumulator.
TEST_P(DotU8i8, MatchesItsSemanticsReference) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  DotTester t(*v, s);
  for (std::uint64_t seed : {1u, 2u}) {
    auto diff = t.check(random_lanes(seed, 4096, 255, INT32_MIN, INT32_MAX), v->semantics,
                        "random u 0..255, any acc, seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
  auto diff = t.check(boundary_lanes(3, 255), v->semantics, "boundary values");
  ASSERT_FALSE(diff) << *diff;
  diff = t.check(near_limit_lanes(4, 4096), v->semantics, "accumulators near INT32_MAX/INT32_MIN");
  ASSERT_FALSE(diff) << *diff;
  EXPECT_GE(t.compared, kMinLanesPerTest);
}

// The exact semantics wherever the variant's technique is exact: no int32 overflow, and u
// within the technique's domain (0..128 maddubs, 0..64 maddubs_x2).
TEST_P(DotU8i8, EqualsDpbusdOnItsDomain) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  DotTester t(*v, s);
  const int umax = dpbusd_domain_umax(v->semantics);
  const std::string domain = "u 0.." + std::to_string(umax);
  for (std::uint64_t seed : {5u, 6u}) {
    auto diff = t.check(random_lanes(seed, 4096, umax, -(1 << 30), 1 << 30), Semantics::kDpbusd,
                        "random " + domain + ", seed " + std::to_string(seed));
    ASSERT_FALSE(diff) << *diff;
  }
  auto diff = t.check(boundary_lanes(7, umax), Semantics::kDpbusd, "boundary values of " + domain);
  ASSERT_FALSE(diff) << *diff;
  EXPECT_GE(t.compared, kMinLanesPerTest);
}

INSTANTIATE_TEST_SUITE_P(, DotU8i8, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return case_name(info.param); });

// ---- domain proofs ---------------------------------------------------------------------

// The available variants of one semantics (native and emulated), in registry order.
std::vector<const V*> of_semantics(Semantics s) {
  std::vector<const V*> out;
  for (const V* v : variants_under_test(dot_u8i8::variants()))
    if (v->semantics == s && v->info.available()) out.push_back(v);
  return out;
}

// One call of 31 groups (a zmm, a ymm, an xmm and a 3-group scalar tail) where every lane
// starts at acc0 and reads the same uniform groups (u, w) and (u2, w2); returns the lanes.
std::vector<std::int32_t> run_uniform(const V& v, std::int32_t acc0, int u, int w, int u2, int w2) {
  constexpr int n = 31;
  std::vector<std::int32_t> acc(n, acc0);
  std::vector<std::uint8_t> ua(4 * n, std::uint8_t(u)), ub(4 * n, std::uint8_t(u2));
  std::vector<std::int8_t> wa(4 * n, std::int8_t(w)), wb(4 * n, std::int8_t(w2));
  dot_u8i8::run(v, {n}, acc.data(), ua.data(), wa.data(), ub.data(), wb.data());
  return acc;
}

// The same for one reference semantics on a single lane.
std::int32_t ref_uniform(Semantics s, std::int32_t acc0, int u, int w, int u2, int w2) {
  const U4 ua = u4(u), ub = u4(u2);
  const W4 wa = w4(w), wb = w4(w2);
  std::int32_t acc = acc0;
  reference(s, &acc, ua.data(), wa.data(), ub.data(), wb.data(), 1);
  return acc;
}

::testing::AssertionResult all_lanes_are(const std::vector<std::int32_t>& lanes, std::int32_t want) {
  for (std::size_t i = 0; i < lanes.size(); ++i)
    if (lanes[i] != want)
      return ::testing::AssertionFailure() << "lane " << i << " is " << lanes[i] << ", expected " << want;
  return ::testing::AssertionSuccess();
}

// pmaddubsw saturates each pair sum u0*w0 + u1*w1 to int16. With u <= 128 the sums stay in
// -32768..32512, so maddubs+madd is exact; u = 129 with w = -128 already saturates.
TEST(DotU8i8Domain, MaddubsEqualsDpbusdThrough128AndDivergesAbove) {
  // References, every (u, w) with all four bytes equal: the extreme pair sum of each u.
  int first_divergent_u = -1;
  for (int u = 0; u <= 255; ++u)
    for (int w = -128; w <= 127; ++w) {
      const std::int32_t m = ref_uniform(Semantics::kMaddubs, 0, u, w, 0, 0);
      const std::int32_t d = ref_uniform(Semantics::kDpbusd, 0, u, w, 0, 0);
      if (u <= 128) {
        ASSERT_EQ(m, d) << "u " << u << ", w " << w;
      } else if (m != d && first_divergent_u < 0) {
        first_divergent_u = u;
      }
    }
  EXPECT_EQ(first_divergent_u, 129);
  EXPECT_EQ(ref_uniform(Semantics::kMaddubs, 0, 129, -128, 0, 0), -65536);  // 2 x -32768
  EXPECT_EQ(ref_uniform(Semantics::kDpbusd, 0, 129, -128, 0, 0), -66048);
  EXPECT_EQ(ref_uniform(Semantics::kMaddubs, 0, 255, 127, 255, 127), 4 * 32767);
  EXPECT_EQ(ref_uniform(Semantics::kDpbusd, 0, 255, 127, 255, 127), 8 * 255 * 127);  // 259080
  // Mixed bytes inside the domain agree too.
  const Lanes inside = random_lanes(11, 4096, 128, -(1 << 30), 1 << 30);
  std::vector<std::int32_t> m = inside.acc, d = inside.acc;
  reference(Semantics::kMaddubs, m.data(), inside.u.data(), inside.w.data(), inside.u2.data(), inside.w2.data(), 4096);
  reference(Semantics::kDpbusd, d.data(), inside.u.data(), inside.w.data(), inside.u2.data(), inside.w2.data(), 4096);
  EXPECT_FALSE(first_mismatch(m.data(), d.data(), m.size()));

  // Every available variant of the maddubs semantics does the same.
  const auto vs = of_semantics(Semantics::kMaddubs);
  for (const V* v : vs) {
    SCOPED_TRACE(v->info.name);
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 128, -128, 128, -128), 4 * -32768));  // = dpbusd, just fits
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 128, 127, 127, 127), 2 * 32512 + 4 * 127 * 127));
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 129, -128, 0, 0), -65536));          // dpbusd: -66048
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 255, 127, 255, 127), 4 * 32767));    // dpbusd: 259080
    DotTester t(*v, {31});
    auto diff = t.check(inside, Semantics::kDpbusd, "random u 0..128");
    EXPECT_FALSE(diff) << *diff;
  }
  if (!forced_variant()) {
    EXPECT_FALSE(vs.empty()) << "no maddubs variant to check";
  }
}

// The x2 trick adds two inputs' pair sums in int16 (paddw, wrapping): four products must fit,
// which holds for u <= 64 (4 * 64 * -128 = -32768 exactly) and fails at u = 65 with w = 127
// (4 * 65 * 127 = 33020 wraps to -32516). The NNUE activation range 0..127 is not enough.
TEST(DotU8i8Domain, MaddubsX2EqualsDpbusdThrough64AndDivergesAt65) {
  for (int u = 0; u <= 64; ++u)
    for (int w = -128; w <= 127; ++w)
      ASSERT_EQ(ref_uniform(Semantics::kMaddubsX2, 0, u, w, u, w), ref_uniform(Semantics::kDpbusd, 0, u, w, u, w))
          << "u " << u << ", w " << w;
  EXPECT_EQ(ref_uniform(Semantics::kMaddubsX2, 0, 64, -128, 64, -128), -65536);
  EXPECT_EQ(ref_uniform(Semantics::kMaddubsX2, 0, 65, 127, 65, 127), 2 * (33020 - 65536));
  EXPECT_EQ(ref_uniform(Semantics::kDpbusd, 0, 65, 127, 65, 127), 66040);
  EXPECT_EQ(ref_uniform(Semantics::kMaddubs, 0, 65, 127, 65, 127), 66040) << "plain maddubs is still exact at 65";
  EXPECT_EQ(ref_uniform(Semantics::kMaddubsX2, 0, 127, 127, 127, 127), 2 * (4 * 127 * 127 - 65536));
  EXPECT_NE(ref_uniform(Semantics::kMaddubsX2, 0, 127, 127, 127, 127), ref_uniform(Semantics::kDpbusd, 0, 127, 127, 127, 127));

  const auto vs = of_semantics(Semantics::kMaddubsX2);
  const Lanes inside = random_lanes(12, 4096, 64, -(1 << 30), 1 << 30);
  for (const V* v : vs) {
    SCOPED_TRACE(v->info.name);
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 64, 127, 64, 127), 65024));            // = dpbusd
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 64, -128, 64, -128), -65536));         // = dpbusd, just fits
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 65, 127, 65, 127), 2 * (33020 - 65536)));  // dpbusd: 66040
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 127, 127, 127, 127), 2 * (4 * 127 * 127 - 65536)));
    DotTester t(*v, {31});
    auto diff = t.check(inside, Semantics::kDpbusd, "random u 0..64");
    EXPECT_FALSE(diff) << *diff;
  }
  if (!forced_variant() && NNUELAB_HAS_ssse3) {  // an x86 technique: no such variant on other targets
    EXPECT_FALSE(vs.empty()) << "no maddubs_x2 variant to check";
  }
}

// NEON's vdotq_s32 and vmull_s8 are int8 x int8: u is read as int8, exact while u <= 127
// (the NNUE activation domain), and u = 128 already reads as -128. vusdotq_s32 (i8mm) and
// the int16-widening form are the exact (dpbusd) semantics and are checked with them.
TEST(DotU8i8Domain, SdotEqualsDpbusdThrough127AndDivergesAt128) {
  for (int u = 0; u <= 255; ++u)
    for (int w = -128; w <= 127; ++w) {
      const std::int32_t s = ref_uniform(Semantics::kSdot, 0, u, w, 0, 0);
      const std::int32_t d = ref_uniform(Semantics::kDpbusd, 0, u, w, 0, 0);
      if (u <= 127 || w == 0) {
        ASSERT_EQ(s, d) << "u " << u << ", w " << w;
      } else {
        ASSERT_EQ(s, 4 * (u - 256) * w) << "u " << u << ", w " << w;
        ASSERT_NE(s, d) << "u " << u << ", w " << w;
      }
    }
  EXPECT_EQ(ref_uniform(Semantics::kSdot, 0, 128, -128, 128, -128), 8 * 16384);  // dpbusd: -131072
  EXPECT_EQ(ref_uniform(Semantics::kDpbusd, 0, 128, -128, 128, -128), -8 * 16384);
  EXPECT_EQ(ref_uniform(Semantics::kSdot, 0, 255, 127, 0, 0), -4 * 127);          // dpbusd: 129540

  const auto vs = of_semantics(Semantics::kSdot);
  const Lanes inside = random_lanes(13, 4096, 127, -(1 << 30), 1 << 30);
  for (const V* v : vs) {
    SCOPED_TRACE(v->info.name);
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 127, -128, 127, 127), 4 * 127 * -128 + 4 * 127 * 127));  // = dpbusd
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 128, -128, 128, -128), 8 * 16384));  // dpbusd: -131072
    EXPECT_TRUE(all_lanes_are(run_uniform(*v, 0, 255, 127, 0, 0), -4 * 127));         // dpbusd: 129540
    DotTester t(*v, {31});
    auto diff = t.check(inside, Semantics::kDpbusd, "random u 0..127");
    EXPECT_FALSE(diff) << *diff;
  }
  if (!forced_variant() && NNUELAB_HAS_neon) {
    EXPECT_FALSE(vs.empty()) << "no sdot variant to check";
  }
}

// vpdpbusds saturates the int32 add where vpdpbusd wraps, and does so after each
// instruction: A's overflow is clipped before B is added.
TEST(DotU8i8Domain, DpbusdsSaturatesWhereDpbusdWraps) {
  const std::int32_t near_max = INT32_MAX - 100, near_min = INT32_MIN + 100;
  const std::int32_t up = 4 * 255 * 127, down = 4 * 255 * -128;  // 129540, -130560
  struct Row {
    const char* what;
    std::int32_t acc;
    int u, w, u2, w2;
    std::int32_t dpbusd, dpbusds;
  };
  const Row rows[] = {
      {"no overflow", INT32_MAX - up, 255, 127, 0, 0, INT32_MAX, INT32_MAX},
      {"overflow up", near_max, 255, 127, 0, 0, wrap32(std::int64_t(near_max) + up), INT32_MAX},
      {"overflow down", near_min, 255, -128, 0, 0, wrap32(std::int64_t(near_min) + down), INT32_MIN},
      {"up then down", near_max, 255, 127, 255, -128, wrap32(std::int64_t(near_max) + up + down), INT32_MAX + down},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.what);
    EXPECT_EQ(ref_uniform(Semantics::kDpbusd, r.acc, r.u, r.w, r.u2, r.w2), r.dpbusd);
    EXPECT_EQ(ref_uniform(Semantics::kDpbusds, r.acc, r.u, r.w, r.u2, r.w2), r.dpbusds);
    for (const V* v : of_semantics(Semantics::kDpbusd))
      EXPECT_TRUE(all_lanes_are(run_uniform(*v, r.acc, r.u, r.w, r.u2, r.w2), r.dpbusd)) << v->info.name;
    for (const V* v : of_semantics(Semantics::kDpbusds))
      EXPECT_TRUE(all_lanes_are(run_uniform(*v, r.acc, r.u, r.w, r.u2, r.w2), r.dpbusds)) << v->info.name;
  }
  EXPECT_NE(rows[1].dpbusd, rows[1].dpbusds);
  EXPECT_EQ(rows[3].dpbusd, INT32_MAX - 1120) << "wrapping up and back down lands near the start";
  if (!forced_variant() && NNUELAB_HAS_avx512vnni) {  // x86 builds: native or -emu VNNI variants
    EXPECT_FALSE(of_semantics(Semantics::kDpbusd).empty());
    EXPECT_FALSE(of_semantics(Semantics::kDpbusds).empty());
  }
}

// ---- refusals, registry, peaks ---------------------------------------------------------

TEST(DotU8i8Refusals, BadShapesAndBuffersThrowWithTheReason) {
  std::int32_t acc[4] = {};
  std::uint8_t u[16] = {};
  std::int8_t w[16] = {};
  int refused = 0;
  for (const V* v : variants_under_test(dot_u8i8::variants())) {
    if (!v->info.available()) continue;
    for (Shape s : {Shape{0}, Shape{-1}, Shape{(1 << 20) + 1}}) {
      const std::string why = dot_u8i8::why_unsupported(*v, s);
      ASSERT_FALSE(why.empty()) << v->info.name << " accepts groups " << s.groups;
      ++refused;
      try {
        dot_u8i8::run(*v, s, acc, u, w, u, w);
        ADD_FAILURE() << v->info.name << " ran refused groups " << s.groups;
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      }
    }
    EXPECT_THROW(dot_u8i8::run(*v, {4}, nullptr, u, w, u, w), std::invalid_argument);
    EXPECT_THROW(dot_u8i8::run(*v, {4}, acc, u, w, nullptr, w), std::invalid_argument);
  }
  if (!forced_variant()) {
    EXPECT_GE(refused, 3);
  }
}

TEST(DotU8i8Registry, TechniquesNameTheirSemantics) {
  std::set<Semantics> seen;
  for (const V& v : dot_u8i8::variants()) {
    EXPECT_EQ(v.semantics, dot_u8i8::semantics_of(v.info.technique)) << v.info.name;
    EXPECT_TRUE(v.info.technique.starts_with(semantics_name(v.semantics))) << v.info.name;
    seen.insert(v.semantics);
  }
  EXPECT_THROW(dot_u8i8::semantics_of("vnni"), std::logic_error);
#if defined(__x86_64__)
  EXPECT_EQ(seen.size(), NNUELAB_HAS_neon ? 5u : 4u) << "every semantics has a variant on x86 (sdot: neon-emu)";
#endif
}

TEST(DotU8i8Peak, KernelsCountTheirMacsAndCoverEveryDotIsa) {
  std::set<std::string> native;
  for (const dot_u8i8::PeakKernel& k : dot_u8i8::peak_kernels()) {
    SCOPED_TRACE(k.info.name);
    EXPECT_EQ(k.info.name, "peak/" + k.info.isa + "/" + k.info.technique);
    EXPECT_FALSE(k.info.note.empty());
    EXPECT_GE(k.chains, 1);
    if (!k.info.emulated) native.insert(k.info.isa);
    if (!k.info.available()) continue;  // never call code this CPU cannot run
    EXPECT_EQ(k.run(0), 0);
    EXPECT_EQ(k.run(1), std::int64_t(k.chains) * isa_vector_bytes(k.info.isa));
    EXPECT_EQ(k.run(5), 5 * k.run(1));
  }
  // Every ISA built natively has its peak kernel (a build with NNUELAB_NATIVE_ISAS=host
  // leaves out what its CPU lacks: those must then be absent).
  const std::vector<std::pair<std::string, bool>> built = {
#if defined(__x86_64__)
      {"ssse3", NNUELAB_NATIVE_ssse3},           {"avx2", NNUELAB_NATIVE_avx2},
      {"avx512bw", NNUELAB_NATIVE_avx512bw},     {"avx512vnni", NNUELAB_NATIVE_avx512vnni},
      {"avxvnni", NNUELAB_NATIVE_avxvnni},
#elif defined(__aarch64__)
      {"neon", NNUELAB_NATIVE_neon}, {"neon-dotprod", NNUELAB_NATIVE_neon_dotprod},
      {"neon-i8mm", NNUELAB_NATIVE_neon_i8mm},
#endif
  };
  for (const auto& [isa, is_built] : built)
    EXPECT_EQ(native.count(isa), is_built ? 1u : 0u) << "native peak kernel for " << isa << ": built " << is_built;
}

}  // namespace
}  // namespace nnuelab::test
