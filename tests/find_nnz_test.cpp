// find_nnz: every registered variant x every supported shape, in the bytes and the chunks
// form, compared with ref::find_nnz_bytes / ref::find_nnz_chunks: the count and every index.
// Inputs sit against an inaccessible page (a read past the end, or before the start,
// faults) and the output carries a poisoned guard after count + kOutputSlack entries.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <vector>

#include "kernels/find_nnz/registry.h"
#include "reference/find_nnz.h"
#include "tests/support.h"
#include "workloads/synthetic.h"

namespace nnuelab::test {
namespace {

using find_nnz::Form;
using find_nnz::kOutputSlack;
using find_nnz::Shape;
using find_nnz::Variant;
using workloads::Density;
using workloads::DensityKind;
using workloads::Rng;

// Every test compares at least this many indices.
constexpr long kMinIndicesPerTest = 10000;

// Real input layers first (L1 of Stockfish-like nets), then small layers and tails: 4..36
// are below one AVX2 vector of chunks, 100 and 1000 end in a partial 64-element block.
const std::vector<int> kSizes = {1024, 1536, 3072, 2048, 512, 64, 32, 16, 4, 8, 12, 36, 100, 1000};
// Byte counts the chunks form cannot take (n % 4 != 0): bytes form only.
const std::vector<int> kOddSizes = {1, 7, 33, 127};

// Techniques that build masks with a signed compare against zero (see the README's
// semantics table): exact on bytes 0..127 only. Every other variant must be exact on 0..255.
const std::set<std::string> kSignedTechniques = {"lsb"};

std::vector<Density> densities() {
  std::vector<Density> out = {{DensityKind::kDense, 100}};
  for (double p : {0.0, 0.5, 1.0, 5.0, 15.0, 30.0, 50.0, 100.0}) {
    out.push_back({DensityKind::kByte, p});
    out.push_back({DensityKind::kChunk, p});
  }
  return out;
}

int max_count(const Shape& s) { return s.form == Form::kBytes ? s.n : s.n / 4; }

int reference(const Shape& s, const std::uint8_t* x, std::uint16_t* out) {
  return s.form == Form::kBytes ? ref::find_nnz_bytes(x, s.n, out) : ref::find_nnz_chunks(x, s.n, out);
}

// n bytes of input against an inaccessible page: placed so that they end right before the
// guard page after them, or start right after the guard page before them.
class GuardedInput {
 public:
  explicit GuardedInput(int n) : n_(n) {
    page_ = std::size_t(sysconf(_SC_PAGESIZE));
    data_pages_ = std::max<std::size_t>(1, (std::size_t(n) + page_ - 1) / page_);
    size_ = (data_pages_ + 2) * page_;
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("GuardedInput: mmap failed");
    base_ = static_cast<std::uint8_t*>(p);
    if (mprotect(base_, page_, PROT_NONE) || mprotect(base_ + (data_pages_ + 1) * page_, page_, PROT_NONE))
      throw std::runtime_error("GuardedInput: mprotect failed");
  }
  ~GuardedInput() { munmap(base_, size_); }
  GuardedInput(const GuardedInput&) = delete;
  GuardedInput& operator=(const GuardedInput&) = delete;

  const std::uint8_t* place(const std::uint8_t* x, bool against_end) {
    std::uint8_t* p = against_end ? base_ + (data_pages_ + 1) * page_ - n_ : base_ + page_;
    std::copy_n(x, n_, p);
    return p;
  }

 private:
  int n_;
  std::size_t page_ = 0, data_pages_ = 0, size_ = 0;
  std::uint8_t* base_ = nullptr;
};

// Runs one variant through the checked entry point and compares with `want` (the reference
// unless the caller gives another model); returns a description of the first problem.
class NnzChecker {
 public:
  static constexpr std::uint16_t kPoison = 0xDEAD;
  static constexpr int kGuard = 64;  // poisoned entries after the capacity

  NnzChecker(const Variant& v, const Shape& s)
      : v_(v), s_(s), input_(s.n), got_(std::size_t(max_count(s)) + kOutputSlack + kGuard), want_(max_count(s) + 1) {}

  std::optional<std::string> check(const std::uint8_t* x, const std::string& what) {
    const int want = reference(s_, x, want_.data());
    return check_against(x, want_.data(), want, what);
  }

  std::optional<std::string> check_against(const std::uint8_t* x, const std::uint16_t* want, int want_count,
                                           const std::string& what) {
    const std::uint8_t* in = input_.place(x, calls_++ % 2 == 0);
    std::fill(got_.begin(), got_.end(), kPoison);
    const int got = find_nnz::run(v_, s_, in, got_.data());
    compared += want_count;
    const std::string context = v_.info.name + "/" + find_nnz::shape_name(s_) + " " + what;
    if (got != want_count)
      return context + ": count " + std::to_string(got) + ", reference " + std::to_string(want_count);
    if (auto diff = compare(got_.data(), want, std::size_t(got), context)) return diff;
    for (std::size_t i = std::size_t(got) + kOutputSlack; i < got_.size(); ++i)
      if (got_[i] != kPoison)
        return context + ": wrote entry " + std::to_string(i) + " = " + std::to_string(got_[i]) + ", beyond count " +
               std::to_string(got) + " + slack " + std::to_string(kOutputSlack);
    return std::nullopt;
  }

  long compared = 0;

 private:
  const Variant& v_;
  Shape s_;
  GuardedInput input_;
  std::vector<std::uint16_t> got_, want_;
  long calls_ = 0;
};

// ---- the suite over variants x shapes ---------------------------------------------------

struct Case {
  const Variant* variant;
  Shape shape;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.variant->info.name << "/" << find_nnz::shape_name(c.shape); }

std::vector<Case> make_cases() {
  std::vector<Shape> shapes;
  for (int n : kSizes) {
    shapes.push_back({n, Form::kBytes});
    shapes.push_back({n, Form::kChunks});
  }
  for (int n : kOddSizes) shapes.push_back({n, Form::kBytes});
  std::vector<Case> out;
  for (const Variant* v : variants_under_test(find_nnz::variants())) {
    if (!v->info.available()) {
      out.push_back({v, {}});  // one skip case; none of its code may run, not even supports()
      continue;
    }
    for (const Shape& s : shapes)
      if (find_nnz::why_unsupported(*v, s).empty()) out.push_back({v, s});
  }
  check_every_variant_has_a_case("FindNnz", find_nnz::variants(), out);
  return out;
}

class FindNnz : public ::testing::TestWithParam<Case> {};

TEST_P(FindNnz, MatchesReferenceAcrossDensities) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  NnzChecker checker(*v, s);
  const std::vector<Density> grid = densities();
  std::vector<std::uint8_t> x(s.n);
  // Two seeds at least; small shapes take more until enough indices were compared.
  for (std::uint64_t seed = 1; seed <= 2 || checker.compared < kMinIndicesPerTest; ++seed) {
    ASSERT_LT(seed, 100000u) << "too few indices: the density grid produces almost none";
    for (std::size_t di = 0; di < grid.size(); ++di) {
      Rng rng(seed * 1000003 + di * 7919 + std::uint64_t(s.n));
      workloads::fill_activations(rng, x.data(), s.n, grid[di], 127);
      const auto diff = checker.check(x.data(), grid[di].name() + " seed " + std::to_string(seed));
      ASSERT_FALSE(diff) << *diff;
    }
  }
  EXPECT_GE(checker.compared, kMinIndicesPerTest);
}

// Zeros and one non-zero value v in patterns that hit every mask bit, block edge and tail.
// Repeated with v = 127, 1, then 2, 3, ... until enough indices were compared.
TEST_P(FindNnz, MatchesReferenceOnBoundaryInputs) {
  const auto& [v, s] = GetParam();
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  NnzChecker checker(*v, s);
  const int n = s.n;
  std::vector<std::uint8_t> x(n);
  for (int round = 0; round < 2 || checker.compared < kMinIndicesPerTest; ++round) {
    const std::uint8_t value = std::uint8_t(round == 0 ? 127 : round == 1 ? 1 : 2 + (round - 2) % 125);
    auto check = [&](const std::string& what) {
      const auto diff = checker.check(x.data(), what + ", non-zero value " + std::to_string(value));
      if (diff) ADD_FAILURE() << *diff;
      return !diff;
    };
    auto pattern = [&](auto nonzero_at) {
      for (int i = 0; i < n; ++i) x[i] = nonzero_at(i) ? value : 0;
    };
    pattern([](int) { return false; });
    if (!check("all zero")) return;
    pattern([](int) { return true; });
    if (!check("all non-zero")) return;
    pattern([](int i) { return i % 2 == 0; });
    if (!check("even bytes non-zero")) return;
    pattern([](int i) { return i % 2 == 1; });
    if (!check("odd bytes non-zero")) return;
    pattern([](int i) { return i % 4 == 3; });
    if (!check("only the last byte of each chunk non-zero")) return;
    pattern([](int i) { return i % 4 == 0; });
    if (!check("only the first byte of each chunk non-zero")) return;
    for (int p = 0; p < n; ++p) {
      pattern([p](int i) { return i == p; });
      if (!check("only byte " + std::to_string(p) + " non-zero")) return;
      pattern([p](int i) { return i != p; });
      if (!check("only byte " + std::to_string(p) + " zero")) return;
    }
    for (int k = 1; k <= std::min(n, 70); ++k) {
      pattern([n, k](int i) { return i >= n - k; });
      if (!check("only the last " + std::to_string(k) + " bytes non-zero")) return;
    }
  }
  EXPECT_GE(checker.compared, kMinIndicesPerTest);
}

// Forcing another op's variant leaves these suites empty, which is not an error.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FindNnz);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FindNnzDomain);

INSTANTIATE_TEST_SUITE_P(, FindNnz, ::testing::ValuesIn(make_cases()), [](const auto& info) {
  const Case& c = info.param;
  return param_name(c.variant->info.name + "/" +
                    (c.variant->info.available() ? find_nnz::shape_name(c.shape) : std::string("unavailable")));
});

// ---- the signed-compare domain ------------------------------------------------------------

// What a signed compare against zero keeps: a byte as int8 > 0; a chunk as a little-endian
// int32 > 0 (its byte 3 is the sign byte), so 200 in byte 3 drops the chunk whatever the
// other bytes hold, and 200 in byte 0 does not.
int signed_model(const Shape& s, const std::uint8_t* x, std::uint16_t* out) {
  int count = 0;
  for (int e = 0; e < max_count(s); ++e) {
    bool keep;
    if (s.form == Form::kBytes) {
      keep = std::int8_t(x[e]) > 0;
    } else {
      const std::uint32_t w = std::uint32_t(x[4 * e]) | std::uint32_t(x[4 * e + 1]) << 8 |
                              std::uint32_t(x[4 * e + 2]) << 16 | std::uint32_t(x[4 * e + 3]) << 24;
      keep = std::int32_t(w) > 0;
    }
    if (keep) out[count++] = std::uint16_t(e);
  }
  return count;
}

struct DomainCase {
  const Variant* variant;
};
void PrintTo(const DomainCase& c, std::ostream* os) { *os << c.variant->info.name; }

std::vector<DomainCase> domain_cases() {
  std::vector<DomainCase> out;
  for (const Variant* v : variants_under_test(find_nnz::variants())) out.push_back({v});
  return out;
}

class FindNnzDomain : public ::testing::TestWithParam<DomainCase> {};

// Signed-compare variants miss a byte of 200 and a chunk whose top byte is 200 (the
// reference counts both) and equal the signed model on all of 0..255; every other variant
// equals the reference on all of 0..255.
TEST_P(FindNnzDomain, BytesAbove127) {
  const Variant* v = GetParam().variant;
  NNUELAB_SKIP_IF_UNAVAILABLE(v->info);
  const bool is_signed = kSignedTechniques.count(v->info.technique) > 0;
  long compared = 0;
  int forms = 0;
  for (Form form : {Form::kBytes, Form::kChunks}) {
    const Shape s{256, form};
    if (!find_nnz::why_unsupported(*v, s).empty()) continue;
    ++forms;
    NnzChecker checker(*v, s);
    std::vector<std::uint8_t> x(s.n, 0);
    std::vector<std::uint16_t> want(max_count(s) + 1), ref_out(max_count(s) + 1);
    // By hand. Bytes: 200 at 5, 3 at 77. Chunks: 200 in the top byte (chunk 3), in byte 0
    // (chunk 9), in the top byte beside a 7 (chunk 20), and a 127 top byte (chunk 33).
    std::vector<std::uint16_t> expect_ref, expect_signed;
    if (form == Form::kBytes) {
      x[5] = 200;
      x[77] = 3;
      expect_ref = {5, 77};
      expect_signed = {77};
    } else {
      x[4 * 3 + 3] = 200;
      x[4 * 9 + 0] = 200;
      x[4 * 20 + 0] = 7;
      x[4 * 20 + 3] = 200;
      x[4 * 33 + 3] = 127;
      expect_ref = {3, 9, 20, 33};
      expect_signed = {9, 33};
    }
    const int ref_count = reference(s, x.data(), ref_out.data());
    ASSERT_EQ(std::vector<std::uint16_t>(ref_out.begin(), ref_out.begin() + ref_count), expect_ref);
    const auto& expect = is_signed ? expect_signed : expect_ref;
    auto diff = checker.check_against(x.data(), expect.data(), int(expect.size()),
                                      is_signed ? "hand case (signed compare: 200 must be missed)" : "hand case");
    ASSERT_FALSE(diff) << *diff;
    // Random bytes over the whole 0..255 range, at several densities.
    int diverged = 0;
    const std::vector<Density> grid = {{DensityKind::kDense, 100}, {DensityKind::kByte, 30},
                                       {DensityKind::kChunk, 30}, {DensityKind::kByte, 5}};
    for (std::uint64_t seed = 1; seed <= 4 || checker.compared < kMinIndicesPerTest; ++seed) {
      for (std::size_t di = 0; di < grid.size(); ++di) {
        const Density& d = grid[di];
        Rng rng(seed * 104729 + di * 31 + std::uint64_t(form));
        workloads::fill_activations(rng, x.data(), s.n, d, 255);
        const int want_count = is_signed ? signed_model(s, x.data(), want.data()) : reference(s, x.data(), want.data());
        diverged += want_count != reference(s, x.data(), ref_out.data());
        diff = checker.check_against(x.data(), want.data(), want_count,
                                     "bytes 0..255 " + d.name() + " seed " + std::to_string(seed) +
                                         (is_signed ? " (against the signed-compare model)" : ""));
        ASSERT_FALSE(diff) << *diff;
      }
    }
    if (is_signed) {
      EXPECT_GT(diverged, 0) << "the random inputs never separated signed from unsigned";
    }
    compared += checker.compared;
  }
  ASSERT_GT(forms, 0) << v->info.name << " supports neither form at n = 256";
  EXPECT_GE(compared, kMinIndicesPerTest);
}

INSTANTIATE_TEST_SUITE_P(, FindNnzDomain, ::testing::ValuesIn(domain_cases()),
                         [](const auto& info) { return param_name(info.param.variant->info.name); });

// ---- limits, refusals, dispatch ---------------------------------------------------------------

// The largest input the op takes: 65536 bytes, so index 65535 (bytes) and 16383 (chunks).
TEST(FindNnzLimits, LargestInputs) {
  long compared = 0;
  for (const Variant* v : variants_under_test(find_nnz::variants())) {
    if (!v->info.available()) continue;
    for (Form form : {Form::kBytes, Form::kChunks}) {
      const Shape s{65536, form};
      if (!find_nnz::why_unsupported(*v, s).empty()) continue;
      NnzChecker checker(*v, s);
      std::vector<std::uint8_t> x(s.n, 127);
      auto diff = checker.check(x.data(), "all 127");
      ASSERT_FALSE(diff) << *diff;
      std::fill(x.begin(), x.end(), 0);
      x.back() = 1;
      diff = checker.check(x.data(), "only the last byte non-zero");
      ASSERT_FALSE(diff) << *diff;
      Rng rng(65536);
      workloads::fill_activations(rng, x.data(), s.n, {DensityKind::kChunk, 15}, 127);
      diff = checker.check(x.data(), "chunk:15");
      ASSERT_FALSE(diff) << *diff;
      compared += checker.compared;
    }
  }
  if (compared == 0) GTEST_SKIP() << "no available find_nnz variant selected";
  EXPECT_GE(compared, kMinIndicesPerTest);
}

TEST(FindNnzRefusals, RefusedShapesThrowWithTheReason) {
  std::vector<std::uint8_t> in(65540);
  std::vector<std::uint16_t> out(65540 + kOutputSlack);
  int refused = 0, refused_by_variant = 0;
  for (const Variant* v : variants_under_test(find_nnz::variants())) {
    if (!v->info.available()) continue;
    for (const Shape& s : {Shape{0, Form::kBytes}, Shape{65537, Form::kBytes}, Shape{-4, Form::kChunks},
                           Shape{6, Form::kChunks}, Shape{65540, Form::kChunks}, Shape{64, Form::kBytes},
                           Shape{64, Form::kChunks}}) {
      const std::string why = find_nnz::why_unsupported(*v, s);
      if (why.empty()) continue;
      ++refused;
      const bool op_allows = s.n >= 1 && s.n <= 65536 && (s.form == Form::kBytes || s.n % 4 == 0);
      refused_by_variant += op_allows;
      try {
        find_nnz::run(*v, s, in.data(), out.data());
        ADD_FAILURE() << v->info.name << " ran refused shape " << find_nnz::shape_name(s);
      } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(v->info.name), std::string::npos) << msg;
        EXPECT_NE(msg.find(why), std::string::npos) << msg;
      }
    }
    EXPECT_THROW(find_nnz::run(*v, {64, Form::kBytes}, nullptr, out.data()), std::invalid_argument) << v->info.name;
    EXPECT_THROW(find_nnz::run(*v, {64, Form::kChunks}, in.data(), nullptr), std::invalid_argument) << v->info.name;
  }
  if (refused == 0) GTEST_SKIP() << "no find_nnz variant selected";
  for (const Variant* v : variants_under_test(find_nnz::variants())) {
    if (v->info.name == "find_nnz/avx2/bitset_lsb" && v->info.available()) {
      EXPECT_GE(refused_by_variant, 1) << "avx2/bitset_lsb must refuse the bytes form";
    }
  }
}

// The dispatcher runs the forced variant, or else a native one this CPU has, and it
// computes the op (on the forms the forced variant supports).
TEST(FindNnzDispatch, RunActiveMatchesTheReference) {
  const auto forced = forced_variant();
  const Variant* forced_here =
      forced && forced->starts_with("find_nnz/") ? find_variant(find_nnz::variants(), *forced) : nullptr;
  long compared = 0;
  int forms = 0;
  for (Form form : {Form::kBytes, Form::kChunks}) {
    const Shape s{1024, form};
    if (forced_here && !find_nnz::why_unsupported(*forced_here, s).empty()) continue;
    ++forms;
    std::vector<std::uint8_t> x(s.n);
    std::vector<std::uint16_t> got(max_count(s) + kOutputSlack), want(max_count(s));
    for (int seed = 1; seed <= 16 || compared < kMinIndicesPerTest; ++seed) {
      Rng rng(seed);
      workloads::fill_activations(rng, x.data(), s.n, {DensityKind::kByte, 50}, 127);
      const Variant* ran = nullptr;
      const int count = find_nnz::run_active(s, x.data(), got.data(), &ran);
      ASSERT_NE(ran, nullptr);
      if (forced_here) {
        EXPECT_EQ(ran, forced_here) << ran->info.name;
      } else {
        EXPECT_TRUE(ran->info.available() && !ran->info.emulated) << ran->info.name;
      }
      const int want_count = reference(s, x.data(), want.data());
      ASSERT_EQ(count, want_count) << ran->info.name;
      const auto diff = compare(got.data(), want.data(), std::size_t(count), ran->info.name + " via run_active");
      ASSERT_FALSE(diff) << *diff;
      compared += count;
    }
  }
  ASSERT_GT(forms, 0);
  EXPECT_GE(compared, kMinIndicesPerTest);
}

}  // namespace
}  // namespace nnuelab::test
