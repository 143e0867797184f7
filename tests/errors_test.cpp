// Every error of every public entry point, message text included: null buffers,
// misaligned pointers, refused shapes, bitset misuse, unprepared weights, bad ids and
// overlaps, hand-built nets and positions, and a loader that refuses a tiny file declaring
// a huge size before allocating it. (Per-op refusal sweeps over every variant live in the
// op suites; here one variant per message proves the exact text.)
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <regex>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/affine/registry.h"
#include "kernels/crelu16/registry.h"
#include "kernels/crelu32/registry.h"
#include "kernels/crelu32_pair/registry.h"
#include "kernels/dot_u8i8/registry.h"
#include "kernels/find_nnz/registry.h"
#include "kernels/ft_output/registry.h"
#include "kernels/ft_refresh/registry.h"
#include "kernels/ft_update/registry.h"
#include "kernels/pool_avg2/registry.h"
#include "kernels/pool_max2/registry.h"
#include "kernels/pool_product2/registry.h"
#include "kernels/quantmoid4/registry.h"
#include "kernels/sqr_crelu32/registry.h"
#include "kernels/common/lane_order.h"
#include "kernels/common/packed.h"
#include "reference/affine.h"
#include "reference/find_nnz.h"
#include "workloads/boundary.h"
#include "workloads/chess.h"
#include "workloads/engine.h"
#include "workloads/eval.h"
#include "workloads/nnue.h"
#include "tests/support.h"

namespace nnuelab::test {
namespace {

// The call throws exactly E with exactly this message.
template <class E = std::invalid_argument>
void expect_error(const std::function<void()>& call, const std::string& message) {
  try {
    call();
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const E& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

// The refusal of a pointer not aligned to its `bytes`-byte elements, as every checked entry
// point words it (check_element_aligned), written out here so that a change to it shows.
std::string not_aligned(const std::string& who, const char* name, int bytes, const void* p) {
  return who + ": " + name + " is not aligned to its " + std::to_string(bytes) + "-byte elements (address ending in " +
         std::to_string(reinterpret_cast<std::uintptr_t>(p) % 64) + " mod 64)";
}

template <class V>
const V& first(std::span<const V> all) {
  return all.front();  // the scalar baseline: every registry lists it first, on every CPU
}
template <class V>
const V* first_bits(std::span<const V> all) {
  for (const V& v : all)
    if (v.writes_bits && v.info.available()) return &v;
  return nullptr;
}

// ---- activations (elementwise run_checked, shared by all nine activation-like ops) ------

TEST(Errors, ElementwiseRefusedShape) {
  const auto& v = first(crelu16::variants());
  std::int16_t in[4] = {};
  std::uint8_t out[4];
  expect_error([&] { crelu16::run(v, {0}, in, out); }, v.info.name + " does not support 0: n must be 1..1048576, got 0");
  const auto& c = first(crelu32::variants());
  std::int32_t in32[4] = {};
  expect_error([&] { crelu32::run(c, {4, 32}, in32, out); },
               c.info.name + " does not support " + crelu32::shape_name({4, 32}) + ": " + crelu32::why_unsupported(c, {4, 32}));
  // The inlined form's entry names the shape the same way (formatted only on refusal).
  expect_error([&] { crelu32::run_many(c, {4, 32}, in32, out, nullptr, 1); },
               c.info.name + " does not support 4>>32: shift must be 0..31, got 32");
}

// Every checked run refuses exactly what why_unsupported refuses, with its message:
// check_shape (refusal.h) tests the op's refusal inline and formats it in a cold function
// that asks again, and the two must agree. Every variant of each op over a grid of shapes
// (its limits' edges, counts the SIMD forms refuse, another CPU's variants); only the
// refused shapes are called (an accepted one would run the kernel), on buffers large
// enough for every shape of the grid, so a shape accepted by mistake runs in bounds and
// fails as a missing error. Returns how many were refused.
const std::vector<int> kGridCounts = {0, 1, 2, 3, 4, 6, 7, 8, 15, 16, 17, 31, 32, 33, 48, 63, 64,
                                      65, 96, 100, 128, 255, 256, 500, 512, 1000, 1024, 2048, 4096};
constexpr std::size_t kGridBuffer = 16384;  // elements: 2 x 4096 of any op's input or output

template <class V, class Shape, class Call, class Why, class Name>
int expect_refused_as_stated(std::span<const V> all, const std::vector<Shape>& shapes, Call call, Why why,
                             Name shape_name) {
  int refused = 0;
  for (const V& v : all)
    for (const Shape& s : shapes) {
      const std::string w = why(v, s);
      if (w.empty()) continue;
      ++refused;
      expect_error([&] { call(v, s); }, v.info.name + " does not support " + shape_name(s) + ": " + w);
    }
  return refused;
}

// An elementwise op's buffers for the grid: input, output and (for a *_bits variant) bits.
template <class V>
struct GridBuffers {
  std::vector<typename V::Input> in = std::vector<typename V::Input>(kGridBuffer);
  std::vector<typename V::Output> out = std::vector<typename V::Output>(kGridBuffer);
  std::vector<std::uint64_t> bits = std::vector<std::uint64_t>(kGridBuffer / 32);
  std::uint64_t* bits_for(const V& v) { return v.writes_bits ? bits.data() : nullptr; }
};

template <class Shape, class... Fields>
std::vector<Shape> grid(const std::vector<int>& counts, const std::vector<int>& seconds) {
  std::vector<Shape> g;
  for (int n : counts)
    for (int x : seconds) g.push_back(Shape{n, Fields(x)...});
  return g;
}
template <class Shape>
std::vector<Shape> count_grid() {
  return grid<Shape>(kGridCounts, {0});  // one shape per count
}
const std::vector<int> kGridShifts = {-1, 0, 6, 8, 9, 28, 29, 31, 32};

#define NNUELAB_REFUSALS_OF(op, shapes, RUN)                                                         \
  [&] {                                                                                              \
    GridBuffers<op::Variant> b;                                                                      \
    return expect_refused_as_stated(                                                                 \
        op::variants(), shapes,                                                                      \
        [&b](const op::Variant& v, const op::Shape& s) { op::RUN; }, op::why_unsupported, op::shape_name); \
  }()
#define NNUELAB_RUN_ONE run(v, s, b.in.data(), b.out.data(), b.bits_for(v))

TEST(Errors, EveryCheckedRunRefusesWhatWhyUnsupportedSays) {
  const std::vector<std::pair<const char*, int>> refused = {
      {"crelu16", NNUELAB_REFUSALS_OF(crelu16, count_grid<crelu16::Shape>(), NNUELAB_RUN_ONE)},
      {"quantmoid4", NNUELAB_REFUSALS_OF(quantmoid4, count_grid<quantmoid4::Shape>(), NNUELAB_RUN_ONE)},
      {"pool_avg2", NNUELAB_REFUSALS_OF(pool_avg2, count_grid<pool_avg2::Shape>(), NNUELAB_RUN_ONE)},
      {"pool_max2", NNUELAB_REFUSALS_OF(pool_max2, count_grid<pool_max2::Shape>(), NNUELAB_RUN_ONE)},
      {"pool_product2", NNUELAB_REFUSALS_OF(pool_product2, count_grid<pool_product2::Shape>(), NNUELAB_RUN_ONE)},
      {"crelu32", NNUELAB_REFUSALS_OF(crelu32, (grid<crelu32::Shape, int>(kGridCounts, kGridShifts)), NNUELAB_RUN_ONE)},
      {"sqr_crelu32",
       NNUELAB_REFUSALS_OF(sqr_crelu32, (grid<sqr_crelu32::Shape, int>(kGridCounts, kGridShifts)), NNUELAB_RUN_ONE)},
      {"crelu32_pair",
       NNUELAB_REFUSALS_OF(crelu32_pair, (grid<crelu32_pair::Shape, int>(kGridCounts, kGridShifts)), NNUELAB_RUN_ONE)},
      {"ft_output",
       NNUELAB_REFUSALS_OF(ft_output, (grid<ft_output::Shape, ft_output::Form>(kGridCounts, {0, 1, 2})),
                           NNUELAB_RUN_ONE)},
      // The inlined form's entry (one call of count 1) refuses through the same check.
      {"crelu32 run_many",
       NNUELAB_REFUSALS_OF(crelu32, (grid<crelu32::Shape, int>(kGridCounts, kGridShifts)),
                           run_many(v, s, b.in.data(), b.out.data(), b.bits_for(v), 1))},
  };
  // Every op's grid holds at least its op-level refusals (n = 0, a shift past the bound,
  // an unknown form), so each count is above zero or the grid is wrong.
  for (const auto& [op, n] : refused) EXPECT_GT(n, 0) << op;
}

// The same for the entries with their own argument lists: find_nnz, dot_u8i8 and the
// feature transformer's (whose arguments, all null here, are checked after the shape, so
// a shape accepted by mistake fails on a null-pointer message, not in a kernel).
TEST(Errors, OtherCheckedRunsRefuseWhatWhyUnsupportedSays) {
  std::vector<std::uint8_t> bytes(kGridBuffer);
  std::vector<std::uint16_t> indices(kGridBuffer);
  std::vector<std::int32_t> acc(kGridBuffer / 4);
  const auto* w8 = reinterpret_cast<const std::int8_t*>(bytes.data());
  const std::vector<int> l1s = {0, 8, 16, 24, 32, 100, 128, 1024, 5000};
  std::vector<ft_refresh::Shape> refreshes;
  std::vector<ft_update::Shape> updates;
  for (int l1 : l1s)
    for (int perspectives : {0, 1, 2, 3}) {
      for (int active : {-1, 0, 1, 65}) refreshes.push_back({l1, 4, active, perspectives});
      for (int changed : {-1, 0, 1, 3, 33}) updates.push_back({l1, 4, changed, 1, perspectives, false});
    }
  const std::vector<std::pair<const char*, int>> refused = {
      {"find_nnz", expect_refused_as_stated(
                       find_nnz::variants(), grid<find_nnz::Shape, find_nnz::Form>(kGridCounts, {0, 1}),
                       [&](const find_nnz::Variant& v, const find_nnz::Shape& s) {
                         find_nnz::run(v, s, bytes.data(), indices.data());
                       },
                       find_nnz::why_unsupported, find_nnz::shape_name)},
      {"dot_u8i8", expect_refused_as_stated(
                       dot_u8i8::variants(), count_grid<dot_u8i8::Shape>(),
                       [&](const dot_u8i8::Variant& v, const dot_u8i8::Shape& s) {
                         dot_u8i8::run(v, s, acc.data(), bytes.data(), w8, bytes.data(), w8);
                       },
                       dot_u8i8::why_unsupported, dot_u8i8::shape_name)},
      {"ft_refresh", expect_refused_as_stated(
                         ft_refresh::variants(), refreshes,
                         [](const ft_refresh::Variant& v, const ft_refresh::Shape& s) { ft_refresh::run(v, s, {}); },
                         ft_refresh::why_unsupported, ft_refresh::shape_name)},
      {"ft_update", expect_refused_as_stated(
                        ft_update::variants(), updates,
                        [](const ft_update::Variant& v, const ft_update::Shape& s) { ft_update::run(v, s, {}); },
                        ft_update::why_unsupported, ft_update::shape_name)},
  };
  for (const auto& [op, n] : refused) EXPECT_GT(n, 0) << op;
}
#undef NNUELAB_REFUSALS_OF
#undef NNUELAB_RUN_ONE

// The op-level limits at both edges of each bound, on each op's scalar variant (it supports
// every shape its op accepts): the edge itself accepted, one step past it refused with the
// op's reason. A bound moved by one would otherwise only drop an edge shape from the
// suites' case lists, silently (a boundary mutant, n >= 1 as n > 1, passed every test).
template <class V, class Why, class MakeShape>
void expect_count_edges(const V& v, Why why, MakeShape shape, int lo, int hi, const char* note = "") {
  const std::string range = "n must be " + std::to_string(lo) + ".." + std::to_string(hi) + note + ", got ";
  EXPECT_EQ(why(v, shape(lo)), "") << v.info.name << " at n = " << lo;
  EXPECT_EQ(why(v, shape(hi)), "") << v.info.name << " at n = " << hi;
  EXPECT_EQ(why(v, shape(lo - 1)), range + std::to_string(lo - 1)) << v.info.name;
  EXPECT_EQ(why(v, shape(hi + 1)), range + std::to_string(hi + 1)) << v.info.name;
}
template <class V, class Why>
void expect_shift_edges(const V& v, Why why, int max_shift) {
  using Shape = typename V::Shape;
  const std::string range = "shift must be 0.." + std::to_string(max_shift) + ", got ";
  EXPECT_EQ(why(v, Shape{32, 0}), "") << v.info.name << " at shift 0";
  EXPECT_EQ(why(v, Shape{32, max_shift}), "") << v.info.name << " at shift " << max_shift;
  EXPECT_EQ(why(v, Shape{32, -1}), range + "-1") << v.info.name;
  EXPECT_EQ(why(v, Shape{32, max_shift + 1}), range + std::to_string(max_shift + 1)) << v.info.name;
}

TEST(Errors, ElementwiseLimitsAtBothEdges) {
  constexpr int kMax = 1 << 20;
  expect_count_edges(first(crelu16::variants()), crelu16::why_unsupported,
                     [](int n) { return crelu16::Shape{n}; }, 1, kMax);
  expect_count_edges(first(quantmoid4::variants()), quantmoid4::why_unsupported,
                     [](int n) { return quantmoid4::Shape{n}; }, 1, kMax);
  expect_count_edges(first(pool_avg2::variants()), pool_avg2::why_unsupported,
                     [](int n) { return pool_avg2::Shape{n}; }, 2, kMax);
  expect_count_edges(first(pool_max2::variants()), pool_max2::why_unsupported,
                     [](int n) { return pool_max2::Shape{n}; }, 2, kMax);
  expect_count_edges(first(pool_product2::variants()), pool_product2::why_unsupported,
                     [](int n) { return pool_product2::Shape{n}; }, 2, kMax);
  expect_count_edges(first(ft_output::variants()), ft_output::why_unsupported,
                     [](int n) { return ft_output::Shape{n}; }, 2, kMax);
  // The int32 activations: n at shift 6, then the shift at n = 32.
  expect_count_edges(first(crelu32::variants()), crelu32::why_unsupported, [](int n) { return crelu32::Shape{n, 6}; }, 1, kMax);
  expect_count_edges(first(sqr_crelu32::variants()), sqr_crelu32::why_unsupported,
                     [](int n) { return sqr_crelu32::Shape{n, 6}; }, 1, kMax);
  expect_count_edges(first(crelu32_pair::variants()), crelu32_pair::why_unsupported,
                     [](int n) { return crelu32_pair::Shape{n, 6}; }, 1, 1 << 19, " (2n outputs)");
  expect_shift_edges(first(crelu32::variants()), crelu32::why_unsupported, 31);
  expect_shift_edges(first(sqr_crelu32::variants()), sqr_crelu32::why_unsupported, 28);
  expect_shift_edges(first(crelu32_pair::variants()), crelu32_pair::why_unsupported, 28);
}

// A variant's own shift bounds, read from its refusals. Every shift of the op's range that a
// variant refuses must say which bound it breaks ("needs shift <= B", ">= A" or "A..B"), and
// the shifts it takes must be exactly the ones those stated bounds leave, so each stated edge
// is taken and the next shift refused. A variant bound moved by one (shift > 8 as shift >= 8)
// would otherwise only drop that shift from the suites' case lists, silently: no test failed
// when xsimd's sqr_crelu32 and crelu32_pair refused shift 0 or shift 8 (boundary mutants).
template <class Variants, class Why>
void expect_stated_shift_bounds(const Variants& variants, Why why, int op_max) {
  using Shape = typename std::decay_t<decltype(variants[0])>::Shape;
  static const std::regex kBound(R"(needs shift (?:(<=|>=) (\d+)|(\d+)\.\.(\d+)))");
  int checked = 0;
  for (const auto& v : variants) {
    if (!v.info.available()) continue;
    int n = 0;  // a count the variant takes at the nets' shift
    for (int c : {64, 128, 256, 512, 1024})
      if (why(v, Shape{c, 6}).empty()) {
        n = c;
        break;
      }
    if (n == 0) {
      ADD_FAILURE() << v.info.name << " takes none of 64..1024 elements at shift 6";
      continue;
    }
    ++checked;
    int lo = 0, hi = op_max;
    std::vector<bool> taken(op_max + 1);
    for (int s = 0; s <= op_max; ++s) {
      const std::string reason = why(v, Shape{n, s});
      taken[s] = reason.empty();
      if (taken[s]) continue;
      std::smatch m;
      if (!std::regex_search(reason, m, kBound)) {
        ADD_FAILURE() << v.info.name << " refuses shift " << s << " without stating a shift bound: " << reason;
      } else if (m[1] == "<=") {
        hi = std::min(hi, std::stoi(m[2]));
      } else if (m[1] == ">=") {
        lo = std::max(lo, std::stoi(m[2]));
      } else {  // A..B
        lo = std::max(lo, std::stoi(m[3]));
        hi = std::min(hi, std::stoi(m[4]));
      }
    }
    for (int s = 0; s <= op_max; ++s)
      EXPECT_EQ(taken[s], lo <= s && s <= hi)
          << v.info.name << " at shift " << s << " (n = " << n << "; its refusals state shift " << lo << ".." << hi << ")";
  }
  EXPECT_GT(checked, 0);
}

TEST(Errors, Int32ActivationsTakeExactlyTheShiftsTheirRefusalsState) {
  expect_stated_shift_bounds(crelu32::variants(), crelu32::why_unsupported, 31);
  expect_stated_shift_bounds(sqr_crelu32::variants(), sqr_crelu32::why_unsupported, 28);
  expect_stated_shift_bounds(crelu32_pair::variants(), crelu32_pair::why_unsupported, 28);
}

TEST(Errors, ElementwiseNullBuffers) {
  const auto& v = first(crelu16::variants());
  std::int16_t in[4] = {};
  std::uint8_t out[4];
  expect_error([&] { crelu16::run(v, {4}, nullptr, out); }, v.info.name + ": run needs input and output buffers");
  expect_error([&] { crelu16::run(v, {4}, in, nullptr); }, v.info.name + ": run needs input and output buffers");
}

TEST(Errors, ElementwiseMisalignedInput) {
  const auto& v = first(crelu16::variants());
  alignas(8) std::uint8_t raw[16] = {};
  std::uint8_t out[4];
  const auto* odd = reinterpret_cast<const std::int16_t*>(raw + 1);  // never dereferenced: refused first
  expect_error([&] { crelu16::run(v, {4}, odd, out); }, not_aligned(v.info.name, "input", 2, odd));
}

TEST(Errors, ElementwiseBitsMisuse) {
  const auto& v = first(crelu16::variants());
  std::int16_t in[64] = {};
  std::uint8_t out[64];
  std::uint64_t bits[2];
  expect_error([&] { crelu16::run(v, {4}, in, out, bits); },
               v.info.name + ": pass no bits buffer: the variant writes no nnz bitset (only *_bits variants do)");
  const crelu16::Variant* b = first_bits(crelu16::variants());
  if (!b) GTEST_SKIP() << "no crelu16 *_bits variant runs on this CPU";
  expect_error([&] { crelu16::run(*b, {64}, in, out); }, b->info.name + ": run needs a bits buffer: the variant writes the nnz bitset of its output");
}

// ---- affine ---------------------------------------------------------------------------

struct AffineFixture {
  std::vector<std::int8_t> w = std::vector<std::int8_t>(64 * 8, 1);
  alignas(8) std::int32_t b[16] = {};
  alignas(8) std::int32_t out[16] = {};
  alignas(8) std::uint8_t in[64] = {};
  const affine::Variant& v = first(affine::variants());
};

TEST(Errors, AffineRefusedShape) {
  AffineFixture f;
  const affine::Shape s{0, 8};
  expect_error([&] { affine::prepare(f.v, {s, f.w.data(), f.b}); },
               f.v.info.name + " does not support 0x8: shape 0x8 is outside the op's limits (1..65536 each way)");
}

TEST(Errors, AffineNullWeights) {
  AffineFixture f;
  expect_error([&] { affine::prepare(f.v, {{64, 8}, nullptr, f.b}); }, f.v.info.name + ": prepare needs weights and bias (got null)");
}

TEST(Errors, AffineMisalignedBiasAndOutput) {
  AffineFixture f;
  const auto* bias = reinterpret_cast<const std::int32_t*>(reinterpret_cast<const std::uint8_t*>(f.b) + 2);
  expect_error([&] { affine::prepare(f.v, {{64, 8}, f.w.data(), bias}); },
               not_aligned(f.v.info.name, "bias", 4, bias));
  const affine::Packed p = affine::prepare(f.v, {{64, 8}, f.w.data(), f.b});
  auto* out = reinterpret_cast<std::int32_t*>(reinterpret_cast<std::uint8_t*>(f.out) + 1);
  expect_error([&] { affine::run(f.v, p, f.in, out); },
               not_aligned(f.v.info.name, "output", 4, out));
}

TEST(Errors, AffineRunNeedsBuffersAndItsOwnPreparedWeights) {
  AffineFixture f;
  const affine::Packed p = affine::prepare(f.v, {{64, 8}, f.w.data(), f.b});
  expect_error([&] { affine::run(f.v, p, nullptr, f.out); }, f.v.info.name + ": run needs input and output buffers");
  expect_error([&] { affine::run(f.v, affine::Packed{}, f.in, f.out); },
               f.v.info.name + ": run needs weights prepared by this same variant");
  expect_error([&] { affine::run_with_bits(f.v, p, f.in, nullptr, f.out); },
               f.v.info.name + ": cannot take an nnz bitset (it scans its input itself)");
  for (const affine::Variant& b : affine::variants()) {
    if (!b.run_bits || !b.info.available() || !affine::why_unsupported(b, {64, 8}).empty()) continue;
    const affine::Packed pb = affine::prepare(b, {{64, 8}, f.w.data(), f.b});
    expect_error([&] { affine::run_with_bits(b, pb, f.in, nullptr, f.out); },
                 b.info.name + ": run_with_bits needs input, bits and output buffers");
    alignas(8) std::uint64_t bits[2] = {};
    const auto* odd = reinterpret_cast<const std::uint64_t*>(reinterpret_cast<const std::uint8_t*>(bits) + 4);
    expect_error([&] { affine::run_with_bits(b, pb, f.in, odd, f.out); }, not_aligned(b.info.name, "bits", 8, odd));
    return;
  }
  GTEST_SKIP() << "no affine variant with run_bits runs 64x8 on this CPU";
}

TEST(Errors, AffineRunWithListChecksTheList) {
  AffineFixture f;
  const affine::Packed p = affine::prepare(f.v, {{64, 8}, f.w.data(), f.b});
  alignas(8) std::uint16_t list[17] = {0, 1, 2};
  expect_error([&] { affine::run_with_list(f.v, p, f.in, list, 3, f.out); },
               f.v.info.name + ": cannot take a chunk list (it walks no list)");
  for (const affine::Variant& b : affine::variants()) {
    if (!b.run_list || !b.info.available() || !affine::why_unsupported(b, {64, 8}).empty()) continue;
    for (int o = 0; o < 8; ++o) f.b[o] = 100 * o - 7;
    std::fill_n(f.in, 64, std::uint8_t(1));  // every chunk non-zero: a listed one would add 4
    const affine::Packed pb = affine::prepare(b, {{64, 8}, f.w.data(), f.b});
    const std::string& n = b.info.name;
    expect_error([&] { affine::run_with_list(b, pb, f.in, nullptr, 3, f.out); },
                 n + ": run_with_list needs input, list and output buffers");
    expect_error([&] { affine::run_with_list(b, pb, f.in, list, 17, f.out); }, n + ": a chunk list of 17 entries for 16 chunks");
    expect_error([&] { affine::run_with_list(b, pb, f.in, list, -1, f.out); }, n + ": a chunk list of -1 entries for 16 chunks");
    list[2] = 16;
    expect_error([&] { affine::run_with_list(b, pb, f.in, list, 3, f.out); },
                 n + ": chunk list entry 2 (16) is past the last chunk, 15");
    list[2] = 1;
    expect_error([&] { affine::run_with_list(b, pb, f.in, list, 3, f.out); },
                 n + ": chunk list entry 2 (1) is not above the one before it");
    expect_error([&] { affine::run_with_list(b, affine::Packed{}, f.in, list, 2, f.out); },
                 n + ": run needs weights prepared by this same variant");
    const auto* odd = reinterpret_cast<const std::uint16_t*>(reinterpret_cast<const std::uint8_t*>(list) + 1);
    expect_error([&] { affine::run_with_list(b, pb, f.in, odd, 2, f.out); }, not_aligned(n, "list", 2, odd));
    list[0] = 3;  // two faults: the first one is reported
    list[1] = 20;
    list[2] = 2;
    expect_error([&] { affine::run_with_list(b, pb, f.in, list, 3, f.out); },
                 n + ": chunk list entry 1 (20) is past the last chunk, 15");
    list[1] = 3;
    expect_error([&] { affine::run_with_list(b, pb, f.in, list, 3, f.out); },
                 n + ": chunk list entry 1 (3) is not above the one before it");
    affine::run_with_list(b, pb, f.in, nullptr, 0, f.out);  // an empty list: the bias alone
    for (int o = 0; o < 8; ++o) EXPECT_EQ(f.out[o], f.b[o]) << n << " output " << o;
    return;
  }
  GTEST_SKIP() << "no affine variant with run_list runs 64x8 on this CPU";
}

// run_with_list's list checks are read twice (kernels/common/arg_checks.h): a test without
// a branch per entry on every call and, when it says no, a search for the first fault.
// Random lists, most of them nearly in order: the call is refused exactly when an entry
// is past the last chunk or not above the one before it, and names the first such entry;
// an accepted list adds exactly the listed chunks (every weight 1, every input 1: 4 each).
TEST(Errors, AffineRunWithListRefusesExactlyTheBadLists) {
  AffineFixture f;
  std::fill_n(f.in, 64, std::uint8_t(1));
  std::mt19937 rng(20261207);
  int refused = 0, accepted = 0;
  for (const affine::Variant& b : affine::variants()) {
    if (!b.run_list || !b.info.available() || !affine::why_unsupported(b, {64, 8}).empty()) continue;
    const affine::Packed pb = affine::prepare(b, {{64, 8}, f.w.data(), f.b});
    for (int trial = 0; trial < 400; ++trial) {
      alignas(8) std::uint16_t list[16];
      const int count = int(rng() % 17);
      int at = int(rng() % 3);
      for (int k = 0; k < count; ++k) {
        list[k] = std::uint16_t(at);
        at += 1 + int(rng() % 2);
      }
      if (count > 0 && rng() % 2) list[rng() % count] = std::uint16_t(rng() % 18);  // maybe a fault
      std::string want;
      for (int k = 0; k < count && want.empty(); ++k)
        if (list[k] > 15)
          want = b.info.name + ": chunk list entry " + std::to_string(k) + " (" + std::to_string(list[k]) +
                 ") is past the last chunk, 15";
        else if (k > 0 && list[k] <= list[k - 1])
          want = b.info.name + ": chunk list entry " + std::to_string(k) + " (" + std::to_string(list[k]) +
                 ") is not above the one before it";
      if (!want.empty()) {
        ++refused;
        expect_error([&] { affine::run_with_list(b, pb, f.in, list, count, f.out); }, want);
        continue;
      }
      ++accepted;
      affine::run_with_list(b, pb, f.in, list, count, f.out);
      for (int o = 0; o < 8; ++o) ASSERT_EQ(f.out[o], 4 * count) << b.info.name << " output " << o;
    }
  }
  if (refused + accepted == 0) GTEST_SKIP() << "no affine variant with run_list runs 64x8 on this CPU";
  EXPECT_GT(refused, 0);
  EXPECT_GT(accepted, 0);
}

// ---- find_nnz, dot_u8i8 ----------------------------------------------------------------

TEST(Errors, FindNnz) {
  const auto& v = first(find_nnz::variants());
  std::uint8_t in[64] = {};
  alignas(8) std::uint16_t idx[64 + find_nnz::kOutputSlack];
  expect_error([&] { find_nnz::run(v, {6, find_nnz::Form::kChunks}, in, idx); },
               v.info.name + " does not support 6/chunks: the chunks form needs n % 4 == 0");
  expect_error([&] { find_nnz::run(v, {64}, nullptr, idx); }, v.info.name + ": run needs input and output buffers");
  auto* odd = reinterpret_cast<std::uint16_t*>(reinterpret_cast<std::uint8_t*>(idx) + 1);
  expect_error([&] { find_nnz::run(v, {64}, in, odd); }, not_aligned(v.info.name, "indices", 2, odd));
}

TEST(Errors, DotU8i8) {
  const auto& v = first(dot_u8i8::variants());
  std::uint8_t u[16] = {};
  std::int8_t w[16] = {};
  alignas(8) std::int32_t acc[8] = {};
  expect_error([&] { dot_u8i8::run(v, {0}, acc, u, w, u, w); }, v.info.name + " does not support 0: groups must be 1..1048576, got 0");
  expect_error([&] { dot_u8i8::run(v, {4}, acc, u, nullptr, u, w); }, v.info.name + ": run needs all five buffers");
  auto* odd = reinterpret_cast<std::int32_t*>(reinterpret_cast<std::uint8_t*>(acc) + 2);
  expect_error([&] { dot_u8i8::run(v, {4}, odd, u, w, u, w); }, not_aligned(v.info.name, "acc", 4, odd));
}

// ---- feature transformer ---------------------------------------------------------------

TEST(Errors, FtRefresh) {
  const auto& v = first(ft_refresh::variants());
  std::vector<std::int16_t> w(4 * 32, 1), bias(32, 0), acc(64, 0);
  const std::uint32_t ids[2] = {1, 4};
  ft_refresh::Args a;
  a.weights = w.data(), a.bias = bias.data(), a.active[0] = ids, a.acc[0] = acc.data();
  expect_error([&] { ft_refresh::run(v, {32, 4, 2, 1}, a); }, v.info.name + ": active[0][1] = 4 >= features 4");
  a.active[0] = ids, a.bias = nullptr;
  expect_error([&] { ft_refresh::run(v, {32, 4, 1, 1}, a); }, v.info.name + ": bias is null");
  a.bias = bias.data();
  a.acc[0] = reinterpret_cast<std::int16_t*>(reinterpret_cast<std::uint8_t*>(acc.data()) + 1);
  expect_error([&] { ft_refresh::run(v, {32, 4, 1, 1}, a); }, not_aligned(v.info.name, "acc[0]", 2, a.acc[0]));
  a.acc[0] = acc.data(), a.acc[1] = acc.data() + 16, a.active[1] = ids;
  expect_error([&] { ft_refresh::run(v, {32, 4, 1, 2}, a); }, v.info.name + ": acc[0] and acc[1] overlap");
  a.acc[1] = acc.data() + 32;
  // The second perspective's names (built only when a check fails).
  a.active[1] = nullptr;
  expect_error([&] { ft_refresh::run(v, {32, 4, 1, 2}, a); }, v.info.name + ": active[1] is null");
  const std::uint32_t past[1] = {9};
  a.active[1] = past;
  expect_error([&] { ft_refresh::run(v, {32, 4, 1, 2}, a); }, v.info.name + ": active[1][0] = 9 >= features 4");
  a.active[1] = ids;
  expect_error([&] { ft_refresh::run_active({32, 4, 65, 1}, a); }, "ft_refresh: no variant supports 32x65: active must be 0..64, got 65");
}

TEST(Errors, FtUpdate) {
  const auto& v = first(ft_update::variants());
  std::vector<std::int16_t> w(4 * 32, 1), prev(32, 0), out(32, 0);
  const std::uint32_t ids[1] = {2};
  ft_update::Args a;
  a.weights = w.data(), a.prev[0] = prev.data(), a.out[0] = out.data(), a.removed[0] = ids, a.added[0] = ids;
  expect_error([&] { ft_update::run(v, {32, 4, 1, 1, 1, true}, a); }, v.info.name + ": an in-place update needs out[0] == prev[0]");
  a.out[0] = reinterpret_cast<std::int16_t*>(reinterpret_cast<std::uint8_t*>(out.data()) + 1);
  expect_error([&] { ft_update::run(v, {32, 4, 1, 1, 1, false}, a); }, not_aligned(v.info.name, "out[0]", 2, a.out[0]));
  a.out[0] = prev.data() + 1;
  expect_error([&] { ft_update::run(v, {32, 4, 1, 1, 1, false}, a); },
               v.info.name + ": out[0] overlaps prev[0] (use in_place with out == prev)");
  a.out[0] = out.data();
  // The second perspective's names (built only when a check fails).
  std::vector<std::int16_t> prev1(32, 0), out1(32, 0);
  const std::uint32_t past[1] = {7};
  a.out[1] = out1.data(), a.removed[1] = ids, a.added[1] = ids;
  expect_error([&] { ft_update::run(v, {32, 4, 1, 1, 2, false}, a); }, v.info.name + ": prev[1] is null");
  a.prev[1] = prev1.data(), a.removed[1] = past;
  expect_error([&] { ft_update::run(v, {32, 4, 1, 1, 2, false}, a); }, v.info.name + ": removed[1][0] = 7 >= features 4");
  a.removed[1] = ids;
  expect_error([&] { ft_update::run_active({5000, 4, 1, 1, 1, false}, a); }, "ft_update: no variant supports 5000+1-1: l1 must be 1..4096, got 5000");
}

// The other dispatchers refuse a shape their op refuses as ft's do: the op, the shape and
// the reason (until 2026-12-06 a bare "no runnable variant registered accepts this shape"),
// on the first call and on the next (a refused shape is not remembered).
TEST(Errors, RunActiveNamesTheOpTheShapeAndTheReason) {
  std::int16_t in[8] = {};
  std::uint8_t out[8];
  std::uint16_t list[8 + find_nnz::kOutputSlack];
  const std::uint8_t* bytes = reinterpret_cast<const std::uint8_t*>(in);
  for (int call = 0; call < 2; ++call) {
    SCOPED_TRACE("call " + std::to_string(call));
    expect_error([&] { crelu16::run_active({-1}, in, out); }, "crelu16: no variant supports -1: n must be 1..1048576, got -1");
    expect_error([&] { quantmoid4::run_active({0}, in, out); }, "quantmoid4: no variant supports 0: n must be 1..1048576, got 0");
    expect_error([&] { find_nnz::run_active({6, find_nnz::Form::kChunks}, bytes, list); },
                 "find_nnz: no variant supports 6/chunks: the chunks form needs n % 4 == 0");
  }
}

// ---- nets and positions ------------------------------------------------------------------

TEST(Errors, HandBuiltPositionIsRefused) {
  workloads::Position p;  // no kings
  std::uint32_t feats[workloads::kMaxActiveFeatures];
  expect_error([&] { workloads::halfka_v2_hm_features(p, workloads::kWhite, feats); },
               "invalid Position: white needs exactly one king, at king[0] = -1");
  p = workloads::parse_fen("8/8/8/8/8/8/8/K6k w");
  p.pieces = 40;
  expect_error([&] { workloads::halfka_v2_hm_features(p, workloads::kWhite, feats); },
               "invalid Position: pieces = 40 but the board holds 2");
  p.pieces = 2, p.board[5].type = 9;
  expect_error([&] { workloads::check_position(p); }, "invalid Position: square 5 holds piece type 9 (0..6)");
}

TEST(Errors, HandBuiltNetIsRefused) {
  workloads::Network net;
  net.name = "handmade";
  const workloads::Position p = workloads::parse_fen("8/8/8/8/8/8/8/K6k w");
  expect_error<workloads::NetError>([&] { workloads::evaluate_reference(net, p); },
                                    "handmade: not a loaded net: L1 = 0 (a multiple of 16 in 16..8192)");
  net.l1 = 16;
  expect_error<workloads::NetError>([&] { workloads::Engine e(net, {}); },
                                    "handmade: not a loaded net: feature transformer arrays of the wrong size for L1 = 16");
}

// A file image: header and transformer hash for this L1, then `body`.
std::vector<std::uint8_t> header_for(int l1, const std::vector<std::uint8_t>& body) {
  std::vector<std::uint8_t> f;
  auto u32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) f.push_back(std::uint8_t(v >> (8 * i)));
  };
  const std::uint32_t ft = workloads::kHalfKAv2HmHash ^ std::uint32_t(2 * l1);
  u32(workloads::kNnueVersion), u32(ft), u32(0), u32(ft);
  f.insert(f.end(), body.begin(), body.end());
  return f;
}

TEST(Errors, LoaderLeb128CountTooSmallForItsValues) {
  std::vector<std::uint8_t> body;
  for (char c : std::string("COMPRESSED_LEB128")) body.push_back(std::uint8_t(c));
  body.insert(body.end(), {4, 0, 0, 0, 1, 2, 3, 4});  // 4 bytes for 8192 biases
  expect_error<workloads::NetError>([&] { workloads::parse_network(header_for(8192, body), "tiny.nnue"); },
                                    "tiny.nnue: feature transformer at byte offset 37: LEB128 byte count 4 is too small for the "
                                    "8192 values of the feature transformer biases (at least one byte each)");
}

// The finding the loader's fuzzer would make first: a 16 KB file declaring L1 = 8192 used
// to allocate the 369 MB transformer before noticing the file was short. Now the declared
// size is checked first: in a child process limited to 64 MB more address space than it
// starts with, the parse fails with the truncation message, quickly.
TEST(Errors, LoaderChecksDeclaredSizesBeforeAllocating) {
  const std::vector<std::uint8_t> image = header_for(8192, std::vector<std::uint8_t>(8192 * 2, 0));  // biases only
  const std::string want =
      "tiny.nnue: feature transformer at byte offset 16400: truncated file: expected the feature transformer weights "
      "(369098752 bytes), only 0 bytes left";
  expect_error<workloads::NetError>([&] { workloads::parse_network(image, "tiny.nnue"); }, want);
#ifdef NNUELAB_UNDER_ASAN
  GTEST_SKIP() << "the address-space limit below cannot be applied under ASan (its shadow memory); the message is checked above";
#endif
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string status;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      unsigned long pages = 0;
      if (std::fscanf(f, "%lu", &pages) != 1) _exit(3);
      std::fclose(f);
      const rlim_t limit = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(64) << 20);
      const rlimit r{limit, limit};
      if (setrlimit(RLIMIT_AS, &r) != 0) _exit(3);
    } else {
      _exit(3);
    }
    try {
      workloads::parse_network(image, "tiny.nnue");
      _exit(1);
    } catch (const workloads::NetError& e) {
      _exit(std::string(e.what()) == want ? 0 : 2);
    } catch (...) {
      _exit(4);  // std::bad_alloc: it allocated before checking
    }
  }
  int wstatus = 0;
  ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
  ASSERT_TRUE(WIFEXITED(wstatus)) << "the child died (signal " << WTERMSIG(wstatus) << ")";
  EXPECT_EQ(WEXITSTATUS(wstatus), 0) << "1: parsed, 2: another message, 3: setup, 4: allocation failed under the limit";
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

// ---- every variant accepts element-aligned but vector-misaligned buffers ---------------

TEST(Errors, NoVariantNeedsVectorAlignment) {
  // The audit's result: no variant requires more than element alignment of a caller's
  // buffer. Every available crelu16 variant runs on buffers 2 bytes (input) and 1 byte
  // (output) past a 64-byte boundary and matches the aligned run; the fuzzers vary the
  // offset 0..15 elements for every op.
  alignas(64) std::int16_t in[2 * 256 + 1];
  alignas(64) std::uint8_t out_a[256 + 1], out_m[256 + 1];
  workloads::boundary::fill_all_ones(in, std::size(in));
  for (int i = 0; i < 256; i += 3) in[i] = workloads::boundary::kActivation16Edges[i % std::size(workloads::boundary::kActivation16Edges)];
  std::copy_n(in, 256, in + 257);  // the same values 514 bytes later: 2 bytes past a 64-byte boundary
  int ran = 0;
  for (const crelu16::Variant& v : crelu16::variants()) {
    if (v.writes_bits || !crelu16::why_unsupported(v, {256}).empty()) continue;
    crelu16::run(v, {256}, in, out_a);
    crelu16::run(v, {256}, in + 257, out_m + 1);
    EXPECT_EQ(0, std::memcmp(out_a, out_m + 1, 256)) << v.info.name;
    ++ran;
  }
  EXPECT_GE(ran, 2);
}

// ---- the references' and the shared helpers' own refusals ---------------------------------
// (Found by ./lab coverage: no test reached these lines.)

TEST(Errors, ReferenceAffineRefusesAnOutputOutsideInt32) {
  // 127 * 255 on top of a bias 1000 below the int32 maximum: the reference forms the sum in
  // int64 and refuses it rather than wrap (the affine contract keeps bias + sum in int32).
  const std::int8_t w[1] = {127};
  const std::int32_t bias[1] = {INT32_MAX - 1000};
  const std::uint8_t x[1] = {255};
  std::int32_t y[1] = {};
  expect_error([&] { ref::affine(w, bias, 1, 1, x, y); }, "ref::affine: output leaves int32 (input outside the domain?)");
  const std::int32_t low[1] = {INT32_MIN + 1000};
  const std::int8_t neg[1] = {-128};
  expect_error([&] { ref::affine(neg, low, 1, 1, x, y); }, "ref::affine: output leaves int32 (input outside the domain?)");
  // One step inside the bound is accepted, and exact.
  const std::int32_t edge[1] = {INT32_MAX - 127 * 255};
  ref::affine(w, edge, 1, 1, x, y);
  EXPECT_EQ(y[0], INT32_MAX);
}

TEST(Errors, ReferenceChunkBitsetRefusesAnOversizedRow) {
  std::vector<std::uint8_t> in(4 * 65536 + 4);
  std::vector<std::uint64_t> bits(65536 / 64 + 1);
  expect_error([&] { ref::nnz_chunk_bitset(in.data(), 4 * 65536 + 1, bits.data()); },
               "nnz_chunk_bitset: n_bytes = 262145 is outside 0..262144");
  expect_error([&] { ref::nnz_chunk_bitset(in.data(), -1, bits.data()); },
               "nnz_chunk_bitset: n_bytes = -1 is outside 0..262144");
  in[4 * 65535] = 1;  // the last chunk of the largest row is set: the bound is inclusive
  ref::nnz_chunk_bitset(in.data(), 4 * 65536, bits.data());
  EXPECT_EQ(bits[65535 / 64], std::uint64_t(1) << 63);
}

TEST(Errors, LaneOrdersRefuseRowsThatAreNotWholeBlocks) {
  expect_error([] { lane_interleave_order(2, 1, 8, 24); },
               "lane order: 24 bytes is not a whole number of 2-lane blocks of 16 bytes");
  // The domain's edges are taken: one register (the identity), 1-byte groups, no bytes at all.
  std::vector<int> identity(32);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(lane_interleave_order(2, 1, 4, 32), identity);
  EXPECT_EQ(lane_interleave_order(1, 4, 4, 12), std::vector<int>(identity.begin(), identity.begin() + 12));
  EXPECT_EQ(lane_interleave_order(2, 2, 1, 8), (std::vector<int>{0, 2, 1, 3, 4, 6, 5, 7}));
  EXPECT_TRUE(lane_interleave_order(2, 2, 4, 0).empty());
  EXPECT_TRUE(lane_interleave_order(1, 2, 4, 0).empty());
  // And one past them refused: no lanes, registers or group bytes, a negative length.
  for (const auto& [lanes, regs, group, bytes] : {std::array{0, 2, 4, 16}, std::array{2, 0, 4, 16},
                                                  std::array{2, 2, 0, 16}, std::array{2, 2, 4, -16},
                                                  std::array{1, 2, 4, -16}})
    EXPECT_THROW(lane_interleave_order(lanes, regs, group, bytes), std::invalid_argument)
        << lanes << " lanes, " << regs << " registers, " << group << "-byte groups, " << bytes << " bytes";
  const std::int8_t w[6] = {};
  expect_error([&] { permute_next_layer_columns(w, 3, 2, {0, 1}); },
               "permute_next_layer_columns: the order has 2 positions, the layer 3 inputs");
}

TEST(Errors, PackedBlocksSlotsAndMoves) {
  PackedBlocks p;
  expect_error([&] { packed_alloc(p, PackedBlocks::kSlots, 64); }, "packed_alloc: slot index out of range");
  expect_error([&] { packed_alloc(p, -1, 64); }, "packed_alloc: slot index out of range");
  void* data = packed_alloc(p, 1, 100);
  p.meta[3] = 42;
  int owner = 0;
  p.prepared_by = &owner;
  // A move hands over every slot, the facts and the owner, and leaves the source empty (its
  // destructor then frees nothing twice: the sanitizer build would report it).
  PackedBlocks q(std::move(p));
  EXPECT_EQ(q.slot[1].data, data);
  EXPECT_EQ(q.meta[3], 42);
  EXPECT_EQ(q.prepared_by, &owner);
  EXPECT_EQ(p.slot[1].data, nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is the contract
  EXPECT_EQ(p.prepared_by, nullptr);
}

}  // namespace
}  // namespace nnuelab::test
