// The registry itself: names, forced variants, dispatch, and proof that the bit-exact
// harness catches a wrong kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "kernels/affine/registry.h"
#include "kernels/crelu16/registry.h"
#include "kernels/crelu32/registry.h"
#include "kernels/crelu32_pair/registry.h"
#include "kernels/quantmoid4/registry.h"
#include "kernels/quantize/registry.h"
#include "kernels/sqr_crelu32/registry.h"
#include "reference/crelu16.h"
#include "reference/find_nnz.h"
#include "reference/quantmoid4.h"
#include "tests/elementwise_tester.h"

namespace nnuelab::test {
namespace {

TEST(Registry, ForcedVariantIsValid) {
  try {
    check_forced_variant();
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
}

TEST(Registry, NamesAreUniqueAndFollowTheGrammar) {
  std::set<std::string> isas;
  for (const std::string& isa : isa_names()) {
    isas.insert(isa);
    isas.insert(isa + "-emu");
  }
  const std::regex grammar("([a-z0-9_]+)/([a-z0-9-]+)/([a-z0-9_]+)");
  std::set<std::string> seen;
  for (const VariantInfo* v : all_variants()) {
    EXPECT_TRUE(seen.insert(v->name).second) << "duplicate variant " << v->name;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(v->name, m, grammar)) << v->name;
    EXPECT_EQ(m[1], v->op);
    EXPECT_EQ(m[2], v->isa);
    EXPECT_EQ(m[3], v->technique);
    EXPECT_TRUE(isas.count(v->isa)) << v->name << ": ISA not in the table";
    EXPECT_FALSE(v->note.empty()) << v->name << " says nothing about what it is for";
    EXPECT_EQ(v->emulated, v->isa.ends_with("-emu"));
    if (v->emulated) {
      EXPECT_EQ(v->needs, 0u) << "emulated builds run on any CPU";
    }
  }
  EXPECT_GE(seen.size(), 6u);
}

TEST(Registry, EveryOpHasAPortableVariant) {
  for (const std::string op : {"affine", "crelu16", "crelu32", "sqr_crelu32", "crelu32_pair", "quantmoid4"}) {
    bool found = false;
    for (const VariantInfo* v : all_variants()) found |= v->op == op && v->isa == "scalar";
    EXPECT_TRUE(found) << op << " has no scalar variant";
  }
}

TEST(Registry, DisabledFeaturesAreParsed) {
  EXPECT_EQ(feature_from_name("avx2"), kAVX2);
  EXPECT_EQ(feature_from_name("avx512vnni"), kAVX512VNNI);
  EXPECT_EQ(feature_from_name("nonsense"), 0u);
  EXPECT_EQ(feature_names(kAVX2 | kBMI2), "avx2,bmi2");
  // The mask only ever removes features.
  EXPECT_EQ(cpu_features() & ~cpu_features_detected(), 0u);
}

// The signature names the core as the kernel does: /proc/cpuinfo's vendor_id, cpu family,
// model and stepping of the first processor (decimal, the display family and model). Under
// an emulator (qemu-x86_64 -cpu Nehalem in CI) CPUID is the emulated CPU's and
// /proc/cpuinfo the host's: there the brand strings differ and only the form is checked.
TEST(Cpu, SignatureAgreesWithProcCpuinfo) {
  const std::string sig = cpu_signature();
#if defined(__x86_64__) || defined(__i386__)
  std::smatch m;
  ASSERT_TRUE(std::regex_match(sig, m, std::regex(R"((\S{12}) family (\d+) model (\d+) stepping (\d+))"))) << sig;
  std::ifstream in("/proc/cpuinfo");
  std::map<std::string, std::string> first;  // key -> value, the first processor's
  for (std::string line; std::getline(in, line) && !line.empty();) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const auto from = line.find_first_not_of(" \t", colon + 1);
    first[key] = from == std::string::npos ? "" : line.substr(from);
  }
  if (first.empty()) return;  // no /proc (not Linux): the form above is all there is to check
  if (first["model name"] != cpu_model()) {
    std::printf("CPUID's brand \"%s\" is not /proc/cpuinfo's \"%s\" (an emulator): form checked only: %s\n",
                cpu_model().c_str(), first["model name"].c_str(), sig.c_str());
    return;
  }
  EXPECT_EQ(m[1], first["vendor_id"]);
  EXPECT_EQ(m[2], first["cpu family"]);
  EXPECT_EQ(m[3], first["model"]);
  EXPECT_EQ(m[4], first["stepping"]);
#else
  if (!sig.empty()) {
    EXPECT_TRUE(std::regex_match(sig, std::regex(R"(implementer 0x[0-9a-f]+ part 0x[0-9a-f]+( variant 0x[0-9a-f]+)?( revision \d+)?)"))) << sig;
  }
#endif
}

// Runs only under NNUELAB_FORCE_VARIANT (CTest's force_variant.* tests set it).
TEST(ForcedVariant, SuitesAndDispatchUseOnlyTheForcedVariant) {
  const auto forced = forced_variant();
  if (!forced) GTEST_SKIP() << "NNUELAB_FORCE_VARIANT is not set (CTest's force_variant.selects_and_runs sets it)";
  std::vector<std::string> selected;
  for (const auto* v : selected_variants(affine::variants())) selected.push_back(v->info.name);
  for (const auto* v : selected_variants(crelu16::variants())) selected.push_back(v->info.name);
  for (const auto* v : selected_variants(crelu32::variants())) selected.push_back(v->info.name);
  for (const auto* v : selected_variants(sqr_crelu32::variants())) selected.push_back(v->info.name);
  for (const auto* v : selected_variants(crelu32_pair::variants())) selected.push_back(v->info.name);
  for (const auto* v : selected_variants(quantmoid4::variants())) selected.push_back(v->info.name);
  ASSERT_EQ(selected.size(), 1u) << "forcing must leave exactly one variant across all ops";
  EXPECT_EQ(selected[0], *forced);
  if (!forced->starts_with("crelu16/")) return;
  // The dispatcher that programs use runs the forced variant, and it computes the op.
  std::int16_t in[64];
  for (int i = 0; i < 64; ++i) in[i] = std::int16_t(i * 997 - 30000);
  std::uint8_t got[64], want[64];
  const crelu16::Variant& ran = crelu16::run_active({64}, in, got);
  EXPECT_EQ(ran.info.name, *forced);
  ref::crelu16(in, 64, want);
  if (!ran.canonical_order()) {  // a forced *_lanes form: its bytes in its declared order
    const std::vector<int> order = crelu16::output_order(ran, {64});
    std::uint8_t produced[64];
    std::copy(got, got + 64, produced);
    for (int p = 0; p < 64; ++p) got[order[p]] = produced[p];
  }
  EXPECT_FALSE(first_mismatch(got, want, 64));
}

TEST(Dispatch, WithoutForcingTheBestAvailableNativeVariantRuns) {
  if (forced_variant()) GTEST_SKIP() << "NNUELAB_FORCE_VARIANT is set";
  // Two widths: 32 is refused by the 512-bit kernels (n % 64), so on an AVX-512 CPU the
  // best for 32 is an AVX2 one and for 1024 the AVX-512 one: dispatch respects the shape.
  for (const int n : {32, 1024}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<std::int16_t> in(n, 5);
    std::vector<std::uint8_t> out(n);
    const crelu16::Shape shape{n};
    const crelu16::Variant& ran = crelu16::run_active(shape, in.data(), out.data());
    EXPECT_TRUE(ran.info.available());
    EXPECT_FALSE(ran.info.emulated);
    EXPECT_TRUE(crelu16::why_unsupported(ran, shape).empty()) << ran.info.name;
    EXPECT_EQ(out[n - 1], 5) << ran.info.name;
    // No later registry entry is runnable, native and accepts the shape: the "best" is the
    // last such one (*_bits producers need a bitset buffer and *_lanes ones a next layer
    // prepared for their order, so dispatch never picks them unforced; xsimd builds, the
    // portable comparison column registered last, run only when forced).
    EXPECT_FALSE(ran.writes_bits);
    EXPECT_TRUE(ran.canonical_order()) << ran.info.name;
    EXPECT_FALSE(ran.info.portable) << ran.info.name;
    bool after = false;
    for (const auto& v : crelu16::variants()) {
      if (&v == &ran) {
        after = true;
      } else if (after && !v.writes_bits && v.canonical_order()) {
        EXPECT_FALSE(v.info.available() && !v.info.emulated && !v.info.portable &&
                     crelu16::why_unsupported(v, shape).empty())
            << v.info.name;
      }
    }
  }
}

// run_active remembers its last four choices per op and thread (active_variant_for): more
// shapes than that, in turn and twice over, must each get the variant a fresh scan picks,
// and a shape no variant accepts must throw every time, not only before it was seen.
TEST(Dispatch, RememberedChoicesAreTheFreshScansChoices) {
  if (forced_variant()) GTEST_SKIP() << "NNUELAB_FORCE_VARIANT is set";
  // 7 and 33: tails; 32 is refused by the 512-bit kernels, 1024 and 4096 are not.
  const std::vector<int> widths = {1024, 32, 7, 4096, 64, 33, 1024, 7, 32, 64, 4096, 33};
  for (int round = 0; round < 2; ++round)
    for (const int n : widths) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", round " + std::to_string(round));
      const crelu16::Shape shape{n};
      const crelu16::Variant& fresh = active_variant(
          crelu16::variants(), [&](const crelu16::Variant& v) { return crelu16::why_unsupported(v, shape).empty(); });
      std::vector<std::int16_t> in(n, 300);
      std::vector<std::uint8_t> out(n, 0);
      const crelu16::Variant& ran = crelu16::run_active(shape, in.data(), out.data());
      EXPECT_EQ(&ran, &fresh) << ran.info.name << " against " << fresh.info.name;
      EXPECT_EQ(out[n - 1], 127) << ran.info.name;
      // Another op between two calls of this one: its choice is kept apart.
      const quantmoid4::Shape qshape{n};
      const quantmoid4::Variant& qfresh = active_variant(quantmoid4::variants(), [&](const quantmoid4::Variant& v) {
        return quantmoid4::why_unsupported(v, qshape).empty();
      });
      EXPECT_EQ(&quantmoid4::run_active(qshape, in.data(), out.data()), &qfresh) << qfresh.info.name;
    }
  std::int16_t in[1] = {0};
  std::uint8_t out[1];
  for (int call = 0; call < 2; ++call)
    EXPECT_THROW(crelu16::run_active({-1}, in, out), std::invalid_argument) << "call " << call;
  EXPECT_EQ(&crelu16::run_active({1024}, std::vector<std::int16_t>(1024).data(), std::vector<std::uint8_t>(1024).data()),
            &active_variant(crelu16::variants(),
                            [](const crelu16::Variant& v) { return crelu16::why_unsupported(v, {1024}).empty(); }));
}

// The ISA table's lookups: an ISA no row names is a programming error (a registry naming
// it), not an empty feature set; the flags are the table's (the -emu builds have none).
TEST(Registry, IsaTableLookups) {
  EXPECT_THROW(isa_features("avx1024"), std::logic_error);
  EXPECT_EQ(isa_features("avx512bw-emu"), Features(0));
  EXPECT_NE(isa_features("avx2"), Features(0));
  EXPECT_NE(isa_flags("avx2").find("-mavx2"), std::string::npos) << isa_flags("avx2");
  EXPECT_EQ(isa_flags("avx512vnni-emu"), "(none: SIMDe emulation)");
  EXPECT_EQ(isa_flags("avx1024"), "");
}

// No registered variant after `ran` is one dispatch could have picked (the pick is the last
// eligible one in registry order).
template <class V, class Eligible>
void expect_last_eligible(std::span<const V> all, const V& ran, Eligible eligible) {
  EXPECT_TRUE(eligible(ran)) << ran.info.name;
  bool after = false;
  for (const V& v : all) {
    if (&v == &ran) {
      after = true;
    } else if (after) {
      EXPECT_FALSE(eligible(v)) << v.info.name << " comes after " << ran.info.name;
    }
  }
}

// The other dispatchers, quantmoid4's run_active and quantize's active (no other test
// reached them: ./lab coverage): the best native variant runs, and computes the op.
TEST(Dispatch, Quantmoid4AndQuantizePickTheirBestNativeVariant) {
  if (forced_variant()) GTEST_SKIP() << "NNUELAB_FORCE_VARIANT is set";
  const int n = 512;
  std::vector<std::int16_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = std::int16_t((i * 131) % 65536 - 32768);  // spans the int16 range
  std::vector<std::uint8_t> got(n), want(n);
  const quantmoid4::Shape shape{n};
  const quantmoid4::Variant& ran = quantmoid4::run_active(shape, in.data(), got.data());
  ref::quantmoid4(in.data(), n, want.data());
  EXPECT_FALSE(first_mismatch(got.data(), want.data(), n)) << ran.info.name;
  expect_last_eligible(quantmoid4::variants(), ran, [&](const quantmoid4::Variant& v) {
    return v.info.available() && !v.info.emulated && !v.info.portable && !v.writes_bits && v.canonical_order() &&
           quantmoid4::why_unsupported(v, shape).empty();
  });
  const quantize::Variant& q = quantize::active();
  expect_last_eligible(quantize::variants(), q, [](const quantize::Variant& v) {
    return v.info.available() && !v.info.emulated && !v.info.portable;
  });
}

// A test that cannot fail is a defect: plant a wrong kernel and watch the harness catch it.
void planted_bug_run(const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t*) {
  ref::crelu16(in, s.n, out);
  for (int i = 0; i < s.n; ++i)
    if (in[i] == 128) out[i] = 128;  // wrong: 128 must clamp to 127
}
const char* planted_bug_supports(const crelu16::Shape&) { return nullptr; }

TEST(HarnessSelfTest, WrongCrelu16VariantIsCaughtWithItsIndex) {
  const crelu16::Variant wrong{make_variant_info("crelu16", "scalar", "planted_bug", "wrong on purpose"),
                               &planted_bug_supports, &planted_bug_run, false};
  ElementwiseTester<crelu16::Variant> t(
      wrong, {32}, [](const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out) { ref::crelu16(in, s.n, out); },
      [](const crelu16::Variant& v, const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
        crelu16::run(v, s, in, out, bits);
      });
  std::vector<std::int16_t> stream(64, 5);
  stream[40] = 128;  // second call, index 8
  const auto diff = t.check(stream, "planted");
  ASSERT_TRUE(diff) << "the harness missed a wrong output";
  EXPECT_NE(diff->find("first difference at index 8: got 128, reference 127"), std::string::npos) << *diff;
  EXPECT_NE(diff->find("stream offset 32"), std::string::npos) << *diff;
}

// A fused producer whose output is right but whose nnz bitset drops chunk 5's bit.
void planted_bits_run(const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
  ref::crelu16(in, s.n, out);
  ref::nnz_chunk_bitset(out, s.n, bits);
  bits[0] &= ~(std::uint64_t(1) << 5);
}

TEST(HarnessSelfTest, WrongBitsetIsCaught) {
  const crelu16::Variant wrong{make_variant_info("crelu16", "scalar", "planted_bits", "wrong on purpose"),
                               &planted_bug_supports, &planted_bits_run, true};
  ElementwiseTester<crelu16::Variant> t(
      wrong, {64}, [](const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out) { ref::crelu16(in, s.n, out); },
      [](const crelu16::Variant& v, const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* bits) {
        crelu16::run(v, s, in, out, bits);
      });
  const auto diff = t.check(std::vector<std::int16_t>(64, 3), "planted");
  ASSERT_TRUE(diff) << "the harness missed a wrong bitset";
  EXPECT_NE(diff->find("nnz bitset words"), std::string::npos) << *diff;
  // ... and the checked entry point refuses a *_bits variant without a bits buffer.
  std::int16_t in[64] = {};
  std::uint8_t out[64];
  EXPECT_THROW(crelu16::run(wrong, {64}, in, out, nullptr), std::invalid_argument);
}

TEST(ReferenceBitset, MarksExactlyTheNonZeroChunks) {
  std::vector<std::uint8_t> bytes(262, 0);  // 66 chunks, the last one partial (2 bytes)
  bytes[3] = 1;                             // chunk 0, its last byte
  bytes[4 * 63 + 1] = 200;                  // chunk 63 (word 0's top bit), a byte >= 128
  bytes[261] = 7;                           // chunk 65, the partial one
  std::uint64_t bits[3] = {~0ull, ~0ull, ~0ull};
  ref::nnz_chunk_bitset(bytes.data(), int(bytes.size()), bits);
  EXPECT_EQ(bits[0], (std::uint64_t(1) << 63) | 1u);
  EXPECT_EQ(bits[1], std::uint64_t(1) << 1);
  EXPECT_EQ(bits[2], ~0ull) << "wrote past ceil(66 / 64) = 2 words";
}

}  // namespace
}  // namespace nnuelab::test
