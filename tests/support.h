// Helpers shared by the per-op bit-exact suites.
#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/common/variant.h"

// GCC defines __SANITIZE_ADDRESS__ under ASan; clang (before 15) answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define NNUELAB_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NNUELAB_UNDER_ASAN 1
#endif
#endif

namespace nnuelab::test {

// Variants a suite is instantiated over: the registry (or the forced variant). A bad
// NNUELAB_FORCE_VARIANT is reported by Registry.ForcedVariantIsValid, not by a crash
// during test registration, so selection errors yield an empty list here.
template <class V>
std::vector<const V*> variants_under_test(std::span<const V> all) {
  try {
    return selected_variants(all);
  } catch (const std::exception&) {
    return {};
  }
}

// Every available variant must be in its suite's case list: a variant whose every shape
// the suite refuses would be registered, listed as available and never tested (./lab
// mutate found the AVX-512 sparse_lut_i8_tile64 forms, avx512bw and avx512vnni, native and
// -emu: no shape of the affine suite had out % 64 == 0). Each case builder reports its
// list here as it is made, and Coverage.EveryAvailableVariantHasACase fails naming each
// variant left out.
void report_variants_without_cases(const std::string& suite, const std::vector<std::string>& names);
const std::vector<std::string>& variants_without_cases();  // "suite: variant"

template <class V, class Cases>
void check_every_variant_has_a_case(const std::string& suite, std::span<const V> all, const Cases& cases) {
  std::vector<std::string> missing;
  for (const V* v : variants_under_test(all)) {
    bool found = false;
    for (const auto& c : cases) found = found || c.variant == v;
    if (!found) missing.push_back(v->info.name);
  }
  report_variants_without_cases(suite, missing);
}

// Bytes per vector register of an ISA build ("avx2" -> 32; its -emu twin the same), 0 for
// scalar and portable builds.
int isa_vector_bytes(std::string isa);

// GoogleTest parameter names may only hold [A-Za-z0-9_]; the variant name is kept whole
// otherwise ("affine/avx2/dense_rows4/64x32" -> "affine_avx2_dense_rows4_64x32").
std::string param_name(const std::string& s);

// A variant this CPU cannot run is a skip naming the missing feature, never a pass.
#define NNUELAB_SKIP_IF_UNAVAILABLE(info)                                               \
  do {                                                                                 \
    if (!(info).available()) GTEST_SKIP() << (info).name << " needs " << (info).missing() \
                                          << ", which this CPU lacks";                 \
  } while (0)

// First index where two arrays differ, compared as bytes of each element.
template <class T>
std::optional<std::size_t> first_mismatch(const T* got, const T* want, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) return i;
  return std::nullopt;
}

// Compares and, on a difference, describes it: where (index), what (got vs want), and how
// to reproduce it (the context string carries variant, shape, density, seed).
template <class T>
std::optional<std::string> compare(const T* got, const T* want, std::size_t n, const std::string& context) {
  const auto i = first_mismatch(got, want, n);
  if (!i) return std::nullopt;
  std::ostringstream os;
  std::size_t count = 0;
  for (std::size_t j = *i; j < n; ++j) count += std::memcmp(&got[j], &want[j], sizeof(T)) != 0;
  os << context << ": first difference at index " << *i << ": got " << +got[*i] << ", reference "
     << +want[*i] << " (" << count << " of " << n << " outputs differ)";
  return os.str();
}

// A variant writes its outputs and nothing after them. The tests' output buffers
// (workloads::Buffer) keep a spare line past their n elements, so a store past the end
// lands in owned memory and not even the sanitizer build notices it: a tester poisons
// those bytes once and, after each call, checks that they kept the poison. An input
// buffer's spare line is poisoned too (kernels may load past the end, but a byte read
// there must not reach an output, and zeros would hide one that does).
inline constexpr unsigned char kTailPoison = 0xA5;

template <class B>
void poison_tail(B& buf) {
  auto* p = reinterpret_cast<unsigned char*>(buf.data());
  std::memset(p + buf.size() * sizeof(*buf.data()), kTailPoison, buf.bytes() - buf.size() * sizeof(*buf.data()));
}

template <class B>
std::optional<std::string> tail_written(const B& buf, const std::string& context) {
  const auto* p = reinterpret_cast<const unsigned char*>(buf.data());
  const std::size_t end = buf.size() * sizeof(*buf.data());
  for (std::size_t k = end; k < buf.bytes(); ++k)
    if (p[k] != kTailPoison)
      return context + ": wrote past the last output (byte " + std::to_string(k - end) + " after it)";
  return std::nullopt;
}

}  // namespace nnuelab::test
