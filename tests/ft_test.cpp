// ft_refresh and ft_update: every registered variant x accumulator widths x feature counts
// x active/update counts x perspectives (x in place / copy), byte-compared with
// reference/ft.h over random full-range int16 weights and purpose-built boundary inputs
// (rows of +-32767/-32768 on a bias or prev at the ends, so int16 wrap-around happens),
// plus the refusals: shapes a variant rejects, fused forms at other counts, bad ids,
// bad pointers.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "nnuelab_config.h"
#include "kernels/ft_refresh/registry.h"
#include "kernels/ft_update/registry.h"
#include "reference/ft.h"
#include "workloads/boundary.h"
#include "tests/support.h"
#include "workloads/synthetic.h"

namespace nnuelab::test {
namespace {

constexpr long kMinOutputsPerTest = 10000;
constexpr const auto& kEdges = workloads::boundary::kInt16Edges;
constexpr int kSpecialRows = 6;  // rows 0..5 of every matrix: whole-row extremes (see Weights)
constexpr std::int16_t kPoison[2] = {0x5AA5, -0x3C3D};  // outputs are filled with these first
constexpr int kGuard = 64;  // int16 past each output that must keep their poison

// A [features][l1] matrix, built once per (features, l1) and shared by the tests of one
// process. Rows 0..5 are extremes (all 32767, all -32768, all 1, all -1, alternating
// 32767/-32768, alternating -32767/32766): boundary rounds draw their ids from these. Of
// the other rows one in eight has values from kEdges, the rest are uniform over all int16.
struct Weights {
  int features, l1;
  workloads::Buffer<std::int16_t> w;
  Weights(int f, int n) : features(f), l1(n), w(std::size_t(f) * n) {
    workloads::Rng rng(0xf7 + std::uint64_t(f) * 7919 + n);
    for (int r = 0; r < f; ++r) {
      std::int16_t* row = w.data() + std::size_t(r) * n;
      if (r < kSpecialRows) {
        for (int i = 0; i < n; ++i) {
          const bool odd = i & 1;
          row[i] = r == 0 ? INT16_MAX : r == 1 ? INT16_MIN : r == 2 ? 1 : r == 3 ? -1
                 : r == 4 ? (odd ? INT16_MIN : INT16_MAX) : (odd ? INT16_MAX - 1 : INT16_MIN + 1);
        }
      } else if (rng.chance(0.125)) {
        for (int i = 0; i < n; ++i) row[i] = kEdges[rng.uniform(0, std::size(kEdges) - 1)];
      } else {
        for (int i = 0; i < n; i += 4) {  // four int16 per 64-bit draw: 45056 x 512 is 23M values
          std::uint64_t x = rng.next();
          for (int j = i; j < std::min(n, i + 4); ++j, x >>= 16) row[j] = std::int16_t(std::uint16_t(x));
        }
      }
    }
  }
  const std::int16_t* row(std::uint32_t f) const { return w.data() + std::size_t(f) * l1; }
};

const Weights& weights(int features, int l1) {
  static std::map<std::pair<int, int>, std::unique_ptr<Weights>> cache;
  auto& slot = cache[{features, l1}];
  if (!slot) slot = std::make_unique<Weights>(features, l1);
  return *slot;
}

std::vector<std::int16_t> random_values(workloads::Rng& rng, int n, bool edge) {
  std::vector<std::int16_t> v(n);
  for (auto& x : v) x = edge ? kEdges[rng.uniform(0, std::size(kEdges) - 1)] : std::int16_t(rng.uniform(INT16_MIN, INT16_MAX));
  return v;
}

// Ids with replacement (duplicates happen: lists are multisets); boundary rounds draw
// from the extreme rows only.
std::vector<std::uint32_t> random_ids(workloads::Rng& rng, int n, int features, bool edge) {
  std::vector<std::uint32_t> v(std::max(n, 1));  // never empty, so data() is never null
  const int hi = edge ? std::min(features, kSpecialRows) - 1 : features - 1;
  for (auto& x : v) x = std::uint32_t(rng.uniform(0, hi));
  return v;
}

// An output buffer with guard elements after it, every element poisoned.
struct Out {
  std::vector<std::int16_t> buf;
  int n;
  Out(int n_, std::int16_t poison) : buf(n_ + kGuard, poison), n(n_) {}
  std::int16_t* data() { return buf.data(); }
  bool guard_intact(std::int16_t poison) const {
    return std::all_of(buf.begin() + n, buf.end(), [&](std::int16_t x) { return x == poison; });
  }
};

// Whether some lane's exact (int32) sum leaves int16: the round really exercises wrap-around.
bool wraps(const std::int16_t* start, const Weights& w, const std::vector<const std::uint32_t*>& lists,
           const std::vector<int>& counts, const std::vector<int>& signs) {
  for (int i = 0; i < w.l1; ++i) {
    std::int64_t s = start[i];
    for (std::size_t l = 0; l < lists.size(); ++l)
      for (int k = 0; k < counts[l]; ++k) s += signs[l] * w.row(lists[l][k])[i];
    if (s > INT16_MAX || s < INT16_MIN) return true;
  }
  return false;
}

// ---- ft_refresh -----------------------------------------------------------------------

struct RefreshCase {
  const ft_refresh::Variant* variant;
  int l1 = 0, features = 0;
};
void PrintTo(const RefreshCase& c, std::ostream* os) { *os << c.variant->info.name << " l1=" << c.l1 << " f=" << c.features; }

// Accumulator widths of real nets with the feature counts tested at each (45056: HalfKAv2_hm;
// the widest matrices get fewer rows to keep the suite's memory small), a tiny feature
// count (duplicate ids in almost every list), and narrow widths only some ISAs accept.
const std::vector<std::pair<int, int>> kRefreshShapes = {
    {128, 45056}, {256, 45056}, {512, 45056}, {768, 2048}, {1024, 2048}, {1536, 1024}, {2048, 1024},
    {3072, 512},  {128, 40},    {8, 100},     {24, 100},   {48, 100},    {96, 100}};

std::vector<RefreshCase> refresh_cases() {
  std::vector<RefreshCase> out;
  for (const ft_refresh::Variant* v : variants_under_test(ft_refresh::variants())) {
    if (!v->info.available()) {
      out.push_back({v});
      continue;
    }
    for (auto [l1, f] : kRefreshShapes)
      if (ft_refresh::why_unsupported(*v, {l1, f, 1, 1}).empty()) out.push_back({v, l1, f});
  }
  check_every_variant_has_a_case("FtRefresh", ft_refresh::variants(), out);
  return out;
}

class FtRefresh : public ::testing::TestWithParam<RefreshCase> {};

TEST_P(FtRefresh, MatchesReference) {
  const auto& [v, l1, features] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  const Weights& w = weights(features, l1);
  workloads::Rng rng(0x4e + std::uint64_t(l1) * 31 + features);
  long compared = 0;
  int wrapping_rounds = 0;
  // Passes over every (active, perspectives) pair; every third pass is a boundary pass.
  for (int pass = 0; pass < 3 || compared < kMinOutputsPerTest; ++pass) {
    const bool edge = pass % 3 == 2;
    const std::int16_t poison = kPoison[pass % 2];
    for (int active : {0, 1, 2, 3, 4, 7, 11, 30, 32, 64}) {  // 4, 11: every row-group size of grouped
      for (int persp : {1, 2}) {
        const ft_refresh::Shape s{l1, features, active, persp};
        ASSERT_EQ(ft_refresh::why_unsupported(*v, s), "") << ft_refresh::shape_name(s);
        const auto bias = random_values(rng, l1, edge);
        const std::vector<std::uint32_t> ids[2] = {random_ids(rng, active, features, edge), random_ids(rng, active, features, edge)};
        Out got[2] = {Out(l1, poison), Out(l1, poison)};
        ft_refresh::Args a;
        a.weights = w.w.data();
        a.bias = bias.data();
        for (int p = 0; p < 2; ++p) a.active[p] = ids[p].data(), a.acc[p] = got[p].data();
        ft_refresh::run(*v, s, a);
        for (int p = 0; p < 2; ++p) {
          const std::string where = v->info.name + " " + ft_refresh::shape_name(s) + " features " +
                                    std::to_string(features) + " pass " + std::to_string(pass) +
                                    (edge ? " (boundary)" : "") + " perspective " + std::to_string(p);
          if (p >= persp) {  // a perspective that was not asked for stays untouched
            ASSERT_TRUE(std::all_of(got[p].buf.begin(), got[p].buf.end(), [&](std::int16_t x) { return x == poison; })) << where;
            continue;
          }
          std::vector<std::int16_t> want(l1);
          ref::ft_refresh(bias.data(), w.w.data(), l1, features, ids[p].data(), active, want.data());
          const auto diff = compare(got[p].data(), want.data(), l1, where);
          ASSERT_FALSE(diff) << *diff;
          ASSERT_TRUE(got[p].guard_intact(poison)) << where << ": wrote past l1";
          compared += l1;
          wrapping_rounds += edge && wraps(bias.data(), w, {ids[p].data()}, {active}, {1});
        }
      }
    }
  }
  EXPECT_GE(compared, kMinOutputsPerTest);
  EXPECT_GT(wrapping_rounds, 0) << "no boundary round left the int16 range: wrap-around untested";
}

INSTANTIATE_TEST_SUITE_P(, FtRefresh, ::testing::ValuesIn(refresh_cases()), [](const auto& info) {
  const RefreshCase& c = info.param;
  return param_name(c.variant->info.name + "/" +
                    (c.variant->info.available() ? std::to_string(c.l1) + "_f" + std::to_string(c.features) : "unavailable"));
});

// ---- the rows-read floor (kernels/ft_refresh/floor.inc) ---------------------------------
// Not a variant, but its result is exact and the same on every ISA and in both read
// orders: every floor kernel, native or emulated, byte-compared with a scalar fold of the
// same rows (random and extreme rows, so lanes wrap), at widths one fold to a whole net's
// (and a partial last slice); past the fold's 64 lanes the accumulator and its guard keep
// their poison; widths off the 64-lane grid are refused.

// The exact sums: fold[i] = sum over the n rows, over lanes k with k % 64 == i, of
// w[row][k], in int32 (at most 64 rows x 48 lanes x 32768: no overflow). The kernels' int16
// fold is this mod 2^16.
std::vector<std::int32_t> fold_rows(const Weights& w, const std::uint32_t* ids, int n) {
  std::vector<std::int32_t> fold(ft_refresh::kFloorLanes, 0);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < w.l1; ++i) fold[i % ft_refresh::kFloorLanes] += w.row(ids[k])[i];
  return fold;
}

class FtFloor : public ::testing::TestWithParam<const ft_refresh::FloorKernel*> {};

TEST_P(FtFloor, FoldMatchesTheScalarFold) {
  const ft_refresh::FloorKernel& k = *GetParam();
  EXPECT_TRUE(k.info.technique == "ft_rows_read" || k.info.technique == "ft_rows_read_sliced") << k.info.name;
  EXPECT_EQ(k.info.name, "floor/" + k.info.isa + "/" + k.info.technique);
  EXPECT_FALSE(k.info.note.empty());
  NNUELAB_SKIP_IF_UNAVAILABLE(k.info);
  for (int bad : {8, 96, 1000}) {
    const char* why = k.supports({bad, 100, 1, 1});
    ASSERT_NE(why, nullptr) << "l1 " << bad << " accepted";
    EXPECT_NE(std::string(why).find("l1 % 64"), std::string::npos) << why;
  }
  int wrapped = 0;
  // 320: a sliced read's last slice is a partial one (256 + 64 lanes).
  for (auto [l1, features] : std::vector<std::pair<int, int>>{{64, 100}, {128, 40}, {320, 100}, {1024, 2048}, {3072, 512}}) {
    const Weights& w = weights(features, l1);
    workloads::Rng rng(0x7f + std::uint64_t(l1));
    for (int pass = 0; pass < 3; ++pass) {
      const bool edge = pass == 2;
      for (int active : {0, 1, 2, 30, 64})
        for (int persp : {1, 2}) {
          const ft_refresh::Shape s{l1, features, active, persp};
          ASSERT_EQ(k.supports(s), nullptr) << ft_refresh::shape_name(s);
          const std::vector<std::uint32_t> ids[2] = {random_ids(rng, active, features, edge), random_ids(rng, active, features, edge)};
          Out got[2] = {Out(l1, kPoison[0]), Out(l1, kPoison[0])};
          ft_refresh::Args a;
          a.weights = w.w.data();
          a.bias = nullptr;  // never read
          for (int p = 0; p < 2; ++p) a.active[p] = ids[p].data(), a.acc[p] = got[p].data();
          k.run(s, a);
          for (int p = 0; p < 2; ++p) {
            const std::string where = k.info.name + " " + ft_refresh::shape_name(s) + " pass " + std::to_string(pass) +
                                      " perspective " + std::to_string(p);
            const int written = p < persp ? ft_refresh::kFloorLanes : 0;
            if (written) {
              const std::vector<std::int32_t> exact = fold_rows(w, ids[p].data(), active);
              std::vector<std::int16_t> want(exact.size());
              std::transform(exact.begin(), exact.end(), want.begin(), [](std::int32_t x) { return std::int16_t(x); });  // mod 2^16
              const auto diff = compare(got[p].data(), want.data(), written, where);
              ASSERT_FALSE(diff) << *diff;
              wrapped += std::any_of(exact.begin(), exact.end(), [](std::int32_t x) { return x > INT16_MAX || x < INT16_MIN; });
            }
            ASSERT_TRUE(std::all_of(got[p].buf.begin() + written, got[p].buf.end(), [](std::int16_t x) { return x == kPoison[0]; }))
                << where << ": wrote past the fold";
          }
        }
    }
  }
  EXPECT_GT(wrapped, 0) << "no fold left the int16 range: wrap-around untested";
}

INSTANTIATE_TEST_SUITE_P(, FtFloor, ::testing::ValuesIn([] {
                           std::vector<const ft_refresh::FloorKernel*> out;
                           for (const ft_refresh::FloorKernel& k : ft_refresh::floor_kernels()) out.push_back(&k);
                           return out;
                         }()),
                         [](const auto& info) { return param_name(info.param->info.name); });

// Every ISA with register-tiled refresh forms has both floor kernels, native or emulated.
TEST(FtFloorList, EveryTiledIsaHasBoth) {
  std::set<std::string> tiled, whole, sliced;
  for (const ft_refresh::Variant& v : ft_refresh::variants())
    if (v.info.technique == "tiled" && v.info.isa != "scalar" && !v.info.isa.starts_with("xsimd")) tiled.insert(v.info.isa);
  for (const ft_refresh::FloorKernel& k : ft_refresh::floor_kernels())
    (k.info.technique == "ft_rows_read_sliced" ? sliced : whole).insert(k.info.isa);
  EXPECT_FALSE(tiled.empty());
  EXPECT_EQ(whole, tiled);
  EXPECT_EQ(sliced, tiled);
}

// ---- ft_update ------------------------------------------------------------------------

struct UpdateCase {
  const ft_update::Variant* variant;
  int l1 = 0, features = 0;
  bool in_place = false;
};
void PrintTo(const UpdateCase& c, std::ostream* os) {
  *os << c.variant->info.name << " l1=" << c.l1 << " f=" << c.features << (c.in_place ? " in place" : "");
}

// (added, removed): the three fused forms, then general counts up to the limit.
const std::vector<std::pair<int, int>> kUpdateCounts = {{1, 1}, {1, 2}, {2, 2}, {0, 0}, {1, 0}, {0, 1},
                                                        {3, 1}, {2, 3}, {7, 7}, {32, 32}, {64, 0}, {0, 64}};

std::vector<UpdateCase> update_cases() {
  std::vector<UpdateCase> out;
  for (const ft_update::Variant* v : variants_under_test(ft_update::variants())) {
    if (!v->info.available()) {
      out.push_back({v});
      continue;
    }
    for (auto [l1, f] : kRefreshShapes)
      for (bool in_place : {false, true}) {
        if (l1 < 128 && in_place) continue;  // narrow widths: copy form only
        // Any count the variant accepts at this width (the fused forms accept one).
        for (auto [add, rem] : kUpdateCounts)
          if (ft_update::why_unsupported(*v, {l1, f, rem, add, 1, in_place}).empty()) {
            out.push_back({v, l1, f, in_place});
            break;
          }
      }
  }
  check_every_variant_has_a_case("FtUpdate", ft_update::variants(), out);
  return out;
}

class FtUpdate : public ::testing::TestWithParam<UpdateCase> {};

TEST_P(FtUpdate, MatchesReference) {
  const auto& [v, l1, features, in_place] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  const Weights& w = weights(features, l1);
  workloads::Rng rng(0x75 + std::uint64_t(l1) * 37 + features * 3 + in_place);
  std::vector<ft_update::Shape> shapes;
  for (auto [add, rem] : kUpdateCounts)
    for (int persp : {1, 2})
      if (const ft_update::Shape s{l1, features, rem, add, persp, in_place}; ft_update::why_unsupported(*v, s).empty())
        shapes.push_back(s);
  ASSERT_FALSE(shapes.empty());
  long compared = 0;
  int wrapping_rounds = 0;
  for (int pass = 0; pass < 3 || compared < kMinOutputsPerTest; ++pass) {
    const bool edge = pass % 3 == 2;
    const std::int16_t poison = kPoison[pass % 2];
    for (const ft_update::Shape& s : shapes) {
      std::vector<std::int16_t> prev[2] = {random_values(rng, l1, edge), random_values(rng, l1, edge)};
      const std::vector<std::uint32_t> rem[2] = {random_ids(rng, s.n_removed, features, edge), random_ids(rng, s.n_removed, features, edge)};
      const std::vector<std::uint32_t> add[2] = {random_ids(rng, s.n_added, features, edge), random_ids(rng, s.n_added, features, edge)};
      // In place: the accumulator starts as prev (its guard poisoned); else out is poisoned.
      Out got[2] = {Out(l1, poison), Out(l1, poison)};
      if (in_place)
        for (int p = 0; p < 2; ++p) std::copy(prev[p].begin(), prev[p].end(), got[p].buf.begin());
      ft_update::Args a;
      a.weights = w.w.data();
      for (int p = 0; p < 2; ++p) {
        a.prev[p] = in_place ? got[p].data() : prev[p].data();
        a.out[p] = got[p].data();
        a.removed[p] = rem[p].data();
        a.added[p] = add[p].data();
      }
      ft_update::run(*v, s, a);
      for (int p = 0; p < 2; ++p) {
        const std::string where = v->info.name + " " + ft_update::shape_name(s) + " features " +
                                  std::to_string(features) + " pass " + std::to_string(pass) +
                                  (edge ? " (boundary)" : "") + " perspective " + std::to_string(p);
        std::vector<std::int16_t> want(l1);
        if (p >= s.perspectives) {  // not asked for: untouched (prev itself when in place)
          if (in_place) std::copy(prev[p].begin(), prev[p].end(), want.begin());
          else std::fill(want.begin(), want.end(), poison);
        } else {
          ref::ft_update(w.w.data(), l1, features, prev[p].data(), rem[p].data(), s.n_removed, add[p].data(), s.n_added, want.data());
          compared += l1;
          wrapping_rounds += edge && wraps(prev[p].data(), w, {rem[p].data(), add[p].data()}, {s.n_removed, s.n_added}, {-1, 1});
        }
        const auto diff = compare(got[p].data(), want.data(), l1, where);
        ASSERT_FALSE(diff) << *diff;
        ASSERT_TRUE(got[p].guard_intact(poison)) << where << ": wrote past l1";
      }
    }
  }
  EXPECT_GE(compared, kMinOutputsPerTest);
  EXPECT_GT(wrapping_rounds, 0) << "no boundary round left the int16 range: wrap-around untested";
}

INSTANTIATE_TEST_SUITE_P(, FtUpdate, ::testing::ValuesIn(update_cases()), [](const auto& info) {
  const UpdateCase& c = info.param;
  return param_name(c.variant->info.name + "/" +
                    (c.variant->info.available()
                         ? std::to_string(c.l1) + "_f" + std::to_string(c.features) + (c.in_place ? "_inplace" : "_copy")
                         : "unavailable"));
});

// ---- refusals -------------------------------------------------------------------------

// Expects run(...) to throw std::invalid_argument whose message contains `needle`.
template <class F>
void expect_refusal(F&& run, const std::string& needle, const std::string& what) {
  try {
    run();
    ADD_FAILURE() << what << ": ran instead of refusing";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << what << ": message \"" << e.what()
                                                                     << "\" lacks \"" << needle << "\"";
  }
}

TEST(FtRefusals, RefreshShapesOutsideTheLimitsThrowWithTheReason) {
  std::vector<std::int16_t> bias(4200, 0), acc(4200, kPoison[0]), w(4200 * 4, 0);
  const std::uint32_t ids[70] = {};
  int refused = 0, width_refusals = 0;
  for (const ft_refresh::Variant& v : ft_refresh::variants()) {
    if (!v.info.available()) {
      EXPECT_NE(ft_refresh::why_unsupported(v, {1024, 4, 1, 1}).find("this CPU lacks"), std::string::npos);
      continue;
    }
    for (ft_refresh::Shape s : {ft_refresh::Shape{0, 4, 1, 1}, ft_refresh::Shape{4097, 4, 1, 1}, ft_refresh::Shape{1024, 0, 1, 1},
                                ft_refresh::Shape{1024, 65537, 1, 1}, ft_refresh::Shape{1024, 4, 65, 1},
                                ft_refresh::Shape{1024, 4, -1, 1}, ft_refresh::Shape{1024, 4, 1, 3},
                                ft_refresh::Shape{1024, 4, 1, 0}, ft_refresh::Shape{24, 4, 1, 1}, ft_refresh::Shape{8, 4, 1, 1}}) {
      const std::string why = ft_refresh::why_unsupported(v, s);
      if (why.empty()) continue;
      ++refused;
      width_refusals += why.find("needs l1 %") != std::string::npos;
      ft_refresh::Args a;
      a.weights = w.data(), a.bias = bias.data(), a.active[0] = a.active[1] = ids, a.acc[0] = acc.data();
      a.acc[1] = acc.data() + 4100;
      expect_refusal([&] { ft_refresh::run(v, s, a); }, why, v.info.name + " " + ft_refresh::shape_name(s));
      ASSERT_TRUE(std::all_of(acc.begin(), acc.end(), [](std::int16_t x) { return x == kPoison[0]; })) << "refused but wrote";
    }
  }
  EXPECT_GE(refused, 8 * 2);    // the op's limits, for every available variant
  // l1 8 / 24 is not a whole number of ymm (AVX2) registers: x86 builds only.
  if (NNUELAB_HAS_avx2 && cpu_features() & kAVX2) {
    EXPECT_GE(width_refusals, 2);
  }
}

TEST(FtRefusals, FusedFormsRefuseOtherCounts) {
  int fused = 0;
  for (const ft_update::Variant& v : ft_update::variants()) {
    if (!v.info.available() || !v.info.technique.starts_with("fused_")) continue;
    ++fused;
    int accepted = 0;
    for (auto [add, rem] : kUpdateCounts) {
      const ft_update::Shape s{1024, 64, rem, add, 1, false};
      const std::string why = ft_update::why_unsupported(v, s);
      if (why.empty()) {
        ++accepted;
        EXPECT_EQ(v.info.technique, "fused_add" + std::to_string(add) + "_sub" + std::to_string(rem));
        continue;
      }
      EXPECT_NE(why.find("needs exactly"), std::string::npos) << why;
      std::vector<std::int16_t> prev(1024, 1), out(1024, kPoison[0]), w(64 * 1024, 0);
      const std::uint32_t ids[64] = {};
      ft_update::Args a;
      a.weights = w.data(), a.prev[0] = prev.data(), a.out[0] = out.data(), a.removed[0] = ids, a.added[0] = ids;
      expect_refusal([&] { ft_update::run(v, s, a); }, why, v.info.name + " " + ft_update::shape_name(s));
      ASSERT_TRUE(std::all_of(out.begin(), out.end(), [](std::int16_t x) { return x == kPoison[0]; }));
    }
    EXPECT_EQ(accepted, 1) << v.info.name << " accepts exactly its own counts";
  }
  // scalar, sse2, avx2 (+ the emulated avx512bw) forms on x86; other targets: scalar and up.
  EXPECT_GE(fused, NNUELAB_HAS_sse2 ? 3 * 3 : 3);
}

// An id >= features is refused before anything is written, and the message names it.
TEST(FtRefusals, BadIdsThrowNamingTheId) {
  const int l1 = 256, features = 50;
  const Weights& w = weights(features, l1);
  std::vector<std::int16_t> bias(l1, 0), prev(l1, 0);
  int checked = 0;
  for (const ft_refresh::Variant& v : ft_refresh::variants()) {
    if (!ft_refresh::why_unsupported(v, {l1, features, 3, 2}).empty()) continue;
    Out acc0(l1, kPoison[0]), acc1(l1, kPoison[0]);
    const std::uint32_t good[3] = {1, 2, 3}, bad[3] = {4, std::uint32_t(features), 5};
    ft_refresh::Args a;
    a.weights = w.w.data(), a.bias = bias.data(), a.active[0] = good, a.active[1] = bad;
    a.acc[0] = acc0.data(), a.acc[1] = acc1.data();
    expect_refusal([&] { ft_refresh::run(v, {l1, features, 3, 2}, a); }, "active[1][1] = 50 >= features 50", v.info.name);
    EXPECT_TRUE(std::all_of(acc0.buf.begin(), acc0.buf.end(), [](std::int16_t x) { return x == kPoison[0]; }));
    ++checked;
  }
  for (const ft_update::Variant& v : ft_update::variants()) {
    if (!ft_update::why_unsupported(v, {l1, features, 1, 1, 1, false}).empty()) continue;
    Out out(l1, kPoison[0]);
    const std::uint32_t good[1] = {7}, bad[1] = {0xFFFFFFFFu};
    ft_update::Args a;
    a.weights = w.w.data(), a.prev[0] = prev.data(), a.out[0] = out.data(), a.removed[0] = good, a.added[0] = bad;
    expect_refusal([&] { ft_update::run(v, {l1, features, 1, 1, 1, false}, a); }, "added[0][0] = 4294967295 >= features 50",
                   v.info.name);
    EXPECT_TRUE(std::all_of(out.buf.begin(), out.buf.end(), [](std::int16_t x) { return x == kPoison[0]; }));
    ++checked;
  }
  EXPECT_GE(checked, 2 + 2);  // at least scalar naive/tiled of each op
}

TEST(FtRefusals, BadPointersThrow) {
  const int l1 = 128, features = 10;
  const Weights& w = weights(features, l1);
  std::vector<std::int16_t> buf(4 * l1, 0), bias(l1, 0);
  const std::uint32_t ids[2] = {1, 2};
  for (const ft_update::Variant& v : ft_update::variants()) {
    if (!ft_update::why_unsupported(v, {l1, features, 1, 1, 2, false}).empty()) continue;
    auto args = [&] {
      ft_update::Args a;
      a.weights = w.w.data();
      for (int p = 0; p < 2; ++p)
        a.prev[p] = buf.data() + p * l1, a.out[p] = buf.data() + (2 + p) * l1, a.removed[p] = a.added[p] = ids;
      return a;
    };
    ft_update::Args a = args();
    a.out[0] = buf.data() + 1;  // copy form, out overlapping prev
    expect_refusal([&] { ft_update::run(v, {l1, features, 1, 1, 2, false}, a); }, "out[0] overlaps prev[0]", v.info.name);
    a = args();  // in place, but out != prev
    expect_refusal([&] { ft_update::run(v, {l1, features, 1, 1, 2, true}, a); }, "needs out[0] == prev[0]", v.info.name);
    a = args();
    a.out[1] = a.out[0] + 3;
    expect_refusal([&] { ft_update::run(v, {l1, features, 1, 1, 2, false}, a); }, "out[0] and out[1] overlap", v.info.name);
    a = args();
    a.added[1] = nullptr;
    expect_refusal([&] { ft_update::run(v, {l1, features, 1, 1, 2, false}, a); }, "added[1] is null", v.info.name);
    a = args();
    a.weights = nullptr;
    expect_refusal([&] { ft_update::run(v, {l1, features, 1, 1, 2, false}, a); }, "weights is null", v.info.name);
  }
  for (const ft_refresh::Variant& v : ft_refresh::variants()) {
    if (!ft_refresh::why_unsupported(v, {l1, features, 2, 2}).empty()) continue;
    ft_refresh::Args a;
    a.weights = w.w.data(), a.bias = bias.data(), a.active[0] = a.active[1] = ids;
    a.acc[0] = buf.data(), a.acc[1] = buf.data() + l1 - 1;
    expect_refusal([&] { ft_refresh::run(v, {l1, features, 2, 2}, a); }, "acc[0] and acc[1] overlap", v.info.name);
    a.acc[1] = nullptr;
    expect_refusal([&] { ft_refresh::run(v, {l1, features, 2, 2}, a); }, "acc[1] is null", v.info.name);
    a.acc[1] = buf.data() + 2 * l1, a.bias = nullptr;
    expect_refusal([&] { ft_refresh::run(v, {l1, features, 2, 2}, a); }, "bias is null", v.info.name);
  }
}

// ---- the checks can fail --------------------------------------------------------------

// The boundary inputs tell wrap-around from saturation: a kernel that saturated (paddsw)
// would differ from the reference on them, and compare() reports it.
TEST(FtSelfCheck, BoundaryRoundsSeparateWrapFromSaturation) {
  const int l1 = 128, features = 40;
  const Weights& w = weights(features, l1);
  std::vector<std::int16_t> bias(l1, INT16_MAX - 1), want(l1), saturated(l1);
  const std::uint32_t ids[2] = {0, 2};  // all 32767, all 1
  ref::ft_refresh(bias.data(), w.w.data(), l1, features, ids, 2, want.data());
  for (int i = 0; i < l1; ++i) {
    std::int32_t s = bias[i];
    for (std::uint32_t f : ids) s = std::clamp<std::int32_t>(s + w.row(f)[i], INT16_MIN, INT16_MAX);
    saturated[i] = std::int16_t(s);
  }
  const auto diff = compare(saturated.data(), want.data(), l1, "saturating sum");
  ASSERT_TRUE(diff);
  EXPECT_NE(diff->find("128 of 128 outputs differ"), std::string::npos) << *diff;
}

// run_active picks a native variant that supports the shape, and its output is right.
TEST(FtActive, PicksASupportingVariantAndMatches) {
  const int l1 = 1024, features = 2048;
  const Weights& w = weights(features, l1);
  workloads::Rng rng(99);
  const auto prev = random_values(rng, l1, false);
  for (auto [add, rem] : kUpdateCounts) {
    const auto ra = random_ids(rng, add, features, false), rr = random_ids(rng, rem, features, false);
    std::vector<std::int16_t> got(l1), want(l1);
    ft_update::Args a;
    a.weights = w.w.data(), a.prev[0] = prev.data(), a.out[0] = got.data(), a.added[0] = ra.data(), a.removed[0] = rr.data();
    const ft_update::Shape s{l1, features, rem, add, 1, false};
    const ft_update::Variant& v = ft_update::run_active(s, a);
    EXPECT_TRUE(ft_update::why_unsupported(v, s).empty()) << v.info.name;
    ref::ft_update(w.w.data(), l1, features, prev.data(), rr.data(), rem, ra.data(), add, want.data());
    const auto diff = compare(got.data(), want.data(), l1, v.info.name + " via run_active");
    EXPECT_FALSE(diff) << *diff;
  }
  const auto ids = random_ids(rng, 30, features, false);
  std::vector<std::int16_t> got(l1), want(l1);
  ft_refresh::Args a;
  a.weights = w.w.data(), a.bias = prev.data(), a.active[0] = ids.data(), a.acc[0] = got.data();
  const ft_refresh::Variant& v = ft_refresh::run_active({l1, features, 30, 1}, a);
  ref::ft_refresh(prev.data(), w.w.data(), l1, features, ids.data(), 30, want.data());
  const auto diff = compare(got.data(), want.data(), l1, v.info.name + " via run_active");
  EXPECT_FALSE(diff) << *diff;
}

}  // namespace
}  // namespace nnuelab::test
